/* dispatch_static_weights.c -- static per-SM weights from a speed map.
 *
 * The map is each SM's clock when the simulation starts, as the silicon
 * model sets it (silicon.preset: uniform, skewed, or a file of per-SM
 * fmax scales): what a driver could hold as a binning table, measured once.
 * The next CTA goes to the SM with room whose (n_i + 1) / w_i is smallest
 * (n_i its resident CTAs, w_i its weight), ties to the lower id.  Unlike
 * clock_aware it never looks at the clocks again, so it does not follow
 * DVFS, and it never holds a CTA back. */
#include <stdlib.h>
#include "skewsim/sim.h"

typedef struct sw_state {
    int *w;                   /* per SM: MHz when the first kernel launched */
    int have;
} sw_state;

static void *sw_create(const sim *s)
{
    sw_state *st = xcalloc(1, sizeof *st);
    st->w = xcalloc((size_t)s->nsms, sizeof *st->w);
    return st;
}

/* The map is read once, at the first launch: the silicon model has set
 * the clocks by then (sim_create makes the dispatcher first). */
static void sw_kernel_start(void *p, const sim *s)
{
    sw_state *st = p;
    if (st->have)
        return;
    st->have = 1;
    for (int i = 0; i < s->nsms; i++)
        st->w[i] = SK_MAX(s->sms[i].mhz, 1);
}

static void sw_destroy(void *p)
{
    sw_state *st = p;
    if (st)
        free(st->w);
    free(st);
}

static int sw_pick(void *p, const sim *s, const cta_need *need)
{
    const sw_state *st = p;
    int best = -1;
    for (int i = 0; i < s->nsms; i++) {
        if (!sm_fits(s, &s->sms[i], need))
            continue;
        /* (n_i + 1) / w_i < (n_b + 1) / w_b, cross-multiplied */
        if (best < 0 || (int64_t)(s->sms[i].used_ctas + 1) * st->w[best] <
                            (int64_t)(s->sms[best].used_ctas + 1) * st->w[i])
            best = i;
    }
    return best;
}

const dispatch_ops dispatch_static_weights = {
    .name = "static_weights",
    .create = sw_create,
    .destroy = sw_destroy,
    .kernel_start = sw_kernel_start,
    .pick = sw_pick,
};
