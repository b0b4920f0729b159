/* run.c -- the run entry points (run.h): open a trace, simulate it on a
 * config into an output directory or into memory.  Moved out of the
 * command line (issue 9) so that `run`, `sweep`, `validate`, the tests and
 * bench share one library call. */
#include <stdio.h>
#include <stdlib.h>
#include "skewsim/run.h"
#include "skewsim/sim.h"

trace *run_open_trace(const char *tpath, const char *sass_path, sass **listing, sk_error *e)
{
    *listing = NULL;
    trace *tr = trace_open(tpath, e);
    if (!tr || !sass_path)
        return tr;
    *listing = sass_load(sass_path, e);
    if (!*listing || trace_set_sass(tr, *listing, sass_path, e) < 0) {
        trace_close(tr);
        sass_free(*listing);
        *listing = NULL;
        return NULL;
    }
    return tr;
}

results *run_simulate(const cfg *c, trace *tr, sk_error *e)
{
    results *r = results_open(NULL, e);
    if (!r)
        return NULL;
    sim_sink obs = results_sink(r);
    sim *s = sim_create(c, &obs, 1, e);
    int rc = s ? sim_run(s, tr, e) : e->code;
    sim_destroy(s);
    if (rc < 0) {
        results_free(r);
        return NULL;
    }
    return r;
}

int run_trace(const cfg *c, const char *tpath, const char *sass_path, const char *odir, FILE *out,
              sk_error *e)
{
    return run_trace_with(c, tpath, sass_path, odir, out, NULL, 0, e);
}

int run_trace_with(const cfg *c, const char *tpath, const char *sass_path, const char *odir, FILE *out,
                   const sim_sink *extra, int nextra, sk_error *e)
{
    sass *listing;
    trace *tr = run_open_trace(tpath, sass_path, &listing, e);
    if (!tr)
        return e->code;
    results *r = results_open(odir, e);
    if (!r) {
        trace_close(tr);
        sass_free(listing);
        return e->code;
    }
    /* The results' own sink first, then the caller's (timeline, explain). */
    sim_sink *sinks = xcalloc((size_t)nextra + 1, sizeof *sinks);
    sinks[0] = results_sink(r);
    for (int i = 0; i < nextra; i++)
        sinks[i + 1] = extra[i];
    sim *s = sim_create(c, sinks, nextra + 1, e);
    free(sinks);
    int rc = s ? sim_run(s, tr, e) : e->code;
    if (rc == 0)
        rc = results_finish(r, s, out, e);
    sim_destroy(s);
    results_free(r);
    trace_close(tr);
    sass_free(listing);
    return rc < 0 ? rc : 0;
}

