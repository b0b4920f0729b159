/* dispatch.c -- the CTA dispatch engine (GigaThread).
 *
 * The engine takes CTAs from the trace in id order, asks the configured
 * policy for an SM with room, and hands the CTA over.  It is busy
 * dispatch.cta_ps per CTA, so a large grid's first wave reaches the SMs over
 * time rather than all at once; with no SM free it waits for a CTA to
 * finish (dispatch_kick from sim_cta_finished).
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
        int id = d->ops->pick(d->st, s, &s->need);
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
