/* dispatch_bcs.c -- block CTA scheduling, after Lee et al., "Improving GPGPU
 * resource utilization through alternative thread block scheduling", HPCA
 * 2014: consecutive CTAs (2k, 2k + 1) go to the same SM, so that CTAs that
 * touch neighbouring data share that SM's L1.  The engine places a pair only
 * on an SM with room for both (least-loaded first, ties to the lower id) and
 * otherwise waits for room; the second CTA of a pair follows the first.  A
 * grid's odd last CTA, an SM that holds fewer than two such CTAs at all, or
 * nothing running (nothing would free room) place CTAs one at a time. */
#include <stdlib.h>
#include "skewsim/sim.h"

typedef struct bcs_state {
    int pair_sm;              /* SM of the first CTA of the open pair, -1: none */
} bcs_state;

static void *bcs_create(const sim *s)
{
    (void)s;
    bcs_state *st = xcalloc(1, sizeof *st);
    st->pair_sm = -1;
    return st;
}

static void bcs_kernel_start(void *p, const sim *s)
{
    (void)s;
    ((bcs_state *)p)->pair_sm = -1;
}

/* Whether SM m has room for two more CTAs of this need. */
static int fits_two(const sim *s, const sm *m, const cta_need *n)
{
    const cfg *c = &s->c;
    return m->used_ctas + 2 <= c->max_ctas && m->used_threads + 2 * n->threads <= c->max_threads &&
           m->used_warps + 2 * n->warps <= c->max_warps && m->used_regs + 2 * n->regs <= c->registers &&
           m->used_smem + 2 * n->smem <= c->smem_bytes;
}

static int bcs_pick(void *p, const sim *s, const cta_need *need)
{
    bcs_state *st = p;
    if (st->pair_sm >= 0) {
        int id = st->pair_sm;
        if (!sm_fits(s, &s->sms[id], need))
            return -1;        /* cannot happen: room for two was checked */
        st->pair_sm = -1;
        return id;
    }
    int single = s->ctas_left < 2 || sm_ctas_per_sm(&s->c, need) < 2;
    int best = -1;
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        if (!(single ? sm_fits(s, m, need) : fits_two(s, m, need)))
            continue;
        if (best < 0 || m->used_ctas < s->sms[best].used_ctas)
            best = i;
    }
    if (best < 0 && !single && s->ctas_running == 0)
        for (int i = 0; i < s->nsms && best < 0; i++)
            if (sm_fits(s, &s->sms[i], need))
                return i;
    if (best >= 0 && !single)
        st->pair_sm = best;
    return best;
}

const dispatch_ops dispatch_bcs = {
    .name = "bcs",
    .create = bcs_create,
    .destroy = free,
    .kernel_start = bcs_kernel_start,
    .pick = bcs_pick,
};
