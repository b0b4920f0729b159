/* warp_priv.h -- what the warp policies (src/gpu/warp_<name>.c) share. */
#ifndef SKEWSIM_WARP_PRIV_H
#define SKEWSIM_WARP_PRIV_H

#include "skewsim/sm.h"

/* The oldest ready warp, or -1.  A scan that finds none has looked at every
 * ACTIVE warp, and sm_warp_ready() has left each one's exact wake: their
 * minimum is then the scheduler's exact min_wake, as warp_ops.pick must
 * leave it. */
static inline int warp_oldest_ready(sm *m, warp_sched *ws, uint64_t c)
{
    uint64_t least = UINT64_MAX;
    uint64_t *ew = ws->ew;
    int pos = -1;
    for (int i = 0; i < ws->n; i++) {
        /* ew (sm.h): an entry after c is exact, so that warp is not ACTIVE
         * or its wake lies ahead, and sm_warp_ready() would return 0 for it
         * untouched: passed over without reading its slot.  An entry <= c
         * may be stale: the warp itself says, and the entry is made exact. */
        uint64_t e = ew[i];
        if (e > c) {
            if (e < least) {
                least = e;
                pos = i;
            }
            continue;
        }
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE) {
            ew[i] = UINT64_MAX;
            continue;
        }
        if (sm_warp_ready(m, w, c))
            return ws->order[i];
        ew[i] = w->wake;
        if (w->wake < least) {
            least = w->wake;
            pos = i;
        }
    }
    ws->min_wake = least;
    /* for the stall reason (sm.c, stall_reason): the first position holding
     * the least entry, and what it holds for */
    ws->lp_pos = pos;
    ws->lp_wake = least;
    ws->lp_issued = ws->issued;
    ws->lp_epoch = m->release_epoch;
    return -1;
}

#endif
