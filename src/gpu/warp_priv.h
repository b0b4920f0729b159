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

#endif
