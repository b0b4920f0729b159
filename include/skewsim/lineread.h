/* lineread.h -- the buffered line reader under every trace parser.
 *
 * Lua's lzio.c is the model: one reader hands lines to the native trace
 * parser and to the Accel-Sim parser alike, whether the bytes come from a
 * plain file, a gzip'd file (zlib's gz* layer reads both), standard input
 * or a string.  So both formats fail the same way on the same damage: a
 * line longer than LINEREAD_MAX_BYTES, a NUL byte, a truncated or corrupt
 * gzip stream.  Errors are one line ("file:line: ...", "file:line:col:
 * ...", "file: ...") and sticky: every later call returns the first again.
 */
#ifndef SKEWSIM_LINEREAD_H
#define SKEWSIM_LINEREAD_H

#include "skewsim/common.h"

#define LINEREAD_MAX_BYTES 65536      /* longest accepted line, without its newline */

typedef struct lineread lineread;

/* A reader on a file (plain or gzip'd), or on standard input for "-"
 * (named "<stdin>" in messages).  NULL with *e filled (SK_EIO, "PATH:
 * cannot open: ...") when it cannot be opened.  The caller owns the reader
 * and frees it with lineread_close(). */
lineread *lineread_open(const char *path, sk_error *e);
/* A reader on a copy of the NUL-terminated `text`; `name` is used in
 * messages. */
lineread *lineread_open_string(const char *name, const char *text);
void lineread_close(lineread *l);     /* NULL is a no-op */

/* The next physical line, NUL-terminated, without its newline (a '\r'
 * stays).  Returns 1 with *line and *len set, 0 at the end, or a negative
 * SK_E* code with *e filled.  The line is the caller's to change in place
 * (within *len bytes) until the next call, which may reuse its memory. */
int lineread_next(lineread *l, char **line, size_t *len, sk_error *e);
/* Hand the line just returned out once more, unchanged by the caller, on
 * the next lineread_next() (a format probe looks at a line and gives it
 * back to the parser that takes over). */
void lineread_unread(lineread *l);

/* Line number of the line last returned (1-based; 0 before the first). */
unsigned long lineread_lineno(const lineread *l);
/* The name used in messages. */
const char *lineread_name(const lineread *l);
/* 1 when l reads a string (lineread_open_string), not a file. */
int lineread_in_memory(const lineread *l);

#endif
