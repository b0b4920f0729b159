/* test_sweep.c -- parameter sweeps (src/sweep/spec.c, src/cli/cmd_sweep.c):
 *
 *  - the spec in memory: points, their order, relative paths, gen traces,
 *    directory names, and one positioned line for each kind of bad spec;
 *  - the command, run as a separate process ($SKEWSIM_BIN): resume skips
 *    done points (their files keep their mtime) and reruns a stale one;
 *    shards partition the points; --collect names the missing ones; a
 *    failing point is recorded and fails the sweep at the end;
 *  - determinism: -j 1, -j 2 and two shards then --collect give
 *    byte-identical trees (every file compared), and so does a sweep
 *    stopped by SIGTERM and resumed;
 *  - the fuzzer's corpus and kept crashes (tests/fuzz/corpus/sweep,
 *    regressions/sweep) replayed through fuzz_sweep.c's property checks.
 *
 * Traces are tiny `gen fma` kernels so the suite stays fast under ASan.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/sweep.h"

#define FUZZ_ENTRY fuzz_sweep_one
#include "fuzz/fuzz_sweep.c"
#undef FUZZ_ENTRY

#define SWEEP_LIMIT_S 120

/* ---------------------------------------------------------- helpers */

static const char *bin(void)
{
    const char *b = getenv("SKEWSIM_BIN");
    return b && *b ? b : "build/skewsim";
}

typedef struct proc {
    pid_t pid;
    int status;                  /* exit status, 128 + signal when killed */
    char *out, *err;
    char outp[512], errp[512];
} proc;

/* Start skewsim with args (NULL-terminated), output into files in `dir`. */
static void start(proc *p, const char *dir, const char *const *args)
{
    const char *argv[24];
    int n = 0;
    argv[n++] = bin();
    for (; args[n - 1] && n < 23; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    snprintf(p->outp, sizeof p->outp, "%s/.stdout", dir);
    snprintf(p->errp, sizeof p->errp, "%s/.stderr", dir);
    p->pid = fork();
    ck_assert_int_ge(p->pid, 0);
    if (p->pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int fo = open(p->outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(p->errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || fo < 0 || fe < 0 || dup2(in, 0) < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
            _exit(126);
        alarm(SWEEP_LIMIT_S);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
}

static void finish(proc *p)
{
    int st;
    while (waitpid(p->pid, &st, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    p->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    ck_assert_msg(p->status != 127 && p->status != 128 + SIGALRM, "%s: cannot run, or a hang", bin());
    p->out = tu_slurp(p->outp, NULL);
    p->err = tu_slurp(p->errp, NULL);
    /* a sweep's progress lines ("sweep: 0003-... ok in 0.1s (...)", stderr
     * not a terminal: sweep_hpc.h) are not what these tests look at */
    char *w = p->err;
    for (const char *r = p->err; *r;) {
        const char *nl = strchr(r, '\n');
        size_t n = nl ? (size_t)(nl - r + 1) : strlen(r);
        if (strncmp(r, "sweep: ", 7) != 0) {
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = '\0';
    remove(p->outp);
    remove(p->errp);
}

static void proc_free(proc *p)
{
    free(p->out);
    free(p->err);
}

/* Run skewsim sweep SPEC -o OUT EXTRA... to completion. */
static void sweep(proc *p, const char *scratch, const char *spec, const char *out, ...)
{
    const char *args[20] = {"sweep", spec, "-o", out};
    int n = 4;
    va_list ap;
    va_start(ap, out);
    for (const char *a; (a = va_arg(ap, const char *)) != NULL && n < 19;)
        args[n++] = a;
    va_end(ap);
    args[n] = NULL;
    start(p, scratch, args);
    finish(p);
}

static void rm_tree(const char *path)
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
        rm_tree(sub);
        free(sub);
    }
    closedir(d);
    rmdir(path);
}

/* Every file under `root`, relative, sorted, one per line ("a/b\n..."). */
static void list_tree(const char *root, const char *rel, char **acc, size_t *len)
{
    char *path = *rel ? tu_strf("%s/%s", root, rel) : tu_strf("%s", root);
    DIR *d = opendir(path);
    ck_assert_msg(d != NULL, "%s: %s", path, strerror(errno));
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        names = realloc(names, (n + 1) * sizeof *names);
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(names[j], names[i]) < 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    for (size_t i = 0; i < n; i++) {
        char *r = *rel ? tu_strf("%s/%s", rel, names[i]) : tu_strf("%s", names[i]);
        char *full = tu_strf("%s/%s", root, r);
        struct stat st;
        ck_assert_int_eq(stat(full, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            list_tree(root, r, acc, len);
        } else {
            *acc = realloc(*acc, *len + strlen(r) + 2);
            memcpy(*acc + *len, r, strlen(r));
            *len += strlen(r);
            (*acc)[(*len)++] = '\n';
            (*acc)[*len] = '\0';
        }
        free(full);
        free(r);
        free(names[i]);
    }
    free(names);
    free(path);
}

static char *tree(const char *root)
{
    char *acc = calloc(1, 1);
    size_t len = 0;
    list_tree(root, "", &acc, &len);
    return acc;
}

/* Two trees hold the same files with the same bytes; returns the count. */
static int same_tree(const char *a, const char *b)
{
    char *ta = tree(a), *tb = tree(b);
    ck_assert_msg(strcmp(ta, tb) == 0, "%s and %s hold different files:\n%s\n---\n%s", a, b, ta, tb);
    int files = 0;
    for (char *line = ta, *next; *line; line = next) {
        next = strchr(line, '\n');
        *next++ = '\0';
        char *pa = tu_strf("%s/%s", a, line), *pb = tu_strf("%s/%s", b, line);
        size_t la, lb;
        char *ca = tu_slurp(pa, &la), *cb = tu_slurp(pb, &lb);
        ck_assert_msg(la == lb && memcmp(ca, cb, la) == 0, "%s differs between %s and %s", line, a, b);
        free(ca);
        free(cb);
        free(pa);
        free(pb);
        files++;
    }
    free(ta);
    free(tb);
    return files;
}

static long long mtime_ns(const char *path)
{
    struct stat st;
    ck_assert_msg(stat(path, &st) == 0, "%s: %s", path, strerror(errno));
    return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

/* A scratch directory holding spec.yaml (config: the H200, absolute). */
static char scratch[256];
static char *spec_path;

static void write_spec(const char *name, const char *body)
{
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    char *path = tu_strf("%s/%s", scratch, name);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "config: %s/" TU_H200 "\n%s", cwd, body);
    fclose(f);
    free(path);
}

/* 2 traces x 2 cases x 2 silicon presets x 2 seeds = 16 tiny points. */
#define SMALL_SPEC                                                               \
    "traces:\n"                                                                  \
    "  one: {gen: \"fma --iters 16 --block 64 --grid 4\"}\n"                     \
    "  two: {gen: \"fma --iters 16 --block 64 --grid 140\"}\n"                   \
    "set: {dvfs.policy: fixed}\n"                                                \
    "cases:\n"                                                                   \
    "  gt/gto: {dispatch.policy: gigathread, sm.warp_policy: gto}\n"             \
    "  rr/lrr: {dispatch.policy: round_robin, sm.warp_policy: lrr}\n"            \
    "axes:\n"                                                                    \
    "  silicon.preset: [uniform, skewed]\n"                                      \
    "seeds: [1, 2]\n"

static void setup(void)
{
    tu_mkdtemp(scratch, sizeof scratch, "sweep");
    spec_path = tu_strf("%s/spec.yaml", scratch);
    write_spec("spec.yaml", SMALL_SPEC);
}

static void teardown(void)
{
    rm_tree(scratch);
    free(spec_path);
}

static char *sub(const char *name)
{
    return tu_strf("%s/%s", scratch, name);
}

/* ------------------------------------------------------ the spec itself */

static int parse(sweep_spec *s, const char *text, sk_error *e)
{
    return sweep_spec_parse(s, "s.yaml", "dir/sub", (const unsigned char *)text, strlen(text), e);
}

START_TEST(test_spec_points)
{
    sweep_spec s;
    sk_error e = {0};
    int rc = parse(&s,
                   "config: ../h200.yaml\n"
                   "traces:\n"
                   "  g: {gen: \"fma --iters 8 --grid 2\"}\n"
                   "  p: {path: t/x.trace}\n"
                   "  a: {path: /abs/y.trace}\n"
                   "cases: {c1: {sm.warp_policy: lrr}, c2: {sm.warp_policy: oldest}}\n"
                   "axes: {silicon.preset: [uniform, skewed], sm.issue_width: [1, 2, 4]}\n"
                   "seeds: [5, 6]\n",
                   &e);
    ck_assert_msg(rc == 0, "%s", e.msg);
    ck_assert_uint_eq(s.npoints, 3 * 2 * 2 * 3 * 2);
    ck_assert_str_eq(s.config_resolved, "dir/sub/../h200.yaml");
    ck_assert_ptr_null(s.traces[0].resolved);
    ck_assert_str_eq(s.traces[0].gen, "fma --iters 8 --grid 2");
    ck_assert_str_eq(s.traces[1].resolved, "dir/sub/t/x.trace");
    ck_assert_str_eq(s.traces[2].resolved, "/abs/y.trace");
    /* the seed varies fastest, then the last axis, ..., the trace slowest */
    sweep_point p;
    sweep_point_at(&s, 0, &p);
    ck_assert(p.trace == 0 && p.kase == 0 && p.axis[0] == 0 && p.axis[1] == 0 && p.seed == 0);
    sweep_point_at(&s, 1, &p);
    ck_assert(p.trace == 0 && p.kase == 0 && p.axis[1] == 0 && p.seed == 1);
    sweep_point_at(&s, 2, &p);
    ck_assert(p.axis[1] == 1 && p.seed == 0);
    sweep_point_at(&s, 6, &p);
    ck_assert(p.axis[0] == 1 && p.axis[1] == 0);
    sweep_point_at(&s, 12, &p);
    ck_assert(p.kase == 1 && p.trace == 0);
    sweep_point_at(&s, 24, &p);
    ck_assert(p.trace == 1 && p.kase == 0);
    sweep_point_at(&s, 71, &p);
    ck_assert(p.trace == 2 && p.kase == 1 && p.axis[0] == 1 && p.axis[1] == 2 && p.seed == 1);
    char slug[160];
    ck_assert_str_eq(sweep_point_slug(&s, &p, slug, sizeof slug), "0071-a-c2-skewed-4-s6");
    /* every point decodes to its own tuple */
    for (size_t i = 0; i < s.npoints; i++) {
        sweep_point q;
        sweep_point_at(&s, i, &q);
        size_t back = ((((q.trace * 2 + q.kase) * 2 + q.axis[0]) * 3 + q.axis[1]) * 2) + q.seed;
        ck_assert_uint_eq(back, i);
    }
    /* a point's config: set < case < axes < seed */
    cfg base, c;
    cfg_defaults(&base);
    ck_assert_int_eq(sweep_point_cfg(&s, &p, &base, &c, &e), 0);
    ck_assert_int_eq(c.warp_policy, WARP_OLDEST);
    ck_assert_int_eq(c.si_preset, SI_PRESET_SKEWED);
    ck_assert_int_eq(c.issue_width, 4);
    ck_assert_uint_eq(c.seed, 6);
    sweep_spec_free(&s);
}
END_TEST

/* Bad specs: each gives exactly this one line. */
static const struct {
    const char *yaml, *msg;
} bad_specs[] = {
    {"traces: {a: {gen: fma}}\n", "s.yaml:1:1: config: missing: expected config: PATH"},
    {"config: c.yaml\n", "s.yaml:1:1: traces: missing: expected traces: {NAME: {path: PATH [, sass: LISTING]} | "
                         "{gen: \"WORKLOAD OPTIONS\"}, ...}"},
    {"config: c.yaml\ntraces: {a: {gen: fma, sass: x.sass}}\n",
     "s.yaml:2:13: traces.a: sass: expected it with path: (an Accel-Sim trace), not gen:"},
    {"config: c.yaml\ntraces: {a: {path: t, sass: x, sass: y}}\n",
     "s.yaml:2:32: traces.a: sass: duplicate key"},
    {"config: c.yaml\ntraces: {a: {path: t, sass: \"\"}}\n",
     "s.yaml:2:29: traces.a.sass: (empty): expected a path to a SASS listing"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\nmode: fast\n",
     "s.yaml:3:1: mode: unknown key: expected config, traces, set, cases, axes or seeds"},
    {"config: c.yaml\nconfig: d.yaml\n", "s.yaml:2:1: config: duplicate key: first set at line 1"},
    {"config: c.yaml\ntraces: {}\n", "s.yaml:2:9: traces: {}: expected at least one trace"},
    {"config: c.yaml\ntraces: {a: {gen: fma, path: x}}\n",
     "s.yaml:2:24: traces.a: path: expected only one of path or gen"},
    {"config: c.yaml\ntraces: {a b: {gen: fma}}\n",
     "s.yaml:2:10: traces: a b: expected a name of 1..63 characters from [A-Za-z0-9._-], "
     "not starting with '.'"},
    {"config: c.yaml\ntraces: {a: {gen: \"fma --iters x\"}}\n",
     "s.yaml:2:19: traces.a.gen: gen fma: --iters: x: expected an integer"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\nset: {sm.warp_policy: fast}\n",
     "s.yaml:3:23: set: sm.warp_policy: fast: expected one of gto, lrr, oldest, two_level, baws, ccws, cta_rr"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\nset: {sm: 1}\n",
     "s.yaml:3:7: set: sm: a section: expected one of its keys, e.g. sm.max_threads"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\ncases: {x: {sm.issue_width: 9}}\n",
     "s.yaml:3:29: cases.x: sm.issue_width: 9: expected an integer in 1..8"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\naxes: {sm.issue_width: [1, 1]}\n",
     "s.yaml:3:28: axes.sm.issue_width[1]: 1: duplicate value: first at line 3"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\naxes: {sm.issue_width: 1}\n",
     "s.yaml:3:24: axes.sm.issue_width: 1: expected a list of values"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\nseeds: [-1]\n",
     "s.yaml:3:9: seeds: sim.seed: -1: expected an integer in 0..18446744073709551615"},
    {"config: c.yaml\ntraces: {a: {gen: fma}}\nseeds: []\n", "s.yaml:3:8: seeds: []: expected at least one seed"},
    {"config: &x c.yaml\n", "s.yaml:1:9: config: &x: expected a value without an anchor "
                            "(anchors and aliases are not supported)"},
    {"- a\n", "s.yaml:1:1: (document): a sequence: expected a mapping with config and traces"},
};

START_TEST(test_spec_errors)
{
    sweep_spec s;
    sk_error e = {0};
    int rc = parse(&s, bad_specs[_i].yaml, &e);
    ck_assert_msg(rc != 0, "accepted: %s", bad_specs[_i].yaml);
    ck_assert_str_eq(e.msg, bad_specs[_i].msg);
    sweep_spec_free(&s);
}
END_TEST

/* ------------------------------------------------------ the command */

/* The line of stdout starting "sweep: ". */
static char *count_line(const char *out)
{
    const char *p = strstr(out, "sweep: ");
    ck_assert_msg(p != NULL, "no count line in: %s", out);
    return strndup(p, strcspn(p, "\n"));
}

START_TEST(test_run_resume)
{
    char *out = sub("out"), *p0 = NULL;
    proc p;
    sweep(&p, scratch, spec_path, out, "-j", "2", NULL);
    ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
    char *line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 16 points: 16 run, 0 already done, 0 failed");
    free(line);
    ck_assert_ptr_nonnull(strstr(p.out, "index  trace  case    silicon.preset  seed  status  time_us  span_us\n"));
    proc_free(&p);
    char *csv = tu_strf("%s/sweep.csv", out);
    char *text = tu_slurp(csv, NULL);
    ck_assert_ptr_nonnull(strstr(text, "index,trace,case,silicon.preset,seed,status,time_ns,span_ns,mean_mhz,"
                                       "min_mhz,mean_power_w,energy_j,dir,message\n0,one,gt/gto,uniform,1,ok,"));
    ck_assert_ptr_nonnull(strstr(text, "\n15,two,rr/lrr,skewed,2,ok,"));
    ck_assert_ptr_nonnull(strstr(text, ",points/0015-two-rr_lrr-skewed-s2,\n"));
    free(text);

    /* again: nothing runs, nothing is rewritten but sweep.csv */
    p0 = tu_strf("%s/points/0000-one-gt_gto-uniform-s1/summary.json", out);
    char *j5 = tu_strf("%s/points/0005-one-rr_lrr-uniform-s2/point.json", out);
    char *tr = tu_strf("%s/traces/one.trace", out);
    long long m0 = mtime_ns(p0), m5 = mtime_ns(j5), mt = mtime_ns(tr);
    sweep(&p, scratch, spec_path, out, NULL);
    ck_assert_int_eq(p.status, 0);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 16 points: 0 run, 16 already done, 0 failed");
    free(line);
    proc_free(&p);
    ck_assert(mtime_ns(p0) == m0 && mtime_ns(j5) == m5 && mtime_ns(tr) == mt);

    /* a stale key: that point runs again, the others do not */
    text = tu_slurp(j5, NULL);
    char *k = strstr(text, "\"key\": \"");
    ck_assert_ptr_nonnull(k);
    k[8] = k[8] == '0' ? '1' : '0';
    FILE *f = fopen(j5, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    sweep(&p, scratch, spec_path, out, NULL);
    ck_assert_int_eq(p.status, 0);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 16 points: 1 run, 15 already done, 0 failed");
    free(line);
    proc_free(&p);
    ck_assert(mtime_ns(p0) == m0);

    /* a changed spec value: only the points it touches run again */
    write_spec("spec.yaml", SMALL_SPEC "# the same points\n");
    sweep(&p, scratch, spec_path, out, "--force", NULL);
    ck_assert_int_eq(p.status, 0);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 16 points: 16 run, 0 already done, 0 failed");
    free(line);
    proc_free(&p);
    free(j5);
    free(tr);
    free(p0);
    free(csv);
    free(out);
}
END_TEST

START_TEST(test_shards_partition)
{
    char *out = sub("out");
    proc all;
    sweep(&all, scratch, spec_path, out, "--list", NULL);
    ck_assert_int_eq(all.status, 0);
    int lines = 0;
    for (const char *c = all.out; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 16);
    ck_assert_ptr_nonnull(strstr(all.out, "0000-one-gt_gto-uniform-s1  trace=one case=gt/gto "
                                          "silicon.preset=uniform seed=1\n"));
    size_t total = 0;
    for (int k = 0; k < 3; k++) {
        char shard[16];
        snprintf(shard, sizeof shard, "%d/3", k);
        proc p;
        sweep(&p, scratch, spec_path, out, "--list", "--shard", shard, NULL);
        ck_assert_int_eq(p.status, 0);
        /* each of its lines is a line of the whole list, index % 3 == k */
        for (char *l = p.out, *next; *l; l = next) {
            next = strchr(l, '\n');
            *next++ = '\0';
            ck_assert_int_eq(atoi(l) % 3, k);
            char *needle = tu_strf("%s\n", l);
            ck_assert_ptr_nonnull(strstr(all.out, needle));
            free(needle);
            total++;
        }
        proc_free(&p);
    }
    ck_assert_uint_eq(total, 16);
    ck_assert(!tu_exists(out));     /* --list makes nothing */
    proc_free(&all);
    free(out);
}
END_TEST

START_TEST(test_determinism_collect)
{
    char *j1 = sub("j1"), *j2 = sub("j2"), *sh = sub("sh");
    proc p;
    sweep(&p, scratch, spec_path, j1, "-j", "1", NULL);
    ck_assert_int_eq(p.status, 0);
    proc_free(&p);
    sweep(&p, scratch, spec_path, j2, "-j", "2", NULL);
    ck_assert_int_eq(p.status, 0);
    proc_free(&p);

    /* one shard of two, then --collect: the other's points are missing */
    sweep(&p, scratch, spec_path, sh, "--shard", "1/2", "-j", "2", NULL);
    ck_assert_int_eq(p.status, 0);
    char *line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 16 points (this shard's): 8 run, 0 already done, 0 failed");
    free(line);
    proc_free(&p);
    sweep(&p, scratch, spec_path, sh, "--collect", NULL);
    ck_assert_int_eq(p.status, 6);
    ck_assert_str_eq(p.err, "skewsim: sweep: 8 of 16 points not done: 0000, 0002, 0004, 0006, 0008, "
                            "0010, 0012, 0014\n");
    proc_free(&p);
    sweep(&p, scratch, spec_path, sh, "--shard", "0/2", NULL);
    ck_assert_int_eq(p.status, 0);
    proc_free(&p);
    sweep(&p, scratch, spec_path, sh, "--collect", NULL);
    ck_assert_msg(p.status == 0, "%s", p.err);
    ck_assert_str_eq(p.err, "");
    proc_free(&p);

    /* a point is `run` with its overrides, its trace `gen`'s output */
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    char *cfgp = tu_strf("%s/" TU_H200, cwd), *tr = sub("two.trace"), *rd = sub("run");
    const char *gen[] = {"gen", "fma", "--iters", "16", "--block", "64", "--grid", "140", "-o", tr, NULL};
    start(&p, scratch, gen);
    finish(&p);
    ck_assert_int_eq(p.status, 0);
    proc_free(&p);
    const char *run[] = {"run", "-c", cfgp, "-t", tr, "-o", rd, "--seed", "2", "--set", "dvfs.policy=fixed",
                         "--set", "dispatch.policy=round_robin", "--set", "sm.warp_policy=lrr",
                         "--set", "silicon.preset=skewed", NULL};
    start(&p, scratch, run);
    finish(&p);
    ck_assert_msg(p.status == 0, "%s", p.err);
    proc_free(&p);
    static const char *const outs[] = {"summary.json", "ctas.csv", "epochs.csv"};
    for (size_t i = 0; i < 3; i++) {
        char *a = tu_strf("%s/%s", rd, outs[i]);
        char *b = tu_strf("%s/points/0015-two-rr_lrr-skewed-s2/%s", j1, outs[i]);
        size_t la, lb;
        char *ca = tu_slurp(a, &la), *cb = tu_slurp(b, &lb);
        ck_assert_msg(la == lb && memcmp(ca, cb, la) == 0, "%s: the sweep's point differs from `run`", outs[i]);
        free(ca);
        free(cb);
        free(a);
        free(b);
    }
    char *tj = tu_strf("%s/traces/two.trace", j1);
    size_t la, lb;
    char *ca = tu_slurp(tr, &la), *cb = tu_slurp(tj, &lb);
    ck_assert_msg(la == lb && memcmp(ca, cb, la) == 0, "the sweep's trace differs from `gen`'s");
    free(ca);
    free(cb);
    free(tj);
    rm_tree(rd);
    free(rd);
    free(tr);
    free(cfgp);

    int files = same_tree(j1, j2);
    /* 4 per point, 2 traces, sweep.csv, results.csv and .json, .lock */
    ck_assert_int_eq(files, 16 * 4 + 2 + 1 + 2 + 1);
    same_tree(j1, sh);
    free(j1);
    free(j2);
    free(sh);
}
END_TEST

/* No temporary left anywhere under dir. */
static void no_temporaries(const char *dir)
{
    char *t = tree(dir);
    ck_assert_msg(strstr(t, ".tmp") == NULL, "temporaries left:\n%s", t);
    free(t);
}

START_TEST(test_sigterm_resume)
{
    /* two quick points, then slow ones (about a second each, optimised):
     * stop while a slow one runs */
    write_spec("slow.yaml", "traces:\n"
                            "  quick: {gen: \"fma --iters 16 --block 64 --grid 4\"}\n"
                            "  slow: {gen: \"fma --iters 4096 --block 256 --grid 264\"}\n"
                            "seeds: [1, 2]\n");
    char *spec = sub("slow.yaml"), *ref = sub("ref"), *out = sub("out");
    char *done1 = tu_strf("%s/points/0001-quick-s2/point.json", out);
    char *done3 = tu_strf("%s/points/0003-slow-s2/point.json", out);
    const char *args[] = {"sweep", spec, "-o", out, "-j", "1", NULL};
    proc p;
    start(&p, scratch, args);
    struct timespec nap = {0, 5 * 1000 * 1000};
    for (int i = 0; i < 60 * 200 && !tu_exists(done1); i++)
        nanosleep(&nap, NULL);
    ck_assert_msg(tu_exists(done1), "point 1 never finished");
    kill(p.pid, SIGTERM);
    finish(&p);
    /* the signal landed before the last point was done (-j 1 runs them in
     * order), and stopped the sweep: a sweep ignoring it would exit 0 */
    ck_assert_msg(!tu_exists(done3), "every point finished before SIGTERM: make the slow points slower");
    ck_assert_msg(p.status == 143, "status %d: %s", p.status, p.err);
    ck_assert_str_eq(p.err, "skewsim: sweep: stopped by signal 15: finished points kept; "
                            "run it again to resume\n");
    char *line = count_line(p.out);
    ck_assert_msg(strcmp(line, "sweep: 4 points: 2 run, 0 already done, 0 failed") == 0 ||
                      strcmp(line, "sweep: 4 points: 3 run, 0 already done, 0 failed") == 0,
                  "%s", line);
    free(line);
    /* sweep.csv was rewritten: the unfinished points are not done */
    char *csv = tu_strf("%s/sweep.csv", out);
    char *text = tu_slurp(csv, NULL);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(strstr(text, "\n1,quick,,2,ok,"));
    ck_assert_ptr_nonnull(strstr(text, "\n3,slow,,2,missing,"));
    free(text);
    free(csv);
    no_temporaries(out);
    proc_free(&p);

    sweep(&p, scratch, spec, out, "-j", "2", NULL);
    ck_assert_msg(p.status == 0, "%s", p.err);
    proc_free(&p);
    sweep(&p, scratch, spec, ref, NULL);
    ck_assert_int_eq(p.status, 0);
    proc_free(&p);
    same_tree(ref, out);
    free(done1);
    free(done3);
    free(spec);
    free(ref);
    free(out);
}
END_TEST

START_TEST(test_failing_point)
{
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    /* a trace with a bad record is read to the end before anything runs:
     * an error of the spec at its line, not a failure of every point */
    char *body = tu_strf("traces:\n"
                         "  good: {gen: \"fma --iters 16 --block 64 --grid 4\"}\n"
                         "  bad: {path: %s/" TEST_DATA "/bad/cta_unknown_program.trace}\n",
                         cwd);
    write_spec("fail.yaml", body);
    free(body);
    char *spec = sub("fail.yaml"), *out = sub("out");
    proc p;
    sweep(&p, scratch, spec, out, "-j", "2", NULL);
    ck_assert_int_eq(p.status, 2);
    char *want = tu_strf("skewsim: %s:4:3: traces.bad.path: %s/" TEST_DATA "/bad/cta_unknown_program.trace:7:9: "
                         "cta: program=nope: expected the name of a program of kernel 'k'\n", spec, cwd);
    ck_assert_msg(strcmp(p.err, want) == 0 || (strstr(p.err, ": traces.bad.path: ") &&
                                                 strstr(p.err, "cta_unknown_program.trace:7:9: cta: program=nope")),
                  "%s", p.err);
    free(want);
    char *pj = tu_strf("%s/points/0000-good/point.json", out);
    ck_assert_msg(!tu_exists(pj), "a point ran before the bad trace was found");
    free(pj);
    proc_free(&p);
    free(spec);
    free(out);

    /* a point that fails as it runs (sim.max_time_ns) does not stop the others */
    write_spec("fail2.yaml", "traces:\n  good: {gen: \"fma --iters 16 --block 64 --grid 4\"}\n"
                             "cases:\n  fine: {sm.warp_policy: gto}\n  short: {sim.max_time_ns: 1}\n");
    spec = sub("fail2.yaml");
    out = sub("out2");
    sweep(&p, scratch, spec, out, "-j", "2", NULL);
    ck_assert_int_eq(p.status, 6);
    want = tu_strf("skewsim: sweep: 1 of 2 points failed (see %s/sweep.csv)\n", out);
    ck_assert_str_eq(p.err, want);
    free(want);
    char *line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 2 points: 2 run, 0 already done, 1 failed");
    free(line);
    proc_free(&p);
    /* the row says why; the good point is done and is not run again */
    char *csv = tu_strf("%s/sweep.csv", out);
    char *text = tu_slurp(csv, NULL);
    ck_assert_ptr_nonnull(strstr(text, "\n0,good,fine,1,ok,"));
    ck_assert_ptr_nonnull(strstr(text, "\n1,good,short,1,failed,,,,,,,points/0001-good-short,"));
    ck_assert_ptr_nonnull(strstr(text, "sim.max_time_ns=1"));
    free(text);
    free(csv);
    sweep(&p, scratch, spec, out, NULL);
    ck_assert_int_eq(p.status, 6);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 2 points: 1 run, 1 already done, 1 failed");
    free(line);
    proc_free(&p);
    free(spec);
    free(out);
}
END_TEST

/* An Accel-Sim trace with its SASS listing (sass:) runs as `run --sass`
 * does, byte for byte, and a changed listing makes its point stale. */
START_TEST(test_sass_point)
{
    char cwd[1024];
    ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
    char *listing = sub("chain.sass");
    char *text = tu_slurp(TEST_DATA "/accelsim-sass/chain.sass", NULL);
    FILE *f = fopen(listing, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    char *body = tu_strf("traces:\n  app: {path: %s/" TEST_DATA "/accelsim-sass/kernel-1.traceg, sass: chain.sass}\n",
                         cwd);
    write_spec("sass.yaml", body);
    free(body);
    char *spec = sub("sass.yaml"), *out = sub("out"), *ref = sub("ref");
    proc p;
    sweep(&p, scratch, spec, out, NULL);
    ck_assert_msg(p.status == 0, "%s", p.err);
    proc_free(&p);
    const char *run[] = {"run", "-c", TU_H200, "-t", TEST_DATA "/accelsim-sass/kernel-1.traceg", "--sass",
                         listing, "-o", ref, NULL};
    start(&p, scratch, run);
    finish(&p);
    ck_assert_msg(p.status == 0, "%s", p.err);
    proc_free(&p);
    char *a = tu_strf("%s/points/0000-app/summary.json", out), *b = tu_strf("%s/summary.json", ref);
    char *sa = tu_slurp(a, NULL), *sb = tu_slurp(b, NULL);
    ck_assert_str_eq(sa, sb);
    free(sa);
    free(sb);
    /* FFMA's stall 4 -> 5 in the listing: the point is stale and runs again */
    char *ffma = strstr(text, "/* 0x000fe80000000000 */");
    ck_assert_ptr_nonnull(ffma);
    memcpy(ffma, "/* 0x000fea0000000000 */", 24);
    f = fopen(listing, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    sweep(&p, scratch, spec, out, NULL);
    ck_assert_int_eq(p.status, 0);
    char *line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 1 points: 1 run, 0 already done, 0 failed");
    free(line);
    proc_free(&p);
    sa = tu_slurp(a, NULL);
    sb = tu_slurp(b, NULL);
    ck_assert_str_ne(sa, sb);
    free(sa);
    free(sb);
    free(a);
    free(b);
    free(text);
    free(listing);
    free(spec);
    free(out);
    free(ref);
}
END_TEST

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

/* The "name": "value" line of a point.json (the whole line, caller frees). */
static char *json_line(const char *pj, const char *name)
{
    char *text = tu_slurp(pj, NULL);
    ck_assert_msg(text != NULL, "%s: missing", pj);
    char *pat = tu_strf("\"%s\": ", name);
    char *at = strstr(text, pat);
    ck_assert_msg(at != NULL, "%s: no %s", pj, name);
    char *line = strndup(at, strcspn(at, "\n"));
    free(pat);
    free(text);
    return line;
}

/* An Accel-Sim trace is its kernelslist.g and every kernel file it names:
 * `path: app/` (the directory) and `path: app/kernelslist.g` work and key
 * the same bytes, and editing one kernel file reruns exactly their points. */
START_TEST(test_accelsim_kernel_files)
{
    char *app = sub("app");
    ck_assert_int_eq(mkdir(app, 0777), 0);
    static const char *const files[] = {"kernelslist.g", "kernel-1.traceg", "kernel-2.traceg"};
    for (size_t i = 0; i < SK_ARRAY_LEN(files); i++) {
        char *from = tu_strf(TEST_DATA "/accelsim/%s", files[i]), *to = tu_strf("%s/%s", app, files[i]);
        char *text = tu_slurp(from, NULL);
        ck_assert_ptr_nonnull(text);
        put_file(to, text);
        free(text);
        free(from);
        free(to);
    }
    write_spec("as.yaml", "traces:\n"
                          "  dir: {path: app/}\n"
                          "  list: {path: app/kernelslist.g}\n"
                          "  gen: {gen: \"fma --iters 16 --block 64 --grid 4\"}\n"
                          "seeds: [1, 2]\n");
    char *spec = sub("as.yaml"), *out = sub("out");
    proc p;
    sweep(&p, scratch, spec, out, "-j", "2", NULL);
    ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
    char *line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 6 points: 6 run, 0 already done, 0 failed");
    free(line);
    proc_free(&p);
    char *pj_dir = tu_strf("%s/points/0000-dir-s1/point.json", out);
    char *pj_list = tu_strf("%s/points/0002-list-s1/point.json", out);
    char *pj_gen = tu_strf("%s/points/0004-gen-s1/point.json", out);
    char *h_dir = json_line(pj_dir, "trace_fnv1a64"), *h_list = json_line(pj_list, "trace_fnv1a64");
    ck_assert_str_eq(h_dir, h_list);
    char *b = json_line(pj_dir, "trace_bytes");
    ck_assert_str_eq(b, "\"trace_bytes\": 7638,");      /* the list and both kernels */
    free(b);
    long long m_gen = mtime_ns(pj_gen), m_dir = mtime_ns(pj_dir);

    /* one kernel file changes (a comment line): the Accel-Sim points run
     * again, the gen ones do not */
    char *k2 = tu_strf("%s/kernel-2.traceg", app);
    char *text = tu_slurp(k2, NULL);
    char *more = tu_strf("%s# edited\n", text);
    put_file(k2, more);
    free(more);
    free(text);
    sweep(&p, scratch, spec, out, NULL);
    ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 6 points: 4 run, 2 already done, 0 failed");
    free(line);
    proc_free(&p);
    ck_assert(mtime_ns(pj_gen) == m_gen);
    ck_assert(mtime_ns(pj_dir) != m_dir);
    char *h2 = json_line(pj_dir, "trace_fnv1a64");
    ck_assert_str_ne(h2, h_dir);
    free(h2);
    sweep(&p, scratch, spec, out, NULL);
    ck_assert_int_eq(p.status, 0);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 6 points: 0 run, 6 already done, 0 failed");
    free(line);
    proc_free(&p);
    free(h_dir);
    free(h_list);
    free(k2);
    free(pj_dir);
    free(pj_list);
    free(pj_gen);
    free(spec);
    free(out);
    free(app);
}
END_TEST

/* A CSV of `header` and one row "SM,1.0" per SM of the H200, written to
 * path; its text is returned (the caller edits a row and writes it again). */
static char *per_sm_csv(const char *path, const char *header)
{
    char *csv = calloc(1, 8192);
    ck_assert_ptr_nonnull(csv);
    sprintf(csv, "%s\n", header);
    for (int i = 0; i < 132; i++)
        sprintf(csv + strlen(csv), "%d,1.0\n", i);
    put_file(path, csv);
    return csv;
}

/* dispatch.weights_file is part of the key as well: a weights file edited
 * under the same name reruns the points that read it (before, the key held
 * only its name, in the config dump, and a resume kept the stale points). */
START_TEST(test_weights_file_in_key)
{
    char *wpath = sub("weights.csv");
    char *csv = per_sm_csv(wpath, "sm,weight");
    char *body = tu_strf("traces:\n"
                         "  one: {gen: \"fma --iters 16 --block 64 --grid 264\"}\n"
                         "set: {dispatch.policy: static_weights, dispatch.weights_file: %s}\n"
                         "seeds: [1, 2]\n",
                         wpath);
    write_spec("weights.yaml", body);
    free(body);
    char *spec = sub("weights.yaml"), *out = sub("out");
    static const char *const want[] = {
        "sweep: 2 points: 2 run, 0 already done, 0 failed",   /* first run */
        "sweep: 2 points: 0 run, 2 already done, 0 failed",   /* the same file: resumed */
        "sweep: 2 points: 2 run, 0 already done, 0 failed",   /* SM 7 at weight 0.5: stale */
        "sweep: 2 points: 0 run, 2 already done, 0 failed",   /* and done again */
    };
    for (size_t i = 0; i < SK_ARRAY_LEN(want); i++) {
        if (i == 2) {
            char *row = strstr(csv, "\n7,1.0\n");
            ck_assert_ptr_nonnull(row);
            memcpy(row, "\n7,0.5\n", 7);
            put_file(wpath, csv);
        }
        proc p;
        sweep(&p, scratch, spec, out, NULL);
        ck_assert_msg(p.status == 0, "run %zu: status %d: %s", i, p.status, p.err);
        char *line = count_line(p.out);
        ck_assert_str_eq(line, want[i]);
        free(line);
        proc_free(&p);
    }
    free(csv);
    free(wpath);
    free(spec);
    free(out);
}
END_TEST

/* silicon.map_file is part of the key: editing the map reruns its points.
 * And -o takes a directory whose name holds a blank (gen traces too). */
START_TEST(test_map_file_and_blank_dir)
{
    char *map = sub("map.csv");
    char *csv = per_sm_csv(map, "sm,fmax_scale");
    char *body = tu_strf("traces:\n"
                         "  one: {gen: \"fma --iters 16 --block 64 --grid 4\"}\n"
                         "set: {silicon.preset: file, silicon.map_file: %s}\n"
                         "seeds: [1, 2]\n",
                         map);
    write_spec("map.yaml", body);
    free(body);
    char *spec = sub("map.yaml"), *out = sub("out dir");
    proc p;
    sweep(&p, scratch, spec, out, "-j", "2", NULL);
    ck_assert_msg(p.status == 0, "status %d: %s", p.status, p.err);
    char *line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 2 points: 2 run, 0 already done, 0 failed");
    free(line);
    proc_free(&p);
    char *tr = tu_strf("%s/traces/one.trace", out), *stray = sub("dir");
    ck_assert(tu_exists(tr));
    ck_assert(!tu_exists(stray));
    no_temporaries(scratch);
    sweep(&p, scratch, spec, out, NULL);
    ck_assert_int_eq(p.status, 0);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 2 points: 0 run, 2 already done, 0 failed");
    free(line);
    proc_free(&p);
    /* SM 7 at 0.9: both points are stale and run again */
    char *row = strstr(csv, "\n7,1.0\n");
    ck_assert_ptr_nonnull(row);
    memcpy(row, "\n7,0.9\n", 7);
    put_file(map, csv);
    sweep(&p, scratch, spec, out, NULL);
    ck_assert_int_eq(p.status, 0);
    line = count_line(p.out);
    ck_assert_str_eq(line, "sweep: 2 points: 2 run, 0 already done, 0 failed");
    free(line);
    proc_free(&p);
    free(tr);
    free(stray);
    free(csv);
    free(map);
    free(spec);
    free(out);
}
END_TEST

/* -j and --shard take digits only: strtol would skip a leading blank and
 * read " -1" (a huge job table) or " -1/4" (a shard with no points). */
START_TEST(test_blank_numbers)
{
    static const struct {
        const char *opt, *val, *err;
    } bad[] = {
        {"-j", " -1", "skewsim: sweep: -j  -1: expected an integer in 0..1024 (0: one per online CPU)\n"},
        {"-j", " 2", "skewsim: sweep: -j  2: expected an integer in 0..1024 (0: one per online CPU)\n"},
        {"-j", "2 ", "skewsim: sweep: -j 2 : expected an integer in 0..1024 (0: one per online CPU)\n"},
        {"--shard", " -1/4", "skewsim: sweep: --shard  -1/4: expected K/N with 0 <= K < N (N at most 1000000)\n"},
        {"--shard", "1/ 4", "skewsim: sweep: --shard 1/ 4: expected K/N with 0 <= K < N (N at most 1000000)\n"},
        {"--shard", "+1/4", "skewsim: sweep: --shard +1/4: expected K/N with 0 <= K < N (N at most 1000000)\n"},
    };
    char *out = sub("out");
    for (size_t i = 0; i < SK_ARRAY_LEN(bad); i++) {
        proc p;
        sweep(&p, scratch, spec_path, out, bad[i].opt, bad[i].val, NULL);
        ck_assert_msg(p.status == 1, "%s '%s': status %d", bad[i].opt, bad[i].val, p.status);
        ck_assert_str_eq(p.err, bad[i].err);
        ck_assert_str_eq(p.out, "");
        proc_free(&p);
    }
    ck_assert(!tu_exists(out));
    free(out);
}
END_TEST

/* docs/sweeps.md mirrors `skewsim sweep --help` (the schema table), and
 * README.md documents the statuses a sweep adds. */
START_TEST(test_docs_mirror)
{
    const char *args[] = {"sweep", "--help", NULL};
    proc p;
    start(&p, scratch, args);
    finish(&p);
    ck_assert_int_eq(p.status, 0);
    const char *keys = strstr(p.out, "SPEC keys (docs/sweeps.md):\n");
    ck_assert_ptr_nonnull(keys);
    keys = strchr(keys, '\n') + 1;
    char *doc = tu_slurp("docs/sweeps.md", NULL);
    char *block = tu_strf("```\n%s```\n", keys);
    ck_assert_msg(strstr(doc, block) != NULL,
                  "docs/sweeps.md does not hold `skewsim sweep --help`'s keys; paste:\n%s", block);
    free(block);
    free(doc);
    proc_free(&p);
    char *readme = tu_slurp("README.md", NULL);
    ck_assert_ptr_nonnull(strstr(readme, "\n| 6 | `sweep`"));
    ck_assert_ptr_nonnull(strstr(readme, "\n| 130, 143 | `sweep`"));
    ck_assert_ptr_nonnull(strstr(readme, "(docs/sweeps.md)"));
    free(readme);
}
END_TEST

/* ------------------------------------------------------ fuzz replay */

START_TEST(test_replay_sweep)
{
    int seeds = tu_replay_dir("tests/fuzz/corpus/sweep", fuzz_sweep_one);
    tu_replay_dir("tests/fuzz/regressions/sweep", fuzz_sweep_one);
    ck_assert_int_ge(seeds, 10);
    static const char *const inline_inputs[] = {"", "config:", "{", "config: x\ntraces: {a: {gen: fma}}\n"};
    for (size_t i = 0; i < SK_ARRAY_LEN(inline_inputs); i++)
        fuzz_sweep_one((const uint8_t *)inline_inputs[i], strlen(inline_inputs[i]));
}
END_TEST


/* sweep_run() as a library call: --list into a stream; a stop flag already
 * set runs nothing and says which signal; a run gives the very tree the
 * command line gives. */
START_TEST(test_library_sweep_run)
{
    sweep_opts o;
    sweep_outcome r;
    sk_error e = {0};
    char *text = NULL;
    size_t len = 0;
    memset(&o, 0, sizeof o);
    o.spec = spec_path;
    o.list = 1;
    o.jobs = 1;
    o.out = open_memstream(&text, &len);
    ck_assert_int_eq(sweep_run(&o, &r, &e), 0);
    fclose(o.out);
    ck_assert_uint_eq(r.npoints, 16);
    ck_assert_int_eq(strncmp(text, "0000-one-gt_gto-uniform-s1  trace=one case=gt/gto silicon.preset=uniform "
                                   "seed=1\n", 75), 0);
    int lines = 0;
    for (const char *c = text; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 16);
    free(text);

    char *stopped = sub("stopped"), *lib = sub("lib"), *cli = sub("cli");
    volatile sig_atomic_t flag = SIGTERM;
    memset(&o, 0, sizeof o);
    o.spec = spec_path;
    o.dir = stopped;
    o.jobs = 2;
    o.stop = &flag;
    o.out = fopen("/dev/null", "w");
    ck_assert_int_eq(sweep_run(&o, &r, &e), 0);
    ck_assert_int_eq(r.signal, SIGTERM);
    ck_assert_uint_eq(r.run, 0);
    ck_assert_uint_eq(r.missing, 16);

    flag = 0;
    o.dir = lib;
    ck_assert_msg(sweep_run(&o, &r, &e) == 0, "%s", e.msg);
    fclose(o.out);
    ck_assert_uint_eq(r.run, 16);
    ck_assert_uint_eq(r.failed + r.missing + r.not_ok + (size_t)r.signal, 0);
    proc p;
    sweep(&p, scratch, spec_path, cli, "-j", "2", NULL);
    ck_assert_int_eq(p.status, 0);
    proc_free(&p);
    ck_assert_int_gt(same_tree(lib, cli), 16);

    /* the spec's errors come back as one line, nothing printed */
    memset(&o, 0, sizeof o);
    char *missing = sub("no-such.yaml");
    o.spec = missing;
    o.dir = lib;
    ck_assert_int_eq(sweep_run(&o, &r, &e), SK_EIO);
    ck_assert_ptr_nonnull(strstr(e.msg, "no-such.yaml: cannot open"));
    free(missing);
    free(stopped);
    free(lib);
    free(cli);
}
END_TEST

Suite *sweep_suite(void)
{
    Suite *s = suite_create("sweep");
    TCase *tc = tcase_create("spec");
    tcase_add_test(tc, test_spec_points);
    tcase_add_loop_test(tc, test_spec_errors, 0, (int)SK_ARRAY_LEN(bad_specs));
    tcase_add_test(tc, test_replay_sweep);
    suite_add_tcase(s, tc);

    tc = tcase_create("run");
    tcase_set_timeout(tc, SWEEP_LIMIT_S);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_run_resume);
    tcase_add_test(tc, test_shards_partition);
    tcase_add_test(tc, test_determinism_collect);
    tcase_add_test(tc, test_library_sweep_run);
    tcase_add_test(tc, test_sigterm_resume);
    tcase_add_test(tc, test_failing_point);
    tcase_add_test(tc, test_sass_point);
    tcase_add_test(tc, test_accelsim_kernel_files);
    tcase_add_test(tc, test_map_file_and_blank_dir);
    tcase_add_test(tc, test_weights_file_in_key);
    tcase_add_test(tc, test_blank_numbers);
    tcase_add_test(tc, test_docs_mirror);
    suite_add_tcase(s, tc);
    return s;
}
