/* fileio.h -- the two ways skewsim writes a result file: whole, through a
 * temporary renamed into place (so a killed run never leaves a short file
 * under the final name), and a CSV field quoted as RFC 4180 wants.  One
 * copy each, for the sweep, collect and the Slurm scripts. */
#ifndef SKEWSIM_FILEIO_H
#define SKEWSIM_FILEIO_H

#include <stdio.h>
#include "skewsim/common.h"

/* Write text[0..len) to `path` through a mkstemp(3) temporary in its
 * directory, then rename(2).  mode < 0: 0666 less the umask, as fopen would
 * give; else that mode (0755 for a script).  0 or SK_EIO with *e filled;
 * the temporary is removed on failure. */
int sk_write_atomic(const char *path, const char *text, size_t len, int mode, sk_error *e);

/* One CSV field and its separator (',' or, for the last, '\n'): quoted when
 * it holds a comma, quote or line break, quotes doubled, line breaks turned
 * into spaces so a row stays one line. */
void sk_csv_field(FILE *f, const char *s, int last);

#endif
