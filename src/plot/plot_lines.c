/* plot_lines.c -- a line chart of named series (plot.h, plot_lines()):
 * the figures of the studies (tools/study) and any other caller that has
 * a few y-against-x series to show.
 *
 * The same look as the figure kinds: the title and subtitle of
 * plot_title(), the axes and light grid of plot_axis_x/y, the Okabe-Ito
 * colours, the legend at the right.  Every point gets a mark, so that a
 * series of one point still shows, and series lying on top of each other
 * stay visible: a series that later ones lie on is drawn wider, with
 * larger marks, so equal series show as stripes.  An empty chart is refused rather than drawn blank.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/plot.h"

#define W 920.0
#define H 500.0
#define LEGEND_W 260.0
#define TOP 72.0
#define BOTTOM 62.0
#define LEFT 86.0

svg *plot_lines(const plot_lines_spec *sp, sk_error *e)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    size_t npts = 0;
    for (size_t i = 0; i < sp->nseries; i++)
        for (size_t j = 0; j < sp->series[i].n; j++) {
            double x = sp->series[i].x[j], y = sp->series[i].y[j];
            if (!isfinite(x) || !isfinite(y))
                continue;
            xlo = SK_MIN(xlo, x), xhi = SK_MAX(xhi, x);
            ylo = SK_MIN(ylo, y), yhi = SK_MAX(yhi, y);
            npts++;
        }
    if (npts == 0) {
        sk_errorf(e, SK_EUSAGE, "plot: %s: no series has a finite point: nothing to draw",
                  sp->title ? sp->title : "line chart");
        return NULL;
    }
    if (sp->y_zero)
        ylo = SK_MIN(ylo, 0), yhi = SK_MAX(yhi, 0);
    /* Pad by 4 % so a line at the extreme does not hide in the frame. */
    double pad = (yhi - ylo) * 0.04;
    if (!(sp->y_zero && ylo == 0))
        ylo -= pad;
    yhi += pad;
    plot_nice_range(&ylo, &yhi, 5);

    plot_frame fr = {LEFT, TOP, W - LEGEND_W, H - BOTTOM};
    svg *s = svg_create(W, H, sp->title);
    plot_title(s, W, sp->title ? sp->title : "", sp->subtitle);
    plot_scale sy = {ylo, yhi, fr.y1, fr.y0};
    plot_scale sx;
    if (sp->ncats > 0) {
        /* categories: half a slot of margin on each side */
        sx = (plot_scale){-0.5, (double)sp->ncats - 0.5, fr.x0, fr.x1};
        for (size_t c = 0; c < sp->ncats; c++) {
            double x = plot_map(&sx, (double)c);
            svg_line(s, x, fr.y0, x, fr.y1, "#e6e6e6", 1, NULL);
            svg_line(s, x, fr.y1, x, fr.y1 + 5, "#444444", 1, NULL);
            svg_text(s, x, fr.y1 + 18, 12, "middle", 0, 0, NULL, sp->cats[c] ? sp->cats[c] : "");
        }
        svg_line(s, fr.x0, fr.y1, fr.x1, fr.y1, "#444444", 1, NULL);
        if (sp->xlabel)
            svg_text(s, (fr.x0 + fr.x1) / 2, fr.y1 + 38, 13, "middle", 0, 0, NULL, sp->xlabel);
    } else {
        double lo = xlo, hi = xhi;
        plot_nice_range(&lo, &hi, 6);
        sx = (plot_scale){lo, hi, fr.x0, fr.x1};
        plot_axis_x(s, &fr, &sx, sp->xlabel, 1);
    }
    plot_axis_y(s, &fr, &sy, sp->ylabel, 1);
    if (ylo < 0 && yhi > 0)     /* the zero line, darker than the grid */
        svg_line(s, fr.x0, plot_map(&sy, 0), fr.x1, plot_map(&sy, 0), "#999999", 1, NULL);
    svg_rect(s, fr.x0, fr.y0, fr.x1 - fr.x0, fr.y1 - fr.y0, "none", "#444444", 1);

    size_t cap = 1;
    for (size_t i = 0; i < sp->nseries; i++)
        cap = SK_MAX(cap, sp->series[i].n);
    /* every series' points in pixels, its non-finite points left out */
    size_t ns = sp->nseries;
    double *px = xcalloc(ns * cap + 1, sizeof *px), *py = xcalloc(ns * cap + 1, sizeof *py);
    size_t *np = xcalloc(ns + 1, sizeof *np);
    for (size_t i = 0; i < ns; i++) {
        const plot_series *se = &sp->series[i];
        for (size_t j = 0; j < se->n; j++)
            if (isfinite(se->x[j]) && isfinite(se->y[j])) {
                px[i * cap + np[i]] = plot_map(&sx, se->x[j]);
                py[i * cap + np[i]++] = plot_map(&sy, se->y[j]);
            }
    }
    double lx = fr.x1 + 16, ly = fr.y0 + 12;
    for (size_t i = 0; i < ns; i++) {
        const plot_series *se = &sp->series[i];
        const char *col = se->color ? se->color : plot_category((int)i);
        size_t n = np[i];
        const double *x = px + i * cap, *y = py + i * cap;
        /* A series that later ones lie on (every point within 2.5 px) is
         * drawn wider by 2.5 px for each of them, so equal series show as
         * stripes of one line instead of the last one hiding the others. */
        int under = 0;
        for (size_t k = i + 1; k < ns; k++) {
            int same = np[k] == n && n > 0;
            for (size_t j = 0; same && j < n; j++)
                same = fabs(px[k * cap + j] - x[j]) < 2.5 && fabs(py[k * cap + j] - y[j]) < 2.5;
            under += same;
        }
        double wpx = 2 + 2.5 * under;
        svg_polyline_dash(s, x, y, n, col, wpx, se->dash);
        for (size_t j = 0; j < n; j++)
            svg_circle(s, x[j], y[j], wpx / 2 + 1.5, col, "#ffffff");
        /* legend: the line in its dash, a mark, the name */
        double yl = ly + 18 * (double)i;
        svg_line(s, lx, yl - 4, lx + 24, yl - 4, col, 2, se->dash);
        svg_circle(s, lx + 12, yl - 4, 3, col, "#ffffff");
        char name[160];
        snprintf(name, sizeof name, "%s%s", se->name ? se->name : "", n ? "" : " (no data)");
        svg_text(s, lx + 30, yl, 12, "start", 0, 0, NULL, name);
    }
    free(px);
    free(py);
    free(np);
    if (sp->label) {
        char src[320];
        snprintf(src, sizeof src, "source: %s", sp->label);
        svg_text(s, W - 8, H - 5, 9, "end", 0, 0, "#777777", src);
    }
    return s;
}
