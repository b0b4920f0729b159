/* cache.c -- a sectored, set-associative, LRU cache with finite MSHRs, timed
 * as the requests arrive.
 *
 * The model.  A line of line_bytes holds line/sector sectors; each sector
 * is valid or not, dirty or not, and carries the time its data arrive (its
 * fill time).  GPUs allocate and tag whole lines but move sectors (Volta and
 * later: 128 B lines of four 32 B sectors; Jia et al., "Dissecting the NVIDIA
 * Volta GPU Architecture via Microbenchmarking", 2018), so a miss fetches
 * only the sectors asked for and missing.  A sector that is valid but whose
 * fill time lies after the request is a miss already in flight: the request
 * waits for that fill instead of fetching again, which is what an MSHR that
 * merges misses to one line does.  Fetching takes one MSHR from the request
 * to the data's return; when all are busy the fetch waits for the earliest
 * to free (a min-heap of their free times).
 *
 * Because timing is computed when the request is made, "in flight" is a
 * statement about times, not a queue: the fill time is known at once.
 * Requests to one cache arrive in nearly, not strictly, increasing time
 * (mem.h); a request that arrives before a fill started by a request made
 * earlier in simulation order merges with it, which is as causal as the
 * run-ahead window lets anything be.
 *
 * Replacement is LRU, kept as a list per set (most recent first, invalid
 * ways at the end), so a touch and the usual victim cost O(1) whatever the
 * associativity (the L1 has 64 ways with no carve-out).  A victim is an
 * invalid way if there is one, else the least recently used way with no
 * fill in flight; when every way is still filling, the request waits until
 * the first of those fills lands (a reservation failure on real hardware).
 *
 * Left out: per-MSHR merge limits, partial-sector (byte-masked) writes,
 * and tag/data-bank conflicts inside the array (the levels charge port
 * bandwidth instead).
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"

struct mem_cache {
    mem_cache_geom g;
    unsigned spl;               /* sectors per line */
    unsigned line_shift, sector_shift;
    uint64_t set_mask;
    size_t nlines;
    uint64_t *tag;              /* line index + 1; 0 = invalid */
    uint32_t *prev, *next;      /* LRU list links, way indices within the set */
    uint32_t *head, *tail;      /* per set: most and least recently used way */
    uint8_t *valid, *dirty, *flags;
    ps_t *ready;                /* nlines * spl fill times */
    ps_t *busy;                 /* per line: the latest fill time of its sectors */
    ps_t *mshr;                 /* min-heap of MSHR free times */
};

static unsigned log2u(uint64_t x)
{
    unsigned n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

static int pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

const char *mem_cache_geom_check(const mem_cache_geom *g)
{
    if (!pow2(g->sets))
        return "expected a power of two number of sets";
    if (g->ways < 1)
        return "expected at least one way";
    if (!pow2(g->sector_bytes))
        return "expected a power of two sector size";
    if (!pow2(g->line_bytes))
        return "expected a power of two line size";
    if (g->line_bytes < g->sector_bytes)
        return "expected a line at least as large as a sector";
    if (g->line_bytes / g->sector_bytes > 8)
        return "expected at most 8 sectors per line";
    if (g->mshrs < 1)
        return "expected at least one MSHR";
    return "";
}

/* ---- LRU lists ----------------------------------------------------------- */

#define NIL UINT32_MAX

static void lru_reset(mem_cache *c)
{
    uint32_t ways = c->g.ways;
    for (uint32_t set = 0; set < c->g.sets; set++) {
        size_t base = (size_t)set * ways;
        for (uint32_t w = 0; w < ways; w++) {
            c->prev[base + w] = w ? w - 1 : NIL;
            c->next[base + w] = w + 1 < ways ? w + 1 : NIL;
        }
        c->head[set] = 0;
        c->tail[set] = ways - 1;
    }
}

static void lru_unlink(mem_cache *c, size_t set, size_t base, uint32_t w)
{
    uint32_t p = c->prev[base + w], n = c->next[base + w];
    if (p != NIL)
        c->next[base + p] = n;
    else
        c->head[set] = n;
    if (n != NIL)
        c->prev[base + n] = p;
    else
        c->tail[set] = p;
}

/* Make way w (global index) the most recently used of its set. */
static void lru_touch(mem_cache *c, size_t gw)
{
    size_t set = gw / c->g.ways, base = set * c->g.ways;
    uint32_t w = (uint32_t)(gw - base);
    if (c->head[set] == w)
        return;
    lru_unlink(c, set, base, w);
    c->prev[base + w] = NIL;
    c->next[base + w] = c->head[set];
    c->prev[base + c->head[set]] = w;
    c->head[set] = w;
}

/* Make way w the least recently used (an invalidated line). */
static void lru_bottom(mem_cache *c, size_t gw)
{
    size_t set = gw / c->g.ways, base = set * c->g.ways;
    uint32_t w = (uint32_t)(gw - base);
    if (c->tail[set] == w)
        return;
    lru_unlink(c, set, base, w);
    c->next[base + w] = NIL;
    c->prev[base + w] = c->tail[set];
    c->next[base + c->tail[set]] = w;
    c->tail[set] = w;
}

mem_cache *mem_cache_create(const mem_cache_geom *g)
{
    mem_cache *c = xcalloc(1, sizeof *c);
    c->g = *g;
    c->spl = g->line_bytes / g->sector_bytes;
    c->line_shift = log2u(g->line_bytes);
    c->sector_shift = log2u(g->sector_bytes);
    c->set_mask = g->sets - 1;
    c->nlines = (size_t)g->sets * g->ways;
    c->tag = xcalloc(c->nlines, sizeof *c->tag);
    c->prev = xcalloc(c->nlines, sizeof *c->prev);
    c->next = xcalloc(c->nlines, sizeof *c->next);
    c->head = xcalloc(g->sets, sizeof *c->head);
    c->tail = xcalloc(g->sets, sizeof *c->tail);
    lru_reset(c);
    c->valid = xcalloc(c->nlines, 1);
    c->dirty = xcalloc(c->nlines, 1);
    c->flags = xcalloc(c->nlines, 1);
    c->ready = xcalloc(c->nlines * c->spl, sizeof *c->ready);
    c->busy = xcalloc(c->nlines, sizeof *c->busy);
    c->mshr = xcalloc(g->mshrs, sizeof *c->mshr);
    return c;
}

void mem_cache_destroy(mem_cache *c)
{
    if (!c)
        return;
    free(c->tag);
    free(c->prev);
    free(c->next);
    free(c->head);
    free(c->tail);
    free(c->valid);
    free(c->dirty);
    free(c->flags);
    free(c->ready);
    free(c->busy);
    free(c->mshr);
    free(c);
}

const mem_cache_geom *mem_cache_geometry(const mem_cache *c)
{
    return &c->g;
}

/* ---- MSHR heap --------------------------------------------------------- */

/* Replace the heap's minimum with v and restore the heap. */
static void heap_replace_min(ps_t *h, size_t n, ps_t v)
{
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        ps_t mv = v;
        if (l < n && h[l] < mv) {
            m = l;
            mv = h[l];
        }
        if (r < n && h[r] < mv)
            m = r;
        if (m == i)
            break;
        h[i] = h[m];
        i = m;
    }
    h[i] = v;
}

/* ---- lookup ------------------------------------------------------------ */

static size_t find(const mem_cache *c, uint64_t li)
{
    size_t base = (size_t)(li & c->set_mask) * c->g.ways;
    for (size_t w = base; w < base + c->g.ways; w++)
        if (c->tag[w] == li + 1)
            return w;
    return SIZE_MAX;
}

/* Choose and clear a way for line li at *t (which may move later when every
 * way is filling). */
static size_t allocate(mem_cache *c, uint64_t li, ps_t *t, uint8_t fill_flags,
                       const mem_cache_io *io, mem_cache_res *res)
{
    size_t set = (size_t)(li & c->set_mask), base = set * c->g.ways;
    size_t victim = SIZE_MAX, soonest = base;
    ps_t soonest_ps = PS_MAX;
    /* from the least recently used end: invalid ways, then clean of fills */
    for (uint32_t w = c->tail[set]; w != NIL; w = c->prev[base + w]) {
        size_t gw = base + w;
        if (!c->tag[gw] || c->busy[gw] <= *t) {
            victim = gw;
            break;
        }
        if (c->busy[gw] < soonest_ps) {
            soonest_ps = c->busy[gw];
            soonest = gw;
        }
    }
    if (victim == SIZE_MAX) {
        res->mshr_wait_ps += soonest_ps - *t;
        *t = soonest_ps;
        victim = soonest;
    }
    if (c->tag[victim]) {
        res->evicted = 1;
        if (c->dirty[victim]) {
            unsigned d = c->dirty[victim];
            res->wb_sectors += (unsigned)__builtin_popcount(d);
            if (io && io->writeback)
                io->writeback(io->ud, (c->tag[victim] - 1) << c->line_shift, d, *t);
        }
    }
    c->tag[victim] = li + 1;
    c->valid[victim] = 0;
    c->dirty[victim] = 0;
    c->flags[victim] = fill_flags;
    c->busy[victim] = 0;
    return victim;
}

ps_t mem_cache_read(mem_cache *c, uint64_t addr, unsigned smask, ps_t t, uint8_t fill_flags,
                    const mem_cache_io *io, mem_cache_res *res)
{
    uint64_t li = addr >> c->line_shift;
    smask &= (1u << c->spl) - 1;
    ps_t done = t;
    unsigned need = 0;
    size_t w = find(c, li);
    if (w == SIZE_MAX) {
        w = allocate(c, li, &t, fill_flags, io, res);
        done = t;
        need = smask;
    } else {
        for (unsigned s = 0; s < c->spl; s++) {
            if (!(smask >> s & 1))
                continue;
            if (c->valid[w] >> s & 1) {
                ps_t r = c->ready[w * c->spl + s];
                if (r <= t) {
                    res->hits++;
                } else {
                    res->merged++;
                    done = SK_MAX(done, r);
                }
            } else {
                need |= 1u << s;
            }
        }
    }
    lru_touch(c, w);
    if (need) {
        ps_t start = SK_MAX(t, c->mshr[0]);
        res->mshr_wait_ps += start - t;
        ps_t back = io && io->fetch ? io->fetch(io->ud, li << c->line_shift, need, start) : start;
        if (back < start)
            back = start;
        heap_replace_min(c->mshr, c->g.mshrs, back);
        for (unsigned s = 0; s < c->spl; s++)
            if (need >> s & 1)
                c->ready[w * c->spl + s] = back;
        c->valid[w] |= (uint8_t)need;
        c->busy[w] = SK_MAX(c->busy[w], back);
        res->misses += (unsigned)__builtin_popcount(need);
        done = SK_MAX(done, back);
    }
    return done;
}

int mem_cache_write(mem_cache *c, uint64_t addr, unsigned smask, ps_t t,
                    const mem_cache_io *io, mem_cache_res *res)
{
    uint64_t li = addr >> c->line_shift;
    smask &= (1u << c->spl) - 1;
    size_t w = find(c, li);
    int hit = w != SIZE_MAX;
    if (!hit) {
        if (!c->g.write_back)
            return 0;
        w = allocate(c, li, &t, 0, io, res);
    }
    lru_touch(c, w);
    for (unsigned s = 0; s < c->spl; s++) {
        if (!(smask >> s & 1))
            continue;
        ps_t *r = &c->ready[w * c->spl + s];
        if (!(c->valid[w] >> s & 1) || *r < t)
            *r = t;
        c->busy[w] = SK_MAX(c->busy[w], *r);
    }
    c->valid[w] |= (uint8_t)smask;
    if (c->g.write_back)
        c->dirty[w] |= (uint8_t)smask;
    return hit;
}

unsigned mem_cache_probe(const mem_cache *c, uint64_t addr, uint8_t *flags)
{
    size_t w = find(c, addr >> c->line_shift);
    if (w == SIZE_MAX)
        return 0;
    if (flags)
        *flags = c->flags[w];
    return c->valid[w];
}

int mem_cache_invalidate(mem_cache *c, uint64_t addr)
{
    size_t w = find(c, addr >> c->line_shift);
    if (w == SIZE_MAX)
        return 0;
    c->tag[w] = 0;
    c->valid[w] = c->dirty[w] = c->flags[w] = 0;
    lru_bottom(c, w);
    return 1;
}

void mem_cache_flush(mem_cache *c)
{
    memset(c->tag, 0, c->nlines * sizeof *c->tag);
    memset(c->valid, 0, c->nlines);
    memset(c->dirty, 0, c->nlines);
    memset(c->flags, 0, c->nlines);
    memset(c->mshr, 0, c->g.mshrs * sizeof *c->mshr);
    lru_reset(c);
}

uint64_t mem_cache_lines(const mem_cache *c, uint8_t flag, uint64_t *flagged)
{
    uint64_t n = 0, f = 0;
    for (size_t w = 0; w < c->nlines; w++) {
        if (c->tag[w] && c->valid[w]) {
            n++;
            f += (c->flags[w] & flag) != 0;
        }
    }
    if (flagged)
        *flagged = f;
    return n;
}
