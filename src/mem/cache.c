/* cache.c -- a sectored, set-associative, LRU cache with finite MSHRs, timed
 * as the requests arrive.
 *
 * The model.  A line of line_bytes holds line/sector sectors; each sector
 * is valid or not, dirty or not, and, while a fill is in flight, carries
 * the time its data arrive (its fill time, kept in the line's MSHR).  GPUs allocate and tag whole lines but move sectors (Volta and
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
 * Replacement is LRU by a per-cache access stamp.  A victim is an invalid
 * way if there is one, else the least recently used way with no fill in
 * flight; when every way is still filling, the request waits until the
 * first of those fills lands (a reservation failure on real hardware).
 *
 * Layout.  A line is 16 bytes (tag and flags, LRU stamp, MSHR index, valid
 * and dirty masks), the ways of a set side by side, so the 60 MB H200 L2 is
 * 7.5 MB of tags that a lookup reads a few host cache lines of.  Fill times
 * live only in the MSHRs, as on the chip: a line points to the MSHR that
 * last filled it, and a sector is in flight while that MSHR's time for it
 * lies ahead.  Sector misses to a line whose MSHR is still busy merge into
 * it (one MSHR per line, as GPU L1s track sectors).
 *
 * Left out: per-MSHR merge limits, partial-sector (byte-masked) writes,
 * and tag/data-bank conflicts inside the array (the levels charge port
 * bandwidth instead).
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"
#include "mem_internal.h"

#define NIL 0xffffu
#define TAG_MASK ((1ull << 56) - 1)

typedef struct cline {
    uint64_t tagf;              /* line index + 1 in bits 0-55 (0 = invalid), fill_flags above */
    uint32_t stamp;             /* LRU: last use */
    uint16_t mshr;              /* MSHR that filled it last, or NIL */
    uint8_t valid, dirty;       /* sector masks */
} cline;

/* Two bits of tagf's top byte count a line's dirty reprieves
 * (mem_cache_geom.dirty_reprieve); no fill flag a caller passes uses them. */
#define LINE_REPRIEVE_ONE 0x04
#define LINE_REPRIEVES 0x0C

/* The fill_flags a line was allocated with (tagf's top byte). */
static inline uint8_t line_flags(const cline *l)
{
    return (uint8_t)(l->tagf >> 56);
}

typedef struct mshr {
    ps_t free_ps;               /* busy until: the last of its fills */
    ps_t ready[8];              /* per sector of its line */
    size_t gw;                  /* its line's way, or SIZE_MAX when the line left */
    uint32_t pos;               /* its place in the heap */
} mshr;

struct mem_cache {
    mem_cache_geom g;
    unsigned spl;               /* sectors per line */
    unsigned line_shift;
    uint64_t set_mask;
    size_t nlines;
    cline *line;                /* sets * ways, set-major */
    uint16_t *sig;              /* per line: a 16-bit hash of its tag, 0 when invalid, so
                                   that a lookup scans 2 bytes a way, not 16 */
    uint32_t clock;
    size_t nvalid;              /* valid lines (g.cap_lines) */
    uint64_t rng;               /* xorshift64 state of cap_lines' draws */
    uint16_t *gh_lo, *gh_hi;    /* hash_index 2: set bits by block-number bits 0-11, 12-19 */
    mshr *m;                    /* g.mshrs entries */
    uint16_t *heap;             /* min-heap of entries by free_ps ... */
    ps_t *key;                  /* ... whose free_ps, side by side, the heap compares */
};

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
    if (g->mshrs < 1 || g->mshrs >= NIL)
        return "expected 1..65534 MSHRs";
    if (g->drop_bit > 56)
        return "expected a dropped set-index bit of 0..55";
    if (g->dirty_reprieve > MEM_CACHE_MAX_REPRIEVE)
        return "expected at most 3 dirty reprieves";
    if (g->reprieve_place > 1)
        return "expected a reprieve place of 0 (median) or 1 (hashed)";
    if (g->hash_index == 2 && (g->sets != MEM_CACHE_GH100_SETS || g->line_bytes != 128))
        return "expected 512 sets of 128-byte lines for the measured GH100 index";
    if (g->cap_lines && g->write_back)
        return "expected a write-through cache for a data limit (cap_lines)";
    return "";
}

/* ---- MSHR heap --------------------------------------------------------- */

static void heap_swap(mem_cache *c, uint32_t a, uint32_t b)
{
    uint16_t x = c->heap[a];
    ps_t k = c->key[a];
    c->heap[a] = c->heap[b];
    c->key[a] = c->key[b];
    c->heap[b] = x;
    c->key[b] = k;
    c->m[c->heap[a]].pos = a;
    c->m[c->heap[b]].pos = b;
}

/* Entry at heap place i got a later free time: move it down. */
static void heap_down(mem_cache *c, uint32_t i)
{
    uint32_t n = c->g.mshrs;
    c->key[i] = c->m[c->heap[i]].free_ps;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, k = i;
        if (l < n && c->key[l] < c->key[k])
            k = l;
        if (r < n && c->key[r] < c->key[k])
            k = r;
        if (k == i)
            return;
        heap_swap(c, i, k);
        i = k;
    }
}

static void mshr_reset(mem_cache *c)
{
    for (uint32_t i = 0; i < c->g.mshrs; i++) {
        memset(&c->m[i], 0, sizeof c->m[i]);
        c->m[i].gw = SIZE_MAX;
        c->m[i].pos = i;
        c->heap[i] = (uint16_t)i;
        c->key[i] = 0;
    }
}

/* GH100's L1 set index (hash_index 2), measured on H100s by
 * tools/capture/cap_l1set.cu (E41, validation/h100/README.md; docs/memory.md
 * "L1").  A line's 128-byte index is l (its place in its 4 KiB block, 5
 * bits) and b (the block's number).  Its set is g x 32 + (l XOR d): g, one
 * of 16 groups of 32 sets, is a 4-bit linear function of b, and d a 5-bit
 * one, each output bit the parity of b under a mask.  The masks over b's
 * bits 0-11 (the first 16 MiB of a buffer) reproduce every group and offset
 * the captures found and E40b's 84 walks within 16 MiB exactly; of bits
 * 12-19 only the group each moves to was measured (one board: GH_GROUP_HI),
 * not its offset (taken 0), and bits 20 up are folded onto 0-19
 * (assumed: the chip hashes physical addresses, which no capture saw). */
static const uint32_t GH_GROUP_MASK[4] = { 0x81A, 0xE04, 0x555, 0x0D6 };
static const uint32_t GH_OFFSET_MASK[5] = { 0x7B0, 0x860, 0xC40, 0xDA0, 0x570 };
static const uint8_t GH_GROUP_HI[8] = { 15, 3, 13, 6, 5, 13, 3, 1 };

static unsigned parity32(uint32_t x)
{
    return (unsigned)__builtin_parity(x);
}

static void gh_tables(mem_cache *c)
{
    c->gh_lo = xcalloc(4096, sizeof *c->gh_lo);
    c->gh_hi = xcalloc(256, sizeof *c->gh_hi);
    for (uint32_t b = 0; b < 4096; b++) {
        unsigned gr = 0, d = 0;
        for (int i = 0; i < 4; i++)
            gr |= parity32(b & GH_GROUP_MASK[i]) << i;
        for (int i = 0; i < 5; i++)
            d |= parity32(b & GH_OFFSET_MASK[i]) << i;
        c->gh_lo[b] = (uint16_t)(gr << 5 | d);
    }
    for (uint32_t k = 0; k < 256; k++) {
        unsigned gr = 0;
        for (int i = 0; i < 8; i++)
            if (k >> i & 1)
                gr ^= GH_GROUP_HI[i];
        c->gh_hi[k] = (uint16_t)(gr << 5);
    }
}

static size_t gh_set(const mem_cache *c, uint64_t li)
{
    uint64_t b = li >> 5;
    uint32_t x = (uint32_t)(b & 0xFFFFF);
    for (uint64_t hi = b >> 20; hi; hi >>= 20)
        x ^= (uint32_t)(hi & 0xFFFFF);
    return (size_t)((c->gh_lo[x & 4095] ^ c->gh_hi[x >> 12]) ^ (li & 31));
}

mem_cache *mem_cache_create(const mem_cache_geom *g)
{
    mem_cache *c = xcalloc(1, sizeof *c);
    c->g = *g;
    c->spl = g->line_bytes / g->sector_bytes;
    c->line_shift = mem_log2(g->line_bytes);
    c->set_mask = g->sets - 1;
    c->nlines = (size_t)g->sets * g->ways;
    c->line = xcalloc(c->nlines, sizeof *c->line);
    c->sig = xcalloc(c->nlines, sizeof *c->sig);
    for (size_t w = 0; w < c->nlines; w++)
        c->line[w].mshr = NIL;
    c->m = xcalloc(g->mshrs, sizeof *c->m);
    c->heap = xcalloc(g->mshrs, sizeof *c->heap);
    c->key = xcalloc(g->mshrs, sizeof *c->key);
    c->rng = g->cap_seed | 1;
    if (g->hash_index == 2)
        gh_tables(c);
    mshr_reset(c);
    return c;
}

void mem_cache_destroy(mem_cache *c)
{
    if (!c)
        return;
    free(c->line);
    free(c->sig);
    free(c->m);
    free(c->heap);
    free(c->key);
    free(c->gh_lo);
    free(c->gh_hi);
    free(c);
}

const mem_cache_geom *mem_cache_geometry(const mem_cache *c)
{
    return &c->g;
}

/* ---- lookup ------------------------------------------------------------ */

static uint16_t sig_of(uint64_t li)
{
    return (uint16_t)((li * 0x9E3779B97F4A7C15ull) >> 48) | 1;
}

/* The first way of line li's set (geometry's hash_index, drop_bit, scatter
 * and set_div). */
static size_t set_base(const mem_cache *c, uint64_t li)
{
    uint64_t x = li;
    /* The H200's L1 hash is not published; E20b's curve is that of a
     * random-like one, so a full 64-bit mix (splitmix64's finaliser,
     * Steele et al., OOPSLA 2014): a plain multiplicative hash spreads
     * consecutive lines too evenly (its top bits) or in stripes (middle
     * bits) */
    if (c->g.hash_index == 2)
        return gh_set(c, li) * c->g.ways;
    if (c->g.hash_index)
        return (size_t)(sk_mix64(li) & c->set_mask) * c->g.ways;
    if (c->g.drop_bit)
        x = mem_squeeze(x, c->g.drop_bit - 1);
    x = mem_place(x, c->g.scatter_ppm, c->g.scatter_mask);
    if (c->g.set_div > 1)
        x /= c->g.set_div;
    return (size_t)(x & c->set_mask) * c->g.ways;
}

static size_t find(const mem_cache *c, uint64_t li)
{
    size_t base = set_base(c, li);
    uint64_t want = li + 1;
    uint16_t sg = sig_of(li);
    size_t end = base + c->g.ways, w = base;
    /* four signatures a step (SWAR): a lane of x is zero where the
     * signature matches; the borrow trick may flag a lane above a true
     * match, never miss one, and every flagged way is checked in full, in
     * way order, so the way found is the one the plain scan finds */
    const uint64_t ones = 0x0001000100010001ull, highs = 0x8000800080008000ull;
    uint64_t pat = (uint64_t)sg * ones;
    for (; w + 4 <= end; w += 4) {
        uint64_t v;
        memcpy(&v, &c->sig[w], sizeof v);
        uint64_t x = v ^ pat;
        uint64_t hit = (x - ones) & ~x & highs;
        while (hit) {
            size_t k = w + (size_t)(__builtin_ctzll(hit) >> 4);
            if (c->sig[k] == sg && (c->line[k].tagf & TAG_MASK) == want)
                return k;
            hit &= hit - 1;
        }
    }
    for (; w < end; w++)
        if (c->sig[w] == sg && (c->line[w].tagf & TAG_MASK) == want)
            return w;
    return SIZE_MAX;
}

/* The time line w's fills are all in: 0 when none is in flight. */
static ps_t busy(const mem_cache *c, size_t w)
{
    uint16_t k = c->line[w].mshr;
    return k == NIL ? 0 : c->m[k].free_ps;
}

static void touch(mem_cache *c, size_t w)
{
    if (++c->clock == UINT32_MAX) {
        /* renumber rather than wrap: halving keeps the order */
        for (size_t i = 0; i < c->nlines; i++)
            c->line[i].stamp >>= 1;
        c->clock >>= 1;
    }
    c->line[w].stamp = c->clock;
}

/* The LRU stamps of the valid ways of w's set other than w and those with
 * a flag in skip, ascending, into st (at most 64: past that, not an L2 we
 * configure, the first 64 stand for the set); returns how many. */
static unsigned set_stamps(const mem_cache *c, size_t w, uint8_t skip, uint32_t st[64])
{
    size_t base = w - w % c->g.ways;
    unsigned n = 0;
    for (size_t i = base; i < base + c->g.ways && n < 64; i++) {
        if (i == w || !c->sig[i] || line_flags(&c->line[i]) & skip)
            continue;
        uint32_t v = c->line[i].stamp;
        unsigned k = n++;
        while (k > 0 && st[k - 1] > v) {  /* insertion sort: a set's ways */
            st[k] = st[k - 1];
            k--;
        }
        st[k] = v;
    }
    return n;
}

/* The median LRU stamp of the valid ways of w's set other than w (0 when
 * there is none): a line given it has as many of them older as younger,
 * to within one (MEM_CACHE_MID).  Ties in stamp go to the lower way when a
 * victim is chosen. */
static uint32_t mid_stamp(const mem_cache *c, size_t w, uint8_t skip, unsigned *count)
{
    uint32_t st[64];
    unsigned n = set_stamps(c, w, skip, st);
    *count = n;
    return n ? st[n / 2] : 0;
}

/* Where a dirty line at way w, due for eviction, goes for its reprieve:
 * the median age of its set's other lines (reprieve_place 0), or the age
 * of one of them drawn uniformly (1) by a hash of the line's index and the
 * reprieves it has had, so that the same address meets the same draw in
 * every run and a second reprieve draws anew. */
static uint32_t reprieve_stamp(const mem_cache *c, size_t w, unsigned used)
{
    uint32_t st[64];
    unsigned n;
    if (!c->g.reprieve_place)
        return mid_stamp(c, w, 0, &n);
    if ((n = set_stamps(c, w, 0, st)) == 0)
        return 0;
    uint64_t li = (c->line[w].tagf & TAG_MASK) - 1;
    uint64_t h = sk_mix64(li ^ (uint64_t)used << 58) >> 32;
    return st[(h * n) >> 32];
}

/* Empty way w (its MSHR, if any, stays busy but forgets it). */
static void clear(mem_cache *c, size_t w)
{
    cline *l = &c->line[w];
    if (c->sig[w])
        c->nvalid--;
    if (l->mshr != NIL)
        c->m[l->mshr].gw = SIZE_MAX;
    memset(l, 0, sizeof *l);
    l->mshr = NIL;
    c->sig[w] = 0;
}

/* Among the `window` least recent ways of the set at base (every way
 * valid), the least recent that is clean (remote 0) or a home copy held
 * only for the other partition's replicas (remote 1: MEM_LINE_FOR_REMOTE);
 * `none` when no such way is there.  Ties in stamp rank by way, as the LRU
 * choice breaks them. */
static size_t window_victim(const mem_cache *c, size_t base, uint32_t window, int remote, size_t none)
{
    size_t best = SIZE_MAX;
    for (size_t w = base; w < base + c->g.ways; w++) {
        const cline *l = &c->line[w];
        int ok = remote ? (line_flags(l) & MEM_LINE_FOR_REMOTE) != 0 : !l->dirty;
        if (ok && (best == SIZE_MAX || l->stamp < c->line[best].stamp))
            best = w;
    }
    if (best == SIZE_MAX)
        return none;
    /* its rank in LRU order: the ways older than it */
    uint32_t older = 0, st = c->line[best].stamp;
    for (size_t w = base; w < base + c->g.ways; w++)
        older += c->line[w].stamp < st || (c->line[w].stamp == st && w < best);
    return older < window ? best : none;
}

/* The LRU way of the set at base, or an invalid one. */
static size_t lru_way(const mem_cache *c, size_t base)
{
    size_t victim = SIZE_MAX;
    for (size_t w = base; w < base + c->g.ways; w++) {
        if (!c->sig[w])
            return w;
        if (victim == SIZE_MAX || c->line[w].stamp < c->line[victim].stamp)
            victim = w;
    }
    return victim;
}

/* The data limit (g.cap_lines) is reached and a fill needs a line's room:
 * draw valid lines at random (xorshift64, the cache's own seeded state)
 * until one whose set has a line with no fill in flight (the set being
 * filled may be drawn too), and evict that set's least recent such line (E41: one inserted line costs lines
 * scattered over other groups, and the losses of sequential and random
 * cycles past the limit follow this draw; docs/memory.md "L1").  Gives up
 * after 64 draws (the fill then goes over the limit). */
static void evict_for_data(mem_cache *c, ps_t t)
{
    for (int tries = 0; tries < 64; tries++) {
        c->rng ^= c->rng << 13;
        c->rng ^= c->rng >> 7;
        c->rng ^= c->rng << 17;
        size_t w = (size_t)((c->rng >> 11) % c->nlines);
        if (!c->sig[w])
            continue;
        size_t b = w - w % c->g.ways, victim = SIZE_MAX;
        for (size_t k = b; k < b + c->g.ways; k++)
            if (c->sig[k] && busy(c, k) <= t && (victim == SIZE_MAX || c->line[k].stamp < c->line[victim].stamp))
                victim = k;
        if (victim != SIZE_MAX) {
            clear(c, victim);
            return;
        }
    }
}

/* Choose and clear a way for line li at *t (which may move later when every
 * way is filling). */
static size_t allocate(mem_cache *c, uint64_t li, ps_t *t, uint8_t fill_flags,
                       const mem_cache_io *io, mem_cache_res *res)
{
    size_t base = set_base(c, li);
    /* the LRU way, or an invalid one; only when that one is still filling
     * (rare) are the others' MSHRs looked at */
    size_t victim = lru_way(c, base);
    /* dirty_reprieve: a dirty victim with reprieves left goes back into
     * its set's LRU order instead (reprieve_stamp; each pass spends one of
     * a line's, so this ends) */
    if (c->g.dirty_reprieve)
        while (c->sig[victim] && c->line[victim].dirty) {
            unsigned used = (line_flags(&c->line[victim]) & LINE_REPRIEVES) / LINE_REPRIEVE_ONE;
            if (used >= c->g.dirty_reprieve)
                break;
            c->line[victim].tagf += (uint64_t)LINE_REPRIEVE_ONE << 56;
            c->line[victim].stamp = reprieve_stamp(c, victim, used);
            victim = lru_way(c, base);
        }
    /* clean_first: a dirty least recent line gives way to a clean one
     * near it; remote_first: then any but a home copy held for the other
     * partition's replicas gives way to such a copy near it */
    if (c->g.clean_first && c->sig[victim] && c->line[victim].dirty)
        victim = window_victim(c, base, c->g.clean_first, 0, victim);
    if (c->g.remote_first && c->sig[victim] && !(line_flags(&c->line[victim]) & MEM_LINE_FOR_REMOTE))
        victim = window_victim(c, base, c->g.remote_first, 1, victim);
    if (c->line[victim].tagf && busy(c, victim) > *t) {
        size_t soonest = base;
        ps_t soonest_ps = PS_MAX;
        victim = SIZE_MAX;
        for (size_t w = base; w < base + c->g.ways; w++) {
            ps_t b = busy(c, w);
            if (b <= *t) {
                if (victim == SIZE_MAX || c->line[w].stamp < c->line[victim].stamp)
                    victim = w;
            } else if (b < soonest_ps) {
                soonest_ps = b;
                soonest = w;
            }
        }
        if (victim == SIZE_MAX) {
            res->mshr_wait_ps += soonest_ps - *t;
            *t = soonest_ps;
            victim = soonest;
        }
    }
    cline *v = &c->line[victim];
    if (v->tagf) {
        res->evicted = 1;
        res->evicted_addr = ((v->tagf & TAG_MASK) - 1) << c->line_shift;   /* CCWS's VTA */
        if (v->dirty) {
            unsigned d = v->dirty;
            res->wb_sectors += (unsigned)mem_nsectors(d);
            if (io && io->writeback) {
                ps_t took = io->writeback(io->ud, ((v->tagf & TAG_MASK) - 1) << c->line_shift, d, *t);
                res->wb_ps = SK_MAX(res->wb_ps, took);
            }
        }
    }
    clear(c, victim);
    if (c->g.cap_lines && c->nvalid >= c->g.cap_lines)
        evict_for_data(c, *t);
    v->tagf = (li + 1) | (uint64_t)(fill_flags & (uint8_t)~LINE_REPRIEVES) << 56;
    c->sig[victim] = sig_of(li);
    c->nvalid++;
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
    int fresh = w == SIZE_MAX;
    if (fresh) {
        w = allocate(c, li, &t, fill_flags & (uint8_t)~(MEM_CACHE_NO_TOUCH | MEM_CACHE_MID | MEM_CACHE_KEEP_PLACE),
                     io, res);
        res->way1 = (uint32_t)w + 1;   /* CCWS's VTA (l1.c) */
        done = t;
        need = smask;
    } else {
        cline *l = &c->line[w];
        const mshr *e = l->mshr != NIL && c->m[l->mshr].free_ps > t ? &c->m[l->mshr] : NULL;
        unsigned v = l->valid & smask;
        need = smask & ~v;
        if (!e) {
            res->hits += (unsigned)mem_nsectors(v);
        } else {
            for (unsigned s = 0; s < c->spl; s++) {
                if (!(v >> s & 1))
                    continue;
                if (e->ready[s] <= t) {
                    res->hits++;
                } else {
                    res->merged++;
                    done = SK_MAX(done, e->ready[s]);
                }
            }
        }
    }
    if (fill_flags & MEM_CACHE_MID) {
        /* with MEM_LINE_FOR_REMOTE: the median of the lines this
         * partition's own reads used (replicate 5) */
        unsigned n;
        uint32_t m = mid_stamp(c, w, fill_flags & MEM_LINE_FOR_REMOTE, &n);
        if ((fill_flags & MEM_LINE_FOR_REMOTE) && n == 0)
            touch(c, w);
        else if (fresh || c->line[w].stamp < m)
            c->line[w].stamp = m;   /* half a use: as old as the set's median way */
    } else if (fill_flags & MEM_CACHE_KEEP_PLACE) {
        if (fresh)
            touch(c, w);
    } else if (fill_flags & MEM_CACHE_NO_TOUCH) {
        if (fresh)
            c->line[w].stamp = 0; /* inserted as the next victim; only an own read promotes it */
    } else if (fresh && (fill_flags & MEM_CACHE_FILL_LRU)) {
        c->line[w].stamp = 0;     /* inserted as the next victim; a hit promotes it */
    } else {
        touch(c, w);
        c->line[w].tagf &= ~((uint64_t)MEM_LINE_FOR_REMOTE << 56);   /* an own read */
    }
    if (need) {
        cline *l = &c->line[w];
        mshr *e;
        ps_t start;
        if (l->mshr != NIL && c->m[l->mshr].free_ps > t) {
            /* the line's MSHR is still busy: the new sectors join it */
            e = &c->m[l->mshr];
            start = t;
        } else {
            e = &c->m[c->heap[0]];
            start = SK_MAX(t, e->free_ps);
            res->mshr_wait_ps += start - t;
            if (e->gw != SIZE_MAX && c->line[e->gw].mshr == c->heap[0])
                c->line[e->gw].mshr = NIL;
            if (l->mshr != NIL)
                c->m[l->mshr].gw = SIZE_MAX;
            e->gw = w;
            e->free_ps = 0;
            l->mshr = c->heap[0];
        }
        ps_t back = io && io->fetch ? io->fetch(io->ud, li << c->line_shift, need, start) : start;
        if (back < start)
            back = start;
        for (unsigned s = 0; s < c->spl; s++)
            if (need >> s & 1)
                e->ready[s] = back;
        if (back > e->free_ps) {
            e->free_ps = back;
            heap_down(c, e->pos);
        }
        l->valid |= (uint8_t)need;
        res->misses += (unsigned)mem_nsectors(need);
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
    touch(c, w);
    /* a written sector is whole and valid now: any fill still on its way
     * for it merges into the written data (its time is left as it is) */
    c->line[w].valid |= (uint8_t)smask;
    if (c->g.write_back) {
        c->line[w].dirty |= (uint8_t)smask;
        c->line[w].tagf &= ~((uint64_t)LINE_REPRIEVES << 56);   /* a write re-arms its reprieves */
    }
    return hit;
}

unsigned mem_cache_probe(const mem_cache *c, uint64_t addr, uint8_t *flags)
{
    size_t w = find(c, addr >> c->line_shift);
    if (w == SIZE_MAX)
        return 0;
    if (flags)
        *flags = line_flags(&c->line[w]);
    return c->line[w].valid;
}

int mem_cache_update(mem_cache *c, uint64_t addr, unsigned smask)
{
    size_t w = find(c, addr >> c->line_shift);
    if (w == SIZE_MAX)
        return 0;
    c->line[w].valid |= (uint8_t)(smask & ((1u << c->spl) - 1));
    return 1;
}

void mem_cache_fill_clean(mem_cache *c, uint64_t addr, unsigned smask, ps_t t, uint8_t fill_flags,
                          const mem_cache_io *io, mem_cache_res *res)
{
    uint64_t li = addr >> c->line_shift;
    size_t w = find(c, li);
    if (w == SIZE_MAX)
        w = allocate(c, li, &t, fill_flags, io, res);
    touch(c, w);
    c->line[w].valid |= (uint8_t)(smask & ((1u << c->spl) - 1));
}

int mem_cache_invalidate(mem_cache *c, uint64_t addr)
{
    size_t w = find(c, addr >> c->line_shift);
    if (w == SIZE_MAX)
        return 0;
    clear(c, w);
    return 1;
}

void mem_cache_flush(mem_cache *c)
{
    c->nvalid = 0;
    memset(c->line, 0, c->nlines * sizeof *c->line);
    memset(c->sig, 0, c->nlines * sizeof *c->sig);
    for (size_t w = 0; w < c->nlines; w++)
        c->line[w].mshr = NIL;
    mshr_reset(c);
}

uint64_t mem_cache_lines(const mem_cache *c, uint8_t flag, uint64_t *flagged)
{
    uint64_t n = 0, f = 0;
    for (size_t w = 0; w < c->nlines; w++) {
        if (c->line[w].tagf && c->line[w].valid) {
            n++;
            f += (line_flags(&c->line[w]) & flag) != 0;
        }
    }
    if (flagged)
        *flagged = f;
    return n;
}
