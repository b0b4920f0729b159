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
 *            x_i is computed directly from x_0 in O(log i).  When n is not
 *            a power of two, x_i is p((s + i) mod n) instead, p a seeded
 *            permutation of the n lines (random_line below) and s the
 *            CTA's start: a random cycle of any length (E20's Sattolo
 *            cycles of 1408-2432 lines).
 *
 * With part=P any of these addresses numbers only the pages of L2
 * partition P (mem_apat_part_addr): its page k becomes the k-th page of P
 * from address 0, so E18's page lists of one partition are patterns.
 *
 * A pattern also says which lanes access at all (mask=, the active mask
 * an Accel-Sim line carries): every lane still gets its address here, and
 * the coalescer and the bank count skip the inactive ones, so a warp of 4
 * active threads costs the sectors of 4 lanes (mem_apat_mask).
 */
#include "skewsim/memsys.h"

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

/* A seeded permutation of [0, n): three rounds of an odd multiply, an added
 * constant and an xorshift on the k bits of the next power of two (each a
 * bijection modulo 2^k), walked until it lands below n ("cycle walking":
 * from x < n the first value below n on x's cycle of the k-bit permutation,
 * itself a bijection of [0, n); fewer than two steps on average). */
static uint64_t random_line(uint64_t x, uint64_t n, uint64_t seed)
{
    unsigned k = 1;
    while (k < 63 && (1ull << k) < n)
        k++;
    uint64_t mask = (1ull << k) - 1;
    do {
        for (uint64_t r = 0; r < 3; r++) {
            uint64_t h = sk_mix64(seed + r);
            x = (x * (h | 1) + (h >> 32)) & mask;
            x ^= x >> ((k + 1) / 2);
        }
    } while (x >= n);
    return x;
}

int mem_apat_set_hash(mem_apat *p, int nparts, uint64_t mask, int frame_bit)
{
    if (!p->part)
        return 0;
    uint64_t low = frame_bit >= 64 ? ~0ull : (1ull << frame_bit) - 1;
    uint64_t m = mask & low & ~0xfffull;     /* bits of 4 KB pages below the frame */
    if (nparts != 2 || p->part > 2 || !m)
        return -1;
    p->pbit = (uint8_t)__builtin_ctzll(m);
    p->pframe = (uint8_t)(frame_bit >= 64 ? 64 : frame_bit);
    p->pmask = mask;
    return 0;
}

uint64_t mem_apat_part_addr(const mem_apat *p, uint64_t a)
{
    unsigned b = p->pbit;
    uint64_t lo = a & ((1ull << b) - 1), hi = a >> b;
    uint64_t x = hi << (b + 1) | lo;
    /* bit b of x is 0: setting it changes the parity and leaves the
     * frame's bit (above b) alone */
    return mem_partition_of(x, 2, p->pmask, p->pframe) == p->part - 1 ? x : x | 1ull << b;
}

static void part_lanes(const mem_apat *p, uint64_t addr[32])
{
    for (int l = 0; l < 32; l++)
        addr[l] = mem_apat_part_addr(p, addr[l]);
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
        uint64_t h = sk_mix64(p->seed ^ sk_mix64(cta ^ sk_mix64((uint64_t)warp ^ sk_mix64(iter))));
        for (int l = 0; l < 32; l++)
            addr[l] = p->base + (sk_mix64(h + (uint64_t)l) % n) * lane_bytes;
        break;
    }
    case MEM_AP_CHASE: {
        uint64_t n = p->ws / 128;
        uint64_t mask = n ? n - 1 : 0, line;
        if (n && (n & mask)) {     /* not a power of two: a permutation's cycle */
            uint64_t s0 = sk_mix64(p->seed ^ sk_mix64(cta)) % n;
            line = random_line((s0 + iter % n) % n, n, p->seed);
        } else {
            uint64_t x0 = sk_mix64(p->seed ^ sk_mix64(cta)) & mask;
            line = lcg_jump(x0, iter, 5, (sk_mix64(p->seed) | 1) & (mask ? mask : 1), mask);
        }
        for (int l = 0; l < 32; l++)
            addr[l] = p->base + line * 128;
        break;
    }
    default: {
        /* 128-bit so that a CTA id of 2^32 times a large stride is exact */
        __int128 off0 = (__int128)warp * p->warp + (__int128)cta * p->cta +
                        (__int128)iter * p->iter;
        if (p->ws && p->ws < (1ull << 63)) {
            /* walk the lanes modulo ws: one 128-bit modulo per warp, not
             * per lane (off0 + l * lane mod ws, exactly) */
            __int128 w = (__int128)p->ws;
            __int128 o = off0 % w, st = (__int128)p->lane % w;
            uint64_t ou = (uint64_t)(o < 0 ? o + w : o);
            uint64_t step = (uint64_t)(st < 0 ? st + w : st);
            for (int l = 0; l < 32; l++) {
                addr[l] = p->base + ou;
                ou += step;
                if (ou >= p->ws)
                    ou -= p->ws;
            }
            break;
        }
        if (!p->ws) {
            /* the sum wraps modulo 2^64 exactly as the 128-bit one truncates */
            uint64_t a = p->base + (uint64_t)off0;
            for (int l = 0; l < 32; l++)
                addr[l] = a + (uint64_t)l * (uint64_t)p->lane;
            break;
        }
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
    if (p->part)
        part_lanes(p, addr);
}

int mem_apat_span(const mem_apat *p, uint64_t cta, uint32_t warp, uint64_t iter,
                  unsigned lane_bytes, uint64_t *first, uint64_t *end)
{
    if (lane_bytes < 1)
        lane_bytes = 1;
    if (p->kind != MEM_AP_AFFINE || p->lane < 0 || (uint64_t)p->lane > lane_bytes)
        return 0;
    /* the active lanes: one run lo..hi (a full warp, or the first threads
     * of a tail warp); a mask with a hole takes the lanes' path */
    uint32_t mask = mem_apat_mask(p);
    if (!mask)
        return 0;
    unsigned lo = (unsigned)__builtin_ctz(mask), hi = 31u - (unsigned)__builtin_clz(mask);
    uint32_t run = mask >> lo;
    if (run & (run + 1))
        return 0;
    uint64_t lo_off = lo * (uint64_t)p->lane;
    uint64_t span = hi * (uint64_t)p->lane;     /* lane hi's offset from lane 0 */
    __int128 off0 = (__int128)warp * p->warp + (__int128)cta * p->cta + (__int128)iter * p->iter;
    uint64_t a0;
    if (p->ws) {
        if (p->ws >= (1ull << 63))
            return 0;
        __int128 w = (__int128)p->ws, o = off0 % w;
        uint64_t ou = (uint64_t)(o < 0 ? o + w : o);
        if (ou + span >= p->ws)
            return 0;             /* the walk wraps inside the warp */
        a0 = p->base + ou;
    } else {
        a0 = p->base + (uint64_t)off0;
    }
    /* not near the top, where lane + lane_bytes would wrap (mem_coalesce
     * takes its general path there) */
    if (a0 > UINT64_MAX - 32 - span)
        return 0;
    a0 += lo_off;
    span -= lo_off;               /* now lane hi's offset from lane lo */
    if (p->part) {
        /* one page of the partition: the range moves with its page */
        uint64_t last = a0 + span + lane_bytes - 1;
        if (a0 >> p->pbit != last >> p->pbit)
            return 0;
        a0 = mem_apat_part_addr(p, a0);
        if (a0 > UINT64_MAX - 32 - span)
            return 0;
    }
    *first = a0;
    *end = a0 + span + lane_bytes;
    return 1;
}
