/* warpsched.c -- warp scheduling policies: which ready warp a scheduler
 * issues from this cycle.  Each scheduler keeps its warps oldest first
 * (launch order), so "oldest" is the first ready one in the list.
 *
 *  gto     greedy-then-oldest (Rogers et al., MICRO 2012): keep issuing from
 *          the warp that issued last while it can, else the oldest ready.
 *          On the measured H200 co-resident CTAs finish staggered, oldest
 *          first (validation/h200/README.md point 4): GTO reproduces that.
 *  lrr     loose round-robin: the first ready warp after the last issuer.
 *  oldest  strict oldest-first, no greediness.
 */
#include "skewsim/sim.h"

/* The oldest ready warp, or -1.  A scan that finds none has looked at every
 * ACTIVE warp, and sm_warp_ready() has left each one's exact wake: their
 * minimum is then the scheduler's exact min_wake. */
static int oldest_ready(sm *m, warp_sched *ws, uint64_t c)
{
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < ws->n; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        if (sm_warp_ready(m, w, c))
            return ws->order[i];
        least = SK_MIN(least, w->wake);
    }
    ws->min_wake = least;
    return -1;
}

static int pick_gto(sm *m, warp_sched *ws, uint64_t c)
{
    if (ws->greedy >= 0) {
        warp *w = &m->warps[ws->greedy];
        if (w->state == W_ACTIVE && sm_warp_ready(m, w, c))
            return ws->greedy;
    }
    int slot = oldest_ready(m, ws, c);
    if (slot >= 0)
        ws->greedy = slot;      /* on an idle cycle the last issuer stays greedy */
    return slot;
}

static int pick_lrr(sm *m, warp_sched *ws, uint64_t c)
{
    uint64_t least = UINT64_MAX;
    for (int k = 0; k < ws->n; k++) {
        int i = (ws->rr + k) % ws->n;
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        if (sm_warp_ready(m, w, c)) {
            ws->rr = (i + 1) % ws->n;
            return ws->order[i];
        }
        least = SK_MIN(least, w->wake);
    }
    ws->min_wake = least;
    return -1;
}

/* Starvation guard (sm.starvation_cycles = X): once every X cycles a
 * scheduler gives one issue slot to the ready warp that has waited longest,
 * provided it has waited at least X cycles.  Under a greedy/oldest priority
 * the youngest warps of a full SM would otherwise not issue at all until
 * older CTAs finish; on the H200 they do creep forward (validation/h200
 * README point 5: young CTAs read their start time 10-33 us late, yet
 * before any CTA ends, and their clock read four instructions later comes
 * microseconds after that). */
static int starved(sim *s, sm *m, warp_sched *ws, uint64_t c)
{
    uint64_t lim = (uint64_t)s->c.starvation_cycles;
    if (lim == 0 || c < ws->starve_at)
        return -1;
    uint64_t least = UINT64_MAX, best_last = UINT64_MAX;
    int pick = -1;
    for (int i = 0; i < ws->n; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        least = SK_MIN(least, w->last_issue);
        if (w->last_issue + lim <= c && w->last_issue < best_last && sm_warp_ready(m, w, c)) {
            pick = ws->order[i];
            best_last = w->last_issue;
        }
    }
    if (pick >= 0)
        ws->starve_at = c + lim;
    else
        ws->starve_at = least == UINT64_MAX ? c + 1 : SK_MAX(least + lim, c + 1);
    return pick;
}

int warpsched_pick(sim *s, sm *m, warp_sched *ws, uint64_t c)
{
    int slot = starved(s, m, ws, c);
    if (slot >= 0)
        return slot;
    /* Nothing can be ready before min_wake (a lower bound, see sm.h): the
     * policy would only confirm it, warp by warp.  starved() above still
     * ran, for its bookkeeping.  Exact: every warp it would have looked at
     * has wake > c, so sm_warp_ready() would have returned 0 untouched. */
    if (c < ws->min_wake)
        return -1;
    switch (s->c.warp_policy) {
    case WARP_LRR: return pick_lrr(m, ws, c);
    case WARP_OLDEST: return oldest_ready(m, ws, c);
    default: return pick_gto(m, ws, c);
    }
}
