/* cmd_run.c -- `skewsim run -c CONFIG -t TRACE -o DIR [--seed N] [--set k=v]`:
 * the arguments, then run_trace() (src/out/run.c), the same run that
 * `sweep` forks for every point. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/run.h"

/* Parse a decimal uint64 strictly (no sign, no junk, no overflow). */
static int parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

int cmd_run(int argc, char **argv)
{
    const char *cpath = NULL, *tpath = NULL, *odir = NULL, *seed = NULL, *sass_path = NULL;
    char **sets = xcalloc((size_t)argc + 1, sizeof *sets);
    int nsets = 0, status = 0;
    sk_error e = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "-c") && has)
            cpath = argv[++i];
        else if (!strcmp(a, "-t") && has)
            tpath = argv[++i];
        else if (!strcmp(a, "-o") && has)
            odir = argv[++i];
        else if (!strcmp(a, "--seed") && has)
            seed = argv[++i];
        else if (!strcmp(a, "--sass") && has)
            sass_path = argv[++i];
        else if (!strcmp(a, "--set") && has)
            sets[nsets++] = argv[++i];
        else {
            /* "missing value" only for an option that takes one: a trailing
             * "--fast" is unknown, not short of a value. */
            int takes = !strcmp(a, "-c") || !strcmp(a, "-t") || !strcmp(a, "-o") || !strcmp(a, "--seed") ||
                        !strcmp(a, "--set") || !strcmp(a, "--sass");
            sk_errorf(&e, SK_EUSAGE, "run: %s: %s: expected -c CONFIG -t TRACE -o DIR [--seed N] "
                      "[--set key=value] [--sass LISTING]", a, takes ? "missing value" : "unknown option");
            goto fail;
        }
    }
    if (!cpath || !tpath || !odir) {
        sk_errorf(&e, SK_EUSAGE, "run: missing %s: expected -c CONFIG -t TRACE -o DIR",
                  !cpath ? "-c CONFIG" : !tpath ? "-t TRACE" : "-o DIR");
        goto fail;
    }
    cfg c;
    if (cli_load_config(&c, cpath, sets, nsets, &e) < 0)
        goto fail;
    if (seed) {
        uint64_t v;
        if (parse_u64(seed, &v) < 0) {
            sk_errorf(&e, SK_EUSAGE, "run: --seed: %s: expected an integer in 0..18446744073709551615", seed);
            goto fail;
        }
        c.seed = v;
    }
    if (run_trace(&c, tpath, sass_path, odir, stdout, &e) < 0)
        goto fail;
    free(sets);
    return 0;
fail:
    status = cli_fail(&e);
    free(sets);
    return status;
}
