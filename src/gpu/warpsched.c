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

typedef int (*pick_fn)(sim *s, sm *m, warp_sched *ws, uint64_t c);

static int oldest_ready(sim *s, sm *m, warp_sched *ws, uint64_t c)
{
    for (int i = 0; i < ws->n; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (w->state == W_ACTIVE && sm_warp_ready(s, m, w, c))
            return ws->order[i];
    }
    return -1;
}

static int pick_gto(sim *s, sm *m, warp_sched *ws, uint64_t c)
{
    if (ws->greedy >= 0) {
        warp *w = &m->warps[ws->greedy];
        if (w->state == W_ACTIVE && sm_warp_ready(s, m, w, c))
            return ws->greedy;
    }
    int slot = oldest_ready(s, m, ws, c);
    if (slot >= 0)
        ws->greedy = slot;      /* on an idle cycle the last issuer stays greedy */
    return slot;
}

static int pick_oldest(sim *s, sm *m, warp_sched *ws, uint64_t c)
{
    return oldest_ready(s, m, ws, c);
}

static int pick_lrr(sim *s, sm *m, warp_sched *ws, uint64_t c)
{
    for (int k = 0; k < ws->n; k++) {
        int i = (ws->rr + k) % ws->n;
        warp *w = &m->warps[ws->order[i]];
        if (w->state == W_ACTIVE && sm_warp_ready(s, m, w, c)) {
            ws->rr = (i + 1) % ws->n;
            return ws->order[i];
        }
    }
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
        if (w->last_issue + lim <= c && w->last_issue < best_last && sm_warp_ready(s, m, w, c)) {
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

/* Indexed by enum cfg_warp_policy. */
static const pick_fn policies[] = {
    [WARP_GTO] = pick_gto,
    [WARP_LRR] = pick_lrr,
    [WARP_OLDEST] = pick_oldest,
};

int warpsched_pick(sim *s, sm *m, warp_sched *ws, uint64_t c)
{
    int slot = starved(s, m, ws, c);
    if (slot >= 0)
        return slot;
    return policies[s->c.warp_policy](s, m, ws, c);
}
