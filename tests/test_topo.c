/* test_topo.c -- die asymmetry on the dispatch side (issue 12): thread
 * block clusters over the topology (placement, cudaOccupancyMaxActiveClusters,
 * the cluster-fit error), floorswept topologies and their SM numbering, and
 * green-context SM partitions against the measured allocations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/topo.h"
#include "skewsim/trace.h"
#include "tests.h"
#include "testutil.h"

/* ---- clusters --------------------------------------------------------- */

/* A kernel of one CTA per SM on the H200: 1024 threads x 64 registers fill
 * the register file (65536). */
static char *one_per_sm(unsigned grid, unsigned cluster)
{
    return tu_strf("skewsim-trace 1\n"
                   "kernel k grid=%u block=1024 regs=64 cluster=%u\n"
                   "program main\n  FFMA R1 <- R2 R3 R1\n  EXIT\nend\nendkernel\n", grid, cluster);
}

/* physics.md: cudaOccupancyMaxActiveClusters on the measured H200 for
 * cluster sizes 1..16 at one CTA per SM.  The model computes them from the
 * topology (8,16,16,16,16,16,18,18 cluster-capable SMs + 8 random SMs). */
static const unsigned measured_mac[16] = {132, 66, 39, 30, 22, 17, 15, 15, 9, 7, 7, 7, 7, 7, 7, 7};

START_TEST(test_max_active_clusters_h200)
{
    unsigned csize = (unsigned)_i + 1;
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    tu_run run;
    char *tr = one_per_sm(csize, csize);
    tu_simulate_ok(&run, &c, tr);
    const kernel_stats *k = results_kernel(run.r, 0);
    ck_assert_uint_eq(k->cluster, csize);
    ck_assert_uint_eq(k->max_active_clusters, measured_mac[_i]);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* Every cluster lands inside one cluster group (a GPC, or one tail TPC for
 * clusters of 2), and no cluster of 3 or more touches the random SMs. */
START_TEST(test_cluster_placement)
{
    static const unsigned sizes[] = {2, 3, 4, 8, 16};
    for (size_t i = 0; i < SK_ARRAY_LEN(sizes); i++) {
        unsigned C = sizes[i];
        unsigned grid = C * 40;      /* several waves: groups refill */
        cfg c;
        tu_cfg(&c, TU_H200, NULL);
        tu_run run;
        char *tr = one_per_sm(grid, C);
        tu_simulate_ok(&run, &c, tr);
        const topo *t = &run.s->topo;
        int tail_used = 0;
        for (unsigned cl = 0; cl < grid / C; cl++) {
            int g0 = t->sm[tu_cta(&run, 0, cl * C)->sm].cgroup;
            for (unsigned j = 0; j < C; j++) {
                int smid = tu_cta(&run, 0, cl * C + j)->sm;
                ck_assert_msg(t->sm[smid].cgroup == g0, "C=%u cluster %u: CTA %u on SM %d, group %d not %d",
                              C, cl, j, smid, t->sm[smid].cgroup, g0);
                tail_used |= smid >= 124;
            }
        }
        ck_assert_int_eq(tail_used, C <= 2);
        tu_run_free(&run);
        free(tr);
    }
}
END_TEST

/* The first wave of clusters of 16 at one CTA per SM: GPC 0 (8 SMs) cannot
 * hold one, so exactly 7 clusters run at once and the eighth waits. */
START_TEST(test_cluster_waits_for_room)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    tu_run run;
    char *tr = one_per_sm(16 * 8, 16);
    tu_simulate_ok(&run, &c, tr);
    ps_t first_end = PS_MAX;
    for (unsigned i = 0; i < 16 * 7; i++)
        first_end = SK_MIN(first_end, tu_cta(&run, 0, i)->end_ps);
    for (unsigned i = 16 * 7; i < 16 * 8; i++)
        ck_assert_uint_ge(tu_cta(&run, 0, i)->start_ps, first_end);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* A cluster no GPC can hold fails the launch, as cudaLaunchKernelEx does. */
START_TEST(test_cluster_fit_error)
{
    cfg c;
    tu_cfg(&c, TU_H200, "topology: {tpcs_per_gpc: [4, 4, 4, 4, 4, 4, 4, 4, 4]}\n", NULL);
    tu_run run;
    char *tr = one_per_sm(16, 16);
    ck_assert_int_eq(tu_simulate(&run, &c, tr), SK_EFIT);
    ck_assert_str_eq(run.e.msg, "kernel k: cluster=16: expected at most 8 CTAs per cluster (the largest "
                                "GPC holds 8 CTAs of it at 1 per SM), as cudaLaunchKernelEx requires");
    tu_run_free(&run);
    free(tr);
    /* 8 fits there. */
    tr = one_per_sm(16, 8);
    tu_simulate_ok(&run, &c, tr);
    ck_assert_uint_eq(results_kernel(run.r, 0)->max_active_clusters, 8);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* A trace keeps cluster= through the writer. */
START_TEST(test_cluster_key_round_trip)
{
    char *tr = one_per_sm(12, 4);
    sk_error e = {0};
    trace *t = trace_open_string("x.trace", tr, &e);
    ck_assert_ptr_nonnull(t);
    kernel k;
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_uint_eq(k.cluster, 4);
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "cluster");
    char *path = tu_strf("%s/k.trace", dir);
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), 0);
    kernel_free(&k);
    trace_close(t);
    char *text = tu_slurp(path, NULL);
    ck_assert_ptr_nonnull(strstr(text, " cluster=4"));
    t = trace_open(path, &e);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), 1);
    ck_assert_uint_eq(k.cluster, 4);
    kernel_free(&k);
    trace_close(t);
    free(text);
    free(path);
    tu_rmdir(dir);
    free(tr);
}
END_TEST

Suite *topo_suite(void)
{
    Suite *s = suite_create("topo");
    TCase *tc = tcase_create("clusters");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_max_active_clusters_h200, 0, 16);
    tcase_add_test(tc, test_cluster_placement);
    tcase_add_test(tc, test_cluster_waits_for_room);
    tcase_add_test(tc, test_cluster_fit_error);
    tcase_add_test(tc, test_cluster_key_round_trip);
    suite_add_tcase(s, tc);
    return s;
}
