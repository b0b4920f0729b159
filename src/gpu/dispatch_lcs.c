/* dispatch_lcs.c -- lazy CTA scheduling, after Lee et al., "Improving GPGPU
 * resource utilization through alternative thread block scheduling", HPCA
 * 2014.
 *
 * The first wave fills every SM as far as resources allow (least-loaded
 * first).  Under a greedy warp scheduler (GTO) the oldest CTA of an SM
 * issues most, and the younger ones mostly wait: LCS measures, when the
 * first CTA of the kernel finishes on an SM, how many instructions the SM
 * issued in all (T) against how many that CTA needed (W), and from then on
 * keeps at most ceil(T / W) CTAs on that SM: as many as were really issuing.
 * The paper counts per-CTA issue in the warp scheduler; here W is the
 * finished CTA's exact instruction count (its program, work factor and
 * warps), which is the same number for the CTA that finished, and T the
 * SM's issue counter, so nothing is added to the SM's issue loop.
 */
#include <stdlib.h>
#include "skewsim/sim.h"

typedef struct lcs_state {
    int *limit;               /* per SM: CTAs it may hold (0: first wave, no limit yet) */
    uint64_t *issued0;        /* per SM: sm_issued() when the kernel began */
} lcs_state;

static void *lcs_create(const sim *s)
{
    lcs_state *st = xcalloc(1, sizeof *st);
    st->limit = xcalloc((size_t)s->nsms, sizeof *st->limit);
    st->issued0 = xcalloc((size_t)s->nsms, sizeof *st->issued0);
    return st;
}

static void lcs_destroy(void *p)
{
    lcs_state *st = p;
    if (!st)
        return;
    free(st->limit);
    free(st->issued0);
    free(st);
}

static void lcs_kernel_start(void *p, const sim *s)
{
    lcs_state *st = p;
    for (int i = 0; i < s->nsms; i++) {
        st->limit[i] = 0;
        st->issued0[i] = sm_issued(&s->sms[i]);
    }
}

static void lcs_done(void *p, const sim *s, int id, const cta_slot *cs, ps_t t)
{
    (void)t;
    lcs_state *st = p;
    if (st->limit[id] != 0)
        return;
    const sm *m = &s->sms[id];
    /* The finished CTA's program: the one its warps ran (their slots keep it). */
    const warp *w0 = &m->warps[cs->warp_slot[0]];
    uint64_t work = 0;
    for (uint32_t k = 0; k < s->k.nprogs; k++)
        if (s->k.progs[k].code == w0->code) {
            for (int i = 0; i < cs->nwarps; i++)
                work += prog_warp_count(&s->k.progs[k], w0->work, (uint32_t)i);
            break;
        }
    uint64_t total = sm_issued(m) - st->issued0[id];
    st->limit[id] = work ? (int)SK_MIN((total + work - 1) / work, (uint64_t)s->c.max_ctas) : s->c.max_ctas;
    st->limit[id] = SK_MAX(st->limit[id], 1);
}

static int lcs_pick(void *p, const sim *s, const cta_need *need)
{
    const lcs_state *st = p;
    int best = -1;
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        if (!sm_fits(s, m, need) || (st->limit[i] && m->used_ctas >= st->limit[i]))
            continue;
        if (best < 0 || m->used_ctas < s->sms[best].used_ctas)
            best = i;
    }
    return best;
}

int dispatch_lcs_limit(const struct sim *s, int sm_id)
{
    if (s->disp.ops != &dispatch_lcs || sm_id < 0 || sm_id >= s->nsms)
        return -1;
    return ((const lcs_state *)s->disp.st)->limit[sm_id];
}

const dispatch_ops dispatch_lcs = {
    .name = "lcs",
    .create = lcs_create,
    .destroy = lcs_destroy,
    .kernel_start = lcs_kernel_start,
    .pick = lcs_pick,
    .cta_done = lcs_done,
};
