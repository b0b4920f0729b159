/* cmd_collect.c -- `skewsim collect DIR`: a sweep's results directory as
 * one tidy table, DIR/results.csv and DIR/results.json (src/sweep/tidy.c,
 * docs/hpc.md "Collect").  It needs no spec: the columns come from the
 * point directories. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "skewsim/sweep_hpc.h"

#define COLLECT_USAGE "expected DIR (a sweep's -o directory)"

int cmd_collect(int argc, char **argv)
{
    sk_error e = {0};
    const char *dir = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: skewsim collect DIR\n\n"
                   "Write DIR/results.csv and DIR/results.json from the points of a sweep's\n"
                   "results directory: one row per point and kernel, every swept parameter\n"
                   "(case keys, set: keys, axes, gen options, seed) in its own column.\n");
            return 0;
        }
        if (a[0] == '-' && a[1]) {
            sk_errorf(&e, SK_EUSAGE, "collect: %s: unknown option: " COLLECT_USAGE, a);
            return cli_fail(&e);
        }
        if (dir) {
            sk_errorf(&e, SK_EUSAGE, "collect: %s: a second directory: " COLLECT_USAGE, a);
            return cli_fail(&e);
        }
        dir = a;
    }
    if (!dir) {
        sk_errorf(&e, SK_EUSAGE, "collect: missing DIR: " COLLECT_USAGE);
        return cli_fail(&e);
    }
    size_t np, nr;
    if (sweep_tidy_write(dir, &np, &nr, &e) != 0)
        return cli_fail(&e);
    printf("collect: %zu points, %zu rows: %s/results.csv, %s/results.json\n", np, nr, dir, dir);
    return 0;
}
