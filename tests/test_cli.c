/* test_cli.c -- the skewsim command line (src/cli), run as a program: exit
 * statuses (README.md "Exit status", SK_ERRNO_MAP in common.h) and the
 * one-line error messages, `config --dump` reading back, and `run`'s
 * output directory.  The binary is $SKEWSIM_BIN (`make check` sets it),
 * else build/skewsim. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "tests.h"
#include "testutil.h"

#define MIXED TEST_DATA "/run/mixed.trace"
#define PLOT_RUN TEST_DATA "/plot/run4"
/* The usage lines of cmd_plot.c and cmd_report.c, as their messages quote them. */
#define PLOT_USAGE "skewsim plot KIND DIR -o FILE.svg [-c CONFIG] [--set key=value ...] | plot --list"
#define REPORT_USAGE "skewsim report DIR [-o FILE.html] [-c CONFIG] [--set key=value ...]"

static char tmpdir[128];

static void setup(void)
{
    tu_mkdtemp(tmpdir, sizeof tmpdir, "cli");
}

static void teardown(void)
{
    static const char *const subs[] = {"out", "new", "fail", "never"};
    for (size_t i = 0; i < SK_ARRAY_LEN(subs); i++) {
        char *d = tu_strf("%s/%s", tmpdir, subs[i]);
        tu_rmdir(d);
        free(d);
    }
    tu_rmdir(tmpdir);
}

/* `s` with every "@" replaced by the test's scratch directory. */
static char *subst(const char *s)
{
    size_t n = strlen(s) + 1, at = 0;
    for (const char *p = s; *p; p++)
        at += *p == '@';
    char *out = xmalloc(n + at * strlen(tmpdir)), *o = out;
    for (const char *p = s; *p; p++) {
        if (*p == '@') {
            strcpy(o, tmpdir);
            o += strlen(tmpdir);
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

typedef struct cli_result {
    int status;             /* exit status, or -1 when it did not exit normally */
    char *out, *err;        /* everything it wrote */
} cli_result;

/* Run `skewsim ARGS` (ARGS through the shell, after subst()). */
static void run_cli(const char *args, cli_result *res)
{
    const char *bin = getenv("SKEWSIM_BIN");
    if (!bin || !*bin)
        bin = "build/skewsim";
    char *a = subst(args);
    char *out = tu_strf("%s/stdout", tmpdir), *err = tu_strf("%s/stderr", tmpdir);
    char *cmd = tu_strf("'%s' %s >'%s' 2>'%s' </dev/null", bin, a, out, err);
    int st = system(cmd);
    ck_assert_int_ne(st, -1);
    res->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    ck_assert_msg(res->status != 127, "cannot run %s", bin);
    res->out = tu_slurp(out, NULL);
    res->err = tu_slurp(err, NULL);
    remove(out);
    remove(err);
    free(cmd);
    free(out);
    free(err);
    free(a);
}

static void cli_free(cli_result *res)
{
    free(res->out);
    free(res->err);
}

/* ------------------------------------------------------------- errors */

/* Each bad command line: its exit status and its one line on stderr
 * ("@" stands for the scratch directory). */
static const struct {
    const char *args;
    int code;               /* SK_E* behind the exit status */
    int status;             /* README.md's table */
    const char *err;
} bad[] = {
    {"foo", SK_EUSAGE, 1,
     "skewsim: unknown command 'foo': expected run, gen, config, validate, import, sweep, compare, collect, plot, report, topo or version\n"},
    {"run -c " TU_H200 " -o @/never", SK_EUSAGE, 1,
     "skewsim: run: missing -t TRACE: expected -c CONFIG -t TRACE -o DIR\n"},
    {"run -t " MIXED " -o @/never", SK_EUSAGE, 1,
     "skewsim: run: missing -c CONFIG: expected -c CONFIG -t TRACE -o DIR\n"},
    {"run -c " TU_H200 " -t " MIXED, SK_EUSAGE, 1,
     "skewsim: run: missing -o DIR: expected -c CONFIG -t TRACE -o DIR\n"},
    {"run -c " TU_H200 " -t " TEST_DATA "/run/no-such.trace -o @/never", SK_EIO, 3,
     "skewsim: " TEST_DATA "/run/no-such.trace: cannot open: No such file or directory\n"},
    {"run -c " TEST_DATA "/run/no-such.yaml -t " MIXED " -o @/never", SK_EIO, 3,
     "skewsim: " TEST_DATA "/run/no-such.yaml: cannot open: No such file or directory\n"},
    {"run -c " TU_H200 " -t " MIXED " -o @/never --set sm.warp_schedulers=0", SK_ERANGE, 2,
     "skewsim: --set sm.warp_schedulers=0: sm.warp_schedulers: 0: expected an integer in 1..32\n"},
    {"run -c " TU_H200 " -t " MIXED " -o @/never --seed abc", SK_EUSAGE, 1,
     "skewsim: run: --seed: abc: expected an integer in 0..18446744073709551615\n"},
    {"run -c " TU_H200 " -t " MIXED " -o @/never --seed -1", SK_EUSAGE, 1,
     "skewsim: run: --seed: -1: expected an integer in 0..18446744073709551615\n"},
    {"run -c " TU_H200 " -t " TEST_DATA "/run/too_big.trace -o @/fail", SK_EFIT, 2,
     "skewsim: kernel huge: a CTA of 1024 threads, 255 registers/thread, 0 bytes of shared memory needs "
     "32 warps, 262144 registers, 1024 bytes: expected at most sm.max_threads=2048, sm.max_warps=64, "
     "sm.registers=65536, sm.smem_bytes=233472\n"},
    /* stopped at 6 us, with CTAs running and events pending */
    {"run -c " TU_H200 " -t " MIXED " -o @/fail --set sim.max_time_ns=6000", SK_ESIM, 4,
     "skewsim: kernel gather: simulated time passed sim.max_time_ns=6000\n"},
    {"run -c " TU_H200 " -t " MIXED " -o @/no/such/dir", SK_EIO, 3,
     "skewsim: @/no/such/dir: cannot create output directory: No such file or directory\n"},
    {"gen fma --iters -1", SK_EUSAGE, 1, "skewsim: gen fma: iters -1: expected 0..2147483647\n"},
    {"gen bogus", SK_EUSAGE, 1, "skewsim: gen: bogus: expected a workload: fma, stream, gemm, coop, chase, add, unit, rw, empty, lds or worder (see 'skewsim gen --help')\n"},
    /* plot and report share one parser (src/cli/args.c): the same mistakes
     * give the same messages, and --set reaches the config in both. */
    {"report", SK_EUSAGE, 1, "skewsim: report: missing DIR: expected " REPORT_USAGE "\n"},
    {"report -x", SK_EUSAGE, 1, "skewsim: report: -x: unknown option: expected " REPORT_USAGE "\n"},
    {"report " PLOT_RUN " -o", SK_EUSAGE, 1, "skewsim: report: -o: missing value: expected " REPORT_USAGE "\n"},
    {"report " PLOT_RUN " @/never", SK_EUSAGE, 1,
     "skewsim: report: @/never: unexpected argument: expected " REPORT_USAGE "\n"},
    {"report " PLOT_RUN " -o @/never --set sm.warp_schedulers=0", SK_ERANGE, 2,
     "skewsim: --set sm.warp_schedulers=0: sm.warp_schedulers: 0: expected an integer in 1..32\n"},
    {"plot", SK_EUSAGE, 1, "skewsim: plot: missing KIND: expected " PLOT_USAGE "\n"},
    {"plot gantt " PLOT_RUN " -c", SK_EUSAGE, 1, "skewsim: plot: -c: missing value: expected " PLOT_USAGE "\n"},
    {"plot gantt " PLOT_RUN " @/never -o @/never", SK_EUSAGE, 1,
     "skewsim: plot: @/never: unexpected argument: expected " PLOT_USAGE "\n"},
    {"plot gantt " PLOT_RUN " -o @/never --set sm.warp_schedulers=0", SK_ERANGE, 2,
     "skewsim: --set sm.warp_schedulers=0: sm.warp_schedulers: 0: expected an integer in 1..32\n"},
    {"validate -c " TU_H200, SK_EUSAGE, 1,
     "skewsim: validate: missing -d DIR or --measured DIR: expected -c CONFIG (-d DIR | --measured DIR)\n"},
};

START_TEST(test_bad_command_line)
{
    cli_result res;
    run_cli(bad[_i].args, &res);
    char *want = subst(bad[_i].err);
    ck_assert_int_eq(sk_exit_status(bad[_i].code), bad[_i].status);
    ck_assert_msg(res.status == bad[_i].status, "skewsim %s: exit status %d, expected %d (stderr: %s)",
                  bad[_i].args, res.status, bad[_i].status, res.err);
    ck_assert_str_eq(res.err, want);
    /* A failed run leaves no results behind, under any name. */
    static const char *const leftovers[] = {"@/fail/ctas.csv", "@/fail/summary.json", "@/fail/.ctas.csv.tmp",
                                            "@/fail/.summary.json.tmp", "@/never"};
    for (size_t i = 0; i < SK_ARRAY_LEN(leftovers); i++) {
        char *p = subst(leftovers[i]);
        ck_assert_msg(!tu_exists(p), "skewsim %s left %s", bad[_i].args, p);
        free(p);
    }
    free(want);
    cli_free(&res);
}
END_TEST

/* No command at all: status 1, the usage on stderr, nothing on stdout.
 * README.md says every error is one line on stderr, but main.c prints the
 * whole usage here, and which one line is meant is not specified: so only
 * the status and the streams are pinned. */
START_TEST(test_no_command)
{
    cli_result res;
    run_cli("", &res);
    ck_assert_int_eq(res.status, 1);
    ck_assert_str_eq(res.out, "");
    ck_assert_ptr_nonnull(strstr(res.err, "skewsim"));
    ck_assert_ptr_nonnull(strstr(res.err, "run"));
    cli_free(&res);
}
END_TEST

START_TEST(test_version)
{
    cli_result res;
    run_cli("version", &res);
    ck_assert_int_eq(res.status, 0);
    ck_assert_int_eq(strncmp(res.out, "skewsim ", 8), 0);
    ck_assert_str_eq(res.err, "");
    cli_free(&res);
}
END_TEST

/* ------------------------------------------------------------- config */

/* `config --dump` of the H200 config loads back and dumps the same text. */
START_TEST(test_config_dump_round_trip)
{
    cli_result a, b;
    run_cli("config -c " TU_H200 " --dump", &a);
    ck_assert_msg(a.status == 0, "%s", a.err);
    ck_assert_str_eq(a.err, "");
    ck_assert_ptr_nonnull(strstr(a.out, "sm_mhz: 1980"));
    char *path = tu_strf("%s/dump.yaml", tmpdir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(a.out, f);
    ck_assert_int_eq(fclose(f), 0);
    run_cli("config -c @/dump.yaml --dump", &b);
    ck_assert_msg(b.status == 0, "%s", b.err);
    ck_assert_str_eq(b.out, a.out);
    /* and in process: the dump is the same chip */
    cfg x, y;
    tu_cfg(&x, TU_H200, NULL);
    tu_cfg(&y, path, NULL);
    ck_assert_str_eq(x.name, y.name);
    ck_assert_int_eq(cfg_num_sms(&x), cfg_num_sms(&y));
    ck_assert_int_eq(x.starvation_cycles, y.starvation_cycles);
    ck_assert_int_eq(x.tail_rotate_tpcs, y.tail_rotate_tpcs);
    remove(path);
    free(path);
    cli_free(&a);
    cli_free(&b);
}
END_TEST

/* ---------------------------------------------------------------- run */

/* `run` creates its output directory and leaves exactly summary.json and
 * ctas.csv in it, no temporaries. */
START_TEST(test_run_output_dir)
{
    char *dir = subst("@/new");
    ck_assert(!tu_exists(dir));
    cli_result res;
    run_cli("run -c " TU_H200 " -t " MIXED " -o @/new", &res);
    ck_assert_msg(res.status == 0, "%s", res.err);
    ck_assert_str_eq(res.err, "");
    ck_assert_ptr_nonnull(strstr(res.out, "gather"));
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int summary = 0, ctas = 0, epochs = 0;
    char other[256] = "";
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (!strcmp(de->d_name, "summary.json"))
            summary++;
        else if (!strcmp(de->d_name, "ctas.csv"))
            ctas++;
        else if (!strcmp(de->d_name, "epochs.csv"))
            epochs++;
        else
            snprintf(other, sizeof other, "%s", de->d_name);
    }
    closedir(d);
    ck_assert_msg(!other[0], "run left %s in its output directory", other);
    ck_assert_int_eq(summary, 1);
    ck_assert_int_eq(ctas, 1);
    ck_assert_int_eq(epochs, 1);
    char *csv_path = tu_strf("%s/ctas.csv", dir);
    char *csv = tu_slurp(csv_path, NULL);
    ck_assert_int_eq(strncmp(csv, "kernel,cta,sm,start_ns,end_ns,cycles\n", 37), 0);
    int lines = 0;
    for (const char *p = csv; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 1 + 300 + 40);
    free(csv);
    free(csv_path);
    cli_free(&res);
    free(dir);
}
END_TEST

/* The same command twice: byte-identical output files. */
START_TEST(test_run_deterministic)
{
    static const char *const files[] = {"@/out/summary.json", "@/out/ctas.csv"};
    char *first[2];
    cli_result a, b;
    run_cli("run -c " TU_H200 " -t " MIXED " -o @/out --seed 7", &a);
    ck_assert_msg(a.status == 0, "%s", a.err);
    for (int i = 0; i < 2; i++) {
        char *p = subst(files[i]);
        first[i] = tu_slurp(p, NULL);
        free(p);
    }
    run_cli("run -c " TU_H200 " -t " MIXED " -o @/out --seed 7", &b);
    ck_assert_msg(b.status == 0, "%s", b.err);
    for (int i = 0; i < 2; i++) {
        char *p = subst(files[i]);
        char *again = tu_slurp(p, NULL);
        ck_assert_msg(strcmp(first[i], again) == 0, "%s differs between two identical runs", files[i]);
        free(again);
        free(p);
    }
    ck_assert_str_eq(a.out, b.out);
    ck_assert_double_eq_tol(tu_json_num(first[0], "seed", 0), 7, 1e-9);
    free(first[0]);
    free(first[1]);
    cli_free(&a);
    cli_free(&b);
}
END_TEST

/* validate --measured on a tiny capture directory (tests/data/capture):
 * rows tagged from the fitted list, a kernel without a generator counted as
 * skipped, idle gaps grouped at the nominal gaps, and the threshold able to
 * fail (exit 5) as well as to pass. */
START_TEST(test_validate_measured)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " --measured " TEST_DATA "/capture --fitted " TEST_DATA
            "/capture/fitted.csv --max-mape 1000", &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "gap_ms=0.1 "));
    ck_assert_ptr_nonnull(strstr(r.out, "predicted\n"));
    char *gap10 = strstr(r.out, "gap_ms=10 ");
    ck_assert_ptr_nonnull(gap10);
    ck_assert_ptr_nonnull(strstr(gap10, "fitted\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "t.nogen: no generator"));
    ck_assert_ptr_nonnull(strstr(r.out, "PASS  e_gap"));
    cli_free(&r);
    run_cli("validate -c " TU_H200 " --measured " TEST_DATA "/capture --fitted " TEST_DATA
            "/capture/fitted.csv --max-mape 5", &r);
    ck_assert_int_eq(r.status, 5);
    ck_assert_ptr_nonnull(strstr(r.out, "FAIL  e_test        time_us"));
    cli_free(&r);
    run_cli("validate -c " TU_H200 " --measured @/nowhere", &r);
    ck_assert_int_eq(r.status, 3);
    cli_free(&r);
}
END_TEST

/* E12's chains past the 20 kernels validate simulates: the 20, then the
 * last kernel's step for each one more, so the chain's one-time costs (the
 * event after the gate) thin out with its length (tests/data/capture_chain:
 * gated chains of the empty kernel, 20, 40 and 400 long).  Dividing the
 * 20 by 20 whatever the length gave all three the same figure. */
START_TEST(test_validate_chain_extrapolated)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " --measured " TEST_DATA "/capture_chain", &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    double p[3];
    static const char *const rows[] = {"c.n20 per launch", "c.n40 per launch", "c.n400 per launch"};
    for (int i = 0; i < 3; i++) {
        const char *at = strstr(r.out, rows[i]);
        ck_assert_msg(at != NULL, "%s missing: %s", rows[i], r.out);
        double meas = 0;
        ck_assert_int_eq(sscanf(at + strlen(rows[i]), " time_us %lf %lf", &meas, &p[i]), 2);
    }
    ck_assert_msg(p[1] < p[0] && p[2] < p[1], "%.2f %.2f %.2f", p[0], p[1], p[2]);
    /* the step from the first two, and the 400 from it (2-decimal rows) */
    double step = (40 * p[1] - 20 * p[0]) / 20;
    ck_assert_msg(fabs((20 * p[0] + 380 * step) / 400 - p[2]) < 0.02, "%.2f %.2f %.2f", p[0], p[1], p[2]);
    cli_free(&r);
}
END_TEST

/* The data term's fit (E32): sgemm_zeros and sgemm_fp32 are paired by
 * board and run (the made-up capture has two pairs, 90 W apart each, and
 * an unpaired second run on board b), the step is the tagged row, the
 * mixes' own rows are predictions shown with their board and run. */
START_TEST(test_validate_e32)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml --measured " TEST_DATA "/capture_e32 --fitted " TEST_DATA
            "/capture_e32/fitted.csv", &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "sgemm_fp32 90.0 W over sgemm_zeros at 1980 MHz, 2 pair(s)"), "%s", r.out);
    const char *step = strstr(r.out, "sgemm_fp32 - sgemm_zeros (held)");
    ck_assert_ptr_nonnull(step);
    double meas_step = 0, sim_step = 0;
    ck_assert_int_eq(sscanf(step + strlen("sgemm_fp32 - sgemm_zeros (held)"), " power_w %lf %lf", &meas_step, &sim_step),
                     2);
    ck_assert_double_eq_tol(meas_step, 90.0, 1e-9);
    ck_assert_int_eq(strncmp(strchr(step, '\n') - 6, "fitted", 6), 0);
    const char *b2 = strstr(r.out, "sgemm_fp32 [b2]");
    ck_assert_ptr_nonnull(b2);
    ck_assert_int_eq(strncmp(strchr(b2, '\n') - 9, "predicted", 9), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "sgemm_zeros [a1]"));
    ck_assert_ptr_null(strstr(r.out, "sgemm_zeros [b2]"));
    /* the fit moves the constant to where the model's step is 90 W: with
     * it the step's model column reads 90 within a watt */
    const char *fj = strstr(r.out, "power.fp32_random_fj ");
    ck_assert_ptr_nonnull(fj);
    int fit = 0, have = 0;
    ck_assert_int_eq(sscanf(fj, "power.fp32_random_fj %d (config %d)", &fit, &have), 2);
    ck_assert_msg(fit > 0 && fit < have, "fit %d, config %d", fit, have);
    /* and with the fitted constant the model's step is the measured one */
    cli_result r2;
    char *cmd = tu_strf("validate -c configs/h100.yaml --measured " TEST_DATA "/capture_e32 --only e32_power "
                        "--set power.fp32_random_fj=%d", fit);
    run_cli(cmd, &r2);
    free(cmd);
    ck_assert_msg(r2.status == 0, "status %d: %s", r2.status, r2.err);
    const char *step2 = strstr(r2.out, "sgemm_fp32 - sgemm_zeros (held)");
    ck_assert_msg(step2 != NULL, "%s", r2.out);
    ck_assert_int_eq(sscanf(step2 + strlen("sgemm_fp32 - sgemm_zeros (held)"), " power_w %lf %lf", &meas_step,
                            &sim_step), 2);
    ck_assert_double_eq_tol(sim_step, 90.0, 1.0);
    cli_free(&r2);
    /* E32's shared-memory pair has no generator: its step is measured only,
     * printed from the two windows (440 - 430 W at 3e13 B/s) */
    /* board b's smem_zero (420 W) comes first and has no smem_rand of its
     * own: paired across boards it would take board a's (a 20 W step) */
    ck_assert_msg(strstr(r.out, "smem_rand - smem_zero (measured; no generator): 10.0 W at 3e+13 B/s, 0.33 pJ a "
                                "byte, 1 pair(s)"), "%s", r.out);
    /* a mix's work rate, a prediction: gen fma's FFMAs x 64 flop at its
     * clock beside power_mix.csv's rate_per_s, where the work unit is the
     * FFMAs' (board b's row is in bytes); none for E28's mixes, whose loops
     * gen fma only stands for */
    const char *rate = strstr(r.out, "fp32_1cta [a1]                               rate_T/s");
    ck_assert_msg(rate != NULL, "%s", r.out);
    double meas = 0, simv = 0;
    ck_assert_int_eq(sscanf(rate + 44 + 1 + 9 + 1, "%lf %lf", &meas, &simv), 2);   /* shown, metric */
    ck_assert_double_eq_tol(meas, 52.0, 1e-9);
    ck_assert_msg(simv > 46 && simv < 58, "fp32_1cta: %.2f T flop/s simulated", simv);
    ck_assert_int_eq(strncmp(strchr(rate, '\n') - 9, "predicted", 9), 0);
    ck_assert_ptr_nonnull(strstr(r.out, "fp32_1cta [b1]                               power_w"));
    ck_assert_ptr_null(strstr(r.out, "fp32_1cta [b1]                               rate_T/s"));
    ck_assert_ptr_null(strstr(r.out, "reg_sparse [a1]                              rate_T/s"));
    cli_free(&r);
}
END_TEST

/* gen_added.csv gives a kernel captured without a generator one (E15's
 * case): the kernel is then simulated and judged, not skipped; a row for a
 * kernel the capture lacks, for one that has a generator already or was
 * named before, an empty or unusable generator, is a file:line error. */
START_TEST(test_validate_gen_added)
{
    char *cmd = tu_strf("mkdir -p '%s/out' && cp " TEST_DATA "/capture/kernels.csv " TEST_DATA "/capture/reps.csv "
                        TEST_DATA "/capture/ctas.csv '%s/out/'", tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    static const struct { const char *rows, *err; } cases[] = {
        {"t.nogen,skewsim gen fma --iters 16 --block 32 --grid 1 --work-mul 1 --work-mod 2\n", NULL},
        {"t.nogen,skewsim gen fma --iters 16 --block 32 --grid 1\nt.none,skewsim gen fma\n",
         "skewsim: @/out/gen_added.csv:3: kernel t.none: not in kernels.csv\n"},
        {"t.single,skewsim gen fma\n",
         "skewsim: @/out/gen_added.csv:2: kernel t.single: expected an empty gen in kernels.csv, "
         "which has 'skewsim gen fma --iters 64 --block 256 --grid 132'\n"},
        {"t.nogen,skewsim gen empty\nt.nogen,skewsim gen empty\n",
         "skewsim: @/out/gen_added.csv:3: kernel t.nogen: named twice: expected one row per kernel\n"},
        {"t.nogen,\n", "skewsim: @/out/gen_added.csv:2: kernel t.nogen: empty gen: expected 'skewsim gen NAME ...'\n"},
        {"t.nogen,skewsim gen bogus\n",
         "skewsim: @/out/gen_added.csv:2: kernel t.nogen: 'skewsim gen bogus': no generator 'bogus'\n"},
        {"t.nogen,skewsim gen fma --work-mod 99999999\n",
         "skewsim: @/out/gen_added.csv:2: kernel t.nogen: gen fma: work-mod 99999999: expected 0..65536\n"},
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(cases); i++) {
        char *path = tu_strf("%s/out/gen_added.csv", tmpdir);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fprintf(f, "kernel,gen\n%s", cases[i].rows);
        ck_assert_int_eq(fclose(f), 0);
        free(path);
        cli_result r;
        run_cli("validate -c " TU_H200 " --measured @/out --only e_test", &r);
        if (!cases[i].err) {
            ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
            ck_assert_ptr_null(strstr(r.out, "no generator"));
            ck_assert_ptr_nonnull(strstr(r.out, "  e_test        t.nogen "));
        } else {
            char *want = subst(cases[i].err);
            ck_assert_int_eq(r.status, 3);
            ck_assert_str_eq(r.err, want);
            free(want);
        }
        cli_free(&r);
    }
}
END_TEST

/* validate's E18b rows (validate_e11.c) on a capture directory holding
 * only the all-far 24 MiB case (tests/data/e18b): every SM reads the other
 * half's 24 MiB list, 10 passes, and the chip reads it fabric-bound at
 * 2416 GB/s.  The bw_kernel's chunk queue is the CTA dispatcher's (one CTA
 * per 64 KiB chunk, started in list order as slots free), so the lists
 * stay fabric-bound in the model too; the static split that stood in for
 * the queue (132 CTAs, CTA c taking chunks c, c + 132, ...) drifted into
 * an order in which LRU kept the replicas: 5571 GB/s, FAIL. */
START_TEST(test_validate_e18b_queue)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " -d " TEST_DATA "/e18b --only e11", &r);
    ck_assert_msg(r.status == 0, "status %d: %s%s", r.status, r.out, r.err);
    const char *row = strstr(r.out, "all_far_l2_24MiB");
    ck_assert_ptr_nonnull(row);
    double meas = 0, simv = 0;
    ck_assert_int_eq(sscanf(row, "all_far_l2_24MiB %lf %lf", &meas, &simv), 2);
    ck_assert_msg(simv < 1.15 * meas, "all_far_l2_24MiB: %.1f GB/s against the chip's %.1f", simv, meas);
    cli_free(&r);
    /* without fabric.csv: an error naming it, or, where capture/PARTIAL
     * says the directory lacks captures by design, a line saying E18 was
     * not judged, and E18b's row still judged */
    char *cmd = tu_strf("rm -rf %s/e18p && mkdir -p %s/e18p && cp -r " TEST_DATA "/e18b/capture %s/e18p/ && "
                        "rm %s/e18p/capture/fabric.csv", tmpdir, tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *args = tu_strf("validate -c " TU_H200 " -d %s/e18p --only e11", tmpdir);
    run_cli(args, &r);
    ck_assert_msg(r.status != 0 && strstr(r.err, "e18p/capture/fabric.csv: cannot open (a directory that lacks it by "
                                                 "design says so in "),
                  "status %d: %s", r.status, r.err);
    cli_free(&r);
    cmd = tu_strf("touch %s/e18p/capture/PARTIAL", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    run_cli(args, &r);
    ck_assert_msg(r.status == 0 && strstr(r.out, "E18 not judged: ") && strstr(r.out, "e18p/capture/fabric.csv absent") &&
                      strstr(r.out, "all_far_l2_24MiB"),
                  "status %d: %s%s", r.status, r.out, r.err);
    cli_free(&r);
    free(args);
}
END_TEST

/* validate's E20 rows (validate_e20.c) on a capture directory holding the
 * base row and one 32 MiB row (tests/data/e20seeds): the model's figure of
 * a row is its mean over sim.seed 1-4, each seed drawing the lines' L2
 * routes anew.  The same chase, written by gen and run once per seed, must
 * give that mean (to the printed 0.1 cycle), and the seeds column must
 * show that the draws differ (one seed alone would print 0.0). */
START_TEST(test_validate_e20_seeds)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " -d " TEST_DATA "/e20seeds --only e20", &r);
    ck_assert_msg(r.status == 0, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "model: the mean over sim.seed 1-4"));
    const char *row = strstr(r.out, "32 MiB x 64 (2 GiB)");
    ck_assert_msg(row != NULL, "%s", r.out);
    double chip, model, chip_x, model_x, diff, seeds;
    ck_assert_int_eq(sscanf(row + strlen("32 MiB x 64 (2 GiB)"), "%lf %lf %lf %lf %lf %lf", &chip, &model, &chip_x,
                            &model_x, &diff, &seeds), 6);
    ck_assert_msg(seeds > 0.5, "seeds %.1f: the draws did not differ", seeds);
    cli_free(&r);
    run_cli("gen chase --bytes 2147483648 --hops 4096 --ctas 1 --warm 4096 --cg 1 --stride 33554432 --order spread "
            "-o @/e20.trace && sed -i 's/^kernel chase_kernel grid=1 /&sms=sm:124 /' @/e20.trace",
            &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    cli_free(&r);
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (int s = 1; s <= 4; s++) {
        char *args = tu_strf("run -c " TU_H200 " -t @/e20.trace -o @/e20s%d --seed %d --set memory.model=hierarchy", s,
                             s);
        run_cli(args, &r);
        ck_assert_msg(r.status == 0, "seed %d: status %d: %s", s, r.status, r.err);
        cli_free(&r);
        free(args);
        char *p = tu_strf("%s/e20s%d/ctas.csv", tmpdir, s), *csv = tu_slurp(p, NULL);
        const char *last = strrchr(csv, ',');
        ck_assert_ptr_nonnull(last);
        double cyc = atof(last + 1) / 4096, cpu_sm = 0;
        ck_assert_int_eq(sscanf(strchr(csv, '\n') + 1, "0,0,%lf,", &cpu_sm), 1);
        ck_assert_msg(cpu_sm == 124, "seed %d: the chase ran on SM %.0f, not 124", s, cpu_sm);
        sum += cyc;
        lo = SK_MIN(lo, cyc);
        hi = SK_MAX(hi, cyc);
        free(csv);
        free(p);
    }
    ck_assert_msg(fabs(sum / 4 - model) <= 0.051, "validate's model %.1f, the seeds' mean %.3f", model, sum / 4);
    ck_assert_msg(hi - lo > 0.5, "the four seeds gave %.2f-%.2f cycles: the routes did not move", lo, hi);
}
END_TEST

/* validate's E22b rows (validate_e11.c) on a capture directory holding
 * only the one-CTA adds of 3 x 16 MiB at 1024 threads (tests/data/e22b):
 * both rows, predicted and judged, and the float4 add moves more than
 * three times the fp32 one's bytes a second, as on the chip (102.5
 * against 31.9 GB/s): the section runs gen rw with each row's element
 * size (run with one size for both, the two rows come out alike). */
START_TEST(test_validate_e22b)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " -d " TEST_DATA "/e22b --only e11", &r);
    ck_assert_msg(strstr(r.out, "E22b one CTA") != NULL, "status %d: %s%s", r.status, r.out, r.err);
    double v[2];
    static const char *const rows[] = {"add1 3x16 MiB 1x1024", "add 3x16 MiB 1x1024"};
    for (int i = 0; i < 2; i++) {
        const char *row = strstr(r.out, rows[i]);
        ck_assert_msg(row != NULL, "no row %s:\n%s", rows[i], r.out);
        double chip;
        ck_assert_int_eq(sscanf(row + strlen(rows[i]), "%lf %lf", &chip, &v[i]), 2);
        ck_assert(isfinite(v[i]) && v[i] > 0);
        const char *eol = strchr(row, '\n');
        ck_assert_msg(eol && eol - row > 9 && strncmp(eol - 9, "predicted", 9) == 0, "row %s not predicted", rows[i]);
    }
    ck_assert_msg(v[1] > 3.0 * v[0], "float4 add %.1f GB/s, fp32 add %.1f", v[1], v[0]);
    cli_free(&r);
}
END_TEST

/* The simulated figure of validate row `name` in out (NAN if absent), and
 * whether the row ends with `tag`. */
static double row_sim(const char *out, const char *name, const char *tag)
{
    const char *row = strstr(out, name);
    double chip, v;
    if (!row || sscanf(row + strlen(name), "%lf %lf", &chip, &v) != 2)
        return NAN;
    const char *eol = strchr(row, '\n');
    size_t n = strlen(tag);
    if (!eol || (size_t)(eol - row) < n || strncmp(eol - n, tag, n) != 0)
        return NAN;
    return v;
}

/* validate's E30 section on validation/h100/lds (cap_lds on an H100), on
 * one SM (the loops' cycles are the SM's own: the same on 132, as
 * `--only e30` without the topology shows, in a second instead of 40).
 * smem_kernel's loop: 1 and 2 warps a sub-partition predicted and within
 * 10 % of the chip, 4 and 8 fitted (units.ldst.queue) and within 15 %.
 * The rate loops of gen lds, predicted: LDS.32 from all four
 * sub-partitions at one wavefront a cycle for the SM, LDS.128 at a quarter,
 * LDS.32 with a 2-way conflict from one sub-partition at a half, STS.32 one
 * in 4 cycles a sub-partition, each within 2 %; LDS.32 from one
 * sub-partition (2 cycles each) within 10 %.  Without the SM's array
 * (memory.smem_wavefront_cycles 0) the all-four LDS.32 loop runs in well
 * under 60 % of the chip's cycles and LDS.128 under 40 %; with LDS holding
 * the pipe the unit's 4 cycles (memory.smem_load_ii_cycles 0) the
 * one-sub-partition LDS.32 loop takes over 1.6 times the chip's.  One
 * warp's LDS.128 (fitted: memory.smem_warp_wf_cycles) within 10 %,
 * and one warp's LDS.32 with a 2-way conflict (predicted by it) within 5 %;
 * with no per-warp limit that LDS.128 loop runs in under 70 % of the chip's
 * cycles.  Rows the model misses (GTO's convoys; validation/h100 README,
 * E30) fail, and validate's status says so. */
#define E30_ONE_SM                                                                  \
    " --set topology.gpcs=1 --set topology.tpcs_per_gpc=1 --set topology.sms_per_tpc=1" \
    " --set topology.tail_gpcs=0 --set topology.numbering=gpc_major"
static double e30_ratio(const char *out, const char *row, const char *tag)
{
    double v = row_sim(out, row, tag), chip;
    const char *p = strstr(out, row);
    ck_assert_msg(isfinite(v) && v > 0 && p && sscanf(p + strlen(row), "%lf", &chip) == 1 && chip > 0,
                  "row %s (%s):\n%s", row, tag, out);
    return v / chip;
}
START_TEST(test_validate_e30)
{
    static const struct {
        const char *row, *tag;
        double tol;
    } rows[] = {
        {"smemk 1 warp/SMSP", "predicted", 0.10},      {"smemk 2 warps/SMSP", "predicted", 0.10},
        {"smemk 4 warps/SMSP", "fitted", 0.15},        {"smemk 8 warps/SMSP", "fitted", 0.15},
        {"lds32 mask f 8 warps/SMSP", "predicted", 0.02}, {"lds128 mask f 8 warps/SMSP", "predicted", 0.02},
        {"lds32c2 mask 1 8 warps/SMSP", "predicted", 0.10}, {"sts32 mask 1 8 warps/SMSP", "predicted", 0.02},
        {"lds32 mask 1 8 warps/SMSP", "predicted", 0.10},
        {"lds128 mask 1 1 warp/SMSP", "fitted", 0.10}, {"lds128 mask 3 1 warp/SMSP", "fitted", 0.10},
        {"lds32c2 mask 1 1 warp/SMSP", "predicted", 0.05},
    };
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d validation/h100 --only e30" E30_ONE_SM, &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    for (size_t i = 0; i < SK_ARRAY_LEN(rows); i++) {
        double q = e30_ratio(r.out, rows[i].row, rows[i].tag);
        ck_assert_msg(fabs(q - 1) <= rows[i].tol, "%s: %.3f of the chip's cycles", rows[i].row, q);
    }
    cli_free(&r);
    run_cli("validate -c configs/h100.yaml -d validation/h100 --only e30 --set memory.smem_wavefront_cycles=0"
            E30_ONE_SM, &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    double lds32 = e30_ratio(r.out, "lds32 mask f 8 warps/SMSP", "predicted");
    double lds128 = e30_ratio(r.out, "lds128 mask f 8 warps/SMSP", "predicted");
    ck_assert_msg(lds32 < 0.6 && lds128 < 0.4, "no array: LDS.32 %.3f, LDS.128 %.3f of the chip's cycles", lds32,
                  lds128);
    cli_free(&r);
    run_cli("validate -c configs/h100.yaml -d validation/h100 --only e30 --set memory.smem_load_ii_cycles=0"
            E30_ONE_SM, &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    double one = e30_ratio(r.out, "lds32 mask 1 8 warps/SMSP", "predicted");
    ck_assert_msg(one > 1.6, "LDS at the unit's ii: %.3f of the chip's cycles", one);
    cli_free(&r);
    run_cli("validate -c configs/h100.yaml -d validation/h100 --only e30 --set memory.smem_warp_wf_cycles=0"
            E30_ONE_SM, &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    double w1 = e30_ratio(r.out, "lds128 mask 1 1 warp/SMSP", "fitted");
    ck_assert_msg(w1 < 0.7, "no per-warp limit: one warp's LDS.128 at %.3f of the chip's cycles", w1);
    cli_free(&r);
}
END_TEST

/* validate's E31 section on validation/h100/worder (cap_worder on an
 * H100), on one SM (each SM runs its own CTAs: the rows are the same on
 * 132): under GTO, the shipped policy, warp 0 of a CTA whose 32 warps ask
 * for 4 times what their sub-partitions issue ends at under 40 % of the
 * chip's cycles (it keeps the port while its CTA's other warps wait, where
 * the chip shares it), and the status says rows failed; under cta_rr
 * (oldest CTA first, round-robin within it) that row, and two CTAs' first
 * and second, come within 10 %. */
START_TEST(test_validate_e31)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d validation/h100 --only e31" E30_ONE_SM, &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    double q = e30_ratio(r.out, "ch 2, 1024 threads x 1: CTA 0", "predicted");
    ck_assert_msg(q < 0.4, "gto: warp 0 at %.3f of the chip's cycles", q);
    cli_free(&r);
    run_cli("validate -c configs/h100.yaml -d validation/h100 --only e31 --set sm.warp_policy=cta_rr" E30_ONE_SM, &r);
    static const char *const rows[] = {"ch 2, 1024 threads x 1: CTA 0", "ch 2, 512 threads x 2: CTA 0",
                                       "ch 2, 512 threads x 2: CTA 1"};
    for (size_t i = 0; i < SK_ARRAY_LEN(rows); i++) {
        q = e30_ratio(r.out, rows[i], "predicted");
        ck_assert_msg(fabs(q - 1) <= 0.10, "cta_rr: %s at %.3f of the chip's cycles", rows[i], q);
    }
    cli_free(&r);
}
END_TEST

/* validate's l2map section on a made-up l2map (tests/data/l2mapone,
 * pages.csv as E11's): each SM's second reads are 300 cycles, +-6 by the
 * SM's parity (+-3 past SM 65), plus a route ((7p + 13g + 5k) mod 9 - 4) x
 * 4 of its GPC g and chunk k = (SM mod 32) / 2 on page p, rounded; a `warm`
 * row the section leaves out).  The figures a separate computation (in
 * Python) of the same decomposition gave: route s.d. 9.24, the SMs' means 4.76 s.d., r
 * 0.88 over the 80 pairs of one GPC and chunk, -0.18 over 880 of one GPC,
 * -0.24 over 164 pairs of one chunk in two GPCs of one row (the rows of
 * h200.yaml's floorplan) and -0.35 over 172 of two rows, where the model
 * gives +0.85 and -0.83 (memory.l2.route_row_pct), SMs 124-131 counted in
 * GPC 0 (their host, topology.tail_host_gpc: the capture's g for them is
 * 8, so their pairs with GPC 0 agree less).  Those means follow no TPC
 * chain: their fit is about 0 (0.01 a TPC, chains -0.02 and 0.02), and the
 * model's means (h200.yaml's chains) do not correlate with them, so that
 * row fails while their s.d.s are within 25 %.  The same capture again as a
 * further chip's (l2map_b.csv.gz beside pages_b.csv) judges the route s.d.
 * too, which the width (fitted on E11's 17.95) misses by +96 %.  l2map_c
 * (beside pages_c.csv) is made of chains: 300 cycles + 4 a TPC passed +
 * chain 1's 2 or chain 2's 10 (topo_sm's hops and cpc on h200.yaml, worked
 * in Python), +-3 by the parity of SM + page: the fit gives 4.00, 2.00 and
 * 10.00 back, the means 4.72 s.d., and the model's chains correlate
 * (r >= 0.8, passing); its route s.d. (3.00) fails.  Four failures, and the
 * status says so.  That is with tests/data/l2mapone/fitted.csv, which names
 * l2map.csv.gz as configs/h200.fitted.csv names E11's; without it the first
 * capture's width is judged too (a fifth failure). */
START_TEST(test_validate_l2map)
{
    cli_result r;
    /* with no table naming this capture its width is a prediction, judged */
    run_cli("validate -c configs/h200.yaml -d tests/data/l2mapone --only l2map", &r);
    ck_assert_msg(strstr(r.out, "\nFAIL   route s.d., per SM and line             9.24     18.09 cyc    +95.8 %  "
                                "predicted") && strstr(r.out, "FAILED: 5 criterion(s) failed"),
                  "%s", r.out);
    cli_free(&r);
    /* a table naming the capture (by its absolute path) with one key: the
     * rows that key sets say fitted, the others predicted */
    char real[4096];
    ck_assert_ptr_nonnull(realpath("tests/data/l2mapone/capture/l2map.csv.gz", real));
    char *cmd = tu_strf("printf 'kernel,detail,keys\\n%s,,memory.l2.route_row_pct\\n' > %s/one.csv", real, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *args = tu_strf("validate -c configs/h200.yaml -d tests/data/l2mapone --only l2map --fitted %s/one.csv",
                         tmpdir);
    run_cli(args, &r);
    free(args);
    const char *first = strstr(r.out, "route s.d., per SM and line");      /* l2map.csv.gz's, before _b's */
    ck_assert_msg(first && first - r.out >= 7 && !strncmp(first - 7, "FAIL   route s.d., per SM and line      "
                                                           "       9.24     18.09 cyc    +95.8 %  predicted", 79) &&
                      strstr(r.out, "FAILED: 5 criterion(s) failed") &&
                      strstr(r.out, "0.002       >= 0.80  predicted (TPC chains, floorplan)") &&
                      strstr(r.out, "\ninfo   rows' share of the routes               0.06      0.84        fitted"),
                  "%.3000s", r.out);
    cli_free(&r);
    run_cli("validate -c configs/h200.yaml -d tests/data/l2mapone --only l2map --fitted "
            "tests/data/l2mapone/fitted.csv", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "info   route s.d., per SM and line             9.24     18.09        fitted"), "%s",
                  r.out);
    ck_assert_msg(strstr(r.out, "PASS   the SMs' means, s.d.                    4.76"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   the SMs' means, r chip vs model                  0.0"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   means fit: cycles per TPC passed        0.01"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   means fit: chain 1 over chain 0        -0.02"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   means fit: chain 2 over chain 0         0.02"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   means fit: cycles per TPC passed        4.00"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   means fit: chain 1 over chain 0         2.00"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   means fit: chain 2 over chain 0        10.00"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "PASS   the SMs' means, s.d.                    4.72"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "PASS   the SMs' means, r chip vs model                  0.9"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   route s.d., per SM and line             3.00"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   r, one chunk, one GPC (80 pairs)        0.88      1.00"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   r, other chunks, one GPC (880)         -0.18"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   r, one chunk, 2 GPCs, one row (164)     -0.24      0.85"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   r, one chunk, 2 GPCs, 2 rows (172)     -0.35     -0.83"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   rows' share of the routes               0.06      0.84"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "E11 l2map_b: "), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   route s.d., per SM and line             9.24     18.09 cyc    +95.8 %  "
                                "predicted"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAILED: 4 criterion(s) failed"), "%s", r.out);
    cli_free(&r);
}
END_TEST

/* The shipped fitted tables' capture rows (configs/NAME.fitted.csv, a
 * path with a '/' in the kernel column, relative to configs/) each name a
 * capture file that is there: a misspelt one would mark nothing fitted and
 * leave a fitted row judged as a prediction, silently. */
START_TEST(test_fitted_tables_name_captures)
{
    static const char *const tables[] = {"configs/h200.fitted.csv", "configs/h100.fitted.csv"};
    int ncap = 0;
    for (size_t i = 0; i < SK_ARRAY_LEN(tables); i++) {
        FILE *f = fopen(tables[i], "r");
        ck_assert_ptr_nonnull(f);
        char line[4096];
        while (fgets(line, sizeof line, f)) {
            char *comma = strchr(line, ',');
            ck_assert_ptr_nonnull(comma);
            *comma = '\0';
            if (!strchr(line, '/'))
                continue;
            char *path = tu_strf("configs/%s", line);
            ck_assert_msg(tu_exists(path), "%s: %s: no such capture", tables[i], line);
            free(path);
            ncap++;
        }
        fclose(f);
    }
    ck_assert_int_eq(ncap, 6);
}
END_TEST

/* validate's E35 section on a hand-made l1cap file (tests/data/e35one): one
 * cell, three launches over hashed words at 1000, 3000 and 2000 GB/s and
 * one over zeros at 99999, which the section leaves out: the chip's figure
 * is the hashed launches' median, 2000.0 (2500.0 with the zeros row), and
 * a 4-pass stream of 8.25 MiB at one CTA an SM is not 2000 GB/s in the
 * model (its launch alone is microseconds), so the row fails and the
 * status says so. */
START_TEST(test_validate_e35)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d tests/data/e35one --only e35", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "FAIL   stream.ca k1 64 KiB                   2000.0"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "predicted\n"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAILED: 1 criterion(s) failed"), "%s", r.out);
    cli_free(&r);
}
END_TEST

/* validate's E36 section on a hand-made ncu capture (tests/data/e36one:
 * one stream at 3 and 6 passes whose counts differ by 4,000,000 L1 sectors
 * of which 2,000,000 hit, and by 1,600,000 L2 sectors of which 400,000
 * hit locally and 400,000 in the far partition): the chip's steady rates
 * are the differences' (0.500 both; either launch alone gives another),
 * the model's L1 keeps the 8 MiB stream (1.000), so the L1 row fails by
 * +0.500 and the status says so; the L2 row, which the model's L1 leaves
 * no traffic for, is information. */
START_TEST(test_validate_e36)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d tests/data/e36one --only e36", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "FAIL   L1 ca k1 64 KiB                        0.500     1.000 hit   +0.500    "
                                "predicted"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   L2 ca k1 64 KiB                        0.500         - hit"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAILED: 1 criterion(s) failed"), "%s", r.out);
    cli_free(&r);
}
END_TEST

/* validate's E43 rows beside E35's (tests/data/e43one: l1cap/ as e35one,
 * l1spread/ with one launch of the .cg stream at 64 KiB an SM in which
 * CTAs 0-9 take 2000 cycles and the other 122 take 1000): the chip's 10th
 * and 90th percentiles over the median are 1.000 and its largest 2.000,
 * with ten CTAs past 1.2 times the median; the model's .cg stream gives
 * every CTA about the same time, so the percentiles pass, the largest
 * fails by about -1, and the slow sets share nothing (Jaccard 0). */
START_TEST(test_validate_e43)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d tests/data/e43one --only e35", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "PASS   cg 64 KiB p10                          1.000"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "PASS   cg 64 KiB p90                          1.000"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   cg 64 KiB max                          2.000"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   cg 64 KiB slow CTAs                       10         0 CTAs  0 on both, "
                                "Jaccard 0.000"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAILED: 3 criterion(s) failed"), "%s", r.out);
    cli_free(&r);
}
END_TEST

/* validate's E42 rows beside E36's (tests/data/e42one: ncu/ as e36one,
 * smemcfg/ with two launches of a 12-register kernel without shared
 * memory, 256 threads read at 32 KB and 768 threads at 16 KB, and a
 * launch the capture skipped): the model's driver rule (configs/h200.yaml,
 * 6656 threads) gives 32 KB and 8 KB, so one agrees; the rows are fitted
 * and fail nothing (the one failure is e36one's L1 row). */
START_TEST(test_validate_e42)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d tests/data/e42one --only e36", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "info   256 threads 12 regs 0 B shared            32        32 KB    same    fitted"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "info   768 threads 12 regs 0 B shared            16         8 KB    differs    "
                                "fitted"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "1 of 2 launches the same configuration"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAILED: 1 criterion(s) failed"), "%s", r.out);
    cli_free(&r);
}
END_TEST

/* validate's E40 walks beside E36's capture (tests/data/e40one: ncu/ as
 * e36one, ncu/spectrum/ with two walks of 48 pieces of 4 KiB, 260 and
 * 256 KiB apart, whose L1 counts differ by 7680 sectors between their R
 * and 2R launches, none and 3840 of them hits): the chip's steady hits
 * are the differences' (0.000 and 0.500), and the model's L1 (E41's index)
 * keeps none of the first walk, where four of a group's ways take eight
 * pieces in turn, and all of the second, so one row passes and one fails. */
START_TEST(test_validate_e40)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d tests/data/e40one --only e36", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "PASS   spectrum N 1536 P 4096 D 260 KiB       0.000     0.000 hit   +0.000    "
                                "predicted"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   spectrum N 1536 P 4096 D 256 KiB       0.500     1.000 hit   +0.500    "
                                "predicted"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAILED: 2 criterion(s) failed"), "%s", r.out);
    cli_free(&r);
}
END_TEST

/* validate's E36 section with E37's capture beside E36's (tests/data/
 * e37one: ncu/ as e36one, ncu/warps/ with a one-CTA-an-SM stream of 512
 * threads whose L1 counts differ as e36one's, and one SM's .cg stream of
 * 32 MiB whose L2 lookups all missed in its own half over the three
 * steady passes and half of them hit in the other): both captures are
 * judged, the CTA's size read from k= for stream_b, the one SM's share
 * (0.500) is the differences', and its row is marked fitted (the replicate
 * mode was chosen on these rows).  The model's SM keeps its own lines and
 * replicas in its half (25 MiB of the H100's 50) and serves the far half
 * from the other: within the tolerance of 0.500. */
START_TEST(test_validate_e37)
{
    cli_result r;
    run_cli("validate -c configs/h100.yaml -d tests/data/e37one --only e36", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "FAIL   L1 ca k1 64 KiB                        0.500"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "\nE37 the same counts"), "%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   L1 ca 1 CTA x 512 64 KiB               0.500     1.000 hit   +0.500    "
                                "predicted"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "PASS   L2 cg 1 SM 32768 KiB                   0.500 "), "%s", r.out);
    double v = row_sim(r.out, "L2 cg 1 SM 32768 KiB", "fitted");
    ck_assert_msg(isfinite(v) && v > 0.4 && v < 0.6, "%g: %s", v, r.out);
    ck_assert_msg(strstr(r.out, "FAILED: 2 criterion(s) failed"), "%s", r.out);
    cli_free(&r);
}
END_TEST

/* validate's E24 section on a capture directory holding four of its
 * chases and one add (tests/data/e24): the near rows are fitted
 * (memory.l2.scatter_ppm, memory.hbm.row_idle_ps), the rest predicted; a
 * near list of 36 MiB, which misses every line past one half, is slower
 * than a mixed one whose far lines stay in the other half (part= reached
 * the kernel: without it both are the same chase), and within 10 % of the
 * chip's 601.5 cycles (sms=l2:0: run from partition 1's SMs the "near"
 * list is far, ~750); the far 24 MiB list hits its replicas at near
 * speed; the add's timed launch follows an untimed one, as cap_mem.cu
 * runs it, and reads most of its 3 x 12 MiB from the L2 that launch left
 * (~3160 GB/s; one cold launch, all from HBM: ~2490).  A histogram line outside its bounds, and a list row with no
 * reader, are errors naming file and line. */
/* Run shell command setup (it must succeed), then the CLI with args: it
 * must fail with want (and want2, unless NULL) in its stderr.  Frees setup
 * and args. */
static void cli_fails_with(char *setup, char *args, const char *want, const char *want2)
{
    cli_result r;
    ck_assert_int_eq(system(setup), 0);
    run_cli(args, &r);
    ck_assert_msg(r.status != 0 && strstr(r.err, want) && (!want2 || strstr(r.err, want2)), "status %d: %s",
                  r.status, r.err);
    cli_free(&r);
    free(setup);
    free(args);
}

START_TEST(test_validate_e24)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " -d " TEST_DATA "/e24 --only e24", &r);
    ck_assert_msg(r.status == 0 || r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    double near24 = row_sim(r.out, "chase near 24 MiB", "fitted"), near36 = row_sim(r.out, "chase near 36 MiB", "fitted");
    double far24 = row_sim(r.out, "chase far 24 MiB", "predicted"), mix36 = row_sim(r.out, "chase mixed 36 MiB", "predicted");
    double add = row_sim(r.out, "add.12MB", "predicted");
    ck_assert_msg(isfinite(near24) && isfinite(near36) && isfinite(far24) && isfinite(mix36) && isfinite(add),
                  "rows missing or mis-tagged:\n%s", r.out);
    ck_assert_msg(near36 > mix36 + 30, "near 36 MiB %.1f, mixed %.1f", near36, mix36);
    ck_assert_msg(fabs(near36 - 601.5) < 0.1 * 601.5, "near 36 MiB %.1f cycles", near36);
    ck_assert_msg(fabs(far24 - 295.8) < 0.1 * 295.8, "far 24 MiB %.1f cycles", far24);
    ck_assert_msg(add > 2800, "add 3 x 12 MiB %.1f GB/s: the timed launch met a cold L2", add);
    /* the add's CTA span (e24_reps.csv, four reps of the chip's: spans
     * 5376, 4896, 4832, 5376 ns, median 5136, mean 5120) beside its event
     * row, and what the events add to it, which the span leaves out */
    const char *sr = strstr(r.out, "add.12MB span");
    double span_chip = NAN, span_sim = NAN;
    ck_assert_msg(sr && sscanf(sr + strlen("add.12MB span"), "%lf %lf", &span_chip, &span_sim) == 2 &&
                      isfinite(row_sim(r.out, "add.12MB span", "predicted")),
                  "%s", r.out);
    ck_assert_msg(fabs(span_chip - 37748736.0 / 5136) < 0.1, "chip span %.1f GB/s", span_chip);
    ck_assert_msg(span_sim > add * 2, "span %.1f GB/s, event %.1f", span_sim, add);
    ck_assert_msg(strstr(r.out, "event time less span (median of 4 reps)"), "%s", r.out);
    cli_free(&r);

    char *d = tu_strf("%s/cap/capture", tmpdir);
#define E24_ARGS "validate -c " TU_H200 " -d %s/cap --only e24"
    cli_fails_with(tu_strf("mkdir -p %s && printf 'case,mib,pass,cycles_lo,count\\nnear,99,3,280,5\\n' | gzip > "
                           "%s/l2cap_hist.csv.gz && cp " TEST_DATA "/e24/capture/e24_bw.csv " TEST_DATA
                           "/e24/capture/fabric_fine.csv %s/",
                           d, d, d),
                   tu_strf(E24_ARGS, tmpdir),
                   "l2cap_hist.csv.gz:2: expected case,mib,pass,cycles_lo,count with mib 0..64", NULL);
    /* a list row that no partition reads (it once divided by zero) */
    cli_fails_with(tu_strf("printf 'case,mib,pass,cycles_lo,count\\nnear,24,3,280,5\\n' | gzip > %s/l2cap_hist.csv.gz && "
                           "cp " TEST_DATA "/e24/capture/e24_bw.csv " TEST_DATA "/e24/capture/e24_reps.csv %s/ && "
                           "printf 'case,readers_a,readers_b,bytes_per_pass,passes,time_ns_median,gbps\\n"
                           "all_far_l2_20MiB,-1,-1,41943040,10,100000,4194.3\\n' > %s/fabric_fine.csv",
                           d, d, d),
                   tu_strf(E24_ARGS, tmpdir), "fabric_fine.csv:2: 'all_far_l2_20MiB,-1,-1,",
                   "with readers -1, 0 or 1 (at least one reading)");
    /* a bandwidth row that does not parse (skipped in silence before) */
    cli_fails_with(tu_strf("printf 'kernel,bytes_ws,passes,bytes_moved,time_ns_median,gbps\\ne24.add.12MB,12582912,one,"
                           "37748736,12768,2956.5\\n' > %s/e24_bw.csv",
                           d),
                   tu_strf(E24_ARGS, tmpdir),
                   "e24_bw.csv:2: 'e24.add.12MB,12582912,one,37748736,12768,2956.5': expected kernel,bytes_ws,passes,"
                   "bytes_moved,time_ns_median,gbps with positive bytes, passes and GB/s",
                   NULL);
    /* a reps line that does not parse, and no reps file at all */
    cli_fails_with(tu_strf("cp " TEST_DATA "/e24/capture/e24_bw.csv %s/ && printf 'kernel,rep,time_ns,t_first_ns,"
                           "t_last_ns,gap_ns,host_ns\\ne24.add.12MB,0,13056,5376,0,0,0\\n' > %s/e24_reps.csv",
                           d, d),
                   tu_strf(E24_ARGS, tmpdir),
                   "e24_reps.csv:2: 'e24.add.12MB,0,13056,5376,0,0,0': expected kernel,rep,time_ns,t_first_ns,"
                   "t_last_ns,gap_ns,host_ns with a positive time (-1: none) and t_last_ns >= t_first_ns (-1: no CTA "
                   "times)",
                   NULL);
    cli_fails_with(tu_strf("rm %s/e24_reps.csv", d), tu_strf(E24_ARGS, tmpdir), "e24_reps.csv: cannot open (nor ",
                   "e24_reps.csv.gz; a directory that lacks it by design");
#undef E24_ARGS
    /* a directory with E24's bandwidths alone (validation/h100): the
     * others said, not judged; and configs/h100.yaml's L2 (50 MB against
     * 60) holds less of the add's 3 x 12 MiB and their copies than the
     * H200's does (the chip: 2616 GB/s against 2957) */
    char *args = tu_strf("validate -c configs/h100.yaml -d %s/cap --only e24", tmpdir);
    /* no capture/PARTIAL: the absent chases are an error */
    cli_fails_with(tu_strf("rm -rf %s/cap && mkdir -p %s && cp " TEST_DATA "/e24/capture/e24_bw.csv %s/", tmpdir, d, d),
                   tu_strf("%s", args), "l2cap_hist.csv.gz: cannot open (a directory that lacks it by design", NULL);
    char *cmd = tu_strf("touch %s/PARTIAL", d);
    ck_assert_int_eq(system(cmd), 0);
    run_cli(args, &r);
    ck_assert_msg(r.status == 0 || r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg(strstr(r.out, "E24 chase rows not judged: ") && strstr(r.out, "l2cap_hist.csv.gz absent") &&
                      strstr(r.out, "E24 E18b's lists in finer steps not judged: ") && !strstr(r.out, "chase near") &&
                      strstr(r.out, "add.12MB                           not judged: ") &&
                      strstr(r.out, "e24_reps.csv absent"),
                  "%s", r.out);
    double add_h100 = row_sim(r.out, "add.12MB", "predicted");
    ck_assert_msg(isfinite(add_h100) && add_h100 < add - 200, "h100 add 3 x 12 MiB %.1f GB/s, h200 %.1f", add_h100,
                  add);
    cli_free(&r);
    free(args);
    free(cmd);
    /* the finer lists (fabric_fine.csv) are simulated as E18b's: the
     * chip's one grid as one kernel per reading partition launched
     * together, so the host's launch gap does not reach them (with it, the
     * all-far 20 MiB row read 1892 GB/s instead of 2255) */
    cmd = tu_strf("rm -rf %s/fine && mkdir -p %s/fine/capture && touch %s/fine/capture/PARTIAL && printf '"
                  "case,readers_a,readers_b,bytes_per_pass,passes,time_ns_median,gbps\\nall_far_l2_20MiB,1,0,41943040,"
                  "10,145120,2890.2\\n' > %s/fine/capture/fabric_fine.csv", tmpdir, tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    double far20[2];
    for (int k = 0; k < 2; k++) {
        args = tu_strf("validate -c " TU_H200 " -d %s/fine --only e24%s", tmpdir,
                       k ? " --set launch.host_ns=20000" : "");
        run_cli(args, &r);
        far20[k] = row_sim(r.out, "all_far_l2_20MiB", "predicted");
        ck_assert_msg(isfinite(far20[k]), "%s\n%s%s", args, r.out, r.err);
        cli_free(&r);
        free(args);
    }
    ck_assert_msg(far20[0] == far20[1], "all-far 20 MiB %.1f GB/s, with a 20 us launch gap %.1f", far20[0], far20[1]);
    free(d);
}
END_TEST

/* E25's and E39's rows: each named row is printed with the chip's
 * fraction given (to the printed 3 decimals) and a model's beside it. */
typedef struct chip_row {
    const char *row;
    double chip;
} chip_row;

static void chip_rows(const char *out, const chip_row *want, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *p = strstr(out, want[i].row);
        double chip = NAN, simv = NAN;
        ck_assert_msg(p && sscanf(p + strlen(want[i].row), "%lf %lf", &chip, &simv) == 2, "%s missing:\n%s",
                      want[i].row, out);
        ck_assert_msg(fabs(chip - want[i].chip) < 0.0005, "%s: chip %.3f, expected %.3f", want[i].row, chip,
                      want[i].chip);
    }
}

/* validate's E25 section on a synthetic retain.csv (tests/data/e25, made
 * by make_retain.py; not a measurement) whose classes are known.  add 12
 * MiB: near lines 60 % hits, far lines of a and b 30 % local, 40 % remote
 * hits, of c 70 % remote and none local; a tenth of the near lines have one
 * cold read held back into the far level, which the lesser of cold1 and
 * cold3 must undo; one line of b (a near hit) sits at 5000 cycles cold,
 * which the clusters must not follow (it counts as a far line: b 59/99,
 * 71/101, 31/101).  stream_cg 48 MiB: 50 % near hits, 70 % far hits, 20 %
 * local.  The levels line gives the derived far-hit level (652 - (487 -
 * 305) = 470).  The model's side follows from its mechanisms: 3 x 12 MiB
 * fit the L2 (near hits ~1), reads leave replicas in SM 0's half (far
 * local ~0.5), so do stores (memory.l2.write_local: c far local ~0.5;
 * checked again with it off, when only a replica already there keeps a
 * store's data and c, never read, has none), and a 48 MiB stream keeps
 * replicas but not all of its near lines.  Then bad captures, each
 * with its message. */
START_TEST(test_validate_e25)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " -d " TEST_DATA "/e25 --only e25", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    static const chip_row want[] = {
        {"add 12 MiB a near hit", 0.6},         {"add 12 MiB a far hit", 0.7},       {"add 12 MiB a far local", 0.3},
        {"add 12 MiB b near hit", 59 / 99.0},   {"add 12 MiB b far hit", 71 / 101.0}, {"add 12 MiB b far local", 31 / 101.0},
        {"add 12 MiB c near hit", 0.6},         {"add 12 MiB c far hit", 0.7},       {"add 12 MiB c far local", 0.0},
        {"stream.cg 48 MiB a near hit", 0.5},   {"stream.cg 48 MiB a far hit", 0.7}, {"stream.cg 48 MiB a far local", 0.2},
    };
    chip_rows(r.out, want, sizeof want / sizeof want[0]);
    ck_assert_msg(strstr(r.out, "levels add 12 MiB: levels (cycles) hit 305, near miss 487, far miss 652, far hit 470 (derived)"),
                  "%s", r.out);
    ck_assert_msg(strstr(r.out, "absent stream.cg 64 MiB: not in the capture"), "%s", r.out);
    double a_near = row_sim(r.out, "add 12 MiB a near hit", "predicted");
    double a_local = row_sim(r.out, "add 12 MiB a far local", "predicted");
    double c_local = row_sim(r.out, "add 12 MiB c far local", "predicted");
    double s_near = row_sim(r.out, "stream.cg 48 MiB a near hit", "predicted");
    double s_local = row_sim(r.out, "stream.cg 48 MiB a far local", "predicted");
    ck_assert_msg(a_near > 0.9 && a_local > 0.35 && a_local < 0.65 && c_local > 0.35 && c_local < 0.65,
                  "model: a near %.3f, a far local %.3f, c far local %.3f", a_near, a_local, c_local);
    ck_assert_msg(s_near < 0.95 && s_local > 0.2 && s_local < 0.8, "model: stream near %.3f, far local %.3f", s_near,
                  s_local);
    ck_assert_msg(strstr(r.out, "FAIL   add 12 MiB c far local") && strstr(r.out, "FAIL   add 12 MiB a near hit"),
                  "verdicts:\n%s", r.out);
    cli_free(&r);
    run_cli("validate -c " TU_H200 " -d " TEST_DATA "/e25 --only e25 --set memory.l2.write_local=0", &r);
    c_local = row_sim(r.out, "add 12 MiB c far local", "predicted");
    ck_assert_msg(c_local < 0.05 && strstr(r.out, "PASS   add 12 MiB c far local"), "write_local 0: c far local %.3f\n%s",
                  c_local, r.out);
    cli_free(&r);
    /* two levels with a few lines between them and a slow tail of 86
     * lines 10 cycles apart: the widest gap (far level to tail) is not
     * the split; the k-medians run from the median level is (once the
     * tail took the far level's place: near 576, far 1290) */
    {
        char *cmd = tu_strf("rm -rf %s/tail && mkdir -p %s/tail/capture && awk 'BEGIN { print \"kernel,mib,array,"
                            "line,cold1,cold2,cold3,after\"; v = 0; t = 0; for (i = 0; i < 1024; i++) { if (i %% 12 "
                            "== 5) lv = 800 + 10 * t++; else if (i %% 24 == 11) lv = 584 + 8 * v++; else if (i %% 2 "
                            "== 0) lv = 540 + i %% 40; else lv = 730 + i %% 40; print \"stream_cg,48,a,\" i \",\" "
                            "lv \",285,\" lv \",285\" } }' > %s/tail/capture/retain.csv",
                            tmpdir, tmpdir, tmpdir);
        ck_assert_int_eq(system(cmd), 0);
        char *args = tu_strf("validate -c " TU_H200 " -d %s/tail --only e25", tmpdir);
        run_cli(args, &r);
        ck_assert_msg(strstr(r.out, "levels stream.cg 48 MiB: levels (cycles) hit 285, near miss 560, far miss 755, "
                                    "far hit 480 (derived)"),
                      "status %d: %s%s", r.status, r.out, r.err);
        cli_free(&r);
        free(args);
        free(cmd);
    }
    /* the same capture where the config's fitted table names it (a
     * memory.l2.clean_first chosen on it): its rows fitted, not judged;
     * where the table names another file of the same name
     * (configs/h200.fitted.csv: validation/h200's), judged */
    for (int k = 0; k < 2; k++) {
        char *cmd = tu_strf("rm -rf %s/fit && mkdir -p %s/fit/capture && cp " TEST_DATA "/e25/capture/retain.csv "
                            "%s/fit/capture/ && printf 'kernel,detail,keys\\ncapture/retain.csv,,"
                            "memory.l2.clean_first (this test)\\n' > %s/fit/fitted.csv",
                            tmpdir, tmpdir, tmpdir, tmpdir);
        ck_assert_int_eq(system(cmd), 0);
        char *args = tu_strf("validate -c " TU_H200 " -d %s/fit --only e25%s%s%s", tmpdir, k ? " --fitted " : "",
                             k ? tmpdir : "", k ? "/fit/fitted.csv" : "");
        run_cli(args, &r);
        if (k)
            ck_assert_msg(r.status == 0 && strstr(r.out, "info   add 12 MiB c far local") &&
                              isfinite(row_sim(r.out, "add 12 MiB a near hit", "fitted")) && !strstr(r.out, "FAIL"),
                          "status %d: %s", r.status, r.out);
        else
            ck_assert_msg(r.status == 5 && strstr(r.out, "FAIL   add 12 MiB c far local"), "status %d: %s", r.status,
                          r.out);
        cli_free(&r);
        free(args);
        free(cmd);
    }

    static const struct { const char *lines, *err; } badcap[] = {
        {"add,12,d,1,490,305,490,305", "retain.csv:2: 'add,12,d,1,490,305,490,305': expected kernel,mib,array,line,"
                                       "cold1,cold2,cold3,after with kernel add (arrays a, b, c) or stream_cg (a), "
                                       "mib 1..256, a line of the array and cycles 1..1000000"},
        {"stream_cg,48,a,1,490,305,490,0", "retain.csv:2: 'stream_cg,48,a,1,490,305,490,0': expected"},
        {"add,1,a,8192,490,305,490,305", "retain.csv:2: 'add,1,a,8192,490,305,490,305': expected"},
        {"add,512,a,1,490,305,490,305", "retain.csv:2: 'add,512,a,1,490,305,490,305': expected"},
        {"", "retain.csv: no data lines"},
    };
    char *d = tu_strf("%s/e25/capture", tmpdir);
    char *args = tu_strf("validate -c " TU_H200 " -d %s/e25 --only e25", tmpdir);
    for (size_t i = 0; i < sizeof badcap / sizeof badcap[0]; i++) {
        char *cmd = tu_strf("mkdir -p %s && printf 'kernel,mib,array,line,cold1,cold2,cold3,after\\n%s%s' > %s/retain.csv",
                            d, badcap[i].lines, *badcap[i].lines ? "\\n" : "", d);
        ck_assert_int_eq(system(cmd), 0);
        run_cli(args, &r);
        ck_assert_msg(r.status != 0 && strstr(r.err, badcap[i].err), "%s: status %d: %s", badcap[i].lines, r.status,
                      r.err);
        cli_free(&r);
        free(cmd);
    }
    static const struct { const char *make, *err; } badfile[] = {
        /* every line's second cold read as slow as its first: no hit level */
        {"awk -F, 'NR > 1 { $6 = $5 } 1' OFS=,", "retain.csv: add 12 MiB: levels hit "},
        /* near lines and a few far ones: too few to tell a level by */
        {"awk -F, 'NR == 1 || $5 < 600 || NR % 20 == 1' OFS=,", "far lines: expected at least 64 of each"},
        /* a partial run: array c missing */
        {"awk -F, '$3 != \"c\"' OFS=,", "retain.csv: add 12 MiB: array c has 0 near and 0 far lines: expected at least 32 of each"},
        /* a second run appended to the first */
        {"awk 'FNR > 1 || NR == 1' " TEST_DATA "/e25/capture/retain.csv",
         "retain.csv: add 12 MiB: array a line 1000 appears twice: expected each sampled line once"},
        /* no header */
        {"tail -n +2", "retain.csv:1: 'add,12,a,1000,"},
        /* a line past the buffer */
        {"awk '{ print } NR == 2 { printf \"%600s\\n\", \"x\" }'", "retain.csv:3: a line longer than 510 characters"},
    };
    for (size_t i = 0; i < sizeof badfile / sizeof badfile[0]; i++) {
        char *cmd = tu_strf("%s " TEST_DATA "/e25/capture/retain.csv > %s/retain.csv", badfile[i].make, d);
        ck_assert_int_eq(system(cmd), 0);
        run_cli(args, &r);
        ck_assert_msg(r.status != 0 && strstr(r.err, badfile[i].err), "%s: status %d: %s", badfile[i].make, r.status,
                      r.err);
        ck_assert_msg(strchr(r.err, '\n') == r.err + strlen(r.err) - 1, "not one line: %s", r.err);
        cli_free(&r);
        free(cmd);
    }
    /* a further run beside retain.csv (retain_TAG.csv: another chip, or
     * the same again), here the .cg stream's lines alone: its rows are
     * judged against the same model and marked [TAG], and the case it
     * lacks is said.  Its `after` is every line's cold2 (all hit; the far
     * ones locally: 1.0 where retain.csv's far local is 0.2) */
    char *cmd = tu_strf("cp " TEST_DATA "/e25/capture/retain.csv %s/retain.csv && "
                        "awk -F, 'NR == 1 { print; next } /^stream_cg/ { $8 = $6; print }' OFS=, "
                        TEST_DATA "/e25/capture/retain.csv > %s/retain_x2.csv",
                        d, d);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    run_cli(args, &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    double x2 = NAN, x2sim = NAN, one = NAN, onesim = NAN;
    const char *p = strstr(r.out, "stream.cg 48 MiB a far local [x2]");
    ck_assert_msg(p && sscanf(p + strlen("stream.cg 48 MiB a far local [x2]"), "%lf %lf", &x2, &x2sim) == 2,
                  "tagged row missing:\n%s", r.out);
    p = strstr(r.out, "stream.cg 48 MiB a far local ");
    ck_assert_msg(p && sscanf(p + strlen("stream.cg 48 MiB a far local "), "%lf %lf", &one, &onesim) == 2, "%s", r.out);
    ck_assert_msg(fabs(x2 - 1.0) < 0.0005 && fabs(one - 0.2) < 0.0005 && x2sim == onesim,
                  "[x2] chip %.3f model %.3f, untagged chip %.3f model %.3f", x2, x2sim, one, onesim);
    ck_assert_msg(strstr(r.out, "absent add 12 MiB [x2]: not in the capture") &&
                      strstr(r.out, "levels stream.cg 48 MiB [x2]: levels (cycles)") &&
                      !strstr(r.out, "add 12 MiB a near hit [x2]") && strstr(r.out, "2 runs"),
                  "%s", r.out);
    /* each tagged row once (the model's side is not printed again a run),
     * and its verdicts counted with the others' */
    p = strstr(r.out, "stream.cg 48 MiB a far local [x2]");
    ck_assert_msg(!strstr(p + 1, "stream.cg 48 MiB a far local [x2]"), "a row twice:\n%s", r.out);
    ck_assert_msg(strstr(r.out, "FAIL   stream.cg 48 MiB a far local [x2]"), "%s", r.out);
    int nfail = 0, counted = -1;
    for (const char *q = r.out; (q = strstr(q, "\nFAIL ")); q++)
        nfail++;
    p = strstr(r.out, "FAILED: ");
    ck_assert_msg(p && sscanf(p, "FAILED: %d", &counted) == 1 && counted == nfail, "%d FAIL lines, counted %d", nfail,
                  counted);
    cli_free(&r);
    /* a further run with no retain.csv beside it */
    cmd = tu_strf("rm %s/retain.csv", d);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    run_cli(args, &r);
    ck_assert_msg(r.status != 0 && strstr(r.err, "e25/capture/retain.csv: cannot open: expected it beside ") &&
                      strstr(r.err, "retain_x2.csv (the first run)"),
                  "status %d: %s", r.status, r.err);
    cli_free(&r);
    cmd = tu_strf("cp " TEST_DATA "/e25/capture/retain.csv %s/retain.csv", d);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    /* a file the glob finds that names no run */
    cmd = tu_strf("cp %s/retain_x2.csv %s/retain_x.y.csv", d, d);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    run_cli(args, &r);
    ck_assert_msg(r.status != 0 && strstr(r.err, "retain_x.y.csv: not a capture name: expected retain.csv or "
                                                 "retain_TAG.csv (TAG 1-16 letters, digits or '-')"),
                  "status %d: %s", r.status, r.err);
    cli_free(&r);
    free(args);
    free(d);
}
END_TEST

/* validate's E39 section on a synthetic dirty.csv (tests/data/e39, made by
 * make_dirty.py; not a measurement): an 8 MiB array written, then a 32 or
 * a 96 MiB .cg stream, near lines 50 % hits, far 40 % and none local;
 * read, then 32 MiB, near 10 %, far 20 % with 10 % local.  The model's side
 * is the mechanism's: under memory.l2.dirty_reprieve (1 in the H200's
 * config) a written line due for eviction goes once back into its set (at
 * the age of another of its lines, drawn by a hash: reprieve_place), so
 * after 32 MiB nearly all written lines stay where a read array's lose a
 * quarter, and after 96 MiB they go too; under plain LRU (0) the
 * written lines after 32 MiB fare as the read ones do.  Then bad lines,
 * each with its message. */
START_TEST(test_validate_e39)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " -d " TEST_DATA "/e39 --only e39", &r);
    ck_assert_msg(r.status == 5, "status %d: %s%s", r.status, r.out, r.err);
    static const chip_row want[] = {
        {"write 8 MiB, cg 32 MiB a near hit", 0.5}, {"write 8 MiB, cg 32 MiB a far hit", 0.4},
        {"write 8 MiB, cg 32 MiB a far local", 0.0}, {"read 8 MiB, cg 32 MiB a near hit", 0.1},
        {"read 8 MiB, cg 32 MiB a far hit", 0.2},   {"read 8 MiB, cg 32 MiB a far local", 0.1},
        {"write 8 MiB, cg 96 MiB a near hit", 0.5}, {"write 8 MiB, cg 96 MiB a far hit", 0.4},
    };
    chip_rows(r.out, want, sizeof want / sizeof want[0]);
    ck_assert_msg(strstr(r.out, "absent read 8 MiB, cg 96 MiB: not in the capture") &&
                      strstr(r.out, "levels read 8 MiB, cg 32 MiB: levels (cycles) hit 304, near miss 488") &&
                      strstr(r.out, "FAIL   write 8 MiB, cg 32 MiB a near hit") &&
                      strstr(r.out, "PASS   write 8 MiB, cg 96 MiB a far local"),
                  "%s", r.out);
    double w_near = row_sim(r.out, "write 8 MiB, cg 32 MiB a near hit", "predicted");
    double w_far = row_sim(r.out, "write 8 MiB, cg 32 MiB a far hit", "predicted");
    double rd_near = row_sim(r.out, "read 8 MiB, cg 32 MiB a near hit", "predicted");
    double w96 = row_sim(r.out, "write 8 MiB, cg 96 MiB a near hit", "predicted");
    ck_assert_msg(w_near > 0.9 && w_far > 0.9 && rd_near < 0.85 && w96 < 0.05,
                  "dirty_reprieve 1: written near %.3f far %.3f, read near %.3f, written after 96 MiB %.3f", w_near,
                  w_far, rd_near, w96);
    cli_free(&r);
    /* the written cases alone (their model's side is what moves) */
    char *cmd = tu_strf("rm -rf %s/e39w && mkdir -p %s/e39w/capture && grep -v '^read,' " TEST_DATA
                        "/e39/capture/dirty.csv > %s/e39w/capture/dirty.csv", tmpdir, tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *args = tu_strf("validate -c " TU_H200 " -d %s/e39w --only e39 --set memory.l2.dirty_reprieve=0", tmpdir);
    run_cli(args, &r);
    free(args);
    double lru = row_sim(r.out, "write 8 MiB, cg 32 MiB a near hit", "predicted");
    w96 = row_sim(r.out, "write 8 MiB, cg 96 MiB a near hit", "predicted");
    ck_assert_msg(lru < rd_near + 0.1 && w96 < 0.05 && !strstr(r.out, "levels read"),
                  "dirty_reprieve 0: written near %.3f (read %.3f), after 96 MiB %.3f\n%s", lru, rd_near, w96, r.out);
    cli_free(&r);
    /* the runs dirty_reprieve was chosen on: where the config's fitted
     * table names the first run and run b, those are fitted (shown, not
     * judged), any other run predicted */
    cmd = tu_strf("cd %s/e39w && cp capture/dirty.csv capture/dirty_b.csv && cp capture/dirty.csv "
                  "capture/dirty_c.csv && printf 'kernel,detail,keys\\ncapture/dirty.csv,,memory.l2.dirty_reprieve "
                  "(this test)\\n%s/e39w/capture/dirty_b.csv,,memory.l2.dirty_reprieve\\n' > fitted.csv",
                  tmpdir, tmpdir);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    args = tu_strf("validate -c " TU_H200 " -d %s/e39w --only e39 --fitted %s/e39w/fitted.csv", tmpdir, tmpdir);
    run_cli(args, &r);
    free(args);
    ck_assert_msg(r.status == 5 && strstr(r.out, "\ninfo   write 8 MiB, cg 32 MiB a near hit  ") &&
                      strstr(r.out, "\ninfo   write 8 MiB, cg 32 MiB a near hit [b]") &&
                      strstr(r.out, "\nFAIL   write 8 MiB, cg 32 MiB a near hit [c]") &&
                      !isnan(row_sim(r.out, "write 8 MiB, cg 32 MiB a near hit  ", "fitted")) &&
                      !isnan(row_sim(r.out, "write 8 MiB, cg 32 MiB a near hit [c]", "predicted")),
                  "status %d\n%s", r.status, r.out);
    cli_free(&r);

    static const struct { const char *line, *err; } badline[] = {
        {"copy,8,96,1,490,305,490,305", "dirty.csv:2: 'copy,8,96,1,490,305,490,305': expected mode,x_mib,y_mib,line,"
                                        "cold1,cold2,cold3,after with mode write or read, x_mib 1..256, y_mib "
                                        "0..1024, a line of the array and cycles 1..1000000"},
        {"write,8,2048,1,490,305,490,305", "dirty.csv:2: 'write,8,2048,1,490,305,490,305': expected"},
        {"write,8,-1,1,490,305,490,305", "dirty.csv:2: 'write,8,-1,1,490,305,490,305': expected"},
        {"read,8,0,65536,490,305,490,305", "dirty.csv:2: 'read,8,0,65536,490,305,490,305': expected"},
        {"read,8,0,1,490,305,490", "dirty.csv:2: 'read,8,0,1,490,305,490': expected"},
    };
    char *d = tu_strf("%s/e39/capture", tmpdir);
    args = tu_strf("validate -c " TU_H200 " -d %s/e39 --only e39", tmpdir);
    for (size_t i = 0; i < sizeof badline / sizeof badline[0]; i++) {
        cmd = tu_strf("mkdir -p %s && printf 'mode,x_mib,y_mib,line,cold1,cold2,cold3,after\\n%s\\n' > "
                            "%s/dirty.csv", d, badline[i].line, d);
        ck_assert_int_eq(system(cmd), 0);
        run_cli(args, &r);
        ck_assert_msg(r.status != 0 && strstr(r.err, badline[i].err) && strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
                      "%s: status %d: %s", badline[i].line, r.status, r.err);
        cli_free(&r);
        free(cmd);
    }
    /* E25's header is not E39's, and a further run's name is checked
     * against its own prefix */
    cli_fails_with(tu_strf("cp " TEST_DATA "/e25/capture/retain.csv %s/dirty.csv", d), xstrdup(args),
                   "dirty.csv:1: 'kernel,mib,array,line,cold1,cold2,cold3,after': expected the header "
                   "mode,x_mib,y_mib,line,cold1,cold2,cold3,after", NULL);
    cli_fails_with(tu_strf("cp " TEST_DATA "/e39/capture/dirty.csv %s/dirty.csv && cp " TEST_DATA
                           "/e39/capture/dirty.csv %s/dirty_h100.x.csv", d, d),
                   xstrdup(args), "dirty_h100.x.csv: not a capture name: expected dirty.csv or dirty_TAG.csv (TAG "
                   "1-16 letters, digits or '-')", NULL);
    free(args);
    free(d);
}
END_TEST

/* validate's E23 section on the committed capture: every layout's row,
 * and the model's extra over bcast within 10 cycles of the chip's where
 * the two E23 mechanisms carry it: c4 and c8 from HBM (memory.hbm.ccd_l_ps:
 * without it they are 23-27 cycles short), c16 from the L2
 * (memory.l1.request_millicycles: 22 short without it).  Those are judged on
 * the near mode, with refresh off (its tails would hide a mechanism of 20
 * cycles in means).  With refresh as shipped (all-bank, 16 pseudo-channels
 * in step) the cold rows are means, and a wider load meets more refresh
 * windows: c16's extra exceeds c4's by more than 20 cycles, as the chip's
 * does by 49 (without refresh the two are equal). */
static void e23_rows(const char *set, double mx[], const char *const rows[], size_t n, int want_means)
{
    cli_result r;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "validate -c " TU_H200 " -d validation/h200 --only e23 %s", set);
    run_cli(cmd, &r);
    ck_assert_msg(strstr(r.out, "E23 one warp's load") != NULL, "status %d: %s%s", r.status, r.out, r.err);
    ck_assert_msg((strstr(r.out, "cold = from HBM (means") != NULL) == want_means, "%s:\n%s", set, r.out);
    for (size_t i = 0; i < n; i++) {
        const char *row = strstr(r.out, rows[i]);
        ck_assert_msg(row != NULL, "no row %s:\n%s", rows[i], r.out);
        double chip, model, cx, d;
        ck_assert_int_eq(sscanf(row + strlen(rows[i]), "%lf %lf %lf %lf %lf", &chip, &model, &cx, &mx[i], &d), 5);
        ck_assert(isfinite(model) && model > 0);
        if (!want_means && (!strcmp(rows[i], "c4 cold") || !strcmp(rows[i], "c8 cold") || !strcmp(rows[i], "c16 warm")))
            ck_assert_msg(fabs(d) <= 10, "%s: model %+.1f against the chip's %+.1f", rows[i], mx[i], cx);
    }
    cli_free(&r);
}

START_TEST(test_validate_e23)
{
    static const char *const rows[] = {"c1 cold", "c2 cold", "c4 cold", "c8 cold", "c16 cold", "c32 cold",
                                       "c1 warm", "c2 warm", "c4 warm", "c8 warm", "c16 warm", "c32 warm",
                                       "p32 warm"};
    enum { N = sizeof rows / sizeof rows[0] };
    double off[N], on[N];
    e23_rows("--set memory.hbm.refresh_ps=0", off, rows, N, 0);
    e23_rows("", on, rows, N, 1);
    ck_assert_msg(on[4] > on[2] + 20, "refresh on: c16 cold +%.1f, c4 +%.1f", on[4], on[2]);
    ck_assert_msg(fabs(off[4] - off[2]) < 20, "refresh off: c16 cold +%.1f, c4 +%.1f", off[4], off[2]);
}
END_TEST

/* The simulated column of the first row of `out` that holds `row` and
 * `metric` (tag "predicted"), NAN when there is none. */
static double sim_value(const char *out, const char *row, const char *metric)
{
    char *pat = tu_strf("  %s ", row);
    double v = NAN;
    for (const char *p = strstr(out, pat); p; p = strstr(p + 1, pat)) {
        const char *eol = strchr(p, '\n'), *m = strstr(p, metric);
        if (!eol || !m || m > eol)
            continue;
        double meas, simv;
        if (sscanf(m + strlen(metric), "%lf %lf", &meas, &simv) == 2 && strstr(m, "predicted") &&
            strstr(m, "predicted") < eol)
            v = simv;
        break;
    }
    free(pat);
    return v;
}

/* validate --measured compares E14-style two-stream pairs (mode
 * concurrent, tests/data/capture2s): both kernels' times and spans and the
 * pair's span are rows, tagged predicted, and the kernels ran side by
 * side: the pair took less than one after the other and more than either.
 * A concurrent row that names no partner is skipped with its reason. */
START_TEST(test_validate_concurrent)
{
    cli_result r;
    run_cli("validate -c " TU_H200 " --measured " TEST_DATA "/capture2s", &r);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    double ta = sim_value(r.out, "t.2s.A", "time_us"), tb = sim_value(r.out, "t.2s.B", "time_us");
    double sa = sim_value(r.out, "t.2s.A", "span_us"), sb = sim_value(r.out, "t.2s.B", "span_us");
    double pair = sim_value(r.out, "t.2s.A pair", "span_us");
    ck_assert_msg(isfinite(ta) && isfinite(tb) && isfinite(sa) && isfinite(sb) && isfinite(pair),
                  "missing rows:\n%s", r.out);
    ck_assert_msg(pair < sa + sb && pair > sa && pair > sb, "A %.2f us, B %.2f us, pair %.2f us", sa, sb, pair);
    ck_assert_double_gt(tb, ta);        /* B launched second, on the SMs A holds */
    ck_assert_ptr_null(strstr(r.out, "is not simulated"));
    ck_assert_ptr_nonnull(strstr(r.out, "e.g. t.2s.lone: concurrent: expected launched=first or second and "
                                        "partner=ID in params"));
    ck_assert_ptr_nonnull(strstr(r.out, "5 rows, 1 kernels skipped"));
    cli_free(&r);
}
END_TEST

Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("errors");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, test_bad_command_line, 0, (int)SK_ARRAY_LEN(bad));
    tcase_add_test(tc, test_no_command);
    tcase_add_test(tc, test_version);
    suite_add_tcase(s, tc);

    tc = tcase_create("commands");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_config_dump_round_trip);
    tcase_add_test(tc, test_run_output_dir);
    tcase_add_test(tc, test_run_deterministic);
    tcase_add_test(tc, test_validate_measured);
    tcase_add_test(tc, test_validate_chain_extrapolated);
    tcase_add_test(tc, test_validate_gen_added);
    tcase_add_test(tc, test_validate_concurrent);
    suite_add_tcase(s, tc);

    /* ten power windows: five one-wave SGEMMs, two fp32_1cta, a full-grid
     * FMA loop and two measured only, then the SGEMM pairs again with the
     * fitted constant (20 s here, three or four times that under the
     * sanitizers on two loaded cores) */
    tc = tcase_create("validate_e32");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_validate_e32);
    suite_add_tcase(s, tc);

    /* a few seconds of simulated L2 traffic (longer under the sanitizers) */
    tc = tcase_create("validate_e18b");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, test_validate_e18b_queue);
    tcase_add_test(tc, test_validate_e22b);
    tcase_add_test(tc, test_validate_e20_seeds);
    tcase_add_test(tc, test_validate_e30);
    tcase_add_test(tc, test_validate_e31);
    tcase_add_test(tc, test_validate_l2map);
    tcase_add_test(tc, test_fitted_tables_name_captures);
    tcase_add_test(tc, test_validate_e35);
    tcase_add_test(tc, test_validate_e36);
    tcase_add_test(tc, test_validate_e40);
    tcase_add_test(tc, test_validate_e43);
    tcase_add_test(tc, test_validate_e42);
    tcase_add_test(tc, test_validate_e37);
    tcase_add_test(tc, test_validate_e23);
    tcase_add_test(tc, test_validate_e24);
    tcase_add_test(tc, test_validate_e25);
    tcase_add_test(tc, test_validate_e39);
    suite_add_tcase(s, tc);
    return s;
}
