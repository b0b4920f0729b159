/* check_main.c -- the one test runner: every module's suite, any failure
 * fails the run (and so `make check`).
 *
 * SKEWSIM_TEST_JOBS=N (make check sets it to the machine's cores) runs the
 * suites in N worker processes that take them one at a time from a queue,
 * the longest first.  Each suite's report goes to a file of its own, and the
 * reports are printed in the suites' order once all have run, so that the
 * output is the same whatever N is. 1 (the default) runs them all in this
 * process, as one runner, and so does any N while one of Check's log files
 * (CK_LOG_FILE_NAME, CK_XML_LOG_FILE_NAME, CK_TAP_LOG_FILE_NAME) is asked
 * for: each runner would write that file over the others'. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <check.h>
#include "tests.h"

#define MAX_JOBS 1024   /* accepted; more runners than suites are not started */

/* One suite's outcome, written by a worker to the results pipe (smaller
 * than PIPE_BUF, so one write is never interleaved with another's). */
typedef struct {
    int idx, ran, failed;
} result;

/* Every module's suite, with its time in seconds in the plain build (the
 * XML log of `CK_XML_LOG_FILE_NAME=... build/check_skewsim`, 2 cores,
 * 2026-12-06; 128 s in all, cli's validate tests 61 of them):
 * only the order the parallel runner hands them out in depends on it. */
static const struct {
    const char *name;
    Suite *(*make)(void);
    int secs;
} suite_table[] = {
    {"event", event_suite, 0},       {"config", config_suite, 0},   {"program", program_suite, 0},
    {"trace", trace_suite, 1},       {"gen", gen_suite, 0},         {"dispatch", dispatch_suite, 0},
    {"sm", sm_suite, 1},             {"sim", sim_suite, 2},         {"cli", cli_suite, 61},
    {"silicon", silicon_suite, 9},   {"golden", golden_suite, 1},   {"accelsim", accelsim_suite, 1},
    {"bad", bad_suite, 6},           {"sass", sass_suite, 0},       {"sweep", sweep_suite, 10},
    {"stats", stats_suite, 0},       {"hpc", hpc_suite, 12},         {"mem", mem_suite, 5},
    {"plot", plot_suite, 4},         {"tutorial", tutorial_suite, 0}, {"timeline", timeline_suite, 0},
    {"explain", explain_suite, 0},   {"zoo", zoo_suite, 1},         {"topo", topo_suite, 14},
    {"streams", streams_suite, 2},
};
#define NSUITES ((int)(sizeof suite_table / sizeof suite_table[0]))

/* The runner's own check (tests/runner-selftest.sh): SKEWSIM_TEST_INJECT=
 * fail adds a suite whose one test fails, =die one whose test kills the
 * worker running it (under fork mode, the test's parent), =pass one that
 * passes.  Either of the first two must fail the whole run. */
static const char *inject_mode(void)
{
    const char *v = getenv("SKEWSIM_TEST_INJECT");
    return v && *v ? v : NULL;
}

START_TEST(test_inject)
{
    const char *m = inject_mode();
    /* the worker: this test's parent under fork mode, else itself */
    const char *fork_mode = getenv("CK_FORK");
    if (!strcmp(m, "die")) {
        if (fork_mode && !strcmp(fork_mode, "no"))
            raise(SIGKILL);
        else if (getppid() > 1)
            kill(getppid(), SIGKILL);
    }
    ck_assert_msg(strcmp(m, "fail") != 0, "injected failure (SKEWSIM_TEST_INJECT=fail)");
}
END_TEST

static Suite *inject_suite(void)
{
    Suite *s = suite_create("inject");
    TCase *tc = tcase_create("inject");
    tcase_add_test(tc, test_inject);
    suite_add_tcase(s, tc);
    return s;
}

/* SKEWSIM_TEST_JOBS: 1 when unset; 0 after printing an error when bad. */
static int jobs_from_env(void)
{
    const char *v = getenv("SKEWSIM_TEST_JOBS");
    if (!v || !*v)
        return 1;
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || n < 1 || n > MAX_JOBS) {
        fprintf(stderr, "check_skewsim: SKEWSIM_TEST_JOBS: bad value '%s': expected a whole number 1-%d\n", v,
                MAX_JOBS);
        return 0;
    }
    return (int)n;
}

/* A worker: run each suite whose index it reads from q, its report into
 * DIR/IDX.out, and send what came of it on r. */
static void worker(Suite **suites, int q, int r, const char *dir)
{
    unsigned char b;
    ssize_t got;
    while ((got = read(q, &b, 1)) == 1 || (got < 0 && errno == EINTR)) {
        if (got != 1)
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%03u.out", dir, (unsigned)b);
        fflush(stdout);
        fflush(stderr);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(3);
        close(fd);
        SRunner *sr = srunner_create(suites[b]);
        srunner_run_all(sr, CK_NORMAL);
        result res = {b, srunner_ntests_run(sr), srunner_ntests_failed(sr)};
        srunner_free(sr);
        fflush(stdout);
        fflush(stderr);
        if (write(r, &res, sizeof res) != (ssize_t)sizeof res)
            _exit(3);
    }
    _exit(0);
}

static int run_parallel(Suite **suites, int n, const int *order, int jobs)
{
    char dir[] = "/tmp/skewsim-check-XXXXXX";
    int q[2], r[2];
    if (!mkdtemp(dir) || pipe(q) || pipe(r)) {
        perror("check_skewsim");
        return EXIT_FAILURE;
    }
    for (int i = 0; i < n; i++) {
        unsigned char b = (unsigned char)order[i];
        if (write(q[1], &b, 1) != 1) {
            perror("check_skewsim: queue");
            return EXIT_FAILURE;
        }
    }
    close(q[1]);
    fflush(stdout);
    fflush(stderr);
    pid_t pid[MAX_JOBS];
    for (int j = 0; j < jobs; j++) {
        pid[j] = fork();
        if (pid[j] < 0) {
            perror("check_skewsim: fork");
            return EXIT_FAILURE;
        }
        if (pid[j] == 0) {
            close(r[0]);
            worker(suites, q[0], r[1], dir);
        }
    }
    close(q[0]);
    close(r[1]);
    result got[NSUITES];
    int have[NSUITES] = {0};
    result res;
    ssize_t k;
    while ((k = read(r[0], &res, sizeof res)) == (ssize_t)sizeof res || (k < 0 && errno == EINTR))
        if (k == (ssize_t)sizeof res && res.idx >= 0 && res.idx < n) {
            got[res.idx] = res;
            have[res.idx] = 1;
        }
    close(r[0]);
    int bad_worker = 0;
    for (int j = 0; j < jobs; j++) {
        int st;
        if (waitpid(pid[j], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            bad_worker = 1;
    }
    int ran = 0, failed = 0, missing = 0;
    for (int i = 0; i < n; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%03d.out", dir, i);
        /* a suite CK_RUN_SUITE left out ran nothing: no report */
        FILE *f = fopen(path, "r");
        if (f && (!have[i] || got[i].ran > 0)) {
            char buf[4096];
            size_t m;
            while ((m = fread(buf, 1, sizeof buf, f)) > 0)
                fwrite(buf, 1, m, stdout);
        }
        if (f)
            fclose(f);
        remove(path);
        if (!have[i]) {
            printf("check_skewsim: suite %d (%s) did not report: its worker died\n", i,
                   n == NSUITES ? suite_table[i].name : "inject");
            missing++;
            continue;
        }
        ran += got[i].ran;
        failed += got[i].failed;
    }
    rmdir(dir);
    printf("All suites: Checks: %d, Failures: %d, %d suite(s) missing (%d runner(s))\n", ran, failed, missing, jobs);
    return failed == 0 && missing == 0 && !bad_worker ? EXIT_SUCCESS : EXIT_FAILURE;
}

int main(void)
{
    int jobs = jobs_from_env();
    if (!jobs)
        return 2;
    static const char *const logs[] = {"CK_LOG_FILE_NAME", "CK_XML_LOG_FILE_NAME", "CK_TAP_LOG_FILE_NAME"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++)
        if (getenv(logs[i]) && *getenv(logs[i]))
            jobs = 1;
    const char *inj = inject_mode();
    if (inj && strcmp(inj, "fail") && strcmp(inj, "die") && strcmp(inj, "pass")) {
        fprintf(stderr, "check_skewsim: SKEWSIM_TEST_INJECT: bad value '%s': expected fail, die or pass\n", inj);
        return 2;
    }
    /* with an injection, its suite alone (placed first in the queue) */
    int n = inj ? 1 : NSUITES;
    Suite *suites[NSUITES];
    if (inj)
        suites[0] = inject_suite();
    else
        for (int i = 0; i < NSUITES; i++)
            suites[i] = suite_table[i].make();
    if (jobs == 1) {
        SRunner *sr = srunner_create(suites[0]);
        for (int i = 1; i < n; i++)
            srunner_add_suite(sr, suites[i]);
        srunner_run_all(sr, CK_NORMAL);
        int failed = srunner_ntests_failed(sr);
        srunner_free(sr);
        return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
    }
    /* the longest first (a stable insertion sort by secs), so that no
     * runner is left with a long one at the end */
    int order[NSUITES];
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && !inj && suite_table[order[j - 1]].secs < suite_table[i].secs) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    int rc = run_parallel(suites, n, order, jobs < n ? jobs : n);
    /* the workers ran (and freed) their copies; free this process's */
    SRunner *sr = srunner_create(suites[0]);
    for (int i = 1; i < n; i++)
        srunner_add_suite(sr, suites[i]);
    srunner_free(sr);
    return rc;
}
