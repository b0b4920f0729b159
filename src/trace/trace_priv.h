/* trace_priv.h -- the contract between trace.c and the trace readers.
 * Not installed, not part of the API.
 *
 * A trace format is one reader file that fills one trace_format (the ops
 * table, after SQLite's sqlite3_vfs) and one line in trace.c's registry.
 * trace.c opens the input with the line reader (include/skewsim/lineread.h),
 * lets each format's probe look at its first line, hands the reader to the
 * format that claims it, and from then on only dispatches: it never asks
 * which format it holds.  The readers (native.c, accelsim.c) share the line
 * reader, the limits and the number and register syntax below, and never
 * call each other.
 */
#ifndef SKEWSIM_TRACE_PRIV_H
#define SKEWSIM_TRACE_PRIV_H

#include "skewsim/lineread.h"
#include "skewsim/trace.h"

/* ---- limits every reader enforces ----
 * What one kernel may cost to hold and to parse: a gzip'd trace of a few MB
 * can inflate to a few GB of lines, and name lookups are linear scans
 * (docs/trace-format.md, "Limits").  One set for every format, so that what
 * `skewsim import` writes reads back (writer.c refuses names longer than
 * the NAME/OPNAME bounds). */
#define TRACE_MAX_INSTRS (1u << 24)         /* entries per kernel, over all its programs (~740 MB) */
#define TRACE_MAX_PROGRAMS 4096             /* programs per kernel */
#define TRACE_MAX_OPNAMES 1024              /* distinct mnemonics per program */
#define TRACE_GRID_MAX (UINT64_C(1) << 32)  /* CTAs per kernel */
#define TRACE_BLOCK_MAX 1024                /* threads per CTA (CUDA's limit) */
#define TRACE_REGS_MAX 255                  /* registers per thread */
#define TRACE_SMEM_MAX (16u << 20)          /* shared memory bytes per CTA */
#define TRACE_STREAM_MAX 255                /* stream ids 0..255 (docs/trace-format.md) */
#define TRACE_NAME_MAX_BYTES 4096           /* kernel and program names (writer.c) */
#define TRACE_OPNAME_MAX_BYTES 255          /* opcode mnemonics (writer.c) */

/* ---- the ops table of a trace format ---- */

typedef struct trace_format {
    const char *name;             /* "native", "accelsim" */
    /* 1 when this format reads the input called `name` (a path, "<stdin>"
     * or trace_open_string()'s name) whose first line that is neither
     * blank nor a '#' comment is `first`: NULL when there is none. */
    int (*probe)(const char *name, const char *first);
    /* A reader over `src`, whose next line is the first of the input (the
     * probed line is read again).  `src` is borrowed: trace.c closes it
     * after close().  NULL with *e filled when the input is already known
     * bad; a format may instead report that on the first next_kernel(). */
    void *(*open)(lineread *src, const char *first, sk_error *e);
    /* trace_next_kernel() and trace_next_cta(); *k arrives zeroed. */
    int (*next_kernel)(void *r, kernel *k, sk_error *e);
    int (*next_cta)(void *r, cta_desc *d, sk_error *e);
    /* trace_next_ctas(); NULL: one CTA at a time through next_cta. */
    int (*next_ctas)(void *r, cta_desc *d, uint64_t *count, sk_error *e);
    /* trace_input_files() for a reader opened on the file `path` (the
     * path as opened: a directory already turned into its kernelslist.g). */
    int (*input_files)(void *r, const char *path, char ***files, size_t *nfiles, sk_error *e);
    /* trace_set_sass(); NULL when the format takes no listing. */
    int (*set_sass)(void *r, const sass *s, const char *name, sk_error *e);
    void (*close)(void *r);       /* NULL is a no-op */
} trace_format;

extern const trace_format trace_native_format;      /* native.c */
extern const trace_format trace_accelsim_format;    /* accelsim.c */

/* ---- trace.c: syntax both formats share ---- */

/* Register syntax of the native format, which Accel-Sim's traces also
 * use: 1 for a register (*pred: a predicate), 0 for RZ/PT/URZ/UPT (no
 * dependency), -1 for anything else. */
int trace_parse_reg(const char *s, int *pred);

/* A plain unsigned decimal (digits only, no sign or blanks) of at most
 * `max`: 0, or -1 for anything else. */
int trace_parse_dec(const char *s, uint64_t max, uint64_t *out);

/* A file list of one entry, `name` (input_files of a one-file format). */
int trace_one_file(const char *name, char ***files, size_t *nfiles);

#endif
