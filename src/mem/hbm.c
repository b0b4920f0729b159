/* hbm.c -- HBM: stacks of channels of pseudo-channels, each a bandwidth
 * server with banks that keep a row open.
 *
 * Structure (JEDEC JESD238 HBM3): a stack has 16 channels, each split in
 * two 32-bit pseudo-channels that work independently; a pseudo-channel's
 * burst of 8 moves 32 B, one sector.  The H200 has 6 stacks (memory.hbm.*
 * in configs/h200.yaml gives the sources), so 192 pseudo-channels.  Each
 * L2 partition owns the stacks on its side of the die: an address is served
 * by a pseudo-channel of the partition that its page hash names (l2.c), so
 * a far HBM access pays the fabric in the L2, not here.
 *
 * Mapping.  Addresses are interleaved over a partition's pseudo-channels in
 * memory.hbm.interleave_bytes chunks, the channel picked by a hash of the
 * chunk index (as for L2 slices) so that power-of-two strides do not pile on
 * one channel.  A row is a region of row_bytes x (pseudo-channels of the
 * partition) bytes of address space -- each channel holds about row_bytes
 * of it -- and its bank is the row number modulo banks.  A stream thus
 * finds its row open for about row_bytes / interleave_bytes chunks in a row
 * on each channel, and opens the next in another bank.
 *
 * Timing of one access (mem_hbm_chan_access): a row miss waits for its bank
 * to finish its last transfer, then pays row_miss_ps (precharge + activate,
 * tRP + tRCD); the transfer books the channel's data bus (bw.c, so that an
 * early request arriving late in simulation order is not queued behind a
 * later one); the data are back latency_ps after the transfer ends (controller, PHY and the way
 * back, the part of the measured HBM latency beyond an L2 hit).
 *
 * Left out, deliberately: refresh, read/write bus turnaround, tFAW/tRRD
 * activation limits, bank groups, the controller's reordering of requests
 * (FR-FCFS: here requests are served in arrival order), and address
 * translation.  Their sum is what the gap between the spec sheet's
 * 4.8 TB/s and the measured 4.27 TB/s stands for, so memory.hbm.pc_mbps is
 * the one place it is fitted (configs/h200.yaml).
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"
#include "mem_internal.h"

void mem_hbm_chan_init(mem_hbm_chan *ch, uint64_t mbps, ps_t latency_ps, ps_t row_miss_ps,
                       int nbanks)
{
    memset(ch, 0, sizeof *ch);
    /* 1 MB/s = 1e6 B per 1e15 fs: 1e9 fs per byte; 16 ns slots, an 8 us window */
    mem_bw_init(&ch->bus, 1000000000ull / (mbps ? mbps : 1), 16000, 512);
    ch->latency_ps = latency_ps;
    ch->row_miss_ps = row_miss_ps;
    ch->nbanks = nbanks < 1 ? 1 : nbanks;
    ch->open_row = xcalloc((size_t)ch->nbanks, sizeof *ch->open_row);
    ch->bank_free_ps = xcalloc((size_t)ch->nbanks, sizeof *ch->bank_free_ps);
    ch->row_open_ps = xcalloc((size_t)ch->nbanks, sizeof *ch->row_open_ps);
    ch->bank_last_ps = xcalloc((size_t)ch->nbanks, sizeof *ch->bank_last_ps);
}

void mem_hbm_chan_free(mem_hbm_chan *ch)
{
    if (!ch)
        return;
    free(ch->open_row);
    free(ch->bank_free_ps);
    free(ch->row_open_ps);
    free(ch->bank_last_ps);
    mem_bw_free(&ch->bus);
    memset(ch, 0, sizeof *ch);
}

ps_t mem_hbm_chan_access(mem_hbm_chan *ch, int bank, uint64_t row, uint64_t bytes, ps_t t)
{
    bank = (int)((unsigned)bank % (unsigned)ch->nbanks);
    /* Requests reach a bank in simulation order, not strictly in time
     * order (bw.c).  One earlier in time than a request already booked on
     * its bank does not wait for that later one's transfer or row: it is
     * served as if it had come first (as the bus calendar serves it),
     * paying at most its own activation. */
    int in_order = t >= ch->bank_last_ps[bank];
    ch->bank_last_ps[bank] = SK_MAX(ch->bank_last_ps[bank], t);
    ps_t ready;
    if (ch->open_row[bank] != row + 1) {
        ready = (in_order ? SK_MAX(t, ch->bank_free_ps[bank]) : t) + ch->row_miss_ps;
        ch->open_row[bank] = row + 1;
        ch->row_open_ps[bank] = ready;
        ch->row_misses++;
    } else {
        /* a hit to a row still opening waits for it (out of order: for no
         * more than its own activation) */
        ready = in_order ? SK_MAX(t, ch->row_open_ps[bank])
                         : SK_MAX(t, SK_MIN(ch->row_open_ps[bank], t + ch->row_miss_ps));
    }
    ps_t end = mem_bw_take(&ch->bus, ready, bytes);
    ch->bank_free_ps[bank] = SK_MAX(ch->bank_free_ps[bank], end);
    ch->bytes += bytes;
    return end + ch->latency_ps;
}

/* ---- the level ------------------------------------------------------------ */

typedef struct hbm_state {
    int nparts, per_part;         /* pseudo-channels per partition */
    mem_hbm_chan *ch;             /* nparts * per_part */
    unsigned chunk_shift, row_shift_extra;
    uint64_t row_bytes;
    uint64_t hash_mask;
    int frame_bit;
    uint64_t rr;                  /* address-less requests: next channel */
    mem_stats *stats;             /* per SM, owned by the hierarchy */
} hbm_state;

/* One piece of `bytes` at addr. */
static ps_t hbm_piece(hbm_state *h, uint64_t addr, uint64_t bytes, ps_t t, int sm, int *miss)
{
    int p = mem_partition_of(addr, h->nparts, h->hash_mask, h->frame_bit);
    uint64_t chunk = addr >> h->chunk_shift;
    int c = mem_slice_of(chunk, h->per_part);
    mem_hbm_chan *ch = &h->ch[p * h->per_part + c];
    uint64_t row = addr / (h->row_bytes * (uint64_t)h->per_part);
    uint64_t m0 = ch->row_misses;
    ps_t done = mem_hbm_chan_access(ch, (int)(row % (uint64_t)ch->nbanks), row, bytes, t);
    *miss = ch->row_misses != m0;
    (void)sm;
    return done;
}

static ps_t hbm_access(mem_level *l, const mem_req *r)
{
    hbm_state *h = l->st;
    mem_stats *st = &h->stats[r->sm];
    ps_t done = r->t;
    int misses = 0, miss;
    if (r->addr) {
        mem_lines ls;
        mem_coalesce(r->addr, r->mask, r->lane_bytes ? r->lane_bytes : 32, 1u << h->chunk_shift,
                     32, &ls);
        for (int i = 0; i < ls.n; i++) {
            uint64_t b = (uint64_t)mem_nsectors(ls.smask[i]) * 32;
            ps_t d = hbm_piece(h, ls.line[i], b, r->t, r->sm, &miss);
            misses += miss;
            done = SK_MAX(done, d);
            if (r->op == MEM_STORE)
                st->dram_wr_bytes += b;
            else
                st->dram_rd_bytes += b;
        }
    } else {
        /* no addresses: spread the bytes over the channels in turn */
        uint64_t left = r->bytes, piece = 1ull << h->chunk_shift;
        int n = h->nparts * h->per_part;
        while (left) {
            uint64_t b = SK_MIN(left, piece);
            mem_hbm_chan *ch = &h->ch[h->rr++ % (uint64_t)n];
            ps_t end = mem_bw_take(&ch->bus, r->t, b);
            ch->bytes += b;
            done = SK_MAX(done, end + ch->latency_ps);
            left -= b;
        }
        if (r->op == MEM_STORE)
            st->dram_wr_bytes += r->bytes;
        else
            st->dram_rd_bytes += r->bytes;
    }
    st->dram_row_misses += (uint64_t)misses;
    return r->op == MEM_STORE ? r->t : done;
}

static void hbm_destroy(mem_level *l)
{
    hbm_state *h = l->st;
    for (int i = 0; i < h->nparts * h->per_part; i++)
        mem_hbm_chan_free(&h->ch[i]);
    free(h->ch);
    free(h);
    free(l);
}

static const mem_level_ops hbm_ops = { "hbm", hbm_access, NULL, hbm_destroy };

mem_level *mem_hbm_create(const cfg *c, mem_stats *stats)
{
    hbm_state *h = xcalloc(1, sizeof *h);
    int total = c->hbm_stacks * c->hbm_channels_per_stack * c->hbm_pcs_per_channel;
    h->nparts = c->l2_partitions;
    h->per_part = SK_MAX(1, total / h->nparts);
    h->ch = xcalloc((size_t)(h->nparts * h->per_part), sizeof *h->ch);
    for (int i = 0; i < h->nparts * h->per_part; i++)
        mem_hbm_chan_init(&h->ch[i], (uint64_t)c->hbm_pc_mbps, c->hbm_latency_ps,
                          c->hbm_row_miss_ps, c->hbm_banks);
    h->chunk_shift = mem_log2((uint64_t)c->hbm_interleave_bytes);
    h->row_bytes = (uint64_t)c->hbm_row_bytes;
    cfg_bit_list(c->l2_hash_bits, &h->hash_mask);
    h->frame_bit = c->l2_frame_bit;
    h->stats = stats;
    mem_level *l = xcalloc(1, sizeof *l);
    l->ops = &hbm_ops;
    l->st = h;
    return l;
}

uint64_t mem_hbm_chan_bytes(const mem_level *l, int i)
{
    const hbm_state *h = l->st;
    return h->ch[i].bytes;
}
