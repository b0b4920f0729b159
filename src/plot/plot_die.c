/* plot_die.c -- die floorplan heatmaps: one value per SM (clock, supply,
 * temperature, busy fraction, CTAs) painted on the silicon model's own
 * floorplan (src/silicon/floorplan.c), with the GPCs outlined and the
 * uncore strips (L2, HBM PHYs, I/O) drawn in grey, so that a spatial
 * pattern (IR drop towards the die centre, a slow corner of the variation
 * map) is visible at a glance.
 *
 * The colour scale spans the data's own minimum to maximum (viridis), so
 * a 2 % spread is as visible as a 50 % one; the colour bar's numbers say
 * how big it is.  A metric that is equal on every SM gets one colour and
 * says so in the subtitle.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "skewsim/plot.h"
#include "skewsim/silicon.h"
#include "skewsim/topo.h"
#include "plot_priv.h"

typedef struct die_metric {
    const char *what, *unit;
    double (*get)(const plot_sm *m);
    int decimals;               /* of one SM's value in its tooltip */
} die_metric;

static double m_mhz(const plot_sm *m) { return m->mean_mhz; }
static double m_vdd(const plot_sm *m) { return m->vdd_min_mv; }
static double m_temp(const plot_sm *m) { return m->temp_max_c; }
static double m_busy(const plot_sm *m) { return m->busy_frac * 100; }
static double m_ctas(const plot_sm *m) { return m->ctas; }

/* Indexed by plot_kind.metric (plot.c's table). */
static const die_metric METRICS[] = {
    [PLOT_DIE_MHZ] = {"mean clock", "MHz", m_mhz, 1},
    [PLOT_DIE_VDD] = {"lowest supply at the SM", "mV", m_vdd, 1},
    [PLOT_DIE_TEMP] = {"hottest temperature", "\xc2\xb0" "C", m_temp, 2},
    [PLOT_DIE_BUSY] = {"busy (a CTA resident)", "%", m_busy, 1},
    [PLOT_DIE_CTAS] = {"CTAs run", "CTAs", m_ctas, 0},
};

#define W 940.0
#define H 720.0
#define DIE_X 60.0
#define DIE_Y 72.0
#define DIE_PX 600.0

static void block_label(svg *s, const si_block *b, const plot_scale *sx, const plot_scale *sy,
                        const char *text)
{
    double x0 = plot_map(sx, b->x0_um), x1 = plot_map(sx, b->x1_um);
    double y0 = plot_map(sy, b->y0_um), y1 = plot_map(sy, b->y1_um);
    double w = x1 - x0, h = y1 - y0;
    if (w < 14 && h < 14)
        return;
    int vertical = h > w * 2;
    double size = SK_MIN(12, (vertical ? w : h) * 0.6);
    svg_text(s, (x0 + x1) / 2 + (vertical ? size / 3 : 0), (y0 + y1) / 2 + (vertical ? 0 : size / 3),
             size, "middle", 0, vertical ? -90 : 0, "#555555", text);
}

svg *plot_draw_die(const plot_kind *k, const plot_input *in, sk_error *e)
{
    const plot_run *r = in->run;
    const die_metric *dm = &METRICS[k->metric];
    topo t;
    if (topo_build(&t, in->cfg, e) < 0)
        return NULL;
    si_floorplan fp;
    if (si_floorplan_build(&fp, in->cfg, &t, e) < 0) {
        topo_free(&t);
        return NULL;
    }
    if (fp.nsms != r->nsms) {
        sk_errorf(e, SK_ECONFIG, "plot %s: the config has %d SMs but the run in %s has %d: "
                  "give the config the run used (-c)", k->name, fp.nsms, r->dir, r->nsms);
        si_floorplan_free(&fp);
        topo_free(&t);
        return NULL;
    }

    double lo = INFINITY, hi = -INFINITY, sum = 0;
    int n = 0, argmin = -1, argmax = -1;
    for (int i = 0; i < r->nsms; i++) {
        double v = dm->get(&r->sms[i]);
        if (!isfinite(v))
            continue;
        if (v < lo)
            lo = v, argmin = i;
        if (v > hi)
            hi = v, argmax = i;
        sum += v;
        n++;
    }
    char title[160], sub[320];
    snprintf(title, sizeof title, "Per-SM %s (%s) on the die", dm->what, dm->unit);
    if (n == 0) {
        snprintf(sub, sizeof sub, "no SM has a value (no epochs.csv rows?)");
        lo = 0, hi = 1;
    } else if (hi == lo) {
        snprintf(sub, sizeof sub, "%d SMs, all %.*f %s", r->nsms, dm->decimals, lo, dm->unit);
        double m = SK_MAX(fabs(lo) * 0.01, 0.5);
        lo -= m, hi += m;
    } else {
        int d = dm->decimals;
        snprintf(sub, sizeof sub, "%d SMs: min %.*f (SM %d), mean %.*f, max %.*f (SM %d) %s; "
                 "colours span min to max",
                 r->nsms, d, lo, argmin, d + 1, sum / n, d, hi, argmax, dm->unit);
    }

    svg *s = svg_create(W, H, title);
    plot_title(s, W, title, sub);

    /* Die in a DIE_PX square at its own aspect ratio; y grows downwards as
     * on the floorplan (y0 of a block is its top edge in the picture). */
    double scale = DIE_PX / SK_MAX(fp.w_um, fp.h_um);
    plot_scale sx = {0, fp.w_um, DIE_X, DIE_X + fp.w_um * scale};
    plot_scale sy = {0, fp.h_um, DIE_Y, DIE_Y + fp.h_um * scale};
    svg_rect(s, sx.r0, sy.r0, sx.r1 - sx.r0, sy.r1 - sy.r0, "#f4f4f4", "#222222", 1.5);

    for (int b = fp.nsms; b < fp.nblocks; b++) {
        const si_block *bl = &fp.blocks[b];
        static const char *const names[] = {"", "L2 cache", "HBM PHY / memory controllers",
                                            "NVLink / PCIe"};
        static const char *const fills[] = {"", "#d4d4d4", "#c4c4c4", "#e2e2e2"};
        svg_rect(s, plot_map(&sx, bl->x0_um), plot_map(&sy, bl->y0_um), (bl->x1_um - bl->x0_um) * scale,
                 (bl->y1_um - bl->y0_um) * scale, fills[bl->kind], "#999999", 0.5);
        block_label(s, bl, &sx, &sy, names[bl->kind]);
    }

    for (int i = 0; i < fp.nsms; i++) {
        const si_block *bl = &fp.blocks[i];
        double v = dm->get(&r->sms[i]);
        double x0 = plot_map(&sx, bl->x0_um), y0 = plot_map(&sy, bl->y0_um);
        double w = (bl->x1_um - bl->x0_um) * scale, h = (bl->y1_um - bl->y0_um) * scale;
        char c[8] = "#ffffff", tip[160], val[48];
        double tt = (v - lo) / (hi - lo);
        if (isfinite(v)) {
            plot_viridis(tt, c);
            snprintf(val, sizeof val, "%.*f", dm->decimals, v);
        } else {
            snprintf(val, sizeof val, "no value");
        }
        snprintf(tip, sizeof tip, "SM %d (GPC %d, TPC %d): %s %s", i, bl->gpc, r->sms[i].tpc, val,
                 isfinite(v) ? dm->unit : "");
        svg_rect_tip(s, x0, y0, w, h, c, "#ffffff", 0.6, tip);
        const char *ink = isfinite(v) && tt > 0.55 ? "#111111" : "#ffffff";
        if (w >= 70 && h >= 44) {
            /* Room for the value itself: teaching chips have a few big SMs. */
            char id[16], vv[64];
            snprintf(id, sizeof id, "SM %d", i);
            snprintf(vv, sizeof vv, "%s %s", val, isfinite(v) ? dm->unit : "");
            svg_text(s, x0 + w / 2, y0 + h / 2 - 4, 14, "middle", 1, 0, ink, id);
            svg_text(s, x0 + w / 2, y0 + h / 2 + 16, 13, "middle", 0, 0, ink, vv);
        } else if (w >= 16 && h >= 10) {
            char id[16];
            snprintf(id, sizeof id, "%d", i);
            double size = SK_MIN(11, SK_MIN(h * 0.55, w / 2.2));
            svg_text(s, x0 + w / 2, y0 + h / 2 + size / 3, size, "middle", 0, 0, ink, id);
        }
    }

    /* GPC outlines: the bounding box of each GPC's SM blocks. */
    for (int g = 0; g < t.ngpcs; g++) {
        double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
        for (int i = 0; i < fp.nsms; i++) {
            const si_block *bl = &fp.blocks[i];
            if (bl->gpc != g)
                continue;
            x0 = SK_MIN(x0, bl->x0_um), y0 = SK_MIN(y0, bl->y0_um);
            x1 = SK_MAX(x1, bl->x1_um), y1 = SK_MAX(y1, bl->y1_um);
        }
        if (!isfinite(x0))
            continue;
        double px = plot_map(&sx, x0), py = plot_map(&sy, y0);
        svg_rect(s, px, py, (x1 - x0) * scale, (y1 - y0) * scale, "none", "#111111", 2.2);
        char gl[16];
        snprintf(gl, sizeof gl, "GPC %d", g);
        double lw = 8 + 6.6 * (double)strlen(gl);
        svg_rect(s, px + 2, py + 2, lw, 15, "#ffffff", "#111111", 0.8);
        svg_text(s, px + 2 + lw / 2, py + 13.5, 11, "middle", 1, 0, "#111111", gl);
    }

    char bar[64];
    snprintf(bar, sizeof bar, "%s", dm->unit);
    plot_colorbar(s, DIE_X + DIE_PX + 70, DIE_Y + 40, 26, 420, lo, hi, bar);
    double ly = DIE_Y + 500;
    svg_text(s, DIE_X + DIE_PX + 40, ly, 12, "start", 1, 0, NULL, "Reading it");
    svg_text(s, DIE_X + DIE_PX + 40, ly + 18, 11, "start", 0, 0, NULL, "coloured cell: one SM (its id)");
    svg_text(s, DIE_X + DIE_PX + 40, ly + 34, 11, "start", 0, 0, NULL, "black outline: one GPC");
    svg_text(s, DIE_X + DIE_PX + 40, ly + 50, 11, "start", 0, 0, NULL, "grey: L2, HBM PHYs, I/O");
    char dims[96];
    snprintf(dims, sizeof dims, "die %.1f x %.1f mm", fp.w_um / 1000, fp.h_um / 1000);
    svg_text(s, DIE_X + DIE_PX + 40, ly + 66, 11, "start", 0, 0, NULL, dims);

    si_floorplan_free(&fp);
    topo_free(&t);
    return s;
}
