/* cmd_topo.c -- `skewsim topo -c CONFIG [--set k=v ...] [--green N
 * [--ignore-cosched]] [--mig PROFILE[@START][,...]]`: the chip as the model
 * sees it (docs/topology.md).  With --green N the first two lines are the
 * SM ids a green context of N SMs receives and the SM ids left over,
 * space-separated (--ignore-cosched: the split with
 * CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING).  With --mig, one line
 * per MIG instance listed (its SM ids), then the SM ids in none of them;
 * the green lines, if any, come first.  Then one line per SM: its id, TPC (over
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
#define TOPO_MAX_MIG 8

static const char topo_usage[] = "-c CONFIG [--set key=value ...] [--green N [--ignore-cosched]] "
                                 "[--mig PROFILE[@START][,...]]";

static int usage_fail(const char *what)
{
    fprintf(stderr, "skewsim: topo: %s: expected %s\n", what, topo_usage);
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
    int nocosched = 0;
    const char *mig = NULL;
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
        } else if (!strcmp(a, "--ignore-cosched"))
            nocosched = 1;
        else if (!strcmp(a, "--mig") && i + 1 < argc)
            mig = argv[++i];
        else
            return usage_fail(a);
    }
    if (nocosched && !green)
        return usage_fail("--ignore-cosched without --green N");
    int mprof[TOPO_MAX_MIG], mstart[TOPO_MAX_MIG], nmig = 0;
    for (const char *p = mig; p && *p;) {
        size_t len = strcspn(p, ",");
        char one[64];
        snprintf(one, sizeof one, "%.*s", (int)SK_MIN(len, sizeof one - 1), p);
        sk_error pe = {0};
        if (nmig == TOPO_MAX_MIG) {
            fprintf(stderr, "skewsim: topo: --mig %s: expected at most %d instances\n", mig, TOPO_MAX_MIG);
            return sk_exit_status(SK_EUSAGE);
        }
        if (topo_mig_parse(one, &mprof[nmig], &mstart[nmig], &pe) < 0) {
            fprintf(stderr, "skewsim: topo: --mig %s: %s\n", one, pe.msg);
            return sk_exit_status(SK_EUSAGE);
        }
        nmig++;
        p += len + (p[len] == ',');
    }
    if (mig && nmig == 0)
        return usage_fail("--mig with no profile");
    if (!path)
        return usage_fail("missing -c");
    cfg c;
    sk_error e = {0};
    if (cli_load_config(&c, path, sets, nsets, &e) != 0)
        return cli_fail(&e);
    topo t;
    if (topo_build(&t, &c, &e) != 0)
        return cli_fail(&e);
    /* Everything is worked out before anything is printed, so that a bad
     * request prints its one error line and nothing else. */
    int *g = NULL, *r = NULL, ng = 0, nr = 0;
    int *ids = NULL, n[TOPO_MAX_MIG + 1];
    if (green) {
        g = xcalloc((size_t)t.nsms, sizeof *g);
        r = xcalloc((size_t)t.nsms, sizeof *r);
        if (topo_green_split(&t, (int)green, c.green_unit_sms, nocosched, g, &ng, r, &nr, &e) != 0) {
            free(g);
            free(r);
            topo_free(&t);
            return cli_fail(&e);
        }
    }
    if (nmig) {
        /* Instances may not share a memory slice (slot), as on the GPU. */
        unsigned used = 0;
        ids = xcalloc((size_t)t.nsms * (size_t)(nmig + 1), sizeof *ids);
        unsigned char *in = xcalloc((size_t)t.nsms, 1);
        for (int i = 0; i < nmig; i++) {
            const topo_mig_profile *p = topo_mig_profile_at(mprof[i]);
            unsigned span = ((1u << p->mem_slices) - 1) << mstart[i];
            if ((used & span) || topo_mig(&t, mprof[i], mstart[i], ids + (size_t)i * (size_t)t.nsms, &n[i],
                                          &e) != 0) {
                if (!e.code)
                    sk_errorf(&e, SK_EUSAGE, "topo: --mig %s@%d: expected instances on separate memory "
                              "slices", p->name, mstart[i]);
                free(ids);
                free(in);
                free(g);
                free(r);
                topo_free(&t);
                return cli_fail(&e);
            }
            used |= span;
            for (int j = 0; j < n[i]; j++)
                in[ids[(size_t)i * (size_t)t.nsms + (size_t)j]] = 1;
        }
        int *left = ids + (size_t)nmig * (size_t)t.nsms;
        n[nmig] = 0;
        for (int id = 0; id < t.nsms; id++)
            if (!in[id])
                left[n[nmig]++] = id;
        free(in);
    }
    if (green) {
        print_ids(g, ng);
        print_ids(r, nr);
    }
    for (int i = 0; nmig && i <= nmig; i++)
        print_ids(ids + (size_t)i * (size_t)t.nsms, n[i]);
    free(g);
    free(r);
    free(ids);
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
