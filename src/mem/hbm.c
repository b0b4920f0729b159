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
 * later one); the data are back latency_ps after the transfer ends
 * (controller, PHY and the way back, the part of the measured HBM latency
 * beyond an L2 hit).
 *
 * Read/write turnaround (mem_hbm_chan_write).  A pseudo-channel's data
 * bus carries reads or writes, and switching costs idle bus time: after a
 * read's data the bus turns round before write data can follow
 * (memory.hbm.rd_to_wr_ps: tRTW = RL + BL/2 + 2 - WL leaves 2 tCK between
 * the data), and after a write's data a read must wait tWTR before its
 * command and RL more for its data (memory.hbm.wr_to_rd_ps = tWTR_S + RL).
 * A controller therefore holds writes in a queue and drains them in
 * batches (memory.hbm.write_batch 32 B bursts a switch, as GPGPU-Sim's and
 * gem5's write queues, one burst an entry, drain between watermarks).
 * Here a write joins its channel's queue; the write that fills it drains
 * the batch at its own time: the read-to-write gap (when the bus carried
 * reads just before), the writes through their banks as reads go, and the
 * write-to-read gap before the next read.  While the batch drains the bus
 * carries writes only: a read that comes during the drain (in time, after
 * it in simulation order) waits until the drain's last write and the turn
 * back, as a controller in write-drain mode holds its reads (before, such
 * reads slipped into the drain's idle gaps, a row opening for a write, on
 * the calendar, with no turnaround paid for them).  A write that finds room in the
 * queue is taken at once; the one that fills it is taken when the batch has
 * drained, and the L2 way its write-back frees waits for that (l2.c,
 * l2_store_line: the backpressure that holds a write stream to what HBM
 * moves).  What turnaround costs is bus time that reads then lack: c = a +
 * b, one write per two reads, loses about (rd_to_wr + wr_to_rd) per 3 x
 * write_batch bursts.  A queue that never fills is never charged (fewer
 * than write_batch bursts per channel; a controller also drains when idle,
 * which is not modelled).  With
 * write_batch 0 writes go to the bus as they come, with no turnaround (the
 * model before).
 *
 * Refresh (mem_hbm_chan_refresh, memory.hbm.refresh_ps and
 * refresh_interval_ps).  Each bank is unavailable for refresh_ps once
 * every refresh_interval_ps, and an access that needs its bank during a
 * window waits for its end and opens its row then; a refresh closes the
 * bank's open row.  Per bank (JESD238's REFsb, memory.hbm.refresh_all_banks
 * 0) the banks' windows are staggered over the interval and the other
 * banks go on serving; all-bank (REFab, 1, as configs/h200.yaml has it)
 * every bank of the pseudo-channel refreshes at once.  The phase comes
 * from a hash of the pseudo-channel's group (memory.hbm.refresh_group
 * consecutive pseudo-channels refresh in step, as one memory controller's
 * would).  So a fraction refresh_ps / interval of isolated reads wait a
 * uniform 0..refresh_ps, the tail E11's single random reads show
 * (validation/h200 capture/hbm.csv: beyond the near and far modes, a flat
 * shelf up to ~530 cycles later), and a warp load over several
 * pseudo-channels meets a window more often, but less than in proportion
 * when they share one (E23's tails; docs/memory.md "HBM").
 *
 * Bursts to one bank come memory.hbm.ccd_l_ps apart (tCCD_L, 4 tCK): a
 * line's four bursts end (4 - 1) x ccd_l after the first, and the bank's
 * next access starts ccd_l after its last, while the bus is booked for the
 * bytes alone (other banks fill the gaps).  E23 measured what that costs a
 * lone warp: two lines of one 256 B chunk ~35 cycles over one sector.
 *
 * Left out, deliberately: tFAW/tRRD activation limits, bank
 * groups beyond that (tCCD_L is applied within a bank, not its group of
 * four; the write-to-read gap is tWTR_S's, the short one), the
 * controller's reordering of requests (FR-FCFS: here requests are served
 * in arrival order), and address translation (tlb.c).  memory.hbm.pc_mbps
 * is the data sheet's rate in configs/h200.yaml; with refresh and the
 * rest, an addressed read stream of all SMs moves 4.44 TB/s there
 * against the 4.47 measured and the sheet's 4.8.
 */
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"
#include "mem_internal.h"

/* One burst of a pseudo-channel: BL8 x 32 bits [JESD238] */
#define HBM_BURST_BYTES 32

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
    ch->bank_col_ps = xcalloc((size_t)ch->nbanks, sizeof *ch->bank_col_ps);
    ch->burst_ps = (ps_t)(HBM_BURST_BYTES * ch->bus.fs_per_byte / 1000);
}

void mem_hbm_chan_ccd(mem_hbm_chan *ch, ps_t ccd_l_ps)
{
    ch->ccd_l_ps = SK_MAX(ccd_l_ps, 0);
}

void mem_hbm_chan_row_idle(mem_hbm_chan *ch, ps_t row_idle_ps)
{
    ch->row_idle_ps = SK_MAX(row_idle_ps, 0);
}

void mem_hbm_chan_free(mem_hbm_chan *ch)
{
    if (!ch)
        return;
    free(ch->open_row);
    free(ch->bank_free_ps);
    free(ch->row_open_ps);
    free(ch->bank_last_ps);
    free(ch->bank_col_ps);
    free(ch->wq);
    mem_bw_free(&ch->bus);
    memset(ch, 0, sizeof *ch);
}

/* The start of bank's latest refresh window that began at or before a
 * (a >= 0; refresh on). */
static ps_t window_start(const mem_hbm_chan *ch, int bank, ps_t a)
{
    ps_t I = ch->refresh_interval_ps;
    ps_t ph = ch->refresh_all ? ch->refresh_phase_ps
                              : (ch->refresh_phase_ps + (ps_t)((int64_t)bank * I / ch->nbanks)) % I;
    uint64_t x = (uint64_t)(a - ph + I);     /* > 0: ph < I */
    return a - (ps_t)(x - sk_udiv(x, (uint64_t)I, ch->refresh_inv) * (uint64_t)I);
}

/* ps of idle bus from t: booked on the calendar as the bytes that would
 * take that long (rounded up), so that transfers cannot use it. */
static ps_t hold(mem_hbm_chan *ch, ps_t t, ps_t ps)
{
    if (ps <= 0)
        return t;
    uint64_t fs = ch->bus.fs_per_byte ? ch->bus.fs_per_byte : 1;
    uint64_t b = ((uint64_t)ps * 1000 + fs - 1) / fs;
    ps_t end = mem_bw_take(&ch->bus, t, b);
    ch->bus.bytes -= b;   /* idle time, not data */
    return end;
}

/* All-bank refresh for transfers without an address: they name no bank
 * or row, so the windows are charged to the bus itself, where they belong
 * (no data move during an all-bank window).  Each window is booked once
 * on the bus as idle time (hold), when a piece arrives after its start or
 * the bus's bookings reach past it (a burst queues on the bus past
 * windows no arrival reaches), so a saturated channel loses refresh_ps of
 * every interval.  (The one transfer whose booking first reaches past a
 * window may overlap it: windows are booked up to a transfer's end after
 * it is placed.)  Windows that lie before the bus calendar's reach (bw.c:
 * an older booking would land at the calendar's start, taking time from
 * later transfers) are skipped: a channel untouched that long was idle
 * through them.  Per-bank refresh books nothing: the other banks serve.
 *
 * Addressed transfers (xfer) do not book the windows: they wait when
 * their bank is needed inside one, and a transfer queued behind others on
 * the bus may run through a window.  A saturated addressed stream loses
 * ~2.3 % to all-bank refresh that way, not the 6.9 % of the bus the
 * windows take; booking them there too (tried, 2026-12-05) took the
 * addressed HBM plateaus from -0.6..0.0 % to -4.9..-5.5 % against the
 * chip and E20's chases from 2 to 3 failing rows.  docs/memory.md "HBM". */
static void book_windows(mem_hbm_chan *ch, ps_t upto)
{
    const ps_t I = ch->refresh_interval_ps, R = ch->refresh_ps;
    if (upto < ch->refresh_next_ps)
        return;
    ps_t ws = window_start(ch, 0, upto);
    /* the calendar covers (mask + 1) slots back from its latest */
    ps_t reach = (ps_t)(((uint64_t)ch->bus.mask + 1) * ch->bus.slot_ps);
    ps_t oldest = (ps_t)(ch->bus.base * ch->bus.slot_ps);
    ps_t w = ch->refresh_next_ps ? SK_MAX(ch->refresh_next_ps, ws - (reach / I + 1) * I) : ws;
    for (; w <= ws; w += I)
        if (w + R > oldest)
            hold(ch, SK_MAX(w, oldest), w + R - SK_MAX(w, oldest));
    ch->refresh_next_ps = ws + I;
}

/* The transfer of `bytes` of row `row` in bank `bank`, arriving at t;
 * returns when it ends on the bus. */
static ps_t xfer(mem_hbm_chan *ch, int bank, uint64_t row, uint64_t bytes, ps_t t)
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
    int miss = ch->open_row[bank] != row + 1;
    /* an idle bank closes its row (memory.hbm.row_idle_ps) */
    if (!miss && ch->row_idle_ps && in_order && t > ch->bank_free_ps[bank] + ch->row_idle_ps)
        miss = 1;
    if (miss) {
        ready = (in_order ? SK_MAX(t, ch->bank_free_ps[bank]) : t) + ch->row_miss_ps;
    } else {
        /* a hit to a row still opening waits for it (out of order: for no
         * more than its own activation) */
        ready = in_order ? SK_MAX(t, ch->row_open_ps[bank])
                         : SK_MAX(t, SK_MIN(ch->row_open_ps[bank], t + ch->row_miss_ps));
    }
    if (ch->refresh_ps) {
        /* refresh: a: when the access needs its bank (a miss: its
         * activation; a hit: its column access); ws: the bank's latest
         * refresh window that started by then */
        ps_t a = miss ? ready - ch->row_miss_ps : ready;
        ps_t ws = window_start(ch, bank, a);
        if (a < ws + ch->refresh_ps) {
            /* the bank is refreshing: the access waits for the refresh to
             * end, then opens its row (the refresh closed every row) */
            ready = ws + ch->refresh_ps + ch->row_miss_ps;
            miss = 1;
            ch->refresh_waits++;
        } else if (!miss && ws >= ch->row_open_ps[bank] - ch->row_miss_ps) {
            /* a refresh since the row was opened closed it */
            ready = a + ch->row_miss_ps;
            miss = 1;
        }
    }
    if (miss) {
        ch->open_row[bank] = row + 1;
        ch->row_open_ps[bank] = ready;
        ch->row_misses++;
    }
    /* (All-bank refresh is charged above, to an access that needs its
     * bank inside a window; the window is not taken out of the bus
     * calendar, so a transfer queued behind others may run through it: an
     * approximation, see book_windows.) */
    ps_t end = mem_bw_take(&ch->bus, ready, bytes);
    if (ch->ccd_l_ps) {
        /* the bursts of one bank come ccd_l_ps apart (tCCD_L), however free
         * the bus: an access's first burst waits for the bank's last one
         * (in order), and its data end with its last burst.  The bus stays
         * booked for the bytes alone: other banks' bursts fill the gaps, so
         * a loaded channel keeps its rate and a lone access pays the spacing. */
        uint64_t n = (bytes + HBM_BURST_BYTES - 1) / HBM_BURST_BYTES;
        ps_t first = in_order ? SK_MAX(ready, ch->bank_col_ps[bank]) : ready;
        ps_t last = first + (ps_t)(n - 1) * ch->ccd_l_ps;
        end = SK_MAX(end, last + ch->burst_ps);
        ch->bank_col_ps[bank] = SK_MAX(ch->bank_col_ps[bank], last + ch->ccd_l_ps);
    }
    ch->bank_free_ps[bank] = SK_MAX(ch->bank_free_ps[bank], end);
    return end;
}

ps_t mem_hbm_chan_access(mem_hbm_chan *ch, int bank, uint64_t row, uint64_t bytes, ps_t t)
{
    if (ch->writing) {
        /* the first read after a drain: the bus turns round from the
         * drain's last write data (booked there, not at t; a read that
         * comes later than the turnaround finds the bus turned already) */
        if (t < ch->drain_end_ps + ch->wr_to_rd_ps) {
            hold(ch, ch->drain_end_ps, ch->wr_to_rd_ps);
            ch->turnarounds++;
        }
        ch->writing = 0;
    }
    /* a read that comes while the bus carries the last drain's writes
     * waits until the drain is over and the bus has turned round */
    if (ch->drain_end_ps > 0 && t >= ch->drain_start_ps && t < ch->drain_end_ps + ch->wr_to_rd_ps)
        t = ch->drain_end_ps + ch->wr_to_rd_ps;
    ps_t end = xfer(ch, bank, row, bytes, t);
    ch->rd_end_ps = SK_MAX(ch->rd_end_ps, end);
    return end + ch->latency_ps;
}

void mem_hbm_chan_turnaround(mem_hbm_chan *ch, ps_t rd_to_wr_ps, ps_t wr_to_rd_ps, int batch)
{
    free(ch->wq);
    ch->wq = NULL;
    ch->wq_n = 0;
    ch->wq_bytes = 0;
    ch->rd_to_wr_ps = SK_MAX(rd_to_wr_ps, 0);
    ch->wr_to_rd_ps = SK_MAX(wr_to_rd_ps, 0);
    ch->wq_max = SK_MAX(batch, 0);
    if (ch->wq_max)
        ch->wq = xcalloc((size_t)ch->wq_max, sizeof *ch->wq);
}

void mem_hbm_chan_refresh_all(mem_hbm_chan *ch, int all)
{
    ch->refresh_all = all != 0;
}

void mem_hbm_chan_refresh(mem_hbm_chan *ch, ps_t refresh_ps, ps_t interval_ps, ps_t phase_ps)
{
    int on = refresh_ps > 0 && interval_ps > 0;
    ch->refresh_ps = on ? SK_MIN(refresh_ps, interval_ps) : 0;
    ch->refresh_interval_ps = on ? interval_ps : 0;
    ch->refresh_phase_ps = on ? phase_ps % interval_ps : 0;
    ch->refresh_inv = on ? UINT64_MAX / (uint64_t)interval_ps : 0;
}

ps_t mem_hbm_chan_write(mem_hbm_chan *ch, int bank, uint64_t row, uint64_t bytes, ps_t t)
{
    if (!ch->wq_max)
        return xfer(ch, bank, row, bytes, t);
    mem_hbm_wr *w = &ch->wq[ch->wq_n++];
    w->bank = (uint32_t)bank;
    w->row = row;
    w->bytes = (uint32_t)bytes;
    /* the batch counts bursts (HBM_BURST_BYTES each), as a controller's
     * write queue holds one burst an entry: a 128 B write-back is four */
    ch->wq_bytes += bytes;
    if (ch->wq_n < ch->wq_max && ch->wq_bytes < (uint64_t)ch->wq_max * HBM_BURST_BYTES)
        return t;
    /* drain: turn the bus round from reads (if it carried any, since the
     * last drain, that ended less than the turnaround before), then
     * the batch, each write through its bank */
    ps_t at = t;
    if (!ch->writing && ch->rd_end_ps > 0 && t < ch->rd_end_ps + ch->rd_to_wr_ps) {
        at = hold(ch, t, ch->rd_to_wr_ps);
        ch->turnarounds++;
    }
    ps_t end = at;
    for (int i = 0; i < ch->wq_n; i++)
        end = SK_MAX(end, xfer(ch, (int)ch->wq[i].bank, ch->wq[i].row, ch->wq[i].bytes, at));
    ch->wq_n = 0;
    ch->wq_bytes = 0;
    ch->writing = 1;
    ch->drain_start_ps = t;
    ch->drain_end_ps = end;
    return end;
}

/* ---- the level ------------------------------------------------------------ */

typedef struct hbm_state {
    int nparts, per_part;         /* pseudo-channels per partition */
    mem_hbm_chan *ch;             /* nparts * per_part */
    unsigned chunk_shift, row_shift_extra;
    uint64_t row_bytes;
    uint64_t hash_mask;
    int frame_bit;
    uint64_t rr;                  /* address-less requests: next channel (0 .. channels - 1) */
    mem_stats *stats;             /* per SM, owned by the hierarchy */
} hbm_state;

/* One piece of `bytes` at addr, a read or a write. */
static ps_t hbm_piece(hbm_state *h, uint64_t addr, uint64_t bytes, ps_t t, int store, int *miss)
{
    int p = mem_partition_of(addr, h->nparts, h->hash_mask, h->frame_bit);
    uint64_t chunk = addr >> h->chunk_shift;
    int c = mem_slice_of(chunk, h->per_part);
    mem_hbm_chan *ch = &h->ch[p * h->per_part + c];
    uint64_t row = addr / (h->row_bytes * (uint64_t)h->per_part);
    uint64_t m0 = ch->row_misses;
    int bank = (int)(row % (uint64_t)ch->nbanks);
    ps_t done = store ? mem_hbm_chan_write(ch, bank, row, bytes, t)
                      : mem_hbm_chan_access(ch, bank, row, bytes, t);
    *miss = (int)(ch->row_misses - m0);
    return done;
}

/* The time a piece without an address arriving at t may start: t, or the
 * end of the window it arrives in. */
static ps_t addressless_start(mem_hbm_chan *ch, ps_t t)
{
    book_windows(ch, t);
    /* most pieces fall in the interval booked last: [next - I, next) */
    ps_t ws = ch->refresh_next_ps - ch->refresh_interval_ps;
    if (t < ws)
        ws = window_start(ch, 0, t);
    if (t < ws + ch->refresh_ps) {
        ch->refresh_waits++;
        return ws + ch->refresh_ps;
    }
    return t;
}

static ps_t hbm_access(mem_level *l, const mem_req *r)
{
    hbm_state *h = l->st;
    mem_stats *st = &h->stats[r->sm];
    int store = r->op == MEM_STORE;
    ps_t done = r->t;
    int misses = 0, miss;
    uint64_t moved = 0;
    if (r->addr) {
        /* pieces of at most 8 bursts (mem_coalesce's 8 sectors a line): a
         * chunk of a wider interleave is served in several, each on the
         * chunk's channel (hbm_piece maps by the chunk, not the piece) */
        mem_lines ls;
        unsigned piece = SK_MIN(1u << h->chunk_shift, 8u * HBM_BURST_BYTES);
        mem_coalesce(r->addr, r->mask, r->lane_bytes ? r->lane_bytes : 32, piece, HBM_BURST_BYTES, &ls);
        for (int i = 0; i < ls.n; i++) {
            uint64_t b = (uint64_t)mem_nsectors(ls.smask[i]) * HBM_BURST_BYTES;
            ps_t d = hbm_piece(h, ls.line[i], b, r->t, store, &miss);
            misses += miss;
            done = SK_MAX(done, d);
            moved += b;
        }
    } else {
        /* no addresses: spread the bytes over the channels in turn */
        uint64_t left = r->bytes, piece = 1ull << h->chunk_shift;
        int n = h->nparts * h->per_part;
        while (left) {
            uint64_t b = SK_MIN(left, piece);
            mem_hbm_chan *ch = &h->ch[h->rr];
            if (++h->rr == (uint64_t)n)         /* the next channel, in turn */
                h->rr = 0;
            ps_t t = r->t;
            int refresh = ch->refresh_ps && ch->refresh_all && t >= 0;
            if (refresh)
                t = addressless_start(ch, t);
            ps_t end = mem_bw_take(&ch->bus, t, b);
            if (refresh)
                book_windows(ch, end);
            done = SK_MAX(done, end + ch->latency_ps);
            left -= b;
        }
        moved = r->bytes;
    }
    if (store)
        st->dram_wr_bytes += moved;
    else
        st->dram_rd_bytes += moved;
    st->dram_row_misses += (uint64_t)misses;
    /* a store: when its channels' write queues took it (at once, or when
     * the batch it filled has drained: mem_hbm_chan_write) */
    return done;
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
    /* aligned as the type asks (its bus's line first), not calloc's 16 */
    h->ch = xcalloc_aligned(_Alignof(mem_hbm_chan), (size_t)(h->nparts * h->per_part), sizeof *h->ch);
    for (int i = 0; i < h->nparts * h->per_part; i++) {
        mem_hbm_chan_init(&h->ch[i], (uint64_t)c->hbm_pc_mbps, c->hbm_latency_ps,
                          c->hbm_row_miss_ps, c->hbm_banks);
        mem_hbm_chan_turnaround(&h->ch[i], c->hbm_rd_to_wr_ps, c->hbm_wr_to_rd_ps,
                                c->hbm_write_batch);
        mem_hbm_chan_ccd(&h->ch[i], c->hbm_ccd_l_ps);
        mem_hbm_chan_row_idle(&h->ch[i], c->hbm_row_idle_ps);
        /* refresh_group consecutive pseudo-channels (one memory
         * controller's) refresh in step; the groups' schedules are not
         * aligned: each starts at a phase from a hash of the group's index */
        ps_t I = c->hbm_refresh_ps > 0 ? c->hbm_refresh_interval_ps : 0;
        uint64_t mix = ((uint64_t)(i / c->hbm_refresh_group) + 1) * 0x9e3779b97f4a7c15ull;
        mem_hbm_chan_refresh(&h->ch[i], c->hbm_refresh_ps, I, I > 0 ? (ps_t)((mix >> 17) % (uint64_t)I) : 0);
        mem_hbm_chan_refresh_all(&h->ch[i], c->hbm_refresh_all_banks);
    }
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

mem_hbm_chan *mem_hbm_chan_at(mem_level *l, int i)
{
    hbm_state *h = l->st;
    return &h->ch[i];
}
