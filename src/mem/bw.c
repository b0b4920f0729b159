/* bw.c -- a bandwidth server that tolerates requests arriving out of time
 * order.
 *
 * Timing is computed when a request is made (mem.h), and requests reach a
 * shared server in simulation order: SMs run ahead of each other, and a
 * miss that went to HBM reaches the next server at its (late) return time
 * while a hit made later in simulation order arrives there early.  A
 * "busy until" server then blocks the early request behind the late one, a
 * head-of-line block the hardware does not have; on a streaming read it
 * cut the modelled L2 bandwidth twentyfold.
 *
 * So capacity is booked on a calendar instead: time is cut into slots of
 * slot_ps.  A slot remembers when its bookings end, how much of it they
 * take, and the latest time one of them starts.  A request at t that is in
 * order for the slot (t at or after that latest start) is served as by a
 * busy-until server: it starts at t or when the bookings end.  One that
 * arrives out of order (earlier in time than a booking already made in its
 * slot) starts at t or after the slot's booked time counted from the slot's
 * start, whichever is later: the slot's bookings are taken as packed from
 * its start, so the part of the slot before a late booking serves an early
 * request instead of being lost.  Either way a request fills what is left
 * of the slot and goes on into the next slots until its transfer time is
 * booked, and no slot is ever booked beyond its length, so a saturated
 * server moves exactly its rate.  Back-to-back requests in order end
 * exactly where a busy-until server would end them.  (Before, a slot kept
 * only its end: an early request queued behind a later one of its slot,
 * and the slot's time before that later booking went unused.  Where
 * arrivals come scattered in time, as the fills of many SMs' misses do at
 * the L2's slices, that lost a third of a slice port's capacity: the .cg
 * stream through the slice ports alone ran at 4.6 TB/s of their 10.8.)
 * The price of the packing is that an out-of-order request may overlap in
 * time a booking of its slot that in fact lies before it: its own latency
 * is short by at most one slot, the throughput is unchanged.  The calendar
 * is a ring of
 * nslots slots, a window that follows the latest slot booked; a request
 * older than the window books at its start.  A run of full slots is
 * remembered so that a saturated server skips it in one step.
 */
#include <stdlib.h>
#include <string.h>
#include "mem_internal.h"

void mem_bw_init(mem_bw *b, uint64_t fs_per_byte, ps_t slot_ps, uint32_t nslots)
{
    memset(b, 0, sizeof *b);
    b->fs_per_byte = fs_per_byte;
    /* a slot's times are kept from its start in 32 bits (memsys.h) */
    b->slot_ps = (uint32_t)(slot_ps < 1 ? 1 : slot_ps > (ps_t)UINT32_MAX ? (ps_t)UINT32_MAX : slot_ps);
    b->slot_inv = UINT64_MAX / (uint64_t)b->slot_ps;
    /* a power of two, so that a slot's place in the ring is a mask */
    uint32_t n = 1;
    while (n < nslots)
        n <<= 1;
    b->mask = n - 1;
    b->slot = xcalloc(n, sizeof *b->slot);
}

void mem_bw_free(mem_bw *b)
{
    if (b)
        free(b->slot);
}

void mem_bw_reset(mem_bw *b)
{
    memset(b->slot, 0, ((size_t)b->mask + 1) * sizeof *b->slot);
    b->base = b->full_from = b->full_to = 0;
}

/* Slide the window so that slot idx lies in it. */
static void reach(mem_bw *b, uint64_t idx)
{
    const uint64_t nslots = (uint64_t)b->mask + 1;
    uint64_t nb = idx - nslots + 1;
    if (nb - b->base >= nslots)
        memset(b->slot, 0, nslots * sizeof *b->slot);
    else
        for (uint64_t i = b->base; i < nb; i++)
            b->slot[i & b->mask] = (struct mem_bw_slot){0, 0, 0};
    b->base = nb;
    if (b->full_to < nb)
        b->full_from = b->full_to = nb;
    else if (b->full_from < nb)
        b->full_from = nb;
}

ps_t mem_bw_take(mem_bw *b, ps_t t, uint64_t bytes)
{
    ps_t need = (ps_t)((bytes * b->fs_per_byte) / 1000);
    if (t < 0)
        t = 0;
    const ps_t len = b->slot_ps;
    uint64_t idx = sk_udiv((uint64_t)t, (uint64_t)len, b->slot_inv);   /* t / len */
    if (idx < b->base) {
        idx = b->base;
        t = (ps_t)(idx * (uint64_t)len);
    }
    if (idx >= b->full_from && idx < b->full_to) {
        idx = b->full_to;
        t = (ps_t)(idx * (uint64_t)len);
    }
    b->bytes += bytes;
    if (need == 0)
        return t;
    for (;;) {
        if (idx - b->base > b->mask)
            reach(b, idx);
        ps_t s0 = (ps_t)(idx * (uint64_t)len), s1 = s0 + len;
        struct mem_bw_slot *sl = &b->slot[idx & b->mask];
        /* times from s0 (the slot's fields are): at < len, since t < s1 */
        uint32_t at = (uint32_t)(SK_MAX(t, s0) - s0);
        /* in order: busy-until; out of order: after the slot's booked time */
        uint32_t start = sl->used == 0 || at >= sl->last ? SK_MAX(at, sl->end) : SK_MAX(at, sl->used);
        if (start < len && sl->used < len) {
            uint32_t take = (uint32_t)SK_MIN(need, (ps_t)SK_MIN(len - start, len - sl->used));
            uint32_t end = start + take;
            sl->used += take;
            sl->end = SK_MAX(sl->end, end);
            sl->last = SK_MAX(sl->last, at);
            need -= take;
            if (sl->used == len) {
                /* extend the remembered run of full slots when this one joins it */
                if (idx == b->full_to)
                    b->full_to = idx + 1;
                else if (idx + 1 == b->full_from)
                    b->full_from = idx;
                else if (idx > b->full_to || idx + 1 < b->full_from) {
                    b->full_from = idx;
                    b->full_to = idx + 1;
                }
            }
            if (need == 0)
                return s0 + end;
        }
        idx++;
        t = s1;
    }
}
