/* cmd_compare.c -- `skewsim compare -c CONFIG -t TRACE... --cta-policies a,b
 * --warp-policies x,y --silicon uniform,skewed[,file:F] --seeds N [-j J]
 * [--baseline NAME] -o DIR`: the command line of compare_run()
 * (src/compare/compare.c, docs/schedulers.md).  It parses, calls the
 * library once, prints and picks the exit status (those of `sweep`). */
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "skewsim/compare.h"
#include "skewsim/sweep.h"

#define COMPARE_USAGE                                                                              \
    "expected -c CONFIG -t TRACE... --cta-policies A,B --warp-policies X,Y "                       \
    "--silicon uniform,skewed[,file:F] --seeds N [-j J] [--baseline CTA/WARP/SILICON] -o DIR"

/* Split a comma list into *v (pointers into the caller's copy s). */
static int split(char *s, const char **v, size_t cap, size_t *n)
{
    *n = 0;
    for (char *p = s;;) {
        char *c = strchr(p, ',');
        if (c)
            *c = 0;
        if (*n == cap || !*p)
            return -1;
        v[(*n)++] = p;
        if (!c)
            return 0;
        p = c + 1;
    }
}

int cmd_compare(int argc, char **argv)
{
    compare_opts o;
    memset(&o, 0, sizeof o);
    o.jobs = 1;
    o.stop = cli_stop_flag();
    o.out = stdout;
    sk_error e = {0};
    const char *traces[COMPARE_MAX_ITEMS], *cta[COMPARE_MAX_ITEMS], *wpol[COMPARE_MAX_ITEMS],
        *sil[COMPARE_MAX_ITEMS];
    char *lists[3] = {NULL, NULL, NULL};
    int status = 0, seeds_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("usage: skewsim compare -c CONFIG -t TRACE [-t TRACE ...] --cta-policies A,B\n"
                   "         --warp-policies X,Y --silicon uniform,skewed[,file:MAP] --seeds N\n"
                   "         [-j J] [--baseline CTA/WARP/SILICON] [--timeline [--timeline-max-events N]] -o DIR\n\n"
                   "Run every combination over seeds 1..N as a sweep (DIR/runs), then print per kernel\n"
                   "time mean/median/p99/sd, speedup against the baseline (default: the first\n"
                   "combination) with its 95%% interval, imbalance, tail and barrier wait; writes\n"
                   "DIR/compare.csv and DIR/compare.json (docs/schedulers.md).  --timeline: every point\n"
                   "also writes timeline.json beside its results (run --timeline).\n");
            goto out;
        } else if (!strcmp(a, "-c") && has) {
            o.config = argv[++i];
        } else if (!strcmp(a, "-o") && has) {
            o.dir = argv[++i];
        } else if (!strcmp(a, "-t") && has) {
            if (o.ntraces == COMPARE_MAX_ITEMS) {
                sk_errorf(&e, SK_EUSAGE, "compare: -t: expected at most %d traces", COMPARE_MAX_ITEMS);
                status = cli_fail(&e);
                goto out;
            }
            traces[o.ntraces++] = argv[++i];
        } else if ((!strcmp(a, "--cta-policies") || !strcmp(a, "--warp-policies") || !strcmp(a, "--silicon")) &&
                   has) {
            int which = a[2] == 'c' ? 0 : a[2] == 'w' ? 1 : 2;
            const char **v = which == 0 ? cta : which == 1 ? wpol : sil;
            size_t *n = which == 0 ? &o.ncta : which == 1 ? &o.nwarp : &o.nsilicon;
            free(lists[which]);
            lists[which] = xstrdup(argv[++i]);
            if (split(lists[which], v, COMPARE_MAX_ITEMS, n) < 0) {
                sk_errorf(&e, SK_EUSAGE, "compare: %s %s: expected a comma-separated list of at most %d names, "
                          "none empty", a, argv[i], COMPARE_MAX_ITEMS);
                status = cli_fail(&e);
                goto out;
            }
        } else if (!strcmp(a, "--seeds") && has) {
            long v;
            if (cli_parse_uint(argv[++i], COMPARE_MAX_SEEDS, &v) < 0 || v < 1) {
                sk_errorf(&e, SK_EUSAGE, "compare: --seeds %s: expected an integer in 1..%d", argv[i],
                          COMPARE_MAX_SEEDS);
                status = cli_fail(&e);
                goto out;
            }
            o.seeds = (int)v;
            seeds_given = 1;
        } else if (!strcmp(a, "-j") && has) {
            long v;
            if (cli_parse_uint(argv[++i], SWEEP_MAX_JOBS, &v) < 0) {
                sk_errorf(&e, SK_EUSAGE, "compare: -j %s: expected an integer in 0..%d (0: one per online CPU)",
                          argv[i], SWEEP_MAX_JOBS);
                status = cli_fail(&e);
                goto out;
            }
            o.jobs = (int)v;
        } else if (!strcmp(a, "--baseline") && has) {
            o.baseline = argv[++i];
        } else if (!strcmp(a, "--timeline")) {
            o.timeline = 1;           /* every point writes timeline.json, as sweep --timeline */
            if (!o.timeline_max_events)
                o.timeline_max_events = 1000000;
        } else if (!strcmp(a, "--timeline-max-events") && has) {
            long v;
            if (cli_parse_uint(argv[++i], LONG_MAX, &v) < 0 || v < 1) {
                sk_errorf(&e, SK_EUSAGE, "compare: --timeline-max-events %s: expected an integer in 1..%ld",
                          argv[i], LONG_MAX);
                status = cli_fail(&e);
                goto out;
            }
            o.timeline_max_events = (uint64_t)v;
        } else {
            int takes = a[0] == '-' && (!strcmp(a, "-c") || !strcmp(a, "-o") || !strcmp(a, "-t") ||
                                        !strcmp(a, "-j") || !strcmp(a, "--seeds") || !strcmp(a, "--baseline") ||
                                        !strcmp(a, "--cta-policies") || !strcmp(a, "--warp-policies") ||
                                        !strcmp(a, "--silicon") || !strcmp(a, "--timeline-max-events"));
            sk_errorf(&e, SK_EUSAGE, "compare: %s: %s: " COMPARE_USAGE, a,
                      takes ? "missing value" : a[0] == '-' ? "unknown option" : "unexpected argument");
            status = cli_fail(&e);
            goto out;
        }
    }
    o.traces = traces;
    o.cta = cta;
    o.warp = wpol;
    o.silicon = sil;
    if (!o.config || !o.ntraces || !o.ncta || !o.nwarp || !o.nsilicon || !seeds_given || !o.dir) {
        const char *m = !o.config ? "-c CONFIG" : !o.ntraces ? "-t TRACE" : !o.ncta ? "--cta-policies"
                        : !o.nwarp ? "--warp-policies" : !o.nsilicon ? "--silicon" : !seeds_given ? "--seeds"
                                                                                      : "-o DIR";
        sk_errorf(&e, SK_EUSAGE, "compare: missing %s: " COMPARE_USAGE, m);
        status = cli_fail(&e);
        goto out;
    }
    if (compare_check(&o, &e) < 0) {
        status = cli_fail(&e);
        goto out;
    }
    cli_catch_stop_signals();
    compare_outcome r;
    if (compare_run(&o, &r, &e) != 0) {
        fflush(stdout);
        status = cli_fail(&e);
        goto out;
    }
    if (r.signal) {
        fflush(stdout);
        fprintf(stderr, "skewsim: compare: stopped by signal %d: finished points kept; run it again to resume\n",
                r.signal);
        status = 128 + r.signal;
    } else if (r.failed) {
        fflush(stdout);
        fprintf(stderr, "skewsim: compare: %zu of %zu points failed (see %s/runs/sweep.csv)\n", r.failed,
                r.npoints, o.dir);
        status = 6;                 /* as sweep: README.md, "Exit status" */
    }
out:
    for (int k = 0; k < 3; k++)
        free(lists[k]);
    return status;
}
