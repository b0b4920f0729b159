/* trace_priv.h -- what the native reader (trace.c) shares with the
 * Accel-Sim reader (accelsim.c).  Not installed, not part of the API.
 *
 * trace.c owns the line reader (plain and gzip'd files through zlib, or a
 * string; bounded lines, NUL bytes refused) and the register syntax; the
 * Accel-Sim reader reads its kernelslist and kernel files through the same
 * code, so both formats fail the same way on the same damage.
 */
#ifndef SKEWSIM_TRACE_PRIV_H
#define SKEWSIM_TRACE_PRIV_H

#include "skewsim/trace.h"

/* ---- trace.c: raw lines ---- */

/* Open a file (plain or gzip'd) for raw line reading: no header is parsed.
 * Returns NULL and fills *e (SK_EIO) when it cannot be opened.  Close with
 * trace_close(). */
trace *trace_lines_open(const char *path, sk_error *e);
/* The next physical line, NUL-terminated, without its newline.  Returns 1
 * (*line, *lineno set; the buffer lives until the next call), 0 at the end,
 * or a negative code with the message in *e ("file:line: ..."). */
int trace_lines_next(trace *t, char **line, unsigned long *lineno, sk_error *e);
/* The name the source reports in messages. */
const char *trace_lines_name(const trace *t);
/* 1 when t reads from a string (trace_open_string), not a file. */
int trace_lines_in_memory(const trace *t);

/* Register syntax of the native format: 1 for a register (*pred: a
 * predicate), 0 for RZ/PT/URZ/UPT (no dependency), -1 for anything else. */
int trace_parse_reg(const char *s, int *pred);

/* A plain unsigned decimal (digits only, no sign or blanks) of at most
 * `max`: 0, or -1 for anything else. */
int trace_parse_dec(const char *s, uint64_t max, uint64_t *out);

/* ---- accelsim.c ---- */

typedef struct as_reader as_reader;

enum { AS_NONE, AS_KERNEL_FILE, AS_KERNELSLIST };

/* What the first non-blank line (and the path) say the input is:
 * AS_KERNEL_FILE for a `-kernel name = ...` header, AS_KERNELSLIST for a
 * name ending in kernelslist.g or a MemcpyHtoD / kernel-N.traceg line,
 * else AS_NONE (a native trace, or garbage the native reader reports). */
int as_sniff(const char *path, const char *first_line);

/* A reader over `src`, whose next line is the first of the input; `src`
 * is borrowed (the caller closes it after as_close()).  `kind` is what
 * as_sniff() said.  Errors are reported by the first as_next_kernel(). */
as_reader *as_open(trace *src, int kind);
void as_close(as_reader *r);     /* NULL is a no-op */
/* The list and the kernel files of a kernelslist.g (trace_input_files). */
int as_list_files(const char *list, char ***files, size_t *nfiles, sk_error *e);
/* Take stall counts from this listing (trace_set_sass). */
void as_set_sass(as_reader *r, const sass *s, const char *name);
/* trace_next_kernel() and trace_next_cta() for an Accel-Sim input. */
int as_next_kernel(as_reader *r, kernel *k, sk_error *e);
int as_next_cta(as_reader *r, cta_desc *d, sk_error *e);

#endif
