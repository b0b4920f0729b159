/* test_explain.c -- `run --explain` (src/explain): on traces/teach/explain.trace
 * (one CTA, two warps per scheduler of the two-SM teaching chip, 1000 MHz
 * so cycles are ns) every reason appears at the cycle worked out by hand
 * from the chip's latencies: LDS 23 cycles, FFMA 4, the stall count 3, the
 * LDST pipe busy 4 cycles per instruction; the window prints only its
 * range; dispatch lines name the policy and the SMs with room; the option
 * parsers refuse what they should. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/explain.h"
#include "skewsim/sim.h"
#include "skewsim/trace.h"

/* Run `trace_path` on tiny2 with explain (what, window) into a string. */
static char *explain_run(const char *trace_path, unsigned what, ps_t from, ps_t to, const char *extra_yaml)
{
    cfg c;
    tu_cfg(&c, "configs/teach/tiny2.yaml", extra_yaml ? extra_yaml : "", NULL);
    char *text = tu_slurp(trace_path, NULL);
    sk_error e = {0};
    trace *tr = trace_open_string(trace_path, text, &e);
    ck_assert_msg(tr, "%s", e.msg);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    explain *x = explain_create(f, what, from, to);
    sim_sink k = explain_sink(x);
    sim *s = sim_create(&c, &k, 1, &e);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(sim_run(s, tr, &e), 0);
    sim_destroy(s);
    explain_destroy(x);
    fclose(f);
    trace_close(tr);
    free(text);
    return buf;
}

#define HAS(out, s) ck_assert_msg(strstr((out), (s)) != NULL, "missing: %s", (s))

START_TEST(test_reasons)
{
    char *out = explain_run("traces/teach/explain.trace", EXPLAIN_DISPATCH | EXPLAIN_ISSUE, 0, PS_MAX, NULL);
    /* cycle 0: both warps of scheduler 0 could issue LDS; GTO takes warp 0 */
    HAS(out, "       0.000 ns  SM 0 sched 0 cycle 0: W0 (CTA 0 warp 0) issues LDS R5 <- R3\n"
             "      W2 (CTA 0 warp 2): ready (LDS next), not chosen: gto (greedy-then-oldest)\n");
    /* cycle 1: the LDST pipe is busy 4 cycles (ii), warp 0 waits for its LDS */
    HAS(out, "       1.000 ns  SM 0 sched 0 cycle 1: nothing issues (no warp before cycle 4)\n"
             "      W0 (CTA 0 warp 0): shared memory: R5 from LDS, back at cycle 23\n"
             "      W2 (CTA 0 warp 2): ldst unit busy until cycle 4 (LDS next)\n");
    /* cycle 24: the FFMA issued at 23 holds warp 0 for its stall count, 3 */
    HAS(out, "      W0 (CTA 0 warp 0): compiler stall until cycle 26 (FFMA before it: stall=3)\n");
    /* cycle 26: the next FFMA needs R6, ready 4 cycles after 23 */
    HAS(out, "      W0 (CTA 0 warp 0): scoreboard on R6 (from FFMA) until cycle 27\n");
    /* after the global load: memory */
    HAS(out, "      W0 (CTA 0 warp 0): memory: R4 from LDG.E, back at cycle ");
    /* the first warps at BAR.SYNC wait for the others */
    HAS(out, "at the CTA barrier (");
    HAS(out, "       0.000 ns  dispatch: kernel 0 CTA 0 -> SM 0 (GPC 0, 1000 MHz), by gigathread: the GigaThread "
             "model: GPC bursts in TPC order; SM 0 held 0 of 4 CTAs, 0 of 512 threads; also with room: SM 1 "
             "(0 CTAs, 1000 MHz)\n");
    free(out);
}
END_TEST

/* A register-bank hold: the issue names its cost, the held cycle names
 * the port, and the ready warps say why they wait (tests/data/bank.trace). */
START_TEST(test_bank_reason)
{
    char *out = explain_run("tests/data/bank.trace", EXPLAIN_ISSUE, 0, PS_MAX, "sm: {register_banks: 2}");
    HAS(out, "cycle 0: W0 (CTA 0 warp 0) issues FFMA R1 <- R2 R4 (register banks: +1 cycle)\n");
    HAS(out, "cycle 1: nothing issues (issue port held until cycle 2: register banks)\n"
             "      W0 (CTA 0 warp 0): ready (FFMA next), the scheduler's issue port held until cycle 2 (its last "
             "issue's register reads conflicted in a bank)\n");
    HAS(out, "cycle 2: W0 (CTA 0 warp 0) issues FFMA R3 <- R2.reuse R4\n");
    free(out);
    out = explain_run("tests/data/bank.trace", EXPLAIN_ISSUE, 0, PS_MAX, "sm: {register_banks: 0}");
    ck_assert_ptr_null(strstr(out, "register banks"));
    free(out);
}
END_TEST

/* A destination a global store has yet to read: the read barrier, not a
 * busy unit or a ready warp (sm.store_read_cycles = 30: the STG issues at
 * cycle 0, the MOV into its data register waits until cycle 30). */
START_TEST(test_read_barrier_reason)
{
    char *out = explain_run("tests/data/store_read.trace", EXPLAIN_ISSUE, 0, PS_MAX, "sm: {store_read_cycles: 30}");
    HAS(out, "      W0 (CTA 0 warp 0): read barrier: a global store reads R4 until cycle 30 (MOV overwrites it)\n");
    free(out);
    out = explain_run("tests/data/store_read.trace", EXPLAIN_ISSUE, 0, PS_MAX, NULL);
    ck_assert_ptr_null(strstr(out, "read barrier"));
    free(out);
}
END_TEST

START_TEST(test_window_and_what)
{
    char *out = explain_run("traces/teach/explain.trace", EXPLAIN_ISSUE, 24000, 25000, NULL);
    /* one cycle, two schedulers: two "SM 0 sched" lines, both at 24 ns */
    int n = 0;
    for (const char *p = out; (p = strstr(p, " ns  SM ")) != NULL; p++)
        n++;
    ck_assert_int_eq(n, 2);
    HAS(out, "      24.000 ns  SM 0 sched 0 cycle 24: nothing issues");
    ck_assert_ptr_null(strstr(out, "dispatch:"));
    free(out);
    out = explain_run("traces/teach/explain.trace", EXPLAIN_DISPATCH, 0, PS_MAX, NULL);
    ck_assert_ptr_null(strstr(out, " issues "));
    HAS(out, "dispatch: kernel 0 CTA 0 -> SM 0");
    free(out);
    /* A full SM is named with the resource that fills it: 8 CTAs of 256
     * threads on tiny2 fill both SMs (512 threads each) after 4. */
    out = explain_run("traces/teach/waves.trace", EXPLAIN_DISPATCH, 0, PS_MAX, NULL);
    HAS(out, "dispatch: kernel 0 CTA 3 -> SM 1 (GPC 0, 1000 MHz), by gigathread: the GigaThread model: GPC bursts "
             "in TPC order; SM 1 held 1 of 4 CTAs, 256 of 512 threads; full: SM 0 (threads)\n");
    free(out);
    /* A cluster kernel's CTAs are placed by the engine's cluster rule, not
     * the dispatch policy, and the line says so. */
    char path[] = "/tmp/test-explain-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("skewsim-trace 1\nkernel k grid=2 block=32 regs=16 cluster=2\nprogram main\n"
          "  FFMA R1 <- R2 R3 R1\n  EXIT\nend\nendkernel\n", f);
    fclose(f);
    out = explain_run(path, EXPLAIN_DISPATCH, 0, PS_MAX, NULL);
    HAS(out, "dispatch: kernel 0 CTA 1 -> SM 1 (GPC 0, 1000 MHz), by the cluster rule: its cluster of 2 CTAs goes "
             "to the cluster group with the most room per SM, one CTA to each of 2 SMs; SM 1 held 0 of 4 CTAs");
    ck_assert_ptr_null(strstr(out, "by gigathread"));
    free(out);
    unlink(path);
}
END_TEST

START_TEST(test_parse)
{
    unsigned w;
    sk_error e = {0};
    ck_assert_int_eq(explain_parse_what(NULL, &w, &e), 0);
    ck_assert_int_eq(w, EXPLAIN_DISPATCH | EXPLAIN_ISSUE);
    ck_assert_int_eq(explain_parse_what("issue", &w, &e), 0);
    ck_assert_int_eq(w, EXPLAIN_ISSUE);
    ck_assert_int_eq(explain_parse_what("dispatch,issue", &w, &e), 0);
    ck_assert_int_eq(w, EXPLAIN_DISPATCH | EXPLAIN_ISSUE);
    ck_assert_int_eq(explain_parse_what("issues", &w, &e), SK_EUSAGE);
    ck_assert_str_eq(e.msg, "run: --explain=issues: 'issues': expected dispatch, issue or both (dispatch,issue)");
    ps_t a, b;
    sk_error e2 = {0};
    ck_assert_int_eq(explain_parse_window("10:20.5", &a, &b, &e2), 0);
    ck_assert(a == 10000 && b == 20500);
    ck_assert_int_eq(explain_parse_window("1.5:", &a, &b, &e2), 0);
    ck_assert(a == 1500 && b == PS_MAX);
    ck_assert_int_eq(explain_parse_window(":7", &a, &b, &e2), 0);
    ck_assert(a == 0 && b == 7000);
    static const char *const bad[] = {"20:10", "5", "a:b", "1.2345:9", "-1:4", "3:3"};
    for (size_t i = 0; i < SK_ARRAY_LEN(bad); i++) {
        sk_error e3 = {0};
        ck_assert_msg(explain_parse_window(bad[i], &a, &b, &e3) == SK_EUSAGE, "%s accepted", bad[i]);
    }
}
END_TEST

Suite *explain_suite(void)
{
    Suite *s = suite_create("explain");
    TCase *tc = tcase_create("explain");
    tcase_add_test(tc, test_reasons);
    tcase_add_test(tc, test_read_barrier_reason);
    tcase_add_test(tc, test_bank_reason);
    tcase_add_test(tc, test_window_and_what);
    tcase_add_test(tc, test_parse);
    suite_add_tcase(s, tc);
    return s;
}
