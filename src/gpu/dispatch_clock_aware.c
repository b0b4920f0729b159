/* dispatch_clock_aware.c -- a clock-aware CTA dispatcher (formerly freq_aware): what a GigaThread
 * engine that could see each SM's clock might do.  A research policy, not a
 * model of any shipped GPU.
 *
 * Model: an SM retires CTA work at a rate proportional to its clock, shared
 * by the CTAs resident on it (issue-bound kernels behave so; the measured
 * FMA kernel does, validation/h200 point 1).  A CTA placed on SM i, which
 * holds n_i CTAs and runs at f_i MHz, then finishes about (n_i + 1) * c / f_i
 * from now, for a per-CTA cost c that is the same on every SM and so cancels
 * out of every comparison: the policy needs no fitted constant.
 *
 *  - Placement: the SM with room whose (n_i + 1) / f_i is smallest, ties to
 *    the lower SM id.  On uniform clocks this spreads CTAs evenly; on skewed
 *    ones faster SMs take proportionally more.
 *  - Tail hold: when the full SMs, each taking further CTAs one after
 *    another as slots free, could finish every CTA still to place sooner
 *    than the best SM with room would finish the next one, the engine holds
 *    the CTA back and decides again when a CTA finishes (sim_cta_finished
 *    kicks the engine).  Never for a
 *    cooperative kernel (its CTAs wait for each other at GRID.SYNC, so a
 *    held CTA would deadlock the grid) and never with nothing running.
 *
 * It reads the clocks the silicon model set at the last epoch, so it is
 * closed-loop over DVFS: when the power manager moves a clock, the next
 * decisions follow.  It does not see memory contention or per-kernel
 * behaviour such as latency-bound CTAs that co-reside for free; for those it
 * spreads, as a conservative engine would.
 */
#include <stdlib.h>
#include "skewsim/sim.h"

/* Whether SM a's next-CTA finish estimate, (n_a + 1) / f_a, is below b's:
 * cross-multiplied, in integers. */
static int sooner(const sm *a, const sm *b)
{
    int64_t ka = (int64_t)(a->used_ctas + 1) * b->mhz;
    int64_t kb = (int64_t)(b->used_ctas + 1) * a->mhz;
    return ka < kb;
}

/* How many more CTAs full SM j could finish, one after another, before a
 * CTA placed on SM b now: the largest k with (n_j + k) / f_j < (n_b + 1) / f_b. */
static uint64_t sooner_capacity(const sm *j, const sm *b)
{
    int64_t a = (int64_t)(b->used_ctas + 1) * j->mhz;
    int64_t k = (a - 1) / b->mhz - j->used_ctas;
    return k > 0 ? (uint64_t)k : 0;
}

static int fa_pick(void *st, const sim *s, const cta_need *need)
{
    (void)st;
    int best = -1;
    for (int i = 0; i < s->nsms; i++)
        if (sm_fits(s, &s->sms[i], need) && (best < 0 || sooner(&s->sms[i], &s->sms[best])))
            best = i;
    if (best < 0 || s->cooperative || s->ctas_running == 0)
        return best;
    /* Tail hold: can the full SMs finish every CTA left sooner than `best`? */
    uint64_t cap = 0;
    for (int i = 0; i < s->nsms && cap < s->ctas_left; i++)
        if (s->sms[i].used_ctas > 0 && !sm_fits(s, &s->sms[i], need))
            cap += sooner_capacity(&s->sms[i], &s->sms[best]);
    return cap >= s->ctas_left ? -1 : best;
}

const dispatch_ops dispatch_clock_aware = {
    .name = "clock_aware",
    .create = NULL,
    .destroy = NULL,
    .kernel_start = NULL,
    .pick = fa_pick,
    .cta_done = NULL,
};

/* Its former name, kept so that configs and sweeps written for it still
 * run: the same policy (policies.h lists it last, as an alias). */
const dispatch_ops dispatch_freq_aware = {
    .name = "freq_aware",
    .create = NULL,
    .destroy = NULL,
    .kernel_start = NULL,
    .pick = fa_pick,
    .cta_done = NULL,
};
