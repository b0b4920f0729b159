/* sim.c -- the run loop: kernels back to back, each from launch to
 * completion.
 *
 * Timeline of one kernel (docs/design.md has the picture):
 *   launch_ps                    the CUDA event before the kernel
 *   + launch.start_ns            the dispatcher starts handing out CTAs
 *   first_start_ps               warp 0 of some CTA issues its first instruction
 *   ...                          CTAs run, finish, free room for more
 *   last_end_ps                  the last CTA's last warp exits
 *   + launch.end_ns = done_ps    the CUDA event after the kernel
 * span = last_end - first_start (what in-kernel timers see); time = done -
 * launch (what CUDA events see).  The next kernel launches at done_ps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/sim.h"
#include "skewsim/memsys.h"

static void grid_release(sim *s, event *ev);
static void silicon_fire(sim *s, event *ev);
static void silicon_rearm(sim *s);

/* The simulator's state is sized by the config and the kernel.  Every key
 * is bounded, but not their product: 16384 SMs (32 GPCs x 64 TPCs x 8) of
 * 1024 warp slots with a 332-register scoreboard each would be some 50 GB.
 * These caps on the products (the H200 uses 8448 warp slots, 4224 CTA
 * slots, 4752 pipelines and at most 2.8 million scoreboard entries) turn
 * that into a message instead of exhausting memory: at the caps, warp and
 * CTA slots take a few hundred MB and the scoreboards 1 GiB. */
#define SIM_MAX_WARP_SLOTS (UINT64_C(1) << 20)     /* SMs x sm.max_warps */
#define SIM_MAX_CTA_SLOTS (UINT64_C(1) << 20)      /* SMs x sm.max_ctas */
#define SIM_MAX_PIPELINES (UINT64_C(1) << 22)      /* SMs x schedulers x units.*.count */
#define SIM_MAX_SCOREBOARD (UINT64_C(1) << 27)     /* warp slots x dense registers, 8 bytes each */

static int check_state_size(const cfg *c, int nsms, sk_error *e)
{
    uint64_t warps = (uint64_t)nsms * (uint64_t)c->max_warps, ctas = (uint64_t)nsms * (uint64_t)c->max_ctas;
    uint64_t pipes = 0;
    for (int k = 0; k < FU_NCLASS; k++)
        pipes += (uint64_t)c->units[k].count;
    pipes *= (uint64_t)nsms * (uint64_t)c->warp_schedulers;
    if (warps > SIM_MAX_WARP_SLOTS)
        return sk_errorf(e, SK_ECONFIG, "config: %d SMs x sm.max_warps=%d = %llu warp slots: expected at most "
                         "%llu", nsms, c->max_warps, (unsigned long long)warps,
                         (unsigned long long)SIM_MAX_WARP_SLOTS);
    if (ctas > SIM_MAX_CTA_SLOTS)
        return sk_errorf(e, SK_ECONFIG, "config: %d SMs x sm.max_ctas=%d = %llu CTA slots: expected at most "
                         "%llu", nsms, c->max_ctas, (unsigned long long)ctas, (unsigned long long)SIM_MAX_CTA_SLOTS);
    if (pipes > SIM_MAX_PIPELINES)
        return sk_errorf(e, SK_ECONFIG, "config: %d SMs x %d schedulers x units.*.count = %llu pipelines: "
                         "expected at most %llu", nsms, c->warp_schedulers, (unsigned long long)pipes,
                         (unsigned long long)SIM_MAX_PIPELINES);
    return 0;
}

sim *sim_create(const cfg *c, const sim_sink *sinks, int nsinks, sk_error *e)
{
    if (cfg_validate(c, e) < 0)
        return NULL;
    /* A floorswept chip's topology keys come from its fused TPCs. */
    cfg resolved = *c;
    if (topo_resolve(&resolved, e) < 0)
        return NULL;
    c = &resolved;
    sim *s = xcalloc(1, sizeof *s);
    s->c = *c;
    if (sinks && nsinks > 0) {
        s->sinks = xcalloc((size_t)nsinks, sizeof *s->sinks);
        for (int i = 0; i < nsinks; i++) {
            if (!sinks[i].ops)
                continue;         /* an empty slot wants nothing */
            s->sinks[s->nsinks++] = sinks[i];
            s->sink_want |= sink_wants(sinks[i].ops);
        }
    }
    evq_init(&s->q);
    /* Every SM talks to its first memory level: all share the flat one, or
     * each has its own L1 of the hierarchy (src/mem, docs/memory.md). */
    if (c->mem_model != MEM_MODEL_HIERARCHY)
        s->mem = mem_flat_create((uint64_t)c->mem_bandwidth_gbps, (uint64_t)c->mem_latency_ns);
    if (topo_build(&s->topo, &s->c, e) < 0) {
        sim_destroy(s);
        return NULL;
    }
    if (c->mem_model == MEM_MODEL_HIERARCHY &&
        !(s->hier = mem_hier_create(&s->c, &s->topo, NULL, e))) {
        sim_destroy(s);
        return NULL;
    }
    s->nsms = s->topo.nsms;
    if (check_state_size(c, s->nsms, e) < 0) {
        sim_destroy(s);
        return NULL;
    }
    s->sms = xcalloc((size_t)s->nsms, sizeof *s->sms);
    for (int i = 0; i < s->nsms; i++) {
        sm_init(&s->sms[i], s, i);
        if (s->hier)
            s->sms[i].mem = mem_hier_l1(s->hier, i);
    }
    dispatch_init(&s->disp, s);
    if (dispatch_static_weights_load(s, e) < 0) {
        sim_destroy(s);
        return NULL;
    }
    event_init(&s->grid_ev, grid_release, "grid-barrier", 0);
    s->si = silicon_create(&s->c, &s->topo, e);
    if (!s->si) {
        sim_destroy(s);
        return NULL;
    }
    s->si_seen = xcalloc((size_t)s->nsms, sizeof *s->si_seen);
    s->si_act = xcalloc((size_t)s->nsms, sizeof *s->si_act);
    for (int i = 0; i < s->nsms; i++) {
        int mhz = silicon_sm_mhz(s->si, i, 0);
        sm_set_mhz(&s->sms[i], mhz, 0);
        if (s->hier)
            mem_hier_set_mhz(s->hier, i, mhz);
        s->sms[i].min_mhz = s->sms[i].max_mhz = mhz;
    }
    event_init(&s->si_ev, silicon_fire, "silicon", 0);
    silicon_rearm(s);
    s->limit_ps = c->max_time_ns > 0 ? (ps_t)c->max_time_ns * PS_PER_NS : PS_MAX;
    return s;
}

void sim_destroy(sim *s)
{
    if (!s)
        return;
    /* The queue first: it clears the nodes still queued, which live in the
     * SMs and the dispatcher. */
    evq_free(&s->q);
    if (s->have_kernel)
        kernel_free(&s->k);
    free(s->allowed);
    dispatch_free(&s->disp);
    silicon_destroy(s->si);
    free(s->si_seen);
    free(s->si_act);
    free(s->grid_t);
    for (int i = 0; s->sms && i < s->nsms; i++)
        sm_free(&s->sms[i]);
    free(s->sms);
    topo_free(&s->topo);
    mem_destroy(s->mem);
    mem_hier_destroy(s->hier);
    free(s->sinks);
    free(s);
}

/* Size the scoreboards for the largest program and note which timer marks
 * the kernel uses. */
static int prepare_kernel(sim *s, sk_error *e)
{
    kernel *k = &s->k;
    s->max_regs = 1;
    s->marks = 0;
    s->cooperative = 0;
    for (uint32_t p = 0; p < k->nprogs; p++) {
        program *pr = &k->progs[p];
        s->max_regs = SK_MAX(s->max_regs, pr->nregs);
        for (uint32_t i = 0; i < pr->n; i++) {
            s->marks |= pr->code[i].flags & (IF_TIMER_START | IF_TIMER_END | IF_CLOCK_START | IF_CLOCK_END);
            s->cooperative |= pr->code[i].kind == IK_GRIDBAR;
        }
    }
    /* Each SM allocates a scoreboard of max_regs entries per warp slot (sm.c). */
    uint64_t entries = (uint64_t)s->nsms * (uint64_t)s->c.max_warps * s->max_regs;
    if (entries > SIM_MAX_SCOREBOARD)
        return sk_errorf(e, SK_EFIT, "kernel %s: %u registers x %llu warp slots = %llu scoreboard entries: "
                         "expected at most %llu (fewer registers, SMs or sm.max_warps)", k->name, s->max_regs,
                         (unsigned long long)s->nsms * (unsigned long long)s->c.max_warps,
                         (unsigned long long)entries, (unsigned long long)SIM_MAX_SCOREBOARD);
    sm_cta_need(&s->c, k, &s->need);
    int per_sm = sm_ctas_per_sm(&s->c, &s->need);
    free(s->allowed);
    s->allowed = NULL;
    int usable = s->nsms;
    if (k->green_sms || k->mig) {
        /* The kernel runs in a green context (the group of a split of N SMs,
         * or what that split leaves) or in a MIG instance: topo_sms_set(). */
        topo_sms_spec sp = {.kind = k->mig ? TOPO_SMS_MIG : k->green_sms > 0 ? TOPO_SMS_GREEN : TOPO_SMS_REST,
                            .n = k->green_sms > 0 ? k->green_sms : -k->green_sms,
                            .flags = k->green_nocosched ? TOPO_SMS_NOCOSCHED : 0,
                            .mig_profile = k->mig - 1, .mig_start = k->mig_start};
        s->allowed = xcalloc((size_t)s->nsms, 1);
        sk_error ge = {0};
        int rc = topo_sms_set(&s->topo, s->c.green_unit_sms, &sp, s->allowed, &usable, &ge);
        if (rc < 0 && k->mig)
            return sk_errorf(e, SK_EFIT, "kernel %s: sms=mig: %s", k->name, ge.msg);
        if (rc < 0 || usable == 0)
            return sk_errorf(e, SK_EFIT, "kernel %s: sms=%s:%d: expected a green-context split of 1..%d SMs "
                             "that leaves SMs for this kernel", k->name, k->green_sms > 0 ? "green" : "rest",
                             sp.n, k->green_sms > 0 ? s->nsms : s->nsms - 1);
    }
    if (s->cooperative && (uint64_t)per_sm * (uint64_t)usable < k->grid)
        return sk_errorf(e, SK_EFIT,
                         "kernel %s: cooperative (GRID.SYNC) grid of %llu CTAs: expected at most %d "
                         "(%d SMs x %d co-resident CTAs), as cudaLaunchCooperativeKernel requires",
                         k->name, (unsigned long long)k->grid, per_sm * usable, usable, per_sm);
    if (per_sm < 1)
        return sk_errorf(e, SK_EFIT,
                         "kernel %s: a CTA of %u threads, %u registers/thread, %u bytes of shared memory "
                         "needs %d warps, %d registers, %d bytes: expected at most sm.max_threads=%d, "
                         "sm.max_warps=%d, sm.registers=%d, sm.smem_bytes=%d",
                         k->name, k->block_threads, k->regs_per_thread, k->smem_bytes, s->need.warps,
                         s->need.regs, s->need.smem, s->c.max_threads, s->c.max_warps, s->c.registers,
                         s->c.smem_bytes);
    /* cudaLaunchKernelEx refuses a cluster that no GPC can hold at this
     * occupancy (cudaErrorClusterOutOfResources). */
    int most = 0;            /* CTAs of the kernel the roomiest usable cluster group holds */
    for (int g = 0; k->cluster > 1 && g < s->topo.ncgroups; g++) {
        int n = 0;
        for (int j = s->topo.cg_first[g]; j < s->topo.cg_first[g + 1]; j++)
            n += !s->allowed || s->allowed[s->topo.cg_sms[j]];
        if ((int)k->cluster <= s->topo.cg_max[g])
            most = SK_MAX(most, n * per_sm);
    }
    if (k->cluster > 1 && most < (int)k->cluster) {
        return sk_errorf(e, SK_EFIT,
                         "kernel %s: cluster=%u: expected at most %d CTAs per cluster (the largest GPC "
                         "holds %d CTAs of it at %d per SM), as cudaLaunchKernelEx requires",
                         k->name, k->cluster, SK_MIN(most, 16), most, per_sm);
    }
    return 0;
}

int sim_next_cta(sim *s, cta_desc *d)
{
    int r = trace_next_cta(s->tr, d, &s->err);
    return r;
}

void sim_cta_finished(sim *s, sm *m, cta_slot *cs, ps_t t)
{
    /* A CTA whose warp 0 never reached its start mark counts from arrival;
     * its end is the kernel's own end timestamp when it takes one. */
    cta_record r = {
        .kernel = s->ks.index,
        .cta = cs->id,
        .sm = m->id,
        .start_ps = cs->started ? cs->start_ps : cs->arrive_ps,
        .end_ps = cs->ended ? cs->end_ps : t,
        .kernel_first_start_ps = s->ks.first_start_ps,
    };
    uint64_t c0 = cs->clocked ? cs->start_cycle : sm_cycle_at(m, cs->arrive_ps);
    uint64_t c1 = cs->clock_ended ? cs->end_cycle : sm_cycle_at(m, t);
    r.cycles = c1 > c0 ? c1 - c0 : 0;
    if (s->sink_want & SINK_W_CTA_FINISH)
        sim_sink_cta_finish(s, &r);   /* a failure stops the run (s->stop) */
    if (s->disp.ops->cta_done)
        s->disp.ops->cta_done(s->disp.st, s, m->id, cs, t);
    s->ctas_running--;
    if (t > s->ks.last_end_ps)
        s->ks.last_end_ps = t;
    if (r.end_ps > s->ks.last_record_end_ps)
        s->ks.last_record_end_ps = r.end_ps;
    dispatch_kick(s, t);
}

/* Grid barrier: every live warp of the kernel arrived.  cooperative_groups'
 * grid.sync() has each CTA's thread 0 add to one counter in L2 (an atomic)
 * and then poll a flag until the last arrival flips it.  The atomics to the
 * one counter line are served one at a time, sync.grid_cta_ps each, in
 * arrival order (a CTA arrives with its last warp; the warps' arrival times
 * sorted, every W-th is a CTA's, W warps per CTA); the release comes
 * sync.grid_ns after the last one is served (the flag's write and the
 * pollers' round trip).  So bunched arrivals cost a time linear in the CTA
 * count and spread ones drain the queue as they come.  Warps that exit
 * meanwhile no longer hold it back. */
static void grid_release(sim *s, event *ev)
{
    if (s->sink_want & SINK_W_BAR_RELEASE) {
        sink_barrier b = {.kind = SINK_BAR_GRID, .sm = -1, .slot = -1, .warps = s->grid_released, .t = ev->t};
        sim_sink_bar_release(s, &b);
    }
    for (int i = 0; i < s->nsms; i++)
        sm_release_grid(s, &s->sms[i], ev->t);
}

static int cmp_ps(const void *a, const void *b)
{
    ps_t x = *(const ps_t *)a, y = *(const ps_t *)b;
    return (x > y) - (x < y);
}

static void grid_check(sim *s)
{
    if (s->grid_arrived > 0 && s->grid_arrived == s->live_warps) {
        ps_t served = s->grid_last_ps;
        if (s->c.grid_cta_ps > 0 && s->grid_n > 0) {
            size_t n = s->grid_n, w = SK_MAX(1, (s->k.block_threads + 31) / 32);
            qsort(s->grid_t, n, sizeof *s->grid_t, cmp_ps);
            served = 0;
            for (size_t i = w - 1; i < n + w - 1; i += w) {
                ps_t a = s->grid_t[SK_MIN(i, n - 1)];
                served = SK_MAX(served, a) + (ps_t)s->c.grid_cta_ps;
            }
        }
        s->grid_released = s->grid_arrived;
        s->grid_arrived = 0;
        s->grid_n = 0;
        ps_t t = SK_MAX(served, s->q.now) + (ps_t)s->c.grid_sync_ns * PS_PER_NS;
        s->grid_last_ps = 0;
        evq_push(&s->q, &s->grid_ev, t);
    }
}

void sim_grid_arrive(sim *s, ps_t t)
{
    s->grid_arrived++;
    s->grid_last_ps = SK_MAX(s->grid_last_ps, t);
    if (s->c.grid_cta_ps > 0) {
        if (s->grid_n == s->grid_cap) {
            s->grid_cap = s->grid_cap ? 2 * s->grid_cap : 1024;
            s->grid_t = xrealloc(s->grid_t, s->grid_cap * sizeof *s->grid_t);
        }
        s->grid_t[s->grid_n++] = t;
    }
    grid_check(s);
}

void sim_warp_exited(sim *s, ps_t t)
{
    (void)t;
    s->live_warps--;
    grid_check(s);
}

/* Bring the silicon model to time t: hand it what each SM did since the
 * last call, apply the clocks it sets, and report the epoch.  Returns 0 or
 * an SK_E* code (in s->err). */
static int silicon_step(sim *s, ps_t t)
{
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        si_activity *a = &s->si_act[i], *seen = &s->si_seen[i];
        for (int k = 0; k < FU_NCLASS; k++) {
            a->issued[k] = m->issued_cls[k] - seen->issued[k];
            seen->issued[k] = m->issued_cls[k];
        }
        a->tensor_cycles = m->tensor_cycles - seen->tensor_cycles;
        seen->tensor_cycles = m->tensor_cycles;
        if (!s->hier) {
            a->mem_bytes = m->mem_bytes - seen->mem_bytes;
            seen->mem_bytes = m->mem_bytes;
            continue;
        }
        /* the hierarchy's counters since creation (memsys.h): DRAM bytes,
         * and the arrays and wires every access used, for their energy */
        const mem_stats *ms = mem_hier_total(s->hier, i);
        uint64_t v[5] = {
            ms->dram_rd_bytes + ms->dram_wr_bytes,
            ms->l1_sectors + ms->l1_bypass + ms->st_sectors,
            ms->smem_wavefronts,
            ms->l2_sectors + ms->l2_misses + ms->l2_writebacks,
            ms->noc_sector_um,
        };
        uint64_t *now[5] = { &a->mem_bytes, &a->l1_sectors, &a->smem_wavefronts, &a->l2_sectors,
                             &a->noc_sector_um };
        uint64_t *was[5] = { &seen->mem_bytes, &seen->l1_sectors, &seen->smem_wavefronts,
                             &seen->l2_sectors, &seen->noc_sector_um };
        for (int k = 0; k < 5; k++) {
            *now[k] = v[k] - *was[k];
            *was[k] = v[k];
        }
    }
    int r = silicon_advance(s->si, t, s->si_act, &s->err);
    if (r < 0)
        return r;
    for (int i = 0; i < s->nsms; i++) {
        sm *m = &s->sms[i];
        int mhz = silicon_sm_mhz(s->si, i, t);
        if (mhz != m->mhz) {
            sm_change_clock(s, m, mhz, t);
            if (s->hier)
                mem_hier_set_mhz(s->hier, i, mhz);
        }
        double v = silicon_sm(s->si, i)->vdd_mv;
        if (m->vdd_min_mv == 0 || v < m->vdd_min_mv)
            m->vdd_min_mv = v;
    }
    if (s->sink_want & SINK_W_DVFS)
        return sim_sink_dvfs(s, t);
    return 0;
}

/* Queue the silicon event at the model's next own time (launches and
 * kernel ends move it). */
static void silicon_rearm(sim *s)
{
    ps_t next = silicon_next_ps(s->si);
    if (next < PS_MAX)
        evq_push(&s->q, &s->si_ev, SK_MAX(next, s->q.now));
    else
        evq_cancel(&s->q, &s->si_ev);
}

static void silicon_fire(sim *s, event *ev)
{
    if (silicon_step(s, ev->t) < 0) {
        s->stop = 1;
        return;
    }
    silicon_rearm(s);
}

/* The kernel's balance figures (kernel_stats): every CTA has retired, so
 * every SM's resident_ps is final for it. */
static void kernel_figures(sim *s)
{
    ps_t max_busy = 0, sum_busy = 0, first_idle = PS_MAX, bar = 0;
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        ps_t busy = m->resident_ps - m->k_resident0;
        max_busy = SK_MAX(max_busy, busy);
        sum_busy += busy;
        bar += m->bar_wait_ps - m->k_bar0;
        first_idle = SK_MIN(first_idle, m->idle_ps == PS_MAX ? s->ks.first_start_ps : m->idle_ps);
    }
    s->ks.imbalance = sum_busy > 0 ? (double)max_busy * s->nsms / (double)sum_busy : 0.0;
    s->ks.tail_ps = first_idle == PS_MAX || s->ks.last_end_ps < first_idle ? 0 : s->ks.last_end_ps - first_idle;
    s->ks.barrier_wait_ps = bar;
}

static int kernel_done(const sim *s)
{
    return s->ctas_left == 0 && s->ctas_running == 0;
}

/* Run events until the current kernel has finished. */
static int run_kernel(sim *s, sk_error *e)
{
    while (!kernel_done(s)) {
        event *ev = evq_pop(&s->q);
        if (!ev)
            return sk_errorf(e, SK_ESIM,
                             "kernel %s: no pending event with %llu CTA(s) running and %llu waiting "
                             "(deadlock)", s->k.name, (unsigned long long)s->ctas_running,
                             (unsigned long long)s->ctas_left);
        if (ev->t > s->limit_ps)
            return sk_errorf(e, SK_ESIM, "kernel %s: simulated time passed sim.max_time_ns=%lld",
                             s->k.name, (long long)s->c.max_time_ns);
        ev->fn(s, ev);
        if (s->stop) {
            if (s->err.code)
                *e = s->err;
            return e->code ? e->code : SK_ESIM;
        }
    }
    return 0;
}

/* Launch pipelining (docs/topology.md, "Launch pipelining"; E12).  A
 * launch is two steps: the command processor takes the launch command and
 * sets the kernel up (launch.start_ns from the command's arrival), and then
 * starts dispatching its CTAs, which in one stream waits for the previous
 * kernel: its last CTA, plus launch.queue_gap_ns (the front end's
 * completion-to-dispatch turnaround).  Commands of back-to-back launches
 * arrive launch.host_ns apart (the host's launch call), so the setup of
 * kernel i overlaps the run of kernel i-1: a host-bound chain costs
 * host_ns per kernel, a pre-queued one (host_ns 0) its CTA span plus
 * queue_gap_ns.  A kernel after an idle gap (gap_ns > 0), the first one,
 * and every kernel with queue_gap_ns = 0 launch when the previous one has
 * completed, as before. */
typedef struct launch_plan {
    ps_t launch_ps;     /* the launch command reaches the GPU (kernel_stats.launch_ps) */
    ps_t dispatch_ps;   /* earliest first CTA dispatch, before the silicon wake-up */
} launch_plan;

static launch_plan plan_launch(const sim *s, int pipelined, ps_t done_prev, ps_t cmd_prev,
                               ps_t last_end_prev)
{
    launch_plan p;
    ps_t start = (ps_t)s->c.launch_start_ns * PS_PER_NS;
    if (!pipelined) {
        p.launch_ps = done_prev;
        p.dispatch_ps = done_prev + start;
        return p;
    }
    p.launch_ps = cmd_prev + (ps_t)s->c.launch_host_ns * PS_PER_NS;
    p.dispatch_ps = SK_MAX(p.launch_ps + start,
                           last_end_prev + (ps_t)s->c.launch_queue_gap_ns * PS_PER_NS);
    return p;
}

int sim_run(sim *s, trace *tr, sk_error *e)
{
    ps_t t = s->end_ps;
    ps_t cmd_prev = t, last_end_prev = t;
    s->tr = tr;
    for (uint64_t index = 0;; index++) {
        int r = trace_next_kernel(tr, &s->k, e);
        if (r < 0)
            return r;
        if (r == 0)
            break;
        s->have_kernel = 1;
        if ((r = prepare_kernel(s, e)) < 0)
            return r;
        /* The trace may idle the GPU before this launch (gap_ns): bring the
         * silicon model through the idle time (idle clock, cooling), and a
         * launch after a long idle pays the clock's wake-up first. */
        if (s->k.gap_ns > 0) {
            t += (ps_t)s->k.gap_ns * PS_PER_NS;
            evq_cancel(&s->q, &s->si_ev);
            if ((r = silicon_step(s, t)) < 0) {
                *e = s->err;
                return r;
            }
        }
        int pipelined = index > 0 && s->k.gap_ns == 0 && s->c.launch_queue_gap_ns > 0;
        launch_plan lp = plan_launch(s, pipelined, t, cmd_prev, last_end_prev);
        memset(&s->ks, 0, sizeof s->ks);
        snprintf(s->ks.name, sizeof s->ks.name, "%s", s->k.name);
        s->ks.index = index;
        s->ks.ctas = s->k.grid;
        s->ks.launch_ps = lp.launch_ps;
        s->ks.first_start_ps = PS_MAX;
        s->ks.cluster = s->k.cluster;
        if (s->k.cluster)
            s->ks.max_active_clusters = topo_max_active_clusters_in(
                &s->topo, s->allowed, sm_ctas_per_sm(&s->c, &s->need), (int)s->k.cluster);
        s->ctas_left = s->k.grid;
        s->ctas_running = 0;
        uint64_t before = 0;
        for (int i = 0; i < s->nsms; i++) {
            sm *m = &s->sms[i];
            before += m->issued;
            m->k_resident0 = m->resident_ps;
            m->k_bar0 = m->bar_wait_ps;
            m->idle_ps = PS_MAX;      /* no CTA of this kernel retired on it yet */
        }
        dispatch_kernel_start(s);
        if (s->disp.ops->kernel_start)
            s->disp.ops->kernel_start(s->disp.st, s);
        for (mem_level *l = s->mem; l; l = l->next)
            if (l->ops->kernel_start)
                l->ops->kernel_start(l);
        if (s->hier)   /* the carve-out for this kernel's shared memory at full occupancy */
            mem_hier_kernel_start(s->hier, (uint64_t)s->need.smem *
                                           (uint64_t)SK_MAX(0, sm_ctas_per_sm(&s->c, &s->need)));
        if ((s->sink_want & SINK_W_KERNEL_LAUNCH) && sim_sink_kernel_launch(s) < 0) {
            *e = s->err;
            return e->code;
        }
        /* The silicon model sees the launch no earlier than the previous kernel's end (a queued
         * launch's command may have arrived while the previous kernel ran). */
        ps_t seen = SK_MAX(lp.launch_ps, SK_MAX(s->q.now, pipelined ? last_end_prev : 0));
        ps_t wake = silicon_kernel_launch(s->si, seen);
        silicon_rearm(s);
        dispatch_kick(s, SK_MAX(lp.dispatch_ps + wake, seen));
        cmd_prev = lp.launch_ps;
        if ((r = run_kernel(s, e)) < 0)
            return r;
        uint64_t after = 0;
        for (int i = 0; i < s->nsms; i++)
            after += s->sms[i].issued;
        s->ks.warp_instructions = after - before;
        if (s->hier) {
            s->ks.has_mem = 1;
            for (int i = 0; i < s->nsms; i++)
                mem_stats_add(&s->ks.mem, mem_hier_stats(s->hier, i));
        }
        s->warp_instructions += s->ks.warp_instructions;
        s->ks.done_ps = s->ks.last_end_ps + (ps_t)s->c.launch_end_ns * PS_PER_NS;
        kernel_figures(s);
        /* The silicon model sees every kernel end, and epochs.csv gets at
         * least one row per kernel. */
        if ((r = silicon_step(s, s->ks.last_end_ps)) < 0) {
            *e = s->err;
            return r;
        }
        silicon_kernel_end(s->si, s->ks.last_end_ps);
        silicon_rearm(s);
        t = s->ks.done_ps;
        last_end_prev = s->ks.last_end_ps;
        s->kernels_done++;
        if ((s->sink_want & SINK_W_KERNEL_END) && sim_sink_kernel_end(s) < 0) {
            *e = s->err;
            return e->code;
        }
        kernel_free(&s->k);
        s->have_kernel = 0;
    }
    s->end_ps = t;
    return 0;
}
