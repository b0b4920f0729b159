/* sim.c -- the run loop: kernels from launch to completion, back to back
 * in one stream and side by side in different streams.
 *
 * Timeline of one kernel (docs/design.md has the picture):
 *   launch_ps                    the CUDA event before the kernel
 *   + launch.start_ns            the dispatcher starts handing out CTAs
 *   first_start_ps               warp 0 of some CTA issues its first instruction
 *   ...                          CTAs run, finish, free room for more
 *   last_end_ps                  the last CTA's last warp exits
 *   (memory.model: hierarchy) the L2 has taken every store issued before
 *   + launch.end_ns = done_ps    the CUDA event after the kernel
 * span = last_end - first_start (what in-kernel timers see); time = done -
 * launch (what CUDA events see).  How the next kernel's launch overlaps
 * this one is the launch plan below ("Launch pipelining"); a kernel of
 * another stream may run alongside it ("Concurrent kernels").
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/sim.h"
#include "skewsim/memsys.h"

static void grid_release(sim *s, event *ev);
static void kernel_run_free(sim_kernel *kr);
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
        if (s->hier) {
            s->sms[i].mem = mem_hier_l1(s->hier, i);
            mem_hier_bind_stall(s->hier, i, &s->sms[i].stall[SM_STALL_MEMORY]);
        }
    }
    dispatch_init(&s->disp, s);
    if (dispatch_static_weights_load(s, e) < 0) {
        sim_destroy(s);
        return NULL;
    }
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
    for (int i = 0; i < s->nlive; i++)
        kernel_run_free(s->live[i]);
    free(s->live);
    dispatch_free(&s->disp);
    silicon_destroy(s->si);
    free(s->si_seen);
    free(s->si_act);
    for (int i = 0; s->sms && i < s->nsms; i++)
        sm_free(&s->sms[i]);
    free(s->sms);
    topo_free(&s->topo);
    mem_destroy(s->mem);
    mem_hier_destroy(s->hier);
    free(s->sinks);
    free(s);
}

/* sms=l2:P and address patterns with part=P (docs/memory.md, "E18"): the
 * SMs homed in partition P, whose homes come from the floorplan as
 * `skewsim topo` prints them (under memory.model: flat too, from a
 * hierarchy built for the purpose), and the model's page hash for part=. */
static int prepare_l2(sim *s, sim_kernel *kr, int *usable, sk_error *e)
{
    kernel *k = &kr->k;
    uint64_t mask = 0;
    cfg_bit_list(s->c.l2_hash_bits, &mask);
    for (uint32_t p = 0; p < k->nprogs; p++)
        for (uint32_t i = 0; i < k->progs[p].napats; i++) {
            mem_apat *a = &k->progs[p].apats[i];
            if (mem_apat_set_hash(a, s->c.l2_partitions, mask, s->c.l2_frame_bit) < 0)
                return sk_errorf(e, SK_EFIT, "kernel %s: part=%d: expected memory.l2.partitions=2 and a "
                                 "memory.l2.hash_bits bit of 12..frame_bit-1 (pages paired by one bit)",
                                 k->name, a->part - 1);
        }
    if (!k->l2_part)
        return 0;
    mem_hier *h = s->hier ? s->hier : mem_hier_create(&s->c, &s->topo, NULL, e);
    if (!h)
        return e->code;
    int *home = xcalloc((size_t)s->nsms, sizeof *home);
    for (int i = 0; i < s->nsms; i++)
        home[i] = mem_hier_home(h, i);
    if (h != s->hier)
        mem_hier_destroy(h);
    topo_sms_spec sp = {.kind = TOPO_SMS_L2, .n = k->l2_part - 1, .home = home};
    kr->allowed = xcalloc((size_t)s->nsms, 1);
    topo_sms_set(&s->topo, s->c.green_unit_sms, &sp, kr->allowed, usable, e);
    free(home);
    if (*usable == 0)
        return sk_errorf(e, SK_EFIT, "kernel %s: sms=l2:%d: expected SMs homed in that L2 partition "
                         "(memory.l2.partitions=%d)", k->name, k->l2_part - 1, s->c.l2_partitions);
    return 0;
}

/* Size the scoreboards for the largest program and note which timer marks
 * the kernel uses. */
static int prepare_kernel(sim *s, sim_kernel *kr, sk_error *e)
{
    kernel *k = &kr->k;
    kr->max_regs = 1;
    kr->marks = 0;
    kr->cooperative = 0;
    for (uint32_t p = 0; p < k->nprogs; p++) {
        program *pr = &k->progs[p];
        kr->max_regs = SK_MAX(kr->max_regs, pr->nregs);
        for (uint32_t i = 0; i < pr->n; i++) {
            instr *in = &pr->code[i];
            kr->marks |= in->flags & (IF_TIMER_START | IF_TIMER_END | IF_CLOCK_START | IF_CLOCK_END);
            kr->cooperative |= in->kind == IK_GRIDBAR;
            /* what sm.c's issue path reads (program.h) */
            in->busy = in->ii ? in->ii : (uint32_t)s->c.units[in->cls].ii_cycles * (in->flags & IF_HALF ? 2u : 1u);
            /* a shared-memory load (LDS, LDSM) sends its sub-partition's pipe
             * addresses only: it holds it memory.smem_load_ii_cycles (E30
             * board n); ATOMS, a load too, also sends data: the unit's ii */
            if (!in->ii && in->kind == IK_LD_SHARED && (in->flags & IF_SMEM) && s->c.smem_load_ii_cycles &&
                strncmp(pr->opnames[in->opcode], "ATOMS", 5) != 0)
                in->busy = (uint32_t)s->c.smem_load_ii_cycles;
            in->lat = (uint32_t)s->c.units[in->cls].lat_cycles;
            in->row = in->erow ? in->erow : in->cls;
            if (!k->data_quiet)
                in->row = (uint8_t)si_op_row_random(in->row);
            in->nops = (uint8_t)(in->nsrc + in->ndst);
            in->gap = (uint8_t)(in->stall + (in->stall == 0));
            in->bank = (uint8_t)SK_MIN(prog_bank_cycles(pr, in, s->c.register_banks), 255u);
        }
    }
    /* Each SM allocates a scoreboard of max_regs entries per warp slot, and
     * as many read barriers with sm.store_read_cycles (sm.c). */
    uint64_t entries = (uint64_t)s->nsms * (uint64_t)s->c.max_warps * kr->max_regs *
                       (s->c.store_read_cycles ? 2u : 1u);
    if (entries > SIM_MAX_SCOREBOARD)
        return sk_errorf(e, SK_EFIT, "kernel %s: %u registers x %llu warp slots%s = %llu scoreboard entries: "
                         "expected at most %llu (fewer registers, SMs or sm.max_warps%s)", k->name, kr->max_regs,
                         (unsigned long long)s->nsms * (unsigned long long)s->c.max_warps,
                         s->c.store_read_cycles ? " x 2 (sm.store_read_cycles: read barriers)" : "",
                         (unsigned long long)entries, (unsigned long long)SIM_MAX_SCOREBOARD,
                         s->c.store_read_cycles ? ", or sm.store_read_cycles 0" : "");
    sm_cta_need(&s->c, k, &kr->need);
    int per_sm = sm_ctas_per_sm(&s->c, &kr->need);
    free(kr->allowed);
    kr->allowed = NULL;
    int usable = s->nsms;
    if (prepare_l2(s, kr, &usable, e) < 0)
        return e->code;
    if (k->green_sms || k->mig) {
        /* The kernel runs in a green context (the group of a split of N SMs,
         * or what that split leaves) or in a MIG instance: topo_sms_set(). */
        topo_sms_spec sp = {.kind = k->mig ? TOPO_SMS_MIG : k->green_sms > 0 ? TOPO_SMS_GREEN : TOPO_SMS_REST,
                            .n = k->green_sms > 0 ? k->green_sms : -k->green_sms,
                            .flags = k->green_nocosched ? TOPO_SMS_NOCOSCHED : 0,
                            .mig_profile = k->mig - 1, .mig_start = k->mig_start};
        kr->allowed = xcalloc((size_t)s->nsms, 1);
        sk_error ge = {0};
        int rc = topo_sms_set(&s->topo, s->c.green_unit_sms, &sp, kr->allowed, &usable, &ge);
        if (rc < 0 && k->mig)
            return sk_errorf(e, SK_EFIT, "kernel %s: sms=mig: %s", k->name, ge.msg);
        if (rc < 0 || usable == 0)
            return sk_errorf(e, SK_EFIT, "kernel %s: sms=%s:%d: expected a green-context split of 1..%d SMs "
                             "that leaves SMs for this kernel", k->name, k->green_sms > 0 ? "green" : "rest",
                             sp.n, k->green_sms > 0 ? s->nsms : s->nsms - 1);
    }
    if (k->one_sm) {
        /* sms=sm:ID: that SM alone */
        if (k->one_sm > (uint32_t)s->nsms)
            return sk_errorf(e, SK_EFIT, "kernel %s: sms=sm:%u: expected an SM id 0..%d (the chip's SMs)",
                             k->name, k->one_sm - 1u, s->nsms - 1);
        free(kr->allowed);      /* one SM, whatever else narrowed the set */
        kr->allowed = xcalloc((size_t)s->nsms, 1);
        kr->allowed[k->one_sm - 1] = 1;
        usable = 1;
    }
    if (kr->cooperative && (uint64_t)per_sm * (uint64_t)usable < k->grid)
        return sk_errorf(e, SK_EFIT,
                         "kernel %s: cooperative (GRID.SYNC) grid of %llu CTAs: expected at most %d "
                         "(%d SMs x %d co-resident CTAs), as cudaLaunchCooperativeKernel requires",
                         k->name, (unsigned long long)k->grid, per_sm * usable, usable, per_sm);
    if (per_sm < 1)
        return sk_errorf(e, SK_EFIT,
                         "kernel %s: a CTA of %u threads, %u registers/thread, %u bytes of shared memory "
                         "needs %d warps, %d registers, %d bytes: expected at most sm.max_threads=%d, "
                         "sm.max_warps=%d, sm.registers=%d, sm.smem_bytes=%d",
                         k->name, k->block_threads, k->regs_per_thread, k->smem_bytes, kr->need.warps,
                         kr->need.regs, kr->need.smem, s->c.max_threads, s->c.max_warps, s->c.registers,
                         s->c.smem_bytes);
    /* cudaLaunchKernelEx refuses a cluster that no GPC can hold
     * (cudaErrorClusterOutOfResources): its CTAs take one SM each (E26),
     * so a group takes clusters of up to its usable SMs, and up to its
     * cg_max. */
    int most = 0;            /* the largest cluster some group of the kernel's SMs takes */
    for (int g = 0; k->cluster > 1 && g < s->topo.ncgroups; g++)
        most = SK_MAX(most, SK_MIN(topo_cgroup_usable(&s->topo, g, kr->allowed), s->topo.cg_max[g]));
    if (k->cluster > 1 && most < (int)k->cluster)
        return sk_errorf(e, SK_EFIT,
                         "kernel %s: cluster=%u: expected at most %d CTAs per cluster (a cluster's CTAs take "
                         "one SM each, inside one GPC of the kernel's SMs), as cudaLaunchKernelEx requires",
                         k->name, k->cluster, SK_MIN(most, KERNEL_CLUSTER_MAX));
    /* a cooperative grid in clusters must be co-resident cluster by cluster */
    if (kr->cooperative && k->cluster > 1) {
        uint64_t fit = topo_max_active_clusters_in(&s->topo, kr->allowed, per_sm, (int)k->cluster) * k->cluster;
        if (fit < k->grid)
            return sk_errorf(e, SK_EFIT,
                             "kernel %s: cooperative (GRID.SYNC) grid of %llu CTAs in clusters of %u: expected at "
                             "most %llu (the clusters that fit at once), as cudaLaunchKernelEx requires",
                             k->name, (unsigned long long)k->grid, k->cluster, (unsigned long long)fit);
    }
    return 0;
}

/* ---- CTA queues ------------------------------------------------------
 *
 * A kernel's CTAs come from the trace while it is the trace's current
 * kernel, one at a time as the engine asks (docs/design.md, "Programs").
 * Reading the next kernel moves the reader past this one's ctas section, so
 * the CTAs not yet handed out are taken off it first, into runs of
 * consecutive ids with one program and work factor: one run per ctas
 * record (a kernel without records is one run), so a 2^32-CTA range still
 * costs one entry.  A trace error in those records is reported then. */

static void add_run(sim_kernel *kr, const cta_desc *d, uint64_t n)
{
    if (kr->nruns > 0) {
        cta_run *r = &kr->runs[kr->nruns - 1];
        if (r->last + 1 == d->id && r->prog == d->prog && r->work == d->work) {
            r->last = d->id + n - 1;
            return;
        }
    }
    if (kr->nruns == kr->runcap) {
        kr->runcap = kr->runcap ? 2 * kr->runcap : 4;
        kr->runs = xrealloc(kr->runs, kr->runcap * sizeof *kr->runs);
    }
    kr->runs[kr->nruns++] = (cta_run){.first = d->id, .last = d->id + n - 1, .prog = d->prog, .work = d->work};
}

/* Take the rest of kernel kr's CTA records off the trace. */
static int take_ctas(sim *s, sim_kernel *kr, sk_error *e)
{
    cta_desc d;
    uint64_t n;
    int r;
    while ((r = trace_next_ctas(s->tr, &d, &n, e)) > 0)
        add_run(kr, &d, n);
    if (r < 0)
        return r;
    kr->from_trace = 0;
    kr->run_pos = 0;
    kr->run_next = kr->nruns ? kr->runs[0].first : 0;
    return 0;
}

int sim_next_cta(sim *s, sim_kernel *kr, cta_desc *d)
{
    if (kr->from_trace)
        return trace_next_cta(s->tr, d, &s->err);
    while (kr->run_pos < kr->nruns) {
        const cta_run *r = &kr->runs[kr->run_pos];
        if (kr->run_next <= r->last) {
            d->id = kr->run_next++;
            d->prog = r->prog;
            d->work = r->work;
            return 1;
        }
        if (++kr->run_pos < kr->nruns)
            kr->run_next = kr->runs[kr->run_pos].first;
    }
    return 0;
}

void sim_bind(sim *s, sim_kernel *kr)
{
    s->bound = kr;
    s->k = kr->k;
    s->have_kernel = 1;
    s->ks = kr->ks;
    s->need = kr->need;
    s->allowed = kr->allowed;
    s->ctas_left = kr->ctas_left;
    s->ctas_running = kr->ctas_running;
    s->cooperative = kr->cooperative;
    s->grid_arrived = kr->grid_arrived;
}

void sim_cta_finished(sim *s, sm *m, cta_slot *cs, ps_t t)
{
    sim_kernel *kr = cs->kr;
    /* A CTA whose warp 0 never reached its start mark counts from arrival;
     * its end is the kernel's own end timestamp when it takes one. */
    cta_record r = {
        .kernel = kr->ks.index,
        .cta = cs->id,
        .sm = m->id,
        .start_ps = cs->started ? cs->start_ps : cs->arrive_ps,
        .end_ps = cs->ended ? cs->end_ps : t,
        .kernel_first_start_ps = kr->ks.first_start_ps,
    };
    uint64_t c0 = cs->clocked ? cs->start_cycle : sm_cycle_at(m, cs->arrive_ps);
    uint64_t c1 = cs->clock_ended ? cs->end_cycle : sm_cycle_at(m, t);
    r.cycles = c1 > c0 ? c1 - c0 : 0;
    if (s->sink_want & SINK_W_CTA_FINISH) {
        sim_bind(s, kr);
        sim_sink_cta_finish(s, &r);   /* a failure stops the run (s->stop) */
    }
    if (s->disp.ops->cta_done) {
        sim_bind(s, kr);
        s->disp.ops->cta_done(s->disp.st, s, m->id, cs, t);
    }
    kr->ctas_running--;
    kr->ks.warp_instructions += cs->issued;
    if (t > kr->ks.last_end_ps)
        kr->ks.last_end_ps = t;
    if (r.end_ps > kr->ks.last_record_end_ps)
        kr->ks.last_record_end_ps = r.end_ps;
    /* the kernel's own view of the SM (kernel_figures) */
    if (--kr->sm_ctas[m->id] == 0) {
        kr->sm_busy[m->id] += t - kr->sm_since[m->id];
        kr->sm_idle[m->id] = t;
    }
    if (kr->ctas_left == 0 && kr->ctas_running == 0)
        s->completions++;       /* run_events finishes it after this event */
    dispatch_kick(s, t);
}

static sim_kernel *kernel_of_grid_ev(event *ev)
{
    return (sim_kernel *)(void *)((char *)ev - offsetof(sim_kernel, grid_ev));
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
 * meanwhile no longer hold it back.  Each kernel has its own barrier. */
static void grid_release(sim *s, event *ev)
{
    sim_kernel *kr = kernel_of_grid_ev(ev);
    if (s->sink_want & SINK_W_BAR_RELEASE) {
        sim_bind(s, kr);
        sink_barrier b = {.kind = SINK_BAR_GRID, .sm = -1, .slot = -1, .warps = kr->grid_released, .t = ev->t};
        sim_sink_bar_release(s, &b);
    }
    for (int i = 0; i < s->nsms; i++)
        sm_release_grid(s, &s->sms[i], kr, ev->t);
}

static int cmp_ps(const void *a, const void *b)
{
    ps_t x = *(const ps_t *)a, y = *(const ps_t *)b;
    return (x > y) - (x < y);
}

static void grid_check(sim *s, sim_kernel *kr)
{
    if (kr->grid_arrived > 0 && kr->grid_arrived == kr->live_warps) {
        ps_t served = kr->grid_last_ps;
        if (s->c.grid_cta_ps > 0 && kr->grid_n > 0) {
            size_t n = kr->grid_n, w = SK_MAX(1, (kr->k.block_threads + 31) / 32);
            qsort(kr->grid_t, n, sizeof *kr->grid_t, cmp_ps);
            served = 0;
            for (size_t i = w - 1; i < n + w - 1; i += w) {
                ps_t a = kr->grid_t[SK_MIN(i, n - 1)];
                served = SK_MAX(served, a) + (ps_t)s->c.grid_cta_ps;
            }
        }
        kr->grid_released = kr->grid_arrived;
        kr->grid_arrived = 0;
        kr->grid_n = 0;
        ps_t t = SK_MAX(served, s->q.now) + (ps_t)s->c.grid_sync_ns * PS_PER_NS;
        kr->grid_last_ps = 0;
        evq_push(&s->q, &kr->grid_ev, t);
    }
}

void sim_grid_arrive(sim *s, sim_kernel *kr, ps_t t)
{
    kr->grid_arrived++;
    kr->grid_last_ps = SK_MAX(kr->grid_last_ps, t);
    if (s->c.grid_cta_ps > 0) {
        if (kr->grid_n == kr->grid_cap) {
            kr->grid_cap = kr->grid_cap ? 2 * kr->grid_cap : 1024;
            kr->grid_t = xrealloc(kr->grid_t, kr->grid_cap * sizeof *kr->grid_t);
        }
        kr->grid_t[kr->grid_n++] = t;
    }
    grid_check(s, kr);
}

void sim_warp_exited(sim *s, sim_kernel *kr, ps_t t)
{
    (void)t;
    kr->live_warps--;
    grid_check(s, kr);
}

/* Bring the silicon model to time t: hand it what each SM did since the
 * last call, apply the clocks it sets, and report the epoch.  Returns 0 or
 * an SK_E* code (in s->err). */
static int silicon_step(sim *s, ps_t t)
{
    /* Kernels on different SMs end in the order their SMs' run-ahead
     * (sim.lookahead_cycles) reached them, so a kernel that ended a few
     * cycles before another can be finished after it, with the silicon
     * already brought to the later end: it sees the earlier one there. */
    t = SK_MAX(t, silicon_time(s->si));
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        si_activity *a = &s->si_act[i], *seen = &s->si_seen[i];
        for (int k = 0; k < SI_OP_N; k++) {
            a->issued[k] = m->op_issued[k] - seen->issued[k];
            seen->issued[k] = m->op_issued[k];
            a->operands[k] = m->op_operands[k] - seen->operands[k];
            seen->operands[k] = m->op_operands[k];
        }
        for (int k = 0; k < SI_DT_N; k++) {
            a->tensor_cycles[k] = m->tensor_dt_cycles[k] - seen->tensor_cycles[k];
            seen->tensor_cycles[k] = m->tensor_dt_cycles[k];
        }
        /* scheduler-cycles with a warp: those that issued, and those that
         * stalled with a warp to serve (docs/silicon.md, "Power") */
        uint64_t sched = m->issue_slots;
        for (int k = 0; k < SM_NSTALLS; k++)
            if (k != SM_STALL_NO_CTA)
                sched += m->stall[k];
        a->sched_cycles = sched - seen->sched_cycles;
        seen->sched_cycles = sched;
        if (!s->hier) {
            a->mem_bytes = m->mem_bytes - seen->mem_bytes;
            seen->mem_bytes = m->mem_bytes;
            a->smem_wavefronts = m->smem_wavefronts - seen->smem_wavefronts;
            seen->smem_wavefronts = m->smem_wavefronts;
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

/* The kernel's balance figures (kernel_stats): every CTA of it has
 * retired, so its own busy time on each SM (a CTA of it resident) is
 * final.  Counted per kernel, so that kernels which overlap each keep
 * their own. */
static void kernel_figures(sim *s, sim_kernel *kr)
{
    ps_t max_busy = 0, sum_busy = 0, first_idle = PS_MAX;
    for (int i = 0; i < s->nsms; i++) {
        ps_t busy = kr->sm_busy[i];
        max_busy = SK_MAX(max_busy, busy);
        sum_busy += busy;
        first_idle = SK_MIN(first_idle, kr->sm_idle[i] == PS_MAX ? kr->ks.first_start_ps : kr->sm_idle[i]);
    }
    kr->ks.imbalance = sum_busy > 0 ? (double)max_busy * s->nsms / (double)sum_busy : 0.0;
    kr->ks.tail_ps = first_idle == PS_MAX || kr->ks.last_end_ps < first_idle ? 0 : kr->ks.last_end_ps - first_idle;
}

static void kernel_run_free(sim_kernel *kr)
{
    if (!kr)
        return;
    kernel_free(&kr->k);
    free(kr->allowed);
    free(kr->grid_t);
    free(kr->runs);
    free(kr->sm_ctas);
    free(kr->sm_since);
    free(kr->sm_busy);
    free(kr->sm_idle);
    free(kr);
}

/* Launch pipelining (docs/topology.md, "Launch pipelining"; E12).  A
 * launch is two steps: the command processor takes the launch command and
 * sets the kernel up (launch.start_ns from the command's arrival), and then
 * starts dispatching its CTAs, which in one stream waits for the previous
 * kernel of that stream: its last CTA, plus launch.queue_gap_ns (the front
 * end's completion-to-dispatch turnaround).  Commands of back-to-back
 * launches arrive launch.host_ns apart (the host's launch call, whatever
 * the stream), so the setup of kernel i overlaps the run of kernel i-1: a
 * host-bound chain costs host_ns per kernel, a pre-queued one (host_ns 0)
 * its CTA span plus queue_gap_ns.  A kernel of another stream waits for
 * nothing but its own setup.  The first kernel, a kernel after an idle gap
 * (gap_ns > 0), a kernel the host synchronises before (sync=host) and
 * every kernel when queue_gap_ns is 0 are launched when every kernel
 * before them has completed (the CUDA event after it): the host waited. */
typedef struct launch_plan {
    ps_t launch_ps;     /* the launch command reaches the GPU (kernel_stats.launch_ps) */
    ps_t dispatch_ps;   /* earliest first CTA dispatch, before the silicon wake-up */
} launch_plan;

static launch_plan plan_launch(const sim *s, const sim_kernel *kr)
{
    launch_plan p;
    ps_t start = (ps_t)s->c.launch_start_ns * PS_PER_NS;
    if (!kr->pipelined) {
        p.launch_ps = s->idle_ps;
        p.dispatch_ps = s->idle_ps + start;
        return p;
    }
    p.launch_ps = kr->ks.launch_ps;
    p.dispatch_ps = SK_MAX(p.launch_ps + start,
                           s->stream_end_ps[kr->stream] + (ps_t)s->c.launch_queue_gap_ns * PS_PER_NS);
    /* a CUDA event recorded just before it (trace key event=before)
     * completes with the previous kernel, launch.end_ns after its last CTA
     * (or the L2 took its stores), and the kernel queued behind it starts
     * launch.event_gap_ns after that: the command processor does not work
     * ahead past the event (E12's gated chains, docs/topology.md); on a
     * stream with no kernel before it the event completes at once */
    if (kr->k.event_before && s->stream_ran[kr->stream])
        p.dispatch_ps = SK_MAX(p.dispatch_ps, s->stream_end_ps[kr->stream] +
                                                  (ps_t)(s->c.launch_end_ns + s->c.launch_event_gap_ns) * PS_PER_NS);
    return p;
}

/* First launches (docs/topology.md, "First launches"; E13).  A process
 * pays one-time costs on its first launches that a warm process does not:
 * the first launch of the run pays launch.first_launch_ns (the process's
 * first launch, modules loaded or not), and under lazy module loading
 * launch.module_load_ns as well (the trace's kernels are one module, as
 * the capture's kernels are one .cu: E13's first cooperative launch in a
 * lazy process costs within the spread of an eager one's, so a second
 * kernel of the module is not charged again); the first cooperative kernel
 * of the run pays launch.coop_setup_ns (the driver's cooperative-launch
 * setup).  Each delays the first CTA dispatch after the launch command;
 * launch.module_loading = steady (the default) charges nothing. */
static ps_t first_launch_ps(sim *s, const sim_kernel *kr)
{
    if (s->c.module_loading == MODLOAD_STEADY)
        return 0;
    ps_t ns = 0;
    if (!s->launched) {
        ns += (ps_t)s->c.launch_first_ns;
        if (s->c.module_loading == MODLOAD_LAZY)
            ns += (ps_t)s->c.module_load_ns;
    }
    if (kr->cooperative && !s->coop_launched) {
        ns += (ps_t)s->c.coop_setup_ns;
        s->coop_launched = 1;
    }
    s->launched = 1;
    return ns * PS_PER_NS;
}

/* ---- the host ----------------------------------------------------------
 *
 * The host issues the trace's kernels in order.  A pipelined launch
 * (plan_launch) returns at once, so the host goes on to the next kernel,
 * which waits on the GPU for its stream's previous kernel; a kernel that
 * is launched only once every kernel before it has completed holds the
 * host until then.  The host reads at most SIM_MAX_WAITING kernels ahead
 * of those started (a bound on memory: each holds its programs and CTA
 * runs; not a measured queue depth). */
#define SIM_MAX_WAITING 16

/* Whether live kernel i may start: its launch plan is known now. */
static int can_start(const sim *s, int i)
{
    const sim_kernel *kr = s->live[i];
    for (int j = 0; j < i; j++) {
        const sim_kernel *o = s->live[j];
        if (!o->completed && (!kr->pipelined || o->stream == kr->stream))
            return 0;
    }
    return 1;
}

/* Whether any other started kernel is still running (CTAs to dispatch or
 * resident). */
static int others_running(const sim *s, const sim_kernel *kr)
{
    for (int i = 0; i < s->nlive; i++)
        if (s->live[i] != kr && s->live[i]->started && !s->live[i]->completed)
            return 1;
    return 0;
}

/* The CTAs an SM the driver sizes kernel k's shared-memory carve-out for.
 * With memory.l1.carveout_threads T (memory.l1.carveout_threads_smem for
 * a kernel that declares shared memory) it counts min(sm.max_ctas, T / CTA
 * threads, what sm.smem_bytes holds), not the kernel's occupancy: ncu read
 * 32 KB for CTAs of 1-384 threads without shared memory, 16 KB at 512 and
 * 640, 8 KB at 768 and 1024 (E38, E42: validation/h100/README.md), where
 * occupancy (8 CTAs at 256 threads) gives 8 KB.  T is fitted on E42's 67
 * launches (validate's e42 rows); the rule is the simplest that fits most
 * of them, not the driver's own.  0: the kernel's occupancy. */
static int carveout_ctas(const cfg *c, const kernel *k, const cta_need *n)
{
    int occ = SK_MAX(0, sm_ctas_per_sm(c, n));
    int t = k->smem_bytes ? c->l1_carveout_threads_smem : c->l1_carveout_threads;
    if (t <= 0 || occ == 0)
        return occ;
    int ctas = SK_MIN(c->max_ctas, t / SK_MAX(n->threads, 1));
    if (n->smem > 0)
        ctas = SK_MIN(ctas, c->smem_bytes / n->smem);
    return SK_MAX(ctas, occ);
}

static int start_kernel(sim *s, sim_kernel *kr, sk_error *e)
{
    int r;
    if ((r = prepare_kernel(s, kr, e)) < 0)
        return r;
    /* The trace may idle the GPU before this launch (gap_ns): bring the
     * silicon model through the idle time (idle clock, cooling), and a
     * launch after a long idle pays the clock's wake-up first. */
    if (kr->k.gap_ns > 0) {
        s->idle_ps += (ps_t)kr->k.gap_ns * PS_PER_NS;
        evq_cancel(&s->q, &s->si_ev);
        if ((r = silicon_step(s, s->idle_ps)) < 0) {
            *e = s->err;
            return r;
        }
    }
    launch_plan lp = plan_launch(s, kr);
    uint64_t index = kr->ks.index;
    memset(&kr->ks, 0, sizeof kr->ks);
    snprintf(kr->ks.name, sizeof kr->ks.name, "%s", kr->k.name);
    kr->ks.index = index;
    kr->ks.ctas = kr->k.grid;
    kr->ks.launch_ps = lp.launch_ps;
    kr->ks.first_start_ps = PS_MAX;
    kr->ks.cluster = kr->k.cluster;
    if (kr->k.cluster)
        kr->ks.max_active_clusters = topo_max_active_clusters_in(
            &s->topo, kr->allowed, sm_ctas_per_sm(&s->c, &kr->need), (int)kr->k.cluster);
    kr->ctas_left = kr->k.grid;
    kr->ctas_running = 0;
    for (int i = 0; i < s->nsms; i++)
        kr->sm_idle[i] = PS_MAX;      /* no CTA of this kernel retired on it yet */
    if (!kr->pipelined)
        s->host_cmd_ps = lp.launch_ps;   /* the host waited for it (a pipelined one: read_kernel) */
    int alone = !others_running(s, kr);
    dispatch_kernel_start(s, kr);
    sim_bind(s, kr);
    if (s->disp.ops->kernel_start)
        s->disp.ops->kernel_start(s->disp.st, s);
    /* The memory levels' per-kernel state (and the hierarchy's counters in
     * kernels[].mem) start with a kernel that runs alone; kernels that
     * overlap share them. */
    for (mem_level *l = s->mem; alone && l; l = l->next)
        if (l->ops->kernel_start)
            l->ops->kernel_start(l);
    /* The carve-out for this kernel's shared memory: the driver sizes it
     * whatever the grid (E20c: ncu reads 32 KB for a one-thread kernel
     * without shared memory at grid 1, 1056 and 4224, 64 KB with 1 KB a
     * CTA), for the CTAs carveout_ctas counts.  Unless memory.l1.reserve_carveout says so, a
     * kernel that declares none carves nothing (E20b's reading: its L1
     * behaved as the whole array until E41 found the index). */
    if (s->hier && alone) {
        uint64_t per_cta = kr->k.smem_bytes == 0 && !s->c.l1_reserve_carveout ? 0 : (uint64_t)kr->need.smem;
        mem_hier_kernel_start(s->hier, per_cta * (uint64_t)carveout_ctas(&s->c, &kr->k, &kr->need));
    }
    if (s->hier) {            /* a kernel that overlaps others runs under theirs */
        kr->ks.smem_config_bytes = mem_hier_smem_config(s->hier);
        kr->ks.l1_bytes = mem_hier_l1_bytes(s->hier);
    }
    if ((s->sink_want & SINK_W_KERNEL_LAUNCH) && sim_sink_kernel_launch(s) < 0) {
        *e = s->err;
        return e->code;
    }
    /* The silicon model sees the launch no earlier than the end of the
     * kernel it queued behind (a queued launch's command may have arrived
     * while that kernel ran). */
    ps_t seen = SK_MAX(lp.launch_ps, SK_MAX(s->q.now, kr->pipelined ? s->stream_end_ps[kr->stream] : 0));
    ps_t wake = silicon_kernel_launch(s->si, seen);
    silicon_rearm(s);
    ps_t once = first_launch_ps(s, kr);   /* not inside SK_MAX: it marks the costs paid */
    kr->dispatch_ps = SK_MAX(lp.dispatch_ps + wake + once, seen);
    kr->started = 1;
    dispatch_kick(s, kr->dispatch_ps);
    return 0;
}

/* Read the next kernel of the trace into the live list (the trace's
 * current kernel gives up its CTA records first).  0, or <0. */
static int read_kernel(sim *s, sk_error *e)
{
    if (s->reading) {
        int r = take_ctas(s, s->reading, e);
        if (r < 0)
            return r;
        s->reading = NULL;
    }
    sim_kernel *kr = xcalloc(1, sizeof *kr);
    int r = trace_next_kernel(s->tr, &kr->k, e);
    if (r <= 0) {
        free(kr);
        if (r == 0)
            s->trace_eof = 1;
        return r;
    }
    kr->sim = s;
    kr->stream = kr->k.stream;
    kr->from_trace = 1;
    kr->ks.index = s->next_index++;
    kr->pipelined = kr->ks.index > 0 && kr->k.gap_ns == 0 && !kr->k.sync_host && s->c.launch_queue_gap_ns > 0;
    if (kr->pipelined) {
        /* its launch command follows the host's previous one */
        kr->ks.launch_ps = s->host_cmd_ps + (ps_t)s->c.launch_host_ns * PS_PER_NS;
        s->host_cmd_ps = kr->ks.launch_ps;
    }
    event_init(&kr->grid_ev, grid_release, "grid-barrier", 0);
    kr->sm_ctas = xcalloc((size_t)s->nsms, sizeof *kr->sm_ctas);
    kr->sm_since = xcalloc((size_t)s->nsms, sizeof *kr->sm_since);
    kr->sm_busy = xcalloc((size_t)s->nsms, sizeof *kr->sm_busy);
    kr->sm_idle = xcalloc((size_t)s->nsms, sizeof *kr->sm_idle);
    if (s->nlive == s->livecap) {
        s->livecap = s->livecap ? 2 * s->livecap : 8;
        s->live = xrealloc(s->live, (size_t)s->livecap * sizeof *s->live);
    }
    s->live[s->nlive++] = kr;
    s->reading = kr;
    return 0;
}

/* Start what may start, then read on while the host may: 0 or <0. */
static int host_step(sim *s, sk_error *e)
{
    for (;;) {
        int waiting = 0, r;
        for (int i = 0; i < s->nlive; i++) {
            sim_kernel *kr = s->live[i];
            if (kr->started)
                continue;
            if (can_start(s, i)) {
                if ((r = start_kernel(s, kr, e)) < 0)
                    return r;
            } else {
                waiting++;
            }
        }
        if (s->trace_eof || waiting >= SIM_MAX_WAITING)
            return 0;
        /* a launch that waits for the kernels before it holds the host */
        const sim_kernel *last = s->nlive ? s->live[s->nlive - 1] : NULL;
        if (last && !last->started && !last->pipelined)
            return 0;
        if ((r = read_kernel(s, e)) < 0)
            return r;
    }
}

/* Kernel kr has completed: its statistics, the silicon model's step. */
static int finish_kernel(sim *s, sim_kernel *kr, sk_error *e)
{
    int r;
    if (s->hier) {
        kr->ks.has_mem = 1;
        for (int i = 0; i < s->nsms; i++)
            mem_stats_add(&kr->ks.mem, mem_hier_stats(s->hier, i));
    }
    s->warp_instructions += kr->ks.warp_instructions;
    /* The kernel is complete when its last warp exited and the L2 took
     * its stores (sm.c: of an SM, every store up to the kernel's last
     * there, so a kernel sharing the SM can hold it back: docs/memory.md). */
    ps_t end = SK_MAX(kr->ks.last_end_ps, kr->store_drain_ps);
    kr->ks.done_ps = end + (ps_t)s->c.launch_end_ns * PS_PER_NS;
    kernel_figures(s, kr);
    /* The silicon model sees every kernel end, and epochs.csv gets at
     * least one row per kernel. */
    if ((r = silicon_step(s, kr->ks.last_end_ps)) < 0) {
        *e = s->err;
        return r;
    }
    silicon_kernel_end(s->si, silicon_time(s->si));     /* its end, or where the silicon already is */
    silicon_rearm(s);
    s->idle_ps = SK_MAX(s->idle_ps, kr->ks.done_ps);
    s->stream_end_ps[kr->stream] = end;
    s->stream_ran[kr->stream] = 1;
    s->kernels_done++;
    kr->completed = 1;
    if (s->reading == kr)
        s->reading = NULL;    /* every CTA came: nothing more of it to take */
    /* Kernels are reported in trace order (summary.json lists them so). */
    int n = 0;
    while (n < s->nlive && s->live[n]->completed) {
        sim_kernel *k = s->live[n];
        sim_bind(s, k);
        if ((s->sink_want & SINK_W_KERNEL_END) && sim_sink_kernel_end(s) < 0) {
            *e = s->err;
            return e->code;
        }
        evq_cancel(&s->q, &k->grid_ev);
        kernel_run_free(k);
        n++;
    }
    if (n > 0) {
        memmove(s->live, s->live + n, (size_t)(s->nlive - n) * sizeof *s->live);
        s->nlive -= n;
    }
    s->bound = NULL;
    s->have_kernel = 0;
    return 0;
}

/* The oldest started kernel still running (for messages). */
static const sim_kernel *oldest_running(const sim *s)
{
    for (int i = 0; i < s->nlive; i++)
        if (s->live[i]->started && !s->live[i]->completed)
            return s->live[i];
    return s->nlive ? s->live[0] : NULL;
}

/* Run events until some running kernel has completed, and finish those
 * that have. */
static int run_events(sim *s, sk_error *e)
{
    for (;;) {
        if (s->completions > 0) {
            for (int i = 0; i < s->nlive; i++) {
                sim_kernel *kr = s->live[i];
                if (kr->started && !kr->completed && kr->ctas_left == 0 && kr->ctas_running == 0) {
                    s->completions--;
                    return finish_kernel(s, kr, e);
                }
            }
        }
        event *ev = evq_pop(&s->q);
        if (!ev) {
            const sim_kernel *o = oldest_running(s);
            return sk_errorf(e, SK_ESIM,
                             "kernel %s: no pending event with %llu CTA(s) running and %llu waiting "
                             "(deadlock)", o ? o->k.name : "?", o ? (unsigned long long)o->ctas_running : 0ULL,
                             o ? (unsigned long long)o->ctas_left : 0ULL);
        }
        if (ev->t > s->limit_ps) {
            const sim_kernel *o = oldest_running(s);
            return sk_errorf(e, SK_ESIM, "kernel %s: simulated time passed sim.max_time_ns=%lld",
                             o ? o->k.name : "?", (long long)s->c.max_time_ns);
        }
        ev->fn(s, ev);
        if (s->stop) {
            if (s->err.code)
                *e = s->err;
            return e->code ? e->code : SK_ESIM;
        }
    }
}

int sim_run(sim *s, trace *tr, sk_error *e)
{
    s->tr = tr;
    s->trace_eof = 0;
    s->reading = NULL;
    s->next_index = 0;
    s->completions = 0;
    s->idle_ps = s->host_cmd_ps = s->end_ps;
    for (int i = 0; i < SIM_MAX_STREAMS; i++) {
        s->stream_end_ps[i] = s->end_ps;
        s->stream_ran[i] = 0;
    }
    for (;;) {
        int r = host_step(s, e);
        if (r < 0)
            return r;
        if (s->nlive == 0)
            break;
        if ((r = run_events(s, e)) < 0)
            return r;
    }
    s->end_ps = s->idle_ps;
    return 0;
}
