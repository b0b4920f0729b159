/* dispatch_greedy.c -- greedy least-loaded: the next CTA goes to the SM with
 * room that holds the fewest CTAs now, ties to the lower SM id.  The
 * textbook list scheduler (Graham's greedy rule); unlike round_robin it
 * refills whichever SM emptied first, so a faster SM takes more CTAs
 * without knowing it is faster. */
#include "skewsim/sim.h"

static int greedy_pick(void *st, const sim *s, const cta_need *need)
{
    (void)st;
    int best = -1;
    for (int i = 0; i < s->nsms; i++)
        if (sm_fits(s, &s->sms[i], need) && (best < 0 || s->sms[i].used_ctas < s->sms[best].used_ctas))
            best = i;
    return best;
}

const dispatch_ops dispatch_greedy = {
    .name = "greedy",
    .pick = greedy_pick,
};
