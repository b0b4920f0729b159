/* sm.h -- one streaming multiprocessor: warp slots, N warp schedulers,
 * functional-unit pipelines, barriers, a per-warp register scoreboard, and
 * its own clock domain.
 *
 * An SM is driven by one embedded event.  When it fires, the SM issues from
 * every scheduler for its current cycle, then jumps straight to the next
 * cycle at which some warp can issue (skipping cycles where nothing can), and
 * keeps going while that cycle lies before the next pending event of the
 * rest of the chip.  An SM with no issuable warp sleeps: its event is not
 * queued until a CTA arrives.
 */
#ifndef SKEWSIM_SM_H
#define SKEWSIM_SM_H

#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/event.h"
#include "skewsim/program.h"
#include "skewsim/silicon.h"

struct sim;

#define SM_MAX_SCHEDULERS 32  /* sm.warp_schedulers' upper bound in the schema (config.c) */

enum warp_state { W_FREE, W_ACTIVE, W_BARRIER, W_GRIDBAR, W_DONE };

typedef struct warp {
    /* Hot: what the schedulers read every cycle, in the first 64 bytes.
     * The alignment makes every warp slot (sm.c allocates them aligned)
     * start a cache line, so a scheduler scanning its warps reads one line
     * per warp. */
    _Alignas(64) uint64_t wake;   /* lower bound of the next cycle it can issue */
    uint64_t dep;             /* max(ready, scoreboard of the registers its next instruction
                                 reads and writes): set whenever one of them changes, so a
                                 readiness check reads no scoreboard (see sm_warp_ready) */
    uint64_t ready;           /* compiler stall: earliest cycle of its next issue */
    uint64_t last_issue;      /* cycle of its last issue (launch cycle before the first) */
    const instr *code;        /* its program's instructions */
    uint64_t *reg;            /* scoreboard: cycle each dense register is ready */
    uint32_t pc;
    uint16_t cta;             /* CTA slot in the SM */
    uint8_t state;            /* enum warp_state */
    uint8_t cls;              /* unit class of code[pc] (copied: one load less per check) */
    uint8_t sp;               /* loop stack depth */
    uint8_t widx;             /* warp index within its CTA */
    uint8_t sched;            /* its scheduler */
    uint8_t pflag;            /* the warp policy's own mark (two_level: in the active set) */
    uint16_t opos;            /* its position in its scheduler's order (and ew) */
    uint16_t pipe;            /* the pipeline (unit_free index) sm_warp_ready() last found
                                 free for it: the one its issue takes */
    /* Cold: loop markers and launch.  (ldg_done in the first line instead
     * of code and reg made the hierarchy's scans no faster and FMA about 4 %
     * slower: docs/performance.md.) */
    uint64_t ldg_done;        /* cycle its latest global load's registers are ready (stall reasons) */
    uint64_t smem_next;       /* cycle its next shared-memory load's first wavefront may return
                                 (memory.smem_warp_wf_cycles; 0 at launch) */
    uint64_t age;             /* launch order on the chip: smaller is older */
    ps_t bar_ps;              /* when it arrived at the barrier it waits at (W_BARRIER, W_GRIDBAR) */
    double work;              /* CTA work factor for IF_WORK_SCALED loops */
    uint64_t loop_left[PROG_MAX_LOOP_DEPTH];  /* 64-bit: a work-scaled count round(N * work)
                                                 reaches 2^32 * 1e6 */
    uint64_t loop_n[PROG_MAX_LOOP_DEPTH];     /* each loop's count: iteration = n - left */
    const struct mem_apat *apats;             /* its program's address patterns (memsys.h) */
} warp;

struct sim_kernel;

typedef struct cta_slot {
    int used;
    struct sim_kernel *kr;    /* its kernel (sim.h): CTAs of concurrent kernels share an SM */
    uint64_t id;              /* CTA id in its kernel */
    uint64_t issued;          /* warp instructions its warps issued (its kernel's count) */
    int nwarps, exited, at_barrier;
    uint64_t bar_done;        /* cycle the barrier unit has taken every arrival so far at the current barrier */
    uint16_t warp_slot[32];   /* warp slots it occupies (<= 1024 threads) */
    int threads, regs, smem;  /* resources it holds */
    ps_t arrive_ps;           /* handed to the SM by the dispatcher */
    int co_resident;          /* CTAs on the SM just after it arrived, itself included */
    /* what the kernel's own timers read (see record_marks in sm.c) */
    ps_t start_ps, end_ps;
    uint64_t start_cycle, end_cycle;
    int started, ended, clocked, clock_ended;
} cta_slot;

typedef struct warp_sched {
    uint16_t *order;          /* warp slots it serves, oldest first */
    uint64_t *ew;             /* by position in order: a copy of that warp's wake
                                 (UINT64_MAX while it is not ACTIVE), side by side, so
                                 that a scan over warps that cannot issue yet
                                 (warp_oldest_ready) reads two cache lines, not one per
                                 warp.  Each entry is either exact or at most the
                                 current cycle (stale: the warp issued, left ACTIVE or
                                 had its wake raised since); a scan that meets an entry
                                 <= c reads the warp itself and writes the entry back.
                                 Launches and releases, which can set a wake ahead,
                                 write it exactly (sm.c) */
    int n;
    union {                   /* the policy's own state: zero, then warp_ops.init */
        int greedy;           /* gto: warp issued last (-1 none) */
        int rr;               /* lrr: position in order after the last issue */
        int tl_rr;            /* two_level: position in order after the last issue */
        int64_t word[2];      /* room for another policy's */
    } pol;
    uint64_t starve_at;       /* no warp can be starved before this cycle */
    uint64_t min_wake;        /* no ACTIVE warp it serves has a smaller wake (UINT64_MAX:
                                 none ACTIVE); exact after a cycle in which it issued
                                 nothing, so such cycles skip it (warpsched.c, warp_ops) */
    uint64_t issued;
    /* The least last_issue of its ACTIVE warps, as the starvation guard's
     * last scan found it, and the issued count and the SM's release epoch
     * it holds for (nothing else moves it: warpsched.c). */
    uint64_t least_issue, least_issued, least_epoch;
    int least_valid;
    /* The last stall reason found (sm.c, stall_reason) and what it was
     * found for: reused while min_wake and issued stay the same. */
    uint64_t why_wake, why_issued, why_epoch;
    int why;
    /* Where warp_oldest_ready()'s last failed scan found the least entry
     * (the first such position) and the min_wake, issued count and release
     * epoch it found it for: stall_reason (sm.c) classifies that one warp
     * instead of scanning them all when nothing has moved since. */
    uint64_t lp_wake, lp_issued, lp_epoch;
    int lp_pos;               /* -1: none recorded */
    /* What warp_oldest_ready()'s last failed scan saw of every position but
     * one, os_q (the one entry at or before its cycle: the warp that had
     * just issued, or woke): the least of the others, os_min, and the first
     * position holding it, os_pos.  While os_min lies after the cycle asked
     * and no warp came or went (os_n, os_epoch), every other entry is still
     * exact and after it, so a scan needs to look at os_q only. */
    uint64_t os_min, os_epoch;
    int os_q, os_pos, os_n;   /* os_q -1: nothing kept */
    int last_slot;            /* warp slot it issued from last (-1: none yet) */
    /* Idle at a processed cycle: until quiet_until (its min_wake, or the
     * starvation guard's starve_at if sooner) no warp of it can issue, and
     * while the SM's release epoch is still quiet_epoch its stall reason
     * stays `why` (sm.c, sm_fire). */
    uint64_t port_free;       /* cycle from which it may issue again: an instruction whose
                                 register reads conflict in the banks holds the issue port
                                 instr.bank cycles more (sm.register_banks).  quiet_until is
                                 raised with it, so sm_fire reads it only behind that test */
    uint64_t quiet_until, quiet_epoch;
} warp_sched;

struct sm;

/* A warp scheduling policy: which ready warp a scheduler issues from.  One
 * table per policy, warp_<name> in src/gpu/warp_<name>.c, listed in
 * WARP_POLICY_MAP (policies.h); the engine (warpsched.c) runs the
 * starvation guard and skips schedulers with nothing ready before asking. */
typedef struct warp_ops {
    const char *name;
    /* The warp slot to issue from at cycle c (sm_warp_ready() true for it),
     * or -1.  Returning -1 it must have checked every ACTIVE warp of ws and
     * left ws->min_wake the least of their wakes (warp_priv.h's
     * warp_oldest_ready() does both): the SM then skips ahead to it. */
    int (*pick)(struct sm *m, warp_sched *ws, uint64_t c);
    /* Set up ws->pol of a new scheduler (it starts zeroed).  May be NULL. */
    void (*init)(warp_sched *ws);
    /* The warp `slot`, at position pos of ws->order, exited and left the
     * order (ws->n is already one less).  May be NULL. */
    void (*removed)(warp_sched *ws, int pos, int slot);
} warp_ops;

#define WARP_OPS_DECL_(id, name, help) extern const warp_ops warp_##name;
WARP_POLICY_MAP(WARP_OPS_DECL_)
#undef WARP_OPS_DECL_

/* The ops table for a cfg sm.warp_policy value (NULL: none such). */
const warp_ops *warp_lookup(int policy);

/* Why a scheduler issued nothing in a cycle (summary.json, sms[].stalls):
 * X(ID, name, help).  The SM classifies each such scheduler-cycle by the
 * warp that could issue soonest (sm.c, stall_reason). */
#define SM_STALL_MAP(X)                                                             \
    X(COMPILER, compiler, "the compiler's stall count of its last instruction")    \
    X(SCOREBOARD, scoreboard, "a register from a fixed-latency unit or shared memory") \
    X(UNIT, unit_busy, "every pipeline of its unit class is busy")                  \
    X(BANK, reg_bank, "a warp was ready, but the last instruction's register reads conflicted in a bank") \
    X(BARRIER, barrier, "every warp waits at BAR.SYNC or GRID.SYNC")                \
    X(MEMORY, memory, "a register from a global load")                              \
    X(NO_CTA, no_cta, "no warp to serve (no CTA resident on its slots)")

enum sm_stall {
#define SM_STALL_ENUM_(id, name, help) SM_STALL_##id,
    SM_STALL_MAP(SM_STALL_ENUM_)
#undef SM_STALL_ENUM_
    SM_NSTALLS
};

/* The name of a stall reason (its summary.json key). */
const char *sm_stall_name(int reason);

struct mem_level;

typedef struct sm {
    int id;
    const warp_ops *wops;     /* its schedulers' policy (sm.warp_policy) */
    int active_warps;         /* sm.active_warps (two_level) */
    struct mem_level *mem;    /* its first memory level (mem.h); the sim owns it */
    event ev;                 /* its issue event */
    /* clock domain: cycle c starts at base_ps + (c - base_cycle) * period_fs / 1000 */
    int64_t period_fs;
    uint64_t period_inv;      /* UINT64_MAX / period_fs: sm_cycle_at divides by a multiply */
    ps_t base_ps;
    uint64_t base_cycle;
    uint64_t cycle;           /* cycle its queued event will process */
    uint64_t min_cycle;       /* first cycle not yet processed */
    int mhz;

    warp *warps;              /* cfg.max_warps slots */
    uint64_t *regpool;        /* scoreboards: max_warps * regs_per_warp, then, with
                                 sm.store_read_cycles, the same again for the read
                                 barriers (sm_wreg) */
    uint64_t release_epoch;   /* barrier and grid releases so far (they wake warps without
                                 an issue: a cached memory-stall scan is stale then) */
    uint32_t regs_per_warp;
    uint64_t wreg_off;        /* max_warps * regs_per_warp: a warp's read barriers lie this
                                 far after its scoreboard in regpool */
    cta_slot *ctas;           /* cfg.max_ctas slots */
    warp_sched *sched;        /* cfg.warp_schedulers of them */
    int nsched;
    uint64_t ahead_cycles;    /* sim.lookahead_cycles as it applies (sm_init) */
    ps_t ahead_ps;            /* the same in time at the current clock (sm_set_mhz) */
    int per_cycle;            /* debug: after an issue always process the next cycle, as
                                 before the skip, and find every stall reason by a full
                                 scan, without the cached or lp_pos answers, and scan every
                                 warp without warp_oldest_ready's os_q shortcut
                                 (tests/test_sm.c compares the two) */
    /* The cycles skipped after the last issue (sm_fire), charged ahead:
     * skip_n cycles from skip_c1, for reason skip_why[sc] (-1: none), its
     * event queued with sequence skip_seq.  An arrival that would have come
     * before cycle skip_c1 was processed takes them back (sm.c, unskip). */
    uint64_t skip_c1, skip_n, skip_seq;
    int8_t skip_why[SM_MAX_SCHEDULERS];
    uint64_t skip_ready[SM_MAX_SCHEDULERS];  /* each one's min_wake then (a stall sink's
                                                record of skip_c1, sent once the skip holds) */
    uint64_t *unit_free;      /* [sched][class][count]: cycle each pipeline can take the next
                                 instruction of its class: free, or room in its queue */
    uint64_t *unit_drain;     /* the same: cycle each pipeline has started everything in its
                                 queue (units.<class>.queue > 0 only) */
    uint64_t st_read_until;   /* no register of the SM is read-barred from this cycle on:
                                 the latest end of a global store's read (sm.store_read_cycles;
                                 beside unit_free: both are read at every issue) */
    uint64_t bar_free;        /* cycle the barrier unit can take the next arrival (sm.barrier_arrive_cycles) */
    uint64_t smem_free;       /* cycle the shared-memory array can take the next wavefront
                                 (memory.smem_wavefront_cycles; one array for the SM) */
    int unit_stride;          /* entries per scheduler in unit_free */
    int unit_off[FU_NCLASS];  /* where each class starts within a scheduler's entries */
    int unit_n[FU_NCLASS];    /* pipelines of each class (units.<class>.count) */
    int unit_q[FU_NCLASS];    /* each class's queue (units.<class>.queue) */
    int unit_qmax;            /* the largest of them: entries a pipeline has in unit_ring */
    uint64_t *unit_ring;      /* [pipeline][unit_qmax]: the cycles the last units.<class>.queue
                                 instructions its queue took started (taken by the pipeline),
                                 oldest at unit_rpos: one may wait only while fewer do */
    uint8_t *unit_rpos;       /* [pipeline]: the ring's oldest entry */

    /* resources in use */
    int used_threads, used_warps, used_regs, used_smem, used_ctas;
    int live_warps;           /* ACTIVE or BARRIER */

    /* statistics (whole run) */
    uint64_t mem_bytes;               /* global memory traffic it caused */
    uint64_t tensor_cycles;           /* tensor-pipe cycles its instructions held (ii each) */
    /* the silicon model's activity (silicon.h si_activity): instructions
     * and their register operands by energy row, tensor-pipe cycles by
     * input type, shared-memory wavefronts under memory.model = flat */
    uint64_t op_issued[SI_OP_N], op_operands[SI_OP_N];
    uint64_t tensor_dt_cycles[SI_DT_N];
    uint64_t smem_wavefronts;
    int min_mhz, max_mhz;             /* clock range over the run */
    double vdd_min_mv;                /* lowest supply the silicon model gave it (0: none) */
    uint64_t ctas_run;
    ps_t resident_ps;         /* time with at least one CTA resident */
    ps_t resident_since;
    double mhz_ps_sum;        /* integral of MHz over time for mean_mhz */
    ps_t idle_ps;             /* when its last CTA retired (it holds none since) */
    ps_t bar_wait_ps;         /* warp time spent at barriers, arrival to release */
    ps_t k_resident0, k_bar0; /* resident_ps and bar_wait_ps when the current kernel launched */
    uint64_t processed;       /* cycles it processed (the rest it skipped or slept through) */
    uint64_t issue_slots;     /* scheduler-cycles that issued at least one instruction */
    uint64_t stall[SM_NSTALLS];  /* scheduler-cycles that issued nothing, by reason; NO_CTA
                                    stays 0 here: sm_stall_cycles() gives it as the remainder */
} sm;

/* Scheduler-cycles of SM m that issued nothing, by reason, over its first
 * `cycles` cycles (out[SM_NSTALLS]): NO_CTA is what no other reason and no
 * issue accounts for. */
void sm_stall_cycles(const sm *m, uint64_t cycles, uint64_t *out);

/* Warp-instructions SM m has issued: each counts once in its energy row
 * (op_issued), so the issue path keeps no other total. */
static inline uint64_t sm_issued(const sm *m)
{
    uint64_t n = 0;
    for (int k = 0; k < SI_OP_N; k++)
        n += m->op_issued[k];
    return n;
}

/* Resources one CTA of a kernel needs, after allocation granularity. */
typedef struct cta_need {
    int threads, warps, regs, smem;
} cta_need;

int sm_init(sm *m, struct sim *s, int id);
void sm_free(sm *m);

/* Compute the per-CTA need of kernel k on this config. */
void sm_cta_need(const cfg *c, const kernel *k, cta_need *need);
/* Whether a CTA with this need fits now on SM m. */
int sm_fits(const struct sim *s, const sm *m, const cta_need *need);
/* Whether it fits an empty SM at all. */
int sm_fits_empty(const cfg *c, const cta_need *need);
/* How many such CTAs an empty SM holds (0: not even one). */
int sm_ctas_per_sm(const cfg *c, const cta_need *need);

/* Hand a CTA of kernel kr (its need: kr->need) to the SM at time t (the
 * dispatcher calls this). */
void sm_launch_cta(struct sim *s, sm *m, struct sim_kernel *kr, const cta_desc *d, ps_t t);

/* Release every warp of kernel kr on SM m waiting at the grid barrier at
 * time t. */
void sm_release_grid(struct sim *s, sm *m, struct sim_kernel *kr, ps_t t);

/* The cycle from which a pipeline of class cls on scheduler sc is free;
 * *pipe gets that pipeline's index in unit_free (the first of the least
 * busy ones). */
static inline uint64_t sm_unit_earliest(const sm *m, int sc, int cls, int *pipe)
{
    int off = sc * m->unit_stride + m->unit_off[cls];
    const uint64_t *u = &m->unit_free[off];
    uint64_t best = u[0];
    int k = 0;
    for (int i = 1; i < m->unit_n[cls]; i++) {
        if (u[i] < best) {
            best = u[i];
            k = i;
        }
    }
    *pipe = off + k;
    return best;
}

/* Whether warp w can issue at cycle c: its compiler stall has elapsed, the
 * registers its next instruction reads and writes are ready (both in
 * w->dep, kept up to date by sm.c whenever one of them changes) and a
 * pipeline of its unit class is free.  When it cannot, w->wake is raised
 * to the earliest cycle it could (a lower bound: another warp may still
 * take the pipeline first), so schedulers skip it cheaply until then.  The
 * warp policies (warp_<name>.c) call this for every warp they consider, so it
 * is inline and touches only the warp's first cache line and unit_free. */
static inline int sm_warp_ready(const sm *m, warp *w, uint64_t c)
{
    if (w->wake > c)
        return 0;
    int pipe;
    uint64_t u = sm_unit_earliest(m, w->sched, w->cls, &pipe);
    uint64_t t = w->dep > u ? w->dep : u;
    if (t > c) {
        w->wake = t;
        return 0;
    }
    w->pipe = (uint16_t)pipe;
    return 1;
}

/* The starvation guard's scan (warpsched.c): the ready warp that has not
 * issued for at least lim cycles and waited longest, or -1; it moves
 * ws->starve_at to the next cycle at which one could be due. */
int warpsched_starved(sm *m, warp_sched *ws, uint64_t c, uint64_t lim);

/* The warp scheduler ws issues from at cycle c, or -1: the starvation guard
 * first (sm.starvation_cycles = lim, 0 = off), then the policy.  Inline so
 * that the SM's loop makes one call per pick, the policy's. */
static inline int warpsched_pick(sm *m, warp_sched *ws, uint64_t c, uint64_t lim)
{
    if (lim != 0 && c >= ws->starve_at) {
        int slot = warpsched_starved(m, ws, c, lim);
        if (slot >= 0)
            return slot;
    }
    /* Nothing can be ready before min_wake (a lower bound, see above): the
     * policy would only confirm it, warp by warp.  The guard above still
     * ran, for its bookkeeping.  Exact: every warp it would have looked at
     * has wake > c, so sm_warp_ready() would have returned 0 untouched. */
    if (c < ws->min_wake)
        return -1;
    return m->wops->pick(m, ws, c);
}

/* Warp w's read barriers: for each of its registers, the cycle from which
 * an instruction may overwrite it (a global store reads its sources
 * sm.store_read_cycles after it issues; 0: nothing pending).  They exist
 * only with sm.store_read_cycles: read them only while st_read_until is
 * past the cycle asked about (it stays 0 without). */
static inline const uint64_t *sm_wreg(const sm *m, const warp *w)
{
    return w->reg + m->wreg_off;
}

/* Clock domain helpers. */
ps_t sm_cycle_time(const sm *m, uint64_t cycle);
uint64_t sm_cycle_at(const sm *m, ps_t t);     /* first cycle starting at or after t */
void sm_set_mhz(sm *m, int mhz, ps_t t);        /* takes effect from the first cycle at or after t */
/* Change a running SM's clock at time t (>= the current time): cycles it
 * has processed keep their times, the next ones follow the new period, and
 * its queued event moves with them.  Latencies stay in cycles. */
void sm_change_clock(struct sim *s, sm *m, int mhz, ps_t t);

#endif
