/* warpsched.c -- what every warp scheduler does whatever its policy: the
 * starvation guard (its fast test and the skip of a scheduler none of whose
 * warps can be ready are warpsched_pick() in sm.h, inline in the SM's
 * loop), and the registry of policies.  Which ready warp issues is the policy's
 * choice: one warp_ops table per policy, one file each (warp_gto.c,
 * warp_lrr.c, warp_oldest.c), listed once in WARP_POLICY_MAP (policies.h).
 * Each scheduler keeps its warps oldest first (launch order), so "oldest"
 * is the first ready one in its list.
 */
#include "skewsim/sim.h"

/* Indexed by enum cfg_warp_policy: both expand WARP_POLICY_MAP. */
static const warp_ops *const registry[] = {
#define WARP_ROW_(id, name, help) [WARP_##id] = &warp_##name,
    WARP_POLICY_MAP(WARP_ROW_)
#undef WARP_ROW_
};
_Static_assert(SK_ARRAY_LEN(registry) == WARP_NPOLICIES, "one warp_ops per warp policy");

const warp_ops *warp_lookup(int policy)
{
    if (policy < 0 || (size_t)policy >= SK_ARRAY_LEN(registry))
        return NULL;
    return registry[policy];
}

/* Starvation guard (sm.starvation_cycles = X): once every X cycles a
 * scheduler gives one issue slot to the ready warp that has waited longest,
 * provided it has waited at least X cycles.  Under a greedy/oldest priority
 * the youngest warps of a full SM would otherwise not issue at all until
 * older CTAs finish; on the H200 they do creep forward (validation/h200
 * README point 5: young CTAs read their start time 10-33 us late, yet
 * before any CTA ends, and their clock read four instructions later comes
 * microseconds after that). */
int warpsched_starved(sm *m, warp_sched *ws, uint64_t c, uint64_t lim)
{
    uint64_t least = UINT64_MAX, best_last = UINT64_MAX;
    int pick = -1;
    /* Before min_wake no warp is ready (a lower bound of every ACTIVE
     * warp's wake), so the scan below would pick none, refresh no wake and
     * only move starve_at, from the least last issue of the ACTIVE warps.
     * That changes only when this scheduler issues (last_issue, and
     * BAR/EXIT leave ACTIVE) or the SM releases or launches warps (the
     * release epoch): while neither happened, the last scan's least is
     * exact.  A memory-bound kernel, whose warps wait longer than the
     * guard's limit, would otherwise scan every scheduler every cycle. */
    if (c < ws->min_wake && ws->least_valid && ws->least_issued == ws->issued &&
        ws->least_epoch == m->release_epoch) {
        least = ws->least_issue;
        ws->starve_at = least == UINT64_MAX ? c + 1 : SK_MAX(least + lim, c + 1);
        return -1;
    }
    for (int i = 0; i < ws->n; i++) {
        warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        least = SK_MIN(least, w->last_issue);
        if (w->last_issue + lim <= c && w->last_issue < best_last && sm_warp_ready(m, w, c)) {
            pick = ws->order[i];
            best_last = w->last_issue;
        }
    }
    ws->least_issue = least;
    ws->least_issued = ws->issued;
    ws->least_epoch = m->release_epoch;
    ws->least_valid = 1;
    if (pick >= 0)
        ws->starve_at = c + lim;
    else
        ws->starve_at = least == UINT64_MAX ? c + 1 : SK_MAX(least + lim, c + 1);
    return pick;
}
