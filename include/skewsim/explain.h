/* explain.h -- `run --explain`: every scheduling decision, in order, with
 * its reason (docs/tutorial.md, exercise 8).
 *
 *   dispatch  which CTA went to which SM, under which policy rule, which
 *             SMs had room and what kept the others full;
 *   issue     for every cycle an SM processes, per warp scheduler: which
 *             warp issued which instruction, and why each other warp could
 *             not (compiler stall, scoreboard on a register and the
 *             instruction that writes it, memory, unit busy, barrier), or
 *             that it was ready and the policy chose another.
 *
 * A sink (sink.h): it asks for CTA dispatches, and with `issue` for every
 * warp issue and stall, so it slows the run; a window (--explain-window
 * A:B, in simulated ns) limits what is printed, not what is watched.
 */
#ifndef SKEWSIM_EXPLAIN_H
#define SKEWSIM_EXPLAIN_H

#include <stdio.h>
#include "skewsim/sink.h"

enum { EXPLAIN_DISPATCH = 1, EXPLAIN_ISSUE = 2 };

typedef struct explain explain;

/* Print to `out` the decisions `what` (EXPLAIN_* bits) made at simulated
 * times in [from_ps, to_ps) (to_ps PS_MAX: no end).  Caller owns it:
 * explain_destroy() after the run. */
explain *explain_create(FILE *out, unsigned what, ps_t from_ps, ps_t to_ps);
void explain_destroy(explain *x);         /* NULL is a no-op */
sim_sink explain_sink(explain *x);
uint64_t explain_lines(const explain *x); /* lines printed so far */

/* "dispatch", "issue", "dispatch,issue" (NULL or "": both) into *what;
 * SK_EUSAGE with the offending word otherwise. */
int explain_parse_what(const char *spec, unsigned *what, sk_error *e);
/* "A:B" in ns (decimals allowed; A or B may be empty: from the start, to
 * the end), A < B, into [*from_ps, *to_ps).  SK_EUSAGE otherwise. */
int explain_parse_window(const char *spec, ps_t *from_ps, ps_t *to_ps, sk_error *e);

#endif
