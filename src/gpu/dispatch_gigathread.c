/* dispatch_gigathread.c -- CTA placement over the GPC/TPC tree, in bursts.
 *
 * Model (fitted to the CTA->SM placement measured on the H200, see
 * docs/calibration.md and validation/h200):
 *  - The engine serves one group at a time with a *burst*: one CTA to each
 *    SM of the group that holds the fewest CTAs in that group (a "level"),
 *    in TPC order, both SMs of a TPC back to back.  So a first wave fills
 *    GPC by GPC: 0,1,16,17,32,33,48,49 (GPC 0), then GPC 1, ...
 *  - GPCs are served round-robin.  The tail GPCs (topology.tail_gpcs: on the
 *    H200 the four TPCs, SMs 124-131, outside any cluster-capable GPC) are
 *    served first, and then again every dispatch.tail_every_bursts GPC
 *    bursts (dispatch.tail_first_gap_bursts the first time): they get more
 *    than a GPC's share of the engine, as measured.  With 0 they are simply
 *    the last GPCs of the ring.
 *  - A group with no SM that can take the CTA is skipped.  Once the chip is
 *    full, a finished CTA frees one SM, and the round-robin reaches it: the
 *    next CTA goes to the SM that freed a slot first.
 * Not modelled: the balanced split of a final partial level over the TPCs
 * of a GPC (small grids such as 33 or 66 CTAs land one per TPC on the real
 * chip), and the dispatch state a kernel inherits from the previous one.
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/sim.h"

typedef struct gt_group {
    int *sm;            /* SM ids in walk order */
    int n;
} gt_group;

typedef struct gt_state {
    gt_group *g;        /* GPCs 0..head-1, then one group of all tail GPCs */
    int ngroups, head;  /* head = number of ring GPCs */
    int ptr;            /* next ring GPC */
    int since_tail;     /* GPC bursts since the tail group's last burst */
    int tail_served;
    int *burst;         /* SMs left in the current burst */
    int nburst, pos;
} gt_state;

static void *gt_create(const sim *s)
{
    const topo *t = &s->topo;
    gt_state *g = xcalloc(1, sizeof *g);
    int tail = s->c.tail_every_bursts > 0 ? s->c.tail_gpcs : 0;
    g->head = t->ngpcs - tail;
    g->ngroups = g->head + (tail > 0);
    g->g = xcalloc((size_t)g->ngroups, sizeof *g->g);
    for (int i = 0; i < g->head; i++) {
        gt_group *gr = &g->g[i];
        gr->n = t->gpc_first[i + 1] - t->gpc_first[i];
        gr->sm = xcalloc((size_t)gr->n, sizeof *gr->sm);
        memcpy(gr->sm, &t->by_gpc[t->gpc_first[i]], (size_t)gr->n * sizeof *gr->sm);
    }
    if (tail) {
        gt_group *gr = &g->g[g->head];
        int first = t->gpc_first[g->head];
        gr->n = t->nsms - first;
        gr->sm = xcalloc((size_t)gr->n, sizeof *gr->sm);
        int rot = (s->c.tail_rotate_tpcs * s->c.sms_per_tpc) % (gr->n ? gr->n : 1);
        for (int k = 0; k < gr->n; k++)
            gr->sm[k] = t->by_gpc[first + (k + rot) % gr->n];
    }
    g->burst = xcalloc((size_t)t->nsms, sizeof *g->burst);
    return g;
}

static void gt_destroy(void *st)
{
    gt_state *g = st;
    if (!g)
        return;
    for (int i = 0; i < g->ngroups; i++)
        free(g->g[i].sm);
    free(g->g);
    free(g->burst);
    free(g);
}

static void gt_kernel_start(void *st, const sim *s)
{
    (void)s;
    gt_state *g = st;
    g->ptr = 0;
    g->since_tail = 0;
    g->tail_served = 0;
    g->nburst = g->pos = 0;
}

/* The CTAs of the kernel being placed on SM id: levels count the served
 * kernel's CTAs only, so a kernel running beside another (streams) spreads
 * over the SMs as it would alone (E14: B's 132 CTAs land one per SM next
 * to A's).  With one kernel this is the SM's used_ctas. */
static int level_of(const sim *s, int id)
{
    return s->bound ? s->bound->sm_ctas[id] : s->sms[id].used_ctas;
}

/* Fill g->burst with the SMs of group gi at its lowest level that fit,
 * unless that level is `cap` or more. */
static int make_burst(gt_state *g, const sim *s, int gi, const cta_need *need, int cap)
{
    const gt_group *gr = &g->g[gi];
    int level = -1;
    for (int k = 0; k < gr->n; k++) {
        const sm *m = &s->sms[gr->sm[k]];
        int u = level_of(s, gr->sm[k]);
        if (sm_fits(s, m, need) && (level < 0 || u < level))
            level = u;
    }
    g->nburst = g->pos = 0;
    if (level >= cap)
        return 0;
    for (int k = 0; k < gr->n && level >= 0; k++) {
        const sm *m = &s->sms[gr->sm[k]];
        if (level_of(s, gr->sm[k]) == level && sm_fits(s, m, need))
            g->burst[g->nburst++] = gr->sm[k];
    }
    return g->nburst;
}

static int tail_due(const gt_state *g, const sim *s)
{
    if (g->ngroups == g->head)
        return 0;
    if (!g->tail_served)
        return 1;
    int gap = g->tail_served == 1 ? s->c.tail_first_gap_bursts : s->c.tail_every_bursts;
    return g->since_tail >= gap;
}

static int gt_pick(void *st, const sim *s, const cta_need *need)
{
    gt_state *g = st;
    while (g->pos < g->nburst) {
        int id = g->burst[g->pos++];
        if (sm_fits(s, &s->sms[id], need))
            return id;
    }
    /* A new burst: the tail group when due, else the next ring GPC with
     * room.  One full turn without room anywhere means wait.  The engine
     * knows the grid size: the tail group is not given more levels than
     * the grid can fill on every SM (ceil(grid / SMs)). */
    int cap = (int)SK_MIN((s->k.grid + (uint64_t)s->nsms - 1) / (uint64_t)s->nsms, (uint64_t)s->c.max_ctas);
    if (tail_due(g, s) && make_burst(g, s, g->head, need, cap) > 0) {
        g->tail_served++;
        g->since_tail = 0;
        return g->burst[g->pos++];
    }
    for (int k = 0; k < g->head; k++) {
        int gi = g->ptr;
        g->ptr = (g->ptr + 1) % g->head;
        if (make_burst(g, s, gi, need, INT32_MAX) > 0) {
            g->since_tail++;
            return g->burst[g->pos++];
        }
    }
    if (g->ngroups > g->head && make_burst(g, s, g->head, need, INT32_MAX) > 0)
        return g->burst[g->pos++];
    return -1;
}

const dispatch_ops dispatch_gigathread = {
    .name = "gigathread",
    .create = gt_create,
    .destroy = gt_destroy,
    .kernel_start = gt_kernel_start,
    .pick = gt_pick,
    .cta_done = NULL,
};
