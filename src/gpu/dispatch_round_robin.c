/* dispatch_round_robin.c -- the baseline: CTA i goes to the next SM id, round-robin,
 * skipping SMs that are full.  What a simulator without a topology does. */
#include <stdlib.h>
#include "skewsim/sim.h"

typedef struct rr_state {
    int next;       /* SM id to try first */
} rr_state;

static void *rr_create(const sim *s)
{
    (void)s;
    return xcalloc(1, sizeof(rr_state));
}

static void rr_kernel_start(void *st, const sim *s)
{
    (void)s;
    ((rr_state *)st)->next = 0;
}

static int rr_pick(void *st, const sim *s, const cta_need *need)
{
    rr_state *r = st;
    for (int k = 0; k < s->nsms; k++) {
        int id = (r->next + k) % s->nsms;
        if (sm_fits(s, &s->sms[id], need)) {
            r->next = (id + 1) % s->nsms;
            return id;
        }
    }
    return -1;
}

const dispatch_ops dispatch_round_robin = {
    .name = "round_robin",
    .create = rr_create,
    .destroy = free,
    .kernel_start = rr_kernel_start,
    .pick = rr_pick,
    .cta_done = NULL,
};
