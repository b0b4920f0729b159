/* results.h -- a run's output directory: DIR/ctas.csv streamed as CTAs
 * finish, DIR/epochs.csv as the silicon model steps (t_ns,sm,mhz,vdd_mv,
 * power_w,temp_c: one row per SM per step), DIR/summary.json at the end.  Both are written to a temporary name
 * in DIR and renamed into place only when complete, so a crashed or killed
 * run never leaves a truncated file under the final name.
 *
 * ctas.csv: kernel,cta,sm,start_ns,end_ns,cycles with start and end relative
 * to the first CTA start of that kernel (as validation/h200/e1_ctas.csv.gz).
 * summary.json: total_ns, warp_instructions, kernels[] (name, span_ns,
 * time_ns, imbalance, tail_ns, barrier_wait_ns, ...), sms[] (id, ctas,
 * busy_frac, mean_mhz, ..., stalls: scheduler-cycles that issued and that
 * stalled, by reason, sm.h SM_STALL_MAP; they sum to the SM's cycles times
 * its schedulers).
 */
#ifndef SKEWSIM_RESULTS_H
#define SKEWSIM_RESULTS_H

#include <stdio.h>
#include "skewsim/sim.h"

typedef struct results results;

/* Create DIR if needed and open its temporary ctas.csv.  NULL dir keeps
 * everything in memory (for `validate` and tests).  Caller owns the result:
 * results_free(). */
results *results_open(const char *dir, sk_error *e);
void results_free(results *r);            /* removes unfinished temporaries; NULL ok */

/* The sink to hand to sim_create() (sink.h). */
sim_sink results_sink(results *r);

/* Write summary.json, rename the files into place, print a short human
 * summary to `out` (NULL: none). */
int results_finish(results *r, const sim *s, FILE *out, sk_error *e);

/* Finished kernels so far (kept in memory: one small record per kernel). */
size_t results_nkernels(const results *r);
const kernel_stats *results_kernel(const results *r, size_t i);
/* CTA records, only when opened with dir == NULL. */
size_t results_nctas(const results *r);
const cta_record *results_cta(const results *r, size_t i);

/* Format integer picoseconds as nanoseconds with 3 decimals (exact). */
void results_fmt_ns(char *buf, size_t n, ps_t t);

#endif
