/* warp_two_level.c -- two-level warp scheduling, after Narasiman et al.,
 * "Improving GPU performance via large warps and two-level warp
 * scheduling", MICRO 2011.
 *
 * A scheduler's warps are split into an active set of at most
 * sm.active_warps (the paper's fetch group: 8) and the pending rest.  Only
 * active warps issue, round-robin among themselves.  An active warp that
 * waits on a global load (its next instruction needs a register a load of
 * its own has not yet returned), or waits at a barrier, leaves the active
 * set; the oldest pending warp that is not itself waiting on memory takes
 * its place.  So the active set runs ahead together while the pending warps
 * stay behind and reach their long-latency loads later, spreading the
 * stalls out instead of having every warp wait at once as round-robin does.
 * The paper's groups are fixed sets of warps; here the set is refilled warp
 * by warp, oldest first.
 */
#include "warp_priv.h"

static int mem_wait(const warp *w, uint64_t c)
{
    return w->dep > c && w->ldg_done >= w->dep;
}

static int tl_pick(sm *m, warp_sched *ws, uint64_t c)
{
    int nact = 0;
    for (int i = 0; i < ws->n; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (!w->pflag)
            continue;
        if (w->state != W_ACTIVE || mem_wait(w, c))
            w->pflag = 0;
        else
            nact++;
    }
    for (int i = 0; i < ws->n && nact < m->active_warps; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (!w->pflag && w->state == W_ACTIVE && !mem_wait(w, c)) {
            w->pflag = 1;
            nact++;
        }
    }
    uint64_t least = UINT64_MAX;
    for (int k = 0; k < ws->n; k++) {
        int i = (ws->pol.tl_rr + k) % ws->n;
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        if (sm_warp_ready(m, w, c)) {
            if (w->pflag) {
                ws->pol.tl_rr = (i + 1) % ws->n;
                return ws->order[i];
            }
            least = SK_MIN(least, c);   /* ready but pending: look again next cycle */
        } else {
            least = SK_MIN(least, w->wake);
        }
    }
    ws->min_wake = least;
    return -1;
}

static void tl_removed(warp_sched *ws, int pos, int slot)
{
    (void)slot;
    if (ws->pol.tl_rr > pos)
        ws->pol.tl_rr--;
    if (ws->pol.tl_rr >= ws->n)
        ws->pol.tl_rr = 0;
}

const warp_ops warp_two_level = {
    .name = "two_level",
    .pick = tl_pick,
    .removed = tl_removed,
};
