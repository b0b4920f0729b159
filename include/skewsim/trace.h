/* trace.h -- reading kernel traces, and writing the native format.
 *
 * A trace holds one or more kernels.  Each kernel's header and programs are
 * small and parsed whole; its per-CTA section (which program, what work
 * factor) is streamed one CTA at a time while the dispatcher asks for the
 * next one, so memory does not grow with the number of CTAs or kernels.
 * The reading calls serve every registered format alike: the native one
 * (docs/trace-format.md, src/trace/native.c) and Accel-Sim's
 * (docs/accelsim.md, src/trace/accelsim.c); src/trace/trace_priv.h says
 * how a format plugs in.  Plain and gzip'd files are read through the line
 * reader (skewsim/lineread.h).
 */
#ifndef SKEWSIM_TRACE_H
#define SKEWSIM_TRACE_H

#include "skewsim/common.h"
#include "skewsim/program.h"
#include "skewsim/sass.h"

typedef struct trace trace;     /* opaque reader */

/* Open a trace file (plain or .gz).  Returns NULL and fills *e on failure.
 * The caller owns the reader and closes it with trace_close().  An
 * Accel-Sim trace (a directory holding kernelslist.g, a kernelslist.g, or a
 * kernel-N.traceg, told apart by the first line) reads through the same
 * calls (src/trace/accelsim.c, docs/accelsim.md); its errors come from the
 * first trace_next_kernel(). */
trace *trace_open(const char *path, sk_error *e);
/* Read from a NUL-terminated string; `name` is used in messages. */
trace *trace_open_string(const char *name, const char *text, sk_error *e);
void trace_close(trace *t);     /* NULL is a no-op */

/* An Accel-Sim input takes each instruction's stall count from this
 * `cuobjdump -sass` listing of the traced binary (by kernel name, its
 * -binary version and PC; include/skewsim/sass.h) instead of 1.  Call
 * before the first trace_next_kernel(); `s` stays the caller's and must
 * outlive the reader; `name` is used in messages.  SK_EUSAGE for a native
 * trace, whose stall counts are in the trace itself. */
int trace_set_sass(trace *t, const sass *s, const char *name, sk_error *e);

/* The files a trace reads, in order: the file itself, or for an Accel-Sim
 * kernelslist.g (or its directory) the list and every kernel file it names,
 * resolved as the reader resolves them.  For keys that must change when
 * any input changes (a sweep's resume).  *files and each entry are the
 * caller's to free.  0, or a negative SK_E* code with *e filled. */
int trace_input_files(const char *path, char ***files, size_t *nfiles, sk_error *e);

/* Read the next kernel's header and programs into *k (caller frees with
 * kernel_free()).  Returns 1 when a kernel was read, 0 at the end of the
 * trace, or a negative SK_E* code ("file:line: record: problem"). */
int trace_next_kernel(trace *t, kernel *k, sk_error *e);

/* Next CTA of the current kernel, in increasing id order (0..grid-1).
 * Returns 1 when *d was filled, 0 once all grid CTAs were returned, or a
 * negative code on a bad record. */
int trace_next_cta(trace *t, cta_desc *d, sk_error *e);
/* The next run of CTAs of the current kernel: *count CTAs from d->id on, in
 * id order, that all run d->prog with d->work (a native ctas record, or the
 * CTAs no record covers, at once).  It returns what trace_next_cta() would
 * return, and the two may be mixed. */
int trace_next_ctas(trace *t, cta_desc *d, uint64_t *count, sk_error *e);

/* Writer: emit a kernel in the native format (used by `skewsim gen`).
 * `gz` selects gzip output; path "-" is standard output.  Returns 0, SK_EIO,
 * or SK_ETRACE for a kernel the format cannot express (a name with blanks, a
 * register or opcode index without a name). */
int trace_write_kernel(const char *path, const kernel *k, int gz, sk_error *e);

/* Writer of several kernels into one file, each with a ctas section (used
 * by `skewsim import`).  trace_writer_open() returns NULL and fills *e
 * (SK_EIO) when the file cannot be created; trace_writer_close() flushes,
 * frees the writer and returns 0 or SK_EIO (NULL is a no-op). */
typedef struct trace_writer trace_writer;
/* Yields the CTAs of the kernel being written, in increasing id order:
 * 1 with *d filled, 0 at the end, or a negative SK_E* code.  trace_next_cta
 * has this shape, with the trace as ctx. */
typedef int (*trace_cta_fn)(void *ctx, cta_desc *d, sk_error *e);
trace_writer *trace_writer_open(const char *path, int gz, sk_error *e);
/* Kernel k and, when `next` is not NULL, the ctas section it yields (every
 * CTA of the grid, in order: anything else is SK_ETRACE). */
int trace_writer_kernel(trace_writer *w, const kernel *k, trace_cta_fn next, void *ctx, sk_error *e);
int trace_writer_close(trace_writer *w, sk_error *e);

#endif
