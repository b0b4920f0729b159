/* tlb.c -- address translation for requests that leave an SM's L1
 * (memory.tlb.*, docs/memory.md "Address translation").
 *
 * NVIDIA's L1 is virtually tagged and its L2 physically (the L2's page
 * hash works on physical bits, E11), so only what misses the L1 needs a
 * translation: a load's missing sectors, a bypassing (.cg) load, a
 * write-through store.  A hit in the L1 pays nothing here.  The model:
 *
 *   L1 TLB   per SM, memory.tlb.l1_entries in sets of l1_ways, replacing
 *            by memory.tlb.l1_replace (E20's curve wants mru).  A hit
 *            adds no time: the L2 latencies (memory.l2.hit_ps, the HBM
 *            figures) were fitted to chases whose translations hit, so an
 *            L1 TLB hit is already inside them.
 *   L2 TLB   memory.tlb.l2_entries in sets of l2_ways, one for the chip or
 *            one per GPC (memory.tlb.l2_scope), shared by its SMs, LRU.  An L1
 *            TLB miss that hits adds memory.tlb.l2_hit_ps.
 *   walk     an L2 TLB miss adds memory.tlb.walk_ps on top: a fixed cost.
 *            The walk's own reads of the page table (which would go
 *            through L2 and HBM, and could hit in a page-walk cache) are
 *            not modelled, nor a limit on walks in flight: every walk
 *            costs the same, whatever else is walking.
 *
 * One page size (memory.tlb.page_bytes) for every translation: the driver
 * maps device memory in 2 MB pages where it can (E11's per-2 MB-frame
 * partition constant is the physical side of that), and a run with one
 * kind of allocation sees one size.  Both levels are filled on a walk (the
 * L2 TLB is inclusive of what its SMs' walks bring; evictions are not
 * propagated either way).
 *
 * A translation in flight is an entry already (its ready time in the
 * future), so a second request for the page, from this SM or another of
 * the L2 TLB's scope, waits for the same walk instead of starting one.
 *
 * How often translation happens: the L1 hands its misses to the level
 * behind it one line at a time, in address order within a warp access
 * (l1.c), and marks every request after an access's first
 * (MEM_F_SAME_ACCESS), so the lines of one page come one after another.
 * A marked request for the page of the previous request reuses that
 * translation (waiting for it if it is still in flight) without a lookup:
 * one translation per distinct page per warp access, not per line or
 * sector.  The next access looks its pages up again (an L1 TLB hit, free,
 * when it stays on the page).  Requests without addresses (a trace that
 * gives only bytes) are not translated.
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"
#include "mem_internal.h"

/* ==================================================================== */
/* One TLB array                                                         */
/* ==================================================================== */

struct mem_tlb {
    uint32_t entries, ways, sets;
    int replace;         /* enum cfg_tlb_replace */
    uint64_t rng;        /* random: splitmix64 state */
    uint64_t *tag;       /* entries: page + 1, 0 = empty (set-major) */
    ps_t *ready;         /* entries: when the translation is usable */
    uint64_t *stamp;     /* entries: last use, for LRU */
    uint64_t clock;      /* the next stamp */
};

const char *mem_tlb_geom_check(uint32_t entries, uint32_t ways)
{
    if (entries < 1)
        return "expected at least 1 entry";
    if (ways < 1 || ways > entries)
        return "expected 1..entries ways";
    if (entries % ways)
        return "expected entries a multiple of ways";
    return "";
}

mem_tlb *mem_tlb_create(uint32_t entries, uint32_t ways, int replace, uint64_t seed)
{
    mem_tlb *t = xcalloc(1, sizeof *t);
    t->entries = entries;
    t->ways = ways;
    t->replace = replace;
    t->rng = seed;
    t->sets = entries / ways;
    t->tag = xcalloc(entries, sizeof *t->tag);
    t->ready = xcalloc(entries, sizeof *t->ready);
    t->stamp = xcalloc(entries, sizeof *t->stamp);
    t->clock = 1;
    return t;
}

void mem_tlb_destroy(mem_tlb *t)
{
    if (!t)
        return;
    free(t->tag);
    free(t->ready);
    free(t->stamp);
    free(t);
}

/* splitmix64: the random victim, the same for the same seed */
static uint64_t next_random(uint64_t *x)
{
    return sk_mix64(*x += 0x9e3779b97f4a7c15ull);
}

static size_t set_base(const mem_tlb *t, uint64_t page)
{
    return (size_t)(page % t->sets) * t->ways;
}

static long find(const mem_tlb *t, uint64_t page)
{
    size_t b = set_base(t, page);
    for (uint32_t w = 0; w < t->ways; w++)
        if (t->tag[b + w] == page + 1)
            return (long)(b + w);
    return -1;
}

int mem_tlb_lookup(mem_tlb *t, uint64_t page, ps_t *ready)
{
    long i = find(t, page);
    if (i < 0)
        return 0;
    t->stamp[i] = t->clock++;
    *ready = t->ready[i];
    return 1;
}

int mem_tlb_probe(const mem_tlb *t, uint64_t page)
{
    return find(t, page) >= 0;
}

uint64_t mem_tlb_fill(mem_tlb *t, uint64_t page, ps_t ready)
{
    long i = find(t, page);
    uint64_t evicted = 0;
    if (i < 0) {
        size_t b = set_base(t, page), v = b;
        int full = 1;
        for (uint32_t w = 0; w < t->ways; w++) {
            if (!t->tag[b + w]) {
                v = b + w;
                full = 0;
                break;
            }
            if (t->replace == TLB_REPLACE_MRU ? t->stamp[b + w] > t->stamp[v]
                                              : t->stamp[b + w] < t->stamp[v])
                v = b + w;
        }
        if (full && t->replace == TLB_REPLACE_RANDOM)
            v = b + (size_t)(next_random(&t->rng) % t->ways);
        evicted = t->tag[v];
        i = (long)v;
        t->tag[i] = page + 1;
    }
    t->ready[i] = ready;
    t->stamp[i] = t->clock++;
    return evicted;
}

void mem_tlb_flush(mem_tlb *t)
{
    memset(t->tag, 0, t->entries * sizeof *t->tag);
}

uint32_t mem_tlb_entries(const mem_tlb *t)
{
    return t->entries;
}

/* ==================================================================== */
/* The translation step between an L1 and the L2                         */
/* ==================================================================== */

typedef struct tlb_state {
    int sm;
    unsigned page_shift;
    ps_t l2_hit_ps, walk_ps;
    mem_tlb *l1;          /* owned */
    mem_tlb *l2;          /* shared, not owned */
    uint64_t last_page1;  /* the previous translation's page + 1 (0: none) */
    ps_t last_ready;      /* and when it is usable */
    mem_level *next;
    mem_stats *stats;
} tlb_state;

/* When page's translation is usable for a request at t, counting it;
 * same: the request belongs to the access of the previous translation. */
static ps_t translate(tlb_state *s, uint64_t page, ps_t t, int same)
{
    mem_stats *st = &s->stats[s->sm];
    ps_t ready;
    if (same && s->last_page1 == page + 1)
        return SK_MAX(t, s->last_ready);
    if (mem_tlb_lookup(s->l1, page, &ready)) {
        st->tlb_l1_hits++;
    } else {
        st->tlb_l1_misses++;
        ps_t r2;
        if (mem_tlb_lookup(s->l2, page, &r2)) {
            st->tlb_l2_hits++;
            ready = SK_MAX(t + s->l2_hit_ps, r2);
        } else {
            st->tlb_l2_misses++;
            st->tlb_walk_ps += (uint64_t)s->walk_ps;
            ready = t + s->l2_hit_ps + s->walk_ps;
            mem_tlb_fill(s->l2, page, ready);
        }
        mem_tlb_fill(s->l1, page, ready);
    }
    s->last_page1 = page + 1;
    s->last_ready = ready;   /* the entry's own time: a later request may come earlier */
    return SK_MAX(t, ready);
}

static ps_t tlb_access(mem_level *l, const mem_req *r)
{
    tlb_state *s = l->st;
    ps_t at = r->t;
    int same = (r->flags & MEM_F_SAME_ACCESS) != 0;   /* then: every page after the first */
    if (r->addr) {
        for (int k = 0; k < 32; k++)
            if (r->mask >> k & 1) {
                ps_t ready = translate(s, r->addr[k] >> s->page_shift, r->t, same);
                at = SK_MAX(at, ready);   /* (SK_MAX evaluates its arguments twice) */
                same = 1;
            }
    } else if (r->span_end > r->span_first) {
        uint64_t p0 = r->span_first >> s->page_shift, p1 = (r->span_end - 1) >> s->page_shift;
        for (uint64_t page = p0; page <= p1; page++, same = 1) {
            ps_t ready = translate(s, page, r->t, same);
            at = SK_MAX(at, ready);
        }
    }
    if (at == r->t)
        return s->next ? mem_access(s->next, r) : r->t;
    s->stats[s->sm].tlb_delay_ps += (uint64_t)(at - r->t);
    mem_req q = *r;
    q.t = at;
    return s->next ? mem_access(s->next, &q) : at;
}

static void tlb_destroy(mem_level *l)
{
    tlb_state *s = l->st;
    mem_tlb_destroy(s->l1);
    free(s);
    free(l);
}

static const mem_level_ops tlb_ops = { "tlb", tlb_access, NULL, tlb_destroy };

mem_level *mem_tlb_level_create(const cfg *c, int sm, mem_tlb *l2tlb, mem_level *next,
                                mem_stats *stats)
{
    tlb_state *s = xcalloc(1, sizeof *s);
    s->sm = sm;
    s->page_shift = mem_log2((uint64_t)c->tlb_page_bytes);   /* a power of two (config.c) */
    s->l2_hit_ps = c->tlb_l2_hit_ps;
    s->walk_ps = c->tlb_walk_ps;
    /* each SM's random victims its own stream of the run's seed */
    s->l1 = mem_tlb_create((uint32_t)c->tlb_l1_entries, (uint32_t)c->tlb_l1_ways, c->tlb_l1_replace,
                           c->seed ^ (0x9e3779b97f4a7c15ull * (uint64_t)(sm + 1)));
    s->l2 = l2tlb;
    s->next = next;
    s->stats = stats;
    mem_level *l = xcalloc(1, sizeof *l);
    l->ops = &tlb_ops;
    l->next = next;
    l->st = s;
    return l;
}

void mem_tlb_level_flush(mem_level *l)
{
    tlb_state *s = l->st;
    mem_tlb_flush(s->l1);
    s->last_page1 = 0;
}

mem_tlb *mem_tlb_level_l1(mem_level *l)
{
    return ((tlb_state *)l->st)->l1;
}
