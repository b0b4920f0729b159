/* l1.c -- one SM's L1 data cache, the first memory level its loads and
 * stores meet.
 *
 * Hopper's L1 and shared memory are one 256 KB array per SM; the driver
 * carves shared memory out of it per kernel in steps of 0, 8, 16, 32, 64,
 * 100, 132, 164, 196 or 228 KB (CUDA C++ Programming Guide, compute
 * capability 9.0; NVIDIA H100 whitepaper), and what is left is L1
 * (hier.c picks the step).  The L1 keeps its set count and changes its ways
 * with the carve-out, as GPGPU-Sim's adaptive L1 does.
 *
 * Loads: the warp's lanes are coalesced into lines and sectors
 * (coalesce.c); the lines go through the L1's data port one after another,
 * memory.l1.bytes_per_cycle of sectors per cycle, and each is looked up in
 * the sectored cache (cache.c) whose misses go to the next level through
 * memory.l1.mshrs MSHRs.  A hit's data are back memory.l1.hit_cycles after
 * its lookup; a miss's when the next level returns them.  A load flagged
 * MEM_F_BYPASS_L1 (ld.cg, volatile) is not looked up or kept, but still
 * needs an MSHR for its request (a pool of the same size).  The miss path
 * hands the next level one line's request at a time,
 * memory.l1.request_millicycles / 1000 SM cycles apart (E23: a warp load's
 * cost from the L2 grows with its lines, whatever its sectors: 1.6 cycles
 * a line beside the L2 routes' spread, l2.c hit_lat).
 *
 * The data a load brings from L2 (a miss's sectors, a bypassing load's)
 * enter the SM through its port of memory.l1.l2_port_gbps (0: unlimited),
 * a bandwidth server per SM: E18 measured the L2-resident read of 66 SMs
 * at 3.88 TB/s, half of 132 SMs' 7.74, so the limit is per SM (58.8 GB/s),
 * not the slices'.  Stores' data are not charged on it.
 *
 * Stores are write-through and allocate nothing (Jia et al. 2018 for Volta;
 * the model for Hopper): a store updates the line if present, goes
 * on to the next level, and is done, for the SM, once the port has taken
 * it.  Each line stored takes a request entry (memory.l1.mshrs of them)
 * until the L2 took it; its data leave the SM over the SM's request port,
 * memory.l1.store_bytes_per_cycle (0: unlimited), one line after another
 * (E22: one SM writes at 63.2 GB/s from 4 warps to 32, to HBM or into the
 * L2, 31.9 B a cycle at 1980 MHz, and 2 to 8 SMs each the same).
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"
#include "mem_internal.h"

typedef struct l1_state {
    int sm;
    mem_cache *c;                 /* NULL: no L1 left after the carve-out */
    mem_cache_geom g;             /* ways is per capacity (or of the whole array) */
    int whole_tags;               /* memory.l1.whole_tags */
    uint64_t unified_bytes;       /* memory.l1.unified_bytes */
    uint64_t data_reserve;        /* memory.l1.data_reserve_bytes */
    ps_t *bypass_mshr;            /* min-heap of free times, g.mshrs */
    ps_t *store_slot;             /* stores on their way to the L2: min-heap of the times
                                     the L2 took them, g.mshrs */
    ps_t store_drain_ps;          /* the latest time the L2 took one of its stores */
    ps_t store_port_free;         /* the request port is busy with store data until then */
    ps_t store_port_ps[9];        /* its time for n = 0..8 sectors (0: unlimited) */
    int store_bytes_per_cycle;
    int request_millicycles;      /* memory.l1.request_millicycles */
    ps_t req_ps;                  /* request_millicycles at the current clock */
    ps_t req_free_ps;             /* the miss path takes its next line's request then */
    ps_t port_free_ps;
    uint64_t fs_per_cycle;
    int hit_cycles, bytes_per_cycle;
    ps_t hit_ps;                  /* hit_cycles at the current clock */
    ps_t port_ps[9];              /* the data port's time for n = 0..8 sectors of a line */
    mem_level *next;
    mem_stats *stats;
    mem_bw port;                  /* L2 -> SM data, when port_on */
    int port_on;
    mem_vta *vta;                 /* CCWS's victim tags (sm.warp_policy: ccws), else NULL */
    unsigned sent;                /* requests sent on for the current warp access */
} l1_state;

/* ---- CCWS's victim tag arrays (memsys.h, mem_vta) ---------------------
 * Only with sm.warp_policy: ccws; otherwise l1_access pays one test of a
 * NULL pointer per line of a cached load.  After a read that allocated a
 * way (a tag miss): look the line up in the requesting warp's VTA (a hit
 * is lost locality), hand the evicted line, if any, to the VTA of the warp
 * that allocated it, and make the requester the way's owner. */
static void vta_note(mem_vta *v, unsigned warp, uint64_t line, const mem_cache_res *res)
{
    if (!res->way1 || warp >= (unsigned)v->nwarps || res->way1 > v->nways)
        return;
    uint64_t *t = &v->tag[(size_t)warp * (size_t)v->entries];
    for (int k = 0; k < v->entries; k++)
        if (t[k] == line + 1) {
            t[k] = 0;
            v->hits[warp]++;
            break;
        }
    size_t way = res->way1 - 1;
    if (res->evicted) {
        unsigned o = v->owner[way];
        uint64_t *ot = &v->tag[(size_t)o * (size_t)v->entries];
        ot[v->next[o]] = res->evicted_addr + 1;
        v->next[o] = (uint8_t)((v->next[o] + 1) % v->entries);
    }
    v->owner[way] = (uint16_t)warp;
}

static mem_vta *vta_create(const cfg *c)
{
    mem_vta *v = xcalloc(1, sizeof *v);
    v->nwarps = c->max_warps;
    v->entries = c->ccws_vta_entries;
    v->base_score = c->ccws_base_score;
    v->score_inc = c->ccws_score_inc;
    v->decay = c->ccws_decay;
    size_t n = (size_t)v->nwarps;
    v->tag = xcalloc(n * (size_t)v->entries, sizeof *v->tag);
    v->next = xcalloc(n, sizeof *v->next);
    v->hits = xcalloc(n, sizeof *v->hits);
    v->score = xcalloc(n, sizeof *v->score);
    v->seen = xcalloc(n, sizeof *v->seen);
    v->age = xcalloc(n, sizeof *v->age);
    for (size_t i = 0; i < n; i++) {
        v->score[i] = v->base_score;
        v->age[i] = UINT64_MAX;
    }
    return v;
}

static void vta_destroy(mem_vta *v)
{
    if (!v)
        return;
    free(v->tag);
    free(v->next);
    free(v->hits);
    free(v->owner);
    free(v->score);
    free(v->seen);
    free(v->age);
    free(v);
}

/* The L1 was emptied (a flush, a new carve-out): so are the victim tags. */
static void vta_reset(mem_vta *v, size_t nways)
{
    memset(v->tag, 0, (size_t)v->nwarps * (size_t)v->entries * sizeof *v->tag);
    memset(v->next, 0, (size_t)v->nwarps * sizeof *v->next);
    if (nways != v->nways) {
        free(v->owner);
        v->owner = xcalloc(nways ? nways : 1, sizeof *v->owner);
        v->nways = nways;
    } else if (nways) {
        memset(v->owner, 0, nways * sizeof *v->owner);
    }
}

static const mem_level_ops l1_ops;   /* defined below */

mem_vta *mem_l1_vta(const mem_level *l)
{
    return l && l->ops == &l1_ops ? ((const l1_state *)l->st)->vta : NULL;
}

static ps_t fetch_next(void *ud, uint64_t line_addr, unsigned smask, ps_t t)
{
    l1_state *s = ud;
    uint64_t a[32];   /* only the lanes in r.mask are read */
    mem_req r = { 0 };
    int n = 0;
    for (unsigned k = 0; k < 8; k++)
        if (smask >> k & 1) {
            a[n] = line_addr + k * s->g.sector_bytes;
            r.mask |= 1u << n;
            n++;
        }
    r.sm = s->sm;
    r.op = MEM_LOAD;
    r.flags = s->sent++ ? MEM_F_SAME_ACCESS : 0;
    r.lane_bytes = (uint8_t)s->g.sector_bytes;
    r.addr = a;
    r.bytes = (uint64_t)n * s->g.sector_bytes;
    /* the miss path sends one line's request at a time (E23) */
    if (s->req_ps) {
        t = SK_MAX(t, s->req_free_ps);
        s->req_free_ps = t + s->req_ps;
    }
    r.t = t;
    ps_t back = s->next ? mem_access(s->next, &r) : t;
    return s->port_on ? mem_bw_take(&s->port, back, r.bytes) : back;
}

/* Returns when the L2 took the store (l2.c: its slice wrote it). */
static ps_t store_next(l1_state *s, uint64_t line_addr, unsigned smask, ps_t t)
{
    uint64_t a[32];   /* only the lanes in r.mask are read */
    mem_req r = { 0 };
    int n = 0;
    for (unsigned k = 0; k < 8; k++)
        if (smask >> k & 1) {
            a[n] = line_addr + k * s->g.sector_bytes;
            r.mask |= 1u << n;
            n++;
        }
    r.sm = s->sm;
    r.op = MEM_STORE;
    r.flags = s->sent++ ? MEM_F_SAME_ACCESS : 0;
    r.lane_bytes = (uint8_t)s->g.sector_bytes;
    r.addr = a;
    r.bytes = (uint64_t)n * s->g.sector_bytes;
    r.t = t;
    return s->next ? mem_access(s->next, &r) : t;
}

/* Take the MSHR that frees first, at t or later: returns the start time;
 * the caller sets the new free time with heap_set_top(). */
static void heap_set_top(ps_t *h, size_t n, ps_t v)
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

static ps_t l1_access(mem_level *l, const mem_req *r)
{
    l1_state *s = l->st;
    mem_stats *st = &s->stats[s->sm];
    if (!r->addr && r->span_end <= r->span_first) {
        /* bytes only: nothing to look up; the next level sees it as is */
        uint64_t sec = (r->bytes + s->g.sector_bytes - 1) / s->g.sector_bytes;
        ps_t d = s->next ? mem_access(s->next, r) : r->t;
        if (r->op == MEM_LOAD) {
            st->load_reqs++;
            st->l1_bypass += sec;
            st->load_latency_ps += (uint64_t)(d - r->t);
        } else {
            st->store_reqs++;
            st->st_sectors += sec;
        }
        return r->op == MEM_LOAD ? d : r->t;
    }
    mem_lines ls;
    s->sent = 0;
    if (r->span_end > r->span_first)
        mem_coalesce_range(r->span_first, r->span_end, s->g.line_bytes, s->g.sector_bytes, &ls);
    else
        mem_coalesce(r->addr, r->mask, r->lane_bytes, s->g.line_bytes, s->g.sector_bytes, &ls);
    ps_t at = SK_MAX(r->t, s->port_free_ps);
    ps_t hit_ps = s->hit_ps;
    ps_t done = r->t;
    mem_cache_io io = { fetch_next, NULL, s };
    for (int i = 0; i < ls.n; i++) {
        unsigned n = (unsigned)mem_nsectors(ls.smask[i]);
        if (r->op == MEM_STORE) {
            st->st_sectors += n;
            if (s->c) {
                mem_cache_res res = { 0 };
                mem_cache_write(s->c, ls.line[i], ls.smask[i], at, NULL, &res);
            }
            /* a store holds a request entry until the L2 took it; with
             * none free the L1 (and its port) waits for the first to free:
             * the backpressure that holds the SM's stores to what the L2
             * and HBM behind it take (docs/memory.md) */
            ps_t start = SK_MAX(at, s->store_slot[0]);
            st->l1_store_wait_ps += (uint64_t)(start - at);
            at = start;
            /* its data go out over the request port, in the SM's order */
            ps_t sent = at;
            if (s->store_bytes_per_cycle > 0) {
                sent = SK_MAX(at, s->store_port_free) + s->store_port_ps[n];
                s->store_port_free = sent;
            }
            ps_t took = store_next(s, ls.line[i], ls.smask[i], sent);
            heap_set_top(s->store_slot, s->g.mshrs, took);
            s->store_drain_ps = SK_MAX(s->store_drain_ps, took);
        } else if (!s->c || (r->flags & MEM_F_BYPASS_L1)) {
            st->l1_bypass += n;
            ps_t start = SK_MAX(at, s->bypass_mshr[0]);
            st->l1_mshr_wait_ps += (uint64_t)(start - at);
            ps_t back = fetch_next(s, ls.line[i], ls.smask[i], start);
            heap_set_top(s->bypass_mshr, s->g.mshrs, back);
            done = SK_MAX(done, back);
        } else {
            mem_cache_res res = { 0 };
            ps_t ready = mem_cache_read(s->c, ls.line[i], ls.smask[i], at, 0, &io, &res);
            st->l1_sectors += n;
            st->l1_hits += res.hits;
            st->l1_merged += res.merged;
            st->l1_misses += res.misses;
            st->l1_mshr_wait_ps += (uint64_t)res.mshr_wait_ps;
            if (s->vta)
                vta_note(s->vta, r->warp, ls.line[i], &res);
            done = SK_MAX(done, SK_MAX(ready, at + hit_ps));
        }
        at += s->port_ps[n];
    }
    s->port_free_ps = at;
    if (r->op == MEM_STORE) {
        st->store_reqs++;
        return at;
    }
    st->load_reqs++;
    st->load_latency_ps += (uint64_t)(done - r->t);
    return done;
}

static void l1_destroy(mem_level *l)
{
    l1_state *s = l->st;
    mem_cache_destroy(s->c);
    vta_destroy(s->vta);
    free(s->bypass_mshr);
    free(s->store_slot);
    if (s->port_on)
        mem_bw_free(&s->port);
    free(s);
    free(l);
}

static const mem_level_ops l1_ops = { "l1", l1_access, NULL, l1_destroy };

void mem_l1_resize(mem_level *l, uint64_t l1_bytes, int flush)
{
    l1_state *s = l->st;
    uint64_t per_way = (uint64_t)s->g.sets * s->g.line_bytes;
    uint32_t ways = (uint32_t)(l1_bytes / per_way), cap = 0;
    if (s->whole_tags) {
        /* the tags span the whole array; the carve-out and the reserve
         * limit the lines with data (E41) */
        uint64_t data = l1_bytes > s->data_reserve ? l1_bytes - s->data_reserve : 0;
        cap = (uint32_t)(data / s->g.line_bytes);
        ways = cap ? (uint32_t)(s->unified_bytes / per_way) : 0;
    }
    if (s->vta && (flush || !s->c || s->g.ways != ways || s->g.cap_lines != cap))   /* the lines go, so do their tags */
        vta_reset(s->vta, (size_t)s->g.sets * ways);
    if (s->c && s->g.ways == ways && s->g.cap_lines == cap) {
        if (flush)
            mem_cache_flush(s->c);
        return;
    }
    mem_cache_destroy(s->c);
    s->c = NULL;
    s->g.ways = ways;
    s->g.cap_lines = cap;
    if (ways > 0)
        s->c = mem_cache_create(&s->g);
}

ps_t mem_l1_store_drain(const mem_level *l)
{
    const l1_state *s = l->st;
    return s->store_drain_ps;
}

/* n sectors through a port of bytes_per_cycle at the current clock */
static ps_t sectors_ps(const l1_state *s, unsigned n, int bytes_per_cycle)
{
    return (ps_t)((uint64_t)n * s->g.sector_bytes * s->fs_per_cycle / (uint64_t)bytes_per_cycle / 1000);
}

void mem_l1_set_mhz(mem_level *l, int mhz)
{
    l1_state *s = l->st;
    s->fs_per_cycle = 1000000000ull / (uint64_t)(mhz > 0 ? mhz : 1);
    /* per request these were two divisions a line: the same formulas, once
     * per clock change */
    s->hit_ps = (ps_t)((uint64_t)s->hit_cycles * s->fs_per_cycle / 1000);
    s->req_ps = (ps_t)((uint64_t)s->request_millicycles * s->fs_per_cycle / 1000000);
    for (unsigned n = 0; n < SK_ARRAY_LEN(s->port_ps); n++) {
        s->port_ps[n] = sectors_ps(s, n, s->bytes_per_cycle);
        s->store_port_ps[n] = s->store_bytes_per_cycle > 0 ? sectors_ps(s, n, s->store_bytes_per_cycle) : 0;
    }
}

mem_level *mem_l1_create(const cfg *c, int sm, uint64_t l1_bytes, mem_level *next,
                         mem_stats *stats)
{
    l1_state *s = xcalloc(1, sizeof *s);
    s->sm = sm;
    s->g.sets = (uint32_t)c->l1_sets;
    s->g.hash_index = c->l1_set_hash;
    s->g.cap_seed = 0x9E3779B97F4A7C15ull * (uint64_t)(sm + 1);   /* each SM's own draws */
    s->whole_tags = c->l1_whole_tags;
    s->unified_bytes = (uint64_t)c->l1_unified_bytes;
    s->data_reserve = (uint64_t)c->l1_data_reserve_bytes;
    s->g.line_bytes = (uint32_t)c->l1_line_bytes;
    s->g.sector_bytes = (uint32_t)c->l1_sector_bytes;
    s->g.mshrs = (uint32_t)c->l1_mshrs;
    s->g.write_back = 0;
    s->bypass_mshr = xcalloc(s->g.mshrs, sizeof *s->bypass_mshr);
    s->store_slot = xcalloc(s->g.mshrs, sizeof *s->store_slot);
    s->hit_cycles = c->l1_hit_cycles;
    s->bytes_per_cycle = c->l1_bytes_per_cycle;
    s->store_bytes_per_cycle = c->l1_store_bytes_per_cycle;
    s->request_millicycles = c->l1_request_millicycles;
    s->next = next;
    s->stats = stats;
    if (c->l1_l2_port_gbps > 0) {
        /* 1 GB/s = 1e6 fs per byte; calendar slots as the L2 slices' (l2.c) */
        mem_bw_init(&s->port, 1000000ull / (uint64_t)c->l1_l2_port_gbps, 16000, 512);
        s->port_on = 1;
    }
    if (c->warp_policy == WARP_CCWS)
        s->vta = vta_create(c);
    mem_level *l = xcalloc(1, sizeof *l);
    l->ops = &l1_ops;
    l->next = next;
    l->st = s;
    mem_l1_set_mhz(l, c->sm_mhz);
    mem_l1_resize(l, l1_bytes, 1);
    return l;
}
