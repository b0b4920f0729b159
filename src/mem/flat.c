/* flat.c -- the first memory level: one chip-wide bandwidth server followed
 * by a fixed latency.
 *
 * Model: DRAM is a single pipe that moves memory.bandwidth_gbps; a request
 * waits until the pipe is free (or starts at its issue time), holds it for
 * bytes / bandwidth, and its data is back memory.latency_ns after the pipe
 * finished with it.  A store takes the pipe the same way; its completion
 * time is when the data has left, which the SM does not wait for.  Requests
 * from all SMs share the one pipe in the order they are made (docs/design.md,
 * "What is approximate": SMs run ahead of each other by at most the time to
 * the next chip event, so that order is only nearly time order).  There is
 * no cache and no address: the level works from mem_req.bytes alone.
 *
 * Arithmetic: the transfer time per byte is kept in attoseconds (1 GB/s is
 * 1e9 as per byte, rounded to the nearest as), so the 3350 GB/s of the H200
 * is 298507 as per byte, exact to 2 ppm, and a transfer of n bytes takes
 * n * as_per_byte / 1e6 ps, truncated: the same integers the run loop used
 * before this interface existed, so outputs are unchanged byte for byte.
 */
#include <stdlib.h>
#include "skewsim/mem.h"

typedef struct flat {
    ps_t free_ps;             /* the pipe is busy until */
    int64_t as_per_byte;      /* transfer time per byte, attoseconds */
    ps_t latency_ps;          /* pipe done to data back */
    uint64_t bytes;           /* moved so far */
} flat;

static ps_t flat_access(mem_level *l, const mem_req *r)
{
    flat *f = l->st;
    ps_t start = SK_MAX(r->t, f->free_ps);
    f->free_ps = start + (ps_t)((r->bytes * (uint64_t)f->as_per_byte) / 1000000);
    f->bytes += r->bytes;
    return f->free_ps + f->latency_ps;
}

static void flat_destroy(mem_level *l)
{
    free(l->st);
    free(l);
}

static const mem_level_ops flat_ops = {
    .name = "flat",
    .access = flat_access,
    .kernel_start = NULL,
    .destroy = flat_destroy,
};

mem_level *mem_flat_create(uint64_t bandwidth_gbps, uint64_t latency_ns)
{
    if (bandwidth_gbps == 0)
        bandwidth_gbps = 1;   /* the schema's bound is 1..: never divide by zero */
    flat *f = xcalloc(1, sizeof *f);
    /* 1 GB/s moves one byte per ns: 1e9 attoseconds per byte per (GB/s). */
    f->as_per_byte = (int64_t)((1000000000ULL + bandwidth_gbps / 2) / bandwidth_gbps);
    f->latency_ps = (ps_t)latency_ns * PS_PER_NS;
    mem_level *l = xcalloc(1, sizeof *l);
    l->ops = &flat_ops;
    l->next = NULL;
    l->st = f;
    return l;
}

uint64_t mem_flat_bytes(const mem_level *l)
{
    return l && l->ops == &flat_ops ? ((const flat *)l->st)->bytes : 0;
}
