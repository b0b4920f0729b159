/* tlsim.c -- a simulation's timeline (timeline.h, second part): which
 * process, thread, slice, counter and instant each engine event becomes.
 *
 * Layout (docs/figures.md, "Timelines"): pid 0 is the chip, pid g + 1 is
 * GPC g.  An SM runs several CTAs at once, and a trace viewer draws the
 * slices of one thread as a stack that must nest, so each SM has one
 * thread per CTA slot in use: tid = SM id * SLOTS + lane, "SM i slot k",
 * where a CTA takes the lowest lane free when it is dispatched (as the
 * Gantt figure stacks them).  Perfetto groups the lanes under their GPC in
 * SM order.  CTA slices are named "CTA <id>" in category "cta",
 * with args kernel, kernel_index, cta, sm, cycles and warps.  Counters are
 * written only when they change (a 132-SM chip at every DVFS epoch would
 * otherwise write 264 lines per step for flat lines), always at the first
 * step.  A DVFS decision is an instant where a clock changed: on the chip
 * track when the domain target moved, on the SM's thread when its own
 * clock moved.  The processes and threads are named at the first event,
 * from the sim's topology (a sink is created before the sim it watches).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/silicon.h"
#include "skewsim/sim.h"
#include "skewsim/timeline.h"

#define CHIP 0
#define SLOTS 1024              /* tid stride per SM: sm.max_ctas is at most 1024 */

typedef struct lane {
    uint64_t kernel, cta;
    int used;
} lane;

struct tlsim {
    tl_writer *w;
    int named;                  /* processes and threads written */
    int nsms;
    int *gpc;                   /* SM -> GPC */
    int *mhz;                   /* last written clock per SM, -1 none */
    double *vdd;                /* last written voltage per SM, NaN none */
    int target;                 /* last chip DVFS target, -1 none */
    double power_w, temp_c;     /* last chip counters written */
    lane *lanes;                /* [sm * max_ctas + k]: the CTA in lane k */
    int max_ctas;
    unsigned char *named_lane;  /* [sm * max_ctas + k]: its thread is named */
};

static int tid_of(int sm_id, int k)
{
    return sm_id * SLOTS + k;
}


tlsim *tlsim_open(const char *path, uint64_t max_events, sk_error *e)
{
    tl_writer *w = tl_open(path, max_events, e);
    if (!w)
        return NULL;
    tlsim *t = xcalloc(1, sizeof *t);
    t->w = w;
    t->target = -1;
    t->power_w = t->temp_c = NAN;
    return t;
}

static void name_lane(tlsim *t, const sim *s, int i, int k);

/* The processes and threads of s's topology, once. */
static void name_all(tlsim *t, const sim *s)
{
    if (t->named)
        return;
    t->named = 1;
    t->nsms = s->nsms;
    t->gpc = xcalloc((size_t)s->nsms + 1, sizeof *t->gpc);
    t->mhz = xcalloc((size_t)s->nsms + 1, sizeof *t->mhz);
    t->vdd = xcalloc((size_t)s->nsms + 1, sizeof *t->vdd);
    char name[96];
    snprintf(name, sizeof name, "chip %s", s->c.name);
    tl_process(t->w, CHIP, name, 0);
    tl_thread(t->w, CHIP, 0, "kernels", 0);
    for (int g = 0; g < s->topo.ngpcs; g++) {
        snprintf(name, sizeof name, "GPC %d", g);
        tl_process(t->w, g + 1, name, g + 1);
    }
    for (int i = 0; i < s->nsms; i++) {
        const topo_sm *m = &s->topo.sm[i];
        t->gpc[i] = m->gpc;
        t->mhz[i] = -1;
        t->vdd[i] = NAN;
    }
    t->max_ctas = s->c.max_ctas;
    t->lanes = xcalloc((size_t)s->nsms * (size_t)t->max_ctas + 1, sizeof *t->lanes);
    t->named_lane = xcalloc((size_t)s->nsms * (size_t)t->max_ctas + 1, 1);
    for (int i = 0; i < s->nsms; i++)
        name_lane(t, s, i, 0);
}

/* Name lane k of SM i the first time it is used (lane 0 at once, so that
 * every SM has a track even before it runs a CTA). */
static void name_lane(tlsim *t, const sim *s, int i, int k)
{
    unsigned char *f = &t->named_lane[(size_t)i * (size_t)t->max_ctas + (size_t)k];
    if (*f)
        return;
    *f = 1;
    char name[96];
    snprintf(name, sizeof name, "SM %d slot %d (TPC %d)", i, k, s->topo.sm[i].tpc_global);
    tl_thread(t->w, t->gpc[i] + 1, tid_of(i, k), name, tid_of(i, k));
}

static int on_dispatch(void *ud, const sim *s, const sink_cta *c)
{
    tlsim *t = ud;
    name_all(t, s);
    if (c->sm < 0 || c->sm >= t->nsms)
        return 0;
    lane *l = &t->lanes[(size_t)c->sm * (size_t)t->max_ctas];
    for (int k = 0; k < t->max_ctas; k++)
        if (!l[k].used) {
            l[k].used = 1;
            l[k].kernel = c->kernel;
            l[k].cta = c->cta;
            name_lane(t, s, c->sm, k);
            return 0;
        }
    return 0;
}

static int on_cta(void *ud, const sim *s, const cta_record *r)
{
    tlsim *t = ud;
    name_all(t, s);
    char name[48];
    snprintf(name, sizeof name, "CTA %llu", (unsigned long long)r->cta);
    /* A CTA finishes while its kernel runs: s->ks names that kernel and
     * s->need gives its CTAs' warps. */
    tl_arg a[] = {TL_S("kernel", s->ks.name), TL_I("kernel_index", r->kernel), TL_I("cta", r->cta),
                  TL_I("sm", r->sm), TL_I("cycles", r->cycles), TL_I("warps", s->need.warps)};
    int id = r->sm >= 0 && r->sm < t->nsms ? r->sm : 0, k = 0;
    lane *l = &t->lanes[(size_t)id * (size_t)t->max_ctas];
    for (int j = 0; j < t->max_ctas; j++)
        if (l[j].used && l[j].cta == r->cta && l[j].kernel == r->kernel) {
            l[j].used = 0;
            k = j;
            break;
        }
    name_lane(t, s, id, k);
    tl_slice(t->w, t->gpc[id] + 1, tid_of(id, k), name, "cta", r->start_ps, r->end_ps, a, (int)SK_ARRAY_LEN(a));
    return 0;
}

static int on_launch(void *ud, const sim *s, const kernel_stats *k)
{
    tlsim *t = ud;
    name_all(t, s);
    tl_arg a[] = {TL_S("kernel", k->name), TL_I("kernel_index", k->index), TL_I("ctas", k->ctas)};
    tl_instant(t->w, CHIP, 0, 'g', "kernel launch", "kernel", k->launch_ps, a, (int)SK_ARRAY_LEN(a));
    return 0;
}

static int on_end(void *ud, const sim *s, const kernel_stats *k)
{
    tlsim *t = ud;
    name_all(t, s);
    tl_arg a[] = {TL_S("kernel", k->name), TL_I("kernel_index", k->index), TL_I("ctas", k->ctas),
                  TL_I("warp_instructions", k->warp_instructions)};
    tl_slice(t->w, CHIP, 0, k->name, "kernel", k->launch_ps, k->done_ps, a, (int)SK_ARRAY_LEN(a));
    return 0;
}

static int on_dvfs(void *ud, const sim *s, ps_t at)
{
    tlsim *t = ud;
    name_all(t, s);
    if (!s->si)
        return 0;
    const si_chip_state *cs = silicon_chip(s->si);
    if (cs->target_mhz != t->target) {
        if (t->target >= 0) {
            tl_arg a[] = {TL_I("from_mhz", t->target), TL_I("to_mhz", cs->target_mhz),
                          TL_D("window_power_w", cs->window_power_w), TL_I("thermal_limited", cs->thermal_limited)};
            tl_instant(t->w, CHIP, 0, 'g', "DVFS target", "dvfs", at, a, (int)SK_ARRAY_LEN(a));
        }
        t->target = cs->target_mhz;
        tl_counter(t->w, CHIP, "DVFS target", at, "MHz", cs->target_mhz);
    }
    if (cs->power_w != t->power_w) {
        t->power_w = cs->power_w;
        tl_counter(t->w, CHIP, "chip power", at, "W", cs->power_w);
    }
    if (cs->temp_max_c != t->temp_c) {
        t->temp_c = cs->temp_max_c;
        tl_counter(t->w, CHIP, "hottest SM", at, "C", cs->temp_max_c);
    }
    char name[48];
    for (int i = 0; i < t->nsms && i < silicon_num_sms(s->si); i++) {
        const si_sm_state *m = silicon_sm(s->si, i);
        int pid = t->gpc[i] + 1;
        if (m->mhz != t->mhz[i]) {
            if (t->mhz[i] >= 0) {
                tl_arg a[] = {TL_I("from_mhz", t->mhz[i]), TL_I("to_mhz", m->mhz), TL_D("power_w", m->power_w)};
                tl_instant(t->w, pid, tid_of(i, 0), 't', "clock change", "dvfs", at, a, (int)SK_ARRAY_LEN(a));
            }
            t->mhz[i] = m->mhz;
            snprintf(name, sizeof name, "SM %d clock", i);
            tl_counter(t->w, pid, name, at, "MHz", m->mhz);
        }
        /* The supply moves by tenths of a millivolt with every load change:
         * a step of 0.5 mV or more is news, less is noise. */
        if (!(fabs(m->vdd_mv - t->vdd[i]) < 0.5)) {
            t->vdd[i] = m->vdd_mv;
            snprintf(name, sizeof name, "SM %d supply", i);
            tl_counter(t->w, pid, name, at, "mV", m->vdd_mv);
        }
    }
    return 0;
}

static int on_release(void *ud, const sim *s, const sink_barrier *b)
{
    tlsim *t = ud;
    if (b->kind != SINK_BAR_GRID)
        return 0;          /* CTA barriers: far too many for a timeline */
    name_all(t, s);
    tl_arg a[] = {TL_I("warps", b->warps), TL_S("kernel", s->ks.name)};
    tl_instant(t->w, CHIP, 0, 'g', "grid barrier release", "sync", b->t, a, (int)SK_ARRAY_LEN(a));
    return 0;
}

static const sink_ops TLSIM_OPS = {
    .name = "timeline",
    .kernel_launch = on_launch,
    .kernel_end = on_end,
    .cta_dispatch = on_dispatch,
    .cta_finish = on_cta,
    .barrier_release = on_release,
    .dvfs_step = on_dvfs,
};

sim_sink tlsim_sink(tlsim *t)
{
    sim_sink k = {&TLSIM_OPS, t};
    return k;
}

uint64_t tlsim_written(const tlsim *t)
{
    return tl_written(t->w);
}

uint64_t tlsim_dropped(const tlsim *t)
{
    return tl_dropped(t->w);
}

uint64_t tlsim_max_events(const tlsim *t)
{
    return tl_max_events(t->w);
}

static void release(tlsim *t)
{
    free(t->lanes);
    free(t->named_lane);
    free(t->gpc);
    free(t->mhz);
    free(t->vdd);
    free(t);
}

int tlsim_close(tlsim *t, sk_error *e)
{
    int rc = tl_close(t->w, e);
    release(t);
    return rc;
}

void tlsim_abort(tlsim *t)
{
    if (!t)
        return;
    tl_abort(t->w);
    release(t);
}
