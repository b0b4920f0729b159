/* warp_priv.h -- what the warp policies (src/gpu/warp_<name>.c) share. */
#ifndef SKEWSIM_WARP_PRIV_H
#define SKEWSIM_WARP_PRIV_H

#include "skewsim/sm.h"

/* Leave the outcome of a scan that found no ready warp: min_wake, and for
 * the stall reason (sm.c, stall_reason) the first position holding the
 * least entry and what it holds for.  The scan gives the least of two
 * parts of the entries, each with the first position holding it (-1 for
 * none, with UINT64_MAX): the lesser, or on a tie the earlier. */
static inline int warp_none_ready(sm *m, warp_sched *ws, uint64_t a, int pa, uint64_t b, int pb)
{
    int first = b < a || (b == a && pb < pa);
    uint64_t least = first ? b : a;
    int pos = first ? pb : pa;
    ws->min_wake = least;
    ws->lp_pos = pos;
    ws->lp_wake = least;
    ws->lp_issued = ws->issued;
    ws->lp_epoch = m->release_epoch;
    return -1;
}

/* The oldest ready warp, or -1.  A scan that finds none has looked at every
 * ACTIVE warp, and sm_warp_ready() has left each one's exact wake: their
 * minimum is then the scheduler's exact min_wake, as warp_ops.pick must
 * leave it. */
static inline int warp_oldest_ready(sm *m, warp_sched *ws, uint64_t c)
{
    uint64_t *ew = ws->ew;
    /* Only os_q can be at or before c (sm.h): ask it alone.  The others,
     * all after c, cannot issue, and the scan would pass them untouched. */
    if (ws->os_q >= 0 && ws->os_min > c && ws->os_n == ws->n && ws->os_epoch == m->release_epoch) {
        int q = ws->os_q;
        uint64_t e = ew[q];
        if (e <= c) {
            warp *w = &m->warps[ws->order[q]];
            if (w->state != W_ACTIVE) {
                e = ew[q] = UINT64_MAX;
            } else if (sm_warp_ready(m, w, c)) {
                return ws->order[q];
            } else {
                e = ew[q] = w->wake;
            }
        }
        return warp_none_ready(m, ws, ws->os_min, ws->os_pos, e, q);
    }
    uint64_t least = UINT64_MAX, oleast = UINT64_MAX;
    int pos = -1, opos = -1, q = -1, ncand = 0;
    for (int i = 0; i < ws->n; i++) {
        /* ew (sm.h): an entry after c is exact, so that warp is not ACTIVE
         * or its wake lies ahead, and sm_warp_ready() would return 0 for it
         * untouched: passed over without reading its slot.  An entry <= c
         * may be stale: the warp itself says, and the entry is made exact. */
        uint64_t e = ew[i];
        if (e > c) {
            if (e < oleast) {
                oleast = e;
                opos = i;
            }
            continue;
        }
        warp *w = &m->warps[ws->order[i]];
        ncand++;
        q = i;
        if (w->state != W_ACTIVE) {
            ew[i] = UINT64_MAX;
            continue;
        }
        if (sm_warp_ready(m, w, c)) {
            ws->os_q = -1;
            return ws->order[i];
        }
        ew[i] = w->wake;
        if (w->wake < least) {
            least = w->wake;
            pos = i;
        }
    }
    /* keep the others' least when exactly one entry was at or before c
     * (not in the per-cycle reference, sm.h, which tests scan against
     * scan: tests/test_sm.c) */
    ws->os_q = ncand == 1 && !m->per_cycle ? q : -1;
    ws->os_min = oleast;
    ws->os_pos = opos;
    ws->os_n = ws->n;
    ws->os_epoch = m->release_epoch;
    return warp_none_ready(m, ws, least, pos, oleast, opos);
}

#endif
