/* validate_fitted.c -- what a config's constants were fitted on, the one
 * table validate reads to say a row is `fitted` (shown, not judged) or
 * `predicted` (judged): configs/NAME.fitted.csv beside configs/NAME.yaml,
 * or validate's --fitted FILE.
 *
 * Columns kernel,detail,keys; one row per thing a constant was set from:
 * - a captured kernel (kernel: its id in a capture's kernels.csv; detail:
 *   empty for every row of the kernel, else the one row it names), read by
 *   `validate --measured`;
 * - a capture file of a -d folder's sections (kernel: the file's path,
 *   relative to the table's own folder, e.g.
 *   ../validation/h200/capture/retain.csv; detail empty).  A section marks
 *   the rows of the capture it reads as fitted where the table names that
 *   very file (the same file on disk, not a file of the same name in
 *   another folder) with the config key the rows test.
 * keys: the config keys set from it, separated by spaces, then a note in
 * parentheses; a capture row's keys are checked against the config schema
 * (a kernel row's are documentation).  No other file or code says what was
 * fitted on what. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/config.h"

static void row_free(vfit_row *r)
{
    free(r->kernel);
    free(r->detail);
    free(r->keys);
    free(r->real);
}

void vfit_free(vfit *f)
{
    for (size_t i = 0; i < f->n; i++)
        row_free(&f->row[i]);
    free(f->row);
    memset(f, 0, sizeof *f);
}

/* A capture row's keys: one or more config keys before the note. */
static int check_keys(const char *path, long line, const char *keys, sk_error *e)
{
    const char *p = keys;
    int n = 0;
    for (;;) {
        p += strspn(p, " ");
        if (*p == '\0' || *p == '(')
            break;
        size_t len = strcspn(p, " (");
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)(len < sizeof key - 1 ? len : sizeof key - 1), p);
        sk_error ke = {0};
        if (cfg_check_key(key, &ke) != 0)
            return sk_errorf(e, SK_ECONFIG, "%s:%ld: %s", path, line, ke.msg);
        n++;
        p += len;
    }
    if (n == 0)
        return sk_errorf(e, SK_ECONFIG, "%s:%ld: '%.200s': a capture row names no config key (expected the keys "
                         "set from it, then a note in parentheses)", path, line, keys);
    return 0;
}

/* The file's path as the system resolves it, or NULL where it does not. */
static char *resolve(const char *path)
{
    char buf[PATH_MAX];
    return realpath(path, buf) ? xstrdup(buf) : NULL;
}

int vfit_load(vfit *f, const char *path, sk_error *e)
{
    memset(f, 0, sizeof *f);
    if (!path)
        return 0;
    snprintf(f->path, sizeof f->path, "%s", path);
    FILE *in = fopen(path, "r");
    if (!in)
        return sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, strerror(errno));
    /* a capture row's path is relative to the table's own folder */
    char base[4096];
    snprintf(base, sizeof base, "%s", path);
    char *slash = strrchr(base, '/');
    if (slash)
        slash[1] = '\0';
    else
        base[0] = '\0';
    char buf[4096];
    long line = 0;
    int rc = 0;
    size_t cap = 0;
    while (rc == 0 && fgets(buf, sizeof buf, in)) {
        line++;
        if (!strchr(buf, '\n') && !feof(in)) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: line longer than %zu bytes", path, line, sizeof buf - 2);
            break;
        }
        buf[strcspn(buf, "\r\n")] = '\0';
        char *c1 = strchr(buf, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        if (!c2 || strchr(c2 + 1, ',')) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: '%.200s': expected kernel,detail,keys (three fields)", path, line,
                           buf);
            break;
        }
        *c1 = *c2 = '\0';
        if (line == 1) {
            if (strcmp(buf, "kernel") || strcmp(c1 + 1, "detail") || strcmp(c2 + 1, "keys"))
                rc = sk_errorf(e, SK_EIO, "%s:1: '%s,%s,%s': expected the header kernel,detail,keys", path, buf,
                               c1 + 1, c2 + 1);
            continue;
        }
        if (buf[0] == '\0') {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: no kernel or capture: expected kernel,detail,keys", path, line);
            break;
        }
        vfit_row r = {xstrdup(buf), xstrdup(c1 + 1), xstrdup(c2 + 1), NULL};
        if (strchr(r.kernel, '/')) {            /* a capture file */
            if (r.detail[0])
                rc = sk_errorf(e, SK_EIO, "%s:%ld: %s: a capture row has no detail (got '%.200s')", path, line,
                               r.kernel, r.detail);
            else
                rc = check_keys(path, line, r.keys, e);
            if (rc == 0) {
                char full[8192];
                snprintf(full, sizeof full, "%s%s", r.kernel[0] == '/' ? "" : base, r.kernel);
                r.real = resolve(full);         /* absent here (a copied config): it marks nothing */
            }
        }
        if (rc < 0) {
            row_free(&r);
            break;
        }
        if (f->n == cap) {
            cap = cap ? 2 * cap : 32;
            f->row = xrealloc(f->row, cap * sizeof *f->row);
        }
        f->row[f->n++] = r;
    }
    if (rc == 0 && ferror(in))
        rc = sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(errno));
    else if (rc == 0 && line == 0)
        rc = sk_errorf(e, SK_EIO, "%s:1: empty: expected the header kernel,detail,keys", path);
    fclose(in);
    if (rc < 0)
        vfit_free(f);
    return rc;
}

int vfit_kernel(const vfit *f, const char *kid, const char *detail)
{
    for (size_t i = 0; f && i < f->n; i++)
        if (!strchr(f->row[i].kernel, '/') && !strcmp(f->row[i].kernel, kid) &&
            (f->row[i].detail[0] == '\0' || !strcmp(f->row[i].detail, detail)))
            return 1;
    return 0;
}

static int has_key(const char *keys, const char *key)
{
    size_t n = strlen(key);
    for (const char *p = keys; *p && *p != '(';) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " (");
        if (len == n && !strncmp(p, key, n))
            return 1;
        p += len;
    }
    return 0;
}

int vfit_capture(const vfit *f, const char *file, const char *key)
{
    if (!f || f->n == 0)
        return 0;
    char *real = resolve(file);
    int hit = 0;
    for (size_t i = 0; real && i < f->n && !hit; i++)
        hit = f->row[i].real && !strcmp(f->row[i].real, real) && (!key || has_key(f->row[i].keys, key));
    free(real);
    return hit;
}
