/* bench.c -- `make bench`: how fast skewsim simulates, on fixed workloads.
 *
 * For each workload the driver writes the trace with `skewsim gen`, runs
 * `skewsim run -c CONFIG -t TRACE -o DIR` as a child process and measures,
 * from outside (so summary.json stays deterministic):
 *
 *   wall        wall-clock seconds of the run (CLOCK_MONOTONIC)
 *   cpu         the child's user + system seconds, from wait4()
 *   peak RSS    the child's ru_maxrss from wait4(), MB
 *
 * (the FMA workloads run twice and the faster run counts: on a shared
 * machine other processes make single runs noisy)
 *
 * and reads from DIR/summary.json: warp_instructions, events, total_ns and,
 * per SM, busy_frac and mean_mhz.  It reports
 *
 *   Mwi/s       simulated warp-instructions per wall second, millions
 *   Mcyc/s      simulated SM-cycles per wall second, millions.  SM-cycles =
 *               sum over SMs of busy_frac x total_ns x mean_mhz / 1000: the
 *               cycles during which the SM held at least one CTA, i.e. the
 *               cycles the simulator had to account for (it skips idle ones
 *               it can prove idle, but it owes every one of them an answer)
 *   Mev/s       events fired per wall second, millions (summary.json "events")
 *   slowdown    wall time / simulated GPU time (total_ns)
 *
 * plus two checks of issue 4: cost linear in work (twice the CTAs at most
 * 2.1 x the time: FMA 2112 -> 4224 -> 8448 CTAs, on wall and on CPU time)
 * and memory independent of kernel length (peak RSS at 8448 CTAs vs 2112),
 * and, for item 4 ("parallel where it pays"), two independent runs at once:
 * the aggregate rate of a two-process sweep on a two-core machine, and
 * `skewsim sweep` itself: the same 8-point sweep with -j 1 and -j 2, as a
 * throughput ratio, and (issue 14) the Accel-Sim reader: a synthetic
 * Accel-Sim kernel file (write_accelsim) read by `skewsim import
 * accelsim`, in MB of trace text per CPU second and against `gzip -1` on
 * the same file in the same run (the issue asks >= 600 MB/s and >= 1.8 x).
 *
 * It prints a table, writes it to the results file (-o) and appends one row
 * to the history table of docs/performance.md (-H) with the commit (git
 * rev-parse --short HEAD, "-dirty" when tracked files are modified).  It
 * links libskewsim for its JSON reader, like the CLI, the tests and the
 * fuzzers.
 *
 * With -B BASE (another skewsim binary, e.g. the previous commit's, which
 * `make bench` builds), every workload also runs on BASE, alternating run
 * by run with BIN on the same trace, so both see the same machine load; the
 * table then gives BASE's rate and the ratio BIN/BASE on CPU time (less
 * disturbed by other processes than wall time).  This is how a change is
 * judged "within 3 % of the previous commit": side by side, in one run.
 *
 * usage: bench -b BIN -c CONFIG -d WORKDIR [-B BASE [-C BASECONFIG]] [-o RESULTS] [-H HISTORY.md] [-q]
 *   -q  quick: smaller workloads (a smoke test of the driver, minutes -> seconds)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "skewsim/json.h"

#define MAX_ARGS 24

/* One workload: its `skewsim gen` arguments (quick variant second). */
typedef struct workload {
    const char *name;
    const char *gen[2][MAX_ARGS];
    const char *what;
    int reps;                 /* runs; the fastest counts (the linearity check compares these) */
    const char *set;          /* a --set for its run, or NULL */
} workload;

static const workload workloads[] = {
    {"fma_2112", {{"fma", "--iters", "4096", "--grid", "2112", NULL},
                  {"fma", "--iters", "512", "--grid", "2112", NULL}},
     "fma_kernel, 2112 CTAs x 4096 iterations (E1, 2 waves)", 2, NULL},
    {"fma_4224", {{"fma", "--iters", "4096", "--grid", "4224", NULL},
                  {"fma", "--iters", "512", "--grid", "4224", NULL}},
     "the same, 4224 CTAs", 2, NULL},
    {"fma_8448", {{"fma", "--iters", "4096", "--grid", "8448", NULL},
                  {"fma", "--iters", "512", "--grid", "8448", NULL}},
     "the same, 8448 CTAs (E1's largest grid)", 2, NULL},
    {"stream", {{"stream", "--ctas", "4224", "--bytes-per-cta", "1016800", NULL},
                {"stream", "--ctas", "1056", "--bytes-per-cta", "65536", NULL}},
     "mem_kernel, 4 GiB over 4224 CTAs (E6)", 1, NULL},
    {"gemm", {{"gemm", "--m", "8192", "--n", "8192", "--k", "8192", NULL},
              {"gemm", "--m", "2048", "--n", "2048", "--k", "1024", NULL}},
     "bf16 GEMM 8192^3, 2048 CTAs of 384 threads (E7)", 1, NULL},
    {"coop", {{"coop", "--ctas", "1056", "--rounds", "20", "--iters", "512", NULL},
              {"coop", "--ctas", "1056", "--rounds", "2", "--iters", "256", NULL}},
     "coop_kernel, 1056 CTAs x 20 rounds x 512 iterations (E5)", 1, NULL},
    {"stream_l2", {{"stream", "--bytes", "16777216", "--passes", "32", "--ctas", "1056", NULL},
                   {"stream", "--bytes", "16777216", "--passes", "2", "--ctas", "1056", NULL}},
     "grid-stride read of 16 MiB x 32 passes, memory.model=hierarchy (E11)", 1,
     "memory.model=hierarchy"},
    /* issue 10 part 9: the stream row with the hierarchy on (>= 20 M/s),
     * and a dependent chase through the L2 (every hop a lookup) */
    {"stream_h", {{"stream", "--ctas", "4224", "--bytes-per-cta", "1016800", NULL},
                  {"stream", "--ctas", "1056", "--bytes-per-cta", "65536", NULL}},
     "mem_kernel as in stream, memory.model=hierarchy (issue 10: >= 20 M/s)", 1,
     "memory.model=hierarchy"},
    {"chase", {{"chase", "--bytes", "33554432", "--hops", "2000", "--ctas", "1056", NULL},
               {"chase", "--bytes", "1048576", "--hops", "200", "--ctas", "132", NULL}},
     "1056 one-thread CTAs x 2000 hops of a 32 MiB cycle, memory.model=hierarchy (E11)", 1,
     "memory.model=hierarchy"},
};
enum { W_STREAM_H = 7, W_CHASE = 8 };   /* their rows, for the checks and the history */
#define NWL (sizeof workloads / sizeof workloads[0])
_Static_assert(NWL == W_CHASE + 1, "stream_h and chase are the last rows");

typedef struct result {
    double wall_s, cpu_s, rss_mb;   /* cpu_s: user + system time of the child */
    double wi, events, total_ns, sm_cycles;
    int ok;
} result;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bench: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

static double maxd(double a, double b)
{
    return a > b ? a : b;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Start argv with stdout (and stderr when quiet_err) to /dev/null. */
static pid_t spawn(char *const argv[], int quiet_err)
{
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            if (quiet_err)
                dup2(fd, 2);
            close(fd);
        }
        execv(argv[0], argv);
        fprintf(stderr, "bench: %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return pid;
}

/* Wait for pid; its wall time since t0, CPU time and peak RSS into *r. */
static int reap(pid_t pid, double t0, result *r)
{
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0)
        die("wait4: %s", strerror(errno));
    r->wall_s = now_s() - t0;
    r->cpu_s = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
               (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
    r->rss_mb = (double)ru.ru_maxrss / 1024.0;      /* Linux: kilobytes */
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* DIR/summary.json through the library's JSON reader (json.h): totals,
 * and the SM-cycles summed from each SM's busy fraction and mean clock. */
static int read_summary(const char *dir, result *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    json_error_t err;
    json_t *root = json_load_file(path, JSON_DECODE_INT_AS_REAL, &err);
    if (!root)
        return 0;
    json_t *tot = json_object_get(root, "total_ns"), *wi = json_object_get(root, "warp_instructions"),
           *ev = json_object_get(root, "events"), *sms = json_object_get(root, "sms");
    int ok = json_is_number(tot) && json_is_number(wi) && json_is_number(ev) && json_is_array(sms);
    if (ok) {
        r->total_ns = json_number_value(tot);
        r->wi = json_number_value(wi);
        r->events = json_number_value(ev);
        r->sm_cycles = 0;
        size_t i;
        json_t *sm;
        json_array_foreach(sms, i, sm) {
            json_t *busy = json_object_get(sm, "busy_frac"), *mhz = json_object_get(sm, "mean_mhz");
            if (json_is_number(busy) && json_is_number(mhz))
                r->sm_cycles += json_number_value(busy) * r->total_ns * json_number_value(mhz) * 1e-3;
        }
    }
    json_decref(root);
    return ok;
}

/* Run the command and wait; exit on failure. */
static void run_or_die(char *const argv[])
{
    result r;
    pid_t pid = spawn(argv, 0);
    if (!reap(pid, now_s(), &r))
        die("failed: %s %s ...", argv[0], argv[1]);
}

/* The commit of the working tree, "-dirty" when tracked files differ. */
/* A synthetic Accel-Sim kernel, the tracer's text format (docs/accelsim.md):
 * `ctas` CTAs of 8 warps of 256 threads, each warp 150 x (a load, two
 * FFMAs, a store) and EXIT, addresses in the base-stride format.  About
 * 212 KB a CTA.  Returns the file's size in bytes. */
static double write_accelsim(const char *dir, int ctas)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *f = fopen(path, "w");
    if (!f || fputs("kernel-1.traceg\n", f) < 0 || fclose(f) != 0)
        die("%s: %s", path, strerror(errno));
    snprintf(path, sizeof path, "%s/kernel-1.traceg", dir);
    if (!(f = fopen(path, "w")))
        die("%s: %s", path, strerror(errno));
    fprintf(f, "-kernel name = _Z5benchPfS_i\n-kernel id = 1\n-grid dim = (%d,1,1)\n-block dim = (256,1,1)\n"
               "-shmem = 0\n-nregs = 32\n-binary version = 90\n-cuda stream id = 0\n"
               "-shmem base_addr = 0x00007f2a00000000\n-local mem base_addr = 0x00007f2a02000000\n"
               "-nvbit version = 1.7.1\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
               "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
               "[adrrescompress?] [mem_addresses]\n\n", ctas);
    for (int b = 0; b < ctas; b++) {
        fprintf(f, "#BEGIN_TB\n\nthread block = %d,0,0\n\n", b);
        for (int w = 0; w < 8; w++) {
            fprintf(f, "warp = %d\ninsts = 601\n", w);
            unsigned pc = 0;
            for (int i = 0; i < 150; i++) {
                fprintf(f, "%04x ffffffff 1 R%d LDG.E 1 R2 4 1 0x7f2a1%07x 4\n", pc, 4 + i % 8, i * 4096);
                pc += 16;
                for (int j = 0; j < 2; j++, pc += 16)
                    fprintf(f, "%04x ffffffff 1 R%d FFMA 3 R%d R5 R6 0\n", pc, 8 + j, 4 + i % 8);
                fprintf(f, "%04x ffffffff 0 STG.E 2 R3 R8 4 1 0x7f2a2%07x 4\n", pc, i * 4096);
                pc += 16;
            }
            fprintf(f, "%04x ffffffff 0 EXIT 0 0\n\n", pc);
        }
        fputs("#END_TB\n\n", f);
    }
    long size = ftell(f);
    if (fclose(f) != 0)
        die("%s: %s", path, strerror(errno));
    return (double)size;
}

static void commit_id(char *buf, size_t n)
{
    snprintf(buf, n, "unknown");
    FILE *p = popen("git rev-parse --short HEAD 2>/dev/null", "r");
    if (!p)
        return;
    char id[64] = "";
    if (fgets(id, sizeof id, p))
        id[strcspn(id, "\n")] = '\0';
    pclose(p);
    if (!id[0])
        return;
    int dirty = system("git diff --quiet HEAD -- 2>/dev/null") != 0;
    snprintf(buf, n, "%s%s", id, dirty ? "-dirty" : "");
}

int main(int argc, char **argv)
{
    const char *bin = NULL, *base = NULL, *cfgp = NULL, *bcfgp = NULL, *dir = NULL, *out = NULL, *hist = NULL;
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-q"))
            quick = 1;
        else if (i + 1 < argc && !strcmp(argv[i], "-b"))
            bin = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-B"))
            base = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-c"))
            cfgp = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-C"))
            bcfgp = argv[++i];   /* the base's own config: a newer one may hold keys it does not know */
        else if (i + 1 < argc && !strcmp(argv[i], "-d"))
            dir = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-o"))
            out = argv[++i];
        else if (i + 1 < argc && !strcmp(argv[i], "-H"))
            hist = argv[++i];
        else
            die("%s: usage: bench -b BIN -c CONFIG -d WORKDIR [-B BASE [-C BASECONFIG]] [-o RESULTS] [-H HISTORY.md] [-q]", argv[i]);
    }
    if (!bin || !cfgp || !dir)
        die("%s", "usage: bench -b BIN -c CONFIG -d WORKDIR [-B BASE [-C BASECONFIG]] [-o RESULTS] [-H HISTORY.md] [-q]");
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        die("cannot create the work directory: %s", strerror(errno));

    result res[NWL], bres[NWL];
    int bok[NWL];
    double cpu_best[NWL];
    char trace[NWL][4096], odir[NWL][4096], bdir[NWL][4096];
    for (size_t w = 0; w < NWL; w++) {
        const workload *wl = &workloads[w];
        snprintf(trace[w], sizeof trace[w], "%s/%s%s.trace", dir, wl->name, quick ? "_q" : "");
        snprintf(odir[w], sizeof odir[w], "%s/%s%s.out", dir, wl->name, quick ? "_q" : "");
        char *av[MAX_ARGS + 4];
        int k = 0;
        av[k++] = (char *)bin;
        av[k++] = "gen";
        for (int j = 0; wl->gen[quick][j]; j++)
            av[k++] = (char *)wl->gen[quick][j];
        av[k++] = "-o";
        av[k++] = trace[w];
        av[k] = NULL;
        run_or_die(av);

        snprintf(bdir[w], sizeof bdir[w], "%s/%s%s.base.out", dir, wl->name, quick ? "_q" : "");
        char *rv[] = {(char *)bin, "run", "-c", (char *)cfgp, "-t", trace[w], "-o", odir[w],
                      wl->set ? "--set" : NULL, (char *)wl->set, NULL};
        char *bv[] = {(char *)base, "run", "-c", (char *)(bcfgp ? bcfgp : cfgp), "-t", trace[w], "-o", bdir[w],
                      wl->set ? "--set" : NULL, (char *)wl->set, NULL};
        fprintf(stderr, "bench: %-9s %s ...", wl->name, quick ? "(quick)" : wl->what);
        bok[w] = base != NULL;
        for (int rep = 0; rep < wl->reps; rep++) {
            result r;
            double t0 = now_s();
            pid_t pid = spawn(rv, 0);
            r.ok = reap(pid, t0, &r) && read_summary(odir[w], &r);
            if (!r.ok)
                die("%s: the simulation failed", wl->name);
            if (rep == 0 || r.wall_s < res[w].wall_s)
                res[w] = r;
            if (rep == 0 || r.cpu_s < cpu_best[w])
                cpu_best[w] = r.cpu_s;
            fprintf(stderr, " %.1f s", r.wall_s);
            if (!bok[w])
                continue;
            /* the base binary may not read a newer trace: then no ratio */
            t0 = now_s();
            pid = spawn(bv, 1);
            r.ok = reap(pid, t0, &r) && read_summary(bdir[w], &r);
            if (!r.ok)
                bok[w] = 0;
            else if (rep == 0 || r.cpu_s < bres[w].cpu_s)
                bres[w] = r;
            if (r.ok)
                fprintf(stderr, " (base %.1f s)", r.wall_s);
        }
        fputc('\n', stderr);
    }

    /* Two independent runs of the first workload at once (a sweep's two
     * processes on two cores). */
    result par[2];
    {
        fprintf(stderr, "bench: 2 x %s at once ...", workloads[0].name);
        pid_t pid[2];
        char pdir[2][4096];
        double t0 = now_s();
        for (int j = 0; j < 2; j++) {
            snprintf(pdir[j], sizeof pdir[j], "%s/par%d.out", dir, j);
            char *rv[] = {(char *)bin, "run", "-c", (char *)cfgp, "-t", trace[0], "-o", pdir[j], NULL};
            pid[j] = spawn(rv, 0);
        }
        for (int j = 0; j < 2; j++)
            if (!reap(pid[j], t0, &par[j]) || !read_summary(pdir[j], &par[j]))
                die("%s", "the parallel runs failed");
        fprintf(stderr, " %.1f s\n", maxd(par[0].wall_s, par[1].wall_s));
    }

    /* The same small sweep (8 points: one FMA trace, 8 seeds) with -j 1
     * and -j 2, every point forced to run: the throughput `skewsim sweep`
     * gains from a second core. */
    double sweep_s[2];
    const int sweep_points = 8;
    {
        char spec[4096], cfgabs[4096], sdir[2][4096];
        if (!realpath(cfgp, cfgabs))
            die("%s: %s", cfgp, strerror(errno));
        snprintf(spec, sizeof spec, "%s/sweep.yaml", dir);
        FILE *f = fopen(spec, "w");
        if (!f)
            die("%s: %s", spec, strerror(errno));
        fprintf(f, "config: %s\ntraces: {fma: {gen: \"fma --iters %d --block 256 --grid 264\"}}\n"
                   "seeds: [1, 2, 3, 4, 5, 6, 7, 8]\n", cfgabs, quick ? 128 : 2048);
        fclose(f);
        for (int j = 0; j < 2; j++) {
            fprintf(stderr, "bench: sweep of %d points, -j %d ...", sweep_points, j + 1);
            snprintf(sdir[j], sizeof sdir[j], "%s/sweep-j%d.out", dir, j + 1);
            char *sv[] = {(char *)bin, "sweep", spec, "-o", sdir[j], "-j", j ? "2" : "1", "--force", NULL};
            result r;
            double t0 = now_s();
            pid_t pid = spawn(sv, 0);
            if (!reap(pid, t0, &r))
                die("%s", "the sweep failed");
            sweep_s[j] = r.wall_s;
            fprintf(stderr, " %.1f s\n", r.wall_s);
        }
    }

    /* The Accel-Sim reader against gzip -1, CPU seconds of each child, one
     * run after the other on the same file (in the page cache by then). */
    double as_bytes, as_cpu = 0, gz_cpu = 0;
    {
        char adir[4200], afile[4400], aout[4200], gzcmd[8192];
        snprintf(adir, sizeof adir, "%s/accelsim", dir);
        if (mkdir(adir, 0777) != 0 && errno != EEXIST)
            die("%s: %s", adir, strerror(errno));
        as_bytes = write_accelsim(adir, quick ? 100 : 1056);
        snprintf(afile, sizeof afile, "%s/kernel-1.traceg", adir);
        snprintf(aout, sizeof aout, "%s/accelsim.trace", dir);
        snprintf(gzcmd, sizeof gzcmd, "exec gzip -1 -c '%s'", afile);
        fprintf(stderr, "bench: Accel-Sim reader, %.0f MB ...", as_bytes / 1e6);
        for (int k = 0; k < 2; k++) {   /* the better of two of each */
            result r;
            char *iv[] = {(char *)bin, "import", "accelsim", adir, "-o", aout, NULL};
            double t0 = now_s();
            if (!reap(spawn(iv, 0), t0, &r))
                die("%s", "skewsim import accelsim failed");
            as_cpu = k == 0 || r.cpu_s < as_cpu ? r.cpu_s : as_cpu;
            char *gv[] = {"/bin/sh", "-c", gzcmd, NULL};
            t0 = now_s();
            if (!reap(spawn(gv, 0), t0, &r))
                die("%s", "gzip -1 failed");
            gz_cpu = k == 0 || r.cpu_s < gz_cpu ? r.cpu_s : gz_cpu;
        }
        fprintf(stderr, " %.2f s, gzip -1 %.2f s\n", as_cpu, gz_cpu);
    }

    char commit[96], date[32];
    commit_id(commit, sizeof commit);
    time_t tt = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&tt));
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

    char *buf = NULL;
    size_t blen = 0;
    FILE *t = open_memstream(&buf, &blen);
    if (!t)
        die("%s", "out of memory");
    fprintf(t, "skewsim bench%s, commit %s, %s, %ld CPUs, config %s\n\n", quick ? " (quick)" : "", commit,
            date, ncpu, cfgp);
    fprintf(t, "%-9s %9s %8s %8s %8s %8s %8s %8s %10s %9s\n", "workload", "Mwarp-ins", "wall s", "cpu s",
            "Mwi/s", "Mcyc/s", "Mev/s", "RSS MB", "sim us", "slowdown");
    for (size_t w = 0; w < NWL; w++) {
        const result *r = &res[w];
        fprintf(t, "%-9s %9.1f %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f %10.1f %9.0f\n", workloads[w].name,
                r->wi / 1e6, r->wall_s, r->cpu_s, r->wi / r->wall_s / 1e6, r->sm_cycles / r->wall_s / 1e6,
                r->events / r->wall_s / 1e6, r->rss_mb, r->total_ns / 1e3, r->wall_s / (r->total_ns * 1e-9));
    }
    if (base) {
        fprintf(t, "\nside by side with the base binary %s (alternating runs, best CPU time of each):\n", base);
        fprintf(t, "%-9s %12s %12s %12s\n", "workload", "base Mwi/s", "this Mwi/s", "this/base");
        for (size_t w = 0; w < NWL; w++) {
            if (!bok[w]) {
                fprintf(t, "%-9s %12s %12.2f %12s\n", workloads[w].name, "n/a", res[w].wi / cpu_best[w] / 1e6,
                        "n/a");
                continue;
            }
            double rb = bres[w].wi / bres[w].cpu_s / 1e6, rn = res[w].wi / cpu_best[w] / 1e6;
            fprintf(t, "%-9s %12.2f %12.2f %12.3f\n", workloads[w].name, rb, rn, rn / rb);
        }
    }
    /* Linearity on wall time (the wording) and on CPU time, which
     * other processes on a busy machine disturb less. */
    double lin1 = res[1].wall_s / res[0].wall_s, lin2 = res[2].wall_s / res[1].wall_s;
    double clin1 = res[1].cpu_s / res[0].cpu_s, clin2 = res[2].cpu_s / res[1].cpu_s;
    double rss_ratio = res[2].rss_mb / res[0].rss_mb;
    double par_rate = (par[0].wi + par[1].wi) / maxd(par[0].wall_s, par[1].wall_s) / 1e6;
    fprintf(t, "\nlinear in work (twice the CTAs, at most 2.1 x the time):\n"
               "  wall: 4224/2112 CTAs %.3f, 8448/4224 %.3f (%s)\n"
               "  cpu:  4224/2112 CTAs %.3f, 8448/4224 %.3f (%s)\n",
            lin1, lin2, lin1 <= 2.1 && lin2 <= 2.1 ? "yes" : "NO", clin1, clin2,
            clin1 <= 2.1 && clin2 <= 2.1 ? "yes" : "NO");
    fprintf(t, "memory vs kernel length: peak RSS %.1f MB at 2112 CTAs, %.1f MB at 8448 (ratio %.3f)\n",
            res[0].rss_mb, res[2].rss_mb, rss_ratio);
    fprintf(t, "two runs at once (fma_2112 x 2): %.2f Mwi/s together, %.2fx one run's %.2f Mwi/s\n", par_rate,
            par_rate / (res[0].wi / res[0].wall_s / 1e6), res[0].wi / res[0].wall_s / 1e6);
    fprintf(t, "sweep throughput (%d FMA points): -j 1 %.2f s, -j 2 %.2f s: %.2fx with two processes\n",
            sweep_points, sweep_s[0], sweep_s[1], sweep_s[0] / sweep_s[1]);
    fprintf(t, "Accel-Sim reader (import, %.0f MB): %.0f MB/s of trace text per CPU second, %.2fx gzip -1 "
               "(%.2f s vs %.2f s; issue 14: >= 600 MB/s, >= 1.8x)\n",
            as_bytes / 1e6, as_bytes / as_cpu / 1e6, gz_cpu / as_cpu, as_cpu, gz_cpu);
    {
        /* issue 10 part 9: stream with the hierarchy >= 20 M/s, the FMA rows
         * >= 55 M/s, peak RSS < 200 MB with the 60 MB L2's tags allocated */
        const result *sh = &res[W_STREAM_H];
        double fmin = res[0].wi / res[0].wall_s;
        for (int w = 1; w < 3; w++)
            if (res[w].wi / res[w].wall_s < fmin)
                fmin = res[w].wi / res[w].wall_s;
        double rss_h = maxd(sh->rss_mb, maxd(res[W_CHASE].rss_mb, res[6].rss_mb));
        fprintf(t, "issue 10 speed: stream with the hierarchy %.2f Mwi/s (>= 20: %s), slowest FMA row %.2f "
                   "Mwi/s (>= 55: %s), peak RSS with the hierarchy %.1f MB (< 200: %s)\n",
                sh->wi / sh->wall_s / 1e6, sh->wi / sh->wall_s >= 20e6 ? "yes" : "NO", fmin / 1e6,
                fmin >= 55e6 ? "yes" : "NO", rss_h, rss_h < 200 ? "yes" : "NO");
    }
    fprintf(t, "GEMM rate (simulated): %.1f TFLOP/s\n",
            quick ? 2.0 * 2048 * 2048 * 1024 / (res[4].total_ns * 1e-9) / 1e12
                  : 2.0 * 8192 * 8192 * 8192 / (res[4].total_ns * 1e-9) / 1e12);
    fclose(t);

    fputs("\n", stdout);
    fputs(buf, stdout);
    if (out) {
        FILE *f = fopen(out, "w");
        if (!f || fputs(buf, f) < 0 || fclose(f) != 0)
            die("cannot write the results: %s", strerror(errno));
        printf("\nwritten to %s\n", out);
    }
    if (hist && !quick) {
        FILE *f = fopen(hist, "a");
        if (!f)
            die("cannot append to the history: %s", strerror(errno));
        fprintf(f, "| %s | %s | %ld CPUs | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f / %.1f | %.2f / %.2f | %.2f / %.2f | %.1f | %.0f (%.2fx gzip -1) | %.1f | %.2f | %.1f |\n",
                date, commit, ncpu, res[0].wi / res[0].wall_s / 1e6, res[2].wi / res[2].wall_s / 1e6,
                res[3].wi / res[3].wall_s / 1e6, res[4].wi / res[4].wall_s / 1e6,
                res[5].wi / res[5].wall_s / 1e6, res[0].rss_mb, res[2].rss_mb, lin1, lin2, clin1, clin2,
                par_rate, as_bytes / as_cpu / 1e6, gz_cpu / as_cpu,
                res[W_STREAM_H].wi / res[W_STREAM_H].wall_s / 1e6, res[W_CHASE].wi / res[W_CHASE].wall_s / 1e6,
                res[W_STREAM_H].rss_mb);
        fclose(f);
        printf("appended a row to %s\n", hist);
    }
    free(buf);
    return 0;
}
