/* sink.c -- handing events to the sinks (sink.h).
 *
 * One loop per event over the sinks that have its callback.  A sink that
 * fails stops the run: the message names what was being written, the run
 * loop sees s->stop and returns SK_EIO.
 */
#include <stdio.h>
#include "skewsim/sim.h"

unsigned sink_wants(const sink_ops *o)
{
    if (!o)
        return 0;
    return (o->kernel_launch ? SINK_W_KERNEL_LAUNCH : 0u) | (o->kernel_end ? SINK_W_KERNEL_END : 0u) |
           (o->cta_dispatch ? SINK_W_CTA_DISPATCH : 0u) | (o->cta_finish ? SINK_W_CTA_FINISH : 0u) |
           (o->warp_issue ? SINK_W_ISSUE : 0u) | (o->warp_stall ? SINK_W_STALL : 0u) |
           (o->barrier_arrive ? SINK_W_BAR_ARRIVE : 0u) | (o->barrier_release ? SINK_W_BAR_RELEASE : 0u) |
           (o->dvfs_step ? SINK_W_DVFS : 0u) | (o->mem_access ? SINK_W_MEM : 0u);
}

/* Call `cb` of every sink that has it with (ud, s, args...); on the first
 * failure fill s->err from the format and stop. */
#define EACH_SINK_(s, cb, fail, ...)                                          \
    do {                                                                      \
        for (int i_ = 0; i_ < (s)->nsinks; i_++) {                            \
            const sim_sink *k_ = &(s)->sinks[i_];                             \
            if (k_->ops->cb && k_->ops->cb(k_->ud, (s), __VA_ARGS__) != 0) {  \
                fail;                                                         \
                (s)->stop = 1;                                                \
                return SK_EIO;                                                \
            }                                                                 \
        }                                                                     \
        return 0;                                                             \
    } while (0)

int sim_sink_kernel_launch(sim *s)
{
    EACH_SINK_(s, kernel_launch, sk_errorf(&s->err, SK_EIO, "writing the launch of kernel %s failed", s->k.name),
               &s->ks);
}

int sim_sink_kernel_end(sim *s)
{
    EACH_SINK_(s, kernel_end, sk_errorf(&s->err, SK_EIO, "writing the results of kernel %s failed", s->k.name),
               &s->ks);
}

int sim_sink_cta_dispatch(sim *s, const sink_cta *c)
{
    EACH_SINK_(s, cta_dispatch,
               sk_errorf(&s->err, SK_EIO, "writing the dispatch of CTA %llu failed", (unsigned long long)c->cta), c);
}

int sim_sink_cta_finish(sim *s, const cta_record *r)
{
    EACH_SINK_(s, cta_finish,
               sk_errorf(&s->err, SK_EIO, "writing the record of CTA %llu failed", (unsigned long long)r->cta), r);
}

int sim_sink_issue(sim *s, const sink_issue *w)
{
    EACH_SINK_(s, warp_issue,
               sk_errorf(&s->err, SK_EIO, "writing an issue of SM %d at cycle %llu failed", w->sm,
                         (unsigned long long)w->cycle),
               w);
}

int sim_sink_stall(sim *s, const sink_stall *w)
{
    EACH_SINK_(s, warp_stall,
               sk_errorf(&s->err, SK_EIO, "writing a stall of SM %d at cycle %llu failed", w->sm,
                         (unsigned long long)w->cycle),
               w);
}

int sim_sink_bar_arrive(sim *s, const sink_barrier *b)
{
    EACH_SINK_(s, barrier_arrive,
               sk_errorf(&s->err, SK_EIO, "writing a barrier arrival at %lld ps failed", (long long)b->t), b);
}

int sim_sink_bar_release(sim *s, const sink_barrier *b)
{
    EACH_SINK_(s, barrier_release,
               sk_errorf(&s->err, SK_EIO, "writing a barrier release at %lld ps failed", (long long)b->t), b);
}

int sim_sink_dvfs(sim *s, ps_t t)
{
    EACH_SINK_(s, dvfs_step, sk_errorf(&s->err, SK_EIO, "writing the epoch at %lld ps failed", (long long)t), t);
}

int sim_sink_mem(sim *s, const mem_req *r, ps_t done)
{
    EACH_SINK_(s, mem_access,
               sk_errorf(&s->err, SK_EIO, "writing a memory access of SM %d at %lld ps failed", r->sm,
                         (long long)r->t),
               r, done);
}
