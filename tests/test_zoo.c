/* test_zoo.c -- the figures a study compares schedulers by (summary.json:
 * per kernel imbalance, tail and barrier wait; per SM the stall breakdown),
 * and the scheduler zoo's policies, on hand-built cases whose answers are
 * worked out in the comments (the tiny chip of testutil.h: 1000 MHz, one
 * cycle = 1 ns). */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "testutil.h"

static void run_tiny(tu_run *run, const char *yaml, const char *body, unsigned grid, unsigned block)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, yaml, NULL);
    char *tr = tu_trace1(body, grid, block);
    tu_simulate_ok(run, &c, tr);
    free(tr);
    ck_assert_uint_eq(results_nctas(run->r), grid);
}

/* ------------------------------------------------------------ stall breakdown */

/* One CTA on the one-scheduler SM; the run ends with the CTA (no launch
 * overheads), so every scheduler-cycle of the run is an issue or a stall.
 *  - two stall=4 FFMAs: issues c0, c4, EXIT c8, end 9: c1-3 and c5-7 are
 *    compiler stalls (6);
 *  - FFMA R1 <- R0, FFMA R2 <- R1 (lat 4): c0, c4, EXIT c5, end 6: c1-3 wait
 *    for R1 on the scoreboard (3);
 *  - two warps, one FFMA each, fp32 ii 4 on one pipeline: W0 FFMA c0, W0
 *    EXIT c1, W1 FFMA waits for the pipe until c4, EXIT c5, end 6: c2, c3 are
 *    unit-busy stalls (2). */
static const struct {
    const char *yaml, *body;
    unsigned block;
    uint64_t issued, cycles, want[SM_NSTALLS];
} stalls[] = {
    {"", "FFMA stall=4\nFFMA stall=4\nEXIT\n", 32, 3, 9, {[SM_STALL_COMPILER] = 6}},
    {"", "FFMA R1 <- R0\nFFMA R2 <- R1\nEXIT\n", 32, 3, 6, {[SM_STALL_SCOREBOARD] = 3}},
    {"units: {fp32: {count: 1, lat_cycles: 4, ii_cycles: 4}}", "FFMA stall=1\nEXIT\n", 64, 4, 6,
     {[SM_STALL_UNIT] = 2}},
};

START_TEST(test_stall_breakdown)
{
    tu_run run;
    run_tiny(&run, stalls[_i].yaml, stalls[_i].body, 1, stalls[_i].block);
    const sm *m = &run.s->sms[0];
    ck_assert_int_eq(run.s->end_ps, (ps_t)stalls[_i].cycles * 1000);
    ck_assert_uint_eq(m->issue_slots, stalls[_i].issued);
    uint64_t got[SM_NSTALLS];
    sm_stall_cycles(m, stalls[_i].cycles, got);
    for (int k = 0; k < SM_NSTALLS; k++)
        ck_assert_msg(got[k] == stalls[_i].want[k], "case %d: %s = %llu, expected %llu", _i, sm_stall_name(k),
                      (unsigned long long)got[k], (unsigned long long)stalls[_i].want[k]);
    tu_run_free(&run);
}
END_TEST

/* The remainder is no_cta: the same one-CTA run counted over 20 cycles
 * gives 20 - 9 = 11 more cycles with no warp. */
START_TEST(test_stall_no_cta)
{
    tu_run run;
    run_tiny(&run, "", "FFMA stall=4\nFFMA stall=4\nEXIT\n", 1, 32);
    uint64_t got[SM_NSTALLS];
    sm_stall_cycles(&run.s->sms[0], 20, got);
    ck_assert_uint_eq(got[SM_STALL_NO_CTA], 11);
    ck_assert_uint_eq(got[SM_STALL_COMPILER], 6);
    tu_run_free(&run);
}
END_TEST

/* ------------------------------------------------------------ kernel figures */

/* Two SMs, one CTA each at a time, round-robin, three CTAs of 100
 * back-to-back FFMAs and an EXIT (101 cycles): SM 0 runs CTA 0 (0-101 ns)
 * and CTA 2 (101-202), SM 1 CTA 1 (0-101).  Busy 202 and 101: imbalance
 * 202 / 151.5 = 4/3; SM 1 runs out of work at 101, the kernel ends at 202:
 * tail 101 ns.  No barrier: wait 0. */
START_TEST(test_kernel_figures)
{
    tu_run run;
    run_tiny(&run, "topology: {sms_per_tpc: 2}\nsm: {max_ctas: 1}", "loop 100\nFFMA stall=1\nend\nEXIT\n", 3,
             32);
    const kernel_stats *k = results_kernel(run.r, 0);
    ck_assert_int_eq(k->last_end_ps, 202000);
    ck_assert_double_eq_tol(k->imbalance, 4.0 / 3.0, 1e-12);
    ck_assert_int_eq(k->tail_ps, 101000);
    ck_assert_int_eq(k->barrier_wait_ps, 0);
    tu_run_free(&run);
}
END_TEST

/* test_sm.c's barrier case (oldest-first, barrier_cycles 1): W0 arrives c0,
 * W1 c31, both released at 32: W0 waited 32 ns, W1 1 ns, 33 ns in all.  One
 * SM, one CTA: imbalance 1, tail 0. */
START_TEST(test_barrier_wait)
{
    tu_run run;
    run_tiny(&run, "sm: {warp_policy: oldest, barrier_cycles: 1}",
             "ifwarp 1\nFFMA stall=15\nFFMA stall=15\nend\nBAR.SYNC stall=1\n"
             "ifwarp 0\nFFMA stall=15\nend\nEXIT\n",
             1, 64);
    const kernel_stats *k = results_kernel(run.r, 0);
    ck_assert_int_eq(k->barrier_wait_ps, 33000);
    ck_assert_double_eq_tol(k->imbalance, 1.0, 1e-12);
    ck_assert_int_eq(k->tail_ps, 0);
    tu_run_free(&run);
}
END_TEST

Suite *zoo_suite(void)
{
    Suite *s = suite_create("zoo");
    TCase *tc = tcase_create("figures");
    tcase_add_loop_test(tc, test_stall_breakdown, 0, (int)SK_ARRAY_LEN(stalls));
    tcase_add_test(tc, test_stall_no_cta);
    tcase_add_test(tc, test_kernel_figures);
    tcase_add_test(tc, test_barrier_wait);
    suite_add_tcase(s, tc);
    return s;
}
