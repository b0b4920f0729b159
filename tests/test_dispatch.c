/* test_dispatch.c -- SM numbering over the topology (src/config/topo.c), the
 * per-CTA resource need and the fit test (src/gpu/sm.c), and CTA placement
 * by the dispatch policies (src/gpu/dispatch*.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/topo.h"
#include <zlib.h>

/* ------------------------------------------------------------ topology */

/* The H200 as configs/h200.yaml describes it: GPCs of 4,8,8,8,8,8,9,9 TPCs
 * numbered one TPC of each GPC in turn (SMs 2k, 2k+1 share a TPC), then the
 * tail group of 4 TPCs (GPC 8) after all others. */
START_TEST(test_topo_h200_round_robin)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    ck_assert_int_eq(c.numbering, NUMBER_TPC_ROUND_ROBIN);
    topo t;
    sk_error e = {0};
    ck_assert_int_eq(topo_build(&t, &c, &e), 0);
    ck_assert_int_eq(t.nsms, 132);
    ck_assert_int_eq(t.ntpcs, 66);
    ck_assert_int_eq(t.ngpcs, 9);

    static const struct { int sm, gpc; } spot[] = {
        {0, 0}, {1, 0}, {16, 0}, {17, 0}, {32, 0}, {33, 0}, {48, 0}, {49, 0},
        {2, 1}, {3, 1}, {14, 7}, {15, 7}, {64, 1}, {65, 1}, {66, 2}, {77, 7},
        {78, 1}, {118, 7}, {119, 7}, {120, 6}, {121, 6}, {122, 7}, {123, 7},
        {124, 8}, {125, 8}, {126, 8}, {127, 8}, {128, 8}, {129, 8}, {130, 8}, {131, 8},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(spot); i++)
        ck_assert_msg(t.sm[spot[i].sm].gpc == spot[i].gpc, "SM %d: GPC %d, expected %d", spot[i].sm,
                      t.sm[spot[i].sm].gpc, spot[i].gpc);

    static const int tpc_base[] = {0, 4, 12, 20, 28, 36, 44, 53, 62};   /* running sums of TPCs */
    /* The whole map in closed form: rounds of 8 GPCs (16 SMs) while GPC 0
     * has TPCs left, then rounds of GPCs 1-7 (14 SMs), then GPCs 6 and 7. */
    for (int id = 0; id < 132; id++) {
        int g = id < 64 ? (id % 16) / 2 : id < 120 ? 1 + ((id - 64) % 14) / 2 : id < 124 ? 6 + (id - 120) / 2 : 8;
        ck_assert_msg(t.sm[id].gpc == g, "SM %d: GPC %d, expected %d", id, t.sm[id].gpc, g);
        ck_assert_int_eq(t.sm[id].slot, id % 2);
        if (id % 2)
            ck_assert_int_eq(t.sm[id].tpc_global, t.sm[id - 1].tpc_global);
        ck_assert_int_eq(t.sm[id].tpc_global, t.sm[id].tpc + tpc_base[g]);
    }
    /* Round r gives each GPC its TPC r. */
    ck_assert_int_eq(t.sm[48].tpc, 3);
    ck_assert_int_eq(t.sm[120].tpc, 8);

    /* The GPC-major listing the dispatcher walks. */
    static const int gpc0[] = {0, 1, 16, 17, 32, 33, 48, 49};
    ck_assert_int_eq(t.gpc_first[0], 0);
    ck_assert_int_eq(t.gpc_first[1], 8);
    for (int i = 0; i < 8; i++)
        ck_assert_int_eq(t.by_gpc[i], gpc0[i]);
    ck_assert_int_eq(t.gpc_first[8], 124);
    ck_assert_int_eq(t.gpc_first[9], 132);
    for (int i = 124; i < 132; i++)
        ck_assert_int_eq(t.by_gpc[i], i);
    topo_free(&t);
}
END_TEST

START_TEST(test_topo_h200_gpc_major)
{
    cfg c;
    tu_cfg(&c, TU_H200, "topology: {numbering: gpc_major}\n", NULL);
    topo t;
    sk_error e = {0};
    ck_assert_int_eq(topo_build(&t, &c, &e), 0);
    /* first SM id of each GPC: running sums of 2 x (4,8,8,8,8,8,9,9,4) */
    static const int first[] = {0, 8, 24, 40, 56, 72, 88, 106, 124, 132};
    for (int g = 0; g < 9; g++)
        for (int id = first[g]; id < first[g + 1]; id++) {
            ck_assert_msg(t.sm[id].gpc == g, "SM %d: GPC %d, expected %d", id, t.sm[id].gpc, g);
            ck_assert_int_eq(t.sm[id].tpc, (id - first[g]) / 2);
            ck_assert_int_eq(t.sm[id].tpc_global, id / 2);
            ck_assert_int_eq(t.by_gpc[id], id);
        }
    topo_free(&t);
}
END_TEST

/* A small uneven chip, every numbering: GPCs of 1, 2 and 3 TPCs of one SM. */
static const struct {
    const char *yaml;
    int gpc[6];
} small_topos[] = {
    {"topology: {numbering: gpc_major, tail_gpcs: 0}", {0, 1, 1, 2, 2, 2}},
    {"topology: {numbering: tpc_round_robin, tail_gpcs: 0}", {0, 1, 2, 1, 2, 2}},
    {"topology: {numbering: tpc_round_robin, tail_gpcs: 1}", {0, 1, 1, 2, 2, 2}},
    {"topology: {numbering: tpc_round_robin, tail_gpcs: 2}", {0, 1, 2, 1, 2, 2}},
};

START_TEST(test_topo_small)
{
    cfg c;
    tu_cfg(&c, NULL, "topology: {gpcs: 3, tpcs_per_gpc: [1, 2, 3], sms_per_tpc: 1}\n",
           small_topos[_i].yaml, NULL);
    topo t;
    sk_error e = {0};
    ck_assert_int_eq(topo_build(&t, &c, &e), 0);
    ck_assert_int_eq(t.nsms, 6);
    for (int id = 0; id < 6; id++)
        ck_assert_msg(t.sm[id].gpc == small_topos[_i].gpc[id], "%s: SM %d: GPC %d, expected %d",
                      small_topos[_i].yaml, id, t.sm[id].gpc, small_topos[_i].gpc[id]);
    /* by_gpc lists each GPC's SMs, GPCs in order */
    static const int listed_gpc[] = {0, 1, 1, 2, 2, 2};
    for (int k = 0; k < 6; k++)
        ck_assert_int_eq(t.sm[t.by_gpc[k]].gpc, listed_gpc[k]);
    topo_free(&t);
}
END_TEST

/* ------------------------------------------------------------ resources */

/* sm_cta_need on the H200 limits: registers in 256-register granules per
 * warp, shared memory in 128-byte granules plus 1 KiB reserved per CTA. */
static const struct {
    uint32_t threads, regs, smem;
    cta_need need;
} needs[] = {
    /* 256 threads = 8 warps; 16 x 32 = 512 registers a warp (2 granules) */
    {256, 16, 16, {256, 8, 8 * 512, 128 + 1024}},
    /* 33 threads still take 2 warps; 32 registers a warp round up to 256 */
    {33, 1, 0, {33, 2, 2 * 256, 0 + 1024}},
    /* 33 x 32 = 1056 registers a warp round up to 1280 (5 granules) */
    {256, 33, 129, {256, 8, 8 * 1280, 256 + 1024}},
    {1024, 255, 50000, {1024, 32, 32 * 8192, 50048 + 1024}},
    {32, 8, 128, {32, 1, 256, 128 + 1024}},
};

START_TEST(test_cta_need)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    kernel k = {.block_threads = needs[_i].threads, .regs_per_thread = needs[_i].regs,
                .smem_bytes = needs[_i].smem};
    cta_need n;
    sm_cta_need(&c, &k, &n);
    ck_assert_int_eq(n.threads, needs[_i].need.threads);
    ck_assert_int_eq(n.warps, needs[_i].need.warps);
    ck_assert_int_eq(n.regs, needs[_i].need.regs);
    ck_assert_int_eq(n.smem, needs[_i].need.smem);
}
END_TEST

/* How many CTAs of a kernel one SM holds, and which limit binds.  Counts by
 * hand on the default limits (2048 threads, 64 warps, 32 CTAs, 65536
 * registers, 233472 B of shared memory; granules 256 registers a warp,
 * 128 B plus 1024 B reserved a CTA). */
static const struct {
    const char *what, *yaml;
    uint32_t threads, regs, smem;
    int fit;
} fits[] = {
    {"threads and warps", "", 256, 16, 16, 8},                          /* 2048/256, 64/8 */
    {"threads", "sm: {max_threads: 1024}", 256, 16, 16, 4},             /* 1024/256 */
    {"registers", "", 256, 64, 0, 4},                                   /* 65536 / (8 x 2048) */
    {"register granule", "", 256, 33, 0, 6},                            /* 65536 / (8 x 1280); 7 unrounded */
    {"shared memory", "", 32, 16, 50000, 4},                            /* 233472 / (50048 + 1024) */
    {"reserved shared memory", "sm: {smem_bytes: 10240}", 32, 16, 0, 10}, /* 10240 / 1024 */
    {"sm.max_ctas", "sm: {max_ctas: 3}", 32, 16, 0, 3},
    {"warps", "sm: {max_ctas: 64}", 33, 1, 0, 32},                      /* 64 / 2; threads allow 62 */
};

START_TEST(test_fits_count)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, fits[_i].yaml, NULL);
    kernel k = {.block_threads = fits[_i].threads, .regs_per_thread = fits[_i].regs,
                .smem_bytes = fits[_i].smem};
    cta_need n;
    sm_cta_need(&c, &k, &n);
    ck_assert(sm_fits_empty(&c, &n));
    sk_error e = {0};
    sim *s = sim_create(&c, NULL, 0, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    sm *m = &s->sms[0];
    /* Take the resources a launch takes (sm_launch_cta) until one more
     * CTA does not fit. */
    int count = 0;
    while (sm_fits(s, m, &n) && count < 10000) {
        m->used_ctas++;
        m->used_threads += n.threads;
        m->used_warps += n.warps;
        m->used_regs += n.regs;
        m->used_smem += n.smem;
        count++;
    }
    ck_assert_msg(count == fits[_i].fit, "%s: %d CTAs fit, expected %d", fits[_i].what, count,
                  fits[_i].fit);
    /* Freeing one CTA makes room for exactly one. */
    m->used_ctas--;
    m->used_threads -= n.threads;
    m->used_warps -= n.warps;
    m->used_regs -= n.regs;
    m->used_smem -= n.smem;
    ck_assert(sm_fits(s, m, &n));
    sim_destroy(s);
}
END_TEST

/* The same limits end to end: a grid of 2 x fit + 1 long CTAs on one SM.
 * Loose round-robin gives every resident warp an issue slot within the
 * first few dozen cycles, long before any CTA ends, and a CTA of the second
 * wave cannot start before the first CTA ends: the CTAs that start before
 * the earliest end are exactly the first wave. */
START_TEST(test_fits_end_to_end)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, "sm: {warp_policy: lrr}", fits[_i].yaml, NULL);
    int fit = fits[_i].fit, grid = 2 * fit + 1;
    char *tr = tu_strf("skewsim-trace 1\nkernel occ grid=%d block=%u regs=%u smem=%u\nprogram main\n"
                       "loop 100\nFFMA stall=1\nend\nEXIT\nend\nendkernel\n", grid, fits[_i].threads,
                       fits[_i].regs, fits[_i].smem);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    ck_assert_uint_eq(results_nctas(run.r), (size_t)grid);
    ps_t first_end = PS_MAX;
    for (size_t i = 0; i < results_nctas(run.r); i++)
        first_end = SK_MIN(first_end, results_cta(run.r, i)->end_ps);
    int resident = 0;
    for (size_t i = 0; i < results_nctas(run.r); i++)
        resident += results_cta(run.r, i)->start_ps < first_end;
    ck_assert_msg(resident == fit, "%s: %d CTAs co-resident, expected %d", fits[_i].what, resident, fit);
    /* the first wave is CTAs 0..fit-1 */
    for (int i = 0; i < fit; i++)
        ck_assert_int_lt(tu_cta(&run, 0, (uint64_t)i)->start_ps, first_end);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* A kernel whose CTA cannot fit even an empty SM fails sim_run with
 * SK_EFIT, naming the kernel. */
static const struct {
    const char *kernel_line, *name;
} nofit[] = {
    {"kernel too_many_regs grid=4 block=1024 regs=255", "too_many_regs"},   /* 262144 > 65536 registers */
    {"kernel too_much_smem grid=4 block=32 smem=233472", "too_much_smem"},  /* + 1024 reserved */
    {"kernel too_many_threads grid=1 block=1024 regs=16", "too_many_threads"},
};

START_TEST(test_no_fit)
{
    cfg c;
    /* too_many_threads only fails on a chip of 512 threads a SM */
    tu_cfg(&c, TU_H200, _i == 2 ? "sm: {max_threads: 512, max_warps: 16}" : NULL, NULL);
    char *tr = tu_strf("skewsim-trace 1\n%s\nprogram main\nFFMA\nEXIT\nend\nendkernel\n",
                       nofit[_i].kernel_line);
    tu_run run;
    ck_assert_int_eq(tu_simulate(&run, &c, tr), SK_EFIT);
    ck_assert_int_eq(run.e.code, SK_EFIT);
    char *prefix = tu_strf("kernel %s: ", nofit[_i].name);
    ck_assert_msg(strncmp(run.e.msg, prefix, strlen(prefix)) == 0, "message: %s", run.e.msg);
    ck_assert_ptr_null(strchr(run.e.msg, '\n'));
    ck_assert_uint_eq(results_nctas(run.r), 0);
    ck_assert_uint_eq(results_nkernels(run.r), 0);
    free(prefix);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* ------------------------------------------------------------ placement */

/* The registries expand the lists of policies.h: every row's enum value
 * finds the ops table of its name, which calls itself by that name. */
START_TEST(test_lookup)
{
    ck_assert_ptr_eq(dispatch_lookup(DISPATCH_GIGATHREAD), &dispatch_gigathread);
    ck_assert_ptr_eq(dispatch_lookup(DISPATCH_ROUND_ROBIN), &dispatch_round_robin);
    ck_assert_ptr_eq(dispatch_lookup(DISPATCH_FREQ_AWARE), &dispatch_freq_aware);
#define CHECK_D_(id, nm, help)                                    \
    ck_assert_ptr_eq(dispatch_lookup(DISPATCH_##id), &dispatch_##nm); \
    ck_assert_str_eq(dispatch_lookup(DISPATCH_##id)->name, #nm);      \
    ck_assert_ptr_nonnull(dispatch_##nm.pick);
    DISPATCH_POLICY_MAP(CHECK_D_)
#undef CHECK_D_
    ck_assert_ptr_null(dispatch_lookup(-1));
    ck_assert_ptr_null(dispatch_lookup(DISPATCH_NPOLICIES));

    ck_assert_ptr_eq(warp_lookup(WARP_GTO), &warp_gto);
    ck_assert_ptr_eq(warp_lookup(WARP_LRR), &warp_lrr);
    ck_assert_ptr_eq(warp_lookup(WARP_OLDEST), &warp_oldest);
#define CHECK_W_(id, nm, help)                              \
    ck_assert_ptr_eq(warp_lookup(WARP_##id), &warp_##nm);   \
    ck_assert_str_eq(warp_lookup(WARP_##id)->name, #nm);    \
    ck_assert_ptr_nonnull(warp_##nm.pick);
    WARP_POLICY_MAP(CHECK_W_)
#undef CHECK_W_
    ck_assert_ptr_null(warp_lookup(-1));
    ck_assert_ptr_null(warp_lookup(WARP_NPOLICIES));
}
END_TEST

/* A long CTA body: no CTA ends while a one-wave grid is being placed. */
#define LONG_BODY "loop 200\nFFMA stall=1\nend\nEXIT\n"

/* round_robin: CTA i on SM i mod n, for grids of up to three CTAs a SM
 * (every SM holds 8 here), on chips numbered either way. */
static const struct {
    const char *yaml;
    unsigned grid;
} rr_cases[] = {
    {"topology: {gpcs: 2, tpcs_per_gpc: [2, 3], sms_per_tpc: 2, numbering: gpc_major}", 10},
    {"topology: {gpcs: 2, tpcs_per_gpc: [2, 3], sms_per_tpc: 2, numbering: tpc_round_robin}", 7},
    {"topology: {gpcs: 3, tpcs_per_gpc: 2, sms_per_tpc: 1, numbering: tpc_round_robin}", 18},
};

START_TEST(test_round_robin_placement)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, rr_cases[_i].yaml, "dispatch: {policy: round_robin, cta_ps: 100}",
           NULL);
    int n = cfg_num_sms(&c);
    char *tr = tu_trace1(LONG_BODY, rr_cases[_i].grid, 256);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    ck_assert_uint_eq(results_nctas(run.r), rr_cases[_i].grid);
    for (unsigned i = 0; i < rr_cases[_i].grid; i++)
        ck_assert_msg(tu_cta(&run, 0, i)->sm == (int)i % n, "CTA %u on SM %d, expected %d", i,
                      tu_cta(&run, 0, i)->sm, (int)i % n);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* clock_aware (formerly freq_aware) on two SMs whose clocks differ (tests/data/silicon/fa_two_sm.csv:
 * SM 1 at a quarter or half of SM 0's attainable clock, per-SM DVFS).  One
 * warp of back-to-back FFMAs per CTA: CTAs on one SM share its issue slot,
 * the model the policy assumes.
 *  - 4 CTAs, 8 CTAs a SM, SM 1 at half its attainable clock (535 MHz against
 *    SM 0's 1000: the V-f curve is not proportional): (n + 1) / f gives
 *    CTA 1 to SM 1 (1/535 < 2/1000) and CTAs 2 and 3 to SM 0, three in all;
 *    round-robin puts two on each, and SM 1's pair finishes last.
 *  - 3 CTAs, one CTA a SM, SM 1 at a quarter: SM 0 runs all three one
 *    after another (3 CTA times) sooner than SM 1 runs one (4): the engine
 *    holds CTAs 1 and 2 back; round-robin gives CTA 1 to SM 1.
 *  - The same chip and a cooperative kernel (GRID.SYNC): holding a CTA back
 *    would deadlock the grid, so clock_aware must place it. */
static const struct {
    const char *scale, *yaml, *body;
    unsigned grid;
    int sm_fa[4], sm_rr[4];
} fa_cases[] = {
    {"0.5", "sm: {max_ctas: 8}", "loop 1000\nFFMA stall=1\nend\nEXIT\n", 4, {0, 1, 0, 0}, {0, 1, 0, 1}},
    {"0.25", "sm: {max_ctas: 1}", "loop 1000\nFFMA stall=1\nend\nEXIT\n", 3, {0, 0, 0}, {0, 1, 0}},
    {"0.25", "sm: {max_ctas: 1}", "loop 1000\nFFMA stall=1\nend\nGRID.SYNC\nEXIT\n", 2, {0, 1}, {0, 1}},
};

START_TEST(test_clock_aware_placement)
{
    char dir[64], map[128];
    tu_mkdtemp(dir, sizeof dir, "fa");
    snprintf(map, sizeof map, "%s/map.csv", dir);
    FILE *f = fopen(map, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "sm,fmax_scale\n0,1.0\n1,%s\n", fa_cases[_i].scale);
    fclose(f);
    char *si = tu_strf("silicon: {preset: file, map_file: %s}\ndvfs: {policy: per_sm, min_mhz: 100}\n", map);
    ps_t t[2];
    for (int pol = 0; pol < 2; pol++) {
        cfg c;
        tu_cfg(&c, NULL, TU_TINY_YAML, "topology: {sms_per_tpc: 2}", fa_cases[_i].yaml, si,
               pol ? "dispatch: {policy: round_robin}" : "dispatch: {policy: clock_aware}", NULL);
        char *tr = tu_trace1(fa_cases[_i].body, fa_cases[_i].grid, 32);
        tu_run run;
        tu_simulate_ok(&run, &c, tr);
        const int *want = pol ? fa_cases[_i].sm_rr : fa_cases[_i].sm_fa;
        for (unsigned i = 0; i < fa_cases[_i].grid; i++)
            ck_assert_msg(tu_cta(&run, 0, i)->sm == want[i], "%s: CTA %u on SM %d, expected %d",
                          pol ? "round_robin" : "clock_aware", i, tu_cta(&run, 0, i)->sm, want[i]);
        t[pol] = results_kernel(run.r, 0)->done_ps;
        tu_run_free(&run);
        free(tr);
    }
    if (_i < 2)
        ck_assert_msg(t[0] * 10 < t[1] * 9, "clock_aware %llu ps, round_robin %llu ps: expected 10%% sooner",
                      (unsigned long long)t[0], (unsigned long long)t[1]);
    free(si);
    tu_rmdir(dir);
}
END_TEST

/* gigathread on the H200: the first CTAs of a one-CTA-per-SM grid go to the
 * tail TPCs first (starting two TPCs in: 128-131, then 124-127), then GPC 0
 * in TPC order, as measured (validation/h200/e1_ctas.csv.gz, grid 132). */
START_TEST(test_gigathread_h200_132)
{
    static const int first16[] = {128, 129, 130, 131, 124, 125, 126, 127, 0, 1, 16, 17, 32, 33, 48, 49};
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    ck_assert_int_eq(c.dispatch_policy, DISPATCH_GIGATHREAD);
    char *tr = tu_strf("skewsim-trace 1\nkernel p grid=132 block=256 regs=16 smem=16\nprogram main\n"
                       LONG_BODY "end\nendkernel\n");
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    ck_assert_uint_eq(results_nctas(run.r), 132);
    for (int i = 0; i < 16; i++)
        ck_assert_msg(tu_cta(&run, 0, (uint64_t)i)->sm == first16[i], "CTA %d on SM %d, expected %d", i,
                      tu_cta(&run, 0, (uint64_t)i)->sm, first16[i]);
    /* one CTA on every SM */
    int per_sm[132] = {0};
    for (int i = 0; i < 132; i++)
        per_sm[tu_cta(&run, 0, (uint64_t)i)->sm]++;
    for (int id = 0; id < 132; id++)
        ck_assert_msg(per_sm[id] == 1, "SM %d holds %d CTAs, expected 1", id, per_sm[id]);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* 264 CTAs: exactly two on every SM, as measured. */
START_TEST(test_gigathread_h200_264)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    char *tr = tu_strf("skewsim-trace 1\nkernel p grid=264 block=256 regs=16 smem=16\nprogram main\n"
                       LONG_BODY "end\nendkernel\n");
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    ck_assert_uint_eq(results_nctas(run.r), 264);
    int per_sm[132] = {0};
    for (int i = 0; i < 264; i++)
        per_sm[tu_cta(&run, 0, (uint64_t)i)->sm]++;
    for (int id = 0; id < 132; id++)
        ck_assert_msg(per_sm[id] == 2, "SM %d holds %d CTAs, expected 2", id, per_sm[id]);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* Every CTA of the one-wave grids measured on the H200 (1, 2 and 4 CTAs a
 * SM) lands where it landed on the chip (validation/h200/e1_ctas.csv.gz:
 * grid,cta,sm,...; docs/design.md: "reproduces the measured placement").
 * The CTA body does not matter while no CTA ends during the wave. */
#define E1_CTAS "validation/h200/e1_ctas.csv.gz"
static const unsigned measured_grids[] = {132, 264, 528};

START_TEST(test_gigathread_h200_measured)
{
    unsigned grid = measured_grids[_i];
    int *want = xmalloc(grid * sizeof *want);
    for (unsigned i = 0; i < grid; i++)
        want[i] = -1;
    gzFile f = gzopen(E1_CTAS, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", E1_CTAS);
    char line[256];
    while (gzgets(f, line, sizeof line)) {
        long g, cta, smid;
        if (sscanf(line, "%ld,%ld,%ld,", &g, &cta, &smid) == 3 && g == (long)grid && cta >= 0 && cta < g)
            want[cta] = (int)smid;
    }
    gzclose(f);
    for (unsigned i = 0; i < grid; i++)
        ck_assert_msg(want[i] >= 0, "%s: no measured CTA %u of grid %u", E1_CTAS, i, grid);

    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    char *tr = tu_strf("skewsim-trace 1\nkernel p grid=%u block=256 regs=16 smem=16\nprogram main\n"
                       LONG_BODY "end\nendkernel\n", grid);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    ck_assert_uint_eq(results_nctas(run.r), grid);
    unsigned same = 0, first_bad = grid;
    for (unsigned i = 0; i < grid; i++) {
        int ok = tu_cta(&run, 0, i)->sm == want[i];
        same += (unsigned)ok;
        if (!ok && first_bad == grid)
            first_bad = i;
    }
    ck_assert_msg(same == grid, "grid %u: %u of %u CTAs where measured; CTA %u on SM %d, measured %d", grid, same,
                  grid, first_bad, first_bad < grid ? tu_cta(&run, 0, first_bad)->sm : -1,
                  first_bad < grid ? want[first_bad] : -1);
    tu_run_free(&run);
    free(tr);
    free(want);
}
END_TEST

Suite *dispatch_suite(void)
{
    Suite *s = suite_create("dispatch");
    TCase *tc = tcase_create("topology");
    tcase_add_test(tc, test_topo_h200_round_robin);
    tcase_add_test(tc, test_topo_h200_gpc_major);
    tcase_add_loop_test(tc, test_topo_small, 0, (int)SK_ARRAY_LEN(small_topos));
    suite_add_tcase(s, tc);

    tc = tcase_create("resources");
    tcase_add_loop_test(tc, test_cta_need, 0, (int)SK_ARRAY_LEN(needs));
    tcase_add_loop_test(tc, test_fits_count, 0, (int)SK_ARRAY_LEN(fits));
    tcase_add_loop_test(tc, test_fits_end_to_end, 0, (int)SK_ARRAY_LEN(fits));
    tcase_add_loop_test(tc, test_no_fit, 0, (int)SK_ARRAY_LEN(nofit));
    suite_add_tcase(s, tc);

    tc = tcase_create("placement");
    tcase_set_timeout(tc, 30);           /* generous for sanitizer builds */
    tcase_add_test(tc, test_lookup);
    tcase_add_loop_test(tc, test_round_robin_placement, 0, (int)SK_ARRAY_LEN(rr_cases));
    tcase_add_loop_test(tc, test_clock_aware_placement, 0, (int)SK_ARRAY_LEN(fa_cases));
    tcase_add_test(tc, test_gigathread_h200_132);
    tcase_add_test(tc, test_gigathread_h200_264);
    tcase_add_loop_test(tc, test_gigathread_h200_measured, 0, (int)SK_ARRAY_LEN(measured_grids));
    suite_add_tcase(s, tc);
    return s;
}
