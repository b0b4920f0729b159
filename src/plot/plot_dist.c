/* plot_dist.c -- kernel-time distributions by case across seeds, from a
 * sweep's sweep.csv (docs/sweeps.md): one column per (trace, case and axis
 * values), one dot per seed, a bar at the median and a whisker from the
 * fastest to the slowest seed.  Columns of one trace share a colour and a
 * label under them.
 *
 * The time axis does not start at zero: policies differ by a few per cent,
 * which a zero-based axis would flatten into one line.  The subtitle says
 * so, and every column prints its median.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/plot.h"
#include "plot_priv.h"

typedef struct column {
    const char *trace, *group;
    int tr;                     /* trace index, for colour */
    double *v;
    int n;
} column;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

svg *plot_draw_dist(const plot_kind *k, const plot_input *in, sk_error *e)
{
    (void)k;
    const plot_sweep *sw = in->sweep;
    column *col = xcalloc((size_t)sw->npts + 1, sizeof *col);
    const char **traces = xcalloc((size_t)sw->npts + 1, sizeof *traces);
    int nc = 0, nt = 0, nok = 0, nfail = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < sw->npts; i++) {
        const plot_point *p = &sw->pts[i];
        if (!isfinite(p->time_ns)) {
            nfail++;
            continue;
        }
        int c = 0;
        while (c < nc && (strcmp(col[c].trace, p->trace) || strcmp(col[c].group, p->group)))
            c++;
        if (c == nc) {
            int t = 0;
            while (t < nt && strcmp(traces[t], p->trace))
                t++;
            if (t == nt)
                traces[nt++] = p->trace;
            col[nc].trace = p->trace;
            col[nc].group = p->group;
            col[nc].tr = t;
            col[nc].v = xcalloc((size_t)sw->npts, sizeof(double));
            nc++;
        }
        col[c].v[col[c].n++] = p->time_ns;
        lo = SK_MIN(lo, p->time_ns), hi = SK_MAX(hi, p->time_ns);
        nok++;
    }
    svg *s = NULL;
    if (nc == 0) {
        sk_errorf(e, SK_EUSAGE, "plot kernel-times: %s/sweep.csv has no finished point (status ok)", sw->dir);
        goto out;
    }
    const char *unit;
    double div = plot_time_unit(hi, &unit);
    double dlo = lo / div, dhi = hi / div;
    plot_nice_range(&dlo, &dhi, 5);

    /* Room under the frame for the rotated case labels (35 degrees). */
    size_t maxlab = 5;
    for (int c = 0; c < nc; c++)
        maxlab = SK_MAX(maxlab, strlen(col[c].group));
    double labh = SK_MIN(170.0, 16 + 0.57 * 6.4 * (double)maxlab);
    double colw = SK_MAX(96.0, 590.0 / nc), W = 130 + colw * nc, H = 80 + 330 + labh + 48;
    plot_frame f = {100, 80, 100 + colw * nc, 80 + 330};
    char title[128], sub[320];
    int nseeds = 0;
    for (int c = 0; c < nc; c++)
        nseeds = SK_MAX(nseeds, col[c].n);
    snprintf(title, sizeof title, "Kernel time by case, %d seed%s each", nseeds, nseeds == 1 ? "" : "s");
    char left[48] = "";
    if (nfail)
        snprintf(left, sizeof left, " (%d not ok, left out)", nfail);
    /* say so only when the nice range left 0 out */
    snprintf(sub, sizeof sub, "%d points%s; dot: one seed, bar: median, whisker: fastest to "
             "slowest%s", nok, left, dlo > 0 ? "; the axis does not start at 0" : "");
    s = svg_create(W, H, title);
    plot_title(s, W, title, sub);
    plot_scale sy = {dlo, dhi, f.y1, f.y0};
    char yl[64];
    snprintf(yl, sizeof yl, "kernel time, launch to completion (%s)", unit);
    plot_axis_y(s, &f, &sy, yl, 1);
    svg_rect(s, f.x0, f.y0, f.x1 - f.x0, f.y1 - f.y0, "none", "#444444", 1);

    for (int c = 0; c < nc; c++) {
        column *q = &col[c];
        qsort(q->v, (size_t)q->n, sizeof *q->v, cmp_d);
        double cx = f.x0 + colw * (c + 0.5);
        const char *color = plot_category(q->tr);
        double med = q->n % 2 ? q->v[q->n / 2] : (q->v[q->n / 2 - 1] + q->v[q->n / 2]) / 2;
        double ymin = plot_map(&sy, q->v[0] / div), ymax = plot_map(&sy, q->v[q->n - 1] / div);
        svg_line(s, cx, ymin, cx, ymax, "#666666", 1.2, NULL);
        svg_line(s, cx - 8, ymin, cx + 8, ymin, "#666666", 1.2, NULL);
        svg_line(s, cx - 8, ymax, cx + 8, ymax, "#666666", 1.2, NULL);
        double ym = plot_map(&sy, med / div);
        svg_line(s, cx - 22, ym, cx + 22, ym, "#111111", 2.5, NULL);
        svg_textf(s, cx + 25, ym + 4, 10, "start", 0, "%.4g", med / div);
        for (int j = 0; j < q->n; j++) {
            /* Spread the seeds sideways, deterministically. */
            double dx = q->n > 1 ? (j - (q->n - 1) / 2.0) * SK_MIN(6.0, 40.0 / q->n) : 0;
            svg_circle(s, cx + dx, plot_map(&sy, q->v[j] / div), 4.5, color, "#ffffff");
        }
        /* Case label under the column, rotated so long names fit. */
        svg_text(s, cx + 4, f.y1 + 14, 11, "end", 0, -35, NULL, q->group[0] ? q->group : "(all)");
    }
    /* Trace names under their columns. */
    for (int t = 0; t < nt; t++) {
        int c0 = -1, c1 = -1;
        for (int c = 0; c < nc; c++)
            if (col[c].tr == t) {
                if (c0 < 0)
                    c0 = c;
                c1 = c;
            }
        double x0 = f.x0 + colw * c0 + 6, x1 = f.x0 + colw * (c1 + 1) - 6;
        svg_line(s, x0, H - 38, x1, H - 38, plot_category(t), 3, NULL);
        char b[96];
        snprintf(b, sizeof b, "trace %s", traces[t]);
        svg_text(s, (x0 + x1) / 2, H - 16, 12, "middle", 1, 0, NULL, b);
    }
out:
    for (int c = 0; c < nc; c++)
        free(col[c].v);
    free(col);
    free(traces);
    return s;
}
