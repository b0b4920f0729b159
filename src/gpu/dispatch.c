/* dispatch.c -- the CTA dispatch engine (GigaThread).
 *
 * The engine takes CTAs from the trace in id order, asks the configured
 * policy for an SM with room, and hands the CTA over.  It is busy
 * dispatch.cta_ps per CTA, so a large grid's first wave reaches the SMs over
 * time rather than all at once; with no SM free it waits for a CTA to
 * finish (dispatch_kick from sim_cta_finished).
 *
 * A kernel with thread block clusters (kernel.cluster = C > 1) is placed by
 * the engine itself, not by the policy: cudaLaunchKernelEx guarantees that
 * a cluster's C CTAs are co-resident on one GPC, so the engine waits until
 * one cluster group (topo.h) has room for all C, taking the groups in
 * turn, and then hands the C CTAs to that group's SMs, each to the SM with
 * the fewest CTAs.  Groups of the tail GPCs (the "random" SMs) take only
 * clusters of up to topology.tail_max_cluster CTAs.  The hardware's own
 * order of GPCs for clusters is not measured; the turn is our assumption.
 */
#include <stdlib.h>
#include "skewsim/sim.h"

/* Indexed by enum cfg_dispatch_policy: both expand DISPATCH_POLICY_MAP. */
static const dispatch_ops *const registry[] = {
#define DISPATCH_ROW_(id, name, help) [DISPATCH_##id] = &dispatch_##name,
    DISPATCH_POLICY_MAP(DISPATCH_ROW_)
#undef DISPATCH_ROW_
};
_Static_assert(SK_ARRAY_LEN(registry) == DISPATCH_NPOLICIES, "one dispatch_ops per dispatch policy");

const dispatch_ops *dispatch_lookup(int policy)
{
    if (policy < 0 || (size_t)policy >= SK_ARRAY_LEN(registry))
        return NULL;
    return registry[policy];
}

/* CTAs of this kernel SM m can still take (one kernel runs at a time). */
static int room(const sim *s, const sm *m, int per_sm)
{
    return sm_fits(s, m, &s->need) ? SK_MAX(per_sm - m->used_ctas, 1) : 0;
}

/* The SM for the next CTA of a cluster kernel, or -1 to wait. */
static int cluster_pick(sim *s, dispatcher *d)
{
    const topo *t = &s->topo;
    int per_sm = sm_ctas_per_sm(&s->c, &s->need);
    int csize = (int)s->k.cluster;
    if (d->cl_left == 0) {
        int found = -1;
        for (int k = 0; k < t->ncgroups && found < 0; k++) {
            int g = (d->cl_ptr + k) % t->ncgroups;
            if (csize > t->cg_max[g])
                continue;
            int free_slots = 0;
            for (int j = t->cg_first[g]; j < t->cg_first[g + 1]; j++)
                free_slots += room(s, &s->sms[t->cg_sms[j]], per_sm);
            if (free_slots >= csize)
                found = g;
        }
        if (found < 0)
            return -1;
        d->cl_group = found;
        d->cl_ptr = (found + 1) % t->ncgroups;
        d->cl_left = (uint32_t)csize;
    }
    int best = -1;
    for (int j = t->cg_first[d->cl_group]; j < t->cg_first[d->cl_group + 1]; j++) {
        const sm *m = &s->sms[t->cg_sms[j]];
        if (sm_fits(s, m, &s->need) && (best < 0 || m->used_ctas < s->sms[best].used_ctas))
            best = t->cg_sms[j];
    }
    if (best >= 0)
        d->cl_left--;
    return best;
}

static void dispatch_fire(sim *s, event *ev)
{
    dispatcher *d = &s->disp;
    ps_t t = ev->t;
    for (;;) {
        if (!d->have_next) {
            int r = sim_next_cta(s, &d->next);
            if (r < 0) {
                s->stop = 1;
                return;
            }
            if (r == 0)
                return;
            d->have_next = 1;
        }
        if (d->free_ps > t) {
            evq_push(&s->q, ev, d->free_ps);
            return;
        }
        int id = s->k.cluster > 1 ? cluster_pick(s, d) : d->ops->pick(d->st, s, &s->need);
        if (id < 0)
            return;                 /* wait for a CTA to finish */
        sm_launch_cta(s, &s->sms[id], &d->next, &s->need, t);
        if (s->sink_want & SINK_W_CTA_DISPATCH) {
            sink_cta sc = {.kernel = s->ks.index, .cta = d->next.id, .sm = id, .t = t};
            if (sim_sink_cta_dispatch(s, &sc) < 0)
                return;             /* s->stop is set */
        }
        d->have_next = 0;
        s->ctas_left--;
        s->ctas_running++;
        d->free_ps = t + s->c.dispatch_cta_ps;
    }
}

void dispatch_init(dispatcher *d, sim *s)
{
    d->ops = dispatch_lookup(s->c.dispatch_policy);
    d->st = d->ops->create ? d->ops->create(s) : NULL;
    event_init(&d->ev, dispatch_fire, "dispatch", 0);
    d->free_ps = 0;
    d->have_next = 0;
    d->cl_ptr = d->cl_group = 0;
    d->cl_left = 0;
}

void dispatch_kernel_start(sim *s)
{
    s->disp.cl_ptr = s->disp.cl_group = 0;
    s->disp.cl_left = 0;
}

void dispatch_free(dispatcher *d)
{
    if (d->ops && d->ops->destroy)
        d->ops->destroy(d->st);
    d->st = NULL;
}

void dispatch_kick(sim *s, ps_t t)
{
    dispatcher *d = &s->disp;
    if (s->ctas_left == 0)
        return;
    t = SK_MAX(t, d->free_ps);
    if (!event_queued(&d->ev) || d->ev.t > t)
        evq_push(&s->q, &d->ev, t);
}
