/* apat.c -- the addresses of a native-trace memory instruction.
 *
 * A native trace cannot list every address of a kernel that runs billions
 * of them, so a memory instruction carries a pattern (docs/trace-format.md,
 * "Addresses") that the SM evaluates each time a warp issues it, from the
 * warp's CTA id, its index in the CTA and the iteration of the loop around
 * the instruction:
 *
 *   affine   base + lane * L + warp * W + cta * C + iter * I, the offset
 *            taken modulo ws when ws is given, so that a loop of passes over
 *            one working set reads it again;
 *   random   each lane an element of lane_bytes drawn uniformly from the ws
 *            bytes from base, by a hash of (seed, cta, warp, iter, lane):
 *            the same trace gives the same addresses;
 *   chase    a pointer chase through ws bytes: the line visited in
 *            iteration i is x_i of a full-period linear congruential
 *            sequence x_{i+1} = (a x_i + c) mod n over the n = ws / 128
 *            lines (a = 5, c odd: full period when n is a power of two,
 *            Hull-Dobell), every CTA starting at its own point of the one
 *            cycle, as E11's chase (tools/capture/cap_mem.cu) walks it.
 *            x_i is computed directly from x_0 in O(log i).
 */
#include "skewsim/memsys.h"

static uint64_t mix(uint64_t x)
{
    /* splitmix64's finaliser */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/* x_i of x -> (a x + c) mod 2^k after i steps, k = log2(n) (mask = n - 1). */
static uint64_t lcg_jump(uint64_t x, uint64_t i, uint64_t a, uint64_t c, uint64_t mask)
{
    /* compose the affine map with itself: (A, C) after i steps */
    uint64_t A = 1, C = 0;
    while (i) {
        if (i & 1) {
            A = (A * a) & mask;
            C = (C * a + c) & mask;
        }
        c = ((a + 1) * c) & mask;
        a = (a * a) & mask;
        i >>= 1;
    }
    return (A * x + C) & mask;
}

void mem_apat_lanes(const mem_apat *p, uint64_t cta, uint32_t warp, uint64_t iter,
                    unsigned lane_bytes, uint64_t addr[32])
{
    if (lane_bytes < 1)
        lane_bytes = 1;
    switch (p->kind) {
    case MEM_AP_RANDOM: {
        uint64_t n = p->ws / lane_bytes;
        if (n == 0)
            n = 1;
        uint64_t h = mix(p->seed ^ mix(cta ^ mix((uint64_t)warp ^ mix(iter))));
        for (int l = 0; l < 32; l++)
            addr[l] = p->base + (mix(h + (uint64_t)l) % n) * lane_bytes;
        break;
    }
    case MEM_AP_CHASE: {
        uint64_t n = p->ws / 128;
        uint64_t mask = n ? n - 1 : 0;
        uint64_t x0 = mix(p->seed ^ mix(cta)) & mask;
        uint64_t line = lcg_jump(x0, iter, 5, (mix(p->seed) | 1) & (mask ? mask : 1), mask);
        for (int l = 0; l < 32; l++)
            addr[l] = p->base + line * 128;
        break;
    }
    default: {
        /* 128-bit so that a CTA id of 2^32 times a large stride is exact */
        __int128 off0 = (__int128)warp * p->warp + (__int128)cta * p->cta +
                        (__int128)iter * p->iter;
        for (int l = 0; l < 32; l++) {
            __int128 off = off0 + (__int128)l * p->lane;
            if (p->ws) {
                off %= (__int128)p->ws;
                if (off < 0)
                    off += (__int128)p->ws;
            }
            addr[l] = p->base + (uint64_t)off;
        }
        break;
    }
    }
}
