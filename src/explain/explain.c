/* explain.c -- the explain sink (explain.h).
 *
 * Reasons are read off the SM's own state at the moment of the decision
 * (the sink sees the simulation read-only), with the same tests the SM
 * uses to decide readiness (sm_warp_ready in sm.h): the compiler stall
 * (warp.ready), the scoreboard of the registers the next instruction reads
 * and writes (warp.reg), a free pipeline of its unit class (unit_free),
 * and the warp's state (barrier, grid barrier).  The one thing the state
 * does not say is what produced a register a warp waits for, so the sink
 * remembers, per SM, warp slot and register, the last instruction that
 * wrote it (from the issue events it watches): that is how a wait on a
 * global load reads "memory", on LDS "shared memory", on an FMA
 * "scoreboard".  It watches every issue, in or out of the window, so that
 * memory is right when the window opens.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/explain.h"
#include "skewsim/policies.h"
#include "skewsim/sim.h"

typedef struct writer {
    uint32_t op;                /* opcode index + 1 in the warp's program (0: none seen) */
    uint8_t kind;               /* enum instr_kind */
} writer;

typedef struct sm_memo {
    writer *w;                  /* [slot * regs + reg] */
    uint32_t regs;              /* registers per slot it was sized for */
} sm_memo;

struct explain {
    FILE *out;
    unsigned what;
    ps_t from, to;
    uint64_t lines;
    sm_memo *memo;
    int nmemo;
};

#define HELP_(id, name, help) help,
static const char *const DISPATCH_HELP[] = {DISPATCH_POLICY_MAP(HELP_)};
static const char *const WARP_HELP[] = {WARP_POLICY_MAP(HELP_)};
#undef HELP_
#define NAME_(id, name, help) #name,
static const char *const DISPATCH_NAME[] = {DISPATCH_POLICY_MAP(NAME_)};
static const char *const WARP_NAME[] = {WARP_POLICY_MAP(NAME_)};
#undef NAME_

static int in_window(const explain *x, ps_t t)
{
    return t >= x->from && t < x->to;
}

static void ns(char *buf, size_t n, ps_t t)
{
    snprintf(buf, n, "%" PRId64 ".%03" PRId64, t / 1000, t % 1000);
}

/* The program a warp runs (for opcode and register names). */
static const program *prog_of(const sim *s, const warp *w)
{
    for (uint32_t i = 0; i < s->k.nprogs; i++)
        if (s->k.progs[i].code == w->code)
            return &s->k.progs[i];
    return NULL;
}

static const char *opname(const program *p, uint32_t op)
{
    return p && op < p->nopnames ? p->opnames[op] : "?";
}

static void regname(char *buf, size_t n, const program *p, uint16_t r)
{
    if (p && p->regnames && r < p->nregs && p->regnames[r])
        snprintf(buf, n, "%s", p->regnames[r]);
    else
        snprintf(buf, n, "r%u", r);
}

static writer *memo_at(explain *x, const sim *s, int smid, int slot, uint16_t reg)
{
    if (x->nmemo < s->nsms) {
        x->memo = xrealloc(x->memo, (size_t)s->nsms * sizeof *x->memo);
        memset(x->memo + x->nmemo, 0, (size_t)(s->nsms - x->nmemo) * sizeof *x->memo);
        x->nmemo = s->nsms;
    }
    sm_memo *mm = &x->memo[smid];
    uint32_t regs = s->sms[smid].regs_per_warp;
    if (regs > mm->regs) {
        free(mm->w);
        mm->w = xcalloc((size_t)s->c.max_warps * regs, sizeof *mm->w);
        mm->regs = regs;
    }
    if (reg >= mm->regs || slot >= s->c.max_warps)
        return NULL;
    return &mm->w[(size_t)slot * mm->regs + reg];
}

/* The instruction text: "FFMA R0 <- R1 R2". */
static void instr_text(char *buf, size_t n, const program *p, const instr *in)
{
    size_t k = (size_t)snprintf(buf, n, "%s", opname(p, in->opcode));
    char r[32];
    for (int i = 0; i < in->ndst && k < n; i++) {
        regname(r, sizeof r, p, in->dst[i]);
        k += (size_t)snprintf(buf + k, n - k, " %s", r);
    }
    if (in->nsrc && k < n)
        k += (size_t)snprintf(buf + k, n - k, " <-");
    for (int i = 0; i < in->nsrc && k < n; i++) {
        regname(r, sizeof r, p, in->src[i]);
        k += (size_t)snprintf(buf + k, n - k, " %s%s", r, (in->reuse >> i & 1) ? ".reuse" : "");
    }
    if (in->bank && k < n)
        snprintf(buf + k, n - k, " (register banks: +%u cycle%s)", (unsigned)in->bank, in->bank > 1 ? "s" : "");
}

/* Why warp `slot` of SM m did not issue in cycle c (it did not). */
static void reason(explain *x, const sim *s, const sm *m, int slot, uint64_t c, char *buf, size_t n)
{
    const warp *w = &m->warps[slot];
    const cta_slot *cs = &m->ctas[w->cta];
    if (w->state == W_BARRIER) {
        snprintf(buf, n, "at the CTA barrier (%d of %d warps of CTA %" PRIu64 " there)", cs->at_barrier,
                 cs->nwarps - cs->exited, cs->id);
        return;
    }
    if (w->state == W_GRIDBAR) {
        snprintf(buf, n, "at the grid barrier (%" PRIu64 " warps of the grid there)", s->grid_arrived);
        return;
    }
    if (w->state != W_ACTIVE) {
        snprintf(buf, n, "exited");
        return;
    }
    const program *p = prog_of(s, w);
    const instr *in = &w->code[w->pc];
    if (w->ready > c) {
        snprintf(buf, n, "compiler stall until cycle %" PRIu64 " (%s before it: stall=%u)", w->ready,
                 w->pc ? opname(p, w->code[w->pc - 1].opcode) : "its launch",
                 w->pc ? (unsigned)w->code[w->pc - 1].stall : 0u);
        return;
    }
    /* The register of the next instruction that is ready last. */
    uint64_t worst = 0;
    int wr = -1;
    for (int i = 0; i < in->nsrc + in->ndst; i++) {
        uint16_t r = i < in->nsrc ? in->src[i] : in->dst[i - in->nsrc];
        if (w->reg[r] > c && w->reg[r] > worst) {
            worst = w->reg[r];
            wr = r;
        }
    }
    if (wr >= 0) {
        char rn[32];
        regname(rn, sizeof rn, p, (uint16_t)wr);
        const writer *wt = memo_at(x, s, m->id, slot, (uint16_t)wr);
        const char *by = wt && wt->op ? opname(p, wt->op - 1) : NULL;
        if (wt && wt->op && wt->kind == IK_LD_GLOBAL)
            snprintf(buf, n, "memory: %s from %s, back at cycle %" PRIu64, rn, by, worst);
        else if (wt && wt->op && wt->kind == IK_LD_SHARED)
            snprintf(buf, n, "shared memory: %s from %s, back at cycle %" PRIu64, rn, by, worst);
        else if (by)
            snprintf(buf, n, "scoreboard on %s (from %s) until cycle %" PRIu64, rn, by, worst);
        else
            snprintf(buf, n, "scoreboard on %s until cycle %" PRIu64, rn, worst);
        return;
    }
    /* A destination a global store has not read yet (sm.store_read_cycles). */
    const uint64_t *wrb = sm_wreg(m, w);
    for (int i = 0; m->st_read_until > c && i < in->ndst; i++) {
        if (wrb[in->dst[i]] > c) {
            char rn[32];
            regname(rn, sizeof rn, p, in->dst[i]);
            snprintf(buf, n, "read barrier: a global store reads %s until cycle %" PRIu64 " (%s overwrites it)",
                     rn, wrb[in->dst[i]], opname(p, in->opcode));
            return;
        }
    }
    int pipe;
    uint64_t u = sm_unit_earliest(m, w->sched, w->cls, &pipe);
    if (u > c) {
        snprintf(buf, n, "%s unit busy%s until cycle %" PRIu64 " (%s next)", fu_class_name(w->cls),
                 m->unit_q[w->cls] ? " (its queue full)" : "", u, opname(p, in->opcode));
        return;
    }
    const warp_sched *ws = &m->sched[w->sched];
    if (ws->port_free > c) {
        snprintf(buf, n, "ready (%s next), the scheduler's issue port held until cycle %" PRIu64
                 " (its last issue's register reads conflicted in a bank)", opname(p, in->opcode), ws->port_free);
        return;
    }
    int pol = s->c.warp_policy;
    snprintf(buf, n, "ready (%s next), not chosen: %s (%s)", opname(p, in->opcode),
             pol >= 0 && pol < (int)SK_ARRAY_LEN(WARP_NAME) ? WARP_NAME[pol] : "?",
             pol >= 0 && pol < (int)SK_ARRAY_LEN(WARP_HELP) ? WARP_HELP[pol] : "?");
}

/* Every other warp of scheduler `sched`, with its reason, after `lead`. */
static void others(explain *x, const sim *s, const sm *m, int sched, int except, uint64_t c)
{
    const warp_sched *ws = &m->sched[sched];
    for (int i = 0; i < ws->n; i++) {
        int slot = ws->order[i];
        if (slot == except)
            continue;
        char r[256];
        reason(x, s, m, slot, c, r, sizeof r);
        const warp *w = &m->warps[slot];
        fprintf(x->out, "\n      W%d (CTA %" PRIu64 " warp %u): %s", slot, m->ctas[w->cta].id, w->widx, r);
    }
    fputc('\n', x->out);
    x->lines++;
}

static int on_issue(void *ud, const sim *s, const sink_issue *e)
{
    explain *x = ud;
    const sm *m = &s->sms[e->sm];
    const warp *w = &m->warps[e->slot];
    const program *p = prog_of(s, w);
    ps_t t = sm_cycle_time(m, e->cycle);
    if (in_window(x, t)) {
        char tb[32], it[160];
        ns(tb, sizeof tb, t);
        instr_text(it, sizeof it, p, e->in);
        fprintf(x->out, "%12s ns  SM %d sched %d cycle %" PRIu64 ": W%d (CTA %" PRIu64 " warp %d) issues %s", tb,
                e->sm, e->sched, e->cycle, e->slot, e->cta, e->widx, it);
        others(x, s, m, e->sched, e->slot, e->cycle);
    }
    /* Remember who writes each destination, for the reasons of later waits. */
    for (int i = 0; i < e->in->ndst; i++) {
        writer *wt = memo_at(x, s, e->sm, e->slot, e->in->dst[i]);
        if (wt) {
            wt->op = e->in->opcode + 1;
            wt->kind = e->in->kind;
        }
    }
    return 0;
}

static int on_stall(void *ud, const sim *s, const sink_stall *e)
{
    explain *x = ud;
    const sm *m = &s->sms[e->sm];
    ps_t t = sm_cycle_time(m, e->cycle);
    if (!in_window(x, t))
        return 0;
    char tb[32];
    ns(tb, sizeof tb, t);
    fprintf(x->out, "%12s ns  SM %d sched %d cycle %" PRIu64 ": nothing issues", tb, e->sm, e->sched, e->cycle);
    if (m->sched[e->sched].port_free > e->cycle)
        fprintf(x->out, " (issue port held until cycle %" PRIu64 ": register banks)", m->sched[e->sched].port_free);
    else if (e->ready_cycle != UINT64_MAX)
        fprintf(x->out, " (no warp before cycle %" PRIu64 ")", e->ready_cycle);
    others(x, s, m, e->sched, -1, e->cycle);
    return 0;
}

/* What keeps an SM from taking one more CTA of the running kernel, or NULL. */
static const char *full_because(const sim *s, const sm *m)
{
    const cfg *c = &s->c;
    const cta_need *n = &s->need;
    if (m->used_ctas >= c->max_ctas)
        return "CTA slots";
    if (m->used_threads + n->threads > c->max_threads)
        return "threads";
    if (m->used_warps + n->warps > c->max_warps)
        return "warps";
    if (m->used_regs + n->regs > c->registers)
        return "registers";
    if (m->used_smem + n->smem > c->smem_bytes)
        return "shared memory";
    return NULL;
}

static int on_dispatch(void *ud, const sim *s, const sink_cta *e)
{
    explain *x = ud;
    if (!(x->what & EXPLAIN_DISPATCH) || !in_window(x, e->t))
        return 0;
    const sm *m = &s->sms[e->sm];
    const cfg *c = &s->c;
    int pol = c->dispatch_policy;
    char tb[32];
    ns(tb, sizeof tb, e->t);
    fprintf(x->out, "%12s ns  dispatch: kernel %" PRIu64 " CTA %" PRIu64 " -> SM %d (GPC %d, %d MHz), by ", tb,
            e->kernel, e->cta, e->sm, s->topo.sm[e->sm].gpc, m->mhz);
    uint32_t csize = s->k.cluster;   /* the dispatched kernel is bound; its clusters are the engine's, not the policy's */
    if (csize > 1)
        fprintf(x->out, "the cluster rule: its cluster of %u CTAs goes to the cluster group with the most room per "
                "SM, one CTA to each of %u SMs;", csize, csize);
    else
        fprintf(x->out, "%s: %s;", pol >= 0 && pol < (int)SK_ARRAY_LEN(DISPATCH_NAME) ? DISPATCH_NAME[pol] : "?",
                pol >= 0 && pol < (int)SK_ARRAY_LEN(DISPATCH_HELP) ? DISPATCH_HELP[pol] : "?");
    /* The chosen SM already holds the new CTA: say what it had before. */
    fprintf(x->out, " SM %d held %d of %d CTAs, %d of %d threads", e->sm, m->used_ctas - 1, c->max_ctas,
            m->used_threads - s->need.threads, c->max_threads);
    int room = 0, full = 0;
    for (int i = 0; i < s->nsms; i++)
        if (i != e->sm) {
            if (full_because(s, &s->sms[i]))
                full++;
            else
                room++;
        }
    if (room) {
        fprintf(x->out, "; also with room:");
        int shown = 0;
        for (int i = 0; i < s->nsms && shown < 16; i++)
            if (i != e->sm && !full_because(s, &s->sms[i])) {
                fprintf(x->out, " SM %d (%d CTAs, %d MHz)", i, s->sms[i].used_ctas, s->sms[i].mhz);
                shown++;
            }
        if (room > shown)
            fprintf(x->out, " and %d more", room - shown);
    }
    if (full) {
        fprintf(x->out, "; full:");
        int shown = 0;
        for (int i = 0; i < s->nsms && shown < 16; i++) {
            const char *why = i != e->sm ? full_because(s, &s->sms[i]) : NULL;
            if (why) {
                fprintf(x->out, " SM %d (%s)", i, why);
                shown++;
            }
        }
        if (full > shown)
            fprintf(x->out, " and %d more", full - shown);
    }
    fputc('\n', x->out);
    x->lines++;
    return 0;
}

static int on_launch(void *ud, const sim *s, const kernel_stats *k)
{
    explain *x = ud;
    if (!in_window(x, k->launch_ps))
        return 0;
    char tb[32];
    ns(tb, sizeof tb, k->launch_ps);
    fprintf(x->out, "%12s ns  kernel %" PRIu64 " %s launched: %" PRIu64 " CTAs of %d warps; each SM holds at most "
            "%d at once\n", tb, k->index, k->name, k->ctas, s->need.warps, sm_ctas_per_sm(&s->c, &s->need));
    x->lines++;
    return 0;
}

static const sink_ops OPS_DISPATCH = {
    .name = "explain", .kernel_launch = on_launch, .cta_dispatch = on_dispatch,
};
static const sink_ops OPS_ALL = {
    .name = "explain", .kernel_launch = on_launch, .cta_dispatch = on_dispatch,
    .warp_issue = on_issue, .warp_stall = on_stall,
};

explain *explain_create(FILE *out, unsigned what, ps_t from_ps, ps_t to_ps)
{
    explain *x = xcalloc(1, sizeof *x);
    x->out = out;
    x->what = what;
    x->from = from_ps;
    x->to = to_ps;
    return x;
}

void explain_destroy(explain *x)
{
    if (!x)
        return;
    for (int i = 0; i < x->nmemo; i++)
        free(x->memo[i].w);
    free(x->memo);
    free(x);
}

sim_sink explain_sink(explain *x)
{
    sim_sink k = {(x->what & EXPLAIN_ISSUE) ? &OPS_ALL : &OPS_DISPATCH, x};
    return k;
}

uint64_t explain_lines(const explain *x)
{
    return x->lines;
}

int explain_parse_what(const char *spec, unsigned *what, sk_error *e)
{
    *what = 0;
    if (!spec || !*spec) {
        *what = EXPLAIN_DISPATCH | EXPLAIN_ISSUE;
        return 0;
    }
    const char *p = spec;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 8 && !strncmp(p, "dispatch", 8))
            *what |= EXPLAIN_DISPATCH;
        else if (n == 5 && !strncmp(p, "issue", 5))
            *what |= EXPLAIN_ISSUE;
        else
            return sk_errorf(e, SK_EUSAGE, "run: --explain=%s: '%.*s': expected dispatch, issue or both "
                             "(dispatch,issue)", spec, (int)n, p);
        p += n;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* A decimal number of ns into ps, exactly (at most 3 decimals). */
static int parse_ns(const char *s, size_t n, ps_t *out)
{
    int64_t v = 0, frac = 0;
    int digits = 0, fd = -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.' && fd < 0) {
            fd = 0;
        } else if (s[i] >= '0' && s[i] <= '9') {
            if (fd >= 0) {
                if (++fd > 3)
                    return -1;
                frac = frac * 10 + (s[i] - '0');
            } else {
                if (v > INT64_MAX / 10000)
                    return -1;
                v = v * 10 + (s[i] - '0');
            }
            digits++;
        } else {
            return -1;
        }
    }
    if (!digits)
        return -1;
    for (int k = fd < 0 ? 0 : fd; k < 3; k++)
        frac *= 10;
    *out = v * 1000 + frac;
    return 0;
}

int explain_parse_window(const char *spec, ps_t *from_ps, ps_t *to_ps, sk_error *e)
{
    const char *colon = strchr(spec, ':');
    *from_ps = 0;
    *to_ps = PS_MAX;
    int bad = !colon;
    if (!bad && colon > spec)
        bad = parse_ns(spec, (size_t)(colon - spec), from_ps) < 0;
    if (!bad && colon[1])
        bad = parse_ns(colon + 1, strlen(colon + 1), to_ps) < 0 || *to_ps <= *from_ps;
    if (bad)
        return sk_errorf(e, SK_EUSAGE, "run: --explain-window: %s: expected A:B in ns with A < B (either may "
                         "be left out: A: or :B)", spec);
    return 0;
}
