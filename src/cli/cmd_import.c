/* cmd_import.c -- `skewsim import accelsim PATH -o FILE[.gz]`: an Accel-Sim
 * trace (a directory with kernelslist.g, a kernelslist.g, or one
 * kernel-N.traceg) converted to the native format, every kernel with its
 * deduplicated programs and its CTA table (docs/accelsim.md).  The output
 * simulates exactly as the input does, and is usually far smaller: a
 * kernel of identical CTAs becomes one program and one `range` record.
 *
 * The file is written under a temporary name and renamed into place when
 * complete, so a failed import leaves nothing behind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "cli.h"
#include "skewsim/trace.h"

static int next_cta(void *ctx, cta_desc *d, sk_error *e)
{
    return trace_next_cta(ctx, d, e);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

int cmd_import(int argc, char **argv)
{
    sk_error e = {0};
    const char *format = NULL, *in = NULL, *out = NULL, *sass_path = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(a, "--sass") && i + 1 < argc)
            sass_path = argv[++i];
        else if (a[0] == '-' && a[1] != '\0') {
            sk_errorf(&e, SK_EUSAGE, "import: %s: %s: expected import accelsim PATH -o FILE [--sass LISTING]", a,
                      !strcmp(a, "-o") || !strcmp(a, "--sass") ? "missing value" : "unknown option");
            return cli_fail(&e);
        } else if (!format)
            format = a;
        else if (!in)
            in = a;
        else {
            sk_errorf(&e, SK_EUSAGE, "import: %s: expected import accelsim PATH -o FILE", a);
            return cli_fail(&e);
        }
    }
    if (!format || strcmp(format, "accelsim") != 0) {
        sk_errorf(&e, SK_EUSAGE, "import: %s: expected the format 'accelsim'", format ? format : "missing format");
        return cli_fail(&e);
    }
    if (!in || !out) {
        sk_errorf(&e, SK_EUSAGE, "import: missing %s: expected import accelsim PATH -o FILE",
                  !in ? "PATH" : "-o FILE");
        return cli_fail(&e);
    }

    sass *listing;
    trace *t = run_open_trace(in, sass_path, &listing, &e);
    if (!t)
        return cli_fail(&e);
    /* standard output and devices are written in place */
    struct stat st;
    int to_stdout = strcmp(out, "-") == 0, direct = to_stdout || (stat(out, &st) == 0 && !S_ISREG(st.st_mode));
    char *tmp = direct ? xstrdup(out) : NULL;
    if (!direct) {
        size_t n = strlen(out) + 32;
        tmp = xmalloc(n);
        snprintf(tmp, n, "%s.tmp%ld", out, (long)getpid());
    }
    trace_writer *w = trace_writer_open(tmp, ends_with(out, ".gz"), &e);
    int rc = w ? 0 : e.code, nk = 0;
    kernel k;
    while (rc == 0 && (rc = trace_next_kernel(t, &k, &e)) == 1) {
        rc = trace_writer_kernel(w, &k, next_cta, t, &e);
        kernel_free(&k);
        nk++;
    }
    int c = trace_writer_close(w, &e);
    if (rc == 0)
        rc = c;
    trace_close(t);
    sass_free(listing);
    if (rc == 0 && !direct && rename(tmp, out) != 0)
        rc = sk_errorf(&e, SK_EIO, "%s: cannot rename into place: %s", out, strerror(errno));
    if (rc < 0 && !direct)
        remove(tmp);
    free(tmp);
    if (rc < 0)
        return cli_fail(&e);
    if (!to_stdout)
        printf("import: %d kernel%s written to %s\n", nk, nk == 1 ? "" : "s", out);
    return 0;
}
