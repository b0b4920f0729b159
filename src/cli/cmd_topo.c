/* cmd_topo.c -- `skewsim topo -c CONFIG [--set k=v ...] [--green N]`: the
 * chip as the model sees it (docs/topology.md).  With --green N the first
 * two lines are the SM ids a green context of N SMs receives and the SM
 * ids left over, space-separated; then one line per SM: its id, TPC (over
 * the chip), GPC (logical, as numbered), physical GPC (floorswept chips),
 * cluster group, the largest thread block cluster it can be part of at
 * one CTA per SM, and its home L2 partition (the memory hierarchy's,
 * docs/memory.md; "-" when the config's memory keys build none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/topo.h"
#include "skewsim/memsys.h"

#define TOPO_MAX_SETS 64

static int usage_fail(const char *what)
{
    fprintf(stderr, "skewsim: topo: %s: expected -c CONFIG [--set key=value ...] [--green N]\n", what);
    return sk_exit_status(SK_EUSAGE);
}

static void print_ids(const int *ids, int n)
{
    for (int i = 0; i < n; i++)
        printf(i ? " %d" : "%d", ids[i]);
    putchar('\n');
}

int cmd_topo(int argc, char **argv)
{
    const char *path = NULL;
    char *sets[TOPO_MAX_SETS];
    int nsets = 0;
    long green = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-c") && i + 1 < argc)
            path = argv[++i];
        else if (!strcmp(a, "--set") && i + 1 < argc && nsets < TOPO_MAX_SETS)
            sets[nsets++] = argv[++i];
        else if (!strcmp(a, "--green") && i + 1 < argc) {
            char *end;
            const char *v = argv[++i];
            green = strtol(v, &end, 10);
            if (!*v || *end || green < 1 || green > 1000000) {
                fprintf(stderr, "skewsim: topo: --green %s: expected a number of SMs, 1 or more\n", v);
                return sk_exit_status(SK_EUSAGE);
            }
        } else
            return usage_fail(a);
    }
    if (!path)
        return usage_fail("missing -c");
    cfg c;
    sk_error e = {0};
    if (cli_load_config(&c, path, sets, nsets, &e) != 0)
        return cli_fail(&e);
    topo t;
    if (topo_build(&t, &c, &e) != 0)
        return cli_fail(&e);
    if (green) {
        int *g = xcalloc((size_t)t.nsms, sizeof *g), *r = xcalloc((size_t)t.nsms, sizeof *r);
        int ng = 0, nr = 0;
        if (topo_green(&t, (int)green, c.green_unit_sms, g, &ng, r, &nr, &e) != 0) {
            free(g);
            free(r);
            topo_free(&t);
            return cli_fail(&e);
        }
        print_ids(g, ng);
        print_ids(r, nr);
        free(g);
        free(r);
    }
    cfg resolved = c;
    sk_error me = {0};
    mem_hier *h = topo_resolve(&resolved, &me) == 0 ? mem_hier_create(&resolved, &t, NULL, &me) : NULL;
    printf("sm tpc gpc phys_gpc cluster_group max_cluster l2_home\n");
    for (int i = 0; i < t.nsms; i++) {
        const topo_sm *m = &t.sm[i];
        int size = t.cg_first[m->cgroup + 1] - t.cg_first[m->cgroup];
        int most = SK_MIN(size, SK_MIN(t.cg_max[m->cgroup], 16));   /* CUDA: 16 non-portable */
        printf("%d %d %d %d %d %d ", i, m->tpc_global, m->gpc, m->phys_gpc, m->cgroup, most);
        if (h)
            printf("%d\n", mem_hier_home(h, i));
        else
            printf("-\n");
    }
    mem_hier_destroy(h);
    topo_free(&t);
    return fflush(stdout) == 0 ? 0 : sk_exit_status(SK_EIO);
}
