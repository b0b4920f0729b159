/* dispatch_oracle.c -- an upper bound, not a buildable engine: a dispatcher
 * that knows what no hardware knows.  Exactly what it reads:
 *  - every SM's clock as the silicon model has decided it, including a
 *    decision already taken that is still to come into force
 *    (silicon_sm_mhz() at the current time);
 *  - every CTA's exact work: the dynamic warp-instruction count of each of
 *    its warps (prog_warp_count() on its program and work factor, loops
 *    expanded, ifwarp blocks per warp);
 *  - every SM's work remaining: the work of the CTAs it was given in this
 *    kernel minus the instructions it has issued since the kernel began.
 * It does not know memory stalls, barriers or how well a CTA overlaps with
 * others: it assumes an SM retires its remaining work at one rate per clock
 * cycle, shared by its CTAs (issue-bound, as the FMA kernel is).
 *
 * Placement: the SM with room whose (remaining_i + w) / f_i is smallest (w
 * the next CTA's work, f_i its clock), ties to the lower id.  Tail hold: if
 * at least as many full SMs as CTAs are left would each finish the CTA
 * sooner after their current work, it waits for one of them (never for a
 * cooperative kernel, never with nothing running).
 */
#include <stdlib.h>
#include "skewsim/sim.h"

typedef struct oracle_state {
    uint64_t *given;          /* per SM: work of the CTAs given this kernel */
    uint64_t *issued0;        /* per SM: sm_issued() when the kernel began */
    uint32_t memo_prog;       /* the last CTA's program and work ... */
    double memo_work;
    uint64_t memo_w;          /* ... and its work (0: none yet) */
} oracle_state;

static void *or_create(const sim *s)
{
    oracle_state *st = xcalloc(1, sizeof *st);
    st->given = xcalloc((size_t)s->nsms, sizeof *st->given);
    st->issued0 = xcalloc((size_t)s->nsms, sizeof *st->issued0);
    return st;
}

static void or_destroy(void *p)
{
    oracle_state *st = p;
    if (!st)
        return;
    free(st->given);
    free(st->issued0);
    free(st);
}

static void or_kernel_start(void *p, const sim *s)
{
    oracle_state *st = p;
    for (int i = 0; i < s->nsms; i++) {
        st->given[i] = 0;
        st->issued0[i] = sm_issued(&s->sms[i]);
    }
    st->memo_w = 0;
}

static uint64_t cta_work(oracle_state *st, const sim *s, const cta_desc *d)
{
    if (st->memo_w && st->memo_prog == d->prog && st->memo_work == d->work)
        return st->memo_w;
    uint64_t w = 0;
    for (int i = 0; i < s->need.warps; i++)
        w += prog_warp_count(&s->k.progs[d->prog], d->work, (uint32_t)i);
    st->memo_prog = d->prog;
    st->memo_work = d->work;
    st->memo_w = SK_MAX(w, 1);
    return st->memo_w;
}

/* Time to finish w more work on SM i, in units that cancel (work / MHz). */
static double finish(const oracle_state *st, const sim *s, int i, uint64_t w)
{
    const sm *m = &s->sms[i];
    uint64_t done = sm_issued(m) - st->issued0[i];
    uint64_t rem = st->given[i] > done ? st->given[i] - done : 0;
    int f = silicon_sm_mhz(s->si, i, s->q.now);
    return (double)(rem + w) / (double)SK_MAX(f, 1);
}

static int or_pick(void *p, const sim *s, const cta_need *need)
{
    oracle_state *st = p;
    uint64_t w = cta_work(st, s, &s->disp.next);
    int best = -1;
    double bt = 0;
    for (int i = 0; i < s->nsms; i++) {
        if (!sm_fits(s, &s->sms[i], need))
            continue;
        double t = finish(st, s, i, w);
        if (best < 0 || t < bt) {
            best = i;
            bt = t;
        }
    }
    if (best >= 0 && !s->cooperative && s->ctas_running > 0) {
        uint64_t sooner = 0;
        for (int i = 0; i < s->nsms && sooner < s->ctas_left; i++)
            if (s->sms[i].used_ctas > 0 && !sm_fits(s, &s->sms[i], need) && finish(st, s, i, w) < bt)
                sooner++;
        if (sooner >= s->ctas_left)
            return -1;
    }
    if (best >= 0)
        st->given[best] += w;
    return best;
}

const dispatch_ops dispatch_oracle = {
    .name = "oracle",
    .create = or_create,
    .destroy = or_destroy,
    .kernel_start = or_kernel_start,
    .pick = or_pick,
};
