/* cli.h -- the skewsim command line: one function per subcommand.  Each
 * returns the process exit status; only this layer prints errors and exits. */
#ifndef SKEWSIM_CLI_H
#define SKEWSIM_CLI_H

#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/results.h"
#include "skewsim/trace.h"

int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_validate(int argc, char **argv);
/* validate's E10 section (validate_e10.c): the unit table against the
 * measured latencies and issue rates in DIR; adds failed criteria to *fails. */
int validate_e10(const cfg *c, const char *dir, int *fails, sk_error *e);
int cmd_import(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_collect(int argc, char **argv);

/* Print "skewsim: <msg>" for a recorded error and return its exit status. */
int cli_fail(const sk_error *e);

/* Load -c FILE (or defaults when NULL) and apply each --set in order, then
 * cross-validate.  Shared by run, config and validate. */
int cli_load_config(cfg *c, const char *path, char **sets, int nsets, sk_error *e);

/* Simulate trace `tpath` on config *c into DIR `odir` (summary.json,
 * ctas.csv, epochs.csv), printing the short summary to `out` (NULL: none).
 * The body of `run`, and what `sweep` runs for each point. */
int cli_run_trace(const cfg *c, const char *tpath, const char *sass_path, const char *odir, FILE *out,
                  sk_error *e);

/* Simulate trace `tr` on config *c into results kept in memory (validate's
 * checks read them back).  NULL with *e filled on failure; the caller frees
 * the results with results_free(). */
results *cli_simulate(const cfg *c, trace *tr, sk_error *e);

/* Open trace `tpath`; with `sass_path` (not NULL) an Accel-Sim trace takes
 * its stall counts from that listing, loaded into *listing (the caller
 * frees it with sass_free() after trace_close()).  NULL with *e filled. */
trace *cli_open_trace(const char *tpath, const char *sass_path, sass **listing, sk_error *e);

#endif
