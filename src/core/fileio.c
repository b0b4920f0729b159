/* fileio.c -- atomic whole-file writes and CSV fields (fileio.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skewsim/fileio.h"

int sk_write_atomic(const char *path, const char *text, size_t len, int mode, sk_error *e)
{
    size_t n = strlen(path) + sizeof ".tmp.XXXXXX";
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int rc = sk_errorf(e, SK_EIO, "%s: cannot create a temporary file: %s", tmp, strerror(errno));
        free(tmp);
        return rc;
    }
    if (mode < 0) {
        mode_t mask = umask(0);
        umask(mask);
        mode = (int)(0666 & ~mask);
    }
    fchmod(fd, (mode_t)mode);
    int bad = 0;
    for (size_t off = 0; off < len && !bad;) {
        ssize_t w = write(fd, text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        bad = w <= 0;
        if (!bad)
            off += (size_t)w;
    }
    bad |= close(fd) != 0;
    if (bad || rename(tmp, path) != 0) {
        int rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", path, strerror(errno));
        remove(tmp);
        free(tmp);
        return rc;
    }
    free(tmp);
    return 0;
}

void sk_csv_field(FILE *f, const char *s, int last)
{
    if (strpbrk(s, ",\"\n\r")) {
        fputc('"', f);
        for (const char *p = s; *p; p++) {
            if (*p == '"')
                fputc('"', f);
            fputc(*p == '\n' || *p == '\r' ? ' ' : *p, f);
        }
        fputc('"', f);
    } else {
        fputs(s, f);
    }
    fputc(last ? '\n' : ',', f);
}
