/* mem.h -- the memory-level interface: what an SM's loads and stores go
 * through.
 *
 * A level takes requests and reports when each one completes.  Levels wrap
 * levels, as SQLite's btree sits over its pager: an L1 holds a pointer to
 * the level behind it (an L2, which holds HBM), and the SM only ever talks
 * to its first level.  The core never switches on which level it is.
 *
 * Timing is computed when the request is made: access() returns the time
 * the data is back (a load) or the store has been accepted.  A level that
 * queues (a bandwidth server, a bank, an MSHR) keeps its own busy-until
 * times, so requests arriving in time order see the queueing they should.
 * Requests reach a level in non-decreasing time order per SM, and SMs run
 * ahead of each other only up to the next chip event (docs/design.md), so a
 * shared level sees times that are nearly, not strictly, ordered: it must
 * accept a request earlier than the last one it served.
 *
 * A request carries the bytes it moves and, when the trace gives them, the
 * 32 lane addresses of the warp (active lanes in `mask`), or, for a warp
 * whose lanes cover one byte range, that range alone (span_*: the SM's
 * fast path for contiguous affine patterns, so that no lane is computed);
 * a level that needs addresses and finds neither works from `bytes` alone.
 *
 * Who calls what: the sim creates the levels (sim_create) and owns the
 * first one; each SM holds a pointer to its first level (sm.mem) and calls
 * mem_access() for every global load (its registers are ready at the
 * returned time) and store (it does not wait); the SM then reports the
 * request and its completion to the sinks that want memory events
 * (sink.h).  A level calls the level behind it the same way, for its
 * misses.  The run loop calls kernel_start on every level of the chain
 * from the first, following `next`, when a kernel launches.
 *
 * Writing a level (a cache, HBM channels): one file src/mem/<name>.c with
 * its state, its mem_level_ops and a mem_<name>_create() declared here,
 * and one line in sim_create() that builds the chain.  The core never
 * looks inside `st`.
 */
#ifndef SKEWSIM_MEM_H
#define SKEWSIM_MEM_H

#include "skewsim/common.h"

struct sim;

enum mem_op { MEM_LOAD, MEM_STORE };

#define MEM_F_BYPASS_L1 0x1   /* .cg / volatile: not cached in L1 */
#define MEM_F_SAME_ACCESS 0x2 /* an L1's second or later request for one warp access
                               * (tlb.c translates a page once per access) */

typedef struct mem_req {
    int sm;                   /* requesting SM */
    uint8_t op;               /* enum mem_op */
    uint8_t flags;            /* MEM_F_* */
    uint8_t lane_bytes;       /* bytes per lane (1..16) */
    uint32_t mask;            /* active lanes (addr != NULL) */
    const uint64_t *addr;     /* 32 lane addresses, or NULL */
    uint64_t bytes;           /* bytes the access moves (sectors x 32 when coalesced) */
    ps_t t;                   /* issue time */
    uint64_t span_first;      /* span_end > span_first: the active lanes cover exactly */
    uint64_t span_end;        /* the bytes [span_first, span_end), and addr may be NULL */
    uint16_t warp;            /* the issuing warp's slot in its SM (CCWS's VTA, l1.c) */
} mem_req;

typedef struct mem_level mem_level;

typedef struct mem_level_ops {
    const char *name;
    /* Serve r; returns the completion time (>= r->t).  Called with r->t
     * nearly but not strictly non-decreasing (above). */
    ps_t (*access)(mem_level *l, const mem_req *r);
    /* A new kernel starts: reset per-kernel statistics.  May be NULL. */
    void (*kernel_start)(mem_level *l);
    /* Free the level and, when it owns it, the level behind it (levels
     * shared by several, as an L2 behind per-SM L1s, are owned by the sim
     * and not by each level in front of them). */
    void (*destroy)(mem_level *l);
} mem_level_ops;

struct mem_level {
    const mem_level_ops *ops;
    mem_level *next;          /* the level behind it, NULL for the last */
    void *st;                 /* the implementation's state */
};

static inline ps_t mem_access(mem_level *l, const mem_req *r)
{
    return l->ops->access(l, r);
}

/* Destroy l and every level behind it that it owns (NULL ok). */
void mem_destroy(mem_level *l);

/* The first implementation: one chip-wide bandwidth server
 * (memory.bandwidth_gbps) followed by a fixed latency (memory.latency_ns).
 * Caller owns it: mem_destroy(). */
mem_level *mem_flat_create(uint64_t bandwidth_gbps, uint64_t latency_ns);
/* Bytes it moved so far (0 for NULL or a level that is not flat). */
uint64_t mem_flat_bytes(const mem_level *l);

#endif
