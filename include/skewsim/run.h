/* run.h -- the library's run entry points: a trace on a config, into an
 * output directory or into memory.  What `skewsim run` does, what `sweep`
 * runs for each point, what `validate` and `import` build on.  Errors go
 * to *e (one line, file:line:col where known); nothing here prints an
 * error or exits. */
#ifndef SKEWSIM_RUN_H
#define SKEWSIM_RUN_H

#include <stdio.h>
#include "skewsim/config.h"
#include "skewsim/results.h"
#include "skewsim/sass.h"
#include "skewsim/sink.h"
#include "skewsim/trace.h"

/* Open trace `tpath`; with `sass_path` (not NULL) an Accel-Sim trace takes
 * its stall counts from that listing, loaded into *listing (the caller
 * frees it with sass_free() after trace_close()).  NULL with *e filled. */
trace *run_open_trace(const char *tpath, const char *sass_path, sass **listing, sk_error *e);

/* Simulate trace `tpath` on config *c into DIR `odir` (summary.json,
 * ctas.csv, epochs.csv, each renamed into place when complete), printing
 * the short summary to `out` (NULL: none).  0 or a negative SK_E* code. */
int run_trace(const cfg *c, const char *tpath, const char *sass_path, const char *odir, FILE *out,
              sk_error *e);

/* The same, with `nextra` more sinks (a timeline, explain) after the
 * results' own; each sink's state stays the caller's. */
int run_trace_with(const cfg *c, const char *tpath, const char *sass_path, const char *odir, FILE *out,
                   const sim_sink *extra, int nextra, sk_error *e);

/* Simulate the open trace `tr` on config *c into results kept in memory
 * (validate's checks read them back).  NULL with *e filled on failure;
 * the caller frees the results with results_free(). */
results *run_simulate(const cfg *c, trace *tr, sk_error *e);

#endif
