/* dispatch_dyncta.c -- DYNCTA, after Kayiran et al., "Neither more nor less:
 * optimizing thread-level parallelism for GPGPUs", PACT 2013.
 *
 * Each SM has a CTA limit n_i, starting at the most that fit.  Every
 * sampling period the SM's counters decide a step:
 *   C_idle > T_IDLE          n_i + 1   (too little to issue: more TLP)
 *   else C_mem > T_MEM_HIGH  n_i - 1   (warps wait on memory: contention)
 *   else C_mem < T_MEM_LOW   n_i + 1
 * within 1..max.  C_idle: cycles no warp of the SM could issue for want of
 * warps (the stall breakdown's no_cta and barrier); C_mem: cycles its warps
 * waited on global loads (memory); both per SM cycle, over all schedulers.
 * The paper samples every 2048 cycles with T_IDLE 16, T_MEM_LOW 128 and
 * T_MEM_HIGH 384 per period; here the counters are read when the engine
 * acts for that SM (a CTA finishes or is placed) once at least a period has
 * passed, scaled to one period.  The dispatcher places the next CTA on the
 * least-loaded SM with room below its limit.
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/sim.h"

#define PERIOD_CYCLES 2048    /* Kayiran et al. 2013, sampling period */
#define T_IDLE 16
#define T_MEM_LOW 128
#define T_MEM_HIGH 384

typedef struct dyn_sm {
    int limit;
    uint64_t at;              /* cycle of the last sample */
    uint64_t idle, mem;       /* counters then */
} dyn_sm;

typedef struct dyn_state {
    dyn_sm *sm;
    int nsms;
} dyn_state;

static void *dyn_create(const sim *s)
{
    dyn_state *st = xcalloc(1, sizeof *st);
    st->nsms = s->nsms;
    st->sm = xcalloc((size_t)s->nsms, sizeof *st->sm);
    return st;
}

static void dyn_destroy(void *p)
{
    dyn_state *st = p;
    if (st)
        free(st->sm);
    free(st);
}

static void counters(const sim *s, const sm *m, uint64_t c, uint64_t *idle, uint64_t *mem)
{
    uint64_t st[SM_NSTALLS];
    sm_stall_cycles(m, c, st);
    *idle = (st[SM_STALL_NO_CTA] + st[SM_STALL_BARRIER]) / (uint64_t)s->c.warp_schedulers;
    *mem = st[SM_STALL_MEMORY] / (uint64_t)s->c.warp_schedulers;
}

static void dyn_kernel_start(void *p, const sim *s)
{
    dyn_state *st = p;
    int max = SK_MAX(sm_ctas_per_sm(&s->c, &s->need), 1);
    for (int i = 0; i < s->nsms; i++) {
        dyn_sm *d = &st->sm[i];
        d->limit = max;
        d->at = sm_cycle_at(&s->sms[i], s->q.now);
        counters(s, &s->sms[i], d->at, &d->idle, &d->mem);
    }
}

static void sample(dyn_state *st, const sim *s, int id)
{
    dyn_sm *d = &st->sm[id];
    const sm *m = &s->sms[id];
    uint64_t c = sm_cycle_at(m, s->q.now);
    if (c < d->at + PERIOD_CYCLES)
        return;
    uint64_t idle, mem;
    counters(s, m, c, &idle, &mem);
    double scale = (double)PERIOD_CYCLES / (double)(c - d->at);
    double ci = (double)(idle - d->idle) * scale, cm = (double)(mem - d->mem) * scale;
    int max = SK_MAX(sm_ctas_per_sm(&s->c, &s->need), 1);
    if (ci > T_IDLE)
        d->limit++;
    else if (cm > T_MEM_HIGH)
        d->limit--;
    else if (cm < T_MEM_LOW)
        d->limit++;
    d->limit = SK_MAX(1, SK_MIN(d->limit, max));
    d->at = c;
    d->idle = idle;
    d->mem = mem;
}

static void dyn_done(void *p, const sim *s, int id, const cta_slot *cs, ps_t t)
{
    (void)cs;
    (void)t;
    sample(p, s, id);
}

static int dyn_pick(void *p, const sim *s, const cta_need *need)
{
    dyn_state *st = p;
    int best = -1;
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        if (!sm_fits(s, m, need))
            continue;
        sample(st, s, i);
        if (m->used_ctas >= st->sm[i].limit)
            continue;
        if (best < 0 || m->used_ctas < s->sms[best].used_ctas)
            best = i;
    }
    return best;
}

int dispatch_dyncta_limit(const struct sim *s, int sm_id)
{
    if (s->disp.ops != &dispatch_dyncta || sm_id < 0 || sm_id >= s->nsms)
        return -1;
    return ((const dyn_state *)s->disp.st)->sm[sm_id].limit;
}

const dispatch_ops dispatch_dyncta = {
    .name = "dyncta",
    .create = dyn_create,
    .destroy = dyn_destroy,
    .kernel_start = dyn_kernel_start,
    .pick = dyn_pick,
    .cta_done = dyn_done,
};
