/* floorplan.c -- where the SMs and the uncore sit on the die.
 *
 * The layout follows GH100's die photo in outline: HBM PHYs and memory
 * controllers along the left and right edges, the L2 cache as a band across
 * the middle, NVLink/PCIe along the top and bottom edges, and the GPCs in
 * rows above and below the L2 band.  Widths of the strips are config keys
 * (floorplan.*); nothing here claims GH100's exact geometry, only that the
 * SMs form a grid of GPC blocks around a central L2, which is what makes
 * IR drop and the systematic part of process variation spatial.
 *
 * GPC g sits in block (row s / cols, column s % cols) of a gpc_rows x cols
 * grid, cols = ceil(gpcs / gpc_rows), s = g or floorplan.gpc_slots[g] - 1
 * (which lets a config place the GPCs that share an L2 partition on the
 * same side, src/mem/hier.c).  Every block is the same size, with
 * room for the largest GPC's TPCs in a grid of cells; a GPC with fewer TPCs
 * leaves cells empty (on a real die: TPCs fused off).  The SMs of a TPC
 * split its cell along the cell's longer side.  On the H200 config the four
 * "tail" TPCs (SMs 124-131) are a ninth GPC and get a block of their own:
 * on the die they lie in GPCs with disabled TPCs, but which ones is not
 * known.
 *
 * Block order: SM blocks first (block i is SM i), then L2, PHY and I/O.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/silicon.h"

static si_block rect(double x0, double y0, double x1, double y1, int kind)
{
    si_block b = { x0, y0, x1, y1, kind, -1, -1 };
    return b;
}

int si_floorplan_build(si_floorplan *fp, const cfg *c, const topo *t, sk_error *e)
{
    memset(fp, 0, sizeof *fp);
    double w = c->die_w_um, h = c->die_h_um;
    double phy = c->fp_phy_um, io = c->fp_io_um, l2 = c->fp_l2_um;
    int rows = SK_MIN(c->fp_gpc_rows, t->ngpcs);
    int cols = (t->ngpcs + rows - 1) / rows;

    double core_w = w - 2 * phy, core_h = h - 2 * io - (rows > 1 ? l2 : 0);
    if (core_w <= 0 || core_h <= 0)
        return sk_errorf(e, SK_ECONFIG, "config: floorplan: strips of %d um (phy) and %d um "
                         "(io), %d um (l2) leave no room for GPCs on a %d x %d um die",
                         c->fp_phy_um, c->fp_io_um, c->fp_l2_um, c->die_w_um, c->die_h_um);

    /* floorplan.gpc_slots: one int for all = GPC order; else a block per GPC */
    int slot[CFG_MAX_GPCS], listed = 0;
    for (int g = 1; g < CFG_MAX_GPCS; g++)
        listed |= c->fp_gpc_slots[g] != c->fp_gpc_slots[0];
    for (int g = 0; g < t->ngpcs; g++) {
        slot[g] = listed ? c->fp_gpc_slots[g] - 1 : g;
        if (slot[g] < 0 || slot[g] >= rows * cols)
            return sk_errorf(e, SK_ECONFIG, "config: floorplan.gpc_slots: %d: expected one "
                             "block 1..%d per GPC (topology.gpcs = %d)", c->fp_gpc_slots[g],
                             rows * cols, t->ngpcs);
        for (int k = 0; k < g; k++)
            if (slot[k] == slot[g])
                return sk_errorf(e, SK_ECONFIG, "config: floorplan.gpc_slots: %d: expected "
                                 "each block once", slot[g] + 1);
    }

    int max_tpcs = 1;
    for (int g = 0; g < t->ngpcs; g++)
        max_tpcs = SK_MAX(max_tpcs, c->tpcs_per_gpc[g]);
    double bw = core_w / cols, bh = core_h / rows;
    /* TPC cells: columns chosen so that cells come out near square. */
    int tc = (int)lround(sqrt(max_tpcs * bw / bh));
    tc = SK_MAX(1, SK_MIN(tc, max_tpcs));
    int tr = (max_tpcs + tc - 1) / tc;
    double cw = bw / tc, ch = bh / tr;

    fp->w_um = w;
    fp->h_um = h;
    fp->nsms = t->nsms;
    int nextra = (rows > 1 && l2 > 0 ? 1 : 0) + (phy > 0 ? 2 : 0) + (io > 0 ? 2 : 0);
    fp->nblocks = t->nsms + nextra;
    fp->blocks = xcalloc((size_t)fp->nblocks, sizeof *fp->blocks);

    int mid = rows / 2;   /* rows >= mid lie below the L2 band */
    for (int i = 0; i < t->nsms; i++) {
        const topo_sm *m = &t->sm[i];
        int r = slot[m->gpc] / cols, col = slot[m->gpc] % cols;
        double y = io + r * bh + (rows > 1 && r >= mid ? l2 : 0);
        double x = phy + col * bw;
        double cx = x + (m->tpc % tc) * cw, cy = y + (m->tpc / tc) * ch;
        int n = c->sms_per_tpc, s = m->slot;
        si_block b;
        if (cw >= ch)
            b = rect(cx + cw * s / n, cy, cx + cw * (s + 1) / n, cy + ch, SI_BLOCK_SM);
        else
            b = rect(cx, cy + ch * s / n, cx + cw, cy + ch * (s + 1) / n, SI_BLOCK_SM);
        b.sm = i;
        b.gpc = m->gpc;
        fp->blocks[i] = b;
    }
    int k = t->nsms;
    if (rows > 1 && l2 > 0) {
        double y = io + mid * bh;
        fp->blocks[k++] = rect(phy, y, w - phy, y + l2, SI_BLOCK_L2);
    }
    if (phy > 0) {
        fp->blocks[k++] = rect(0, 0, phy, h, SI_BLOCK_PHY);
        fp->blocks[k++] = rect(w - phy, 0, w, h, SI_BLOCK_PHY);
    }
    if (io > 0) {
        fp->blocks[k++] = rect(phy, 0, w - phy, io, SI_BLOCK_IO);
        fp->blocks[k++] = rect(phy, h - io, w - phy, h, SI_BLOCK_IO);
    }
    return 0;
}

void si_floorplan_free(si_floorplan *fp)
{
    if (!fp)
        return;
    free(fp->blocks);
    memset(fp, 0, sizeof *fp);
}
