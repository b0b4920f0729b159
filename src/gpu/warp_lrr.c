/* warp_lrr.c -- loose round-robin: the first ready warp after the one that
 * issued last, in the scheduler's (launch) order. */
#include "warp_priv.h"

static int lrr_pick(sm *m, warp_sched *ws, uint64_t c)
{
    uint64_t least = UINT64_MAX;
    for (int k = 0; k < ws->n; k++) {
        int i = (ws->pol.rr + k) % ws->n;
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        if (sm_warp_ready(m, w, c)) {
            ws->pol.rr = (i + 1) % ws->n;
            return ws->order[i];
        }
        least = SK_MIN(least, w->wake);
    }
    ws->min_wake = least;
    return -1;
}

/* The warp at position pos left the order: the cursor keeps pointing at the
 * same next warp. */
static void lrr_removed(warp_sched *ws, int pos, int slot)
{
    (void)slot;
    if (ws->pol.rr > pos)
        ws->pol.rr--;
    if (ws->pol.rr >= ws->n)
        ws->pol.rr = 0;
}

const warp_ops warp_lrr = {
    .name = "lrr",
    .init = NULL,
    .pick = lrr_pick,
    .removed = lrr_removed,
};
