/* warp_oldest.c -- strict oldest-first: the first ready warp in launch
 * order, with no greediness. */
#include "warp_priv.h"

static int oldest_pick(sm *m, warp_sched *ws, uint64_t c)
{
    return warp_oldest_ready(m, ws, c);
}

const warp_ops warp_oldest = {
    .name = "oldest",
    .init = NULL,
    .pick = oldest_pick,
    .removed = NULL,
};
