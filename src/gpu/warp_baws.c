/* warp_baws.c -- barrier-aware warp scheduling, after Liu et al.,
 * "Barrier-aware warp scheduling for throughput processors", ICS 2016.
 *
 * Its most-waiting-first rule: among the ready warps, those of the CTA that
 * has the most warps already waiting at a barrier (BAR.SYNC) go first, so
 * the stragglers that hold the barrier get the issue slots and the waiting
 * warps are released sooner.  Ties: greedy-then-oldest, as GTO.  (The
 * paper's second part, critical-fetch-first, concerns instruction fetch,
 * which skewsim does not model.)
 */
#include "warp_priv.h"

static void baws_init(warp_sched *ws)
{
    ws->pol.greedy = -1;
}

static int baws_pick(sm *m, warp_sched *ws, uint64_t c)
{
    int best = -1, best_pri = -1;
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < ws->n; i++) {
        int slot = ws->order[i];
        warp *w = &m->warps[slot];
        if (w->state != W_ACTIVE)
            continue;
        if (!sm_warp_ready(m, w, c)) {
            least = SK_MIN(least, w->wake);
            continue;
        }
        int pri = m->ctas[w->cta].at_barrier;
        /* oldest first within a priority (order is oldest first), except
         * that the greedy warp keeps its slot among equals */
        if (pri > best_pri || (pri == best_pri && slot == ws->pol.greedy)) {
            best = slot;
            best_pri = pri;
        }
    }
    if (best < 0) {
        ws->min_wake = least;
        return -1;
    }
    ws->pol.greedy = best;
    return best;
}

static void baws_removed(warp_sched *ws, int pos, int slot)
{
    (void)pos;
    if (ws->pol.greedy == slot)
        ws->pol.greedy = -1;
}

const warp_ops warp_baws = {
    .name = "baws",
    .init = baws_init,
    .pick = baws_pick,
    .removed = baws_removed,
};
