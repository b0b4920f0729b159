/* memsys.h -- the memory hierarchy behind `memory.model: hierarchy`: a
 * per-SM L1 (with the shared-memory carve-out), a chip L2 in partitions of
 * slices, and HBM channels; each is a mem_level (mem.h) wrapping the next.
 *
 * The run loop needs only mem_hier_*: build the hierarchy once per
 * simulation, hand SM i its first level (mem_hier_l1(h, i)), read the
 * statistics at the end of a kernel.  The second half of the header
 * ("building blocks") exposes each mechanism on its own -- the sectored
 * cache, the coalescer, the bank-conflict count, the partition hash, one
 * HBM pseudo-channel -- so that tests check them against hand-computed
 * cases (tests/test_mem.c) and docs/memory.md can describe them one by one.
 *
 * Everything is deterministic and has no globals: two hierarchies in one
 * process never see each other.
 */
#ifndef SKEWSIM_MEMSYS_H
#define SKEWSIM_MEMSYS_H

#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/mem.h"
#include "skewsim/topo.h"

struct si_floorplan;

/* ==================================================================== */
/* Statistics: declared once                                             */
/* ==================================================================== */

/* One SM's memory counters (the chip's are the sums).  Sector counts are
 * in 32 B sectors of the level's geometry.  The same list writes
 * summary.json and feeds the power model, so a counter added here appears
 * everywhere. */
#define MEM_STAT_MAP(X)                                                                     \
    X(load_reqs,        "warp-level global loads")                                          \
    X(load_latency_ps,  "sum over global loads of issue to data back, ps")                  \
    X(store_reqs,       "warp-level global stores")                                         \
    X(l1_sectors,       "load sectors looked up in L1")                                     \
    X(l1_hits,          "L1 load sectors found valid")                                      \
    X(l1_merged,        "L1 load sectors that joined a fill already in flight (MSHR merge)")\
    X(l1_misses,        "L1 load sectors fetched from L2")                                  \
    X(l1_bypass,        "load sectors that bypassed L1 (.cg, volatile)")                    \
    X(l1_mshr_wait_ps,  "time L1 misses waited for a free MSHR, ps")                        \
    X(l1_store_wait_ps, "time stores waited for a request entry (the L2 had not taken older ones), ps") \
    X(st_sectors,       "store sectors written through L1")                                 \
    X(smem_accesses,    "shared-memory warp accesses")                                      \
    X(smem_wavefronts,  "shared-memory wavefronts (accesses x bank-conflict degree)")       \
    X(l2_sectors,       "sectors requested of L2 (loads and stores)")                       \
    X(l2_hits,          "L2 load sectors found valid")                                      \
    X(l2_merged,        "L2 load sectors that joined a fill in flight")                     \
    X(l2_misses,        "L2 load sectors fetched from HBM")                                 \
    X(l2_local,         "L2 sectors whose address lives in the SM's home partition")        \
    X(l2_remote,        "L2 sectors whose address lives in the other partition")            \
    X(l2_replica_hits,  "remote load sectors served by a replica in the home partition")    \
    X(l2_writebacks,    "dirty L2 sectors written back to HBM")                             \
    X(fabric_sectors,   "sectors that crossed the fabric between partitions")               \
    X(noc_sector_um,    "sectors x wire length between SM and partition, um")               \
    X(dram_rd_bytes,    "bytes read from HBM")                                              \
    X(dram_wr_bytes,    "bytes written to HBM")                                             \
    X(dram_row_misses,  "HBM accesses that opened a row")                               \
    X(stall_cycles,     "scheduler cycles the SM's stall breakdown charges to memory (stalls.memory)") \
    X(tlb_l1_hits,      "translations found in the SM's L1 TLB (one per page per run of L1-miss requests)") \
    X(tlb_l1_misses,    "translations the L1 TLB did not hold, looked up in the L2 TLB")          \
    X(tlb_l2_hits,      "L1 TLB misses found in the L2 TLB")                                      \
    X(tlb_l2_misses,    "L1 TLB misses the L2 TLB did not hold: page walks")                       \
    X(tlb_walk_ps,      "time spent in page walks (memory.tlb.walk_ps each), ps")                 \
    X(tlb_delay_ps,     "sum over L1-miss requests of the time translation held them back, ps")

typedef struct mem_stats {
#define MEM_STAT_FIELD_(name, help) uint64_t name;
    MEM_STAT_MAP(MEM_STAT_FIELD_)
#undef MEM_STAT_FIELD_
} mem_stats;

enum {
#define MEM_STAT_ENUM_(name, help) MEM_STAT_##name,
    MEM_STAT_MAP(MEM_STAT_ENUM_)
#undef MEM_STAT_ENUM_
    MEM_NSTATS
};

/* Name and help of counter i (0..MEM_NSTATS-1), and a counter by index. */
const char *mem_stat_name(int i);
const char *mem_stat_help(int i);
uint64_t mem_stat_get(const mem_stats *s, int i);
/* dst += src, counter by counter. */
void mem_stats_add(mem_stats *dst, const mem_stats *src);

/* ==================================================================== */
/* The hierarchy                                                         */
/* ==================================================================== */

typedef struct mem_hier mem_hier;

/* Build L1s for every SM of the topology, the L2 and HBM from the
 * memory.* keys of a validated config.  Per-SM wire lengths to each L2
 * partition, and each SM's home partition, come from the floorplan
 * (fp may be NULL: one is built from c).  Returns NULL with *e filled
 * (SK_ECONFIG) on a config the model cannot use.  Caller owns it:
 * mem_hier_destroy(). */
mem_hier *mem_hier_create(const cfg *c, const topo *t, const struct si_floorplan *fp,
                          sk_error *e);
void mem_hier_destroy(mem_hier *h);          /* NULL is a no-op */

/* SM sm's first level (its L1).  Owned by h. */
mem_level *mem_hier_l1(mem_hier *h, int sm);
/* The chip-wide levels behind the L1s (owned by h). */
mem_level *mem_hier_l2(mem_hier *h);
mem_level *mem_hier_hbm(mem_hier *h);
/* SM sm's translation step between its L1 and the L2 (tlb.c), NULL
 * without memory.tlb.enabled; owned by h. */
mem_level *mem_hier_tlb(mem_hier *h, int sm);

/* SM sm's clock changed: L1 latencies are in its cycles. */
void mem_hier_set_mhz(mem_hier *h, int sm, int mhz);
/* A kernel starts: its CTAs ask for smem_per_sm bytes of shared memory on
 * an SM at most, so the driver's carve-out leaves the rest of the unified
 * array as L1 (the L1s are flushed, as a carve-out change does). */
void mem_hier_kernel_start(mem_hier *h, uint64_t smem_per_sm);
/* The shared-memory configuration of the current carve-out (what ncu calls
 * launch__shared_mem_config_size), and the L1 bytes it leaves. */
uint64_t mem_hier_smem_config(const mem_hier *h);
uint64_t mem_hier_l1_bytes(const mem_hier *h);
/* A shared-memory warp access on SM sm: returns its wavefronts (the
 * bank-conflict degree; without addresses the rows of 128 B its active
 * lanes' bytes fill, at least 1) and counts it. */
int mem_hier_smem(mem_hier *h, int sm, const uint64_t *addr, uint32_t mask,
                  unsigned lane_bytes);

/* Scheduler cycles of SM sm stalled on memory (the counter stall_cycles)
 * are the SM's own count of the cycles its stall breakdown charges to
 * SM_STALL_MEMORY (sm.h, stall[]): src points at it, read whenever the
 * counters are (stable for the hierarchy's life), so the two figures are
 * one count and the SM's loop adds each stall once. */
void mem_hier_bind_stall(mem_hier *h, int sm, const uint64_t *src);
/* The latest time the L2 took a store of SM sm (0: none yet): a kernel is
 * complete only when its stores are (sim.c, finish_kernel). */
ps_t mem_hier_store_drain(const mem_hier *h, int sm);

/* Counters of SM sm since the last mem_hier_kernel_start() (or creation),
 * computed at the call; and since creation.  The pointers stay valid until
 * mem_hier_destroy() (the first is overwritten by the next call for sm). */
const mem_stats *mem_hier_stats(const mem_hier *h, int sm);
const mem_stats *mem_hier_total(const mem_hier *h, int sm);
int mem_hier_num_sms(const mem_hier *h);
/* Home partition of SM sm, and the unloaded L2-hit latency in ps from SM
 * sm to partition p (what a .cg pointer chase sees). */
int mem_hier_home(const mem_hier *h, int sm);
ps_t mem_hier_l2_hit_ps(const mem_hier *h, int sm, int p);
/* The side of the L2 band SM sm's GPC lies on (+1 or -1, 0 on its line):
 * the row whose routes to a slice all lengthen or shorten together
 * (memory.l2.route_row_pct, docs/memory.md "L2"). */
int mem_hier_row(const mem_hier *h, int sm);
/* Valid lines held by the L2 (home copies and replicas), and of them
 * replicas: how much of the capacity replication takes. */
void mem_hier_l2_occupancy(const mem_hier *h, uint64_t *lines, uint64_t *replicas);

/* ==================================================================== */
/* Building blocks                                                       */
/* ==================================================================== */

/* ---- sectored set-associative cache (cache.c) ----------------------- */

typedef struct mem_cache_geom {
    uint32_t sets;          /* power of two */
    uint32_t ways;          /* >= 1 */
    uint32_t line_bytes;    /* power of two */
    uint32_t sector_bytes;  /* power of two, <= line_bytes, line / sector <= 8 */
    uint32_t mshrs;         /* fills in flight at once (>= 1) */
    int write_back;         /* 1: write-back, write-allocate; 0: write-through, no allocate */
    /* Set index (0, 0: the line index's low bits).  drop_bit k > 0: line-index
     * bit k - 1 is squeezed out first; set_div > 1: then divided by it (L2
     * slices, l2.c: the set from the line's index within its partition and
     * slice, so that a contiguous range fills every set evenly). */
    uint32_t drop_bit, set_div;
    /* hash_index 1: the set is a random-like mix of the line index instead;
     * 2: GH100's L1 index as measured on H100s (MEM_CACHE_GH100_SETS sets
     * of 128-byte lines; E41, validation/h100/README.md, docs/memory.md
     * "L1"): a linear (XOR) function of the address.  drop_bit and set_div
     * unused. */
    int hash_index;
    /* scatter_ppm > 0 (L2 slices): that many groups in a million (the
     * lines whose squeezed index differs only in scatter_mask's bits) are
     * placed by a hash of the group instead of in order (mem_place; l2.c's
     * slice choice uses the same). */
    uint32_t scatter_ppm;
    uint64_t scatter_mask;
    /* clean_first k > 0 (write-back caches): a victim is the least recent
     * clean line among the set's k least recent valid lines, the least
     * recent line when those are all dirty (0: plain LRU) */
    uint32_t clean_first;
    /* remote_first k > 0 (L2 slices): then, unless the victim is a home
     * copy held only for the other partition's replicas, the least recent
     * such copy among the set's k least recent lines is (0: none) */
    uint32_t remote_first;
    /* dirty_reprieve n > 0 (write-back caches): a dirty line that would be
     * the victim goes back into its set's LRU order instead (reprieve_place
     * says where; 0: at the median age of its set's other lines, as
     * MEM_CACHE_MID places a line), at most n times (up to
     * MEM_CACHE_MAX_REPRIEVE) since it was last written; it is written back
     * only when it finally goes (0: none) */
    uint32_t dirty_reprieve;
    /* reprieve_place (with dirty_reprieve): 0, the median age as above; 1,
     * the age of one of the set's other valid lines, drawn uniformly by a
     * hash of the line's index and its reprieves so far */
    uint32_t reprieve_place;
    /* cap_lines > 0 (write-through caches): at most this many lines hold
     * data; a fill past it first evicts the least recent line of the set of
     * a valid line drawn at random (E41: GH100's L1 keeps the whole array's
     * tags and the carve-out limits its data).  0: every way may fill. */
    uint32_t cap_lines;
    uint64_t cap_seed;      /* the draw's seed (a run's draws are its own) */
} mem_cache_geom;
/* hash_index 2's sets (16 groups of 32) */
#define MEM_CACHE_GH100_SETS 512
/* dirty_reprieve's largest value: two bits a line count the reprieves */
#define MEM_CACHE_MAX_REPRIEVE 3

/* What the cache asks of the level behind it.  fetch: bring `smask`
 * sectors of the line at `line_addr`, requested at t; returns when they are
 * back.  writeback: dirty sectors of an evicted line leave at t; returns
 * when the level behind took them (its write queue had room), the time the
 * victim's way is free for a write that allocates it (mem_cache_res.wb_ps). */
typedef struct mem_cache_io {
    ps_t (*fetch)(void *ud, uint64_t line_addr, unsigned smask, ps_t t);
    ps_t (*writeback)(void *ud, uint64_t line_addr, unsigned smask, ps_t t);
    void *ud;
} mem_cache_io;

/* Sector counts of one access. */
typedef struct mem_cache_res {
    unsigned hits, merged, misses;   /* requested sectors: valid, in flight, fetched */
    unsigned wb_sectors;             /* dirty sectors the eviction wrote back */
    int evicted;                     /* a valid line was evicted */
    ps_t mshr_wait_ps;               /* the fetch waited this long for an MSHR */
    uint64_t evicted_addr;           /* evicted: the evicted line's address */
    uint32_t way1;                   /* a read that allocated: its way (set * ways + way) + 1 */
    ps_t wb_ps;                      /* a dirty victim: when the level behind took its
                                        sectors (io.writeback's answer), else 0 */
} mem_cache_res;

typedef struct mem_cache mem_cache;

/* Geometry checked by mem_cache_geom_check(); caller owns the cache. */
mem_cache *mem_cache_create(const mem_cache_geom *g);
void mem_cache_destroy(mem_cache *c);        /* NULL is a no-op */
/* "" or the reason the geometry is unusable, as "expected ..." text. */
const char *mem_cache_geom_check(const mem_cache_geom *g);

/* fill_flags bit: a line allocated by this read enters at the LRU end of
 * its set instead of the MRU end (LRU insertion, Qureshi et al., ISCA 2007),
 * so it is the first to go unless it is hit first. */
#define MEM_CACHE_FILL_LRU 0x80
/* fill_flags bit: the read leaves the line's place in LRU order as it is
 * (a line it allocates enters at the LRU end): a read on another cache's
 * behalf, such as an L2 home partition filling a remote reader's replica
 * (l2.c, memory.l2.replicate 3).  Not stored with the line. */
#define MEM_CACHE_NO_TOUCH 0x40
/* fill_flags bit: the read puts the line (a hit, or one it allocates) in
 * the middle of its set's LRU order, at the median age of the set's other
 * valid ways, and never makes a line older than it was: a read on another
 * cache's behalf that counts as half a use (l2.c, memory.l2.replicate 4).
 * Not stored with the line. */
#define MEM_CACHE_MID 0x20
/* fill_flags bit: a hit leaves the line's place in LRU order as it is; a
 * line the read allocates enters at the MRU end (l2.c, memory.l2.replicate
 * 6: the home copy fetched for a remote reader's replica).  Not stored
 * with the line. */
#define MEM_CACHE_KEEP_PLACE 0x10

/* Read sectors smask of the line holding addr at time t.  A sector valid
 * and filled by t hits; one still being filled merges with that fill; the
 * rest are fetched together through io (after an MSHR frees, if all are
 * busy), on a miss into an LRU victim line (dirty sectors written back
 * first; a line whose fill is still in flight is not chosen while another
 * way is free of fills).  `fill_flags` is stored on a newly allocated line
 * (mem_cache_probe returns it).  Returns the time every requested sector is
 * valid (t when all hit). */
ps_t mem_cache_read(mem_cache *c, uint64_t addr, unsigned smask, ps_t t, uint8_t fill_flags,
                    const mem_cache_io *io, mem_cache_res *res);
/* Write sectors smask at t.  Write-back: allocate (LRU victim as for a
 * read), mark the sectors valid and dirty, ready at t (a write covers whole
 * sectors, so nothing is fetched).  Write-through: update a present line,
 * allocate nothing.  Returns 1 on a hit (the line was present). */
int mem_cache_write(mem_cache *c, uint64_t addr, unsigned smask, ps_t t,
                    const mem_cache_io *io, mem_cache_res *res);
/* Valid sector mask of the line holding addr (0 when absent); *flags (may
 * be NULL) gets its fill_flags.  Does not touch LRU. */
unsigned mem_cache_probe(const mem_cache *c, uint64_t addr, uint8_t *flags);
/* Drop the line holding addr (no write-back); 1 if it was present. */
int mem_cache_invalidate(mem_cache *c, uint64_t addr);
/* Written data reach a copy of the line that addr's line already has
 * here: its sectors smask become valid, nothing dirty, no LRU move (l2.c:
 * a store updates the writer's partition's replica).  1 if present. */
int mem_cache_update(mem_cache *c, uint64_t addr, unsigned smask);
/* Written data kept as a clean copy: addr's line, allocated at t if
 * absent (its victim evicted as a read's would be, a dirty one written
 * back through io; fill_flags as mem_cache_read's), gets the sectors
 * smask valid, nothing dirty, and becomes most recent.  Nothing waits for
 * it (l2.c: memory.l2.write_local's copy in the writer's partition). */
void mem_cache_fill_clean(mem_cache *c, uint64_t addr, unsigned smask, ps_t t, uint8_t fill_flags,
                          const mem_cache_io *io, mem_cache_res *res);
/* Drop everything, dirty lines included (a carve-out change, a test). */
void mem_cache_flush(mem_cache *c);

/* ---- CCWS's lost-locality detector (l1.c; read by warp_ccws.c) ------- */

/* Per SM, only with sm.warp_policy: ccws (Rogers et al., MICRO 2012): each
 * L1 way remembers the warp whose miss allocated it; when the line is
 * evicted its address goes into that warp's victim tag array (VTA, FIFO of
 * `entries`); a later miss of the same warp that finds the line in its own
 * VTA is lost intra-warp locality: hits[warp]++ (and the entry is dropped).
 * The L1 owns it; score, seen and age are the policy's (warp_ccws.c). */
typedef struct mem_vta {
    int nwarps, entries;
    int base_score, score_inc, decay;  /* sm.ccws.*: the policy's parameters */
    uint64_t *tag;          /* nwarps x entries: line address + 1, 0 = empty */
    uint8_t *next;          /* per warp: the FIFO's next entry */
    uint32_t *hits;         /* per warp: VTA hits so far */
    uint16_t *owner;        /* per L1 way: the warp that allocated it */
    size_t nways;
    int32_t *score;         /* per warp: lost-locality score (the policy's) */
    uint32_t *seen;         /* per warp: hits already scored (the policy's) */
    uint64_t *age;          /* per warp: whose slot it is (warp.age; the policy's) */
} mem_vta;

/* The VTA of the first memory level l when it is an L1 that keeps one,
 * else NULL (flat memory, another policy). */
mem_vta *mem_l1_vta(const struct mem_level *l);
/* Valid lines, and of them those whose fill_flags has a bit of `flag`. */
uint64_t mem_cache_lines(const mem_cache *c, uint8_t flag, uint64_t *flagged);
const mem_cache_geom *mem_cache_geometry(const mem_cache *c);

/* ---- address translation: one TLB array (tlb.c) ---------------------- */

/* A set-associative TLB of `entries` translations in sets of `ways`
 * (entries a multiple of ways; ways == entries: fully associative), the
 * set of a page its number modulo the sets; a fill into a full set
 * replaces by `replace` (enum cfg_tlb_replace: least or most recently
 * used, or random from `seed`, deterministically).  It holds page
 * numbers (address / page size, the caller's), each with the time its
 * translation becomes usable: a page whose walk is still in flight is
 * present, and a lookup of it waits for that time (a miss merged into the
 * walk in flight, as an MSHR merges a cache miss).  Caller owns it. */
typedef struct mem_tlb mem_tlb;

/* "" or the reason entries/ways are unusable, as "expected ..." text. */
const char *mem_tlb_geom_check(uint32_t entries, uint32_t ways);
mem_tlb *mem_tlb_create(uint32_t entries, uint32_t ways, int replace, uint64_t seed);
void mem_tlb_destroy(mem_tlb *t);            /* NULL is a no-op */
/* 1 and *ready = when page's translation is usable (it becomes the set's
 * most recent), or 0 when absent (nothing changes). */
int mem_tlb_lookup(mem_tlb *t, uint64_t page, ps_t *ready);
/* Put page in, usable from `ready`, as its set's most recent, into a free
 * entry or over the replacement's victim: returns the evicted page + 1, or 0. */
uint64_t mem_tlb_fill(mem_tlb *t, uint64_t page, ps_t ready);
/* 1 when page is present (LRU order untouched). */
int mem_tlb_probe(const mem_tlb *t, uint64_t page);
void mem_tlb_flush(mem_tlb *t);
uint32_t mem_tlb_entries(const mem_tlb *t);

/* ---- coalescer and shared-memory banks (coalesce.c) ------------------ */

/* Sectors in a line's sector mask (at most 8 bits: line / sector <= 8).
 * Bit arithmetic rather than __builtin_popcount, which without -mpopcnt
 * is a library call on every sector mask of every level. */
static inline unsigned mem_nsectors(unsigned smask)
{
    unsigned x = smask & 0xffu;
    x = x - ((x >> 1) & 0x55u);
    x = (x & 0x33u) + ((x >> 2) & 0x33u);
    return (x + (x >> 4)) & 0x0fu;
}

#define MEM_MAX_LINES 64     /* 32 lanes, each at most 16 B, may straddle two lines */

/* The distinct lines (ascending) a warp access touches and, per line, its
 * sectors (bit s = sector s of the line). */
typedef struct mem_lines {
    int n;
    int nsectors;                     /* sum of the masks' bits */
    uint64_t line[MEM_MAX_LINES];     /* line-aligned addresses */
    uint8_t smask[MEM_MAX_LINES];
} mem_lines;

/* Coalesce the active lanes (mask) of a warp access of lane_bytes (1..16)
 * each at addr[0..31] into line_bytes lines of sector_bytes sectors (both
 * powers of two, line / sector <= 8).  Returns out->n. */
int mem_coalesce(const uint64_t *addr, uint32_t mask, unsigned lane_bytes,
                 unsigned line_bytes, unsigned sector_bytes, mem_lines *out);

/* The same for an access whose active lanes cover exactly the bytes
 * [first, end) (a contiguous warp: mem_apat_span()), without lanes. */
int mem_coalesce_range(uint64_t first, uint64_t end, unsigned line_bytes,
                       unsigned sector_bytes, mem_lines *out);

#define MEM_SMEM_BANKS 32
#define MEM_SMEM_BANK_BYTES 4
/* Wavefronts a shared-memory access needs: the largest number of distinct
 * 4 B words any one of the 32 banks must deliver (lanes reading the same
 * word share it: a broadcast).  A lane of 8 or 16 B reads 2 or 4 words.
 * 0 for an empty mask. */
int mem_bank_degree(const uint64_t *addr, uint32_t mask, unsigned lane_bytes);
/* Without addresses: the fewest wavefronts (rows of the 32 banks) the
 * active lanes' bytes fill, as a conflict-free access takes. */
static inline unsigned mem_smem_rows(uint32_t mask, unsigned lane_bytes)
{
    return ((unsigned)__builtin_popcount(mask) * lane_bytes + MEM_SMEM_BANKS * MEM_SMEM_BANK_BYTES - 1) /
           (MEM_SMEM_BANKS * MEM_SMEM_BANK_BYTES);
}

/* ---- address maps (l2.c) ---------------------------------------------- */

/* Partition of an address among 2 partitions: the XOR of its bits in mask
 * below frame_bit, flipped by a fixed pseudo-random bit per frame (the
 * address >> frame_bit) when frame_bit < 64.  The H200 (E11,
 * validation/h200): bits 12, 13, 15, 17, 19, so a 4 KB page lives wholly in
 * one partition, and a constant per 2 MB frame that no linear function of
 * the virtual address explains, since the driver maps 2 MB virtual pages
 * to physical frames.  1 partition: 0. */
int mem_partition_of(uint64_t addr, int nparts, uint64_t mask, int frame_bit);
/* Slice of a line among nslices of its partition: a multiplicative hash of
 * the line index, so that strided streams spread over the slices. */
int mem_slice_of(uint64_t line_index, int nslices);

/* ---- address patterns of the native trace (apat.c) --------------------- */

enum mem_apat_kind {
    MEM_AP_AFFINE,   /* base + lane*lane + warp*warp + cta*cta + iter*iter, modulo ws if ws */
    MEM_AP_RANDOM,   /* each lane its own element, uniform over the ws bytes from base */
    MEM_AP_CHASE     /* one pointer chase: a random cycle through the ws / 128 lines */
};

/* The largest stride of a pattern, either sign: the native trace format's
 * bound on lane=, warp=, cta= and iter= (docs/trace-format.md,
 * "Addresses"), so that every pattern a reader builds can be written and
 * read back. */
#define MEM_AP_STRIDE_MAX (INT64_C(1) << 40)

/* Where one memory instruction's lanes point (docs/trace-format.md,
 * "Addresses"); `iter` is the iteration of its innermost enclosing loop. */
typedef struct mem_apat {
    uint8_t kind;                 /* enum mem_apat_kind */
    uint64_t base;
    int64_t lane, warp, cta, iter;    /* strides in bytes (affine) */
    uint64_t ws;                  /* working set in bytes: 0 = unbounded (affine only) */
    uint64_t seed;                /* random, chase */
    uint8_t part;                 /* key part=P: 1 + P, only pages of L2 partition P; 0: all */
    uint8_t pbit;                 /* part: the lowest page-hash bit (mem_apat_set_hash) */
    uint8_t pframe;               /* part: memory.l2.frame_bit (64: none) */
    uint64_t pmask;               /* part: memory.l2.hash_bits as a mask */
    uint32_t idle;                /* lanes that make no access: the complement of the active
                                     mask (key mask=, an Accel-Sim line's mask); 0, what a
                                     zeroed pattern holds: all 32 lanes access */
} mem_apat;

/* The lanes of an access by pattern p (bit l = lane l): those the
 * coalescer and the bank-conflict count take.  0: the instruction issues
 * but touches no memory. */
static inline uint32_t mem_apat_mask(const mem_apat *p)
{
    return ~p->idle;
}

/* Give a part= pattern the model's page hash (memory.l2.hash_bits as a
 * mask, frame_bit): 0, or -1 when partition part-1 cannot be enumerated in
 * constant time (a model without two partitions, or no hash bit of 12 or
 * more below frame_bit). */
int mem_apat_set_hash(mem_apat *p, int nparts, uint64_t mask, int frame_bit);
/* The address that a (a pattern's address, numbering partition part-1's
 * pages) stands for: a's bits pbit and above move up one place, and bit
 * pbit is the one that puts it in part-1 (of two pages that differ only
 * there, one is in each partition), so a's page k is the k-th 2^pbit-byte
 * page of the partition from address 0: O(1), exact for the model's hash. */
uint64_t mem_apat_part_addr(const mem_apat *p, uint64_t a);

/* The 32 lane addresses of warp `warp` of CTA `cta` in iteration `iter`
 * of an access of lane_bytes per lane.  A chase gives every lane the same
 * line (the trace's chase runs one thread). */
void mem_apat_lanes(const mem_apat *p, uint64_t cta, uint32_t warp, uint64_t iter,
                    unsigned lane_bytes, uint64_t addr[32]);

/* Whether the active lanes (mem_apat_mask) of those mem_apat_lanes() would
 * give cover one byte range with no gap, in lane order (an affine pattern
 * of lane stride 0..lane_bytes that does not wrap around its working set
 * inside the warp, and a mask of one run of consecutive lanes): then
 * [*first, *end) is that range and the warp's sectors are
 * mem_coalesce_range()'s, with no lane computed.  0 otherwise (an empty
 * mask included). */
int mem_apat_span(const mem_apat *p, uint64_t cta, uint32_t warp, uint64_t iter,
                  unsigned lane_bytes, uint64_t *first, uint64_t *end);

/* ---- a bandwidth server for out-of-order requests (bw.c) -------------- */

/* Capacity booked on a calendar of nslots slots of slot_ps each; see bw.c. */
typedef struct mem_bw {
    /* Everything mem_bw_take reads is in these 64 bytes: a server is
     * one host cache line besides its calendar slot (a saturated HBM
     * stream visits the 192 pseudo-channels in turn, each cold). */
    uint64_t fs_per_byte;
    uint64_t slot_inv;            /* UINT64_MAX / slot_ps: a slot's index by a multiply (bw.c) */
    uint64_t base;                /* first slot index in the window */
    uint64_t full_from, full_to;  /* a run of full slots [from, to) */
    struct mem_bw_slot {          /* each time from the slot's own start, all in [0, slot_ps]: */
        uint32_t end;             /* when its bookings end (0: none) */
        uint32_t used;            /* how much of it is booked */
        uint32_t last;            /* the latest start booked in it */
    } *slot;                      /* owned: mask + 1 slots, one struct a slot (one host cache
                                     line per booking, not three; 12 bytes, not 24) */
    uint64_t bytes;
    uint32_t slot_ps;             /* 1..UINT32_MAX ps (a slot's times are 32-bit) */
    uint32_t mask;                /* slots - 1 (a power of two) */
} mem_bw;
_Static_assert(sizeof(mem_bw) == 64, "a bandwidth server's fields are one host cache line");

void mem_bw_init(mem_bw *b, uint64_t fs_per_byte, ps_t slot_ps, uint32_t nslots);
void mem_bw_free(mem_bw *b);
void mem_bw_reset(mem_bw *b);
/* Move `bytes` arriving at t; returns when the transfer ends (>= t + its
 * own transfer time). */
ps_t mem_bw_take(mem_bw *b, ps_t t, uint64_t bytes);

/* ---- one HBM pseudo-channel (hbm.c) ----------------------------------- */

/* A bandwidth server (its data bus) in front of banks that each keep one
 * row open.  An access to the open row of its bank starts when the bus is
 * free; one to another row waits for the bank to close and open a row
 * (row_miss_ps) first.  Data are back latency_ps after the transfer.
 * Writes (mem_hbm_chan_write) wait in a write queue and go to the bus in
 * batches, paying the bus's read/write turnaround (hbm.c). */
typedef struct mem_hbm_wr {
    uint64_t row;
    uint32_t bank, bytes;
} mem_hbm_wr;

typedef struct mem_hbm_chan {
    /* The data bus first, on a host cache line of its own (a channel is
     * 64-byte aligned: hbm.c allocates them so).  Its byte count is the
     * channel's (bus.bytes: each transfer's bytes; idle time booked for a
     * turnaround is taken back out), so an address-less read, which reads
     * no bank, touches this line, its calendar slot and the next line
     * (the refresh schedule and the latency). */
    _Alignas(64) mem_bw bus;
    /* refresh (mem_hbm_chan_refresh; refresh_ps 0: none): each bank is
     * unavailable for refresh_ps once every refresh_interval_ps, its
     * windows staggered over the banks from refresh_phase_ps, or all at
     * refresh_phase_ps (refresh_all) */
    ps_t refresh_ps, refresh_interval_ps, refresh_phase_ps;
    uint64_t refresh_inv;      /* UINT64_MAX / refresh_interval_ps: its windows by a multiply */
    ps_t refresh_next_ps;      /* the first all-bank window not yet booked as idle bus time
                                  (address-less requests, hbm.c; 0: none booked) */
    int refresh_all;           /* all banks at once (REFab), else staggered (REFsb) */
    uint64_t refresh_waits;    /* accesses that met their bank refreshing */
    ps_t latency_ps, row_miss_ps;
    int nbanks;
    uint64_t *open_row;        /* owned: row + 1 per bank, 0 = closed */
    ps_t *bank_free_ps;        /* owned: its last transfer's end */
    ps_t *row_open_ps;         /* owned: when its open row became usable */
    ps_t *bank_last_ps;        /* owned: the latest arrival time booked on it */
    ps_t *bank_col_ps;         /* owned: its next burst may start then (ccd_l_ps) */
    ps_t ccd_l_ps;             /* same-bank burst spacing, tCCD_L (0: none) */
    ps_t row_idle_ps;          /* a bank idle this long has closed its row (0: never) */
    ps_t burst_ps;             /* one burst's time on the bus */
    uint64_t row_misses;
    /* read/write turnaround (mem_hbm_chan_turnaround; all 0: writes go
     * straight to the bus, no turnaround) */
    ps_t rd_to_wr_ps, wr_to_rd_ps;
    int wq_max, wq_n;          /* 32 B write bursts drained per turnaround; entries queued */
    uint64_t wq_bytes;         /* bytes queued */
    mem_hbm_wr *wq;            /* owned: wq_max entries */
    int writing;               /* the bus's last direction was a write drain */
    ps_t drain_start_ps;       /* when the last drain turned the bus to writes */
    ps_t drain_end_ps;         /* when the last drain's writes ended */
    ps_t rd_end_ps;            /* when the latest read's data ended */
    uint64_t turnarounds;      /* direction switches paid (either way) */
} mem_hbm_chan;

void mem_hbm_chan_init(mem_hbm_chan *ch, uint64_t mbps, ps_t latency_ps, ps_t row_miss_ps,
                       int nbanks);
void mem_hbm_chan_free(mem_hbm_chan *ch);
/* Read `bytes` of row `row` in bank `bank`, arriving at t; returns when
 * the data are back. */
ps_t mem_hbm_chan_access(mem_hbm_chan *ch, int bank, uint64_t row, uint64_t bytes, ps_t t);
/* Turnaround of the data bus: rd_to_wr_ps and wr_to_rd_ps of idle bus
 * between the last read's and the first write's data and back, and writes
 * queued until they fill `batch` 32 B bursts (or `batch` entries) and
 * drain together (0: writes are not queued and switch for free, the model
 * before turnaround). */
void mem_hbm_chan_turnaround(mem_hbm_chan *ch, ps_t rd_to_wr_ps, ps_t wr_to_rd_ps, int batch);
/* Refresh: bank b is unavailable during [phase + b x interval / banks +
 * k x interval, ... + refresh_ps) for every k, and a refresh closes its
 * row (refresh_ps 0 or interval 0: no refresh, the model before). */
void mem_hbm_chan_refresh(mem_hbm_chan *ch, ps_t refresh_ps, ps_t interval_ps, ps_t phase_ps);
/* all != 0: every bank's window at the channel's phase (all-bank refresh:
 * the channel serves nothing during it); 0: staggered by bank. */
void mem_hbm_chan_refresh_all(mem_hbm_chan *ch, int all);
/* Same-bank burst spacing: an access's 32 B bursts to its bank come
 * ccd_l_ps apart, and the bank's next access starts ccd_l_ps after its
 * last burst (0: none, the model before). */
void mem_hbm_chan_ccd(mem_hbm_chan *ch, ps_t ccd_l_ps);
/* A bank whose last transfer ended more than row_idle_ps before an
 * access (in order) has closed its row: the access opens it again
 * (memory.hbm.row_idle_ps; 0: a row stays open until another row or a
 * refresh needs the bank). */
void mem_hbm_chan_row_idle(mem_hbm_chan *ch, ps_t row_idle_ps);
/* Write `bytes` of row `row` in bank `bank`, posted at t; returns when its
 * batch's data are written if this write filled the queue, else t. */
ps_t mem_hbm_chan_write(mem_hbm_chan *ch, int bank, uint64_t row, uint64_t bytes, ps_t t);

#endif
