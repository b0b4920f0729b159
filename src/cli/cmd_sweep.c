/* cmd_sweep.c -- `skewsim sweep SPEC -o DIR [-j N] [--shard K/N] [--force]
 * [--collect] [--list]`: the command line of the sweep engine (sweep_run(),
 * src/sweep/engine.c, which says how a sweep runs, resumes and stops):
 * the arguments, the SIGINT/SIGTERM handler and its flag, the closing
 * messages and the exit status (README.md, "Exit status"). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/sweep.h"
#include "skewsim/sweep_hpc.h"

#define SWEEP_EXIT_FAILED 6        /* README.md, "Exit status" */

#define SWEEP_OPTS "[-j N] [--shard K/N] [--force] [--collect] [--list] [--quiet] [--reuse-across-versions] " \
    "[--timeline [--timeline-max-events N]] " SWEEP_SLURM_USAGE
#define SWEEP_USAGE "expected SPEC -o DIR " SWEEP_OPTS

static int parse_shard(const char *s, int *k, int *n)
{
    const char *slash = strchr(s, '/');
    long kk, nn;
    if (!slash || slash == s)
        return -1;
    char *ks = strndup(s, (size_t)(slash - s));
    int rc = cli_parse_uint(ks, 1000000, &kk) || cli_parse_uint(slash + 1, 1000000, &nn) || nn < 1 || kk >= nn;
    free(ks);
    if (rc)
        return -1;
    *k = (int)kk;
    *n = (int)nn;
    return 0;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_opts o;
    int timeline_max_given = 0;
    memset(&o, 0, sizeof o);
    o.jobs = 1;
    o.shard_n = 1;
    o.stop = cli_stop_flag();
    o.out = stdout;
    o.progress = stderr;
    o.progress_tty = -1;
    sweep_slurm_opts so;
    sweep_slurm_opts_init(&so);
    o.slurm = &so;
    sk_error e = {0};
    int status = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: skewsim sweep SPEC -o DIR " SWEEP_OPTS "\n\n"
                   "--slurm submits the sweep as a Slurm array job and a collect job after it\n"
                   "(docs/hpc.md); --dry-run prints the scripts instead.  --timeline: each point also writes\n"
                   "timeline.json (run --timeline).\n\n"
                   "SPEC keys (docs/sweeps.md):\n");
            sweep_spec_help(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && has) {
            o.dir = argv[++i];
        } else if (!strcmp(a, "-j") && has) {
            long j;
            const char *v = argv[++i];
            if (cli_parse_uint(v, SWEEP_MAX_JOBS, &j) < 0) {
                sk_errorf(&e, SK_EUSAGE, "sweep: -j %s: expected an integer in 0..%d (0: one per online CPU)",
                          v, SWEEP_MAX_JOBS);
                return cli_fail(&e);
            }
            o.jobs = (int)j;
        } else if (!strcmp(a, "--shard") && has) {
            const char *v = argv[++i];
            if (parse_shard(v, &o.shard_k, &o.shard_n) < 0) {
                sk_errorf(&e, SK_EUSAGE, "sweep: --shard %s: expected K/N with 0 <= K < N (N at most 1000000)", v);
                return cli_fail(&e);
            }
        } else if (!strcmp(a, "--force")) {
            o.force = 1;
        } else if (!strcmp(a, "--collect")) {
            o.collect = 1;
        } else if (!strcmp(a, "--list")) {
            o.list = 1;
        } else if (!strcmp(a, "--timeline")) {
            o.timeline = 1;
            if (!o.timeline_max_events)
                o.timeline_max_events = 1000000;   /* as run --timeline */
        } else if (!strcmp(a, "--timeline-max-events") && has) {
            const char *v = argv[++i];
            char *end;
            errno = 0;
            unsigned long long n = strtoull(v, &end, 10);
            if (!*v || *v == '-' || *end || errno || n == 0) {
                sk_errorf(&e, SK_EUSAGE, "sweep: --timeline-max-events %s: expected an integer in "
                          "1..18446744073709551615", v);
                return cli_fail(&e);
            }
            o.timeline_max_events = n;
            timeline_max_given = 1;
        } else if (!strcmp(a, "--quiet")) {
            o.quiet = 1;
        } else if (!strcmp(a, "--reuse-across-versions")) {
            o.reuse_across_versions = 1;
        } else if (a[0] == '-' && a[1] && a[1] == '-' && (status = sweep_slurm_opt(&so, argc, argv, &i, &e)) != 0) {
            if (status < 0)
                return cli_fail(&e);
            status = 0;
        } else if (a[0] == '-' && a[1]) {
            int takes = !strcmp(a, "-o") || !strcmp(a, "-j") || !strcmp(a, "--shard") ||
                        !strcmp(a, "--timeline-max-events");
            sk_errorf(&e, SK_EUSAGE, "sweep: %s: %s: " SWEEP_USAGE, a, takes ? "missing value" : "unknown option");
            return cli_fail(&e);
        } else if (o.spec) {
            sk_errorf(&e, SK_EUSAGE, "sweep: %s: a second spec: " SWEEP_USAGE, a);
            return cli_fail(&e);
        } else {
            o.spec = a;
        }
    }
    if (!o.spec || (!o.dir && !o.list)) {
        sk_errorf(&e, SK_EUSAGE, "sweep: missing %s: " SWEEP_USAGE, !o.spec ? "SPEC" : "-o DIR");
        return cli_fail(&e);
    }
    if (timeline_max_given && !o.timeline) {
        sk_errorf(&e, SK_EUSAGE, "sweep: --timeline-max-events: expected --timeline with it");
        return cli_fail(&e);
    }
    if (!so.on && (so.dry_run || so.partition || so.mem || so.time_s != 7200 || so.cpus != 8 ||
                   so.array_max != 1000)) {
        sk_errorf(&e, SK_EUSAGE, "sweep: --dry-run, --partition, --time, --array-max, --cpus and --mem go with "
                  "--slurm");
        return cli_fail(&e);
    }
    if (so.on && (o.force || o.collect || o.list || o.shard_n > 1)) {
        sk_errorf(&e, SK_EUSAGE, "sweep: --slurm: expected no %s with it (the array shards the sweep itself; "
                  "resubmitting skips done points)",
                  o.force ? "--force" : o.collect ? "--collect" : o.list ? "--list" : "--shard");
        return cli_fail(&e);
    }
    if (o.collect && (o.force || o.list)) {
        sk_errorf(&e, SK_EUSAGE, "sweep: --collect: runs nothing: expected no --force or --list with it");
        return cli_fail(&e);
    }
    if (!o.collect && !o.list && !so.on)
        cli_catch_stop_signals();
    sweep_outcome r;
    if (sweep_run(&o, &r, &e) != 0) {
        fflush(stdout);
        return cli_fail(&e);
    }
    if (o.list || r.slurm)
        return 0;
    if (o.collect) {
        printf("sweep: %zu points: %zu done, %zu failed, %zu not done\n", r.npoints,
               r.npoints - r.missing - r.not_ok, r.not_ok, r.missing);
        if (r.missing || r.not_ok) {
            fflush(stdout);
            if (r.missing)
                fprintf(stderr, "skewsim: sweep: %zu of %zu points not done: %s\n", r.missing, r.npoints,
                        r.missing_list);
            else
                fprintf(stderr, "skewsim: sweep: %zu of %zu points failed (see %s/sweep.csv)\n", r.not_ok,
                        r.npoints, o.dir);
            status = SWEEP_EXIT_FAILED;
        }
        return status;
    }
    printf("sweep: %zu points%s: %zu run, %zu already done, %zu failed\n", r.npoints,
           o.shard_n > 1 ? " (this shard's)" : "", r.run, r.skipped, r.failed);
    if (r.signal) {
        fflush(stdout);
        fprintf(stderr, "skewsim: sweep: stopped by signal %d: finished points kept; run it again to resume\n",
                r.signal);
        status = 128 + r.signal;
    } else if (r.failed) {
        fflush(stdout);
        fprintf(stderr, "skewsim: sweep: %zu of %zu points failed (see %s/sweep.csv)\n", r.failed,
                r.run + r.skipped, o.dir);
        status = SWEEP_EXIT_FAILED;
    }
    return status;
}
