/* test_sim.c -- the run loop (src/gpu/sim.c) and the output contract
 * (src/out/results.c), end to end: kernel times derived by hand, timer
 * marks, kernels back to back, ctas.csv and summary.json, determinism,
 * sim.max_time_ns, sink failures, every event of the sinks (sink.h), the
 * flat memory level (src/mem/flat.c), and the H200 calibration point. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/gen.h"

#define MIXED TEST_DATA "/run/mixed.trace"

/* The program "FFMA R1 <- R0, ..., FFMA Rn <- R0, EXIT" (independent) or
 * "FFMA R1 <- R0, FFMA R2 <- R1, ..., EXIT" (a chain).  Caller frees. */
static char *ffma_body(int n, int chain)
{
    size_t cap = (size_t)n * 32 + 16, len = 0;
    char *s = xmalloc(cap);
    for (int i = 1; i <= n; i++)
        len += (size_t)snprintf(s + len, cap - len, "FFMA R%d <- R%d stall=1\n", i, chain ? i - 1 : 0);
    snprintf(s + len, cap - len, "EXIT\n");
    return s;
}

/* ------------------------------------------------ hand-derived kernels */

/* One CTA of one warp on the tiny chip (testutil.h: 1 SM, 1 scheduler).
 *
 * Independent: the kernel launches at 0; the dispatcher starts handing out
 * CTAs at launch.start_ns; the CTA arrives then and (cta_launch_cycles 0)
 * its warp may issue in the first cycle starting at or after it.  N
 * independent FFMAs with stall=1 (no register read is pending: R0 was never
 * written; each writes its own register) issue one a cycle, in cycles 0 ..
 * N-1 counted from that first cycle; EXIT issues in cycle N; the CTA
 * retires at the end of that cycle, i.e. at the start of cycle N + 1.
 *   span = end - first start = N + 1 cycles
 *   time = launch.start_ns + span + launch.end_ns
 *   cycles (ctas.csv) = N + 1
 * Chain: FFMA i reads what FFMA i-1 wrote, ready lat_cycles after its
 * issue, so FFMA i issues in cycle (i-1) * lat, the EXIT (no registers)
 * one cycle after the last: span = (N-1) * lat + 2 cycles.
 * At 1000 MHz a cycle is 1 ns exactly.  At 1980 MHz a cycle is 505051 fs
 * (1e9 / 1980 rounded) and cycle c starts at floor(c * 505051 / 1000) ps:
 * 101 cycles end at 51010 ps; with start_ns 5000 the first cycle at or
 * after 5000000 ps is 9900 (9899 starts at 4999499 ps, 9900 at 5000004 ps),
 * so a 101-cycle CTA spans floor(10001 * 505051 / 1000) - 5000004 =
 * 5051015 - 5000004 = 51011 ps. */
static const struct {
    const char *yaml;
    int n, chain;
    ps_t first_start, span, time;
    uint64_t cycles;
} exact[] = {
    {"", 100, 0, 0, 101000, 101000, 101},
    {"launch: {start_ns: 7, end_ns: 3}", 100, 0, 7000, 101000, 7000 + 101000 + 3000, 101},
    {"", 1, 0, 0, 2000, 2000, 2},
    {"", 50, 1, 0, (49 * 4 + 2) * 1000, (49 * 4 + 2) * 1000, 49 * 4 + 2},
    {"units: {fp32: {lat_cycles: 6}}", 50, 1, 0, (49 * 6 + 2) * 1000, (49 * 6 + 2) * 1000, 49 * 6 + 2},
    {"clocks: {sm_mhz: 1980}", 100, 0, 0, 51010, 51010, 101},
    {"clocks: {sm_mhz: 1980}\nlaunch: {start_ns: 5000, end_ns: 2000}", 100, 0, 5000004, 51011,
     5000004 + 51011 + 2000000, 101},
};

START_TEST(test_exact_kernel)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, exact[_i].yaml, NULL);
    char *body = ffma_body(exact[_i].n, exact[_i].chain);
    char *tr = tu_trace1(body, 1, 32);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    ck_assert_uint_eq(results_nkernels(run.r), 1);
    const kernel_stats *k = results_kernel(run.r, 0);
    ck_assert_str_eq(k->name, "k");
    ck_assert_uint_eq(k->ctas, 1);
    ck_assert_int_eq(k->launch_ps, 0);
    ck_assert_int_eq(k->first_start_ps, exact[_i].first_start);
    ck_assert_int_eq(k->last_end_ps - k->first_start_ps, exact[_i].span);
    ck_assert_int_eq(k->done_ps - k->launch_ps, exact[_i].time);
    ck_assert_uint_eq(k->warp_instructions, (uint64_t)exact[_i].n + 1);
    ck_assert_uint_eq(results_nctas(run.r), 1);
    const cta_record *r = tu_cta(&run, 0, 0);
    ck_assert_int_eq(r->start_ps, exact[_i].first_start);
    ck_assert_int_eq(r->end_ps, exact[_i].first_start + exact[_i].span);
    ck_assert_uint_eq(r->cycles, exact[_i].cycles);
    ck_assert_int_eq(r->kernel_first_start_ps, exact[_i].first_start);
    ck_assert_int_eq(run.s->end_ps, exact[_i].time);
    ck_assert_uint_eq(run.s->warp_instructions, (uint64_t)exact[_i].n + 1);
    tu_run_free(&run);
    free(tr);
    free(body);
}
END_TEST

/* Timer and clock marks (docs/trace-format.md, program.h): one warp,
 *   c0 FFMA, c1 FFMA, c2 CS2R timer=start, c3 CS2R clock=start,
 *   c4-13 ten FFMAs, c14 CS2R clock=end, c15 CS2R timer=end, c16 FFMA,
 *   c17 EXIT: retires at 18.
 * Both marks: start 2, end 15, cycles 14 - 3.  Timer marks only: cycles
 * follow them, 15 - 2.  Clock marks only: start and end are the first
 * instruction and completion, cycles 14 - 3.  None: 0, 18, 18. */
static const struct {
    const char *t0, *c0, *c1, *t1;
    long start, end;
    uint64_t cycles;
} marks[] = {
    {"timer=start", "clock=start", "clock=end", "timer=end", 2, 15, 11},
    {"timer=start", "", "", "timer=end", 2, 15, 13},
    {"", "clock=start", "clock=end", "", 0, 18, 11},
    {"", "", "", "", 0, 18, 18},
};

START_TEST(test_marks)
{
    char *body = tu_strf("FFMA\nFFMA\nCS2R R4 %s\nCS2R R5 %s\n"
                         "FFMA\nFFMA\nFFMA\nFFMA\nFFMA\nFFMA\nFFMA\nFFMA\nFFMA\nFFMA\n"
                         "CS2R R6 %s\nCS2R R7 %s\nFFMA\nEXIT\n",
                         marks[_i].t0, marks[_i].c0, marks[_i].c1, marks[_i].t1);
    char *tr = tu_trace1(body, 1, 32);
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, tr);
    const cta_record *r = tu_cta(&run, 0, 0);
    ck_assert_int_eq(r->start_ps, marks[_i].start * 1000);
    ck_assert_int_eq(r->end_ps, marks[_i].end * 1000);
    ck_assert_uint_eq(r->cycles, marks[_i].cycles);
    ck_assert_int_eq(results_kernel(run.r, 0)->first_start_ps, marks[_i].start * 1000);
    tu_run_free(&run);
    free(tr);
    free(body);
}
END_TEST

/* ------------------------------------------------- kernels back to back */

/* Three kernels; each launches when the previous one completes
 * (launch.end_ns after its last CTA end) and its CTAs start launch.start_ns
 * later.  Kernel 0: 2 CTAs of 10 FFMAs + EXIT on one SM, GTO: CTA 0 in
 * cycles 100-110 (ns), CTA 1 in 111-121; last end 122 ns, done 172 ns.
 * Kernel 1 launches at 172 ns, starts at 272 ns, ... */
#define BACK_TO_BACK                                                            \
    "skewsim-trace 1\n"                                                         \
    "kernel first grid=2 block=32\nprogram main\nloop 10\nFFMA\nend\nEXIT\nend\nendkernel\n" \
    "kernel second grid=3 block=64\nprogram main\nFFMA stall=4\nEXIT\nend\nendkernel\n"     \
    "kernel third grid=1 block=32\nprogram main\nEXIT\nend\nendkernel\n"

START_TEST(test_back_to_back)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, "launch: {start_ns: 100, end_ns: 50}", NULL);
    tu_run run;
    tu_simulate_ok(&run, &c, BACK_TO_BACK);
    ck_assert_uint_eq(results_nkernels(run.r), 3);
    ck_assert_uint_eq(run.s->kernels_done, 3);
    static const char *const names[] = {"first", "second", "third"};
    static const uint64_t grids[] = {2, 3, 1};
    ps_t launch = 0;
    for (size_t i = 0; i < 3; i++) {
        const kernel_stats *k = results_kernel(run.r, i);
        ck_assert_str_eq(k->name, names[i]);
        ck_assert_uint_eq(k->index, i);
        ck_assert_uint_eq(k->ctas, grids[i]);
        ck_assert_int_eq(k->launch_ps, launch);
        ck_assert_int_eq(k->first_start_ps, launch + 100000);
        ck_assert_int_eq(k->done_ps, k->last_end_ps + 50000);
        launch = k->done_ps;
    }
    ck_assert_int_eq(results_kernel(run.r, 0)->last_end_ps, 122000);
    ck_assert_int_eq(results_kernel(run.r, 1)->launch_ps, 172000);
    ck_assert_int_eq(run.s->end_ps, results_kernel(run.r, 2)->done_ps);
    /* 11 + 11; 3 CTAs x 2 warps x 2; 1 */
    ck_assert_uint_eq(results_kernel(run.r, 0)->warp_instructions, 22);
    ck_assert_uint_eq(results_kernel(run.r, 1)->warp_instructions, 12);
    ck_assert_uint_eq(results_kernel(run.r, 2)->warp_instructions, 1);
    ck_assert_uint_eq(run.s->warp_instructions, 35);
    ck_assert_uint_eq(results_nctas(run.r), 6);
    for (size_t i = 0; i < results_nctas(run.r); i++) {
        const cta_record *r = results_cta(run.r, i);
        ck_assert_uint_lt(r->cta, grids[r->kernel]);
        ck_assert_int_eq(r->kernel_first_start_ps, results_kernel(run.r, r->kernel)->first_start_ps);
    }
    tu_run_free(&run);
}
END_TEST

/* ------------------------------------------------------------- outputs */

/* Simulate trace file `path` on `c`, writing DIR/ctas.csv and
 * DIR/summary.json; returns the finished sim (caller destroys). */
static sim *run_to_dir(const cfg *c, const char *trace_path, const char *dir, const char *trace_text)
{
    sk_error e = {0};
    trace *tr = trace_path ? trace_open(trace_path, &e) : trace_open_string("test.trace", trace_text, &e);
    ck_assert_msg(tr != NULL, "%s", e.msg);
    results *r = results_open(dir, &e);
    ck_assert_msg(r != NULL, "%s", e.msg);
    sim_sink obs = results_sink(r);
    sim *s = sim_create(c, &obs, 1, &e);
    ck_assert_msg(s != NULL, "%s", e.msg);
    ck_assert_msg(sim_run(s, tr, &e) == 0, "%s", e.msg);
    ck_assert_msg(results_finish(r, s, NULL, &e) == 0, "%s", e.msg);
    results_free(r);
    trace_close(tr);
    return s;
}

static char tmpdir[128];

static void tmp_setup(void)
{
    tu_mkdtemp(tmpdir, sizeof tmpdir, "sim");
}

static void tmp_teardown(void)
{
    char path[160];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%d", tmpdir, i);
        tu_rmdir(path);
    }
    tu_rmdir(tmpdir);
}

static char *sub(int i)
{
    return tu_strf("%s/%d", tmpdir, i);
}

static char *file_in(const char *dir, const char *name)
{
    return tu_strf("%s/%s", dir, name);
}

/* ctas.csv: the header, one row per CTA, times relative to the kernel's
 * first start; summary.json: the documented keys with the run's values. */
START_TEST(test_output_files)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, "launch: {start_ns: 100, end_ns: 50}", NULL);
    char *d = sub(0);
    sim *s = run_to_dir(&c, NULL, d, BACK_TO_BACK);
    char *csv_path = file_in(d, "ctas.csv"), *json_path = file_in(d, "summary.json");
    char *csv = tu_slurp(csv_path, NULL), *json = tu_slurp(json_path, NULL);

    const char *header = "kernel,cta,sm,start_ns,end_ns,cycles\n";
    ck_assert_int_eq(strncmp(csv, header, strlen(header)), 0);
    int lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 1 + 6);
    /* kernel 0: CTA 0 from 0 (its kernel's first start) to 11 ns, 11 cycles;
     * CTA 1 from 11 to 22 ns. */
    ck_assert_ptr_nonnull(strstr(csv, "\n0,0,0,0.000,11.000,11\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\n0,1,0,11.000,22.000,11\n"));
    ck_assert_ptr_nonnull(strstr(csv, "\n2,0,0,0.000,1.000,1\n"));

    /* The run, by hand (GTO, one SM, 1 ns a cycle):
     *   first:  launch 0, CTAs arrive at 100; CTA 0 issues 100-110, CTA 1
     *           111-121: span 22, last end 122, done 172.
     *   second: launch 172, 3 CTAs of 2 warps arrive at 272: FFMAs 272-275
     *           (warps 0-3), EXITs 276-279 (CTAs 0, 1 end at 278, 280),
     *           warps 4, 5: FFMA 280, 281, EXIT 284, 285: last end 286,
     *           span 14, done 336.
     *   third:  launch 336, EXIT at 436, end 437, done 487 = total.
     * The SM holds a CTA 22 + 14 + 1 = 37 ns of 487 (busy_frac), and runs
     * 487 cycles in 487 ns (mean_mhz 1000). */
    static const double kwarp[] = {22, 12, 1}, kspan[] = {22, 14, 1}, ktime[] = {172, 164, 151},
                        klaunch[] = {0, 172, 336};
    ck_assert_double_eq_tol(tu_json_num(json, "total_ns", 0), 487, 1e-9);
    ck_assert_int_eq(s->end_ps, 487000);
    ck_assert_double_eq_tol(tu_json_num(json, "warp_instructions", 0), 35, 1e-9);
    for (int i = 0; i < 3; i++) {
        /* kernels[i]'s warp_instructions follows the chip's total */
        ck_assert_double_eq_tol(tu_json_num(json, "warp_instructions", 1 + i), kwarp[i], 1e-9);
        ck_assert_double_eq_tol(tu_json_num(json, "span_ns", i), kspan[i], 1e-9);
        ck_assert_double_eq_tol(tu_json_num(json, "time_ns", i), ktime[i], 1e-9);
        ck_assert_double_eq_tol(tu_json_num(json, "launch_ns", i), klaunch[i], 1e-9);
    }
    ck_assert_ptr_nonnull(strstr(json, "\"kernels\":"));
    ck_assert_ptr_nonnull(strstr(json, "\"sms\":"));
    ck_assert_ptr_nonnull(strstr(json, "\"name\": \"second\""));
    ck_assert_double_eq_tol(tu_json_num(json, "busy_frac", 0), 37.0 / 487.0, 1e-6);
    ck_assert_double_eq_tol(tu_json_num(json, "mean_mhz", 0), 1000, 1e-3);
    ck_assert_double_eq_tol(tu_json_num(json, "ctas", 3), 6, 1e-9);   /* sms[0].ctas, after 3 kernels' */

    /* Only the final names are left. */
    char *t1 = file_in(d, ".ctas.csv.tmp"), *t2 = file_in(d, ".summary.json.tmp");
    ck_assert(!tu_exists(t1));
    ck_assert(!tu_exists(t2));
    free(t1);
    free(t2);
    free(csv);
    free(json);
    free(csv_path);
    free(json_path);
    sim_destroy(s);
    free(d);
}
END_TEST

/* A results directory that is never finished leaves no files behind: not
 * the temporary, not a final name (results.h). */
START_TEST(test_unfinished_leaves_nothing)
{
    char *d = sub(1);
    sk_error e = {0};
    results *r = results_open(d, &e);
    ck_assert_msg(r != NULL, "%s", e.msg);
    char *tmp = file_in(d, ".ctas.csv.tmp"), *fin = file_in(d, "ctas.csv"), *sum = file_in(d, "summary.json");
    ck_assert(tu_exists(tmp));
    results_free(r);
    ck_assert(!tu_exists(tmp));
    ck_assert(!tu_exists(fin));
    ck_assert(!tu_exists(sum));
    free(tmp);
    free(fin);
    free(sum);
    free(d);
}
END_TEST

static int same_file(const char *a, const char *b)
{
    size_t na, nb;
    char *x = tu_slurp(a, &na), *y = tu_slurp(b, &nb);
    int same = na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

/* The same config and trace give byte-identical files; a different clock
 * gives different ones (so the comparison can fail).  Nothing in the model
 * draws on sim.seed yet, so a different seed is not compared. */
START_TEST(test_determinism)
{
    cfg c, slow;
    tu_cfg(&c, TU_H200, NULL);
    tu_cfg(&slow, TU_H200, "clocks: {sm_mhz: 1500}", NULL);
    char *d[3] = {sub(0), sub(1), sub(2)};
    sim_destroy(run_to_dir(&c, MIXED, d[0], NULL));
    sim_destroy(run_to_dir(&slow, MIXED, d[2], NULL));    /* another run in between */
    sim_destroy(run_to_dir(&c, MIXED, d[1], NULL));
    static const char *const files[] = {"summary.json", "ctas.csv"};
    for (int f = 0; f < 2; f++) {
        char *a = file_in(d[0], files[f]), *b = file_in(d[1], files[f]), *x = file_in(d[2], files[f]);
        ck_assert_msg(same_file(a, b), "%s differs between two identical runs", files[f]);
        ck_assert_msg(!same_file(a, x), "%s does not change with clocks.sm_mhz", files[f]);
        free(a);
        free(b);
        free(x);
    }
    char *csv_path = file_in(d[0], "ctas.csv");
    char *csv = tu_slurp(csv_path, NULL);
    int lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 1 + 300 + 40);
    free(csv);
    free(csv_path);
    for (int i = 0; i < 3; i++)
        free(d[i]);
}
END_TEST

/* Two simulations in one process do not see each other: CTA records of a
 * run are the same before and after another sim was created and run. */
START_TEST(test_isolation)
{
    cfg c, other;
    tu_cfg(&c, TU_H200, NULL);
    tu_cfg(&other, NULL, TU_TINY_YAML, NULL);
    char *tr = tu_slurp(MIXED, NULL);
    tu_run a, b, x;
    tu_simulate_ok(&a, &c, tr);
    tu_simulate_ok(&x, &other, tr);
    tu_simulate_ok(&b, &c, tr);
    ck_assert_uint_eq(results_nctas(a.r), 340);
    ck_assert_uint_eq(results_nctas(b.r), results_nctas(a.r));
    for (size_t i = 0; i < results_nctas(a.r); i++)
        ck_assert_msg(memcmp(results_cta(a.r, i), results_cta(b.r, i), sizeof(cta_record)) == 0,
                      "CTA record %zu differs", i);
    ck_assert_int_eq(a.s->end_ps, b.s->end_ps);
    ck_assert_int_ne(a.s->end_ps, x.s->end_ps);
    tu_run_free(&a);
    tu_run_free(&b);
    tu_run_free(&x);
    free(tr);
}
END_TEST

/* ------------------------------------------------------------- failures */

/* sim.max_time_ns stops a run whose simulated time passes it (config.h:
 * "abort a run past this simulated time").
 *   dispatch: the first CTA is only dispatched at 5000 ns;
 *   chip: 132 SMs, 132 CTAs of ~40 us (many events);
 *   many CTAs: one SM, 20 CTAs of 1000 ns one after the other;
 *   one CTA: one SM, one CTA of 10001 ns: the SM runs ahead with nothing
 *   else pending. */
static const struct {
    const char *what, *yaml, *trace;
    int limit_ns;
} too_long[] = {
    {"dispatch", "launch: {start_ns: 5000}", "loop 10\nFFMA\nend\nEXIT\n", 1000},
    {"many CTAs", "", "loop 999\nFFMA\nend\nEXIT\n", 5000},
    {"one CTA", "", "loop 10000\nFFMA\nend\nEXIT\n", 1000},
};

START_TEST(test_max_time)
{
    cfg c;
    char *limit = tu_strf("sim: {max_time_ns: %d}", too_long[_i].limit_ns);
    tu_cfg(&c, NULL, TU_TINY_YAML, too_long[_i].yaml, limit, NULL);
    char *tr = tu_trace1(too_long[_i].trace, _i == 1 ? 20 : 1, 32);
    tu_run run;
    int rc = tu_simulate(&run, &c, tr);
    ck_assert_msg(rc == SK_ESIM, "%s: sim_run returned %d (%s), expected SK_ESIM; simulated %lld ps",
                  too_long[_i].what, rc, run.e.msg, run.s ? (long long)run.s->end_ps : -1LL);
    char *msg = tu_strf("kernel k: simulated time passed sim.max_time_ns=%d", too_long[_i].limit_ns);
    ck_assert_str_eq(run.e.msg, msg);
    tu_run_free(&run);
    free(msg);
    free(tr);
    free(limit);
}
END_TEST

/* The same limit on the H200, where events interleave: a 132-CTA FMA
 * kernel of about 20 us stopped at 10 us. */
START_TEST(test_max_time_h200)
{
    cfg c;
    tu_cfg(&c, TU_H200, "sim: {max_time_ns: 10000}", NULL);
    char *tr = tu_strf("skewsim-trace 1\nkernel fma grid=132 block=256 regs=16\nprogram main\n"
                       "loop 4096\nFFMA R1 <- R1\nend\nEXIT\nend\nendkernel\n");
    tu_run run;
    ck_assert_int_eq(tu_simulate(&run, &c, tr), SK_ESIM);
    ck_assert_str_eq(run.e.msg, "kernel fma: simulated time passed sim.max_time_ns=10000");
    ck_assert_int_eq(sk_exit_status(run.rc), 4);
    tu_run_free(&run);
    free(tr);
}
END_TEST

static int fail_cta(void *ud, const sim *s, const cta_record *r)
{
    (void)ud;
    (void)s;
    return r->cta == 1;
}

static int fail_kernel(void *ud, const sim *s, const kernel_stats *k)
{
    (void)ud;
    (void)s;
    return k->index == 1;
}

/* A sink whose kernel_end or cta_finish fails stops the run with SK_EIO. */
START_TEST(test_sink_end_failure)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, NULL);
    sk_error e = {0};
    const sink_ops ops = {.name = "failing", .cta_finish = _i == 0 ? fail_cta : NULL,
                          .kernel_end = _i == 1 ? fail_kernel : NULL};
    sim_sink obs = {.ops = &ops, .ud = NULL};
    sim *s = sim_create(&c, &obs, 1, &e);
    ck_assert_ptr_nonnull(s);
    trace *tr = trace_open_string("b2b.trace", BACK_TO_BACK, &e);
    ck_assert_ptr_nonnull(tr);
    ck_assert_int_eq(sim_run(s, tr, &e), SK_EIO);
    ck_assert_int_eq(e.code, SK_EIO);
    ck_assert_str_eq(e.msg, _i == 0 ? "writing the record of CTA 1 failed"
                                    : "writing the results of kernel second failed");
    sim_destroy(s);
    trace_close(tr);
}
END_TEST

/* sim_create validates the config it is given. */
START_TEST(test_create_bad_config)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, NULL);
    c.warp_schedulers = 3;               /* 64 warps do not split over 3 schedulers */
    sk_error e = {0};
    ck_assert_ptr_null(sim_create(&c, NULL, 0, &e));
    ck_assert_int_eq(e.code, SK_ECONFIG);
    ck_assert_str_eq(e.msg, "config: sm.max_warps: 64: expected a multiple of sm.warp_schedulers (3)");
    sim_destroy(NULL);
}
END_TEST

/* A trace error met while the dispatcher reads CTAs ends the run with the
 * reader's message. */
START_TEST(test_trace_error_mid_run)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, NULL);
    tu_run run;
    int rc = tu_simulate(&run, &c, "skewsim-trace 1\nkernel k grid=4 block=32\nprogram main\nEXIT\nend\n"
                                   "ctas\ncta 0\ncta 9\nend\nendkernel\n");
    ck_assert_int_eq(rc, SK_ETRACE);
    ck_assert_str_eq(run.e.msg, "test.trace:8:5: cta: 9: expected a CTA id below grid=4");
    tu_run_free(&run);
}
END_TEST

/* ---------------------------------------------------------------- sinks */

/* A sink that wants every event and checks what it is told against what
 * the run reports by other means. */
#define CS_MAX_CTAS 4096
typedef struct count_sink {
    uint64_t launches, ends, dispatches, finishes, issues, stalls, mem, mem_bytes;
    uint64_t mem_instr;                  /* LDG/STG among the issues */
    uint64_t bar_instr, grid_instr;      /* BAR.SYNC / GRID.SYNC among the issues */
    uint64_t cta_arrive, cta_release_warps, cta_releases, grid_arrive, grid_release_warps, grid_releases;
    uint64_t dvfs, bad;                  /* bad: an event that broke an invariant */
    ps_t last_dvfs, last_grid_arrive, grid_release_t;
    int disp_sm[CS_MAX_CTAS];            /* kernel * 1024 + cta -> SM + 1 */
    uint64_t fail_at;                    /* make the n-th call of `fail_cb` fail (0: never) */
    int fail_cb;
} count_sink;

enum { CB_LAUNCH, CB_DISPATCH, CB_ISSUE, CB_STALL, CB_ARRIVE, CB_RELEASE, CB_MEM, CB_DVFS };

static int cs_fail(count_sink *k, int cb, uint64_t n)
{
    return k->fail_cb == cb && k->fail_at != 0 && n == k->fail_at;
}

static int cs_launch(void *ud, const sim *s, const kernel_stats *ks)
{
    (void)s;
    count_sink *k = ud;
    k->bad += ks->first_start_ps != PS_MAX || ks->done_ps != 0 || ks->index != k->launches;
    return cs_fail(k, CB_LAUNCH, ++k->launches);
}

static int cs_end(void *ud, const sim *s, const kernel_stats *ks)
{
    (void)s;
    count_sink *k = ud;
    k->bad += ks->done_ps < ks->last_end_ps || ks->index != k->ends;
    k->ends++;
    return 0;
}

static int cs_dispatch(void *ud, const sim *s, const sink_cta *c)
{
    (void)s;
    count_sink *k = ud;
    size_t i = (size_t)(c->kernel * 1024 + c->cta);
    if (i < CS_MAX_CTAS) {
        k->bad += k->disp_sm[i] != 0;
        k->disp_sm[i] = c->sm + 1;
    }
    return cs_fail(k, CB_DISPATCH, ++k->dispatches);
}

static int cs_finish(void *ud, const sim *s, const cta_record *r)
{
    (void)s;
    count_sink *k = ud;
    size_t i = (size_t)(r->kernel * 1024 + r->cta);
    k->bad += i < CS_MAX_CTAS && k->disp_sm[i] != r->sm + 1;   /* finished where it was placed */
    k->finishes++;
    return 0;
}

static int cs_issue(void *ud, const sim *s, const sink_issue *w)
{
    count_sink *k = ud;
    const warp *x = &s->sms[w->sm].warps[w->slot];
    k->bad += x->code + w->pc != w->in || x->sched != w->sched || x->widx != w->widx;
    k->mem_instr += w->in->kind == IK_LD_GLOBAL || w->in->kind == IK_ST_GLOBAL;
    k->bar_instr += w->in->kind == IK_BAR;
    k->grid_instr += w->in->kind == IK_GRIDBAR;
    return cs_fail(k, CB_ISSUE, ++k->issues);
}

static int cs_stall(void *ud, const sim *s, const sink_stall *st)
{
    (void)s;
    count_sink *k = ud;
    k->bad += st->ready_cycle <= st->cycle;   /* nothing was ready in that cycle */
    return cs_fail(k, CB_STALL, ++k->stalls);
}

static int cs_arrive(void *ud, const sim *s, const sink_barrier *b)
{
    (void)s;
    count_sink *k = ud;
    if (b->kind == SINK_BAR_GRID) {
        k->grid_arrive++;
        k->last_grid_arrive = SK_MAX(k->last_grid_arrive, b->t);
    } else {
        k->cta_arrive++;
    }
    return cs_fail(k, CB_ARRIVE, k->grid_arrive + k->cta_arrive);
}

static int cs_release(void *ud, const sim *s, const sink_barrier *b)
{
    (void)s;
    count_sink *k = ud;
    if (b->kind == SINK_BAR_GRID) {
        k->grid_releases++;
        k->grid_release_warps += b->warps;
        k->grid_release_t = b->t;
        k->bad += b->sm != -1;
    } else {
        k->cta_releases++;
        k->cta_release_warps += b->warps;
    }
    return cs_fail(k, CB_RELEASE, k->grid_releases + k->cta_releases);
}

static int cs_mem(void *ud, const sim *s, const mem_req *r, ps_t done)
{
    (void)s;
    count_sink *k = ud;
    k->bad += done < r->t || r->bytes == 0;
    k->mem_bytes += r->bytes;
    return cs_fail(k, CB_MEM, ++k->mem);
}

static int cs_dvfs(void *ud, const sim *s, ps_t t)
{
    (void)s;
    count_sink *k = ud;
    k->bad += t < k->last_dvfs;
    k->last_dvfs = t;
    return cs_fail(k, CB_DVFS, ++k->dvfs);
}

static const sink_ops count_ops = {
    .name = "count",
    .kernel_launch = cs_launch,
    .kernel_end = cs_end,
    .cta_dispatch = cs_dispatch,
    .cta_finish = cs_finish,
    .warp_issue = cs_issue,
    .warp_stall = cs_stall,
    .barrier_arrive = cs_arrive,
    .barrier_release = cs_release,
    .dvfs_step = cs_dvfs,
    .mem_access = cs_mem,
};

/* Run trace file `path` on c into results r and, when k, the counting sink
 * too (after the results sink).  Returns sim_run's code; *sp gets the sim. */
static int run_sinks(const cfg *c, const char *path, results *r, count_sink *k, sim **sp, sk_error *e)
{
    trace *tr = trace_open(path, e);
    ck_assert_msg(tr != NULL, "%s", e->msg);
    sim_sink sinks[2] = {results_sink(r), {.ops = &count_ops, .ud = k}};
    sim *s = sim_create(c, sinks, k ? 2 : 1, e);
    ck_assert_ptr_nonnull(s);
    int rc = sim_run(s, tr, e);
    trace_close(tr);
    *sp = s;
    return rc;
}

/* Every event reaches a sink that wants it, consistent with the run's own
 * totals, and a sink that wants the fine-grained events changes nothing:
 * the results sink beside it records byte for byte what it records alone. */
START_TEST(test_sinks_every_event)
{
    cfg c;
    /* flat memory: the bytes the sink sees are checked against the flat
     * level's own count below (the hierarchy's counters: test_mem.c) */
    tu_cfg(&c, TU_H200, "memory: {model: flat}\n", NULL);
    sk_error e = {0};
    results *alone = results_open(NULL, &e), *with = results_open(NULL, &e);
    count_sink *k = xcalloc(1, sizeof *k);
    sim *s0, *s1;
    ck_assert_msg(run_sinks(&c, MIXED, alone, NULL, &s0, &e) == 0, "%s", e.msg);
    ck_assert_msg(run_sinks(&c, MIXED, with, k, &s1, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(s0->sink_want, SINK_W_KERNEL_END | SINK_W_CTA_FINISH | SINK_W_DVFS);
    ck_assert_uint_eq(s1->sink_want, (SINK_W_MEM << 1) - 1);

    ck_assert_uint_eq(results_nkernels(alone), results_nkernels(with));
    for (size_t i = 0; i < results_nkernels(alone); i++)
        ck_assert(memcmp(results_kernel(alone, i), results_kernel(with, i), sizeof(kernel_stats)) == 0);
    ck_assert_uint_eq(results_nctas(alone), results_nctas(with));
    for (size_t i = 0; i < results_nctas(alone); i++)
        ck_assert(memcmp(results_cta(alone, i), results_cta(with, i), sizeof(cta_record)) == 0);

    ck_assert_uint_eq(k->bad, 0);
    ck_assert_uint_eq(k->launches, 2);
    ck_assert_uint_eq(k->ends, 2);
    ck_assert_uint_eq(k->dispatches, results_nctas(with));
    ck_assert_uint_eq(k->finishes, results_nctas(with));
    ck_assert_uint_eq(k->issues, s1->warp_instructions);
    ck_assert_uint_gt(k->stalls, 0);
    ck_assert_uint_gt(k->mem, 0);
    ck_assert_uint_eq(k->mem, k->mem_instr);
    uint64_t bytes = 0;
    for (int i = 0; i < s1->nsms; i++)
        bytes += s1->sms[i].mem_bytes;
    ck_assert_uint_eq(k->mem_bytes, bytes);
    ck_assert_uint_eq(k->mem_bytes, mem_flat_bytes(s1->mem));
    ck_assert_uint_gt(k->bar_instr, 0);
    ck_assert_uint_eq(k->cta_arrive, k->bar_instr);
    ck_assert_uint_eq(k->cta_release_warps, k->cta_arrive);   /* every arrival is let go once */
    ck_assert_uint_gt(k->cta_releases, 0);
    ck_assert_uint_eq(k->grid_arrive, 0);
    ck_assert_uint_ge(k->dvfs, 2);       /* at least one step per kernel end */
    sim_destroy(s0);
    sim_destroy(s1);
    results_free(alone);
    results_free(with);
    free(k);
}
END_TEST

/* The grid barrier: every warp's arrival, one release of them all on no
 * SM in particular, sync.grid_ns after the last arrival at the soonest. */
START_TEST(test_sinks_grid_barrier)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, "sync: {grid_ns: 100}", NULL);
    char *path = tu_strf("%s/grid.trace", tmpdir);
    char *text = tu_trace1("loop 10\nFFMA stall=1\nend\nGRID.SYNC\nFFMA stall=1\nEXIT\n", 2, 64);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    sk_error e = {0};
    results *r = results_open(NULL, &e);
    count_sink *k = xcalloc(1, sizeof *k);
    sim *s;
    ck_assert_msg(run_sinks(&c, path, r, k, &s, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(k->bad, 0);
    ck_assert_uint_eq(k->grid_instr, 4);
    ck_assert_uint_eq(k->grid_arrive, 4);
    ck_assert_uint_eq(k->grid_releases, 1);
    ck_assert_uint_eq(k->grid_release_warps, 4);
    ck_assert_int_ge(k->grid_release_t, k->last_grid_arrive + 100 * PS_PER_NS);
    ck_assert_uint_eq(k->cta_arrive, 0);
    sim_destroy(s);
    results_free(r);
    free(k);
    remove(path);
    free(path);
    free(text);
}
END_TEST

/* A sink that fails on any event stops the run with SK_EIO and says what
 * it was writing. */
static const struct {
    int cb;
    const char *msg;                     /* the message's start */
} sink_fails[] = {
    {CB_LAUNCH, "writing the launch of kernel gather failed"},
    {CB_DISPATCH, "writing the dispatch of CTA 2 failed"},
    {CB_ISSUE, "writing an issue of SM "},
    {CB_STALL, "writing a stall of SM "},
    {CB_ARRIVE, "writing a barrier arrival at "},
    {CB_RELEASE, "writing a barrier release at "},
    {CB_MEM, "writing a memory access of SM "},
    {CB_DVFS, "writing the epoch at "},
};

START_TEST(test_sink_failure)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    sk_error e = {0};
    results *r = results_open(NULL, &e);
    count_sink *k = xcalloc(1, sizeof *k);
    k->fail_cb = sink_fails[_i].cb;
    k->fail_at = sink_fails[_i].cb == CB_DISPATCH ? 3 : 1;
    sim *s;
    ck_assert_int_eq(run_sinks(&c, MIXED, r, k, &s, &e), SK_EIO);
    ck_assert_int_eq(e.code, SK_EIO);
    ck_assert_msg(strncmp(e.msg, sink_fails[_i].msg, strlen(sink_fails[_i].msg)) == 0, "%s", e.msg);
    ck_assert_ptr_nonnull(strstr(e.msg, "failed"));
    sim_destroy(s);
    results_free(r);
    free(k);
}
END_TEST

/* sink_wants: one bit per callback the table has, none for NULL. */
START_TEST(test_sink_wants)
{
    const sink_ops issue_only = {.name = "issue", .warp_issue = cs_issue};
    ck_assert_uint_eq(sink_wants(NULL), 0);
    ck_assert_uint_eq(sink_wants(&issue_only), SINK_W_ISSUE);
    ck_assert_uint_eq(sink_wants(&count_ops), (SINK_W_MEM << 1) - 1);
    /* An empty slot in the list wants nothing and is dropped. */
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, NULL);
    sk_error e = {0};
    sim_sink list[2] = {{.ops = NULL, .ud = NULL}, {.ops = &issue_only, .ud = NULL}};
    sim *s = sim_create(&c, list, 2, &e);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(s->nsinks, 1);
    ck_assert_uint_eq(s->sink_want, SINK_W_ISSUE);
    sim_destroy(s);
}
END_TEST

/* ------------------------------------------------------------- memory */

/* The flat level against its definition worked by hand: 3350 GB/s is
 * round(1e9 / 3350) = 298507 as per byte; a 1024-byte transfer holds the
 * pipe floor(1024 * 298507 / 1e6) = 305 ps; the data is back 500 ns later.
 * A request that finds the pipe busy waits for it; one after it is idle
 * starts at once. */
START_TEST(test_mem_flat)
{
    mem_level *l = mem_flat_create(3350, 500);
    ck_assert_str_eq(l->ops->name, "flat");
    ck_assert_ptr_null(l->next);
    mem_req r = {.sm = 0, .op = MEM_LOAD, .lane_bytes = 4, .bytes = 1024, .t = 0};
    ck_assert_int_eq(mem_access(l, &r), 305 + 500000);
    r.sm = 1;                            /* another SM, same time: queued behind */
    ck_assert_int_eq(mem_access(l, &r), 610 + 500000);
    r.t = 1000000;                       /* long after: no queueing */
    r.op = MEM_STORE;
    r.bytes = 32;                        /* floor(32 * 298507 / 1e6) = 9 ps */
    ck_assert_int_eq(mem_access(l, &r), 1000000 + 9 + 500000);
    r.t = 400;                           /* earlier than the last one: accepted, waits for the pipe */
    ck_assert_int_eq(mem_access(l, &r), 1000009 + 9 + 500000);
    ck_assert_uint_eq(mem_flat_bytes(l), 1024 + 1024 + 32 + 32);
    mem_destroy(l);
    mem_destroy(NULL);
    ck_assert_uint_eq(mem_flat_bytes(NULL), 0);
}
END_TEST

/* --------------------------------------------------------------- layout */

/* No include circle between folders (docs/design.md, "Folders"): each
 * header of include/skewsim belongs to one folder; a file of src/F that
 * includes a header of folder G, or a header of F that includes one of G,
 * is an edge F -> G, and the graph must have no cycle.  A header missing
 * from the table is not counted (so adding one does not fail here) until
 * it is added. */
static const char *const layout_folders[] = {"core", "config", "trace", "mem", "silicon",
                                             "gpu", "out", "sweep", "cli", "stats", "plot", "report",
                                             "timeline", "explain", "compare"};
#define NFOLD ((int)SK_ARRAY_LEN(layout_folders))
static const struct {
    const char *header;
    int folder;                          /* index in layout_folders */
} layout_headers[] = {
    {"common", 0}, {"event", 0}, {"config", 1}, {"yamlrd", 1}, {"topo", 1}, {"policies", 1},
    {"trace", 2}, {"program", 2}, {"sass", 2}, {"gen", 2}, {"mem", 3}, {"silicon", 4},
    {"sim", 5}, {"sm", 5}, {"dispatch", 5}, {"sink", 5}, {"results", 6}, {"sweep", 7},
    {"json", 6}, {"run", 6}, {"lineread", 2}, {"stats", 9}, {"version", 0}, {"sweep_hpc", 7}, {"fileio", 0},
    {"memsys", 3}, {"plot", 10}, {"report", 11}, {"timeline", 12}, {"explain", 13}, {"compare", 14},
};

static int header_folder(const char *name, size_t n)
{
    for (size_t i = 0; i < SK_ARRAY_LEN(layout_headers); i++)
        if (strlen(layout_headers[i].header) == n && memcmp(layout_headers[i].header, name, n) == 0)
            return layout_headers[i].folder;
    return -1;
}

/* Add an edge from folder `from` for every skewsim header the file includes. */
static void scan_includes(const char *path, int from, int edge[NFOLD][NFOLD])
{
    char *text = tu_slurp(path, NULL);
    static const char key[] = "#include \"skewsim/";
    for (const char *p = strstr(text, key); p; p = strstr(p + 1, key)) {
        const char *name = p + sizeof key - 1, *dot = strstr(name, ".h\"");
        int to = dot ? header_folder(name, (size_t)(dot - name)) : -1;
        ck_assert_msg(!dot || to >= 0, "%s includes skewsim/%.*s.h, which layout_headers does not place in a "
                      "folder: add its row", path, dot ? (int)(dot - name) : 0, name);
        if (to >= 0 && to != from)
            edge[from][to] = 1;
    }
    free(text);
}

static void scan_dir(const char *dir, int folder, int edge[NFOLD][NFOLD])
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *de; (de = readdir(d));) {
        size_t n = strlen(de->d_name);
        if (n < 3 || de->d_name[0] == '.' || de->d_name[n - 2] != '.' ||
            (de->d_name[n - 1] != 'c' && de->d_name[n - 1] != 'h'))
            continue;
        char *path = tu_strf("%s/%s", dir, de->d_name);
        int from = folder;
        if (from < 0) {                  /* include/skewsim: the header's own folder */
            from = header_folder(de->d_name, n - 2);
            ck_assert_msg(from >= 0, "%s: layout_headers does not place it in a folder: add its row", path);
        }
        scan_includes(path, from, edge);
        free(path);
    }
    closedir(d);
}

/* Depth-first search; returns 1 and fills path with the cycle found. */
static int find_cycle(int edge[NFOLD][NFOLD], int v, int *state, char *path, size_t cap)
{
    state[v] = 1;
    for (int w = 0; w < NFOLD; w++) {
        if (!edge[v][w])
            continue;
        if (state[w] == 1 || (state[w] == 0 && find_cycle(edge, w, state, path, cap))) {
            size_t len = strlen(path);
            snprintf(path + len, cap - len, " %s<-%s", layout_folders[w], layout_folders[v]);
            return 1;
        }
    }
    state[v] = 2;
    return 0;
}

START_TEST(test_layout_no_folder_circle)
{
    int edge[NFOLD][NFOLD] = {{0}};
    for (int f = 0; f < NFOLD; f++) {
        char *dir = tu_strf("src/%s", layout_folders[f]);
        scan_dir(dir, f, edge);
        free(dir);
    }
    scan_dir("include/skewsim", -1, edge);
    /* every folder of src/ is in the table */
    DIR *d = opendir("src");
    ck_assert_ptr_nonnull(d);
    for (struct dirent *de; (de = readdir(d));) {
        int known = de->d_name[0] == '.';
        for (int f = 0; f < NFOLD && !known; f++)
            known = strcmp(de->d_name, layout_folders[f]) == 0;
        ck_assert_msg(known, "src/%s: not in layout_folders: add it", de->d_name);
    }
    closedir(d);
    ck_assert_int_eq(edge[5][4], 1);     /* the scan sees gpu -> silicon ... */
    ck_assert_int_eq(edge[6][5], 1);     /* ... and out -> gpu */
    int state[NFOLD] = {0};
    char path[512] = "";
    for (int v = 0; v < NFOLD; v++)
        ck_assert_msg(state[v] != 0 || !find_cycle(edge, v, state, path, sizeof path),
                      "include circle between folders:%s", path);
}
END_TEST

/* ---------------------------------------------------------- calibration */

/* The H200 calibration point: fma_kernel, 4096 iterations, 256 threads,
 * one CTA per SM (132).  Measured (validation/h200): per-CTA clock64()
 * cycles 42818 (grid 1; the 132-CTA median is 42849), CUDA-event kernel
 * time 28.6 us (median of the grid-132 repetitions in e1_kernels.csv.gz).
 * The simulation must stay within 10 % and 5 % of them. */
START_TEST(test_h200_calibration)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    sk_error e = {0};
    kernel k;
    ck_assert_msg(gen_fma(&k, 4096, 256, 132, &e) == 0, "%s", e.msg);
    char *path = tu_strf("%s/fma132.trace", tmpdir);
    ck_assert_msg(trace_write_kernel(path, &k, 0, &e) == 0, "%s", e.msg);
    kernel_free(&k);
    trace *tr = trace_open(path, &e);
    ck_assert_msg(tr != NULL, "%s", e.msg);
    results *r = results_open(NULL, &e);
    sim_sink obs = results_sink(r);
    sim *s = sim_create(&c, &obs, 1, &e);
    ck_assert_ptr_nonnull(s);
    ck_assert_msg(sim_run(s, tr, &e) == 0, "%s", e.msg);
    ck_assert_uint_eq(results_nctas(r), 132);
    for (size_t i = 0; i < results_nctas(r); i++) {
        double cyc = (double)results_cta(r, i)->cycles;
        ck_assert_msg(cyc > 0.9 * 42818 && cyc < 1.1 * 42818, "CTA %llu: %.0f cycles, measured 42818",
                      (unsigned long long)results_cta(r, i)->cta, cyc);
    }
    const kernel_stats *ks = results_kernel(r, 0);
    double t_ns = (double)(ks->done_ps - ks->launch_ps) / 1000;
    ck_assert_msg(t_ns > 0.95 * 28600 && t_ns < 1.05 * 28600, "kernel time %.1f ns, measured 28600", t_ns);
    sim_destroy(s);
    results_free(r);
    trace_close(tr);
    remove(path);
    free(path);
}
END_TEST

/* ---------------------------------------------------------- silicon */

/* Skewed silicon gives some SMs a lower attainable clock; the same seed
 * draws the same map, another seed another one; uniform keeps 1980. */
static void run_fma_on(tu_run *run, int preset, uint64_t seed)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    c.si_preset = preset;
    c.seed = seed;
    sk_error e = {0};
    kernel k;
    ck_assert_msg(gen_fma(&k, 512, 256, 132, &e) == 0, "%s", e.msg);
    char *path = tu_strf("%s/fma.trace", tmpdir);
    ck_assert_msg(trace_write_kernel(path, &k, 0, &e) == 0, "%s", e.msg);
    kernel_free(&k);
    char *text = tu_slurp(path, NULL);
    ck_assert_int_eq(tu_simulate(run, &c, text), 0);
    free(text);
    remove(path);
    free(path);
}

START_TEST(test_skewed_clocks)
{
    tu_run uni, a, b, other;
    run_fma_on(&uni, SI_PRESET_UNIFORM, 1);
    run_fma_on(&a, SI_PRESET_SKEWED, 1);
    run_fma_on(&b, SI_PRESET_SKEWED, 1);
    run_fma_on(&other, SI_PRESET_SKEWED, 2);
    int slow = 0, differ = 0;
    for (int i = 0; i < uni.s->nsms; i++) {
        ck_assert_int_eq(uni.s->sms[i].min_mhz, 1980);
        ck_assert_int_eq(uni.s->sms[i].max_mhz, 1980);
        ck_assert_int_le(a.s->sms[i].max_mhz, 1980);
        slow += a.s->sms[i].min_mhz < 1980;
        ck_assert_int_eq(a.s->sms[i].min_mhz, b.s->sms[i].min_mhz);
        differ += a.s->sms[i].min_mhz != other.s->sms[i].min_mhz;
    }
    ck_assert_int_gt(slow, 0);
    ck_assert_int_gt(differ, 0);
    /* The kernel waits for its slowest SM. */
    const kernel_stats *ku = results_kernel(uni.r, 0), *ka = results_kernel(a.r, 0);
    ck_assert_int_gt(ka->last_end_ps - ka->first_start_ps, ku->last_end_ps - ku->first_start_ps);
    tu_run_free(&uni);
    tu_run_free(&a);
    tu_run_free(&b);
    tu_run_free(&other);
}
END_TEST

/* Under the power cap a tensor-pipe-bound kernel drawing far more than
 * 700 W at 1980 MHz has its clock pulled down once a DVFS epoch plus the
 * control latency has passed, and not before. */
START_TEST(test_power_cap_pulls_clock)
{
    cfg c;
    tu_cfg(&c, TU_H200, "dvfs: {policy: power_cap, epoch_ns: 10000, latency_ns: 2000}\n", NULL);
    tu_run run;
    int rc = tu_simulate(&run, &c, "skewsim-trace 1\nkernel gemmish grid=132 block=128 regs=32\n"
                                   "program main\n  loop 1000\n    HGMMA.64x256x16 R0 <- R0 ii=128\n  end\n"
                                   "  EXIT\nend\nendkernel\n");
    ck_assert_msg(rc == 0, "%s", run.e.msg);
    const si_chip_state *chip = silicon_chip(run.s->si);
    ck_assert_uint_gt(chip->changes, 0);
    for (int i = 0; i < run.s->nsms; i++) {
        ck_assert_int_lt(run.s->sms[i].min_mhz, 1980);
        ck_assert_int_eq(run.s->sms[i].max_mhz, 1980);
    }
    /* The first decision comes at the first epoch end (10 us) and takes
     * effect 2 us later: the kernel cannot be slower than if it had run at
     * 1980 MHz for those 12 us. */
    const kernel_stats *k = results_kernel(run.r, 0);
    double span_us = (double)(k->last_end_ps - k->first_start_ps) / 1e6;
    double at_top_us = 1000.0 * 128 / 1980.0;   /* 1000 HGMMA x 128 cycles */
    ck_assert_msg(span_us > at_top_us * 1.05, "span %.1f us, at 1980 MHz %.1f us", span_us, at_top_us);
    tu_run_free(&run);
}
END_TEST

/* A launch after a long idle (gap_ns beyond dvfs.wake_after_ns) pays the
 * clock's wake-up, dvfs.wake_ns, before its CTAs start; back to back it
 * does not (validation/h200 README point 8). */
START_TEST(test_cold_launch)
{
    cfg c;
    tu_cfg(&c, TU_H200, NULL);
    tu_run run;
    const char *body = "program main\n  loop 64\n    FFMA R1 <- R1 R2\n  end\n  EXIT\nend\nendkernel\n";
    char *text = tu_strf("skewsim-trace 1\nkernel hot grid=132 block=256\n%s"
                         "kernel hot2 grid=132 block=256\n%s"
                         "kernel cold grid=132 block=256 gap_ns=50000000\n%s", body, body, body);
    tu_simulate_ok(&run, &c, text);
    const kernel_stats *hot = results_kernel(run.r, 1), *cold = results_kernel(run.r, 2);
    ck_assert_int_eq(cold->launch_ps - results_kernel(run.r, 1)->done_ps, (ps_t)50000000 * 1000);
    ps_t dt = (cold->done_ps - cold->launch_ps) - (hot->done_ps - hot->launch_ps);
    /* The wake cost of the idle stage entered by 50 ms (dvfs.wake_ns, or
     * the stage table's); equal up to where the SM clock edges fall: less
     * than one cycle. */
    ps_t wake = (ps_t)c.dvfs_wake_ns * 1000;
    for (int i = 0; i < c.dvfs_idle_stages; i++)
        if (c.dvfs_stage[i].after_ns <= 50000000)
            wake = (ps_t)c.dvfs_stage[i].wake_ns * 1000;
    ck_assert_int_ge(dt, wake);
    ck_assert_int_lt(dt, wake + 506);
    tu_run_free(&run);
    free(text);
}
END_TEST

Suite *sim_suite(void)
{
    Suite *s = suite_create("sim");
    TCase *tc = tcase_create("timing");
    tcase_add_loop_test(tc, test_exact_kernel, 0, (int)SK_ARRAY_LEN(exact));
    tcase_add_loop_test(tc, test_marks, 0, (int)SK_ARRAY_LEN(marks));
    tcase_add_test(tc, test_back_to_back);
    suite_add_tcase(s, tc);

    tc = tcase_create("output");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 30);           /* generous for sanitizer builds */
    tcase_add_test(tc, test_output_files);
    tcase_add_test(tc, test_unfinished_leaves_nothing);
    tcase_add_test(tc, test_determinism);
    tcase_add_test(tc, test_isolation);
    suite_add_tcase(s, tc);

    tc = tcase_create("failures");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_max_time, 0, (int)SK_ARRAY_LEN(too_long));
    tcase_add_test(tc, test_max_time_h200);
    tcase_add_loop_test(tc, test_sink_end_failure, 0, 2);
    tcase_add_test(tc, test_create_bad_config);
    tcase_add_test(tc, test_trace_error_mid_run);
    tcase_add_loop_test(tc, test_sink_failure, 0, (int)SK_ARRAY_LEN(sink_fails));
    suite_add_tcase(s, tc);

    tc = tcase_create("sinks");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_sinks_every_event);
    tcase_add_test(tc, test_sinks_grid_barrier);
    tcase_add_test(tc, test_sink_wants);
    tcase_add_test(tc, test_mem_flat);
    suite_add_tcase(s, tc);

    tc = tcase_create("layout");
    tcase_add_test(tc, test_layout_no_folder_circle);
    suite_add_tcase(s, tc);

    tc = tcase_create("silicon");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_skewed_clocks);
    tcase_add_test(tc, test_power_cap_pulls_clock);
    tcase_add_test(tc, test_cold_launch);
    suite_add_tcase(s, tc);

    tc = tcase_create("calibration");
    tcase_add_checked_fixture(tc, tmp_setup, tmp_teardown);
    tcase_set_timeout(tc, 60);           /* ~1 s optimised; sanitizers are slower */
    tcase_add_test(tc, test_h200_calibration);
    suite_add_tcase(s, tc);
    return s;
}
