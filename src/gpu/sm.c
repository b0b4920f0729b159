/* sm.c -- the streaming multiprocessor model.
 *
 * What is modelled, per cycle of the SM's own clock:
 *  - warp slots; slot i is served by scheduler i mod N (sm.warp_schedulers);
 *  - each scheduler issues up to sm.issue_width instructions per cycle from
 *    the warp its policy picks (GTO, LRR, oldest-first: warp_<name>.c,
 *    behind warp_ops; the starvation guard in warpsched.c);
 *  - a warp may issue when (a) the compiler's stall count of its previous
 *    instruction has elapsed (Volta and later encode fixed-latency
 *    scheduling in each instruction's control word: the `stall` field of the
 *    trace), (b) the registers it reads and writes are ready on its
 *    scoreboard, and (c) a pipeline of the instruction's unit class is free
 *    (initiation interval units.<class>.ii_cycles);
 *  - a global store reads its source registers sm.store_read_cycles after
 *    it issues (its read barrier): an instruction of its warp that
 *    overwrites one of them waits until then (E22);
 *  - results become ready after units.<class>.lat_cycles, shared/constant
 *    loads after memory.smem_latency_cycles, global loads and stores go to
 *    the SM's first memory level (m->mem, mem.h; today every SM shares the
 *    one flat bandwidth server of src/mem/flat.c) and a load's registers
 *    are ready in the first cycle at or after the time it returns;
 *  - BAR.SYNC holds a warp until every live warp of its CTA arrived; the
 *    SM's one barrier unit takes arrivals one at a time
 *    (sm.barrier_arrive_cycles each, shared by all CTAs), and the warps go
 *    on sm.barrier_cycles after it took the last one (E10: a barrier of W
 *    warps costs 12 + 2 W cycles on the H200); EXIT retires a warp; the
 *    last EXIT of a CTA frees its resources and tells the dispatcher.
 * Not modelled (yet): register-bank conflicts and operand collectors,
 * instruction fetch and i-cache, divergence inside a warp (a trace gives one
 * instruction stream per warp), L1/L2 caches (levels behind mem.h, to come).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/sim.h"
#include "skewsim/memsys.h"
#include "warp_priv.h"

static void sm_fire(sim *s, event *ev);

/* sim.lookahead_cycles' value under memory.model = hierarchy when the
 * config leaves it at -1 (docs/performance.md: speed and accuracy cost). */
#ifndef SM_HIER_LOOKAHEAD_CYCLES
#define SM_HIER_LOOKAHEAD_CYCLES 16
#endif

static const char *const stall_names[] = {
#define SM_STALL_NAME_(id, name, help) [SM_STALL_##id] = #name,
    SM_STALL_MAP(SM_STALL_NAME_)
#undef SM_STALL_NAME_
};

const char *sm_stall_name(int reason)
{
    return reason >= 0 && reason < SM_NSTALLS ? stall_names[reason] : "?";
}

void sm_stall_cycles(const sm *m, uint64_t cycles, uint64_t *out)
{
    uint64_t total = cycles * (uint64_t)m->nsched, used = m->issue_slots;
    for (int k = 0; k < SM_NSTALLS; k++) {
        out[k] = m->stall[k];
        used += m->stall[k];
    }
    out[SM_STALL_NO_CTA] += total > used ? total - used : 0;
}

/* ---- clock domain ---------------------------------------------------- */

ps_t sm_cycle_time(const sm *m, uint64_t cycle)
{
    return m->base_ps + (ps_t)(((cycle - m->base_cycle) * (uint64_t)m->period_fs) / 1000);
}

uint64_t sm_cycle_at(const sm *m, ps_t t)
{
    if (t <= m->base_ps)
        return m->base_cycle;
    /* ceil(num / period) without a division (callers keep t within
     * span: stop_cycle's cycle_from guards the one that need not) */
    const uint64_t p = (uint64_t)m->period_fs, x = (uint64_t)(t - m->base_ps) * 1000 + p - 1;
    return m->base_cycle + sk_udiv(x, p, m->period_inv);
}

void sm_set_mhz(sm *m, int mhz, ps_t t)
{
    uint64_t c = sm_cycle_at(m, t);
    m->base_ps = sm_cycle_time(m, c);
    m->base_cycle = c;
    m->mhz = mhz;
    /* 1 MHz is a period of 1e9 fs; rounding to 1 fs keeps the error < 1 ppm. */
    m->period_fs = (int64_t)((1000000000LL + mhz / 2) / mhz);
    m->period_inv = UINT64_MAX / (uint64_t)m->period_fs;
    m->ahead_ps = (ps_t)(m->ahead_cycles * (uint64_t)m->period_fs / 1000);
}

static void unskip(sim *s, sm *m);

void sm_change_clock(sim *s, sm *m, int mhz, ps_t t)
{
    unskip(s, m);
    uint64_t c = SK_MAX(sm_cycle_at(m, t), m->min_cycle);
    sm_set_mhz(m, mhz, sm_cycle_time(m, c));
    m->min_mhz = SK_MIN(m->min_mhz, mhz);
    m->max_mhz = SK_MAX(m->max_mhz, mhz);
    if (event_queued(&m->ev)) {
        m->cycle = SK_MAX(m->cycle, c);
        evq_push(&s->q, &m->ev, SK_MAX(sm_cycle_time(m, m->cycle), s->q.now));
    }
}

/* ---- setup ----------------------------------------------------------- */

/* Warp slots on 64-byte boundaries, as `warp` asks (sm.h: a scheduler
 * scanning its warps reads one cache line per warp); sizeof(warp) is a
 * multiple of 64.  aligned_alloc fails only for want of memory: xcalloc
 * then reports it (it aborts in the one place that does). */
_Static_assert(offsetof(warp, pflag) < 64, "what the schedulers scan fits a warp's first cache line");
/* warp.pipe indexes unit_free: at most 64 pipelines a class (units.*.count's
 * bound, config.c) x FU_NCLASS classes x 32 schedulers */
_Static_assert(64 * FU_NCLASS * 32 <= UINT16_MAX + 1, "a unit_free index fits warp.pipe");

static warp *alloc_warps(size_t n)
{
    warp *w = aligned_alloc(_Alignof(warp), n * sizeof(warp));
    if (!w)
        return xcalloc(n, sizeof(warp));
    memset(w, 0, n * sizeof(warp));
    return w;
}

int sm_init(sm *m, sim *s, int id)
{
    const cfg *c = &s->c;
    memset(m, 0, sizeof *m);
    m->id = id;
    event_init(&m->ev, sm_fire, "sm-issue", (uint32_t)id);
    m->ev.ahead = 1;
    m->ahead_cycles = c->lookahead_cycles >= 0 ? (uint64_t)c->lookahead_cycles
                      : s->hier ? SM_HIER_LOOKAHEAD_CYCLES : 0;
    m->period_fs = 1;
    sm_set_mhz(m, c->sm_mhz, 0);
    m->min_mhz = m->max_mhz = c->sm_mhz;
    m->warps = alloc_warps((size_t)c->max_warps);
    m->ctas = xcalloc((size_t)c->max_ctas, sizeof *m->ctas);
    m->sched = xcalloc((size_t)c->warp_schedulers, sizeof *m->sched);
    m->nsched = c->warp_schedulers;
    m->wops = warp_lookup(c->warp_policy);
    m->active_warps = c->active_warps;
    m->mem = s->mem;
    int per_sched = (c->max_warps + c->warp_schedulers - 1) / c->warp_schedulers;
    for (int i = 0; i < c->warp_schedulers; i++) {
        m->sched[i].order = xcalloc((size_t)per_sched, sizeof *m->sched[i].order);
        m->sched[i].ew = xcalloc((size_t)per_sched, sizeof *m->sched[i].ew);
        m->sched[i].min_wake = UINT64_MAX;
        m->sched[i].why = -1;
        m->sched[i].lp_pos = -1;
        m->sched[i].os_q = -1;
        m->sched[i].last_slot = -1;
        if (m->wops->init)
            m->wops->init(&m->sched[i]);
    }
    m->unit_stride = 0;
    for (int k = 0; k < FU_NCLASS; k++) {
        m->unit_off[k] = m->unit_stride;
        m->unit_n[k] = c->units[k].count;
        m->unit_q[k] = c->units[k].queue;
        m->unit_stride += c->units[k].count;
    }
    m->unit_free = xcalloc((size_t)(m->unit_stride * c->warp_schedulers), sizeof *m->unit_free);
    m->unit_drain = xcalloc((size_t)(m->unit_stride * c->warp_schedulers), sizeof *m->unit_drain);
    m->unit_qmax = 0;
    for (int k = 0; k < FU_NCLASS; k++)
        m->unit_qmax = SK_MAX(m->unit_qmax, m->unit_q[k]);
    if (m->unit_qmax) {
        m->unit_ring = xcalloc((size_t)(m->unit_stride * c->warp_schedulers * m->unit_qmax), sizeof *m->unit_ring);
        m->unit_rpos = xcalloc((size_t)(m->unit_stride * c->warp_schedulers), sizeof *m->unit_rpos);
    }
    for (int w = 0; w < c->max_warps; w++)
        m->warps[w].sched = (uint8_t)(w % c->warp_schedulers);
    return 0;
}

void sm_free(sm *m)
{
    if (!m)
        return;
    for (int i = 0; m->sched && i < m->nsched; i++) {
        free(m->sched[i].order);
        free(m->sched[i].ew);
    }
    free(m->sched);
    free(m->warps);
    free(m->ctas);
    free(m->regpool);
    free(m->unit_free);
    free(m->unit_drain);
    free(m->unit_ring);
    free(m->unit_rpos);
    m->unit_ring = NULL;
    m->unit_rpos = NULL;
    m->warps = NULL;
    m->ctas = NULL;
    m->regpool = NULL;
    m->unit_free = NULL;
    m->unit_drain = NULL;
    m->sched = NULL;
}


/* ---- resources ------------------------------------------------------- */

static int round_up(int v, int unit)
{
    return unit > 1 ? (v + unit - 1) / unit * unit : v;
}

void sm_cta_need(const cfg *c, const kernel *k, cta_need *need)
{
    need->threads = (int)k->block_threads;
    need->warps = (int)((k->block_threads + 31) / 32);
    /* Registers are allocated per warp in units of sm.reg_alloc_unit. */
    need->regs = need->warps * round_up((int)k->regs_per_thread * 32, c->reg_alloc_unit);
    need->smem = round_up((int)k->smem_bytes, c->smem_alloc_unit_bytes) + c->smem_reserved_per_cta_bytes;
}

int sm_fits_empty(const cfg *c, const cta_need *n)
{
    return sm_ctas_per_sm(c, n) >= 1;
}

int sm_ctas_per_sm(const cfg *c, const cta_need *n)
{
    int k = c->max_ctas;
    k = SK_MIN(k, c->max_threads / SK_MAX(n->threads, 1));
    k = SK_MIN(k, c->max_warps / SK_MAX(n->warps, 1));
    k = SK_MIN(k, c->registers / SK_MAX(n->regs, 1));
    if (n->smem > 0)
        k = SK_MIN(k, c->smem_bytes / n->smem);
    return k;
}

int sm_fits(const sim *s, const sm *m, const cta_need *n)
{
    const cfg *c = &s->c;
    if (s->allowed && !s->allowed[m->id])
        return 0;                       /* outside the kernel's SM partition */
    return m->used_ctas < c->max_ctas && m->used_threads + n->threads <= c->max_threads &&
           m->used_warps + n->warps <= c->max_warps && m->used_regs + n->regs <= c->registers &&
           m->used_smem + n->smem <= c->smem_bytes;
}

/* ---- warp control flow ----------------------------------------------- */

/* Move pc forward over loop and ifwarp markers to the next instruction that
 * takes an issue slot.  Markers cost nothing: a real GPU pays for the loop's
 * branch, which the trace lists as an ordinary BRA instruction. */
static void settle(warp *w)
{
    for (;;) {
        const instr *in = &w->code[w->pc];
        switch (in->kind) {
        case IK_LOOP: {
            uint64_t n = in->arg;
            if (in->flags & IF_WORK_SCALED)
                n = (uint64_t)llround((double)in->arg * w->work);
            if (n == 0) {
                w->pc = in->jump;       /* just past the matching IK_ENDLOOP */
            } else {
                w->loop_n[w->sp] = n;
                w->loop_left[w->sp++] = n;
                w->pc++;
            }
            break;
        }
        case IK_ENDLOOP:
            if (--w->loop_left[w->sp - 1] > 0) {
                w->pc = in->arg + 1;
            } else {
                w->sp--;
                w->pc++;
            }
            break;
        case IK_IFWARP:
            w->pc = (w->widx == in->arg) ? w->pc + 1 : in->jump;
            break;
        case IK_ENDIF:
            w->pc++;
            break;
        default:
            return;
        }
    }
}

/* ---- issue ----------------------------------------------------------- */

/* The warp's next instruction (at w->pc, after settle) changed, or its
 * compiler stall or scoreboard did: recompute what sm_warp_ready() reads.
 * Only the warp itself writes its scoreboard (at issue), so between two
 * issues of a warp its registers' ready cycles are fixed and the register
 * part of its readiness is computed once here instead of on every check. */
static inline void warp_deps(const sm *m, warp *w)
{
    const instr *in = &w->code[w->pc];
    const uint64_t *r = w->reg;
    uint64_t t = w->ready;
    _Static_assert(PROG_MAX_SRC == 4 && PROG_MAX_DST == 2, "warp_deps reads up to 4 sources and 2 destinations");
    switch (in->nsrc) {         /* unrolled: the counts are 0..4 and 0..2 */
    case 4: t = SK_MAX(t, r[in->src[3]]); /* fall through */
    case 3: t = SK_MAX(t, r[in->src[2]]); /* fall through */
    case 2: t = SK_MAX(t, r[in->src[1]]); /* fall through */
    case 1: t = SK_MAX(t, r[in->src[0]]); /* fall through */
    default: break;
    }
    switch (in->ndst) {
    case 2: t = SK_MAX(t, r[in->dst[1]]); /* fall through */
    case 1: t = SK_MAX(t, r[in->dst[0]]); /* fall through */
    default: break;
    }
    /* A destination a global store has yet to read waits for the read
     * (sm.store_read_cycles).  No read barrier of the SM lasts past
     * st_read_until, so when t is already there none can raise it. */
    if (m->st_read_until > t && in->ndst) {
        const uint64_t *wr = sm_wreg(m, w);
        for (int i = 0; i < in->ndst; i++)
            t = SK_MAX(t, wr[in->dst[i]]);
    }
    w->dep = t;
    w->cls = in->cls;
}

/* Loop and ifwarp markers are the last kinds of enum instr_kind. */
_Static_assert(IK_ENDLOOP == IK_LOOP + 1 && IK_IFWARP == IK_LOOP + 2 && IK_ENDIF == IK_LOOP + 3,
               "instruction kinds from IK_LOOP on are markers");

/* Step past the instruction the warp just issued, to the next one that
 * takes an issue slot (most of the time the very next entry: settle() is
 * only needed at loop and ifwarp markers), and refresh what
 * sm_warp_ready() reads. */
static inline void advance(const sm *m, warp *w)
{
    w->pc++;
    if (w->code[w->pc].kind >= IK_LOOP)
        settle(w);
    warp_deps(m, w);
}

static void release_barrier(sim *s, sm *m, cta_slot *cs, uint64_t c)
{
    ps_t rel = sm_cycle_time(m, SK_MAX(c, cs->bar_done) + (uint64_t)s->c.barrier_cycles);
    if (s->sink_want & SINK_W_BAR_RELEASE) {
        sink_barrier b = {.kind = SINK_BAR_CTA, .sm = m->id, .slot = -1, .cta = cs->id,
                          .warps = (uint64_t)cs->at_barrier, .t = rel};
        sim_sink_bar_release(s, &b);
    }
    for (int i = 0; i < cs->nwarps; i++) {
        warp *x = &m->warps[cs->warp_slot[i]];
        if (x->state == W_BARRIER) {
            m->bar_wait_ps += rel - x->bar_ps;
            cs->kr->ks.barrier_wait_ps += rel - x->bar_ps;
            x->state = W_ACTIVE;
            x->ready = SK_MAX(x->ready, SK_MAX(c, cs->bar_done) + (uint64_t)s->c.barrier_cycles);
            x->wake = x->ready;
            x->dep = SK_MAX(x->dep, x->ready);
            m->sched[x->sched].ew[x->opos] = x->wake;
            m->sched[x->sched].min_wake = SK_MIN(m->sched[x->sched].min_wake, x->wake);
        }
    }
    cs->at_barrier = 0;
    cs->bar_done = 0;
    m->release_epoch++;
}

static void remove_from_sched(sm *m, warp_sched *ws, int slot)
{
    for (int i = 0; i < ws->n; i++) {
        if (ws->order[i] == slot) {
            memmove(&ws->order[i], &ws->order[i + 1], (size_t)(ws->n - i - 1) * sizeof ws->order[0]);
            memmove(&ws->ew[i], &ws->ew[i + 1], (size_t)(ws->n - i - 1) * sizeof ws->ew[0]);
            ws->n--;
            for (int j = i; j < ws->n; j++)
                m->warps[ws->order[j]].opos = (uint16_t)j;
            if (m->wops->removed)
                m->wops->removed(ws, i, slot);
            return;
        }
    }
}

/* Bytes a warp's access of `lanes` active lanes (1..32; an address
 * pattern's mask=, else 32) moves through the memory system. */
static uint64_t access_bytes(const instr *in, unsigned lanes)
{
    switch (in->pattern) {
    case MP_UNIFORM:
        return 32;
    case MP_RANDOM:
        return 32 * (uint64_t)lanes;
    case MP_STRIDED: {
        uint64_t span = (uint64_t)in->stride * (lanes - 1) + in->bytes;
        uint64_t sectors = (span + 31) / 32;
        return 32 * SK_MIN(sectors, lanes);
    }
    default:
        return (uint64_t)in->bytes * lanes;
    }
}

/* The lanes of warp w that hold a thread: all 32 but in the last warp of
 * a CTA whose size is not a multiple of 32 (a CTA of 48 threads has a
 * second warp of 16).  The hardware masks the others off, so they address
 * nothing. */
static inline uint32_t warp_thread_lanes(const sm *m, const warp *w)
{
    int rem = m->ctas[w->cta].threads - 32 * (int)w->widx;
    return rem >= 32 ? ~0u : rem > 0 ? (1u << rem) - 1 : 0;
}

/* A global load or store at cycle c through the SM's first memory level
 * (mem.h; src/mem): returns the time the level completes it.  An
 * instruction with an address pattern (trace key addr=, apat.c) hands the
 * level its 32 lane addresses; the flat level ignores them. */
static ps_t global_access(sim *s, sm *m, const warp *w, const instr *in, uint64_t c)
{
    uint64_t addr[32];
    /* the active lanes (mask=, and threads the CTA has): none, and the
     * instruction only issues */
    uint32_t lanes = (in->apat ? mem_apat_mask(&w->apats[in->apat - 1]) : ~0u) & warp_thread_lanes(m, w);
    if (!lanes)
        return sm_cycle_time(m, c);
    mem_req r = {
        .sm = m->id,
        .op = in->kind == IK_ST_GLOBAL ? MEM_STORE : MEM_LOAD,
        .flags = (in->flags & IF_BYPASS_L1) ? MEM_F_BYPASS_L1 : 0,
        .lane_bytes = (uint8_t)in->bytes,
        .mask = 0,
        .addr = NULL,
        .bytes = access_bytes(in, (unsigned)__builtin_popcount(lanes)),
        .t = sm_cycle_time(m, c),
        .warp = (uint16_t)(w - m->warps),
    };
    if (in->apat && s->hier) {
        uint64_t iter = w->sp ? w->loop_n[w->sp - 1] - w->loop_left[w->sp - 1] : 0;
        const mem_apat *ap = &w->apats[in->apat - 1];
        r.mask = lanes;
        /* a contiguous warp goes as its byte range unless a sink wants the
         * lanes (the level's sectors are the same either way) */
        if ((s->sink_want & SINK_W_MEM) ||
            !mem_apat_span(ap, m->ctas[w->cta].id, w->widx, iter, in->bytes, &r.span_first,
                           &r.span_end)) {
            mem_apat_lanes(ap, m->ctas[w->cta].id, w->widx, iter, in->bytes, addr);
            r.addr = addr;
        }
    }
    m->mem_bytes += r.bytes;
    ps_t done = mem_access(m->mem, &r);
    if (s->sink_want & SINK_W_MEM)
        sim_sink_mem(s, &r, done);
    return done;
}

/* The wavefronts of a shared-memory array access (IF_SMEM): rows of 32
 * banks x 4 B it takes, its bank conflicts included (memory.model =
 * hierarchy and an address pattern: mem_hier_smem); without addresses the
 * least its active lanes' bytes take (one for a broadcast, pattern=
 * uniform).  0 when no lane is active (the instruction only issues). */
static unsigned smem_wavefronts(sim *s, sm *m, const warp *w, const instr *in)
{
    uint32_t lanes = (in->apat ? mem_apat_mask(&w->apats[in->apat - 1]) : ~0u) & warp_thread_lanes(m, w);
    if (!lanes)
        return 0;
    /* every lane at one address (pattern=uniform): a broadcast, one row */
    if (!in->apat && in->pattern == MP_UNIFORM)
        lanes &= -lanes;
    if (!s->hier) {
        /* flat memory: no banks, no conflicts; the power model counts them */
        unsigned wf = mem_smem_rows(lanes, in->bytes);
        m->smem_wavefronts += wf;
        return wf;
    }
    uint64_t addr[32];
    const uint64_t *a = NULL;
    if (in->apat) {
        uint64_t iter = w->sp ? w->loop_n[w->sp - 1] - w->loop_left[w->sp - 1] : 0;
        mem_apat_lanes(&w->apats[in->apat - 1], m->ctas[w->cta].id, w->widx, iter, in->bytes, addr);
        a = addr;
    }
    return (unsigned)mem_hier_smem(s->hier, m->id, a, lanes, in->bytes);
}

/* The pipeline `pipe` takes `in`, issued at cycle c, where its class has
 * a queue (units.<class>.queue) or it is a shared-memory array access
 * (IF_SMEM): sets unit_free and unit_drain, and returns c0, the cycle the
 * pipeline takes it (its latency counts from there), with *arr the cycle
 * the array starts it and *wf its wavefronts (c0 and 1 for any other).
 *
 * With a queue in front of the class's pipelines (units.<class>.queue =
 * Q), that is once those queued before it have started, and the scheduler
 * may issue the next one to the pipeline while fewer than Q wait (counted
 * in instructions: unit_ring keeps the last Q starts).  Without,
 * the pipeline is free now (sm_warp_ready) and stays busy for in->busy
 * cycles.  Global loads and stores do not queue (c0 = c): the SM's L1
 * serves requests in the order they come, which a request dated ahead by a
 * queue would break; one takes the pipeline now and what waits in the
 * queue starts in->busy later.
 *
 * A shared-memory array access leaves its pipeline for the SM's one
 * array, which takes a wavefront each smem_wavefront_cycles in the order
 * the pipelines hand them over (E30 board n: LDS.32 from four
 * sub-partitions reach one a cycle together, LDS.128 and 2-way conflicts
 * one wavefront a cycle even from one): a bank conflict takes the array's
 * time, not only the access's.  The pipeline holds it until the array
 * starts it, so a busy array backs up the sub-partitions' pipes and queues.
 * Booked at hand-over in issue order: one queued behind its pipe books
 * ahead of a later issue's that reaches the array sooner (approximate). */
static uint64_t ldst_take(sim *s, sm *m, const warp *w, const instr *in, int pipe, uint64_t c, uint64_t *arr,
                          unsigned *wf)
{
    const int global = in->kind == IK_LD_GLOBAL || in->kind == IK_ST_GLOBAL;
    uint64_t c0 = m->unit_q[in->cls] && !global ? SK_MAX(c, m->unit_drain[pipe]) : c;
    *arr = c0;
    if (in->flags & IF_SMEM) {
        *wf = smem_wavefronts(s, m, w, in);
        if (*wf && s->c.smem_wavefront_cycles) {
            *arr = SK_MAX(c0, m->smem_free);
            m->smem_free = *arr + (uint64_t)*wf * (uint64_t)s->c.smem_wavefront_cycles;
        }
    }
    if (m->unit_q[in->cls]) {
        const int qn = m->unit_q[in->cls];
        if (global) {
            /* it takes the pipeline now; the queue's next start moves */
            uint64_t q = (uint64_t)qn * in->busy, next = c + in->busy;
            m->unit_drain[pipe] = SK_MAX(c, m->unit_drain[pipe]) + in->busy;
            m->unit_free[pipe] = m->unit_drain[pipe] > next + q ? m->unit_drain[pipe] - q : next;
        } else {
            /* the queue holds qn instructions: the next may issue once the
             * qn-th most recent (this one counting) has started, whatever
             * each holds the pipeline or waits for the array */
            m->unit_drain[pipe] = SK_MAX(c0 + in->busy, *arr);
            uint64_t *ring = m->unit_ring + (size_t)pipe * (size_t)m->unit_qmax;
            uint8_t *pos = &m->unit_rpos[pipe];
            ring[*pos] = c0;
            *pos = (uint8_t)((*pos + 1) % qn);
            m->unit_free[pipe] = SK_MAX(c + 1, ring[*pos]);
        }
    } else
        m->unit_free[pipe] = SK_MAX(c + in->busy, *arr);
    return c0;
}

/* The last warp of a CTA exited in cycle c: free what it held and report. */
static void retire(sim *s, sm *m, cta_slot *cs, uint64_t c)
{
    ps_t t = sm_cycle_time(m, c + 1);
    for (int i = 0; i < cs->nwarps; i++)
        m->warps[cs->warp_slot[i]].state = W_FREE;
    m->used_threads -= cs->threads;
    m->used_warps -= cs->nwarps;
    m->used_regs -= cs->regs;
    m->used_smem -= cs->smem;
    if (--m->used_ctas == 0) {
        m->resident_ps += t - m->resident_since;
        m->idle_ps = t;
    }
    sim_cta_finished(s, m, cs, t);
    cs->used = 0;
}

/* Warp 0 of a CTA issues `in` at cycle c: note the CTA's start and end as
 * the kernel's own timers would read them (IF_TIMER_*, IF_CLOCK_*, see
 * program.h), falling back to the first instruction and to completion. */
static void record_marks(sim *s, sm *m, cta_slot *cs, const instr *in, uint64_t c)
{
    const unsigned marks = cs->kr->marks;   /* the CTA's kernel's */
    (void)s;
    unsigned f = in->flags, want_t = marks & IF_TIMER_START, want_c = marks & (IF_CLOCK_START | IF_TIMER_START);
    int first = !cs->started && !cs->clocked;
    if (!cs->started && (want_t ? (f & IF_TIMER_START) != 0 : first)) {
        cs->started = 1;
        cs->start_ps = sm_cycle_time(m, c);
        if (cs->start_ps < cs->kr->ks.first_start_ps)
            cs->kr->ks.first_start_ps = cs->start_ps;
    }
    unsigned cmark = (marks & IF_CLOCK_START) ? IF_CLOCK_START : IF_TIMER_START;
    if (!cs->clocked && (want_c ? (f & cmark) != 0 : first)) {
        cs->clocked = 1;
        cs->start_cycle = c;
    }
    if (f & IF_TIMER_END) {
        cs->ended = 1;
        cs->end_ps = sm_cycle_time(m, c);
    }
    unsigned emark = (marks & IF_CLOCK_END) ? IF_CLOCK_END : IF_TIMER_END;
    if (f & emark) {
        cs->clock_ended = 1;
        cs->end_cycle = c;
    }
}

/* The issue sink's record, out of line: without a sink the issue path
 * only tests the bit. */
__attribute__((noinline, cold)) static void issue_sink(sim *s, const sm *m, const warp *w, int slot,
                                                       const cta_slot *cs, const instr *in, uint64_t c)
{
    sink_issue si = {.sm = m->id, .sched = w->sched, .slot = slot, .widx = w->widx, .cta = cs->id,
                     .cycle = c, .pc = w->pc, .in = in};
    sim_sink_issue(s, &si);       /* a failure sets s->stop: the SM stops after this cycle */
}

/* Issue the instruction at w->pc at cycle c.  Returns 1 when the CTA
 * finished (the caller must stop its run-ahead so the dispatcher sees it). */
static int issue(sim *s, sm *m, int slot, uint64_t c)
{
    const cfg *cf = &s->c;
    warp *w = &m->warps[slot];
    const instr *in = &w->code[w->pc];
    cta_slot *cs = &m->ctas[w->cta];
    int pipe = 0;

    if (w->widx == 0)
        record_marks(s, m, cs, in, c);
    if (s->sink_want & SINK_W_ISSUE)
        issue_sink(s, m, w, slot, cs, in, c);
    /* the pipeline the pick found free for it this cycle (sm_warp_ready) */
    pipe = w->pipe;
    /* c0: the cycle its pipeline takes it (a queue, ldst_take), arr the
     * cycle the shared-memory array does, wf its wavefronts there; with
     * neither the pipeline takes it now and stays busy in->busy cycles */
    uint64_t c0 = c, arr = c;
    unsigned wf = 1;
    if (m->unit_q[in->cls] | (in->flags & IF_SMEM))
        c0 = ldst_take(s, m, w, in, pipe, c, &arr, &wf);
    else
        m->unit_free[pipe] = c + in->busy;
    cs->issued++;
    m->op_issued[in->row]++;                    /* power: its energy row */
    m->op_operands[in->row] += in->nops;
    if (in->cls == FU_TENSOR) {
        m->tensor_cycles += in->busy;
        m->tensor_dt_cycles[in->dtype] += in->busy;
    }
    warp_sched *ws = &m->sched[w->sched];
    ws->issued++;
    ws->last_slot = slot;
    /* its reads conflicted in the banks: the port is free bank cycles
     * later than next cycle (quiet_until was at most c, as it issued) */
    if (in->bank)
        ws->port_free = ws->quiet_until = c + 1 + in->bank;
    w->ready = c + in->gap;                     /* its stall, 0 counting as 1 */
    w->wake = w->ready;
    w->last_issue = c;

    uint64_t done = c0 + in->lat;
    switch (in->kind) {
    case IK_LD_SHARED:
        /* its last wavefront read, then the latency (LDC, ULDC: the
         * latency from its pipeline) */
        done = arr + (wf > 1 ? (uint64_t)(wf - 1) * (uint64_t)SK_MAX(cf->smem_wavefront_cycles, 1) : 0);
        /* one warp's loads return in its order, a wavefront each
         * smem_warp_wf_cycles at most (E30 board n: one warp's
         * LDS.128 go one in ~11 cycles, latency included, where the
         * array's rate alone would give one in 4; two warps of one
         * sub-partition go as fast each), others' passing meanwhile */
        if (cf->smem_warp_wf_cycles && wf) {
            const uint64_t W = (uint64_t)cf->smem_warp_wf_cycles;
            done = SK_MAX(done, SK_MAX(arr, w->smem_next) + (uint64_t)(wf - 1) * W);
            w->smem_next = done + W;
        }
        done += (uint64_t)cf->smem_latency_cycles;
        break;
    case IK_LD_GLOBAL:
        done = sm_cycle_at(m, global_access(s, m, w, in, c));
        w->ldg_done = SK_MAX(w->ldg_done, done);
        break;
    case IK_ST_GLOBAL: {
        /* its read barrier: it reads its registers store_read_cycles from
         * now, and until then none of them may be overwritten (warp_deps) */
        if (cf->store_read_cycles) {
            uint64_t until = c + (uint64_t)cf->store_read_cycles;
            uint64_t *wr = w->reg + m->wreg_off;
            for (int i = 0; i < in->nsrc; i++)
                wr[in->src[i]] = SK_MAX(wr[in->src[i]], until);
            m->st_read_until = SK_MAX(m->st_read_until, until);
        }
        /* under the hierarchy the L1 answers when it took the store in (a
         * request entry was free, l1.c): the pipeline waits until then */
        ps_t in_l1 = global_access(s, m, w, in, c);
        if (s->hier) {
            uint64_t u = sm_cycle_at(m, in_l1);
            if (u > m->unit_free[pipe])
                m->unit_free[pipe] = u;
            /* nothing queued behind it starts before then either */
            if (m->unit_q[in->cls] && u > m->unit_drain[pipe])
                m->unit_drain[pipe] = u;
            /* the kernel completes once the L2 took this store (and any
             * earlier one of the SM: another kernel's on a shared SM) */
            ps_t d = mem_hier_store_drain(s->hier, m->id);
            if (d > cs->kr->store_drain_ps)
                cs->kr->store_drain_ps = d;
        }
        break;
    }
    case IK_BAR:
        advance(m, w);
        w->state = W_BARRIER;
        w->bar_ps = sm_cycle_time(m, c);
        /* the barrier unit takes arrivals one at a time (E10: 2 cycles a warp) */
        m->bar_free = SK_MAX(c, m->bar_free) + (uint64_t)cf->barrier_arrive_cycles;
        cs->bar_done = SK_MAX(cs->bar_done, m->bar_free);
        if (s->sink_want & SINK_W_BAR_ARRIVE) {
            sink_barrier b = {.kind = SINK_BAR_CTA, .sm = m->id, .slot = slot, .cta = cs->id, .warps = 1,
                              .t = sm_cycle_time(m, c)};
            sim_sink_bar_arrive(s, &b);
        }
        if (++cs->at_barrier >= cs->nwarps - cs->exited)
            release_barrier(s, m, cs, c);
        return 0;
    case IK_GRIDBAR:
        advance(m, w);
        w->state = W_GRIDBAR;
        w->bar_ps = sm_cycle_time(m, c);
        if (s->sink_want & SINK_W_BAR_ARRIVE) {
            sink_barrier b = {.kind = SINK_BAR_GRID, .sm = m->id, .slot = slot, .cta = cs->id, .warps = 1,
                              .t = sm_cycle_time(m, c)};
            sim_sink_bar_arrive(s, &b);
        }
        sim_grid_arrive(s, cs->kr, sm_cycle_time(m, c));
        return 0;
    case IK_EXIT:
        w->state = W_DONE;
        m->live_warps--;
        sim_warp_exited(s, cs->kr, sm_cycle_time(m, c));
        remove_from_sched(m, ws, slot);
        cs->exited++;
        if (cs->exited == cs->nwarps) {
            retire(s, m, cs, c);
            return 1;
        }
        /* Exited warps no longer hold a barrier back. */
        if (cs->at_barrier > 0 && cs->at_barrier >= cs->nwarps - cs->exited)
            release_barrier(s, m, cs, c);
        return 0;
    default:
        break;
    }
    for (int i = 0; i < in->ndst; i++)
        w->reg[in->dst[i]] = done;
    advance(m, w);
    return 0;
}

/* Something arrives at SM m from outside (a CTA, a grid release, a clock
 * change).  If the SM skipped the cycles after its last issue, and
 * processing the first of them (skip_c1) would have come after this
 * arrival (earlier in time, or at the same time and queued before), the
 * stall reasons charged for them did not see it: take the charges back
 * and process skip_c1 after all, as if it had not been skipped. */
static void skip_done(sim *s, sm *m)
{
    /* a stall sink gets the one record per scheduler that processing
     * skip_c1 would have sent */
    if (s->sink_want & SINK_W_STALL)
        for (int sc = 0; sc < m->nsched; sc++)
            if (m->skip_why[sc] >= 0) {
                sink_stall st = {.sm = m->id, .sched = sc, .cycle = m->skip_c1, .ready_cycle = m->skip_ready[sc]};
                sim_sink_stall(s, &st);
            }
    m->skip_n = 0;
}

static void unskip(sim *s, sm *m)
{
    if (m->skip_n == 0)
        return;
    uint64_t n = m->skip_n;
    ps_t t1 = sm_cycle_time(m, m->skip_c1);
    if (!event_queued(&m->ev) || s->q.now > t1 || (s->q.now == t1 && s->q.now_seq > m->skip_seq)) {
        skip_done(s, m);
        return;
    }
    m->skip_n = 0;
    for (int sc = 0; sc < m->nsched; sc++) {
        int why = m->skip_why[sc];
        if (why < 0)
            continue;
        m->stall[why] -= n;
    }
    m->cycle = m->skip_c1;
    evq_push(&s->q, &m->ev, t1);
}

/* Make sure the SM processes cycle c (or its first unprocessed cycle, if
 * later): wake it if it sleeps, or bring its event forward if it sleeps
 * past c.  New warps and released barriers call this. */
static void wake_by(sim *s, sm *m, uint64_t c)
{
    ps_t when = SK_MAX(sm_cycle_time(m, SK_MAX(c, m->min_cycle)), s->q.now);
    if (!event_queued(&m->ev) || m->ev.t > when) {
        m->cycle = sm_cycle_at(m, when);
        evq_push(&s->q, &m->ev, when);
    }
}

/* ---- CTA arrival and departure -------------------------------------- */

void sm_launch_cta(sim *s, sm *m, sim_kernel *kr, const cta_desc *d, ps_t t)
{
    const cfg *c = &s->c;
    const cta_need *need = &kr->need;
    unskip(s, m);
    int ci = 0;
    while (m->ctas[ci].used)
        ci++;
    cta_slot *cs = &m->ctas[ci];
    memset(cs, 0, sizeof *cs);
    cs->used = 1;
    cs->kr = kr;
    cs->id = d->id;
    cs->nwarps = need->warps;
    cs->threads = need->threads;
    cs->regs = need->regs;
    cs->smem = need->smem;
    cs->arrive_ps = t;
    if (m->used_ctas == 0)
        m->resident_since = t;
    m->used_ctas++;
    cs->co_resident = m->used_ctas;
    m->used_threads += need->threads;
    m->used_warps += need->warps;
    m->used_regs += need->regs;
    m->used_smem += need->smem;
    m->ctas_run++;
    m->release_epoch++;
    kr->live_warps += (uint64_t)need->warps;

    /* The scoreboard pool is sized for the largest program of the kernels
     * it has run; it grows while CTAs of another kernel may be resident, so
     * their warps' scoreboards move with it. */
    if (m->regs_per_warp < kr->max_regs || !m->regpool) {
        uint32_t old = m->regs_per_warp, nr = SK_MAX(kr->max_regs, 1u);
        /* the read barriers' half, only with sm.store_read_cycles */
        uint64_t off = (uint64_t)c->max_warps * nr;
        int halves = c->store_read_cycles ? 2 : 1;
        uint64_t *rp = xcalloc((size_t)halves * (size_t)off, sizeof *rp);
        for (int i = 0; m->regpool && i < c->max_warps; i++) {
            warp *w = &m->warps[i];
            if (w->state == W_FREE || w->state == W_DONE)
                continue;
            memcpy(&rp[(size_t)i * nr], w->reg, old * sizeof *rp);
            if (halves == 2)
                memcpy(&rp[off + (size_t)i * nr], sm_wreg(m, w), old * sizeof *rp);
            w->reg = &rp[(size_t)i * nr];
        }
        m->regs_per_warp = nr;
        m->wreg_off = off;
        free(m->regpool);
        m->regpool = rp;
    }

    uint64_t first = sm_cycle_at(m, t) + (uint64_t)c->cta_launch_cycles;
    const program *p = &kr->k.progs[d->prog];
    int slot = 0;
    for (int i = 0; i < need->warps; i++) {
        while (m->warps[slot].state != W_FREE)
            slot++;
        warp *w = &m->warps[slot];
        uint8_t sched = w->sched;
        memset(w, 0, sizeof *w);
        w->sched = sched;
        w->state = W_ACTIVE;
        w->code = p->code;
        w->apats = p->apats;
        w->reg = &m->regpool[(size_t)slot * m->regs_per_warp];
        memset(w->reg, 0, m->regs_per_warp * sizeof *w->reg);
        if (c->store_read_cycles)
            memset(w->reg + m->wreg_off, 0, m->regs_per_warp * sizeof *w->reg);
        w->cta = (uint16_t)ci;
        w->widx = (uint8_t)i;
        w->work = d->work;
        w->age = s->next_age++;
        w->ready = first;
        w->wake = first;
        w->last_issue = first;
        settle(w);
        warp_deps(m, w);
        cs->warp_slot[i] = (uint16_t)slot;
        warp_sched *ws = &m->sched[sched];
        w->opos = (uint16_t)ws->n;
        ws->ew[ws->n] = w->wake;
        ws->order[ws->n++] = (uint16_t)slot;   /* youngest last */
        ws->min_wake = SK_MIN(ws->min_wake, w->wake);
        m->live_warps++;
        slot++;
    }

    wake_by(s, m, first);
}


void sm_release_grid(sim *s, sm *m, sim_kernel *kr, ps_t t)
{
    unskip(s, m);
    uint64_t c = SK_MAX(sm_cycle_at(m, t), m->min_cycle);
    /* An SM whose every warp waited at the grid barrier slept: its
     * schedulers' cycles since then were barrier stalls. */
    if (!event_queued(&m->ev) && m->live_warps > 0)
        for (int sc = 0; sc < m->nsched; sc++)
            if (m->sched[sc].n > 0)
                m->stall[SM_STALL_BARRIER] += c - m->min_cycle;
    int any = 0;
    m->release_epoch++;
    for (int i = 0; i < s->c.max_warps; i++) {
        warp *w = &m->warps[i];
        if (w->state == W_GRIDBAR && m->ctas[w->cta].kr == kr) {
            m->bar_wait_ps += t - w->bar_ps;
            kr->ks.barrier_wait_ps += t - w->bar_ps;
            w->state = W_ACTIVE;
            w->ready = SK_MAX(w->ready, c);
            w->wake = w->ready;
            w->dep = SK_MAX(w->dep, w->ready);
            m->sched[w->sched].ew[w->opos] = w->wake;
            m->sched[w->sched].min_wake = SK_MIN(m->sched[w->sched].min_wake, w->wake);
            any = 1;
        }
    }
    if (any)
        wake_by(s, m, c);
}

/* ---- stall reasons -------------------------------------------------- */

/* Why scheduler ws issued nothing at cycle c: what holds back the ACTIVE
 * warp that could issue soonest (its compiler stall, a register, or a busy
 * pipeline; a register counts as memory when a global load of that warp is
 * still outstanding at the cycle it waits for), or a barrier when no warp is
 * ACTIVE.  Called only for a scheduler with warps that issued nothing, once
 * per processed cycle: the SM jumps over the cycles between, and the reason
 * found here is charged for all of them. */
__attribute__((noinline)) static int stall_scan(const sm *m, warp_sched *ws);

/* Why warp w, whose next issue waits until max(dep, u) with u the
 * earliest free pipeline of its class, holds its scheduler back. */
static inline int warp_why(const warp *w, uint64_t u)
{
    if (u > w->dep)
        return SM_STALL_UNIT;
    if (w->dep <= w->ready)
        return SM_STALL_COMPILER;
    if (w->ldg_done >= w->dep)
        return SM_STALL_MEMORY;
    return SM_STALL_SCOREBOARD;
}

/* Keep why as the scheduler's stall reason for what it now holds (min_wake,
 * issue count, release epoch): stall_reason reuses it until one moves. */
static inline int remember_why(const sm *m, warp_sched *ws, int why)
{
    ws->why_wake = ws->min_wake;
    ws->why_issued = ws->issued;
    ws->why_epoch = m->release_epoch;
    ws->why = why;
    return why;
}

static inline int stall_reason(const sm *m, warp_sched *ws)
{
    if (m->per_cycle)           /* debug: the reference, a full scan every time */
        return stall_scan(m, ws);
    /* Nothing issued and no warp came or went (either would move min_wake
     * or issued) since the last look: the same warp holds it back. */
    if (ws->why_wake == ws->min_wake && ws->why_issued == ws->issued && ws->why_epoch == m->release_epoch &&
        ws->why >= 0)
        return ws->why;
    /* The scan's answer without the scan: right after a failed pick's scan
     * (warp_priv.h) nothing has moved, and lp_pos is the first position
     * whose entry is the least, min_wake.  Every ACTIVE warp's entry is at
     * most its wake, and its wake at most max(dep, u), so every warp before
     * lp_pos has max(dep, u) > min_wake; if the warp at lp_pos is ACTIVE
     * and its own max(dep, u) is min_wake, it is the first warp with the
     * least one: the warp stall_scan would find. */
    if (ws->lp_pos >= 0 && ws->lp_pos < ws->n && ws->lp_wake == ws->min_wake && ws->lp_issued == ws->issued &&
        ws->lp_epoch == m->release_epoch) {
        const warp *w = &m->warps[ws->order[ws->lp_pos]];
        if (w->state == W_ACTIVE) {
            int pipe;
            uint64_t u = sm_unit_earliest(m, w->sched, w->cls, &pipe);
            if (SK_MAX(w->dep, u) == ws->min_wake) {
                return remember_why(m, ws, warp_why(w, u));
            }
        }
    }
    return stall_scan(m, ws);
}

/* stall_reason()'s scan, out of line: it runs once per change of the
 * scheduler's warps, its cached answer every other time. */
static int stall_scan(const sm *m, warp_sched *ws)
{
    uint64_t best = UINT64_MAX;
    int why = SM_STALL_BARRIER;
    /* every warp here is on this scheduler: each class's earliest free
     * pipeline is looked up once, not once per warp */
    uint64_t ue[FU_NCLASS];
    unsigned have = 0;
    _Static_assert(FU_NCLASS <= 32, "unit classes fit a bit mask");
    for (int i = 0; i < ws->n; i++) {
        const warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE)
            continue;
        if (!(have >> w->cls & 1)) {
            int pipe;
            ue[w->cls] = sm_unit_earliest(m, w->sched, w->cls, &pipe);
            have |= 1u << w->cls;
        }
        uint64_t u = ue[w->cls];
        uint64_t t = SK_MAX(w->dep, u);
        if (t >= best)
            continue;
        best = t;
        why = warp_why(w, u);
    }
    return remember_why(m, ws, why);
}

/* ---- the SM's event -------------------------------------------------- */

/* The first cycle from x on at which a warp of scheduler ws could issue
 * (x itself as soon as one can), read without issuing: the scan of a pick
 * at x (warp_oldest_ready, warp_priv.h), which, finding no warp, leaves
 * ws->min_wake the exact least wake.
 * Called after a cycle x - 1 in which the SM issued: until its next
 * processed cycle nothing on the SM changes dep, ready, cls or unit_free
 * (only its own issues do), so a bound taken now holds then.  An ew entry
 * after x - 1 is exact (sm.h), so an entry after x is passed over unread. */
__attribute__((noinline)) static uint64_t sched_scan_next(sm *m, warp_sched *ws, uint64_t x)
{
    return warp_oldest_ready(m, ws, x) >= 0 ? x : ws->min_wake;
}

static inline uint64_t sched_next(sm *m, warp_sched *ws, uint64_t x)
{
    /* Any ready warp answers x.  The one that issued last (a greedy policy's
     * next pick, in a burst) is asked first: checking it leaves no state the
     * scan would not (its own wake raised when it cannot issue; its ew entry,
     * at or before the cycle it issued in, stays a lower bound).  Inline, and
     * the scan out of line: in a burst most answers are this warp's. */
    if (ws->last_slot >= 0) {
        warp *w = &m->warps[ws->last_slot];
        if (w->state == W_ACTIVE && sm_warp_ready(m, w, x))
            return x;
    }
    return sched_scan_next(m, ws, x);
}

/* Whether a warp of scheduler ws could issue at cycle c, read without
 * writing anything (no wake raised, no cache moved: a held port's cycle
 * must leave the schedule as it was). */
static int sched_any_ready(const sm *m, const warp_sched *ws, uint64_t c)
{
    for (int i = 0; i < ws->n; i++) {
        const warp *w = &m->warps[ws->order[i]];
        if (w->state != W_ACTIVE || w->wake > c)
            continue;
        int pipe;
        uint64_t u = sm_unit_earliest(m, w->sched, w->cls, &pipe);
        if (SK_MAX(w->dep, u) <= c)
            return 1;
    }
    return 0;
}

/* After cycle c issued something: a lower bound of the next cycle at which
 * any scheduler of m could issue (c + 1 when one can, UINT64_MAX when no
 * warp is ACTIVE).  A scheduler whose min_wake lies after c + 1 cannot
 * issue before it; any other is scanned.  The starvation guard only picks
 * warps that are ready, so it cannot issue earlier than this either. */
static uint64_t next_issue(sm *m, uint64_t c)
{
    uint64_t next = UINT64_MAX;
    for (int sc = 0; sc < m->nsched; sc++) {
        warp_sched *ws = &m->sched[sc];
        if (ws->n == 0)
            continue;
        if (ws->port_free > c + 1)      /* its port held: c + 1 is charged to it */
            return c + 1;
        uint64_t t = ws->min_wake > c + 1 ? ws->min_wake : sched_next(m, ws, c + 1);
        if (t <= c + 1)
            return c + 1;
        next = SK_MIN(next, t);
    }
    return next;
}

/* Charge n scheduler-cycles to stall reason why (the hierarchy reads its
 * memory.stall_cycles from stall[SM_STALL_MEMORY]: mem_hier_bind_stall). */
static inline void charge(sm *m, int why, uint64_t n)
{
    m->stall[why] += n;
}

/* The first cycle of m starting at or after t, or UINT64_MAX when t lies
 * so far ahead (sim.max_time_ns reaches 2^63 ps) that sm_cycle_at's
 * femtoseconds would overflow: no cycle the SM can count starts there. */
static uint64_t cycle_from(const sm *m, ps_t t)
{
    if (t > m->base_ps && (uint64_t)(t - m->base_ps) > (UINT64_MAX - (uint64_t)m->period_fs) / 1000)
        return UINT64_MAX;
    return sm_cycle_at(m, t);
}

/* The first cycle of m it must not process in its run-ahead: the one
 * starting past sim.max_time_ns, or at or after the next queued event when
 * that is a fence or lies lookahead_cycles (ahead_ps) behind it, or at or
 * after a fence sooner than that (evq_fence_time).  Cycle times only grow
 * with the cycle, so comparing cycles with it is comparing their times
 * with those events', and it holds while the queue and the SM's clock do
 * (a clock change moves the SM's event: the queue changes too). */
static uint64_t stop_cycle(const sim *s, const sm *m)
{
    uint64_t stop = s->limit_ps == PS_MAX ? UINT64_MAX : cycle_from(m, s->limit_ps + 1);
    ps_t peek = evq_peek_time(&s->q);
    if (peek != PS_MAX) {
        ps_t t = SK_MIN(peek + m->ahead_ps, SK_MAX(peek, evq_fence_time(&s->q)));
        stop = SK_MIN(stop, cycle_from(m, t));
    }
    return stop;
}

/* Issue for cycle m->cycle, then keep going cycle by cycle, jumping over
 * cycles in which no warp can issue, for as long as the next cycle starts
 * before anything else on the chip is due.  A finished CTA ends the run-ahead
 * at once, so the dispatcher acts on it in time order. */
static void sm_fire(sim *s, event *ev)
{
    sm *m = &s->sms[ev->tag];
    const int nsched = s->c.warp_schedulers, width = s->c.issue_width;
    const unsigned want_stall = s->sink_want & SINK_W_STALL;
    const uint64_t starve_lim = (uint64_t)s->c.starvation_cycles;
    uint64_t c = m->cycle;
    uint64_t qver = s->q.version, c_stop = stop_cycle(s, m);
    for (;;) {
        int finished = 0, issued = 0, idle = 0;
        if (m->skip_n) {                /* the skip held: it is done (a stall sink hears of it) */
            if (want_stall)
                skip_done(s, m);
            else
                m->skip_n = 0;
        }
        m->processed++;
        for (int sc = 0; sc < nsched; sc++) {
            warp_sched *ws = &m->sched[sc];
            /* Quiet: it was idle at an earlier processed cycle, no warp of it
             * can issue or be starved before quiet_until, and nothing has come
             * or gone since (the release epoch; it issued nothing, being
             * quiet): the pick would find nothing and stall_reason would
             * return the same reason, so it is charged without asking.  (A
             * quiet scheduler issued nothing since, so its port is free.) */
            if (c < ws->quiet_until) {
                /* Its last issue's register reads still hold its issue
                 * port (bank conflicts, sm.register_banks): nothing issues.
                 * quiet_until is at least port_free, so that a scheduler
                 * neither quiet nor held costs one comparison. */
                if (c < ws->port_free) {
                    idle++;
                    if (want_stall) {
                        sink_stall st = {.sm = m->id, .sched = sc, .cycle = c, .ready_cycle = ws->port_free};
                        sim_sink_stall(s, &st);
                    }
                    /* the hold costs the cycle only where a warp could
                     * have issued in it; else the warps' own reason */
                    charge(m, sched_any_ready(m, ws, c) ? SM_STALL_BANK : stall_reason(m, ws), 1);
                    continue;
                }
                if (ws->quiet_epoch == m->release_epoch) {
                    idle++;
                    charge(m, ws->why, 1);
                    continue;
                }
            }
            /* a second issue (sm.issue_width) only where the first took
             * its port for the one cycle */
            for (int k = 0; k < width && ws->n > 0 && (k == 0 || ws->port_free <= c + 1); k++) {
                int slot = warpsched_pick(m, ws, c, starve_lim);
                if (slot < 0) {
                    if (k == 0) {
                        idle++;
                        if (want_stall) {
                            sink_stall st = {.sm = m->id, .sched = sc, .cycle = c, .ready_cycle = ws->min_wake};
                            sim_sink_stall(s, &st);
                        }
                        int why = stall_reason(m, ws);
                        charge(m, why, 1);
                        /* quiet until its least wake or the guard's next look
                         * (not under a stall sink, which wants each cycle's
                         * record, nor in the per-cycle reference) */
                        if (!want_stall && !m->per_cycle) {
                            ws->quiet_until = starve_lim ? SK_MIN(ws->min_wake, ws->starve_at) : ws->min_wake;
                            ws->quiet_epoch = m->release_epoch;
                        }
                    }
                    break;
                }
                if (k == 0)
                    m->issue_slots++;
                issued = 1;
                finished |= issue(s, m, slot, c);
            }
        }
        m->min_cycle = c + 1;
        /* After an issue some warp may be ready next cycle.  With no issue,
         * every warp was just examined (or its scheduler skipped because
         * none could be ready) and its wake is exact: jump to the earliest.
         * Each scheduler that issued nothing holds the least wake of its
         * ACTIVE warps in min_wake (warpsched.c), so this reads four
         * numbers, not every warp. */
        uint64_t next = UINT64_MAX;
        if (issued && m->live_warps > 0) {
            /* Cycles after an issue in which no warp can issue are skipped
             * like idle ones (below).  Not when a CTA finished (the
             * dispatcher may refill the SM at c + 1, and c + 1's stall
             * reasons would see its warps), nor when no warp is ACTIVE (the
             * SM sleeps after one processed barrier cycle, and a grid
             * release counts from there). */
            next = c + 1;
            /* When every scheduler with warps issued, c + 1 almost always
             * can too (compute-bound code), and the bound would only cost a
             * scan: it is looked for after cycles in which one stalled.
             * Either way the schedule is the same. */
            if (!finished && !m->per_cycle && idle > 0) {
                uint64_t t = next_issue(m, c);
                if (t != UINT64_MAX)
                    next = t;
            }
        } else {
            for (int sc = 0; sc < nsched; sc++) {
                warp_sched *ws = &m->sched[sc];
                if (ws->n > 0)
                    next = SK_MIN(next, ws->min_wake);
                /* one whose port was held at c has no reason for the cycles
                 * ahead yet: its warps' own; held past c + 1, the next
                 * cycle is processed (its stall is the port's) */
                if (ws->n > 0 && c < ws->port_free) {
                    ws->why = stall_reason(m, ws);
                    if (ws->port_free > c + 1)
                        next = c + 1;
                }
            }
            if (next != UINT64_MAX)
                next = SK_MAX(next, c + 1);
        }
        /* A scheduler that issued nothing was charged cycle c above.  When
         * no scheduler issued, every one with warps stalls on until the
         * next processed cycle, for the reason just found (if the SM now
         * sleeps, a grid release or the remainder, sm_stall_cycles,
         * accounts for the rest). */
        if (!issued && next != UINT64_MAX && next > c + 1)
            for (int sc = 0; sc < nsched; sc++)
                if (m->sched[sc].n > 0 && m->sched[sc].why >= 0)
                    charge(m, m->sched[sc].why, next - c - 1);
        /* After an issue, the skipped cycles c + 1 .. next - 1 are idle for
         * every scheduler with warps: each is charged what processing
         * c + 1 would have found (stall_reason reads no cycle: dep, ready,
         * ldg_done and unit_free stay as they are until next) and the
         * rest ahead, as an idle cycle charges its jump. */
        if (issued && next > c + 1) {
            for (int sc = 0; sc < nsched; sc++) {
                warp_sched *ws = &m->sched[sc];
                m->skip_why[sc] = -1;
                if (ws->n == 0)
                    continue;
                int why = stall_reason(m, ws);
                m->skip_why[sc] = (int8_t)why;
                m->skip_ready[sc] = ws->min_wake;
                charge(m, why, next - c - 1);
            }
            m->skip_c1 = c + 1;
            m->skip_n = next - c - 1;
        }
        if (next == UINT64_MAX)         /* nothing can issue until a CTA arrives: sleep */
            return;
        m->cycle = next;
        if (s->q.version != qver) {     /* an event came or went: the bound moves */
            qver = s->q.version;
            c_stop = stop_cycle(s, m);
        }
        if (finished || s->stop || next >= c_stop) {
            evq_push(&s->q, ev, sm_cycle_time(m, next));
            m->skip_seq = ev->seq;
            return;
        }
        c = next;
    }
}
