/* test_hpc.c -- a sweep on a cluster (src/sweep/hpc.c): a trace's cost
 * against what the simulator counts, Slurm time limits, shard sizing
 * against a brute-force search, the scripts, submission through a stub
 * sbatch, the directory lock's conflicts, and the progress report under a
 * fake clock.  The real Slurm is `make check-slurm`'s. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/gen.h"
#include "skewsim/program.h"
#include "skewsim/sweep_hpc.h"
#include "skewsim/trace.h"
#include "skewsim/version.h"

/* ---------------------------------------------------------------- cost */

START_TEST(cost_counts_what_the_simulator_issues)
{
    /* gen fma --iters 16 --block 64 --grid 4: summary.json's
     * warp_instructions for this trace is what the walk must find. */
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "hpc");
    char *path = tu_strf("%s/fma.trace", dir);
    kernel k;
    sk_error e = {0};
    ck_assert_int_eq(gen_fma(&k, 16, 64, 4, &e), 0);
    ck_assert_int_eq(trace_write_kernel(path, &k, 0, &e), 0);
    /* warp 0 also runs the kernel's timer bookkeeping (ifwarp 0) */
    uint64_t per_cta = prog_warp_count(&k.progs[0], 1.0, 0) + prog_warp_count(&k.progs[0], 1.0, 1);
    ck_assert_uint_gt(prog_warp_count(&k.progs[0], 1.0, 0), prog_warp_count(&k.progs[0], 1.0, 1));
    kernel_free(&k);
    sweep_trace_cost c;
    ck_assert_int_eq(sweep_trace_cost_read(path, NULL, NULL, &c, &e), 0);
    ck_assert_uint_eq(c.kernels, 1);
    ck_assert_uint_eq(c.ctas, 4);
    ck_assert_uint_eq(c.warps, 8);
    ck_assert_uint_eq(c.warp_instr, 4 * per_cta);
    ck_assert(sweep_point_seconds(&c) > 0);
    free(path);
    tu_rmdir(dir);

    /* An Accel-Sim trace: 4 CTAs of 1 warp, 24 instructions, 8 of them
     * global loads and stores (tests/data/accelsim/kernel-1.traceg). */
    ck_assert_int_eq(sweep_trace_cost_read(TEST_DATA "/accelsim/kernel-1.traceg", NULL, NULL, &c, &e), 0);
    ck_assert_uint_eq(c.ctas, 4);
    ck_assert_uint_eq(c.warp_instr, 96);
    ck_assert_uint_eq(c.mem_instr, 32);
}
END_TEST

START_TEST(cost_finds_a_bad_record_anywhere)
{
    /* The error is in a CTA record, after a header that opens fine: the
     * up-front read must reach it. */
    sweep_trace_cost c;
    sk_error e = {0};
    ck_assert_int_lt(sweep_trace_cost_read(TEST_DATA "/bad/cta_unknown_program.trace", NULL, NULL, &c, &e), 0);
    ck_assert_str_eq(e.msg, TEST_DATA "/bad/cta_unknown_program.trace:7:9: cta: program=nope: expected the "
                            "name of a program of kernel 'k'");
    e.code = 0;
    ck_assert_int_lt(sweep_trace_cost_read(TEST_DATA "/no/such.trace", NULL, NULL, &c, &e), 0);
}
END_TEST

START_TEST(cost_model_orders_workloads)
{
    /* More instructions cost more; a memory op costs more than an ALU op. */
    sweep_trace_cost a = {.kernels = 1, .ctas = 100, .warps = 800, .warp_instr = 1000000, .mem_instr = 0};
    sweep_trace_cost b = a, m = a;
    b.warp_instr *= 2;
    m.mem_instr = 500000;
    ck_assert(sweep_point_seconds(&b) > sweep_point_seconds(&a));
    ck_assert(sweep_point_seconds(&m) > sweep_point_seconds(&a));
}
END_TEST

/* ---------------------------------------------------------------- time */

START_TEST(slurm_times)
{
    static const struct {
        const char *s;
        long v;
    } good[] = {
        {"30", 1800},          {"90", 5400},          {"5:30", 330},          {"1:00:00", 3600},
        {"02:00:00", 7200},    {"1-0", 86400},        {"1-12", 129600},       {"0-00:30", 1800},
        {"2-03:04:05", 183845}, {"0:0:1", 1},
    };
    static const char *const bad[] = {"", "0", "0:00", "-1", "1h", "1:60", "1:00:60", "1-2:60", "1-",
                                      "a", "1::2", "1:2:3:4", "UNLIMITED", " 30", "30 ", "1234567890"};
    for (size_t i = 0; i < SK_ARRAY_LEN(good); i++) {
        long v = -1;
        ck_assert_msg(sweep_slurm_parse_time(good[i].s, &v) == 0, "%s refused", good[i].s);
        ck_assert_int_eq(v, good[i].v);
    }
    for (size_t i = 0; i < SK_ARRAY_LEN(bad); i++) {
        long v = 0;
        ck_assert_msg(sweep_slurm_parse_time(bad[i], &v) == -1, "'%s' taken as %ld", bad[i], v);
    }
    char b[32];
    ck_assert_str_eq(sweep_slurm_fmt_time(183845, b, sizeof b), "2-03:04:05");
    ck_assert_str_eq(sweep_slurm_fmt_time(1800, b, sizeof b), "0-00:30:00");
    ck_assert_str_eq(sweep_slurm_fmt_time(0, b, sizeof b), "0-00:00:01");
    long back;
    ck_assert_int_eq(sweep_slurm_parse_time("2-03:04:05", &back), 0);
    ck_assert_int_eq(back, 183845);
}
END_TEST

/* -------------------------------------------------------------- sizing */

/* Brute force: the least n in 1..max whose every shard's schedule fits. */
static int naive_shards(const double *cost, size_t np, const sweep_sizing *z)
{
    double budget = z->fill * (double)(z->time_s - z->grace_s);
    size_t nrun = 0;
    for (size_t i = 0; i < np; i++)
        nrun += cost[i] >= 0;
    if (!nrun)
        return 1;
    for (int n = 1; n <= z->array_max && (size_t)n <= np; n++) {
        int fits = 1;
        for (int k = 0; k < n && fits; k++) {
            /* the engine: in index order, each point on the slot free first */
            double slot[64] = {0};
            for (size_t i = (size_t)k; i < np; i += (size_t)n) {
                if (cost[i] < 0)
                    continue;
                int b = 0;
                for (int c = 1; c < z->cpus; c++)
                    if (slot[c] < slot[b])
                        b = c;
                slot[b] += cost[i];
            }
            for (int c = 0; c < z->cpus; c++)
                fits &= slot[c] <= budget;
        }
        if (fits)
            return n;
    }
    return -1;
}

START_TEST(sizing_is_the_fewest_shards_that_fit)
{
    unsigned seed = 14;
    for (int trial = 0; trial < 200; trial++) {
        size_t np = 1 + (size_t)(rand_r(&seed) % 300);
        double *cost = xcalloc(np, sizeof *cost);
        for (size_t i = 0; i < np; i++) {
            int r = rand_r(&seed) % 100;
            /* a few done points, mostly short ones, some long tails */
            cost[i] = r < 10 ? -1 : r < 90 ? 1 + rand_r(&seed) % 20 : 50 + rand_r(&seed) % 150;
        }
        sweep_sizing z = {.time_s = 600 + rand_r(&seed) % 3000, .grace_s = 60,
                          .cpus = 1 + rand_r(&seed) % 8, .array_max = 1 + rand_r(&seed) % 64, .fill = 0.7};
        int want = naive_shards(cost, np, &z);
        int n = 0;
        double worst = 0;
        sk_error e = {0};
        int rc = sweep_slurm_shards(cost, np, &z, &n, &worst, &e);
        if (want < 0) {
            ck_assert_int_eq(rc, SK_ERANGE);
            ck_assert_ptr_nonnull(strstr(e.msg, "sweep: "));
        } else {
            ck_assert_msg(rc == 0, "trial %d: %s", trial, e.msg);
            ck_assert_int_eq(n, want);
            ck_assert(worst <= z.fill * (double)(z.time_s - z.grace_s));
        }
        free(cost);
    }
}
END_TEST

START_TEST(sizing_refuses_what_cannot_fit)
{
    double cost[] = {10, 10, 5000, 10};
    sweep_sizing z = {.time_s = 3600, .grace_s = 60, .cpus = 4, .array_max = 100, .fill = 0.8};
    int n;
    double worst;
    sk_error e = {0};
    ck_assert_int_eq(sweep_slurm_shards(cost, 4, &z, &n, &worst, &e), SK_ERANGE);
    ck_assert_str_eq(e.msg, "sweep: point 0002 alone is estimated at 5000 s, more than --time 0-01:00:00 "
                            "allows (2832 s: 80% of the limit less the 60 s grace): raise --time");
    /* done points cost nothing: with 0002 done, one task does the rest */
    cost[2] = -1;
    e.code = 0;
    ck_assert_int_eq(sweep_slurm_shards(cost, 4, &z, &n, &worst, &e), 0);
    ck_assert_int_eq(n, 1);
    ck_assert(worst == 10);
    /* all done: one (empty) task */
    double done[] = {-1, -1};
    ck_assert_int_eq(sweep_slurm_shards(done, 2, &z, &n, &worst, &e), 0);
    ck_assert_int_eq(n, 1);
    /* 1000 points of 100 s on 1 CPU, --time 1000 s: 0.8 * (1000 - 60) = 752 s
     * hold 7 points, so 143 tasks; at most 100: refused */
    double *many = xcalloc(1000, sizeof *many);
    for (int i = 0; i < 1000; i++)
        many[i] = 100;
    sweep_sizing y = {.time_s = 1000, .grace_s = 60, .cpus = 1, .array_max = 100, .fill = 0.8};
    ck_assert_int_eq(sweep_slurm_shards(many, 1000, &y, &n, &worst, &e), SK_ERANGE);
    ck_assert_str_eq(e.msg, "sweep: 1000 points estimated at 100000 CPU-s do not fit 100 tasks of --time "
                            "0-00:16:40 on --cpus 1: raise --time, --cpus or --array-max");
    y.array_max = 1000;
    ck_assert_int_eq(sweep_slurm_shards(many, 1000, &y, &n, &worst, &e), 0);
    ck_assert_int_eq(n, 143);
    ck_assert(worst == 700);
    free(many);
    /* a grace period that eats the limit */
    sweep_sizing g = {.time_s = 60, .grace_s = 60, .cpus = 1, .array_max = 10, .fill = 0.8};
    ck_assert_int_eq(sweep_slurm_shards(cost, 4, &g, &n, &worst, &e), SK_ERANGE);
}
END_TEST

/* ------------------------------------------------------------- scripts */

static char *script(int collect, const sweep_slurm_job *j)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (collect)
        sweep_slurm_collect_script(f, j);
    else
        sweep_slurm_array_script(f, j);
    fclose(f);
    return buf;
}

START_TEST(scripts_are_what_sbatch_runs)
{
    sweep_slurm_job j = {.bin = "/opt/skewsim/build/skewsim", .spec = "/home/u/study.yaml",
                         .dir = "/scratch/u/out", .partition = "compute", .mem = "4G", .time_s = 1800,
                         .grace_s = 60, .cpus = 8, .shards = 40, .sweep_flags = "--reuse-across-versions",
                         .npoints = 10000, .nrun = 9990, .worst_s = 1234.4};
    char *a = script(0, &j);
    ck_assert_str_eq(a,
        "#!/bin/sh\n"
        "# Written by `skewsim sweep --slurm` (docs/hpc.md): 9990 of the spec's 10000 points\n"
        "# in 40 shards; task K runs the points whose index % 40 == K, 8 at once.\n"
        "# Estimated longest shard: 1234 s of the 1800 s limit.  The task index is\n"
        "# the shard: `sbatch --array=3,7 THIS` reruns shards 3 and 7; done points\n"
        "# are skipped.  SIGTERM 60 s before the limit (--signal=B:TERM) reaches\n"
        "# the sweep through exec: it keeps its finished points and exits 143.\n"
        "#SBATCH --job-name=skewsim-sweep\n"
        "#SBATCH --array=0-39\n"
        "#SBATCH --cpus-per-task=8\n"
        "#SBATCH --time=0-00:30:00\n"
        "#SBATCH --signal=B:TERM@60\n"
        "#SBATCH --partition=compute\n"
        "#SBATCH --mem=4G\n"
        "#SBATCH --output=/scratch/u/out/slurm/sweep-%A_%a.out\n"
        "set -eu\n"
        "K=${SLURM_ARRAY_TASK_ID:?not an array task: submit with sbatch}\n"
        "[ \"$K\" -lt 40 ] || { echo \"sweep.sbatch: task $K: expected 0..39\" >&2; exit 1; }\n"
        "exec /opt/skewsim/build/skewsim sweep /home/u/study.yaml -o /scratch/u/out --shard \"$K/40\" -j 8 "
        "--reuse-across-versions\n");
    free(a);
    j.partition = j.mem = NULL;
    j.sweep_flags = NULL;
    char *c = script(1, &j);
    ck_assert_str_eq(c,
        "#!/bin/sh\n"
        "# Written by `skewsim sweep --slurm` (docs/hpc.md): once every task of the\n"
        "# array exited 0 (afterok), DIR/sweep.csv and the collected tables.\n"
        "#SBATCH --job-name=skewsim-collect\n"
        "#SBATCH --cpus-per-task=1\n"
        "#SBATCH --time=0-00:30:00\n"
        "#SBATCH --output=/scratch/u/out/slurm/collect-%j.out\n"
        "set -eu\n"
        "exec /opt/skewsim/build/skewsim sweep /home/u/study.yaml -o /scratch/u/out --collect\n");
    free(c);
    ck_assert_int_eq(sweep_slurm_path_ok("/scratch/u/out"), 0);
    static const char *const badp[] = {"/a b", "/a'b", "/a%b", "/a$b", "/a\\b", "/a\"b", "/a`b", "/a\tb", ""};
    for (size_t i = 0; i < SK_ARRAY_LEN(badp); i++)
        ck_assert_int_eq(sweep_slurm_path_ok(badp[i]), -1);
}
END_TEST

START_TEST(submit_through_a_stub_sbatch)
{
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "hpc");
    char *stub = tu_strf("%s/sbatch", dir), *log = tu_strf("%s/args", dir);
    FILE *f = fopen(stub, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "#!/bin/sh\necho \"$@\" >> %s\ncase \"$*\" in *fail*) exit 2;; esac\n"
               "echo '4242;cluster'\n", log);
    fclose(f);
    chmod(stub, 0755);
    setenv("SKEWSIM_SBATCH", stub, 1);
    char id[32];
    sk_error e = {0};
    ck_assert_int_eq(sweep_slurm_submit("/x/sweep.sbatch", NULL, id, sizeof id, &e), 0);
    ck_assert_str_eq(id, "4242");
    ck_assert_int_eq(sweep_slurm_submit("/x/collect.sbatch", "4242", id, sizeof id, &e), 0);
    ck_assert_int_eq(sweep_slurm_submit("/x/fail.sbatch", NULL, id, sizeof id, &e), SK_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "failed (exit 2)"));
    char *args = tu_slurp(log, NULL);
    ck_assert_str_eq(args, "--parsable /x/sweep.sbatch\n"
                           "--parsable --dependency=afterok:4242 --kill-on-invalid-dep=yes /x/collect.sbatch\n"
                           "--parsable /x/fail.sbatch\n");
    free(args);
    unsetenv("SKEWSIM_SBATCH");
    free(stub);
    free(log);
    tu_rmdir(dir);
}
END_TEST

/* ---------------------------------------------------------------- lock */

START_TEST(lock_lets_shards_share_and_nothing_else)
{
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "hpc");
    sweep_lock a, b, c;
    sk_error e = {0};
    /* two unsharded sweeps */
    ck_assert_int_eq(sweep_lock_take(&a, dir, 0, 1, &e), 0);
    ck_assert_int_eq(sweep_lock_take(&b, dir, 0, 1, &e), SK_EIO);
    char *want = tu_strf("sweep: %s: another sweep is writing this directory (%s/.lock is locked); wait for "
                         "it to end, or use another -o DIR", dir, dir);
    ck_assert_str_eq(e.msg, want);
    free(want);
    /* a shard while an unsharded sweep runs */
    ck_assert_int_eq(sweep_lock_take(&b, dir, 3, 16, &e), SK_EIO);
    sweep_lock_drop(&a);
    ck_assert_int_eq(a.fd, -1);
    sweep_lock_drop(&a);          /* twice: a no-op */
    /* shards of one array share; the same shard twice does not */
    ck_assert_int_eq(sweep_lock_take(&a, dir, 3, 16, &e), 0);
    ck_assert_int_eq(sweep_lock_take(&b, dir, 4, 16, &e), 0);
    ck_assert_int_eq(sweep_lock_take(&c, dir, 3, 16, &e), SK_EIO);
    ck_assert_int_eq(sweep_lock_take(&c, dir, 0, 1, &e), SK_EIO);
    sweep_lock_drop(&a);
    sweep_lock_drop(&b);
    ck_assert_int_eq(sweep_lock_take(&c, dir, 0, 1, &e), 0);
    sweep_lock_drop(&c);
    /* the file holds nothing */
    char *p = tu_strf("%s/.lock", dir);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_size, 0);
    free(p);
    tu_rmdir(dir);
    e.code = 0;
    ck_assert_int_eq(sweep_lock_take(&a, "/nonexistent/dir", 0, 1, &e), SK_EIO);
}
END_TEST

/* ------------------------------------------------------------ progress */

static double fake_now_s;
static double fake_now(void)
{
    return fake_now_s;
}

static char *progress_run(int tty, int quiet)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sweep_progress p;
    fake_now_s = 100;
    sweep_progress_init(&p, f, tty, quiet, 3, 30, fake_now);
    sweep_progress_started(&p);
    sweep_progress_started(&p);
    fake_now_s = 110;
    sweep_progress_ended(&p, "0000-a", 1, 10, 10);  /* a third of the work in 10 s: 20 s left */
    sweep_progress_started(&p);
    fake_now_s = 112;
    sweep_progress_ended(&p, "0001-b", 0, 12, 10);
    fake_now_s = 130.5;
    sweep_progress_ended(&p, "0002-c", 1, 20.5, 10);
    sweep_progress_pause(&p);
    fclose(f);
    return buf;
}

START_TEST(progress_lines)
{
    char *s = progress_run(0, 0);
    ck_assert_str_eq(s, "sweep: 0000-a ok in 10.0s (1/3 done, 0 failed, ETA 20.0s)\n"
                        "sweep: 0001-b FAILED in 12.0s (1/3 done, 1 failed, ETA 6.0s)\n"
                        "sweep: 0002-c ok in 20.5s (2/3 done, 1 failed, ETA 0.0s)\n");
    free(s);
    s = progress_run(1, 0);
    ck_assert_str_eq(s, "\rsweep: 0/3 done, 0 failed, 1 running, ETA ?\033[K"
                        "\rsweep: 0/3 done, 0 failed, 2 running, ETA ?\033[K"
                        "\rsweep: 1/3 done, 0 failed, 1 running, ETA 20.0s\033[K"
                        "\rsweep: 1/3 done, 0 failed, 2 running, ETA 20.0s\033[K"
                        "\rsweep: 1/3 done, 1 failed, 1 running, ETA 6.0s\033[K"
                        "\rsweep: 2/3 done, 1 failed, 0 running, ETA 0.0s\033[K\n");
    free(s);
    s = progress_run(1, 1);
    ck_assert_str_eq(s, "");
    free(s);
    s = progress_run(0, 1);
    ck_assert_str_eq(s, "");
    free(s);
}
END_TEST


static const char *sk_bin(void)
{
    const char *b = getenv("SKEWSIM_BIN");
    return b && *b ? b : "build/skewsim";
}

static void rm_rf(const char *path)
{
    DIR *d = opendir(path);
    if (!d) {
        remove(path);
        return;
    }
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char *sub = tu_strf("%s/%s", path, de->d_name);
        rm_rf(sub);
        free(sub);
    }
    closedir(d);
    rmdir(path);
}

/* ---------------------------------------------- SIGKILL of the sweep */

#if defined(__SANITIZE_ADDRESS__)
#define ORPHAN_GRACE_S 0.6        /* points run about 3x slower under ASan */
#else
#define ORPHAN_GRACE_S 0.15       /* a point of this spec takes about 0.3 s */
#endif
#define KILLS 24

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static pid_t spawn_sweep(const char *spec, const char *dir)
{
    pid_t p = fork();
    ck_assert_int_ge(p, 0);
    if (p == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        alarm(120);
        execl(sk_bin(), sk_bin(), "sweep", spec, "-o", dir, "-j", "2", (char *)NULL);
        _exit(127);
    }
    return p;
}

/* Our children's pids (orphans reparented to this subreaper), from /proc. */
static size_t children(pid_t *out, size_t cap)
{
    size_t n = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d)) != NULL && n < cap;) {
        char *path = tu_strf("/proc/%s/stat", de->d_name);
        FILE *f = fopen(path, "r");
        free(path);
        if (!f)
            continue;
        int pid, ppid;
        char comm[256], state;
        if (fscanf(f, "%d %255s %c %d", &pid, comm, &state, &ppid) == 4 && ppid == getpid())
            out[n++] = pid;
        fclose(f);
    }
    closedir(d);
    return n;
}

/* After the sweep was SIGKILLed and reaped: every point process it left
 * must be gone within ORPHAN_GRACE_S (PR_SET_PDEATHSIG), far less than a
 * point takes.  1 if so; else they are killed and 0. */
static int orphans_die(void)
{
    double t0 = mono();
    for (;;) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p < 0 && errno == ECHILD)
            return 1;
        if (p > 0)
            continue;
        if (mono() - t0 > ORPHAN_GRACE_S)
            break;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    pid_t left[64];
    size_t n = children(left, 64);
    for (size_t i = 0; i < n; i++)
        kill(left[i], SIGKILL);
    while (waitpid(-1, NULL, 0) > 0)
        ;
    return 0;
}

/* The whole file, or NULL when it is not there. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fclose(f);
    return tu_slurp(path, len);
}

/* Every point.json of dir is whole, and an "ok" one has its results.
 * Appends "NAME\n" of each done point to *done (caller frees). */
static void check_points(const char *dir, char **done)
{
    char *pd = tu_strf("%s/points", dir);
    DIR *d = opendir(pd);
    *done = calloc(1, 1);
    if (!d) {
        free(pd);
        return;
    }
    size_t len = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        char *pj = tu_strf("%s/%s/point.json", pd, de->d_name);
        size_t n;
        char *text = read_all(pj, &n);
        if (text) {
            ck_assert_msg(n > 2 && text[0] == '{' && !strcmp(text + n - 2, "}\n"), "%s: not whole", pj);
            if (strstr(text, "\"status\": \"ok\"")) {
                static const char *const res[] = {"summary.json", "ctas.csv", "epochs.csv"};
                for (size_t i = 0; i < SK_ARRAY_LEN(res); i++) {
                    char *rp = tu_strf("%s/%s/%s", pd, de->d_name, res[i]);
                    size_t rn;
                    char *r = read_all(rp, &rn);
                    ck_assert_msg(r && rn > 0 && r[rn - 1] == '\n', "%s: missing or cut short", rp);
                    free(r);
                    free(rp);
                }
                *done = realloc(*done, len + strlen(de->d_name) + 2);
                len += (size_t)sprintf(*done + len, "%s\n", de->d_name);
            }
            free(text);
        }
        free(pj);
    }
    closedir(d);
    free(pd);
}

/* Each line of `a` is a line of `b`. */
static int lines_kept(const char *a, const char *b)
{
    for (const char *p = a; *p;) {
        const char *nl = strchr(p, '\n');
        char *line = strndup(p, (size_t)(nl - p + 1));
        int found = 0;
        for (const char *q = b; (q = strstr(q, line)) != NULL; q++)
            if (q == b || q[-1] == '\n') {
                found = 1;
                break;
            }
        free(line);
        if (!found)
            return 0;
        p = nl + 1;
    }
    return 1;
}

/* `diff -r`, by hand: the same files with the same bytes. */
static void same_files(const char *a, const char *b, const char *rel)
{
    char *pa = *rel ? tu_strf("%s/%s", a, rel) : tu_strf("%s", a);
    char *pb = *rel ? tu_strf("%s/%s", b, rel) : tu_strf("%s", b);
    struct stat sa, sb;
    ck_assert_msg(stat(pa, &sa) == 0 && stat(pb, &sb) == 0, "%s: only on one side", rel);
    if (S_ISDIR(sa.st_mode)) {
        ck_assert_msg(S_ISDIR(sb.st_mode), "%s: a directory on one side only", rel);
        size_t na = 0, nb = 0;
        for (int side = 0; side < 2; side++) {
            DIR *d = opendir(side ? pb : pa);
            for (struct dirent *de; (de = readdir(d)) != NULL;) {
                if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                    continue;
                ck_assert_msg(!strstr(de->d_name, ".tmp"), "%s/%s: a temporary left", rel, de->d_name);
                if (side) {
                    nb++;
                    continue;
                }
                na++;
                char *r = *rel ? tu_strf("%s/%s", rel, de->d_name) : tu_strf("%s", de->d_name);
                same_files(a, b, r);
                free(r);
            }
            closedir(d);
        }
        ck_assert_msg(na == nb, "%s: %zu entries against %zu", rel, na, nb);
    } else {
        size_t la, lb;
        char *ca = tu_slurp(pa, &la), *cb = tu_slurp(pb, &lb);
        ck_assert_msg(ca && cb && la == lb && memcmp(ca, cb, la) == 0, "%s differs", rel);
        free(ca);
        free(cb);
    }
    free(pa);
    free(pb);
}


START_TEST(sweep_survives_sigkill)
{
    /* 12 points of about 0.3 s, 2 at once; the sweep is SIGKILLed at
     * KILLS random moments, resumed after each. */
    ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "kill");
    char *cwd = getcwd(NULL, 0);
    char *spec = tu_strf("%s/k.yaml", dir), *out = tu_strf("%s/out", dir), *fresh = tu_strf("%s/fresh", dir);
    FILE *f = fopen(spec, "w");
    fprintf(f, "config: %s/configs/h200.yaml\n"
               "traces:\n  fma: {gen: \"fma --iters 600 --block 256 --grid 132\"}\n"
               "axes:\n  sm.warp_policy: [gto, lrr, oldest]\nseeds: [1, 2, 3, 4]\n", cwd);
    fclose(f);
    free(cwd);
    unsigned seed = 20261201;
    char *done = calloc(1, 1);
    int stuck = 0;
    for (int i = 0; i < KILLS; i++) {
        pid_t p = spawn_sweep(spec, out);
        long us = rand_r(&seed) % 700000;
        struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
        nanosleep(&ts, NULL);
        kill(p, SIGKILL);
        int st;
        ck_assert_int_eq(waitpid(p, &st, 0), p);
        stuck += !orphans_die();
        char *now;
        check_points(out, &now);
        ck_assert_msg(lines_kept(done, now), "kill %d (after %ld us) lost finished points:\n%s---\n%s", i, us,
                      done, now);
        free(done);
        done = now;
    }
    ck_assert_msg(stuck == 0, "after %d of %d kills a point's process outlived the sweep by more than %.2f s",
                  stuck, KILLS, ORPHAN_GRACE_S);
    /* resumed to the end, it is the fresh sweep, byte for byte */
    pid_t p = spawn_sweep(spec, out);
    int st;
    ck_assert_int_eq(waitpid(p, &st, 0), p);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the resumed sweep failed");
    p = spawn_sweep(spec, fresh);
    ck_assert_int_eq(waitpid(p, &st, 0), p);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the fresh sweep failed");
    same_files(out, fresh, "");
    free(done);
    free(spec);
    free(out);
    free(fresh);
    rm_rf(dir);
}
END_TEST

/* ------------------------------------------------------------- collect */

static int run_bin(const char *a1, const char *a2, const char *a3, const char *a4)
{
    pid_t p = fork();
    ck_assert_int_ge(p, 0);
    if (p == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        alarm(120);
        execl(sk_bin(), sk_bin(), a1, a2, a3, a4, (char *)NULL);
        _exit(127);
    }
    int st;
    ck_assert_int_eq(waitpid(p, &st, 0), p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Field `col` (0-based) of CSV line `line` (no quoted commas). */
static char *field(const char *line, int col)
{
    const char *p = line;
    for (int i = 0; i < col; i++) {
        p = strchr(p, ',');
        ck_assert_ptr_nonnull(p);
        p++;
    }
    size_t n = strcspn(p, ",\n");
    return strndup(p, n);
}

START_TEST(collect_is_one_row_per_point_and_kernel)
{
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "tidy");
    char *cwd = getcwd(NULL, 0);
    char *spec = tu_strf("%s/t.yaml", dir), *out = tu_strf("%s/out", dir);
    FILE *f = fopen(spec, "w");
    fprintf(f, "config: %s/configs/h200.yaml\n"
               "traces:\n  a: {gen: \"fma --iters 8 --block 64 --grid 2\"}\n"
               "  b: {gen: \"gemm --m 128 --n 256 --k 64 --repeat 2\"}\n"
               "set: {dvfs.policy: fixed}\n"
               "cases:\n  rr: {dispatch.policy: round_robin}\n"
               "  slow: {dispatch.policy: gigathread, sim.max_time_ns: 1}\n"
               "axes:\n  sm.warp_policy: [gto, lrr]\n", cwd);
    fclose(f);
    free(cwd);
    ck_assert_int_eq(run_bin("sweep", spec, "-o", out), 6);     /* the slow case fails */
    ck_assert_int_eq(run_bin("collect", out, NULL, NULL), 0);
    char *csvp = tu_strf("%s/results.csv", out);
    char *csv = tu_slurp(csvp, NULL);
    const char *header =
        "index,dir,status,trace,trace_file,case,gen,gen.iters,gen.block,gen.grid,gen.m,gen.n,gen.k,"
        "gen.repeat,dvfs.policy,dispatch.policy,sim.max_time_ns,sm.warp_policy,seed,kernel,kernel_name,ctas,"
        "launch_ns,span_ns,time_ns,warp_instructions,total_ns,mean_power_w,energy_j,skewsim_version,"
        "skewsim_commit,key,message\n";
    ck_assert_int_eq(strncmp(csv, header, strlen(header)), 0);
    /* rows: fma 2 ok x 1 kernel + 2 failed; gemm 2 ok x 2 kernels + 2 failed */
    const char *want[][6] = {
        /* index, status, case, gen.iters|gen.m, sim.max_time_ns, kernel */
        {"0", "ok", "rr", "8", "", "0"},           {"1", "ok", "rr", "8", "", "0"},
        {"2", "failed", "slow", "8", "1", ""},     {"3", "failed", "slow", "8", "1", ""},
        {"4", "ok", "rr", "128", "", "0"},         {"4", "ok", "rr", "128", "", "1"},
        {"5", "ok", "rr", "128", "", "0"},         {"5", "ok", "rr", "128", "", "1"},
        {"6", "failed", "slow", "128", "1", ""},   {"7", "failed", "slow", "128", "1", ""},
    };
    const char *line = csv + strlen(header);
    for (size_t r = 0; r < SK_ARRAY_LEN(want); r++) {
        ck_assert_msg(*line, "row %zu missing", r);
        char *c[] = {field(line, 0), field(line, 2), field(line, 5), field(line, r < 4 ? 7 : 10), field(line, 16),
                     field(line, 19), field(line, 14), field(line, 17), field(line, 18)};
        ck_assert_str_eq(c[0], want[r][0]);
        ck_assert_str_eq(c[1], want[r][1]);
        ck_assert_str_eq(c[2], want[r][2]);
        ck_assert_str_eq(c[3], want[r][3]);
        ck_assert_str_eq(c[4], want[r][4]);
        ck_assert_str_eq(c[5], want[r][5]);
        ck_assert_str_eq(c[6], "fixed");                        /* set: on every point */
        static const char *const policy[] = {"gto", "lrr", "gto", "lrr", "gto", "gto", "lrr", "lrr", "gto", "lrr"};
        ck_assert_str_eq(c[7], policy[r]);                      /* the axis */
        ck_assert_str_eq(c[8], "1");                            /* the config's seed */
        for (size_t i = 0; i < SK_ARRAY_LEN(c); i++)
            free(c[i]);
        char *tn = field(line, 24), *msg = field(line, 32);
        if (!strcmp(want[r][1], "ok")) {
            ck_assert_str_ne(tn, "");                           /* the kernel's time_ns */
            ck_assert_str_eq(msg, "");
        } else {
            ck_assert_str_eq(tn, "");
            ck_assert_ptr_nonnull(strstr(msg, "sim.max_time_ns=1"));
        }
        free(tn);
        free(msg);
        line = strchr(line, '\n') + 1;
    }
    ck_assert_str_eq(line, "");
    /* the JSON is the same rows; a key a point does not set is absent */
    char *jsonp = tu_strf("%s/results.json", out);
    char *json = tu_slurp(jsonp, NULL);
    ck_assert(json[0] == '[');
    ck_assert_ptr_nonnull(strstr(json, "\"gen.repeat\": 2"));
    ck_assert_ptr_nonnull(strstr(json, "\"sim.max_time_ns\": 1,"));
    size_t nidx = 0;
    for (const char *p = json; (p = strstr(p, "\"index\": ")) != NULL; p++)
        nidx++;
    ck_assert_uint_eq(nidx, 10);
    /* and a second collect writes the same bytes */
    ck_assert_int_eq(run_bin("collect", out, NULL, NULL), 0);
    char *csv2 = tu_slurp(csvp, NULL), *json2 = tu_slurp(jsonp, NULL);
    ck_assert_str_eq(csv, csv2);
    ck_assert_str_eq(json, json2);
    free(csv2);
    free(json2);
    free(csv);
    free(json);
    free(csvp);
    free(jsonp);
    /* not a results directory */
    ck_assert_int_eq(run_bin("collect", dir, NULL, NULL), 3);
    /* a seed above INT64_MAX, which jansson's integers cannot hold, exact */
    char *cwd2 = getcwd(NULL, 0), *spec2 = tu_strf("%s/big.yaml", dir), *out2 = tu_strf("%s/big", dir);
    f = fopen(spec2, "w");
    fprintf(f, "config: %s/configs/h200.yaml\ntraces:\n  a: {gen: \"fma --iters 8 --block 64 --grid 2\"}\n"
               "seeds: [18446744073709551615]\n", cwd2);
    fclose(f);
    free(cwd2);
    ck_assert_int_eq(run_bin("sweep", spec2, "-o", out2), 0);
    char *bc = tu_strf("%s/results.csv", out2), *bj = tu_strf("%s/results.json", out2);
    char *bt = tu_slurp(bc, NULL), *bjt = tu_slurp(bj, NULL);
    ck_assert_ptr_nonnull(strstr(bt, ",18446744073709551615,0,fma_kernel,"));
    ck_assert_ptr_nonnull(strstr(bjt, "\"seed\": \"18446744073709551615\""));
    free(bt);
    free(bjt);
    free(bc);
    free(bj);
    free(spec2);
    free(out2);
    free(spec);
    free(out);
    rm_rf(dir);
}
END_TEST

/* ---------------------------------------------------- --slurm options */

START_TEST(slurm_options)
{
    sweep_slurm_opts o;
    sweep_slurm_opts_init(&o);
    ck_assert_int_eq(o.time_s, 7200);
    ck_assert_int_eq(o.cpus, 8);
    ck_assert_int_eq(o.array_max, 1000);
    char *good[] = {"x", "--slurm", "--partition", "compute,debug", "--time", "1-00:00", "--array-max", "50",
                    "--cpus", "16", "--mem", "4G", "--dry-run", "-j"};
    sk_error e = {0};
    int argc = (int)SK_ARRAY_LEN(good), i;
    for (i = 1; i < argc - 1; i++)
        ck_assert_int_eq(sweep_slurm_opt(&o, argc, good, &i, &e), 1);
    ck_assert_int_eq(sweep_slurm_opt(&o, argc, good, &i, &e), 0);      /* -j: not ours */
    ck_assert(o.on && o.dry_run);
    ck_assert_str_eq(o.partition, "compute,debug");
    ck_assert_int_eq(o.time_s, 86400);
    ck_assert_int_eq(o.array_max, 50);
    ck_assert_int_eq(o.cpus, 16);
    ck_assert_str_eq(o.mem, "4G");
    static const struct {
        const char *opt, *val, *msg;
    } bad[] = {
        {"--time", "2h", "sweep: --time 2h: expected a Slurm time limit: MM, MM:SS, HH:MM:SS, D-HH, D-HH:MM or "
                         "D-HH:MM:SS, more than 0"},
        {"--cpus", "0", "sweep: --cpus 0: expected an integer in 1..1024"},
        {"--cpus", "-4", "sweep: --cpus -4: expected an integer in 1..1024"},
        {"--array-max", "1e3", "sweep: --array-max 1e3: expected an integer in 1..1000000"},
        {"--mem", "4GB", "sweep: --mem 4GB: expected a Slurm memory size: digits and K, M, G or T (4G)"},
        {"--partition", "a b", "sweep: --partition a b: expected a partition name ([A-Za-z0-9_.-], or several "
                               "joined by ,)"},
    };
    for (size_t k = 0; k < SK_ARRAY_LEN(bad); k++) {
        char *argv[] = {"x", (char *)bad[k].opt, (char *)bad[k].val};
        i = 1;
        e.code = 0;
        ck_assert_int_eq(sweep_slurm_opt(&o, 3, argv, &i, &e), SK_EUSAGE);
        ck_assert_str_eq(e.msg, bad[k].msg);
    }
    char *miss[] = {"x", "--time"};
    i = 1;
    e.code = 0;
    ck_assert_int_eq(sweep_slurm_opt(&o, 2, miss, &i, &e), SK_EUSAGE);
    ck_assert_str_eq(e.msg, "sweep: --time: missing value");
}
END_TEST

START_TEST(slurm_launch_dry_run_and_submit)
{
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "launch");
    char *spec = tu_strf("%s/s.yaml", dir), *out = tu_strf("%s/out", dir), *stub = tu_strf("%s/sbatch", dir);
    FILE *f = fopen(spec, "w");
    fputs("# a spec\n", f);
    fclose(f);
    ck_assert_int_eq(mkdir(out, 0777), 0);
    f = fopen(stub, "w");
    fprintf(f, "#!/bin/sh\necho \"$@\" >> %s/args\necho 77\n", dir);
    fclose(f);
    chmod(stub, 0755);
    double cost[] = {100, -1, 100, 100};
    sweep_slurm_opts o;
    sweep_slurm_opts_init(&o);
    o.on = o.dry_run = 1;
    o.time_s = 300;               /* 0.7 * 240 = 168 s: one 100-s point per task and CPU */
    o.cpus = 1;
    sk_error e = {0};
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    ck_assert_int_eq(sweep_slurm_launch(&o, "/bin/sh", spec, out, cost, 4, NULL, m, &e), 0);
    fclose(m);
    /* shards are index classes: with point 1 done, 3 tasks would give shard
     * 0 points 0 and 3 (200 s); 4 tasks it is, one empty */
    ck_assert_ptr_nonnull(strstr(buf, "#SBATCH --array=0-3\n"));
    ck_assert_ptr_nonnull(strstr(buf, "# --dry-run: 3 of 4 points to run in 4 tasks; nothing written or submitted\n"));
    char *sh = realpath("/bin/sh", NULL);     /* the binary as the script names it: absolute, resolved */
    char *exe = tu_strf("exec %s sweep %s -o %s --shard \"$K/4\" -j 1\n", sh, spec, out);
    ck_assert_msg(strstr(buf, exe) != NULL, "no '%s' in:\n%s", exe, buf);
    free(exe);
    free(sh);
    char *sa = tu_strf("%s/slurm/sweep.sbatch", out);
    ck_assert(!tu_exists(sa));     /* dry run: nothing written */
    free(buf);
    /* for real, through the stub */
    setenv("SKEWSIM_SBATCH", stub, 1);
    o.dry_run = 0;
    buf = NULL;
    m = open_memstream(&buf, &len);
    ck_assert_int_eq(sweep_slurm_launch(&o, "/bin/sh", spec, out, cost, 4, "--reuse-across-versions", m, &e), 0);
    fclose(m);
    unsetenv("SKEWSIM_SBATCH");
    ck_assert_str_eq(buf, "sweep: submitted array job 77: 3 points in 4 tasks of 0-00:05:00 on 1 CPUs (longest "
                          "shard estimated at 100 s); collect job 77 runs after it (afterok)\n");
    free(buf);
    ck_assert(tu_exists(sa));
    char *argsp = tu_strf("%s/args", dir), *args = tu_slurp(argsp, NULL);
    char *want = tu_strf("--parsable %s/slurm/sweep.sbatch\n--parsable --dependency=afterok:77 "
                         "--kill-on-invalid-dep=yes %s/slurm/collect.sbatch\n", out, out);
    ck_assert_str_eq(args, want);
    char *script = tu_slurp(sa, NULL);
    ck_assert_ptr_nonnull(strstr(script, " -j 1 --reuse-across-versions\n"));
    free(script);
    free(want);
    free(args);
    free(argsp);
    /* a point that cannot fit: nothing submitted */
    cost[0] = 1000;
    e.code = 0;
    m = open_memstream(&buf, &len);
    ck_assert_int_eq(sweep_slurm_launch(&o, "/bin/sh", spec, out, cost, 4, NULL, m, &e), SK_ERANGE);
    fclose(m);
    ck_assert_str_eq(buf, "");
    free(buf);
    free(sa);
    free(spec);
    free(out);
    free(stub);
    rm_rf(dir);
}
END_TEST

START_TEST(child_dies_with_its_sweep)
{
    /* A (the "sweep") forks B (a "point") which binds to A and sleeps; A is
     * SIGKILLed; B must die by SIGKILL at once, reparented to us. */
    ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), 0);
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    pid_t a = fork();
    ck_assert_int_ge(a, 0);
    if (a == 0) {
        pid_t me = getpid();
        pid_t b = fork();
        if (b == 0) {
            sweep_child_bind(me);
            if (write(fds[1], "x", 1) != 1)
                _exit(3);
            sleep(30);
            _exit(0);
        }
        pause();
        _exit(0);
    }
    char c;
    ck_assert_int_eq(read(fds[0], &c, 1), 1);
    kill(a, SIGKILL);
    int st;
    ck_assert_int_eq(waitpid(a, &st, 0), a);
    pid_t b = waitpid(-1, &st, 0);       /* B, reparented to this subreaper */
    ck_assert_int_gt(b, 0);
    ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    close(fds[0]);
    close(fds[1]);
}
END_TEST

START_TEST(axis_values_by_meaning)
{
    uint64_t a, b, c;
    sk_error e = {0};
    /* "01" is refused by the config itself (no leading zeros); "-0" is
     * another spelling of 0 that it takes */
    ck_assert_int_eq(sweep_value_fingerprint("sim.max_time_ns", "0", &a, &e), 0);
    ck_assert_int_eq(sweep_value_fingerprint("sim.max_time_ns", "-0", &b, &e), 0);
    ck_assert_int_eq(sweep_value_fingerprint("sim.max_time_ns", "2", &c, &e), 0);
    ck_assert(a == b);
    ck_assert(a != c);
    ck_assert_int_ne(sweep_value_fingerprint("memory.latency_ns", "01", &c, &e), 0);
    e.code = 0;
    ck_assert_int_eq(sweep_value_fingerprint("sm.warp_policy", "gto", &a, &e), 0);
    ck_assert_int_eq(sweep_value_fingerprint("sm.warp_policy", "lrr", &b, &e), 0);
    ck_assert(a != b);
    ck_assert_int_ne(sweep_value_fingerprint("sm.warp_policy", "bogus", &a, &e), 0);
    /* the resume key covers the build: never the input key itself, and
     * two inputs stay two */
    ck_assert(sweep_key_with_build(1) != 1);
    ck_assert(sweep_key_with_build(1) != sweep_key_with_build(2));
    ck_assert(sweep_key_with_build(7) == sweep_key_with_build(7));
    ck_assert_ptr_nonnull(strstr(e.msg, "sm.warp_policy: bogus: expected one of"));
}
END_TEST

/* ----------------------------------------------- the command, end to end */

/* Run skewsim with argv (NULL-terminated, without the binary) from `cwd`
 * (NULL: here); stdout and stderr into *out and *err (caller frees). */
static int run_cap(const char *cwd, const char *const *args, char **out, char **err)
{
    char tmpl_o[] = "/tmp/skewsim-hpc-out.XXXXXX", tmpl_e[] = "/tmp/skewsim-hpc-err.XXXXXX";
    int fo = mkstemp(tmpl_o), fe = mkstemp(tmpl_e);
    ck_assert(fo >= 0 && fe >= 0);
    const char *argv[40];
    int n = 0;
    char *b = realpath(sk_bin(), NULL);
    ck_assert_ptr_nonnull(b);
    argv[n++] = b;
    for (; args[n - 1] && n < 39; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    pid_t p = fork();
    ck_assert_int_ge(p, 0);
    if (p == 0) {
        if ((cwd && chdir(cwd) != 0) || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
            _exit(126);
        alarm(120);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    ck_assert_int_eq(waitpid(p, &st, 0), p);
    close(fo);
    close(fe);
    *out = tu_slurp(tmpl_o, NULL);
    *err = tu_slurp(tmpl_e, NULL);
    remove(tmpl_o);
    remove(tmpl_e);
    free(b);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Rewrite every point.json's "key" (not "input_key") under dir: what a
 * point done by another build of skewsim looks like. */
static void other_build(const char *dir)
{
    char *pd = tu_strf("%s/points", dir);
    DIR *d = opendir(pd);
    ck_assert_ptr_nonnull(d);
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        char *pj = tu_strf("%s/%s/point.json", pd, de->d_name);
        size_t n;
        char *t = tu_slurp(pj, &n);
        char *k = strstr(t, "\"key\": \"");
        ck_assert_ptr_nonnull(k);
        memcpy(k + 8, "0123456789abcdef", 16);
        FILE *f = fopen(pj, "w");
        fwrite(t, 1, n, f);
        fclose(f);
        free(t);
        free(pj);
    }
    closedir(d);
    free(pd);
}

START_TEST(sweep_provenance_lock_reuse_and_slurm_dry_run)
{
    char dir[256];
    tu_mkdtemp(dir, sizeof dir, "prov");
    char *cwd = getcwd(NULL, 0);
    char *spec = tu_strf("%s/p.yaml", dir), *out = tu_strf("%s/out", dir);
    FILE *f = fopen(spec, "w");
    fprintf(f, "config: %s/configs/h200.yaml\n"
               "traces:\n  fma: {gen: \"fma --iters 16 --block 64 --grid 4\"}\n"
               "  as: {path: %s/" TEST_DATA "/accelsim-sass/kernel-1.traceg, sass: %s/" TEST_DATA
               "/accelsim-sass/chain.sass}\n"
               "set: {dvfs.policy: fixed}\naxes:\n  sm.warp_policy: [gto, lrr]\n", cwd, cwd, cwd);
    fclose(f);
    char *o, *e;
    const char *sw[] = {"sweep", spec, "-o", out, "--quiet", NULL};
    ck_assert_int_eq(run_cap(NULL, sw, &o, &e), 0);
    ck_assert_str_eq(e, "");                     /* --quiet: no progress */
    free(o);
    free(e);

    /* provenance: the build, and a command that gives the point's files */
    char *pj = tu_strf("%s/points/0003-as-lrr/point.json", out);
    char *t = tu_slurp(pj, NULL);
    char *want = tu_strf("\"skewsim_version\": \"%s\"", sk_version());
    ck_assert_ptr_nonnull(strstr(t, want));
    free(want);
    want = tu_strf("\"skewsim_commit\": \"%s\"", sk_commit());
    ck_assert_ptr_nonnull(strstr(t, want));
    free(want);
    ck_assert_ptr_nonnull(strstr(t, "\"config_fnv1a64\": \""));
    ck_assert_ptr_nonnull(strstr(t, "\"sass_fnv1a64\": \""));
    ck_assert_ptr_nonnull(strstr(t, "\"input_key\": \""));
    /* the command, run from DIR with another -o, writes the same summary.json */
    const char *c = strstr(t, "\"command\": [");
    ck_assert_ptr_nonnull(c);
    const char *args[40];
    char *words[40];
    int n = 0;
    for (const char *q = strchr(c, '[') + 1; (q = strchr(q, '"')) != NULL && n < 39;) {
        const char *end = strchr(q + 1, '"');
        if (end > strchr(c, ']'))
            break;
        words[n] = strndup(q + 1, (size_t)(end - q - 1));
        args[n] = words[n];
        n++;
        q = end + 1;
    }
    ck_assert_int_ge(n, 10);
    ck_assert_str_eq(args[0], "skewsim");
    ck_assert_str_eq(args[n - 1], "points/0003-as-lrr");
    args[n - 1] = "again";
    args[n] = NULL;
    ck_assert_int_eq(run_cap(out, args + 1, &o, &e), 0);
    free(o);
    free(e);
    for (int i = 0; i < n; i++)
        free(words[i]);
    char *a1 = tu_strf("%s/points/0003-as-lrr/summary.json", out), *a2 = tu_strf("%s/again/summary.json", out);
    char *s1 = tu_slurp(a1, NULL), *s2 = tu_slurp(a2, NULL);
    ck_assert_str_eq(s1, s2);
    free(s1);
    free(s2);
    free(a1);
    free(a2);
    free(t);
    free(pj);
    char *again = tu_strf("%s/again", out);
    rm_rf(again);
    free(again);
    /* the Accel-Sim trace ran from one native conversion in DIR/cache/
     * (and gave the bytes its own `run --sass` gives, just above) */
    char *cd = tu_strf("%s/cache", out);
    DIR *cdir = opendir(cd);
    ck_assert_ptr_nonnull(cdir);
    int ncache = 0;
    for (struct dirent *de; (de = readdir(cdir)) != NULL;)
        if (de->d_name[0] != '.') {
            char *cp = tu_strf("%s/%s", cd, de->d_name);
            ck_assert_int_eq(sweep_trace_is_native(cp), 1);
            free(cp);
            ncache++;
        }
    closedir(cdir);
    free(cd);
    ck_assert_int_eq(ncache, 1);
    ck_assert_int_eq(sweep_trace_is_native(TEST_DATA "/accelsim-sass/kernel-1.traceg"), 0);
    ck_assert_int_eq(sweep_trace_is_native(TEST_DATA "/accelsim"), 0);

    /* a point done by another build is not done; --reuse-across-versions
     * says it is */
    other_build(out);
    const char *re[] = {"sweep", spec, "-o", out, "--quiet", "--reuse-across-versions", NULL};
    ck_assert_int_eq(run_cap(NULL, re, &o, &e), 0);
    ck_assert_ptr_nonnull(strstr(o, "sweep: 4 points: 0 run, 4 already done, 0 failed\n"));
    free(o);
    free(e);
    ck_assert_int_eq(run_cap(NULL, sw, &o, &e), 0);
    ck_assert_ptr_nonnull(strstr(o, "sweep: 4 points: 4 run, 0 already done, 0 failed\n"));
    free(o);
    free(e);

    /* the lock: a second sweep into DIR while one holds it */
    sweep_lock l;
    sk_error se = {0};
    ck_assert_int_eq(sweep_lock_take(&l, out, 0, 1, &se), 0);
    ck_assert_int_eq(run_cap(NULL, sw, &o, &e), 3);
    want = tu_strf("skewsim: sweep: %s: another sweep is writing this directory (%s/.lock is locked); wait for "
                   "it to end, or use another -o DIR\n", out, out);
    ck_assert_str_eq(e, want);
    free(want);
    free(o);
    free(e);
    /* --collect only reads: it goes ahead */
    const char *co[] = {"sweep", spec, "-o", out, "--collect", NULL};
    ck_assert_int_eq(run_cap(NULL, co, &o, &e), 0);
    free(o);
    free(e);
    sweep_lock_drop(&l);

    /* --slurm --dry-run: the scripts, nothing written or submitted */
    const char *dr[] = {"sweep", spec, "-o", out, "--slurm", "--dry-run", "--time", "10", "--cpus", "2",
                        "--force", NULL};
    ck_assert_int_eq(run_cap(NULL, dr, &o, &e), 1);
    ck_assert_ptr_nonnull(strstr(e, "sweep: --slurm: expected no --force with it"));
    free(o);
    free(e);
    dr[10] = NULL;
    other_build(out);             /* all 4 to run again */
    ck_assert_int_eq(run_cap(NULL, dr, &o, &e), 0);
    ck_assert_ptr_nonnull(strstr(o, "#SBATCH --array=0-0\n"));
    ck_assert_ptr_nonnull(strstr(o, "#SBATCH --cpus-per-task=2\n#SBATCH --time=0-00:10:00\n"));
    ck_assert_ptr_nonnull(strstr(o, "# --dry-run: 4 of 4 points to run in 1 tasks; nothing written or submitted\n"));
    ck_assert_ptr_nonnull(strstr(o, "exec "));
    free(o);
    free(e);
    char *sd = tu_strf("%s/slurm", out);
    ck_assert(!tu_exists(sd));
    free(sd);
    const char *bad[] = {"sweep", spec, "-o", out, "--dry-run", NULL};
    ck_assert_int_eq(run_cap(NULL, bad, &o, &e), 1);
    ck_assert_str_eq(e, "skewsim: sweep: --dry-run, --partition, --time, --array-max, --cpus and --mem go with "
                        "--slurm\n");
    free(o);
    free(e);
    free(cwd);
    free(spec);
    free(out);
    rm_rf(dir);
}
END_TEST

Suite *hpc_suite(void)
{
    Suite *s = suite_create("hpc");
    TCase *tc = tcase_create("hpc");
    tcase_add_test(tc, cost_counts_what_the_simulator_issues);
    tcase_add_test(tc, cost_finds_a_bad_record_anywhere);
    tcase_add_test(tc, cost_model_orders_workloads);
    tcase_add_test(tc, slurm_times);
    tcase_add_test(tc, sizing_is_the_fewest_shards_that_fit);
    tcase_add_test(tc, sizing_refuses_what_cannot_fit);
    tcase_add_test(tc, scripts_are_what_sbatch_runs);
    tcase_add_test(tc, submit_through_a_stub_sbatch);
    tcase_add_test(tc, lock_lets_shards_share_and_nothing_else);
    tcase_add_test(tc, progress_lines);
    tcase_add_test(tc, collect_is_one_row_per_point_and_kernel);
    tcase_add_test(tc, slurm_options);
    tcase_add_test(tc, slurm_launch_dry_run_and_submit);
    tcase_add_test(tc, child_dies_with_its_sweep);
    tcase_add_test(tc, axis_values_by_meaning);
    tcase_add_test(tc, sweep_provenance_lock_reuse_and_slurm_dry_run);
    suite_add_tcase(s, tc);
    TCase *tk = tcase_create("sigkill");
    tcase_set_timeout(tk, 240);
    tcase_add_test(tk, sweep_survives_sigkill);
    suite_add_tcase(s, tk);
    return s;
}
