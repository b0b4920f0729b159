/* lineread.c -- the buffered line reader (include/skewsim/lineread.h).
 *
 * Bytes come through zlib's gz* layer, which reads plain and gzip'd files
 * alike, READ_CHUNK at a time.  We split lines ourselves over gzread()
 * rather than use gzgets(), because gzgets() cannot tell a NUL byte inside a
 * line from the end of the line; lines longer than LINEREAD_MAX_BYTES are an
 * error, not a reallocation, so a damaged file cannot make us hold gigabytes.
 *
 * A file's lines are copied into `line`, one buffer reused for every line.
 * Handing them out in place inside the chunk saves the copy but made the
 * whole Accel-Sim parse about 4 % slower (a 335 MB trace: 3.18 s of CPU
 * against 3.01-3.07 s copying), though it ran fewer instructions; perf put
 * the extra time in the parser's strlen and strcmp, which then run on
 * strings spread over the 64 KiB chunk rather than in one hot buffer.  A
 * string reader's chunk is the whole string, which stays put, so its lines
 * are handed out in place.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "skewsim/lineread.h"

#define READ_CHUNK 65536              /* bytes per gzread(); a corrupt stream is found a chunk ahead */
#define GZ_BUFFER (128 * 1024)        /* zlib's own input buffer (gzbuffer) */

struct lineread {
    char *name;                     /* for messages */
    gzFile gz;                      /* NULL when reading from memory */
    char *rbuf;                     /* bytes not yet split into lines (a string reader's copy) */
    size_t rlen, rpos;
    char *line;                     /* a file's current line, LINEREAD_MAX_BYTES + 1 */
    char *cur;                      /* the line last handed out */
    size_t curlen;
    unsigned long lineno;
    int replay;                     /* lineread_unread(): hand out cur again */
    sk_error err;                   /* first error, returned by every later call */
};

/* ---------------------------------------------------------------- errors */

/* "name:line:col: msg" (col > 0), "name:line: msg" (col 0), "name: msg"
 * (col < 0). */
__attribute__((format(printf, 4, 5)))
static int fail(lineread *l, int code, int col, const char *fmt, ...)
{
    char msg[SK_ERRMSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (col > 0)
        return sk_errorf(&l->err, code, "%s:%lu:%d: %s", l->name, l->lineno, col, msg);
    if (col == 0)
        return sk_errorf(&l->err, code, "%s:%lu: %s", l->name, l->lineno ? l->lineno : 1, msg);
    return sk_errorf(&l->err, code, "%s: %s", l->name, msg);
}

static int report(const lineread *l, sk_error *e)
{
    if (e && e->code == 0)
        *e = l->err;
    return l->err.code;
}

/* ----------------------------------------------------------------- bytes */

/* Refill rbuf.  Returns 1 with bytes, 0 at the end, or an error code. */
static int fill(lineread *l)
{
    if (!l->gz)
        return 0;
    int n = gzread(l->gz, l->rbuf, READ_CHUNK);
    int errnum = Z_OK;
    const char *zmsg = gzerror(l->gz, &errnum);
    if (n < 0 || errnum != Z_OK) {
        /* A truncated stream reads as Z_BUF_ERROR "unexpected end of file"
         * after the last whole block: refuse the partial data rather than
         * parse a kernel cut in the middle. */
        if (errnum == Z_ERRNO)
            return fail(l, SK_EIO, -1, "read error: %s", strerror(errno));
        /* zlib prefixes the path it was opened with: drop it, ours leads. */
        size_t plen = strlen(l->name);
        if (strncmp(zmsg, l->name, plen) == 0 && strncmp(zmsg + plen, ": ", 2) == 0)
            zmsg += plen + 2;
        return fail(l, SK_ETRACE, -1, "corrupt gzip: %s", zmsg);
    }
    l->rpos = 0;
    l->rlen = (size_t)n;
    return n > 0;
}

/* Next physical line into l->cur.  Returns 1, 0 at the end, or an error. */
static int read_line(lineread *l)
{
    l->lineno++;
    if (l->rpos == l->rlen) {
        int r = fill(l);
        if (r <= 0) {
            if (r == 0)
                l->lineno--;
            return r;
        }
    }
    size_t len;
    if (!l->gz) {
        /* A string: the line ends at a newline or at the string's end. */
        char *start = l->rbuf + l->rpos;
        size_t avail = l->rlen - l->rpos;
        char *nl = memchr(start, '\n', avail);
        len = nl ? (size_t)(nl - start) : avail;
        if (len > LINEREAD_MAX_BYTES)
            return fail(l, SK_ETRACE, 0, "line longer than %d bytes", LINEREAD_MAX_BYTES);
        l->rpos += len + (nl ? 1 : 0);
        l->cur = start;
    } else {
        /* A file: copy, over as many chunks as the line spans. */
        len = 0;
        for (;;) {
            if (l->rpos == l->rlen) {
                int r = fill(l);
                if (r < 0)
                    return r;
                if (r == 0)
                    break;
            }
            const char *start = l->rbuf + l->rpos;
            size_t avail = l->rlen - l->rpos;
            const char *nl = memchr(start, '\n', avail);
            size_t take = nl ? (size_t)(nl - start) : avail;
            if (len + take > LINEREAD_MAX_BYTES)
                return fail(l, SK_ETRACE, 0, "line longer than %d bytes", LINEREAD_MAX_BYTES);
            memcpy(l->line + len, start, take);
            len += take;
            l->rpos += take + (nl ? 1 : 0);
            if (nl)
                break;
        }
        l->cur = l->line;
    }
    char *nul = memchr(l->cur, '\0', len);
    if (nul)
        return fail(l, SK_ETRACE, (int)(nul - l->cur) + 1, "NUL byte: expected text");
    l->cur[len] = '\0';
    l->curlen = len;
    return 1;
}

/* ------------------------------------------------------------ public API */

static lineread *reader_new(const char *name)
{
    lineread *l = xcalloc(1, sizeof *l);
    l->name = xstrdup(name);
    return l;
}

lineread *lineread_open(const char *path, sk_error *e)
{
    int is_stdin = strcmp(path, "-") == 0;
    int fd = is_stdin ? dup(0) : -1;
    errno = 0;
    gzFile gz = is_stdin ? (fd >= 0 ? gzdopen(fd, "rb") : NULL) : gzopen(path, "rb");
    if (!gz) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, err ? strerror(err) : "out of memory");
        return NULL;
    }
    gzbuffer(gz, GZ_BUFFER);
    lineread *l = reader_new(is_stdin ? "<stdin>" : path);
    l->gz = gz;
    l->rbuf = xmalloc(READ_CHUNK);
    l->line = xmalloc(LINEREAD_MAX_BYTES + 1);
    return l;
}

lineread *lineread_open_string(const char *name, const char *text)
{
    lineread *l = reader_new(name);
    l->rbuf = xstrdup(text);
    l->rlen = strlen(l->rbuf);
    return l;
}

void lineread_close(lineread *l)
{
    if (!l)
        return;
    if (l->gz)
        gzclose(l->gz);
    free(l->rbuf);
    free(l->line);
    free(l->name);
    free(l);
}

int lineread_next(lineread *l, char **line, size_t *len, sk_error *e)
{
    if (l->err.code)
        return report(l, e);
    if (l->replay) {
        l->replay = 0;
    } else {
        int r = read_line(l);
        if (r < 0)
            return report(l, e);
        if (r == 0) {
            l->cur = NULL;          /* nothing to unread */
            return 0;
        }
    }
    *line = l->cur;
    *len = l->curlen;
    return 1;
}

void lineread_unread(lineread *l)
{
    if (l->cur && !l->err.code)
        l->replay = 1;
}

unsigned long lineread_lineno(const lineread *l)
{
    return l->lineno;
}

const char *lineread_name(const lineread *l)
{
    return l->name;
}

int lineread_in_memory(const lineread *l)
{
    return l->gz == NULL;
}
