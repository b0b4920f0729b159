/* l2.c -- the chip's L2: partitions of slices, the page hash that spreads
 * addresses over the partitions, the fabric between them, and replication
 * of remote lines.
 *
 * The measured chip (Fan et al., "Dissecting How Die Scaling Breaks GPU
 * Fine-grained Scheduling", arXiv:2609.24270, 2026; shared physics.md):
 * the H200's L2 is two partitions; 4 KB pages go to one or the other by an
 * XOR of 16 physical-address bits from bit 12; an SM's home partition is
 * the one its GPC sits by; an L2 hit takes 309 cycles from the home
 * partition and 466 from the other; remote lines are replicated into the
 * home partition, so the L2 holds less than its 60 MB of distinct data;
 * remote bandwidth is limited by the fabric between the halves.
 *
 * The model.  Each partition has slices_per_partition slices, each a
 * sectored write-back cache (cache.c) behind a bandwidth server (its data
 * port).  A line's partition is mem_partition_of() of its address (we take
 * physical = virtual: the trace gives virtual addresses and the page map is
 * not modelled); its slice, in whichever partition holds it, is
 * mem_slice_of() of its line index.  A load from SM s (home partition P) of
 * a line whose partition is Q:
 *
 *   Q = P      slice of P: hit, or fetch from HBM (a channel of P)
 *   Q != P     replication on: the slice of P is looked up first (a replica
 *              hit costs what a local hit does); missing sectors come over
 *              the fabric from Q's slice (which may fetch from HBM) and are
 *              kept in P as a replica.  Replication off: Q's slice serves it
 *              over the fabric and nothing is kept in P.
 *
 * Stores go to the line's own partition (write-back, sectors made dirty
 * there) and drop any replica elsewhere, so a replica is never stale or
 * dirty.  Dirty sectors go to HBM when their line is evicted.
 *
 * Latency.  mem_l2_geo gives, per SM and partition, the unloaded hit
 * latency: memory.l2.hit_ps plus the route from the SM to the partition's
 * centre and back at memory.l2.noc_ps_per_mm (hier.c derives the route from
 * the floorplan).  A remote access adds memory.l2.remote_ps, the fabric
 * crossing, and its data occupy the fabric's direction Q -> P for their
 * size at memory.l2.fabric_gbps.  Slice ports and the fabric are bw.c
 * calendars, which requests may reach out of time order.  Half of each latency is spent before the
 * slice is reached and half after, so queueing at a slice happens at the
 * time the request would be there.
 *
 * Left out: the crossbar's own contention (each SM's requests are limited
 * by its L1's MSHRs instead), the request packets' bandwidth (only data
 * are charged), the point of coherence for atomics, and compression.
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"
#include "mem_internal.h"

int mem_partition_of(uint64_t addr, int nparts, uint64_t mask, int frame_bit)
{
    if (nparts < 2)
        return 0;
    uint64_t low = frame_bit >= 64 ? ~0ull : (1ull << frame_bit) - 1;
    int p = __builtin_parityll(addr & mask & low);
    if (frame_bit < 64) {
        /* the frame's physical bits: a fixed pseudo-random bit per frame */
        uint64_t f = (addr >> frame_bit) * 0x9E3779B97F4A7C15ull;
        p ^= (int)(f >> 63);
    }
    return p;
}

int mem_slice_of(uint64_t line_index, int nslices)
{
    /* Fibonacci hashing, then Lemire's multiply-shift to reduce into
     * 0..nslices-1 without a modulo bias toward low slices. */
    uint64_t h = line_index * 0x9E3779B97F4A7C15ull;
    return (int)(((h >> 32) * (uint64_t)nslices) >> 32);
}

typedef struct l2_state {
    int nparts, nslices;          /* slices per partition */
    mem_cache **slice;            /* nparts * nslices */
    mem_bw *port;                 /* nparts * nslices slice data ports */
    mem_bw fabric[2][2];          /* [from][to] */
    ps_t remote_ps;
    int replicate;
    int write_local;              /* memory.l2.write_local */
    uint64_t hash_mask;
    int frame_bit;
    unsigned line_shift, sector_bytes;
    unsigned drop;                /* line-index bit + 1 the partition hash decides (0: none) */
    uint32_t scatter_ppm;         /* memory.l2.scatter_ppm (mem_place) */
    uint64_t scatter_mask;        /* its groups: line-index bits of address bits 7 and 9 */
    mem_l2_geo geo;
    mem_stats *stats;
    mem_level *next;
} l2_state;

/* What a miss needs to know to go on. */
typedef struct l2_ctx {
    l2_state *s;
    int sm, from, to;             /* remote fetch: slice of `to`, data back to `from` */
    int part;                     /* HBM fetch: partition whose channel serves it */
} l2_ctx;

/* The line's index among its partition's lines: the line index with the
 * bit squeezed out that the page hash decides (of two pages that differ in
 * only that bit, one is in each partition), so that the lines of a
 * contiguous range are contiguous in each partition. */
static uint64_t local_line(const l2_state *s, uint64_t addr)
{
    uint64_t li = addr >> s->line_shift;
    if (!s->drop)
        return li;
    return mem_squeeze(li, s->drop - 1);
}

/* Index of the slice (and of its data port) that holds addr in partition p:
 * lines go round the slices in order of their index within the partition,
 * and within a slice to its sets in the same order (the geometry's
 * drop_bit and set_div, mem_l2_create), so that any contiguous range of a
 * partition's lines fills every set of every slice to within one line.
 * The chip's slice and set hash is not published; E18b is why it is taken
 * as balanced: 24 MiB lists per partition (84 % of a 30 MB half) stay
 * L2-resident (6997 GB/s), where a random spread of lines over the
 * (slice, set) pairs overfills a quarter of the sets (docs/memory.md). */
static int slice_idx(const l2_state *s, int p, uint64_t addr)
{
    uint64_t x = mem_place(local_line(s, addr), s->scatter_ppm, s->scatter_mask);
    return p * s->nslices + (int)(x % (uint64_t)s->nslices);
}

/* The sectors smask of the line at line_addr, as a request of x's SM to HBM
 * (a load, or a write-back), at t. */
static ps_t hbm_req(const l2_ctx *x, enum mem_op op, uint64_t line_addr, unsigned smask, ps_t t)
{
    const l2_state *s = x->s;
    uint64_t a[32];   /* only the lanes in r.mask are read */
    mem_req r = { 0 };
    int n = 0;
    for (unsigned k = 0; k < 8; k++)
        if (smask >> k & 1) {
            a[n] = line_addr + k * s->sector_bytes;
            r.mask |= 1u << n;
            n++;
        }
    r.sm = x->sm;
    r.op = (uint8_t)op;
    r.lane_bytes = (uint8_t)s->sector_bytes;
    r.addr = a;
    r.bytes = (uint64_t)n * s->sector_bytes;
    r.t = t;
    return s->next ? mem_access(s->next, &r) : t;
}

static ps_t hbm_fetch(void *ud, uint64_t line_addr, unsigned smask, ps_t t)
{
    return hbm_req(ud, MEM_LOAD, line_addr, smask, t);
}

/* Returns when HBM took the sectors: its write queue had room (hbm.c). */
static ps_t hbm_writeback(void *ud, uint64_t line_addr, unsigned smask, ps_t t)
{
    const l2_ctx *x = ud;
    x->s->stats[x->sm].l2_writebacks += (uint64_t)mem_nsectors(smask);
    return hbm_req(x, MEM_STORE, line_addr, smask, t);
}

static void count(mem_stats *st, const mem_cache_res *res)
{
    st->l2_hits += res->hits;
    st->l2_merged += res->merged;
    st->l2_misses += res->misses;
}

/* Read smask of the line in partition q's slice at t (already there);
 * returns when the data leave the slice. */
static ps_t slice_read(l2_state *s, int sm, int q, uint64_t line, unsigned smask, ps_t t,
                       uint8_t flags, const mem_cache_io *io, mem_cache_res *res)
{
    int i = slice_idx(s, q, line);
    ps_t ready = mem_cache_read(s->slice[i], line, smask, t, flags, io, res);
    uint64_t bytes = (uint64_t)mem_nsectors(smask) * s->sector_bytes;
    (void)sm;
    return mem_bw_take(&s->port[i], ready, bytes);
}

/* Remote fill of a replica: from `from`'s slice miss, through the fabric to
 * `to`'s slice and back. */
static ps_t remote_fetch(void *ud, uint64_t line_addr, unsigned smask, ps_t t)
{
    l2_ctx *x = ud;
    l2_state *s = x->s;
    l2_ctx hx = { s, x->sm, 0, 0, x->to };
    mem_cache_io io = { hbm_fetch, hbm_writeback, &hx };
    mem_cache_res res = { 0 };
    ps_t half = s->remote_ps / 2;
    /* replicate 3: a read for a remote reader's replica neither promotes
     * the home copy nor, when it allocates it, puts it anywhere but next
     * to go: from now on the replica serves the reader, so the home copy's
     * place in LRU order is its own partition's use of it.  replicate 4:
     * it counts as half a use, the home copy going to the middle of its
     * set's LRU order (never older than it was): home copies read only
     * from the other side hold capacity while their replicas miss, and
     * age out once the replicas serve (docs/memory.md).  replicate 6: a
     * home copy it allocates is an ordinary most-recent line of its
     * partition, and a read that hits one leaves its LRU place: it ages
     * out once its replica serves, and takes its place in the set while
     * it does not (E37: one SM's far lines stay in their own half as well
     * as in the reader's; E36/E37: the all-SM stream falls to HBM near
     * 0.9 of the L2, not past it) */
    uint8_t fl = s->replicate == 3   ? MEM_CACHE_NO_TOUCH
                 : s->replicate == 4 ? MEM_CACHE_MID
                 : s->replicate == 5 ? MEM_CACHE_MID | MEM_LINE_FOR_REMOTE
                 : s->replicate == 6 ? MEM_CACHE_KEEP_PLACE | MEM_LINE_FOR_REMOTE
                                     : 0;
    ps_t out = slice_read(s, x->sm, x->to, line_addr, smask, t + half, fl, &io, &res);
    count(&s->stats[x->sm], &res);
    uint64_t bytes = (uint64_t)mem_nsectors(smask) * s->sector_bytes;
    s->stats[x->sm].fabric_sectors += (uint64_t)mem_nsectors(smask);
    s->stats[x->sm].noc_sector_um += (uint64_t)mem_nsectors(smask) * s->geo.fabric_um;
    ps_t f = mem_bw_take(&s->fabric[x->to][x->from], out, bytes);
    return f + (s->remote_ps - half);
}

/* The chip's L2 latency repeats for the two lines of a 256 B chunk and not
 * across chunks (E11's l2map, hier.c route_spread): a line's route class is
 * its chunk's. */
#define L2_ROUTE_CHUNK_SHIFT 8

/* The unloaded hit latency from SM sm through its home partition to the
 * slice of partition `to` that holds line, out and back: the floorplan's
 * route to the home partition, plus the GPC's own route to the line's
 * class there (memory.l2.route_spread_ps), never below 0. */
static ps_t hit_lat(const l2_state *s, int sm, int to, uint64_t line)
{
    ps_t lat = s->geo.lat_ps[sm * s->nparts + s->geo.home[sm]];
    if (s->geo.route_ps) {
        int k = mem_slice_of(line >> L2_ROUTE_CHUNK_SHIFT, s->geo.nroutes);
        lat += s->geo.route_ps[((size_t)sm * (size_t)s->nparts + (size_t)to) * (size_t)s->geo.nroutes + (size_t)k];
        lat = SK_MAX(lat, 0);
    }
    return lat;
}

static ps_t l2_load_line(l2_state *s, int sm, uint64_t line, unsigned smask, ps_t t)
{
    mem_stats *st = &s->stats[sm];
    int p = s->geo.home[sm];
    int q = mem_partition_of(line, s->nparts, s->hash_mask, s->frame_bit);
    unsigned n = (unsigned)mem_nsectors(smask);
    ps_t lat = hit_lat(s, sm, q == p || s->replicate ? p : q, line), half = lat / 2;
    st->l2_sectors += n;
    st->noc_sector_um += (uint64_t)n * s->geo.dist_um[sm * s->nparts + p];
    mem_cache_res res = { 0 };
    ps_t out;
    if (q == p) {
        st->l2_local += n;
        l2_ctx hx = { s, sm, 0, 0, p };
        mem_cache_io io = { hbm_fetch, hbm_writeback, &hx };
        out = slice_read(s, sm, p, line, smask, t + half, 0, &io, &res);
        count(st, &res);
    } else if (s->replicate) {
        st->l2_remote += n;
        /* the victim may be a dirty home line of p: hbm_writeback finds
         * its channel from its address, whatever the context */
        l2_ctx rx = { s, sm, p, q, q };
        mem_cache_io io = { remote_fetch, hbm_writeback, &rx };
        uint8_t fl = MEM_LINE_REPLICA | (s->replicate == 2 ? MEM_CACHE_FILL_LRU : 0);
        out = slice_read(s, sm, p, line, smask, t + half, fl, &io, &res);
        st->l2_replica_hits += res.hits + res.merged;
        st->l2_hits += res.hits;
        st->l2_merged += res.merged;
        /* res.misses were counted by remote_fetch as hits or misses in q */
    } else {
        st->l2_remote += n;
        l2_ctx hx = { s, sm, 0, 0, q };
        mem_cache_io io = { hbm_fetch, hbm_writeback, &hx };
        ps_t rh = s->remote_ps / 2;
        ps_t o = slice_read(s, sm, q, line, smask, t + half + rh, 0, &io, &res);
        count(st, &res);
        st->fabric_sectors += n;
        st->noc_sector_um += (uint64_t)n * s->geo.fabric_um;
        out = mem_bw_take(&s->fabric[q][p], o, (uint64_t)n * s->sector_bytes) +
              (s->remote_ps - rh);
    }
    return out + (lat - half);
}

static ps_t l2_store_line(l2_state *s, int sm, uint64_t line, unsigned smask, ps_t t)
{
    mem_stats *st = &s->stats[sm];
    int p = s->geo.home[sm];
    int q = mem_partition_of(line, s->nparts, s->hash_mask, s->frame_bit);
    unsigned n = (unsigned)mem_nsectors(smask);
    ps_t lat = hit_lat(s, sm, q, line), half = lat / 2;
    st->l2_sectors += n;
    st->noc_sector_um += (uint64_t)n * s->geo.dist_um[sm * s->nparts + p];
    ps_t at = t + half;
    if (q != p) {
        st->l2_remote += n;
        st->fabric_sectors += n;
        st->noc_sector_um += (uint64_t)n * s->geo.fabric_um;
        at = mem_bw_take(&s->fabric[p][q], at, (uint64_t)n * s->sector_bytes) +
             s->remote_ps / 2;
    } else {
        st->l2_local += n;
    }
    /* replicas: the writer's partition's copy is updated with the data
     * (E21d: an array read right after a kernel wrote it reads as fast as
     * after a read, so the writers' halves still hold it), any other's is
     * dropped.  memory.l2.write_local: the writer's partition keeps the
     * data even where it had no copy, as a replica allocated now (the A100
     * whitepaper: each L2 partition "caches data for memory accesses from
     * SMs in the GPCs directly connected to the partition", every access,
     * not only reads; E24's add, docs/memory.md).  The copy is clean (the
     * line's own partition holds the dirty data) and the store does not
     * wait for it; a dirty victim it evicts is written back as a read's
     * would be.  Left out: the copy's slice port time and array energy. */
    if (s->replicate)
        for (int o = 0; o < s->nparts; o++) {
            mem_cache *copy = s->slice[slice_idx(s, o, line)];
            if (o == q)
                continue;
            if (o != p) {
                mem_cache_invalidate(copy, line);
            } else if (!mem_cache_update(copy, line, smask) && s->write_local) {
                l2_ctx px = { s, sm, 0, 0, p };
                mem_cache_io pio = { hbm_fetch, hbm_writeback, &px };
                mem_cache_res pres = { 0 };
                mem_cache_fill_clean(copy, line, smask, t + half, MEM_LINE_REPLICA, &pio, &pres);
            }
        }
    l2_ctx hx = { s, sm, 0, 0, q };
    mem_cache_io io = { hbm_fetch, hbm_writeback, &hx };
    mem_cache_res res = { 0 };
    int i = slice_idx(s, q, line);
    mem_cache_write(s->slice[i], line, smask, at, &io, &res);
    /* a write that allocated over a dirty line is taken once HBM took the
     * victim's sectors: with HBM's write queues full that is when they
     * drain, and a write stream runs at what HBM moves (docs/memory.md) */
    at = SK_MAX(at, res.wb_ps);
    return mem_bw_take(&s->port[i], at, (uint64_t)n * s->sector_bytes);
}

static ps_t l2_access(mem_level *l, const mem_req *r)
{
    l2_state *s = l->st;
    if (!r->addr) {
        /* No addresses: the home partition's latency, then HBM by bytes. */
        mem_stats *st = &s->stats[r->sm];
        int p = s->geo.home[r->sm];
        ps_t lat = s->geo.lat_ps[r->sm * s->nparts + p];
        st->l2_sectors += (r->bytes + s->sector_bytes - 1) / s->sector_bytes;
        if (r->op == MEM_LOAD)
            st->l2_misses += (r->bytes + s->sector_bytes - 1) / s->sector_bytes;
        mem_req q = *r;
        q.t = r->t + lat / 2;
        ps_t d = s->next ? mem_access(s->next, &q) : q.t;
        return r->op == MEM_STORE ? r->t + lat / 2 : d + (lat - lat / 2);
    }
    mem_lines ls;
    mem_coalesce(r->addr, r->mask, r->lane_bytes ? r->lane_bytes : 4, 1u << s->line_shift,
                 s->sector_bytes, &ls);
    ps_t done = r->t;
    for (int i = 0; i < ls.n; i++) {
        ps_t d = r->op == MEM_STORE ? l2_store_line(s, r->sm, ls.line[i], ls.smask[i], r->t)
                                    : l2_load_line(s, r->sm, ls.line[i], ls.smask[i], r->t);
        done = SK_MAX(done, d);
    }
    return done;
}

static void l2_destroy(mem_level *l)
{
    l2_state *s = l->st;
    for (int i = 0; i < s->nparts * s->nslices; i++)
        mem_cache_destroy(s->slice[i]);
    free(s->slice);
    for (int i = 0; i < s->nparts * s->nslices; i++)
        mem_bw_free(&s->port[i]);
    free(s->port);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            mem_bw_free(&s->fabric[a][b]);
    free(s->geo.home);
    free(s->geo.lat_ps);
    free(s->geo.dist_um);
    free(s->geo.route_ps);
    free(s->geo.row);
    free(s);
    free(l);
}

static const mem_level_ops l2_ops = { "l2", l2_access, NULL, l2_destroy };

mem_level *mem_l2_create(const cfg *c, mem_l2_geo *geo, mem_level *next, mem_stats *stats)
{
    l2_state *s = xcalloc(1, sizeof *s);
    s->nparts = c->l2_partitions;
    s->nslices = c->l2_slices_per_partition;
    mem_cache_geom g = {
        .sets = (uint32_t)c->l2_sets,
        .ways = (uint32_t)((uint64_t)c->l2_slice_bytes / ((uint64_t)c->l2_sets * (uint64_t)c->l2_line_bytes)),
        .line_bytes = (uint32_t)c->l2_line_bytes,
        .sector_bytes = (uint32_t)c->l2_sector_bytes,
        .mshrs = (uint32_t)c->l2_mshrs,
        .write_back = 1,
        .set_div = (uint32_t)c->l2_slices_per_partition,
    };
    cfg_bit_list(c->l2_hash_bits, &s->hash_mask);
    s->frame_bit = c->l2_frame_bit;
    s->line_shift = mem_log2((uint64_t)c->l2_line_bytes);
    /* the lowest hash bit above the line offset and below the frame bits
     * is the one a partition's lines need not carry */
    if (s->nparts == 2 && s->hash_mask) {
        unsigned b = (unsigned)__builtin_ctzll(s->hash_mask);
        if (b >= s->line_shift && (int)b < s->frame_bit)
            s->drop = b - s->line_shift + 1;
    }
    g.drop_bit = s->drop;
    /* E24: the four lines whose addresses differ only in bits 7 and 9 hit
     * or miss together (validation/h200 README "E24"), so they are one
     * scattered group: those bits' places in the squeezed line index (none
     * that the line offset covers or the partition decides) */
    s->scatter_ppm = g.scatter_ppm = (uint32_t)c->l2_scatter_ppm;
    s->scatter_mask = 0;
    for (unsigned b = 7; b <= 9; b += 2) {
        if (b < s->line_shift)
            continue;
        unsigned pos = b - s->line_shift;
        if (s->drop && pos == s->drop - 1)
            continue;
        s->scatter_mask |= 1ull << (s->drop && pos > s->drop - 1 ? pos - 1 : pos);
    }
    g.scatter_mask = s->scatter_mask;
    g.clean_first = (uint32_t)c->l2_clean_first;
    g.remote_first = (uint32_t)c->l2_remote_first;
    g.dirty_reprieve = (uint32_t)c->l2_dirty_reprieve;
    g.reprieve_place = (uint32_t)c->l2_reprieve_place;
    s->slice = xcalloc((size_t)(s->nparts * s->nslices), sizeof *s->slice);
    s->port = xcalloc((size_t)(s->nparts * s->nslices), sizeof *s->port);
    /* 1 GB/s = 1e9 B per 1e15 fs: 1e6 fs per byte; calendars of 8 us (bw.c) */
    for (int i = 0; i < s->nparts * s->nslices; i++) {
        s->slice[i] = mem_cache_create(&g);
        mem_bw_init(&s->port[i], 1000000ull / (uint64_t)c->l2_slice_gbps, 16000, 512);
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            mem_bw_init(&s->fabric[a][b], 1000000ull / (uint64_t)c->l2_fabric_gbps, 4000, 2048);
    s->remote_ps = c->l2_remote_ps;
    s->replicate = c->l2_replicate;
    s->write_local = c->l2_write_local;
    s->sector_bytes = (unsigned)c->l2_sector_bytes;
    s->geo = *geo;
    memset(geo, 0, sizeof *geo);
    s->stats = stats;
    s->next = next;
    mem_level *l = xcalloc(1, sizeof *l);
    l->ops = &l2_ops;
    l->next = next;
    l->st = s;
    return l;
}

void mem_l2_occupancy(const mem_level *l, uint64_t *lines, uint64_t *replicas)
{
    const l2_state *s = l->st;
    uint64_t n = 0, rep = 0;
    for (int i = 0; i < s->nparts * s->nslices; i++) {
        uint64_t f;
        n += mem_cache_lines(s->slice[i], MEM_LINE_REPLICA, &f);
        rep += f;
    }
    *lines = n;
    *replicas = rep;
}

ps_t mem_l2_hit_ps(const mem_level *l, int sm, int p)
{
    const l2_state *s = l->st;
    int home = s->geo.home[sm];
    return s->geo.lat_ps[sm * s->nparts + home] + (p != home ? s->remote_ps : 0);
}

int mem_l2_home(const mem_level *l, int sm)
{
    const l2_state *s = l->st;
    return s->geo.home[sm];
}

int mem_l2_row(const mem_level *l, int sm)
{
    const l2_state *s = l->st;
    return s->geo.row[sm];
}
