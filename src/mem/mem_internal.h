/* mem_internal.h -- constructors of the hierarchy's levels, for hier.c and
 * the tests; the run loop uses memsys.h only. */
#ifndef SKEWSIM_MEM_INTERNAL_H
#define SKEWSIM_MEM_INTERNAL_H

#include "skewsim/memsys.h"

/* floor(log2(x)), 0 for x <= 1: the shift of a power-of-two size (every
 * level's line, sector, page and interleave sizes are checked to be one). */
static inline unsigned mem_log2(uint64_t x)
{
    unsigned n = 0;
    while (x > 1) {
        x >>= 1;
        n++;
    }
    return n;
}

/* x with bit k taken out, the bits above it moved down one place. */
static inline uint64_t mem_squeeze(uint64_t x, unsigned k)
{
    return (x >> (k + 1)) << k | (x & ((1ull << k) - 1));
}

/* A line's placement index within its partition, from its index li there
 * (the squeezed line index, l2.c).  scatter_ppm 0: li itself.  Otherwise
 * a group is the lines whose index differs only in the bits of `mask`
 * (E24: the four lines whose addresses differ only in bits 7 and 9 hit or
 * miss together); those bits become the index's low bits, so a group takes
 * consecutive places (one set of consecutive slices), and the rest of li
 * above them -- or, for scatter_ppm groups in a million, a fixed hash of
 * it.  The slice is the index modulo the slices, the set the quotient
 * modulo the sets: a contiguous range fills every (slice, set) to within
 * a group, and the scattered groups land where the hash puts them, some
 * sets over and some under (docs/memory.md "L2"). */
static inline uint64_t mem_place(uint64_t li, uint32_t scatter_ppm, uint64_t mask)
{
    if (!scatter_ppm)
        return li;
    uint64_t low = 0, high = li;
    unsigned n = 0;
    for (uint64_t m = mask; m; m &= m - 1)
        low |= (li >> __builtin_ctzll(m) & 1) << n++;
    for (uint64_t m = mask; m; m &= ~(1ull << (63 - __builtin_clzll(m))))
        high = mem_squeeze(high, 63u - (unsigned)__builtin_clzll(m));   /* highest first */
    uint64_t z = sk_mix64(high + 0x9E3779B97F4A7C15ull);
    if ((z >> 44) * 1000000 >> 20 < scatter_ppm)   /* z's top 20 bits against ppm */
        high = z & 0xFFFFFFFFull;
    return high << n | low;
}

/* HBM for the memory.hbm.* keys; stats: per-SM counters it adds to.
 * Caller owns it (ops->destroy). */
mem_level *mem_hbm_create(const cfg *c, mem_stats *stats);
/* The HBM level's pseudo-channel i (partition-major order, 0 .. partitions
 * x per partition - 1), for tests: bus.bytes is what it has moved. */
mem_hbm_chan *mem_hbm_chan_at(mem_level *l, int i);

/* Per-SM geometry the L2 needs, derived from the floorplan by hier.c. */
typedef struct mem_l2_geo {
    int nsms, nparts;
    int *home;              /* home partition of each SM */
    ps_t *lat_ps;           /* nsms * nparts: unloaded hit, SM to partition's slices and back
                               through its home crossbar (remote adds the fabric) */
    uint32_t *dist_um;      /* nsms * nparts: route length from SM to partition centre */
    uint32_t fabric_um;     /* between the partitions' centres */
    int32_t *route_ps;      /* nsms * nparts * nroutes, or NULL: the offset of each
                               route class on the SM's hit latency (its GPC's route to
                               the class's slice, out and back: hier.c route_spread) */
    int nroutes;            /* route classes a partition (its slice count) */
    int8_t *row;            /* nsms: the side of the L2 band its GPC's hub lies on
                               (+1, -1; 0 on the band's line): hier.c route_spread */
} mem_l2_geo;

/* The L2 over `next` (HBM); takes ownership of geo's arrays, not of next. */
mem_level *mem_l2_create(const cfg *c, mem_l2_geo *geo, mem_level *next, mem_stats *stats);
void mem_l2_occupancy(const mem_level *l, uint64_t *lines, uint64_t *replicas);
ps_t mem_l2_hit_ps(const mem_level *l, int sm, int p);
int mem_l2_home(const mem_level *l, int sm);
int mem_l2_row(const mem_level *l, int sm);

/* SM sm's L1 over `next` (the L2), capacity l1_bytes (0: every load
 * bypasses).  Caller owns it (ops->destroy), not next. */
mem_level *mem_l1_create(const cfg *c, int sm, uint64_t l1_bytes, mem_level *next,
                         mem_stats *stats);
/* Resize (a new capacity starts empty; the same one is emptied when flush)
 * and re-clock. */
void mem_l1_resize(mem_level *l, uint64_t l1_bytes, int flush);
void mem_l1_set_mhz(mem_level *l, int mhz);
/* The latest time the L2 took a store of this L1's SM (0: none yet). */
ps_t mem_l1_store_drain(const mem_level *l);

/* SM sm's translation step between its L1 and `next` (the L2), with
 * memory.tlb.enabled (tlb.c): every request that leaves the L1 (a miss's
 * sectors, a bypassing load, a write-through store) is translated first,
 * in sm's L1 TLB, then in `l2tlb` (shared by the SMs of its scope, owned
 * by the caller), then by a page walk; the request reaches `next` when its
 * translation is ready.  Caller owns it (ops->destroy), not next or l2tlb. */
mem_level *mem_tlb_level_create(const cfg *c, int sm, mem_tlb *l2tlb, mem_level *next,
                                mem_stats *stats);
/* A launch with memory.tlb.launch_flush: the SM's L1 TLB empties (the
 * caller flushes the shared L2 TLBs). */
void mem_tlb_level_flush(mem_level *l);
/* The SM's L1 TLB (tests). */
mem_tlb *mem_tlb_level_l1(mem_level *l);

/* Line flag of an L2 line that is a replica of a remote partition's line. */
#define MEM_LINE_REPLICA 0x1
/* Line flag of a home copy that only reads for the other partition's
 * replicas have used (memory.l2.replicate 5 and 6): under 5 a read with it
 * as a fill flag goes to the median age of the set's other lines that lack
 * it (most recent when there is none); under 6 it marks the line for
 * memory.l2.remote_first; a read without it clears it. */
#define MEM_LINE_FOR_REMOTE 0x2

#endif
