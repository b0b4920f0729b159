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

/* Streams: ids 0..SIM_MAX_STREAMS-1 (trace key stream=, TRACE_STREAM_MAX). */
#define SIM_MAX_STREAMS 256

/* A run of CTAs of one kernel, first..last, each running program `prog`
 * with work factor `work`: the kernel's CTA records, taken off the trace
 * when the next kernel is read (src/gpu/sim.c, "CTA queues"). */
typedef struct cta_run {
    uint64_t first, last;
    uint32_t prog;
    double work;
} cta_run;

/* One kernel of the trace from its launch until it has completed and been
 * reported: its programs, its own CTA queue, its statistics.  Several may
 * be live at once (concurrent kernels of different streams, docs/design.md
 * "Concurrent kernels"); each CTA slot of an SM points to the one it runs
 * (cta_slot.kr).  Allocated one by one (its events are queued in place). */
typedef struct sim_kernel {
    kernel k;                 /* owned */
    kernel_stats ks;
    cta_need need;
    unsigned char *allowed;   /* owned, per SM: the kernel's SM set (sms=); NULL: every SM */
    uint32_t stream;
    int started;              /* dispatch opened (its stream predecessor completed) */
    int completed;            /* every CTA retired; figures final */
    ps_t dispatch_ps;         /* earliest first CTA dispatch (launch plan + wake-up) */
    ps_t store_drain_ps;      /* memory.model hierarchy: the latest time the L2 took a store
                                 of an SM after one of this kernel's stores (sm.c) */
    int pipelined;            /* launched behind the previous kernel (launch plan) */
    uint64_t ctas_left;       /* not yet dispatched */
    uint64_t ctas_running;
    uint32_t max_regs;        /* dense registers over the kernel's programs */
    unsigned marks;           /* IF_TIMER_* / IF_CLOCK_* flags present in the kernel's programs */
    int cooperative;          /* the kernel uses GRID.SYNC */
    uint64_t live_warps;      /* launched and not exited */
    uint64_t grid_arrived;    /* warps waiting at its grid barrier */
    uint64_t grid_released;   /* warps the queued grid release lets go (for the sinks) */
    ps_t grid_last_ps;        /* latest arrival at it */
    ps_t *grid_t;             /* arrival times at it, grid_n of grid_cap (sync.grid_cta_ps > 0) */
    size_t grid_n, grid_cap;
    event grid_ev;            /* grid barrier release */
    struct sim *sim;          /* for the grid release handler */
    /* its CTA queue: the trace's current kernel reads the trace (from_trace),
     * an older one its runs */
    int from_trace;
    cta_run *runs;
    size_t nruns, runcap, run_pos;
    uint64_t run_next;        /* next id within runs[run_pos] */
    int have_next;            /* `next` holds the CTA waiting to be placed */
    cta_desc next;
    /* the engine's cluster placement of this kernel (dispatch.c) */
    int cl_group;
    uint32_t cl_left;
    int cl_sms[KERNEL_CLUSTER_MAX];  /* the SMs of the cluster being placed */
    /* per SM: its CTAs of this kernel resident, since when, the time with at
     * least one resident, when the last retired (PS_MAX: none yet) */
    int *sm_ctas;
    ps_t *sm_since, *sm_busy, *sm_idle;
} sim_kernel;

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

    /* The live kernels, oldest (lowest trace index) first: launched and not
     * yet reported.  At most SIM_MAX_STREAMS started plus one waiting per
     * stream. */
    sim_kernel **live;
    int nlive, livecap;
    sim_kernel *reading;      /* the trace's current kernel (its CTA records not yet taken) */
    int trace_eof;
    int completions;          /* kernels whose last CTA retired, not yet finished (run_events) */
    uint64_t next_index;      /* trace index of the next kernel read */
    ps_t host_cmd_ps;         /* when the host's last launch command reached the GPU */
    ps_t idle_ps;             /* every kernel launched so far has completed (CUDA event) by then */
    int launched;             /* a kernel has started: the run's first launch costs are paid */
    int coop_launched;        /* a cooperative kernel has started (launch.coop_setup_ns paid) */
    ps_t stream_end_ps[SIM_MAX_STREAMS]; /* last CTA end of each stream's latest completed kernel */
    uint8_t stream_ran[SIM_MAX_STREAMS]; /* a kernel of the stream completed in this run (an event
                                           recorded on an empty stream completes at once) */

    /* The kernel the dispatch policies and the sinks see (a copy of one live
     * kernel's fields, made by sim_bind() before each call into them: the
     * policies and sinks read s->k, s->ks, s->need, s->allowed, s->ctas_left,
     * s->ctas_running, s->cooperative and s->grid_arrived). */
    sim_kernel *bound;
    kernel k;                 /* not owned: a shallow copy of bound->k */
    int have_kernel;
    cta_need need;
    unsigned char *allowed;   /* bound->allowed */
    trace *tr;
    uint64_t ctas_left;
    uint64_t ctas_running;
    kernel_stats ks;
    uint64_t next_age;        /* warp launch order */
    int cooperative;
    uint64_t grid_arrived;

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
/* A warp of kernel kr reached GRID.SYNC / exited at time t (grid barrier
 * accounting). */
void sim_grid_arrive(sim *s, sim_kernel *kr, ps_t t);
void sim_warp_exited(sim *s, sim_kernel *kr, ps_t t);
/* Next CTA of kernel kr from its queue: 1 ok, 0 none, <0 error. */
int sim_next_cta(sim *s, sim_kernel *kr, cta_desc *d);
/* Make kr the kernel the policies and sinks see (s->k, s->ks, ...). */
void sim_bind(sim *s, sim_kernel *kr);

#endif
