/* sink.h -- how results leave the simulator: a list of sinks.
 *
 * A sink is an ops table of callbacks and the pointer it is called with.
 * sim_create() takes any number of them; each event goes to every sink
 * that has a callback for it, in the order the sinks were given.  The
 * callbacks a sink leaves NULL are the events it does not want: sim_create
 * ORs the non-NULL ones of all sinks into one mask (sim.sink_want,
 * SINK_W_*), and every place that reports an event tests its bit first.
 * The fine-grained events (warp issue and stall, memory accesses) are
 * reported from the SM's hot loop, where that test is one predictable
 * branch on a word already in cache: with no sink asking they cost nothing
 * measurable (FMA rows of make bench, run side by side with the commit
 * before sinks: within noise), and no event record is even built.
 *
 * Every callback returns 0, or non-zero to stop the run: sim_run() then
 * returns SK_EIO.  Callbacks see the simulation read-only (`s`); the
 * records they are given are valid only during the call.  Times are
 * absolute simulated picoseconds; cycles are the SM's own clock.
 *
 * Ownership: the sim copies the list of sim_sink values; the state `ud`
 * points to stays the caller's, and must outlive the sim.
 */
#ifndef SKEWSIM_SINK_H
#define SKEWSIM_SINK_H

#include "skewsim/common.h"
#include "skewsim/mem.h"
#include "skewsim/program.h"
#include "skewsim/memsys.h"

struct sim;

/* One finished CTA, times relative to its kernel's first CTA start are
 * computed by the sink from kernel_first_start_ps. */
typedef struct cta_record {
    uint64_t kernel;          /* kernel index in the trace */
    uint64_t cta;
    int sm;
    ps_t start_ps, end_ps;    /* absolute simulated times */
    uint64_t cycles;          /* SM cycles from start to end */
    ps_t kernel_first_start_ps; /* its kernel's first CTA start (final by the time any CTA ends) */
} cta_record;

/* One kernel.  At kernel_launch: name, index, ctas and launch_ps are set
 * (first_start_ps is PS_MAX, the rest 0); at kernel_end: all of it. */
typedef struct kernel_stats {
    char name[64];
    uint64_t index;
    uint64_t ctas;
    ps_t launch_ps;           /* launch (the CUDA event before it) */
    ps_t first_start_ps;      /* first instruction of any CTA */
    ps_t last_end_ps;         /* last CTA completion (its last warp exits) */
    ps_t last_record_end_ps;  /* latest recorded CTA end (timer=end mark, else completion):
                                 span = last_record_end_ps - first_start_ps */
    ps_t done_ps;             /* completion (the CUDA event after it) */
    uint64_t warp_instructions;
    /* At kernel_end (sim.c, kernel_figures): */
    double imbalance;         /* max over mean of the SMs' busy time (a CTA resident) in it; 0: none */
    ps_t tail_ps;             /* first SM out of work (its last CTA of the kernel retired, or
                                 first_start_ps if it got none) to last_end_ps */
    ps_t barrier_wait_ps;     /* warp time at BAR.SYNC and GRID.SYNC, summed over warps */
    uint32_t cluster;         /* CTAs per cluster, 0: launched without one */
    uint64_t max_active_clusters; /* with a cluster: cudaOccupancyMaxActiveClusters (topo.h) */
    int has_mem;              /* memory.model = hierarchy: mem holds the kernel's counters */
    uint64_t smem_config_bytes, l1_bytes; /* with has_mem: the carve-out it ran under (sim.c,
                                 carveout_ctas) and the L1 that left */
    mem_stats mem;            /* summed over the SMs (memsys.h MEM_STAT_MAP) */
} kernel_stats;

/* The dispatcher handed CTA `cta` of kernel `kernel` to SM `sm` at t. */
typedef struct sink_cta {
    uint64_t kernel, cta;
    int sm;
    ps_t t;
} sink_cta;

/* Warp slot `slot` (warp `widx` of CTA `cta`) of SM `sm`, scheduler
 * `sched`, issues `in` (its program's instruction at `pc`) in `cycle`. */
typedef struct sink_issue {
    int sm, sched, slot, widx;
    uint64_t cta;
    uint64_t cycle;
    uint32_t pc;
    const instr *in;
} sink_issue;

/* Scheduler `sched` of SM `sm` serves warps but issued nothing in
 * `cycle`; none of them can issue before `ready_cycle` (a lower bound;
 * UINT64_MAX: every one waits at a barrier).  Only cycles the SM processes
 * are reported: it jumps over cycles in which it can prove no warp of any
 * scheduler issues (docs/design.md, "No ticking of idle SMs"), so the
 * stalled cycles of a scheduler run from `cycle` to the SM's next processed
 * cycle, not to the next report. */
typedef struct sink_stall {
    int sm, sched;
    uint64_t cycle;
    uint64_t ready_cycle;
} sink_stall;

enum sink_barrier_kind {
    SINK_BAR_CTA,             /* BAR.SYNC: the warps of one CTA */
    SINK_BAR_GRID             /* GRID.SYNC: every live warp of a cooperative kernel */
};

/* Arrival: warp `slot` of CTA `cta` on SM `sm` reached the barrier at t.
 * Release: the barrier lets its warps go on at t; `warps` is how many
 * waited (a grid release: over the chip, with sm = -1 and cta = 0). */
typedef struct sink_barrier {
    uint8_t kind;             /* enum sink_barrier_kind */
    int sm, slot;
    uint64_t cta;
    uint64_t warps;
    ps_t t;
} sink_barrier;

typedef struct sink_ops {
    const char *name;
    /* Kernel launch (the CUDA event before it) and end (after the silicon
     * model saw its last CTA finish; done_ps is final). */
    int (*kernel_launch)(void *ud, const struct sim *s, const kernel_stats *k);
    int (*kernel_end)(void *ud, const struct sim *s, const kernel_stats *k);
    /* A CTA placed on an SM, and a CTA whose last warp exited. */
    int (*cta_dispatch)(void *ud, const struct sim *s, const sink_cta *c);
    int (*cta_finish)(void *ud, const struct sim *s, const cta_record *r);
    /* Fine-grained: every warp instruction issued, and every processed
     * cycle in which a scheduler with warps issued nothing. */
    int (*warp_issue)(void *ud, const struct sim *s, const sink_issue *w);
    int (*warp_stall)(void *ud, const struct sim *s, const sink_stall *w);
    /* CTA (BAR.SYNC) and grid (GRID.SYNC) barriers. */
    int (*barrier_arrive)(void *ud, const struct sim *s, const sink_barrier *b);
    int (*barrier_release)(void *ud, const struct sim *s, const sink_barrier *b);
    /* The silicon model (DVFS, power, thermal) stepped to t: each SM's
     * state in silicon_sm(s->si, i), its clock in s->sms[i].mhz. */
    int (*dvfs_step)(void *ud, const struct sim *s, ps_t t);
    /* Fine-grained: a global load or store the SM sent to its first memory
     * level, and the time that level completes it. */
    int (*mem_access)(void *ud, const struct sim *s, const mem_req *r, ps_t done);
} sink_ops;

typedef struct sim_sink {
    const sink_ops *ops;
    void *ud;                 /* passed to every callback; the caller's */
} sim_sink;

/* One bit per callback of sink_ops: sim.sink_want has the bit of every
 * callback some sink has. */
enum sink_want {
    SINK_W_KERNEL_LAUNCH = 1u << 0,
    SINK_W_KERNEL_END = 1u << 1,
    SINK_W_CTA_DISPATCH = 1u << 2,
    SINK_W_CTA_FINISH = 1u << 3,
    SINK_W_ISSUE = 1u << 4,
    SINK_W_STALL = 1u << 5,
    SINK_W_BAR_ARRIVE = 1u << 6,
    SINK_W_BAR_RELEASE = 1u << 7,
    SINK_W_DVFS = 1u << 8,
    SINK_W_MEM = 1u << 9,
};

/* The bits of the callbacks ops has. */
unsigned sink_wants(const sink_ops *ops);

/* Report an event to every sink that wants it (src/gpu/sink.c).  Each
 * returns 0, or SK_EIO with s->err filled and s->stop set when a sink
 * failed.  Callers test s->sink_want first. */
int sim_sink_kernel_launch(struct sim *s);
int sim_sink_kernel_end(struct sim *s);
int sim_sink_cta_dispatch(struct sim *s, const sink_cta *c);
int sim_sink_cta_finish(struct sim *s, const cta_record *r);
int sim_sink_issue(struct sim *s, const sink_issue *w);
int sim_sink_stall(struct sim *s, const sink_stall *w);
int sim_sink_bar_arrive(struct sim *s, const sink_barrier *b);
int sim_sink_bar_release(struct sim *s, const sink_barrier *b);
int sim_sink_dvfs(struct sim *s, ps_t t);
int sim_sink_mem(struct sim *s, const mem_req *r, ps_t done);

#endif
