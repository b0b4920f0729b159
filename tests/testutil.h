/* testutil.h -- helpers shared by the simulator's tests (dispatch, sm, sim,
 * cli): configs from YAML text, a trace string run through the simulator
 * with results kept in memory, files and scratch directories.
 *
 * Every helper fails the calling test with ck_assert_* when something it
 * needs goes wrong, so a test reads as its scenario and its expectations. */
#ifndef SKEWSIM_TESTUTIL_H
#define SKEWSIM_TESTUTIL_H

#include <stddef.h>
#include "skewsim/config.h"
#include "skewsim/results.h"
#include "skewsim/sim.h"

#define TU_H200 "configs/h200.yaml"

/* The chip of the hand-derived tests: one GPC, one TPC, one SM, one warp
 * scheduler issuing one instruction per cycle, 1000 MHz (one cycle is
 * exactly 1 ns = 1000 ps: period_fs = 1e9 / 1000 = 1e6), no launch
 * overheads, a free dispatcher, no starvation guard.  With these a CTA
 * handed to the SM at t = 0 issues its first instruction in cycle 0, and a
 * CTA whose last EXIT issues in cycle c ends at (c + 1) ns. */
#define TU_TINY_YAML                                                        \
    "topology: {gpcs: 1, tpcs_per_gpc: 1, sms_per_tpc: 1,"                  \
    " numbering: gpc_major, tail_gpcs: 0}\n"                                \
    "sm: {warp_schedulers: 1, issue_width: 1, warp_policy: gto,"            \
    " starvation_cycles: 0, cta_launch_cycles: 0, barrier_cycles: 1}\n"     \
    "units: {fp32: {count: 1, lat_cycles: 4, ii_cycles: 1},"                \
    " branch: {count: 1, lat_cycles: 1, ii_cycles: 1},"                     \
    " misc: {count: 1, lat_cycles: 2, ii_cycles: 1}}\n"                     \
    "clocks: {sm_mhz: 1000}\n"                                              \
    "launch: {start_ns: 0, end_ns: 0}\n"                                    \
    "dispatch: {policy: round_robin, cta_ps: 0}\n"                          \
    "sim: {max_time_ns: 0}\n"

/* cfg_defaults(), then the YAML file `path` (NULL: none), then each YAML
 * text of the NULL-terminated list ("" adds nothing), then cfg_validate(). */
void tu_cfg(cfg *c, const char *path, ...) __attribute__((sentinel));

/* One simulation with in-memory results (results_open(NULL)). */
typedef struct tu_run {
    sim *s;
    results *r;
    int rc;                 /* sim_run()'s return, or the failing step's code */
    sk_error e;
} tu_run;

/* Run trace text on config c; the run is kept for inspection.  Returns rc. */
int tu_simulate(tu_run *run, const cfg *c, const char *trace_text);
/* The same, failing the test unless the run succeeds. */
void tu_simulate_ok(tu_run *run, const cfg *c, const char *trace_text);
void tu_run_free(tu_run *run);

/* CTA `cta` of kernel `k`; fails the test when there is no such record. */
const cta_record *tu_cta(const tu_run *run, uint64_t k, uint64_t cta);

/* A generated kernel (gen.h) as trace text, written as `skewsim gen`
 * writes it; frees k.  Caller frees. */
char *tu_kernel_text(kernel *k);

/* A one-kernel trace "kernel k grid=G block=B" with one program `main`
 * whose body is `body` (instructions, one per line, ending with EXIT).
 * Caller frees. */
char *tu_trace1(const char *body, unsigned grid, unsigned block);

/* printf into a new string.  Caller frees. */
char *tu_strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whole file, NUL-terminated; *len (if not NULL) gets its size. */
char *tu_slurp(const char *path, size_t *len);
/* Write text to path (created or truncated), or fail the test. */
void tu_spit(const char *path, const char *text);
int tu_exists(const char *path);

/* A fresh directory under /tmp (buf receives its path), and its removal
 * with everything in it, folders included. */
void tu_mkdtemp(char *buf, size_t n, const char *tag);
void tu_rmdir(const char *dir);
/* Feed every file of dir (dot files skipped) to `one`, as a fuzz target's
 * entry point; returns how many (0 when dir is missing). */
int tu_replay_dir(const char *dir, int (*one)(const uint8_t *, size_t));

/* The number after the `nth` (0-based) occurrence of "\"key\":" in a JSON
 * text; fails the test when there is none. */
double tu_json_num(const char *json, const char *key, int nth);

#endif
