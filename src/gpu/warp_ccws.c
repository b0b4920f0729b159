/* warp_ccws.c -- CCWS-lite, after Rogers, O'Connor and Aamodt,
 * "Cache-Conscious Wavefront Scheduling", MICRO 2012.
 *
 * The paper's observation: with many warps interleaved, each warp's lines
 * are evicted from the L1 by the others before it comes back to them, so
 * intra-warp locality is lost; issuing from fewer warps keeps it.  CCWS
 * detects the loss and throttles only while it happens:
 *
 *  - detection (the L1, src/mem/l1.c, mem_vta): every L1 way remembers the
 *    warp whose miss allocated it; an evicted line's address goes into
 *    that warp's victim tag array (sm.ccws.vta_entries per warp, FIFO); a
 *    later miss of that warp that finds the line there counts one VTA hit;
 *  - scoring (here): each warp has a lost-locality score (LLS) that rests
 *    at sm.ccws.base_score; a VTA hit adds sm.ccws.score_inc; every cycle
 *    the score loses sm.ccws.decay points, down to the base;
 *  - throttling (here): the scheduler's warps, sorted by score (highest
 *    first, ties in GTO order: the greedy warp, then oldest), are summed in
 *    that order; the warps whose running sum exceeds the cutoff, warps x
 *    base_score, may not issue a global load (they still issue anything
 *    else); the first warp of the order never is held.  With every score
 *    at its base the sum never exceeds the cutoff: plain GTO.
 *  - issue: GTO among the warps that may issue their next instruction.
 *
 * "Lite": the paper scales a hit's increment by the warp's instruction
 * count and an adjustable K_throttle, and sorts the whole SM's warps; here
 * the increment is a constant and each scheduler (sub-partition) throttles
 * its own warps, as it issues only from them.  With memory.model: flat
 * there is no L1, no VTA hit ever, and ccws is GTO.  The starvation guard
 * (sm.starvation_cycles) still issues a starved warp, load or not.
 */
#include "warp_priv.h"
#include "skewsim/memsys.h"

static void ccws_init(warp_sched *ws)
{
    ws->pol.greedy = -1;
}

static int held(const warp *w)
{
    return w->pflag && w->code[w->pc].kind == IK_LD_GLOBAL;
}

/* Bring the scores of ws's warps to cycle c (decay since the last update,
 * the VTA hits since) and mark the throttled ones (pflag). */
static void ccws_update(sm *m, warp_sched *ws, mem_vta *v, uint64_t c)
{
    uint64_t last = (uint64_t)ws->pol.word[1];
    uint64_t dt = c > last ? c - last : 0;
    ws->pol.word[1] = (int64_t)c;
    int64_t base = v->base_score, cutoff = 0;
    int any = 0, n = 0;
    int idx[1024];                   /* a scheduler serves at most sm.max_warps (schema: <= 1024) */
    for (int i = 0; i < ws->n; i++) {
        int slot = ws->order[i];
        warp *w = &m->warps[slot];
        if (slot >= v->nwarps)
            continue;
        if (v->age[slot] != w->age) {      /* a new warp in this slot */
            v->age[slot] = w->age;
            v->score[slot] = (int32_t)base;
            v->seen[slot] = v->hits[slot];
        }
        int64_t sc = v->score[slot];
        uint64_t drop = dt * (uint64_t)v->decay;
        sc = (uint64_t)(sc - base) > drop ? sc - (int64_t)drop : base;
        uint32_t fresh = v->hits[slot] - v->seen[slot];
        v->seen[slot] = v->hits[slot];
        sc += (int64_t)fresh * v->score_inc;
        v->score[slot] = (int32_t)SK_MIN(sc, (int64_t)INT32_MAX);
        any |= sc > base;
        w->pflag = 0;
        cutoff += base;
        if (n < (int)SK_ARRAY_LEN(idx))
            idx[n++] = slot;
    }
    if (!any)
        return;
    /* insertion sort: score down, the greedy warp first among equals, then
     * oldest (order is oldest first, and the sort is stable) */
    for (int i = 1; i < n; i++) {
        int x = idx[i], j = i - 1;
        int64_t sx = v->score[x];
        while (j >= 0 && (v->score[idx[j]] < sx || (v->score[idx[j]] == sx && x == ws->pol.greedy))) {
            idx[j + 1] = idx[j];
            j--;
        }
        idx[j + 1] = x;
    }
    int64_t sum = 0;
    for (int k = 0; k < n; k++) {
        sum += v->score[idx[k]];
        if (k > 0 && sum > cutoff)
            m->warps[idx[k]].pflag = 1;
    }
}

static int ccws_pick(sm *m, warp_sched *ws, uint64_t c)
{
    mem_vta *v = mem_l1_vta(m->mem);
    if (v)
        ccws_update(m, ws, v, c);
    if (ws->pol.greedy >= 0) {
        warp *w = &m->warps[ws->pol.greedy];
        if (w->state == W_ACTIVE && sm_warp_ready(m, w, c) && !held(w))
            return ws->pol.greedy;
    }
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < ws->n; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        if (!sm_warp_ready(m, w, c)) {
            least = SK_MIN(least, w->wake);
            continue;
        }
        if (held(w)) {
            least = SK_MIN(least, c + 1);   /* its score may fall below the cutoff next cycle */
            continue;
        }
        ws->pol.greedy = ws->order[i];
        return ws->order[i];
    }
    ws->min_wake = least;
    return -1;
}

static void ccws_removed(warp_sched *ws, int pos, int slot)
{
    (void)pos;
    if (ws->pol.greedy == slot)
        ws->pol.greedy = -1;
}

const warp_ops warp_ccws = {
    .name = "ccws",
    .init = ccws_init,
    .pick = ccws_pick,
    .removed = ccws_removed,
};
