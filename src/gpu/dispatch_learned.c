/* dispatch_learned.c -- a closed-loop dispatcher that learns each SM's
 * speed from the CTAs it finishes, and reads nothing else: no clock, no
 * silicon model, no trace.  What an engine could do with only completion
 * timestamps and cycle counters.
 *
 * For every CTA that finishes on SM i, with wall time d (arrival to
 * completion), SM cycles c over the same interval and k CTAs resident just
 * after it arrived (itself included), two exponentially weighted moving
 * averages (weight ALPHA for the newest sample):
 *   clk_i  <- c / d        the SM's cycles per picosecond (its clock, as seen)
 *   cyc_i  <- c / k        cycles of SM time one CTA costs when k share it
 * The next CTA goes to the SM with room whose expected completion,
 * (n_i + 1) * cyc_i / clk_i, is earliest (n_i its resident CTAs), ties to the
 * lower id.  An SM with no finished CTA yet takes the mean of the SMs that
 * have one; before any CTA finished every SM is alike and the rule is
 * least-loaded.  It never holds a CTA back.  The estimates persist across
 * kernels of a run (the SM's speed is the chip's, not the kernel's).
 *
 * ALPHA = 1/4 is a choice, not a measured constant: it forgets a clock
 * change within about four CTAs of that SM.
 */
#include <stdlib.h>
#include "skewsim/sim.h"

#define ALPHA 0.25

typedef struct learned_state {
    double *clk, *cyc;        /* per SM: the EWMAs (0: no sample yet) */
    int nsms;
} learned_state;

static void *ln_create(const sim *s)
{
    learned_state *st = xcalloc(1, sizeof *st);
    st->nsms = s->nsms;
    st->clk = xcalloc((size_t)s->nsms, sizeof *st->clk);
    st->cyc = xcalloc((size_t)s->nsms, sizeof *st->cyc);
    return st;
}

static void ln_destroy(void *p)
{
    learned_state *st = p;
    if (!st)
        return;
    free(st->clk);
    free(st->cyc);
    free(st);
}

static void ln_done(void *p, const sim *s, int id, const cta_slot *cs, ps_t t)
{
    learned_state *st = p;
    const sm *m = &s->sms[id];
    ps_t d = t - cs->arrive_ps;
    uint64_t c0 = sm_cycle_at(m, cs->arrive_ps), c1 = sm_cycle_at(m, t);
    if (d <= 0 || c1 <= c0)
        return;
    double clk = (double)(c1 - c0) / (double)d, cyc = (double)(c1 - c0) / SK_MAX(cs->co_resident, 1);
    if (st->clk[id] == 0) {
        st->clk[id] = clk;
        st->cyc[id] = cyc;
    } else {
        st->clk[id] += ALPHA * (clk - st->clk[id]);
        st->cyc[id] += ALPHA * (cyc - st->cyc[id]);
    }
}

static int ln_pick(void *p, const sim *s, const cta_need *need)
{
    const learned_state *st = p;
    double mclk = 0, mcyc = 0;
    int n = 0;
    for (int i = 0; i < s->nsms; i++)
        if (st->clk[i] > 0) {
            mclk += st->clk[i];
            mcyc += st->cyc[i];
            n++;
        }
    int best = -1;
    double best_t = 0;
    for (int i = 0; i < s->nsms; i++) {
        if (!sm_fits(s, &s->sms[i], need))
            continue;
        double per = n == 0 ? 1.0 : st->clk[i] > 0 ? st->cyc[i] / st->clk[i] : (mcyc / n) / (mclk / n);
        double tx = (s->sms[i].used_ctas + 1) * per;
        if (best < 0 || tx < best_t) {
            best = i;
            best_t = tx;
        }
    }
    return best;
}

double dispatch_learned_mhz(const sim *s, int sm_id)
{
    if (s->disp.ops != &dispatch_learned || sm_id < 0 || sm_id >= s->nsms)
        return 0;
    const learned_state *st = s->disp.st;
    return st->clk[sm_id] * 1e6;    /* cycles per ps -> MHz */
}

const dispatch_ops dispatch_learned = {
    .name = "learned",
    .create = ln_create,
    .destroy = ln_destroy,
    .pick = ln_pick,
    .cta_done = ln_done,
};
