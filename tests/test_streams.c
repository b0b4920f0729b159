/* test_streams.c -- concurrent kernels (src/gpu/sim.c, src/gpu/dispatch.c;
 * docs/design.md "Concurrent kernels"): streams share SMs, a stream keeps
 * its order, a launch of another stream overlaps the running kernel,
 * sync=host waits for every kernel before it, per-kernel figures stay
 * apart, grid barriers and green partitions work side by side, and E14's
 * two-stream shape. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/gen.h"
#include "skewsim/topo.h"

/* The tiny chip of testutil.h with a launch path: set-up 1000 ns, host
 * calls 100 ns apart, 100 ns from a kernel's end to the next of its stream. */
#define LAUNCH_YAML "launch: {start_ns: 1000, end_ns: 500, host_ns: 100, queue_gap_ns: 100}\n"

/* One kernel: `keys` on its line, one program of `body`. */
static char *kern(const char *name, const char *keys, unsigned grid, const char *body)
{
    return tu_strf("kernel %s grid=%u block=32 regs=16 %s\nprogram main\n%send\nendkernel\n", name, grid, keys,
                   body);
}

static char *trace_of(char *a, char *b, char *c)
{
    char *t = tu_strf("skewsim-trace 1\n%s%s%s", a, b ? b : "", c ? c : "");
    free(a);
    free(b);
    free(c);
    return t;
}

#define LONG_BODY "  loop 500\n    FFMA R1 <- R2 R3 R1\n    FFMA R4 <- R2 R3 R4\n  end\n  EXIT\n"
#define SHORT_BODY "  FFMA R1 <- R2 R3 R1\n  EXIT\n"

/* Two streams on one SM: B's CTA arrives 100 ns after A's (its command
 * follows A's by host_ns and waits for nothing but its set-up) while A's
 * is still resident, so both kernels hold CTAs of the one SM at once.  In
 * one stream B would start only after A's last CTA. */
START_TEST(test_streams_share_sm)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, LAUNCH_YAML, NULL);
    char *tr = trace_of(kern("A", "", 1, LONG_BODY), kern("B", "stream=1", 1, LONG_BODY), NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    const kernel_stats *a = results_kernel(run.r, 0), *b = results_kernel(run.r, 1);
    ck_assert_int_eq(a->launch_ps, 0);
    ck_assert_int_eq(b->launch_ps, 100 * PS_PER_NS);
    ck_assert_int_eq(a->first_start_ps, 1000 * PS_PER_NS);
    /* launch overlap: B's CTA arrives at 1100 ns, not after A; its first
     * instruction waits a cycle or two behind A's older warp (GTO) */
    ck_assert_int_ge(b->first_start_ps, 1100 * PS_PER_NS);
    ck_assert_int_le(b->first_start_ps, 1110 * PS_PER_NS);
    const cta_record *ca = tu_cta(&run, 0, 0), *cb = tu_cta(&run, 1, 0);
    ck_assert_int_eq(ca->sm, cb->sm);
    ck_assert_int_lt(cb->start_ps, ca->end_ps);                 /* resident together */
    tu_run_free(&run);
    free(tr);

    /* the same two kernels in one stream: B after A's last CTA + queue gap */
    tr = trace_of(kern("A", "", 1, LONG_BODY), kern("B", "stream=0", 1, LONG_BODY), NULL);
    tu_simulate_ok(&run, &c, tr);
    a = results_kernel(run.r, 0);
    b = results_kernel(run.r, 1);
    ck_assert_int_eq(b->first_start_ps, a->last_end_ps + 100 * PS_PER_NS);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* Two kernels of two streams launched together, one CTA each on SMs 0 and
 * 1 of the H200 config, the same work: they end within a cycle of each
 * other, and the SMs' run-ahead (sim.lookahead_cycles) can reach one's end
 * after the other's later one.  The silicon model is then already past
 * the earlier end; the run must go on (it stopped with "silicon: advance
 * to ... before the model's time", session 33: validate's E18 rows of two
 * partitions' kernels launched together met it). */
START_TEST(test_streams_end_out_of_order)
{
    cfg c;
    tu_cfg(&c, "configs/h200.yaml", "launch: {host_ns: 0}\n", NULL);
#define EQ_BODY "  loop 1000\n    FFMA R1 <- R1 R2 R1 stall=1\n  end\n  EXIT\n"
    char *tr = trace_of(kern("A", "sms=sm:0", 1, EQ_BODY), kern("B", "sms=sm:1 stream=1", 1, EQ_BODY), NULL);
#undef EQ_BODY
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    const kernel_stats *a = results_kernel(run.r, 0), *b = results_kernel(run.r, 1);
    ck_assert_int_eq(tu_cta(&run, 0, 0)->sm, 0);
    ck_assert_int_eq(tu_cta(&run, 1, 0)->sm, 1);
    ps_t d = a->last_end_ps > b->last_end_ps ? a->last_end_ps - b->last_end_ps : b->last_end_ps - a->last_end_ps;
    ck_assert_msg(d <= 2000, "ends %lld and %lld ps apart", (long long)a->last_end_ps, (long long)b->last_end_ps);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* A0 (stream 0), B0 (stream 1), A1 (stream 0): A1 waits for A0's last CTA
 * plus the queue gap, and waiting does not hold B0 back. */
START_TEST(test_streams_in_order)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, LAUNCH_YAML, "topology: {sms_per_tpc: 2}\n", NULL);
    char *tr = trace_of(kern("A0", "", 2, LONG_BODY), kern("A1", "", 2, SHORT_BODY),
                        kern("B0", "stream=7", 2, LONG_BODY));
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    const kernel_stats *a0 = results_kernel(run.r, 0), *a1 = results_kernel(run.r, 1),
                       *b0 = results_kernel(run.r, 2);
    ck_assert_str_eq(b0->name, "B0");                           /* reported in trace order */
    /* A1's CTAs arrive 100 ns after A0's last (and then wait a cycle or
     * two for an issue slot beside B0's warps) */
    ck_assert_int_ge(a1->first_start_ps, a0->last_end_ps + 100 * PS_PER_NS);
    ck_assert_int_le(a1->first_start_ps, a0->last_end_ps + 110 * PS_PER_NS);
    ck_assert_int_eq(b0->launch_ps, 200 * PS_PER_NS);
    ck_assert_int_ge(b0->first_start_ps, 1200 * PS_PER_NS);
    ck_assert_int_le(b0->first_start_ps, 1210 * PS_PER_NS);
    ck_assert_int_lt(b0->first_start_ps, a0->last_end_ps);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* sync=host: the host waits for every kernel before it to complete (its
 * CUDA event), so the launch is not queued behind a running kernel; it
 * holds back a kernel of another stream too, and whatever comes after it. */
START_TEST(test_sync_host)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, "launch: {start_ns: 1000, end_ns: 500, host_ns: 0, queue_gap_ns: 100}\n",
           NULL);
    char *tr = trace_of(kern("A", "", 1, LONG_BODY), kern("B", "sync=host", 1, SHORT_BODY), NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    const kernel_stats *a = results_kernel(run.r, 0), *b = results_kernel(run.r, 1);
    ck_assert_int_eq(b->launch_ps, a->done_ps);
    ck_assert_int_eq(b->first_start_ps, a->done_ps + 1000 * PS_PER_NS);
    tu_run_free(&run);
    free(tr);
    /* without it the launch is pre-queued: the queue gap after A's last CTA */
    tr = trace_of(kern("A", "", 1, LONG_BODY), kern("B", "", 1, SHORT_BODY), NULL);
    tu_simulate_ok(&run, &c, tr);
    a = results_kernel(run.r, 0);
    b = results_kernel(run.r, 1);
    ck_assert_int_eq(b->launch_ps, 0);
    ck_assert_int_eq(b->first_start_ps, a->last_end_ps + 100 * PS_PER_NS);
    tu_run_free(&run);
    free(tr);
    /* another stream: sync=host still waits for A, then C (pipelined) follows B */
    tr = trace_of(kern("A", "", 1, LONG_BODY), kern("B", "stream=1 sync=host", 1, SHORT_BODY),
                  kern("C", "stream=2", 1, SHORT_BODY));
    tu_simulate_ok(&run, &c, tr);
    a = results_kernel(run.r, 0);
    b = results_kernel(run.r, 1);
    const kernel_stats *k2 = results_kernel(run.r, 2);
    ck_assert_int_eq(b->first_start_ps, a->done_ps + 1000 * PS_PER_NS);
    ck_assert_int_eq(k2->launch_ps, b->launch_ps);
    ck_assert_int_ge(k2->first_start_ps, b->launch_ps + 1000 * PS_PER_NS);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* Per-kernel figures of overlapping kernels are each kernel's own: the
 * warp instructions of each equal what it issues alone, and its span runs
 * from its own first CTA to its own last. */
START_TEST(test_streams_per_kernel_stats)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, LAUNCH_YAML, "topology: {sms_per_tpc: 2}\n", NULL);
    char *alone_a = trace_of(kern("A", "", 3, LONG_BODY), NULL, NULL);
    char *alone_b = trace_of(kern("B", "", 2, SHORT_BODY), NULL, NULL);
    char *both = trace_of(kern("A", "", 3, LONG_BODY), kern("B", "stream=1", 2, SHORT_BODY), NULL);
    tu_run ra, rb, r2;
    tu_simulate_ok(&ra, &c, alone_a);
    tu_simulate_ok(&rb, &c, alone_b);
    tu_simulate_ok(&r2, &c, both);
    const kernel_stats *a = results_kernel(r2.r, 0), *b = results_kernel(r2.r, 1);
    ck_assert_uint_eq(a->warp_instructions, results_kernel(ra.r, 0)->warp_instructions);
    ck_assert_uint_eq(b->warp_instructions, results_kernel(rb.r, 0)->warp_instructions);
    ck_assert_uint_ne(a->warp_instructions, b->warp_instructions);
    ck_assert_int_lt(b->first_start_ps, a->last_end_ps);         /* they overlapped */
    ck_assert_int_gt(b->first_start_ps, a->first_start_ps);
    ck_assert_uint_eq(r2.s->warp_instructions, a->warp_instructions + b->warp_instructions);
    tu_run_free(&ra);
    tu_run_free(&rb);
    tu_run_free(&r2);
    free(alone_a);
    free(alone_b);
    free(both);
}
END_TEST

/* A kernel with more registers arrives while a smaller one is resident:
 * the SM's scoreboard pool grows under the resident warps, which keep
 * their scoreboards (a stale one would let A's dependent FFMAs issue
 * early, or read freed memory under the sanitizers). */
START_TEST(test_streams_scoreboard_grows)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, LAUNCH_YAML, NULL);
    char *wide = tu_strf("  loop 200\n");
    for (int r = 10; r < 60; r++) {
        char *n = tu_strf("%s    FFMA R%d <- R%d R%d R%d\n", wide, r, r + 1, r + 2, r);
        free(wide);
        wide = n;
    }
    char *body = tu_strf("%s  end\n  EXIT\n", wide);
    free(wide);
    const char *dep = "  loop 300\n    FFMA R1 <- R2 R3 R1\n  end\n  EXIT\n";
    char *alone = trace_of(kern("A", "", 1, dep), NULL, NULL);
    char *both = trace_of(kern("A", "", 1, dep), kern("B", "stream=1", 1, body), NULL);
    tu_run ra, r2;
    tu_simulate_ok(&ra, &c, alone);
    tu_simulate_ok(&r2, &c, both);
    const kernel_stats *a1 = results_kernel(ra.r, 0), *a = results_kernel(r2.r, 0), *b = results_kernel(r2.r, 1);
    ck_assert_int_lt(b->first_start_ps, a->last_end_ps);
    ck_assert_uint_eq(a->warp_instructions, a1->warp_instructions);
    /* A's chain of dependent FFMAs (4 cycles each) cannot run faster than alone */
    ck_assert_int_ge(a->last_end_ps - a->first_start_ps, a1->last_end_ps - a1->first_start_ps);
    tu_run_free(&ra);
    tu_run_free(&r2);
    free(body);
    free(alone);
    free(both);
}
END_TEST

/* A cooperative kernel beside a long kernel of another stream: its grid
 * barrier counts its own warps, so it does not wait for the other
 * kernel's (which never arrive) and ends first. */
START_TEST(test_streams_grid_barrier)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, LAUNCH_YAML, "topology: {sms_per_tpc: 2}\n", NULL);
    char *tr = trace_of(kern("A", "", 2, "  FFMA R1 <- R2 R3 R1\n  GRID.SYNC\n  FFMA R1 <- R2 R3 R1\n  EXIT\n"),
                        kern("B", "stream=1", 2,
                             "  loop 5000\n    FFMA R1 <- R2 R3 R1\n  end\n  EXIT\n"), NULL);
    /* B's command first, so that B's warps are resident when A's arrive */
    char *swapped = trace_of(kern("B", "stream=1", 2, "  loop 5000\n    FFMA R1 <- R2 R3 R1\n  end\n  EXIT\n"),
                             kern("A", "", 2, "  FFMA R1 <- R2 R3 R1\n  GRID.SYNC\n  FFMA R1 <- R2 R3 R1\n"
                                  "  EXIT\n"), NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, swapped);
    const kernel_stats *b = results_kernel(run.r, 0), *a = results_kernel(run.r, 1);
    ck_assert_int_lt(a->first_start_ps, b->last_end_ps);
    ck_assert_int_lt(a->last_end_ps, b->last_end_ps);
    ck_assert_int_gt(a->barrier_wait_ps, 0);
    tu_run_free(&run);
    tu_simulate_ok(&run, &c, tr);
    tu_run_free(&run);
    free(tr);
    free(swapped);
}
END_TEST

/* Two tenants on a green-context split (issue 16(f)): sms=green:16 and
 * sms=rest:16 in two streams run at the same time, each only on its SMs. */
START_TEST(test_streams_green_tenants)
{
    cfg c;
    tu_cfg(&c, TU_H200, "", NULL);
    const char *body = "  loop 20000\n    FFMA R1 <- R2 R3 R1\n    FFMA R4 <- R2 R3 R4\n  end\n  EXIT\n";
    char *tr = trace_of(kern("G", "sms=green:16", 64, body), kern("R", "stream=1 sms=rest:16", 232, body), NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    int ng = 0, nr = 0;
    int *g = calloc(132, sizeof *g), *r = calloc(132, sizeof *r);
    sk_error e = {0};
    ck_assert_int_eq(topo_green(&run.s->topo, 16, c.green_unit_sms, g, &ng, r, &nr, &e), 0);
    unsigned char in_g[132] = {0};
    for (int i = 0; i < ng; i++)
        in_g[g[i]] = 1;
    const kernel_stats *kg = results_kernel(run.r, 0), *kr = results_kernel(run.r, 1);
    for (uint64_t i = 0; i < 64; i++)
        ck_assert_msg(in_g[tu_cta(&run, 0, i)->sm], "green CTA %llu on SM %d", (unsigned long long)i,
                      tu_cta(&run, 0, i)->sm);
    for (uint64_t i = 0; i < 232; i++)
        ck_assert_msg(!in_g[tu_cta(&run, 1, i)->sm], "rest CTA %llu on SM %d", (unsigned long long)i,
                      tu_cta(&run, 1, i)->sm);
    ck_assert_int_lt(kr->first_start_ps, kg->last_end_ps);      /* side by side */
    free(g);
    free(r);
    tu_run_free(&run);
    free(tr);
}
END_TEST

/* E14's shape (validation/h200 README, E14): two gen fma kernels of 132
 * CTAs on two streams.  B's CTAs start after A's, on SMs that hold A's
 * CTAs, and both kernels take longer than alone; together they end about
 * when the SMs have done both (measured: B ends 41.6-41.9 us after A's
 * first CTA, alone each 27 us). */
START_TEST(test_streams_e14_shape)
{
    /* both the default policy and round_robin: gigathread's levels count
     * the served kernel's CTAs, so B spreads one per SM beside A, as on
     * the chip (with levels over all resident CTAs it doubled 8 of B's
     * CTAs up and left the 8 tail SMs without one: B ended 59.7 us after
     * A's first CTA instead of 41) */
    static const char *const pol[] = {"dispatch: {policy: round_robin}\n", "dispatch: {policy: gigathread}\n"};
    cfg c;
    tu_cfg(&c, TU_H200, pol[_i], NULL);
    kernel k;
    sk_error e = {0};
    ck_assert_int_eq(gen_fma(&k, 1024, 256, 132, &e), 0);
    char path[] = "/tmp/skewsim-e14-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), 0);
    char *one = tu_slurp(path, NULL);
    remove(path);
    kernel_free(&k);
    const char *body = strstr(one, "kernel ");
    ck_assert_ptr_nonnull(body);
    char *two = tu_strf("%.*skernel fma_b stream=1 %s", (int)(body - one), one, body + strlen("kernel fma_kernel "));
    char *both = tu_strf("%s%s", one, strstr(two, "kernel fma_b"));
    tu_run alone, run;
    tu_simulate_ok(&alone, &c, one);
    tu_simulate_ok(&run, &c, both);
    const kernel_stats *k1 = results_kernel(alone.r, 0);
    const kernel_stats *a = results_kernel(run.r, 0), *b = results_kernel(run.r, 1);
    ps_t span1 = k1->last_record_end_ps - k1->first_start_ps;
    ck_assert_int_gt(b->first_start_ps, a->first_start_ps);
    ck_assert_int_lt(b->first_start_ps, a->last_end_ps);
    ck_assert_int_gt(a->last_record_end_ps - a->first_start_ps, span1);
    ck_assert_int_gt(b->last_record_end_ps - b->first_start_ps, span1);
    /* both kernels' work is done well before two kernels back to back */
    ck_assert_int_lt(b->last_end_ps - a->first_start_ps, 2 * span1 + span1 / 4);
    int shared = 0;
    for (uint64_t i = 0; i < 132; i++) {
        const cta_record *cb = tu_cta(&run, 1, i);
        for (uint64_t j = 0; j < 132; j++) {
            const cta_record *ca = tu_cta(&run, 0, j);
            if (ca->sm == cb->sm && ca->start_ps < cb->start_ps && cb->start_ps < ca->end_ps)
                shared++;
        }
    }
    ck_assert_int_eq(shared, 132);                              /* every B CTA beside an A CTA */
    unsigned char seen[132] = {0};
    int distinct = 0;
    for (uint64_t i = 0; i < 132; i++) {
        const cta_record *cb = tu_cta(&run, 1, i);
        ck_assert_int_lt(cb->sm, 132);
        distinct += !seen[cb->sm]++;
    }
    ck_assert_int_eq(distinct, 132);                            /* one B CTA on every SM */
    tu_run_free(&alone);
    tu_run_free(&run);
    free(one);
    free(two);
    free(both);
}
END_TEST

/* First launches (sim.c "First launches"; E13): per-kernel times of an
 * fma kernel A, two cooperative kernels C, C and a second plain kernel B,
 * each after the host waited (sync=host), under `yaml`. */
#define FIRST_COSTS "launch: {first_launch_ns: 3000, module_load_ns: 50000, coop_setup_ns: 7000}\n"
#define COOP_BODY "  FFMA R1 <- R2 R3 R1\n  GRID.SYNC\n  FFMA R1 <- R2 R3 R1\n  EXIT\n"

static void first_times(const char *yaml, const char *mode, ps_t t[4])
{
    cfg c;
    char *ml = tu_strf("launch: {module_loading: %s}\n", mode);
    tu_cfg(&c, NULL, TU_TINY_YAML, LAUNCH_YAML, yaml, ml, NULL);
    free(ml);
    char *a = kern("A", "sync=host", 2, SHORT_BODY), *co = kern("C", "sync=host", 2, COOP_BODY);
    char *b = kern("B", "sync=host", 2, SHORT_BODY);
    char *tr = tu_strf("skewsim-trace 1\n%s%s%s%s", a, co, co, b);
    free(a);
    free(co);
    free(b);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    for (size_t i = 0; i < 4; i++) {
        const kernel_stats *k = results_kernel(run.r, i);
        t[i] = k->done_ps - k->launch_ps;
    }
    tu_run_free(&run);
    free(tr);
}

START_TEST(test_first_launch_costs)
{
    ps_t base[4], t[4];
    first_times("", "steady", base);
    /* steady ignores the costs; zero costs in lazy or eager are the old times */
    first_times(FIRST_COSTS, "steady", t);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(t[i], base[i]);
    first_times("launch: {first_launch_ns: 0, module_load_ns: 0, coop_setup_ns: 0}\n", "lazy", t);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(t[i], base[i]);
    first_times("launch: {first_launch_ns: 0, module_load_ns: 0, coop_setup_ns: 0}\n", "eager", t);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(t[i], base[i]);
    /* eager: the run's first launch pays first_launch_ns (not module_load_ns),
     * the first cooperative kernel coop_setup_ns, the second nothing */
    first_times(FIRST_COSTS, "eager", t);
    ck_assert_int_eq(t[0], base[0] + 3000 * PS_PER_NS);
    ck_assert_int_eq(t[1], base[1] + 7000 * PS_PER_NS);
    ck_assert_int_eq(t[2], base[2]);
    ck_assert_int_eq(t[3], base[3]);
    /* lazy: the first launch loads the module as well, once per run: the
     * cooperative kernel pays its set-up only, B (another kernel of the
     * module) nothing */
    first_times(FIRST_COSTS, "lazy", t);
    ck_assert_int_eq(t[0], base[0] + 53000 * PS_PER_NS);
    ck_assert_int_eq(t[1], base[1] + 7000 * PS_PER_NS);
    ck_assert_int_eq(t[2], base[2]);
    ck_assert_int_eq(t[3], base[3]);
}
END_TEST

Suite *streams_suite(void)
{
    Suite *s = suite_create("streams");
    TCase *tc = tcase_create("streams");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_streams_share_sm);
    tcase_add_test(tc, test_streams_end_out_of_order);
    tcase_add_test(tc, test_streams_in_order);
    tcase_add_test(tc, test_sync_host);
    tcase_add_test(tc, test_streams_per_kernel_stats);
    tcase_add_test(tc, test_streams_scoreboard_grows);
    tcase_add_test(tc, test_streams_grid_barrier);
    tcase_add_test(tc, test_streams_green_tenants);
    tcase_add_loop_test(tc, test_streams_e14_shape, 0, 2);
    tcase_add_test(tc, test_first_launch_costs);
    suite_add_tcase(s, tc);
    return s;
}
