/* hier.c -- the hierarchy as a whole: it builds one L1 per SM over one L2
 * over HBM, derives every SM's routes to the L2 partitions from the
 * floorplan, and holds the per-SM counters the levels add to.
 *
 * Geometry (src/silicon/floorplan.c places the SMs around a central L2
 * band).  The band is split along x into memory.l2.partitions equal halves;
 * a partition's centre is its half's centre.  The GPCs, in order of their
 * SMs' centroid from left to right, are dealt out in equal shares: the left
 * half of them to partition 0 (arXiv:2609.24270: 4 GPCs form a partition
 * on the H200).  The tail groups (topology.tail_gpcs: SMs in no full GPC)
 * go to the partition nearest them (a tie to the lower partition).
 * configs/h200.yaml's floorplan.gpc_slots places the GPCs so that this
 * gives E11's measured map: GPCs 0, 4, 5, 6 plus the tail (66 SMs) and 1,
 * 2, 3, 7 (66); another chip can differ (which 4 GPCs pair up varies with
 * floorsweeping).  An SM's route to a
 * partition is the Manhattan distance from its block's centre to the
 * partition's centre (wires run in x and y), and its unloaded L2 hit
 * latency is memory.l2.hit_ps plus that route, out and back, at
 * memory.l2.noc_ps_per_mm.  So SMs far from the band see longer
 * latencies, and, where their L1's MSHRs bound their requests in flight,
 * less bandwidth (Little's law) -- from where they sit, not from a table.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/memsys.h"
#include "skewsim/silicon.h"
#include "mem_internal.h"

struct mem_hier {
    int nsms;
    cfg c;
    mem_stats *stats;         /* nsms: since creation (the levels add to these) */
    mem_stats *at_start;      /* nsms: the same at the current kernel's start */
    mem_stats *kstats;        /* nsms: scratch for mem_hier_stats() */
    /* nsms: each SM's own count of scheduler-cycles charged to memory
     * (sm.h, stall[SM_STALL_MEMORY]), which stall_cycles mirrors: copied
     * in whenever the counters are read, so that the SM's loop counts
     * each stall once (mem_hier_bind_stall) */
    const uint64_t **stall_src;
    mem_level **l1;           /* nsms */
    mem_level *l2, *hbm;
    uint64_t l1_bytes;        /* after the current carve-out */
    /* memory.tlb.enabled (tlb.c): each L1's misses pass its SM's
     * translation step on the way to the L2; else both are NULL */
    mem_level **tlb;          /* nsms */
    mem_tlb **l2tlb;          /* nl2tlb: one for the chip or one per GPC */
    int nl2tlb;
};

static const char *const stat_names[] = {
#define NAME_(name, help) #name,
    MEM_STAT_MAP(NAME_)
#undef NAME_
};
static const char *const stat_helps[] = {
#define HELP_(name, help) help,
    MEM_STAT_MAP(HELP_)
#undef HELP_
};

const char *mem_stat_name(int i)
{
    return i >= 0 && i < MEM_NSTATS ? stat_names[i] : NULL;
}

const char *mem_stat_help(int i)
{
    return i >= 0 && i < MEM_NSTATS ? stat_helps[i] : NULL;
}

uint64_t mem_stat_get(const mem_stats *s, int i)
{
    const uint64_t *v = (const uint64_t *)s;
    return i >= 0 && i < MEM_NSTATS ? v[i] : 0;
}

void mem_stats_add(mem_stats *dst, const mem_stats *src)
{
    uint64_t *d = (uint64_t *)dst;
    const uint64_t *s = (const uint64_t *)src;
    for (int i = 0; i < MEM_NSTATS; i++)
        d[i] += s[i];
}

/* stall_cycles as the SM counts it now (0 for an SM bound to nothing). */
static void sync_stall(const mem_hier *h, int sm)
{
    h->stats[sm].stall_cycles = h->stall_src[sm] ? *h->stall_src[sm] : 0;
}

/* Shared-memory carve-outs of compute capability 9.0, KB (CUDA C++
 * Programming Guide, "Compute Capability 9.0"). */
static const int carveouts_kb[] = { 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 };

static uint64_t l1_after_carveout(const cfg *c, uint64_t smem)
{
    uint64_t unified = (uint64_t)c->l1_unified_bytes;
    uint64_t carve = unified;
    for (size_t i = 0; i < SK_ARRAY_LEN(carveouts_kb); i++) {
        uint64_t b = (uint64_t)carveouts_kb[i] * 1024;
        if (b >= smem && b <= unified) {
            carve = b;
            break;
        }
    }
    if (smem > unified)
        carve = unified;
    return unified - carve;
}

/* Each GPC's route to each L2 slice (memory.l2.route_spread_ps).  The
 * chip's L2 hit latency from one SM differs line by line and repeats: E11's
 * l2map (validation/h200/capture/l2map.csv.gz: each SM s reads line s mod 32
 * of 384 pages twice, the second read an L2 hit), less each SM's and each
 * page's mean, spreads 17.95 cycles s.d., flat (quantiles -26/+26 cycles at
 * 5/95 %, kurtosis 2.1: a uniform draw ~62 cycles wide).  SMs of one GPC
 * reading the same 256 B chunk agree (r = 0.86 over 72 pairs, 80 with the
 * tail on GPC 0; 0.98 within a TPC), SMs of one GPC reading other chunks
 * of the page do not (0.02, even lines 8-9 against 10-11), and two GPCs
 * reading one chunk agree or oppose: GPCs 0, 1, 2, 6 and the tail with
 * each other and 3, 4, 5, 7 with each other (r +0.74 on average), the two
 * groups against each other (-0.74), in either home (two H100s alike,
 * with groups of their own).  So the groups are the two rows of GPC blocks
 * either side of the L2 band, and a chunk's slice has one place across
 * the band: near one row, far from the other.  Each partition's slices
 * sit evenly across the width; which class sits where is a shuffle drawn
 * from sim.seed, the same in both partitions (GPCs of the two homes agree
 * too), all moved by memory.l2.route_row_skew_permille; a GPC's route to
 * it is its place, signed by the GPC's row (mem_hier_row: the side of the
 * band its hub lies on), for route_row_pct of the variance (0.86: the
 * chip's r over what one GPC's own SMs reach, 0.86).  The rest each (GPC,
 * partition, class) draws from sim.seed, uniform over the width and
 * centred on the GPC's mean over the partition's classes; a line's class
 * is a hash of its 256 B chunk into the partition's slice count (l2.c
 * hit_lat).  Which chunks a GPC reaches fast is the chip's own and not
 * known: the shuffle and the draws stand for it.  A tail TPC draws with
 * its host GPC
 * (topology.tail_host_gpc: on E11's chip SM 128 agrees with GPC 0's SMs 0
 * and 1 on their chunk at r = 0.97, as a TPC's own two SMs do).
 * validate's l2map section computes each of these figures from the
 * capture and from the model (validate_l2map.c). */
static void route_spread(const cfg *c, const topo *t, const double *gy, double by, mem_l2_geo *g)
{
    int np = g->nparts, ns = c->l2_slices_per_partition, n = g->nsms;
    g->route_ps = NULL;
    g->nroutes = ns;
    g->row = xcalloc((size_t)n, sizeof *g->row);
    for (int i = 0; i < n; i++) {
        double dy = gy[t->sm[i].hub_gpc] - by;
        g->row[i] = (int8_t)(dy > 1e-6 ? 1 : dy < -1e-6 ? -1 : 0);
    }
    if (c->l2_route_spread_ps <= 0)
        return;
    /* the row's share a and the GPC's own b, a^2 + b^2 = 1: the draw's
     * variance stays the width's */
    const double a = sqrt(c->l2_route_row_pct / 100.0), b = sqrt(1.0 - a * a);
    /* each class's slice's place across the band, the same for every GPC
     * and both partitions: a partition's ns slices evenly spaced over the
     * width (so the spread is the width's, whatever the seed), which class
     * at which place a shuffle drawn from sim.seed, all moved by the skew */
    double *y = xcalloc((size_t)ns, sizeof *y);
    int *at = xcalloc((size_t)ns, sizeof *at);
    for (int k = 0; k < ns; k++)
        at[k] = k;
    for (int k = ns - 1; k > 0; k--) {
        uint64_t h = sk_mix64(c->seed ^ sk_mix64(0x726f772d79ull ^ (uint64_t)k));
        int j = (int)(h % (uint64_t)(k + 1)), tmp = at[k];
        at[k] = at[j];
        at[j] = tmp;
    }
    for (int k = 0; k < ns; k++)
        y[at[k]] = (k + 0.5) / ns - 0.5 + c->l2_route_row_skew_permille / 1000.0;
    free(at);
    g->route_ps = xcalloc((size_t)n * (size_t)(np * ns), sizeof *g->route_ps);
    double *d = xcalloc((size_t)ns, sizeof *d);
    for (int i = 0; i < n; i++)
        for (int p = 0; p < np; p++) {
            double mean = 0;
            for (int k = 0; k < ns; k++) {
                uint64_t h = sk_mix64(c->seed ^ sk_mix64(0x726f757465ull ^ ((uint64_t)t->sm[i].hub_gpc << 32) ^
                                                         (uint64_t)(p * ns + k)));
                d[k] = ((double)(h >> 11) * 0x1p-53 - 0.5) * b * c->l2_route_spread_ps;
                mean += d[k] / ns;
            }
            /* a slice placed toward a row (y > 0 toward row +1) is nearer
             * that row's GPCs and farther from the other's */
            for (int k = 0; k < ns; k++)
                g->route_ps[((size_t)i * np + p) * ns + k] =
                    (int32_t)llround(d[k] - mean - a * g->row[i] * y[k] * c->l2_route_spread_ps);
        }
    free(d);
    free(y);
}

static int build_geo(const cfg *c, const topo *t, const si_floorplan *fp, mem_l2_geo *g)
{
    int np = c->l2_partitions, n = t->nsms;
    g->nsms = n;
    g->nparts = np;
    g->home = xcalloc((size_t)n, sizeof *g->home);
    g->lat_ps = xcalloc((size_t)(n * np), sizeof *g->lat_ps);
    g->dist_um = xcalloc((size_t)(n * np), sizeof *g->dist_um);

    /* the L2 band, or the die's middle when the floorplan has none */
    double bx0 = 0, bx1 = fp->w_um, by = fp->h_um / 2;
    for (int b = 0; b < fp->nblocks; b++)
        if (fp->blocks[b].kind == SI_BLOCK_L2) {
            bx0 = fp->blocks[b].x0_um;
            bx1 = fp->blocks[b].x1_um;
            by = (fp->blocks[b].y0_um + fp->blocks[b].y1_um) / 2;
        }
    double px[2];
    for (int p = 0; p < np; p++)
        px[p] = bx0 + (bx1 - bx0) * (2 * p + 1) / (2.0 * np);
    g->fabric_um = np > 1 ? (uint32_t)lround(px[1] - px[0]) : 0;

    /* GPC centroids and home partitions */
    int ng = t->ngpcs;
    double *gx = xcalloc((size_t)ng, sizeof *gx);
    /* (and in y: a GPC's hub, where its routes leave it, is its centroid) */
    double *gy = xcalloc((size_t)ng, sizeof *gy);
    int *gn = xcalloc((size_t)ng, sizeof *gn), *ghome = xcalloc((size_t)ng, sizeof *ghome);
    for (int i = 0; i < n; i++) {
        const si_block *b = &fp->blocks[i];
        gx[t->sm[i].gpc] += (b->x0_um + b->x1_um) / 2;
        gy[t->sm[i].gpc] += (b->y0_um + b->y1_um) / 2;
        gn[t->sm[i].gpc]++;
    }
    /* real GPCs in order of centroid x (ties by id): the first
     * ceil(real / nparts) to partition 0, and so on; tail groups (SMs in
     * no full GPC) to the partition nearest their centroid */
    int nreal = ng - c->tail_gpcs;
    int *order = xcalloc((size_t)ng, sizeof *order);
    for (int k = 0; k < ng; k++) {
        gx[k] = gn[k] ? gx[k] / gn[k] : 0;
        gy[k] = gn[k] ? gy[k] / gn[k] : 0;
        order[k] = k;
    }
    for (int i = 1; i < nreal; i++)
        for (int j = i; j > 0 && gx[order[j]] < gx[order[j - 1]] - 1e-6; j--) {
            int tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    int per = (nreal + np - 1) / np;
    for (int r = 0; r < nreal; r++)
        ghome[order[r]] = SK_MIN(r / per, np - 1);
    for (int k = nreal; k < ng; k++) {
        int best = 0;
        for (int p = 1; p < np; p++)
            if (fabs(gx[k] - px[p]) < fabs(gx[k] - px[best]))
                best = p;
        ghome[k] = best;
    }
    free(order);
    /* Each SM's way to its GPC's hub along its TPC chain (topology.cpcs_per_gpc,
     * docs/memory.md "Per-SM L2 latency"): its chain's own offset and
     * tpc_hop_ps per TPC passed, centred over the chip's SMs so that hit_ps
     * stays the chip's mean. */
    int cpc[CFG_MAX_CPCS];
    if (cfg_cpc_ps(c, cpc) != 0)
        memset(cpc, 0, sizeof cpc);             /* refused by cfg_validate */
    double *chain = xcalloc((size_t)n, sizeof *chain), cmean = 0;
    for (int i = 0; i < n; i++) {
        chain[i] = cpc[t->sm[i].cpc] + (double)t->sm[i].hops * c->l2_tpc_hop_ps;
        cmean += chain[i] / n;
    }
    for (int i = 0; i < n; i++) {
        const si_block *b = &fp->blocks[i];
        double sx = (b->x0_um + b->x1_um) / 2, sy = (b->y0_um + b->y1_um) / 2;
        int hub = t->sm[i].hub_gpc;
        g->home[i] = ghome[hub];
        for (int p = 0; p < np; p++) {
            /* energy: the SM's own wire; latency: its hub's route plus its chain */
            double d = fabs(sx - px[p]) + fabs(sy - by);
            double dh = fabs(gx[hub] - px[p]) + fabs(gy[hub] - by);
            g->dist_um[i * np + p] = (uint32_t)lround(d);
            /* out and back: 2 d mm x ps_per_mm */
            double v = c->l2_hit_ps + 2 * dh * 1e-3 * c->l2_noc_ps_per_mm + chain[i] - cmean;
            g->lat_ps[i * np + p] = v > 0 ? (ps_t)llround(v) : 0;
        }
    }
    free(chain);
    route_spread(c, t, gy, by, g);
    free(gx);
    free(gy);
    free(gn);
    free(ghome);
    return 0;
}

mem_hier *mem_hier_create(const cfg *c, const topo *t, const si_floorplan *fp, sk_error *e)
{
    si_floorplan own;
    if (!fp) {
        if (si_floorplan_build(&own, c, t, e))
            return NULL;
        fp = &own;
    }
    mem_hier *h = xcalloc(1, sizeof *h);
    h->nsms = t->nsms;
    h->c = *c;
    h->stats = xcalloc((size_t)h->nsms, sizeof *h->stats);
    h->at_start = xcalloc((size_t)h->nsms, sizeof *h->at_start);
    h->stall_src = xcalloc((size_t)h->nsms, sizeof *h->stall_src);
    h->kstats = xcalloc((size_t)h->nsms, sizeof *h->kstats);
    mem_l2_geo geo;
    build_geo(c, t, fp, &geo);
    if (fp == &own)
        si_floorplan_free(&own);
    h->hbm = mem_hbm_create(c, h->stats);
    h->l2 = mem_l2_create(c, &geo, h->hbm, h->stats);
    h->l1_bytes = l1_after_carveout(c, (uint64_t)c->smem_bytes);
    h->l1 = xcalloc((size_t)h->nsms, sizeof *h->l1);
    if (c->tlb_enabled) {
        h->nl2tlb = c->tlb_l2_scope == TLB_SCOPE_GPC ? t->ngpcs : 1;
        h->l2tlb = xcalloc((size_t)h->nl2tlb, sizeof *h->l2tlb);
        for (int g = 0; g < h->nl2tlb; g++)
            h->l2tlb[g] = mem_tlb_create((uint32_t)c->tlb_l2_entries, (uint32_t)c->tlb_l2_ways,
                                         TLB_REPLACE_LRU, 0);
        h->tlb = xcalloc((size_t)h->nsms, sizeof *h->tlb);
    }
    for (int i = 0; i < h->nsms; i++) {
        mem_level *behind = h->l2;
        if (h->tlb)
            behind = h->tlb[i] = mem_tlb_level_create(
                c, i, h->l2tlb[h->nl2tlb > 1 ? t->sm[i].gpc : 0], h->l2, h->stats);
        h->l1[i] = mem_l1_create(c, i, h->l1_bytes, behind, h->stats);
    }
    return h;
}

void mem_hier_destroy(mem_hier *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->nsms; i++)
        h->l1[i]->ops->destroy(h->l1[i]);
    free(h->l1);
    for (int i = 0; h->tlb && i < h->nsms; i++)
        h->tlb[i]->ops->destroy(h->tlb[i]);
    free(h->tlb);
    for (int g = 0; g < h->nl2tlb; g++)
        mem_tlb_destroy(h->l2tlb[g]);
    free(h->l2tlb);
    h->l2->ops->destroy(h->l2);
    h->hbm->ops->destroy(h->hbm);
    free(h->stats);
    free(h->at_start);
    free(h->stall_src);
    free(h->kstats);
    free(h);
}

mem_level *mem_hier_l1(mem_hier *h, int sm)
{
    return h->l1[sm];
}

mem_level *mem_hier_l2(mem_hier *h)
{
    return h->l2;
}

mem_level *mem_hier_hbm(mem_hier *h)
{
    return h->hbm;
}

mem_level *mem_hier_tlb(mem_hier *h, int sm)
{
    return h->tlb ? h->tlb[sm] : NULL;
}

void mem_hier_set_mhz(mem_hier *h, int sm, int mhz)
{
    mem_l1_set_mhz(h->l1[sm], mhz);
}

uint64_t mem_hier_l1_bytes(const mem_hier *h)
{
    return h->l1_bytes;
}

uint64_t mem_hier_smem_config(const mem_hier *h)
{
    return (uint64_t)h->c.l1_unified_bytes - h->l1_bytes;
}

void mem_hier_kernel_start(mem_hier *h, uint64_t smem_per_sm)
{
    /* The L1s are not coherent, and the chip empties them at every launch
     * (E19b, validation/h200 README: a chase warmed by the launch before
     * misses its first pass; warmed in the same launch it hits):
     * memory.l1.launch_invalidate.  A new carve-out empties them anyway. */
    h->l1_bytes = l1_after_carveout(&h->c, smem_per_sm);
    for (int i = 0; i < h->nsms; i++)
        mem_l1_resize(h->l1[i], h->l1_bytes, h->c.l1_launch_invalidate);
    if (h->tlb && h->c.tlb_launch_flush) {
        for (int i = 0; i < h->nsms; i++)
            mem_tlb_level_flush(h->tlb[i]);
        for (int g = 0; g < h->nl2tlb; g++)
            mem_tlb_flush(h->l2tlb[g]);
    }
    for (int i = 0; i < h->nsms; i++)
        sync_stall(h, i);
    memcpy(h->at_start, h->stats, (size_t)h->nsms * sizeof *h->stats);
}

int mem_hier_smem(mem_hier *h, int sm, const uint64_t *addr, uint32_t mask, unsigned lane_bytes)
{
    /* without addresses, the fewest rows its active lanes' bytes fill
     * (an LDS.128 four, conflict-free) */
    int w = addr ? mem_bank_degree(addr, mask, lane_bytes)
                 : (int)mem_smem_rows(mask, lane_bytes);
    if (w < 1)
        w = 1;
    h->stats[sm].smem_accesses++;
    h->stats[sm].smem_wavefronts += (uint64_t)w;
    return w;
}

void mem_hier_bind_stall(mem_hier *h, int sm, const uint64_t *src)
{
    h->stall_src[sm] = src;
    sync_stall(h, sm);
}

ps_t mem_hier_store_drain(const mem_hier *h, int sm)
{
    return mem_l1_store_drain(h->l1[sm]);
}

const mem_stats *mem_hier_stats(const mem_hier *h, int sm)
{
    sync_stall(h, sm);
    const uint64_t *a = (const uint64_t *)&h->stats[sm], *b = (const uint64_t *)&h->at_start[sm];
    uint64_t *k = (uint64_t *)&h->kstats[sm];
    for (int i = 0; i < MEM_NSTATS; i++)
        k[i] = a[i] - b[i];
    return &h->kstats[sm];
}

const mem_stats *mem_hier_total(const mem_hier *h, int sm)
{
    sync_stall(h, sm);
    return &h->stats[sm];
}

int mem_hier_num_sms(const mem_hier *h)
{
    return h->nsms;
}

int mem_hier_home(const mem_hier *h, int sm)
{
    return mem_l2_home(h->l2, sm);
}

int mem_hier_row(const mem_hier *h, int sm)
{
    return mem_l2_row(h->l2, sm);
}

ps_t mem_hier_l2_hit_ps(const mem_hier *h, int sm, int p)
{
    return mem_l2_hit_ps(h->l2, sm, p);
}

void mem_hier_l2_occupancy(const mem_hier *h, uint64_t *lines, uint64_t *replicas)
{
    mem_l2_occupancy(h->l2, lines, replicas);
}
