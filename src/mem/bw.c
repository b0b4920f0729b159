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
 * slot_ps.  Within a slot the server is busy-until (the slot remembers when
 * its bookings end); a request at t starts at that end or at t, fills the
 * rest of the slot, and goes on into the next slots until its transfer time
 * is booked.  Back-to-back requests in order end exactly where a busy-until
 * server would end them; out of order, an early request is held up by a
 * later one only within one slot, and uses capacity earlier slots left
 * free.  The calendar is a ring of
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
    b->slot_ps = slot_ps > 0 ? slot_ps : 1;
    b->nslots = nslots;
    b->end_ps = xcalloc(nslots, sizeof *b->end_ps);
}

void mem_bw_free(mem_bw *b)
{
    if (b)
        free(b->end_ps);
}

void mem_bw_reset(mem_bw *b)
{
    memset(b->end_ps, 0, b->nslots * sizeof *b->end_ps);
    b->base = b->full_from = b->full_to = 0;
}

/* Slide the window so that slot idx lies in it. */
static void reach(mem_bw *b, uint64_t idx)
{
    if (idx < b->base + b->nslots)
        return;
    uint64_t nb = idx - b->nslots + 1;
    if (nb - b->base >= b->nslots) {
        memset(b->end_ps, 0, b->nslots * sizeof *b->end_ps);
    } else {
        for (uint64_t i = b->base; i < nb; i++)
            b->end_ps[i % b->nslots] = 0;
    }
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
    uint64_t idx = (uint64_t)t / (uint64_t)b->slot_ps;
    if (idx < b->base) {
        idx = b->base;
        t = (ps_t)(idx * (uint64_t)b->slot_ps);
    }
    if (idx >= b->full_from && idx < b->full_to) {
        idx = b->full_to;
        t = (ps_t)(idx * (uint64_t)b->slot_ps);
    }
    b->bytes += bytes;
    if (need == 0)
        return t;
    for (;;) {
        reach(b, idx);
        ps_t s0 = (ps_t)(idx * (uint64_t)b->slot_ps), s1 = s0 + b->slot_ps;
        ps_t *e = &b->end_ps[idx % b->nslots];
        ps_t start = SK_MAX(t, SK_MAX(*e, s0));
        if (start < s1) {
            ps_t take = SK_MIN(need, s1 - start);
            *e = start + take;
            need -= take;
            if (*e == s1) {
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
                return *e;
        }
        idx++;
        t = s1;
    }
}
