/* compare.h -- `skewsim compare`: a matrix of CTA policies x warp policies
 * x silicon, over N seeds, for a set of traces, and the statistics a study
 * reports per kernel (docs/schedulers.md, "compare").
 *
 * The matrix runs through the sweep engine (sweep.h): compare writes the
 * spec DIR/compare.yaml (one case per combination, named
 * "CTA/WARP/SILICON", seeds 1..N), runs it into DIR/runs (so it resumes and
 * is byte-identical across -j exactly as a sweep is), then reads each
 * point's summary.json and writes DIR/compare.csv and DIR/compare.json
 * (temporary name, then rename).  Statistics come from stats.h.
 */
#ifndef SKEWSIM_COMPARE_H
#define SKEWSIM_COMPARE_H

#include <signal.h>
#include <stdio.h>
#include "skewsim/common.h"

#define COMPARE_MAX_ITEMS 64      /* policies, silicon variants, traces: each at most this */
#define COMPARE_MAX_SEEDS 1000

typedef struct compare_opts {
    const char *config;           /* the chip config */
    const char *const *traces;    /* trace paths */
    size_t ntraces;
    const char *const *cta;       /* dispatch.policy values */
    size_t ncta;
    const char *const *warp;      /* sm.warp_policy values */
    size_t nwarp;
    const char *const *silicon;   /* "uniform", "skewed" or "file:PATH" */
    size_t nsilicon;
    int seeds;                    /* seeds 1..seeds */
    int jobs;                     /* as sweep_opts.jobs */
    const char *baseline;         /* a combination's name; NULL: the first */
    int timeline;                 /* each point also writes timeline.json (sweep_opts.timeline) */
    uint64_t timeline_max_events; /* its bound, as sweep_opts */
    const char *dir;
    const volatile sig_atomic_t *stop;
    FILE *out;                    /* the tables; NULL: stdout */
} compare_opts;

typedef struct compare_outcome {
    size_t npoints, failed;
    int signal;
} compare_outcome;

/* Check the options without running anything: every policy and silicon
 * value is one the config accepts, names are unique, the baseline is one
 * of the combinations.  0 or SK_EUSAGE with *e filled. */
int compare_check(const compare_opts *o, sk_error *e);

/* Run the comparison.  0 (points may have failed: *out says; the tables
 * then cover only kernels every point of the trace finished) or a negative
 * SK_E* code. */
int compare_run(const compare_opts *o, compare_outcome *out, sk_error *e);

#endif
