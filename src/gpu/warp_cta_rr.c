/* warp_cta_rr.c -- oldest CTA first, round-robin within it: the ready
 * warps of the oldest CTA that has one issue in turn (after the warp that
 * issued last, where it is of that CTA); a younger CTA's warps issue only
 * in cycles in which no older CTA's can.
 *
 * What E31 measured on an H100's sub-partitions (validation/h100/README
 * "E31", cap_worder.cu): with more ready warps than one issue a cycle
 * serves, a CTA's warps share the port (its 8 warps of 2 FFMA chains end
 * within 5 % of each other, where GTO finishes the oldest at a quarter of
 * the time), and an older CTA runs as if alone while younger ones wait
 * (two CTAs: the first ends at 39.0k cycles, one alone 38.8k, the second
 * at 76.8k).  Not the chip's policy either: validate's E1 per-CTA cycles
 * and its late-young-CTA row are further off than under GTO (docs/
 * schedulers.md). */
#include "warp_priv.h"

static void crr_init(warp_sched *ws)
{
    ws->pol.word[0] = -1;   /* the slot that issued last */
}

static int crr_pick(sm *m, warp_sched *ws, uint64_t c)
{
    uint64_t least = UINT64_MAX;
    int first = -1;
    for (int i = 0; i < ws->n; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        if (sm_warp_ready(m, w, c)) {
            first = i;
            break;
        }
        least = SK_MIN(least, w->wake);
    }
    if (first < 0) {
        ws->min_wake = least;
        return -1;
    }
    int cta = m->warps[ws->order[first]].cta;
    /* this CTA's warps are contiguous in the (launch) order from first on */
    int end = first;
    while (end < ws->n && m->warps[ws->order[end]].cta == cta)
        end++;
    int last = (int)ws->pol.word[0], start = first;
    for (int i = first; i < end; i++)
        if (ws->order[i] == last) {
            start = i + 1;
            break;
        }
    for (int k = 0; k < end - first; k++) {
        int i = first + (start - first + k) % (end - first);
        warp *w = &m->warps[ws->order[i]];
        if (w->state == W_ACTIVE && sm_warp_ready(m, w, c)) {
            ws->pol.word[0] = ws->order[i];
            return ws->order[i];
        }
    }
    ws->pol.word[0] = ws->order[first];
    return ws->order[first];
}

static void crr_removed(warp_sched *ws, int pos, int slot)
{
    (void)pos;
    if (ws->pol.word[0] == slot)
        ws->pol.word[0] = -1;
}

const warp_ops warp_cta_rr = {
    .name = "cta_rr",
    .init = crr_init,
    .pick = crr_pick,
    .removed = crr_removed,
};
