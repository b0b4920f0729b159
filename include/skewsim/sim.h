/* sim.h -- the simulation context and the simulator's contract.
 *
 * One `sim` holds everything a run touches (config, event queue, SMs,
 * dispatcher, memory levels, sinks, statistics, the trace being replayed):
 * no globals, so two simulations in one process never see each other.
 *
 * Contract (cf. SimpleScalar's sim.h): sim_create() from a validated config
 * and a list of sinks (sink.h); sim_run() replays every kernel of a trace,
 * reporting its events (kernels, CTAs, barriers, silicon steps and, to the
 * sinks that ask, every issue, stall and memory access) to the sinks;
 * sim_destroy().  Results are deterministic: the same config, trace and
 * seed give the same events in the same order.
 */
#ifndef SKEWSIM_SIM_H
#define SKEWSIM_SIM_H

#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/event.h"
#include "skewsim/topo.h"
#include "skewsim/sm.h"
#include "skewsim/dispatch.h"
#include "skewsim/trace.h"
#include "skewsim/silicon.h"
#include "skewsim/mem.h"
#include "skewsim/sink.h"

typedef struct sim {
    cfg c;                    /* private copy of the config */
    evq q;
    topo topo;
    sm *sms;
    int nsms;
    dispatcher disp;
    mem_level *mem;           /* owned: the first memory level every SM uses (src/mem) */
    struct mem_hier *hier;    /* owned, memory.model = hierarchy: SM i's first level is its
                                 L1 (memsys.h) and mem is NULL */
    sim_sink *sinks;          /* owned copy of the list given to sim_create */
    int nsinks;
    unsigned sink_want;       /* SINK_W_* of every callback some sink has (sink.h) */

    /* silicon model: sets each SM's clock (src/silicon, docs/silicon.md) */
    silicon *si;
    event si_ev;              /* at silicon_next_ps() */
    si_activity *si_seen;     /* per SM: counters at the last advance */
    si_activity *si_act;      /* per SM: scratch for the deltas */

    /* the kernel being run */
    kernel k;
    int have_kernel;
    cta_need need;
    unsigned char *allowed;   /* owned, per SM: the kernel's SM set (sms=); NULL: every SM */
    trace *tr;
    uint64_t ctas_left;       /* not yet dispatched */
    uint64_t ctas_running;
    kernel_stats ks;
    uint64_t next_age;        /* warp launch order */
    uint32_t max_regs;        /* dense registers over the kernel's programs */
    unsigned marks;           /* IF_TIMER_* / IF_CLOCK_* flags present in the kernel's programs */
    int cooperative;          /* the kernel uses GRID.SYNC */
    uint64_t live_warps;      /* launched and not exited, over the chip */
    uint64_t grid_arrived;    /* warps waiting at the grid barrier */
    uint64_t grid_released;   /* warps the queued grid release lets go (for the sinks) */
    ps_t grid_last_ps;        /* latest arrival at it */
    ps_t *grid_t;             /* arrival times at it, grid_n of grid_cap (sync.grid_cta_ps > 0) */
    size_t grid_n, grid_cap;
    event grid_ev;            /* grid barrier release */

    /* totals */
    uint64_t warp_instructions;
    uint64_t kernels_done;
    ps_t end_ps;

    ps_t limit_ps;            /* sim.max_time_ns: no SM runs past it */
    int stop;                 /* a handler asks the loop to stop */
    sk_error err;
} sim;

/* Create a simulation for a validated config, reporting to the nsinks
 * sinks (none: sinks may be NULL).  The list is copied; what each sink's ud
 * points to stays the caller's and must outlive the sim.  Returns NULL with
 * *e filled on a config the model cannot build.  Caller owns it:
 * sim_destroy(). */
sim *sim_create(const cfg *c, const sim_sink *sinks, int nsinks, sk_error *e);
void sim_destroy(sim *s);   /* NULL is a no-op */

/* Replay every kernel of the trace, back to back.  The trace stays owned by
 * the caller.  Returns 0 or a negative SK_E* code with *e filled. */
int sim_run(sim *s, trace *tr, sk_error *e);

/* Internal hooks between the SM model, the dispatcher and the run loop. */
void sim_cta_finished(sim *s, sm *m, cta_slot *cs, ps_t t);
/* A warp reached GRID.SYNC / exited at time t (grid barrier accounting). */
void sim_grid_arrive(sim *s, ps_t t);
void sim_warp_exited(sim *s, ps_t t);
/* Next CTA of the running kernel from the trace: 1 ok, 0 none, <0 error. */
int sim_next_cta(sim *s, cta_desc *d);

#endif
