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
 * C SMs of one cluster group (topo.h) have room, takes the group with the
 * most free CTA slots per SM (ties in turn), and hands the C CTAs to C
 * distinct SMs of it, each to the SM with the fewest CTAs.  Groups of the tail
 * GPCs (the "random" SMs) take only clusters of up to
 * topology.tail_max_cluster CTAs.  The balance is measured (E26 on an H100,
 * validation/h100/cluster: clusters of 2 leave every SM with the same
 * count, as one-CTA clusters do, and larger ones spread evenly over the
 * GPCs that take them); the order among equal groups is not.
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

/* CTAs of the bound kernel SM m can still take. */
static int room(const sim *s, const sm *m, int per_sm)
{
    return sm_fits(s, m, &s->need) ? SK_MAX(per_sm - m->used_ctas, 1) : 0;
}

/* The SM for the next CTA of cluster kernel kr (bound), or -1 to wait.  A
 * cluster's CTAs go to distinct SMs (E26: every one of about 14,000
 * clusters of 2-16 CTAs on an H100), so a group takes a cluster when C of
 * its SMs have room. */
static int cluster_pick(sim *s, dispatcher *d, sim_kernel *kr)
{
    const topo *t = &s->topo;
    int per_sm = sm_ctas_per_sm(&s->c, &s->need);
    int csize = (int)kr->k.cluster;
    if (kr->cl_left == 0) {
        /* the group with the most room per SM, the turn breaking ties */
        int found = -1, found_free = 0, found_n = 1;
        for (int k = 0; k < t->ncgroups; k++) {
            int g = (d->cl_ptr + k) % t->ncgroups;
            if (csize > t->cg_max[g])
                continue;
            int free_slots = 0, open = 0, n = topo_cgroup_usable(t, g, s->allowed);
            for (int j = t->cg_first[g]; j < t->cg_first[g + 1]; j++) {
                int r = room(s, &s->sms[t->cg_sms[j]], per_sm);
                free_slots += r;
                open += r > 0;
            }
            if (open >= csize && (found < 0 || (int64_t)free_slots * found_n > (int64_t)found_free * n)) {
                found = g;
                found_free = free_slots;
                found_n = n;
            }
        }
        if (found < 0)
            return -1;
        kr->cl_group = found;
        d->cl_ptr = (found + 1) % t->ncgroups;
        kr->cl_left = (uint32_t)csize;
    }
    int best = -1, placed = csize - (int)kr->cl_left;
    for (int j = t->cg_first[kr->cl_group]; j < t->cg_first[kr->cl_group + 1]; j++) {
        const sm *m = &s->sms[t->cg_sms[j]];
        int taken = 0;
        for (int i = 0; i < placed && !taken; i++)
            taken = kr->cl_sms[i] == m->id;
        if (!taken && sm_fits(s, m, &s->need) && (best < 0 || m->used_ctas < s->sms[best].used_ctas))
            best = m->id;
    }
    if (best >= 0)
        kr->cl_sms[placed] = best, kr->cl_left--;
    return best;
}

/* Concurrent kernels (docs/design.md, "Concurrent kernels"): each live
 * kernel has its own CTA queue, and the one engine serves them oldest
 * first.  A younger kernel's CTA is placed only when the older kernels'
 * next CTAs find no SM now, so it fills the slots they leave free, as the
 * second kernel of E14 does; the occupancy limits are the SM's, over every
 * kernel it holds.  The engine stays busy dispatch.cta_ps per CTA whichever
 * kernel it serves. */
static void dispatch_fire(sim *s, event *ev)
{
    dispatcher *d = &s->disp;
    ps_t t = ev->t;
    for (;;) {
        int placed = 0;
        ps_t opens = PS_MAX;      /* the earliest dispatch of a kernel not open yet */
        for (int li = 0; li < s->nlive && !placed; li++) {
            sim_kernel *kr = s->live[li];
            if (!kr->started || kr->ctas_left == 0)
                continue;
            if (kr->dispatch_ps > t) {
                opens = SK_MIN(opens, kr->dispatch_ps);
                continue;
            }
            if (!kr->have_next) {
                int r = sim_next_cta(s, kr, &kr->next);
                if (r < 0) {
                    s->stop = 1;
                    return;
                }
                if (r == 0)
                    continue;
                kr->have_next = 1;
            }
            if (d->free_ps > t) {
                evq_push(&s->q, ev, d->free_ps);
                return;
            }
            sim_bind(s, kr);
            d->next = kr->next;
            int id = kr->k.cluster > 1 ? cluster_pick(s, d, kr) : d->ops->pick(d->st, s, &s->need);
            if (id < 0)
                continue;           /* no room for it now: a younger kernel may fit */
            sm_launch_cta(s, &s->sms[id], kr, &kr->next, t);
            if (kr->sm_ctas[id]++ == 0)
                kr->sm_since[id] = t;
            if (s->sink_want & SINK_W_CTA_DISPATCH) {
                sink_cta sc = {.kernel = kr->ks.index, .cta = kr->next.id, .sm = id, .t = t};
                if (sim_sink_cta_dispatch(s, &sc) < 0)
                    return;         /* s->stop is set */
            }
            kr->have_next = 0;
            kr->ctas_left--;
            kr->ctas_running++;
            d->free_ps = t + s->c.dispatch_cta_ps;
            placed = 1;
        }
        if (!placed) {
            /* wait for a CTA to finish, or for a kernel's dispatch to open */
            if (opens < PS_MAX)
                evq_push(&s->q, ev, opens);
            return;
        }
    }
}

void dispatch_init(dispatcher *d, sim *s)
{
    d->ops = dispatch_lookup(s->c.dispatch_policy);
    d->st = d->ops->create ? d->ops->create(s) : NULL;
    event_init(&d->ev, dispatch_fire, "dispatch", 0);
    d->free_ps = 0;
    d->cl_ptr = 0;
}

void dispatch_kernel_start(sim *s, sim_kernel *kr)
{
    int busy = 0;
    for (int i = 0; i < s->nlive; i++)
        busy |= s->live[i] != kr && s->live[i]->started && s->live[i]->ctas_left > 0;
    if (!busy)
        s->disp.cl_ptr = 0;
    kr->cl_group = 0;
    kr->cl_left = 0;
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
    int any = 0;
    for (int i = 0; i < s->nlive && !any; i++)
        any = s->live[i]->started && s->live[i]->ctas_left > 0;
    if (!any)
        return;
    t = SK_MAX(t, d->free_ps);
    if (!event_queued(&d->ev) || d->ev.t > t)
        evq_push(&s->q, &d->ev, t);
}
