/* warp_gto.c -- greedy-then-oldest (Rogers et al., MICRO 2012): keep
 * issuing from the warp that issued last while it can, else the oldest
 * ready one.  On the measured H200 co-resident CTAs finish staggered,
 * oldest first (validation/h200/README.md point 4): GTO reproduces that. */
#include "warp_priv.h"

static void gto_init(warp_sched *ws)
{
    ws->pol.greedy = -1;
}

/* The oldest ready warp, out of line: most picks end at the greedy warp,
 * and then do not pay for the scan's registers. */
__attribute__((noinline)) static int gto_oldest(sm *m, warp_sched *ws, uint64_t c)
{
    int slot = warp_oldest_ready(m, ws, c);
    if (slot >= 0)
        ws->pol.greedy = slot;  /* on an idle cycle the last issuer stays greedy */
    return slot;
}

static int gto_pick(sm *m, warp_sched *ws, uint64_t c)
{
    if (ws->pol.greedy >= 0) {
        warp *w = &m->warps[ws->pol.greedy];
        if (w->state == W_ACTIVE && sm_warp_ready(m, w, c))
            return ws->pol.greedy;
    }
    return gto_oldest(m, ws, c);
}

static void gto_removed(warp_sched *ws, int pos, int slot)
{
    (void)pos;
    if (ws->pol.greedy == slot)
        ws->pol.greedy = -1;
}

const warp_ops warp_gto = {
    .name = "gto",
    .init = gto_init,
    .pick = gto_pick,
    .removed = gto_removed,
};
