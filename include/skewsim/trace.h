/* trace.h -- the native kernel trace format (docs/trace-format.md).
 *
 * A trace holds one or more kernels.  Each kernel's header and programs are
 * small and parsed whole; its per-CTA section (which program, what work
 * factor) is streamed one CTA at a time while the dispatcher asks for the
 * next one, so memory does not grow with the number of CTAs or kernels.
 * Plain and gzip'd files are read through zlib's gz* interface (which reads
 * both transparently).
 */
#ifndef SKEWSIM_TRACE_H
#define SKEWSIM_TRACE_H

#include "skewsim/common.h"
#include "skewsim/program.h"

typedef struct trace trace;     /* opaque reader */

/* Open a trace file (plain or .gz).  Returns NULL and fills *e on failure.
 * The caller owns the reader and closes it with trace_close(). */
trace *trace_open(const char *path, sk_error *e);
/* Read from a NUL-terminated string; `name` is used in messages. */
trace *trace_open_string(const char *name, const char *text, sk_error *e);
void trace_close(trace *t);     /* NULL is a no-op */

/* Read the next kernel's header and programs into *k (caller frees with
 * kernel_free()).  Returns 1 when a kernel was read, 0 at the end of the
 * trace, or a negative SK_E* code ("file:line: record: problem"). */
int trace_next_kernel(trace *t, kernel *k, sk_error *e);

/* Next CTA of the current kernel, in increasing id order (0..grid-1).
 * Returns 1 when *d was filled, 0 once all grid CTAs were returned, or a
 * negative code on a bad record. */
int trace_next_cta(trace *t, cta_desc *d, sk_error *e);

/* Writer: emit a kernel in the native format (used by `skewsim gen`).
 * `gz` selects gzip output; path "-" is standard output.  Returns 0, SK_EIO,
 * or SK_ETRACE for a kernel the format cannot express (a name with blanks, a
 * register or opcode index without a name). */
int trace_write_kernel(const char *path, const kernel *k, int gz, sk_error *e);

#endif
