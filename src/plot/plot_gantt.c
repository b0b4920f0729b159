/* plot_gantt.c -- a per-SM CTA Gantt chart from ctas.csv: one row per SM,
 * one bar per CTA from its start to its end.  CTAs resident on an SM at
 * the same time are stacked in lanes inside its row (the lowest lane free
 * when the CTA starts, as a register allocator would colour an interval
 * graph), so occupancy is the height of the stack and waves are columns
 * of bars.  A dashed line marks the last CTA's end: the tail.
 *
 * ctas.csv gives each kernel's times from its own first CTA start.  With
 * one kernel that is the time axis.  With several, kernel k is drawn from
 * its launch_ns (summary.json) onwards, which keeps kernels in order and
 * apart; the caption says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/plot.h"
#include "plot_priv.h"

#define W 1000.0

typedef struct slot {
    const plot_cta *c;
    double t0, t1;
    int lane;
    int seq;                    /* its place in its lane: 0, 1, ... */
} slot;

static int by_sm_start(const void *a, const void *b)
{
    const slot *x = a, *y = b;
    if (x->c->sm != y->c->sm)
        return x->c->sm < y->c->sm ? -1 : 1;
    if (x->t0 != y->t0)
        return x->t0 < y->t0 ? -1 : 1;
    if (x->c->kernel != y->c->kernel)
        return x->c->kernel < y->c->kernel ? -1 : 1;
    return x->c->cta < y->c->cta ? -1 : x->c->cta > y->c->cta;
}

svg *plot_draw_gantt(const plot_kind *k, const plot_input *in, sk_error *e)
{
    (void)k;
    const plot_run *r = in->run;
    if (r->nctas == 0) {
        sk_errorf(e, SK_EUSAGE, "plot gantt: %s/ctas.csv has no CTAs", r->dir);
        return NULL;
    }
    size_t n = r->nctas;
    slot *sl = xcalloc(n, sizeof *sl);
    int multi = r->nkernels > 1;
    double tmax = 0;
    for (size_t i = 0; i < n; i++) {
        const plot_cta *c = &r->ctas[i];
        double off = multi ? r->kernels[c->kernel].launch_ns : 0;
        sl[i].c = c;
        sl[i].t0 = off + c->start_ns;
        sl[i].t1 = off + c->end_ns;
        tmax = SK_MAX(tmax, sl[i].t1);
    }
    qsort(sl, n, sizeof *sl, by_sm_start);

    /* Lanes per SM: the lowest lane whose last CTA has ended. */
    int *lanes = xcalloc((size_t)r->nsms, sizeof *lanes);
    int maxlanes = 1;
    double *lane_end = NULL;
    int *lane_n = NULL;
    size_t lcap = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        int sm = sl[i].c->sm, nl = 0;
        for (; j < n && sl[j].c->sm == sm; j++) {
            int l = 0;
            while (l < nl && lane_end[l] > sl[j].t0)
                l++;
            if (l == nl) {
                if ((size_t)nl == lcap) {
                    lcap = lcap ? lcap * 2 : 8;
                    lane_end = xrealloc(lane_end, lcap * sizeof *lane_end);
                    lane_n = xrealloc(lane_n, lcap * sizeof *lane_n);
                }
                lane_n[nl++] = 0;
            }
            lane_end[l] = sl[j].t1;
            sl[j].lane = l;
            sl[j].seq = lane_n[l]++;
        }
        lanes[sm] = nl;
        maxlanes = SK_MAX(maxlanes, nl);
        i = j;
    }
    free(lane_end);
    free(lane_n);

    double rowh = SK_MAX(5.0, SK_MIN(20.0 * maxlanes, 520.0 / r->nsms));
    rowh = SK_MIN(rowh, 90);
    plot_frame f = {88, 78, W - 30, 78 + rowh * r->nsms};
    double H = f.y1 + 64 + (multi ? 22 : 0);

    const char *unit;
    double div = plot_time_unit(tmax, &unit);
    double hi = tmax / div, lo = 0;
    plot_nice_range(&lo, &hi, 8);
    plot_scale sx = {lo * div, hi * div, f.x0, f.x1};

    char title[128], sub[320];
    snprintf(title, sizeof title, "CTAs on each SM over time (%zu CTAs, %d SMs)", n, r->nsms);
    if (multi)
        snprintf(sub, sizeof sub, "%d kernels, each drawn from its launch time; a bar is one CTA, "
                 "stacked bars are CTAs resident together", r->nkernels);
    else
        snprintf(sub, sizeof sub, "kernel %s: a bar is one CTA (label: its id), stacked bars are CTAs "
                 "resident together; last CTA ends at %.6g %s", r->kernels[0].name, tmax / div, unit);
    svg *s = svg_create(W, H, title);
    plot_title(s, W, title, sub);

    char xl[64];
    snprintf(xl, sizeof xl, multi ? "time (%s)" : "time since the first CTA start (%s)", unit);
    /* The axis scale is in display units; map data through sx (ns). */
    plot_scale ax = {lo, hi, f.x0, f.x1};
    plot_axis_x(s, &f, &ax, xl, 1);

    /* Row labels: every SM when they fit, else every k-th. */
    int every = (int)ceil(13.0 / rowh);
    for (int m = 0; m < r->nsms; m++) {
        double y = f.y0 + m * rowh;
        if (m % 2)
            svg_rect(s, f.x0, y, f.x1 - f.x0, rowh, "#f6f6f6", NULL, 0);
        if (m % every == 0) {
            char b[16];
            snprintf(b, sizeof b, "SM %d", m);
            svg_text(s, f.x0 - 6, y + rowh / 2 + 4, SK_MIN(11, SK_MAX(rowh * every * 0.7, 8)), "end", 0, 0,
                     NULL, b);
        }
    }
    svg_text(s, 18, (f.y0 + f.y1) / 2, 13, "middle", 0, -90, NULL, "SM (one row each)");

    for (size_t i = 0; i < n; i++) {
        const slot *q = &sl[i];
        int nl = lanes[q->c->sm];
        double rowgap = rowh >= 5 ? 1 : 0;   /* a white line between SMs */
        double lh = (rowh - rowgap) / nl;
        double y = f.y0 + q->c->sm * rowh + rowgap / 2 + q->lane * lh;
        double x0 = plot_map(&sx, q->t0), x1 = plot_map(&sx, q->t1);
        double gap = lh >= 6 ? 1 : 0;   /* ... and between lanes, where they are tall enough */
        char tip[160];
        snprintf(tip, sizeof tip, "kernel %d CTA %ld on SM %d: %.3f to %.3f ns, %ld cycles", q->c->kernel,
                 q->c->cta, q->c->sm, q->c->start_ns, q->c->end_ns, q->c->cycles);
        /* Neighbouring CTAs (the next in a lane, the one in the next lane)
         * alternate between the kernel's colour and a lighter tint of it,
         * so back-to-back and stacked CTAs stay apart. */
        char fill[8];
        plot_tint(plot_category(q->c->kernel), (q->seq + q->lane) % 2 ? 0.4 : 0, fill);
        svg_rect_tip(s, x0, y + gap / 2, SK_MAX(x1 - x0 - (x1 - x0 > 3 ? 1 : 0), 0.5), lh - gap, fill, NULL,
                     0, tip);
        char id[24];
        snprintf(id, sizeof id, "%ld", q->c->cta);
        double size = SK_MIN(11, lh * 0.7);
        if (size >= 7 && x1 - x0 > size * 0.65 * (double)strlen(id) + 4)
            svg_text(s, (x0 + x1) / 2, y + lh / 2 + size / 3, size, "middle", 0, 0, "#ffffff", id);
    }
    svg_rect(s, f.x0, f.y0, f.x1 - f.x0, f.y1 - f.y0, "none", "#444444", 1);
    double xe = plot_map(&sx, tmax);
    svg_line(s, xe, f.y0 - 6, xe, f.y1, "#d55e00", 1.5, "5,3");
    svg_text(s, xe - 3, f.y0 - 9, 11, "end", 0, 0, "#d55e00", "last CTA ends");
    if (multi)
        for (int kk = 0; kk < r->nkernels && kk < 12; kk++) {
            char b[96];
            snprintf(b, sizeof b, "kernel %d: %s", kk, r->kernels[kk].name);
            plot_legend_item(s, f.x0 + (kk % 4) * 220, H - 10, plot_category(kk), 0, b);
        }
    free(lanes);
    free(sl);
    return s;
}
