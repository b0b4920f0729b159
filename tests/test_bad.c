/* test_bad.c -- hardened inputs and outputs (issue 5), from the outside:
 *
 *  - the bad-input corpus: every case of tests/data/bad/CASES runs the
 *    skewsim binary ($SKEWSIM_BIN, else build/skewsim) under a time limit and
 *    must exit with its status and print exactly its one line on stderr,
 *    nothing on stdout and no results; every file of tests/data/bad/ belongs
 *    to some case; every status used is in README.md's table;
 *  - bounded resources: a trace claiming 2^40 CTAs fails in well under a
 *    second, a 2^32-CTA grid streams in constant memory and stops at
 *    sim.max_time_ns;
 *  - determinism: the same inputs give byte-identical files in separate
 *    processes, a gzip'd trace gives what the plain one gives, --seed
 *    changes nothing but the seed it reports on the H200 config (nothing
 *    there is random) and changes the chip where the config asks for
 *    randomness (silicon.preset: skewed), the same seed still repeating;
 *  - the fuzzers' corpora and kept crashes (tests/fuzz/corpus/TARGET and
 *    tests/fuzz/regressions/TARGET) replayed in-process through the same
 *    property checks as `make fuzz`, so a fixed crash stays fixed without
 *    clang.
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
#include <zlib.h>
#include "tests.h"
#include "testutil.h"
#include "skewsim/trace.h"

/* The fuzz targets' property checks, under names of their own (see the top
 * of each file): one definition serves libFuzzer and this replay. */
#define FUZZ_ENTRY fuzz_config_one
#include "fuzz/fuzz_config.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_trace_one
#include "fuzz/fuzz_trace.c"
#undef FUZZ_ENTRY
#define FA_ENTRY fuzz_accelsim_one
#include "fuzz/fuzz_accelsim.c"

#define BAD_DIR TEST_DATA "/bad"
#define CASES_FILE BAD_DIR "/CASES"
#define FUZZ_DIR "tests/fuzz"
#define MIXED TEST_DATA "/run/mixed.trace"   /* small, and touches every part of the model */
#define CASE_LIMIT_S 30          /* a case still running after this is killed: a hang */
#define MAX_CASES 512
#define MAX_ARGS 32

/* ------------------------------------------------------ the CASES table */

typedef struct bad_case {
    const char *name;
    int status;
    const char *args;            /* blank-separated, "@" = scratch directory */
    const char *err;             /* one line, escapes as written in CASES */
    int line;
} bad_case;

/* Parsed once when the suite is built; the strings point into cases_text.
 * Static storage, so a sanitizer build has nothing to call a leak. */
static char cases_text[1 << 17];
static bad_case cases[MAX_CASES];
static int ncases;
static char cases_problem[256];  /* why the table could not be read, "" if it could */

static char *trim(char *s)
{
    while (*s == ' ')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static void load_cases(void)
{
    FILE *f = fopen(CASES_FILE, "rb");
    if (!f) {
        snprintf(cases_problem, sizeof cases_problem, "%s: %s", CASES_FILE, strerror(errno));
        return;
    }
    size_t n = fread(cases_text, 1, sizeof cases_text - 1, f);
    int full = n == sizeof cases_text - 1;
    fclose(f);
    if (full) {
        snprintf(cases_problem, sizeof cases_problem, "%s: larger than %zu bytes", CASES_FILE,
                 sizeof cases_text - 1);
        return;
    }
    cases_text[n] = '\0';
    int lineno = 0;
    for (char *line = cases_text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        if (line[0] == '#' || trim(line)[0] == '\0')
            continue;
        char *field[4];
        field[0] = line;
        for (int i = 1; i < 4; i++) {
            char *sep = strstr(field[i - 1], " | ");
            if (!sep) {
                snprintf(cases_problem, sizeof cases_problem, "%s:%d: expected NAME | EXIT | ARGS | STDERR",
                         CASES_FILE, lineno);
                return;
            }
            *sep = '\0';
            field[i] = sep + 3;
        }
        if (ncases == MAX_CASES) {
            snprintf(cases_problem, sizeof cases_problem, "%s: more than %d cases", CASES_FILE, MAX_CASES);
            return;
        }
        bad_case *c = &cases[ncases++];
        c->name = trim(field[0]);
        c->status = atoi(field[1]);
        c->args = trim(field[2]);
        c->err = field[3];
        c->line = lineno;
    }
}

/* STDERR as bytes: "\xHH" and "\\" decoded, every "@" replaced by dir. */
static char *expand(const char *s, const char *dir, int escapes)
{
    size_t cap = strlen(s) * (strlen(dir) + 1) + 1, n = 0;
    char *out = xmalloc(cap);
    for (const char *p = s; *p; p++) {
        if (escapes && p[0] == '\\' && p[1] == '\\') {
            out[n++] = '\\';
            p++;
        } else if (escapes && p[0] == '\\' && p[1] == 'x' && p[2] && p[3]) {
            char hex[3] = {p[2], p[3], '\0'};
            out[n++] = (char)strtol(hex, NULL, 16);
            p += 3;
        } else if (*p == '@') {
            memcpy(out + n, dir, strlen(dir));
            n += strlen(dir);
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
    return out;
}

/* ----------------------------------------------------- running skewsim */

typedef struct outcome {
    int status;                  /* exit status; 128 + signal when killed */
    int timed_out;
    double seconds;
    char *out, *err;
} outcome;

static const char *skewsim_bin(void)
{
    const char *bin = getenv("SKEWSIM_BIN");
    return bin && *bin ? bin : "build/skewsim";
}

/* Run skewsim with argv (NULL-terminated, after "skewsim"), stdin from
 * /dev/null, stdout and stderr into files under `dir`, killed after
 * limit_s seconds (the alarm survives exec). */
static void run_argv(char *const *args, const char *dir, int limit_s, outcome *o)
{
    char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = (char *)skewsim_bin();
    for (; args[n - 1] && n <= MAX_ARGS; n++)
        argv[n] = args[n - 1];
    argv[n] = NULL;
    char *outp = tu_strf("%s/.stdout", dir), *errp = tu_strf("%s/.stderr", dir);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int fo = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (in < 0 || fo < 0 || fe < 0 || dup2(in, 0) < 0 || dup2(fo, 1) < 0 || dup2(fe, 2) < 0)
            _exit(126);
        alarm((unsigned)limit_s);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    o->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    o->timed_out = WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM;
    o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    ck_assert_msg(o->status != 127, "cannot run %s", argv[0]);
    o->out = tu_slurp(outp, NULL);
    o->err = tu_slurp(errp, NULL);
    remove(outp);
    remove(errp);
    free(outp);
    free(errp);
}

/* The same from a blank-separated argument string ("@" = dir). */
static void run_args(const char *args, const char *dir, int limit_s, outcome *o)
{
    char *copy = expand(args, dir, 0);
    char *argv[MAX_ARGS + 1];
    int n = 0;
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        ck_assert_msg(n < MAX_ARGS, "more than %d arguments: %s", MAX_ARGS, args);
        argv[n++] = tok;
    }
    argv[n] = NULL;
    run_argv(argv, dir, limit_s, o);
    free(copy);
}

static void outcome_free(outcome *o)
{
    free(o->out);
    free(o->err);
}

/* Files left in a directory (0 when it does not exist). */
static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;)
        n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void rm_scratch(const char *dir)
{
    char *out = tu_strf("%s/out", dir);
    tu_rmdir(out);
    free(out);
    tu_rmdir(dir);
}

/* ------------------------------------------------------ the bad corpus */

START_TEST(test_cases_table)
{
    ck_assert_msg(cases_problem[0] == '\0', "%s", cases_problem);
    ck_assert_msg(ncases >= 40, "%s: %d cases, expected at least 40", CASES_FILE, ncases);
    for (int i = 0; i < ncases; i++) {
        ck_assert_msg(cases[i].status >= 1 && cases[i].status <= 5, "%s:%d: %s: exit status %d",
                      CASES_FILE, cases[i].line, cases[i].name, cases[i].status);
        for (int j = 0; j < i; j++)
            ck_assert_msg(strcmp(cases[i].name, cases[j].name) != 0, "%s:%d: %s: name used twice",
                          CASES_FILE, cases[i].line, cases[i].name);
    }
}
END_TEST

START_TEST(test_bad_case)
{
    if (_i >= ncases)       /* the table did not load: test_cases_table says why */
        return;
    const bad_case *c = &cases[_i];
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "bad");
    outcome o;
    run_args(c->args, dir, CASE_LIMIT_S, &o);
    char *want = expand(c->err, dir, 1);
    char *want_line = tu_strf("%s\n", want);
    ck_assert_msg(!o.timed_out, "%s (CASES:%d): still running after %d s: a hang", c->name, c->line,
                  CASE_LIMIT_S);
    ck_assert_msg(o.status == c->status, "%s (CASES:%d): exit status %d, expected %d; stderr: %s", c->name,
                  c->line, o.status, c->status, o.err);
    ck_assert_msg(strcmp(o.err, want_line) == 0, "%s (CASES:%d): stderr\n  got:      %s  expected: %s",
                  c->name, c->line, o.err, want_line);
    ck_assert_msg(o.out[0] == '\0', "%s (CASES:%d): wrote to stdout: %s", c->name, c->line, o.out);
    char *out = tu_strf("%s/out", dir);
    ck_assert_msg(count_files(out) == 0, "%s (CASES:%d): a failed run left files in its output directory",
                  c->name, c->line);
    free(out);
    free(want);
    free(want_line);
    outcome_free(&o);
    rm_scratch(dir);
}
END_TEST

/* No file under tests/data/bad/ without a case that names it. */
START_TEST(test_every_file_used)
{
    DIR *d = opendir(BAD_DIR);
    ck_assert_ptr_nonnull(d);
    int nfiles = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.' || strcmp(de->d_name, "CASES") == 0)
            continue;
        nfiles++;
        char *path = tu_strf(BAD_DIR "/%s", de->d_name);
        size_t n = strlen(path);
        int used = 0;
        for (int i = 0; i < ncases && !used; i++)
            for (const char *p = cases[i].args; (p = strstr(p, path)) != NULL && !used; p += n)
                used = p[n] == '\0' || p[n] == ' ' || p[n] == '/';
        ck_assert_msg(used, "%s is used by no case of %s", path, CASES_FILE);
        free(path);
    }
    closedir(d);
    ck_assert_msg(nfiles >= 40, "%d files under %s, expected at least 40", nfiles, BAD_DIR);
}
END_TEST

/* Every status a case expects, and every status the code maps an error
 * to, has its row in README.md's "Exit status" table. */
START_TEST(test_statuses_documented)
{
    char *readme = tu_slurp("README.md", NULL);
    const char *table = strstr(readme, "## Exit status");
    ck_assert_ptr_nonnull(table);
    int documented[256] = {0};
    for (const char *p = table; (p = strstr(p, "\n| ")) != NULL; p++) {
        int st;
        if (sscanf(p, "\n| %d |", &st) == 1 && st >= 0 && st < 256)
            documented[st] = 1;
    }
    static const int codes[] = {SK_EOK, SK_EUSAGE, SK_ECONFIG, SK_ETRACE, SK_EIO, SK_EFIT, SK_ESIM, SK_ERANGE};
    for (size_t i = 0; i < SK_ARRAY_LEN(codes); i++)
        ck_assert_msg(documented[sk_exit_status(codes[i])], "%s -> exit status %d: not in README.md",
                      sk_strerror(codes[i]), sk_exit_status(codes[i]));
    ck_assert_msg(documented[5], "validate's failed criterion (5) is not in README.md");
    for (int i = 0; i < ncases; i++)
        ck_assert_msg(documented[cases[i].status], "%s: exit status %d is not in README.md", cases[i].name,
                      cases[i].status);
    free(readme);
}
END_TEST

/* -------------------------------------------------- bounded resources */

/* The kernel line is checked before anything is sized from it: 2^40 CTAs
 * fail at once, through the whole CLI, in well under a second. */
START_TEST(test_grid_2e40_fast)
{
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "bad");
    char *args[] = {"run", "-c", TU_H200, "-t", BAD_DIR "/grid_2e40.trace", "-o", NULL, NULL};
    char *out = tu_strf("%s/out", dir);
    args[6] = out;
    outcome o;
    run_argv(args, dir, CASE_LIMIT_S, &o);
    ck_assert_int_eq(o.status, 2);
    ck_assert_ptr_nonnull(strstr(o.err, "grid=1099511627776: expected 1..4294967296 CTAs"));
    ck_assert_msg(o.seconds < 1.0, "2^40 CTAs took %.3f s to refuse", o.seconds);
    outcome_free(&o);
    free(out);
    rm_scratch(dir);

    /* in-process too, and through a 2^40 range record */
    sk_error e = {0};
    kernel k;
    trace *t = trace_open_string("big", "skewsim-trace 1\nkernel k grid=1048576,1048576 block=32\n", &e);
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(trace_next_kernel(t, &k, &e), SK_ETRACE);
    ck_assert_str_eq(e.msg, "big:2:10: kernel: grid=1048576,1048576: expected 1..4294967296 CTAs "
                     "(grid=G or grid=X,Y,Z)");
    trace_close(t);
}
END_TEST

/* The largest grid the format allows streams in constant memory: 2^32 CTAs
 * of a one-line range, dispatched until sim.max_time_ns stops the run. */
START_TEST(test_grid_2e32_time_bound)
{
    cfg c;
    tu_cfg(&c, TU_H200, "sim: {max_time_ns: 20000}\n", NULL);
    tu_run run;
    const char *text = "skewsim-trace 1\nkernel k grid=4294967296 block=32 regs=16\n"
                       "program main\n  loop 100\n    FFMA R1 <- R1\n  end\n  EXIT\nend\n"
                       "ctas\n  range 0 4294967295 work=1\nend\nendkernel\n";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ck_assert_int_eq(tu_simulate(&run, &c, text), SK_ESIM);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ck_assert_str_eq(run.e.msg, "kernel k: simulated time passed sim.max_time_ns=20000");
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    ck_assert_msg(s < 10.0, "stopping a 2^32-CTA grid at 20 us took %.1f s", s);
    tu_run_free(&run);
}
END_TEST

/* A work-scaled loop of round(N * work) >= 2^32 iterations runs that many
 * (here: until the time bound), not that count modulo 2^32. */
START_TEST(test_work_scaled_count_not_wrapped)
{
    cfg c;
    tu_cfg(&c, NULL, TU_TINY_YAML, "sim: {max_time_ns: 100000}\n", NULL);
    tu_run run;
    /* 1431655766 * 3 = 2^32 + 2: modulo 2^32 that would be 2 iterations */
    const char *text = "skewsim-trace 1\nkernel wrap grid=1 block=32\nprogram main\n"
                       "  loop 1431655766 work\n    FFMA R1 <- R1\n  end\n  EXIT\nend\n"
                       "ctas\n  cta 0 work=3\nend\nendkernel\n";
    ck_assert_int_eq(tu_simulate(&run, &c, text), SK_ESIM);
    ck_assert_str_eq(run.e.msg, "kernel wrap: simulated time passed sim.max_time_ns=100000");
    tu_run_free(&run);
}
END_TEST

/* -------------------------------------------------------- determinism */

static char *slurp_rel(const char *dir, const char *name)
{
    char *p = tu_strf("%s/%s", dir, name);
    char *s = tu_slurp(p, NULL);
    free(p);
    return s;
}

/* summary.json without its "seed" line, which reports --seed itself. */
static char *without_seed(const char *json)
{
    char *s = xstrdup(json);
    char *p = strstr(s, "\"seed\":");
    ck_assert_ptr_nonnull(p);
    char *eol = strchr(p, '\n');
    ck_assert_ptr_nonnull(eol);
    memmove(p, eol, strlen(eol) + 1);
    return s;
}

typedef struct run_files {
    char *summary, *ctas, *stdout_text;
} run_files;

/* skewsim run -c h200 -t TRACE -o DIR/SUB --seed SEED [--set SET]. */
static void run_once(const char *dir, const char *sub, const char *trace_path, const char *seed, const char *set,
                     run_files *f)
{
    char *out = tu_strf("%s/%s", dir, sub);
    char *args[] = {"run", "-c", TU_H200, "-t", (char *)trace_path, "-o", out, "--seed", (char *)seed,
                    set ? "--set" : NULL, (char *)set, NULL};
    outcome o;
    run_argv(args, dir, CASE_LIMIT_S, &o);
    ck_assert_msg(o.status == 0, "run %s --seed %s: status %d: %s", trace_path, seed, o.status, o.err);
    ck_assert_str_eq(o.err, "");
    f->summary = slurp_rel(out, "summary.json");
    f->ctas = slurp_rel(out, "ctas.csv");
    f->stdout_text = o.out;
    free(o.err);
    tu_rmdir(out);
    free(out);
}

static void run_files_free(run_files *f)
{
    free(f->summary);
    free(f->ctas);
    free(f->stdout_text);
}

START_TEST(test_deterministic_processes)
{
    char dir[128];
    tu_mkdtemp(dir, sizeof dir, "det");
    run_files a, b, z, s2, s3;
    run_once(dir, "a", MIXED, "1", NULL, &a);
    run_once(dir, "b", MIXED, "1", NULL, &b);
    ck_assert_msg(strcmp(a.summary, b.summary) == 0, "summary.json differs between two identical runs");
    ck_assert_msg(strcmp(a.ctas, b.ctas) == 0, "ctas.csv differs between two identical runs");
    ck_assert_str_eq(a.stdout_text, b.stdout_text);

    /* the same trace gzip'd: the same results */
    char *gz = tu_strf("%s/mixed.trace.gz", dir);
    char *text = tu_slurp(MIXED, NULL);
    gzFile g = gzopen(gz, "wb9");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(gzputs(g, text), (int)strlen(text));
    ck_assert_int_eq(gzclose(g), Z_OK);
    run_once(dir, "z", gz, "1", NULL, &z);
    ck_assert_msg(strcmp(a.ctas, z.ctas) == 0, "ctas.csv differs between the plain and the gzip'd trace");
    ck_assert_msg(strcmp(a.summary, z.summary) == 0, "summary.json differs between plain and gzip'd trace");
    remove(gz);

    /* Other seeds: only the reported seed changes, because nothing in the
     * H200 config draws from sim.seed (silicon.preset is uniform). */
    run_once(dir, "s2", MIXED, "2", NULL, &s2);
    run_once(dir, "s3", MIXED, "18446744073709551615", NULL, &s3);
    ck_assert_msg(strcmp(a.summary, s2.summary) != 0, "summary.json does not report the seed");
    char *n1 = without_seed(a.summary), *n2 = without_seed(s2.summary), *n3 = without_seed(s3.summary);
    ck_assert_msg(strcmp(n1, n2) == 0 && strcmp(n1, n3) == 0, "summary.json depends on --seed");
    ck_assert_msg(strcmp(a.ctas, s2.ctas) == 0 && strcmp(a.ctas, s3.ctas) == 0, "ctas.csv depends on --seed");
    ck_assert_ptr_nonnull(strstr(s3.summary, "\"seed\": 18446744073709551615"));

    /* Where the seed is used (the skewed variation map draws every SM's
     * threshold voltage from it), the same seed still repeats byte for
     * byte and another seed gives another chip. */
    run_files v1, v2, w;
    run_once(dir, "v1", MIXED, "5", "silicon.preset=skewed", &v1);
    run_once(dir, "v2", MIXED, "5", "silicon.preset=skewed", &v2);
    run_once(dir, "w", MIXED, "6", "silicon.preset=skewed", &w);
    ck_assert_msg(strcmp(v1.summary, v2.summary) == 0 && strcmp(v1.ctas, v2.ctas) == 0,
                  "a skewed chip differs between two runs with the same seed");
    char *nv = without_seed(v1.summary), *nw = without_seed(w.summary);
    ck_assert_msg(strcmp(nv, nw) != 0, "a skewed chip does not depend on the seed");
    free(nv);
    free(nw);
    run_files_free(&v1);
    run_files_free(&v2);
    run_files_free(&w);

    free(n1);
    free(n2);
    free(n3);
    free(text);
    free(gz);
    run_files_free(&a);
    run_files_free(&b);
    run_files_free(&z);
    run_files_free(&s2);
    run_files_free(&s3);
    tu_rmdir(dir);
}
END_TEST

/* -------------------------------------- fuzz corpora and regressions */

START_TEST(test_replay_config)
{
    int seeds = tu_replay_dir(FUZZ_DIR "/corpus/config", fuzz_config_one);
    tu_replay_dir(FUZZ_DIR "/regressions/config", fuzz_config_one);
    ck_assert_int_gt(seeds, 10);
    static const char *const inline_inputs[] = {"", "\xff", "sm: {", "a\nb=c\nsm.max_ctas=0\n"};
    for (size_t i = 0; i < SK_ARRAY_LEN(inline_inputs); i++)
        fuzz_config_one((const uint8_t *)inline_inputs[i], strlen(inline_inputs[i]));
}
END_TEST

START_TEST(test_replay_trace)
{
    int seeds = tu_replay_dir(FUZZ_DIR "/corpus/trace", fuzz_trace_one);
    tu_replay_dir(FUZZ_DIR "/regressions/trace", fuzz_trace_one);
    ck_assert_int_gt(seeds, 10);
    /* the bad corpus's traces go through the same checks */
    tu_replay_dir(BAD_DIR, fuzz_trace_one);
}
END_TEST

START_TEST(test_replay_accelsim)
{
    int seeds = tu_replay_dir(FUZZ_DIR "/corpus/accelsim", fuzz_accelsim_one);
    tu_replay_dir(FUZZ_DIR "/regressions/accelsim", fuzz_accelsim_one);
    ck_assert_int_gt(seeds, 10);
}
END_TEST

Suite *bad_suite(void)
{
    load_cases();
    Suite *s = suite_create("bad");
    TCase *tc = tcase_create("corpus");
    tcase_set_timeout(tc, CASE_LIMIT_S + 10);
    tcase_add_test(tc, test_cases_table);
    tcase_add_loop_test(tc, test_bad_case, 0, ncases > 0 ? ncases : 1);
    tcase_add_test(tc, test_every_file_used);
    tcase_add_test(tc, test_statuses_documented);
    suite_add_tcase(s, tc);

    tc = tcase_create("bounds");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_grid_2e40_fast);
    tcase_add_test(tc, test_grid_2e32_time_bound);
    tcase_add_test(tc, test_work_scaled_count_not_wrapped);
    suite_add_tcase(s, tc);

    tc = tcase_create("determinism");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_deterministic_processes);
    suite_add_tcase(s, tc);

    tc = tcase_create("fuzz-replay");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_replay_config);
    tcase_add_test(tc, test_replay_trace);
    tcase_add_test(tc, test_replay_accelsim);
    suite_add_tcase(s, tc);
    return s;
}
