/* coalesce.c -- what a warp's 32 lane addresses cost: the sectors and lines
 * a global access touches, and the wavefronts a shared-memory access needs.
 *
 * Global memory.  Since Volta the coalescer merges the active lanes of one
 * warp instruction into the distinct 32 B sectors they touch, grouped by
 * 128 B line (Jia et al. 2018; NVIDIA CUDA C++ Best Practices Guide,
 * "Coalesced Access to Global Memory"): 32 lanes reading consecutive 4 B
 * words touch 4 sectors of one line, a stride of 128 B touches 32 lines of
 * one sector each.  A lane whose bytes cross a sector boundary (an
 * unaligned access) touches both sectors.
 *
 * Shared memory.  32 banks, each 4 B wide, successive words in successive
 * banks (CUDA C++ Programming Guide, "Shared Memory", compute capability 5.x
 * and later).  Each bank delivers one word per wavefront; lanes asking for
 * the same word share it (a broadcast), so the wavefronts an access needs
 * are the largest number of distinct words asked of any one bank.  A lane
 * of 8 or 16 B reads 2 or 4 consecutive words, which gives the 2 and 4
 * wavefronts of a conflict-free 64- and 128-bit access.
 */
#include <string.h>
#include "skewsim/memsys.h"
#include "mem_internal.h"

static void sort_u64(uint64_t *a, int n)
{
    /* insertion sort: warp addresses come nearly sorted, so this is linear
     * for the common case and n <= 128 bounds the rest */
    for (int i = 1; i < n; i++) {
        uint64_t v = a[i];
        int j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

/* Append sector number sec (ascending, distinct) to out; 0 when out is full. */
static int add_sector(mem_lines *out, uint64_t sec, unsigned ss, unsigned ls)
{
    uint64_t line = (sec << ss) >> ls << ls;
    unsigned s = (unsigned)((sec << ss) - line) >> ss;
    if (out->n == 0 || out->line[out->n - 1] != line) {
        if (out->n == MEM_MAX_LINES)
            return 0;
        out->line[out->n] = line;
        out->smask[out->n] = 0;
        out->n++;
    }
    out->smask[out->n - 1] |= (uint8_t)(1u << s);
    out->nsectors++;
    return 1;
}

int mem_coalesce_range(uint64_t first, uint64_t end, unsigned line_bytes,
                       unsigned sector_bytes, mem_lines *out)
{
    unsigned ss = mem_log2(sector_bytes), ls = mem_log2(line_bytes);
    out->n = 0;
    out->nsectors = 0;
    if (end <= first)
        return 0;
    /* every sector between the range's ends, a line at a time */
    uint64_t s = first >> ss, s_end = (end - 1) >> ss;   /* inclusive */
    unsigned spl_shift = ls - ss;
    while (s <= s_end) {
        uint64_t line_first = s >> spl_shift << spl_shift;
        uint64_t last = SK_MIN(s_end, line_first + (1ull << spl_shift) - 1);
        unsigned k0 = (unsigned)(s - line_first), k1 = (unsigned)(last - line_first);
        if (out->n == MEM_MAX_LINES)
            break;
        out->line[out->n] = line_first << ss;
        out->smask[out->n] = (uint8_t)(((2u << k1) - 1) & ~((1u << k0) - 1));
        out->n++;
        out->nsectors += (int)(k1 - k0 + 1);
        s = last + 1;
    }
    return out->n;
}

/* The common case: active lanes in non-decreasing address order (a
 * coalesced or strided access, the sector lists levels pass each other).
 * Then each lane's sectors come in ascending order and only the last one
 * emitted can repeat, so no sort is needed: the same lines and masks as the
 * general path, in O(active lanes).  Returns 0 (out untouched) when the
 * lanes are not in order. */
static int coalesce_sorted(const uint64_t *addr, uint32_t mask, unsigned lane_bytes,
                           unsigned ss, unsigned ls, mem_lines *out)
{
    uint64_t prev_addr = 0, first = 0, end = 0;   /* [first, end): bytes covered so far */
    int contiguous = 1;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        if (a < prev_addr || a > UINT64_MAX - 32)
            return 0;     /* out of order, or near the top where a + lane_bytes wraps */
        if (m == mask)
            first = end = a;
        if (a > end)
            contiguous = 0;
        if (a + lane_bytes > end)
            end = a + lane_bytes;
        prev_addr = a;
    }
    out->n = 0;
    out->nsectors = 0;
    if (contiguous && mask && end > first) {
        mem_coalesce_range(first, end, 1u << ls, 1u << ss, out);
        return 1;
    }
    uint64_t next = 0;        /* first sector not yet emitted */
    int any = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        uint64_t s0 = a >> ss, s1 = (a + lane_bytes - 1) >> ss;
        if (any && s0 < next)
            s0 = next;
        for (uint64_t s = s0; s <= s1; s++)
            if (!add_sector(out, s, ss, ls))
                return 1;
        if (s1 + 1 > next || !any)
            next = s1 + 1;
        any = 1;
    }
    return 1;
}

int mem_coalesce(const uint64_t *addr, uint32_t mask, unsigned lane_bytes,
                 unsigned line_bytes, unsigned sector_bytes, mem_lines *out)
{
    uint64_t sec[2 * 32 * 16];
    int n = 0;
    unsigned ss = mem_log2(sector_bytes), ls = mem_log2(line_bytes);
    if (lane_bytes < 1)
        lane_bytes = 1;
    if (coalesce_sorted(addr, mask, lane_bytes, ss, ls, out))
        return out->n;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        uint64_t s0 = addr[l] >> ss, s1 = (addr[l] + lane_bytes - 1) >> ss;
        for (uint64_t s = s0; s <= s1 && n < (int)SK_ARRAY_LEN(sec); s++)
            sec[n++] = s;
    }
    sort_u64(sec, n);
    out->n = 0;
    out->nsectors = 0;
    uint64_t prev = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && sec[i] == prev)
            continue;
        prev = sec[i];
        uint64_t line = (sec[i] << ss) >> ls << ls;
        unsigned s = (unsigned)((sec[i] << ss) - line) >> ss;
        if (out->n == 0 || out->line[out->n - 1] != line) {
            if (out->n == MEM_MAX_LINES)
                break;
            out->line[out->n] = line;
            out->smask[out->n] = 0;
            out->n++;
        }
        out->smask[out->n - 1] |= (uint8_t)(1u << s);
        out->nsectors++;
    }
    return out->n;
}

int mem_bank_degree(const uint64_t *addr, uint32_t mask, unsigned lane_bytes)
{
    uint64_t words[32 * 4];
    int n = 0;
    unsigned per = lane_bytes <= 4 ? 1 : (lane_bytes + 3) / 4;
    if (per > 4)
        per = 4;
    for (int l = 0; l < 32; l++) {
        if (!(mask >> l & 1))
            continue;
        uint64_t w0 = addr[l] / MEM_SMEM_BANK_BYTES;
        for (unsigned k = 0; k < per; k++)
            words[n++] = w0 + k;
    }
    if (n == 0)
        return 0;
    sort_u64(words, n);
    int count[MEM_SMEM_BANKS];
    memset(count, 0, sizeof count);
    int deg = 0;
    for (int i = 0; i < n; i++) {
        if (i > 0 && words[i] == words[i - 1])
            continue;
        int b = (int)(words[i] % MEM_SMEM_BANKS);
        if (++count[b] > deg)
            deg = count[b];
    }
    return deg;
}
