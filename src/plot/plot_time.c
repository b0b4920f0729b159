/* plot_time.c -- the silicon model over time, from epochs.csv (one row per
 * SM at every step of the model: each DVFS epoch and each kernel end).
 *
 *   clock: each SM's clock (MHz) above, its supply voltage (mV) below;
 *   power: the SMs' power summed (W) above, temperature (C) below.
 *
 * Up to eight SMs get a line each, with a legend.  More than that would be
 * a hairball, so a wider chip shows the spread over its SMs as a band (the
 * lowest to the highest SM at each step) around the mean.  Points are
 * marked where there are few steps, so that a run with one step (a kernel
 * shorter than one DVFS epoch) still shows its value, and says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/plot.h"
#include "plot_priv.h"

#define W 1000.0
#define PANEL_H 230.0
#define MAX_LINES 8

enum { F_MHZ, F_VDD, F_POWER, F_TEMP };

static double field(const plot_epoch *p, int f)
{
    switch (f) {
    case F_MHZ: return p->mhz;
    case F_VDD: return p->vdd_mv;
    case F_POWER: return p->power_w;
    default: return p->temp_c;
    }
}

/* Steps: distinct times in file order (the model writes them ascending). */
typedef struct steps {
    double *t;
    size_t *first;              /* index of the step's first row */
    size_t n;
} steps;

static void find_steps(const plot_run *r, steps *st)
{
    st->t = xcalloc(r->nepochs + 1, sizeof *st->t);
    st->first = xcalloc(r->nepochs + 2, sizeof *st->first);
    st->n = 0;
    for (size_t i = 0; i < r->nepochs; i++)
        if (i == 0 || r->epochs[i].t_ns != r->epochs[i - 1].t_ns) {
            st->t[st->n] = r->epochs[i].t_ns;
            st->first[st->n++] = i;
        }
    st->first[st->n] = r->nepochs;
}

/* One panel: `f` per SM (sum: the sum over SMs as one line). */
static void panel(svg *s, const plot_run *r, const steps *st, const plot_frame *fr, const plot_scale *sx,
                  int f, int sum, const char *ylabel, double tdiv)
{
    size_t T = st->n;
    int nsms = r->nsms, lines = !sum && nsms <= MAX_LINES;
    double *mn = xcalloc(T, sizeof *mn), *mx = xcalloc(T, sizeof *mx), *mean = xcalloc(T, sizeof *mean);
    double *per = xcalloc(T * (size_t)nsms + 1, sizeof *per);
    for (size_t k = 0; k < T; k++) {
        mn[k] = INFINITY, mx[k] = -INFINITY, mean[k] = 0;
        int cnt = 0;
        for (int m = 0; m < nsms; m++)
            per[k * nsms + m] = NAN;
        for (size_t i = st->first[k]; i < st->first[k + 1]; i++) {
            double v = field(&r->epochs[i], f);
            per[k * nsms + r->epochs[i].sm] = v;
            mn[k] = SK_MIN(mn[k], v), mx[k] = SK_MAX(mx[k], v);
            mean[k] += v;
            cnt++;
        }
        if (!sum)
            mean[k] /= cnt ? cnt : 1;
    }
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < T; k++) {
        if (sum)
            lo = SK_MIN(lo, mean[k]), hi = SK_MAX(hi, mean[k]);
        else
            lo = SK_MIN(lo, mn[k]), hi = SK_MAX(hi, mx[k]);
    }
    /* Pad by 4 % so a line at the extreme does not hide in the frame. */
    double pad = (hi - lo) * 0.04;
    lo -= pad, hi += pad;
    plot_nice_range(&lo, &hi, 5);
    plot_scale sy = {lo, hi, fr->y1, fr->y0};
    plot_scale ax = {sx->d0 / tdiv, sx->d1 / tdiv, sx->r0, sx->r1};
    plot_axis_y(s, fr, &sy, ylabel, 1);
    plot_axis_x(s, fr, &ax, NULL, 1);
    svg_rect(s, fr->x0, fr->y0, fr->x1 - fr->x0, fr->y1 - fr->y0, "none", "#444444", 1);

    double *xs = xcalloc(2 * T + 1, sizeof *xs), *ys = xcalloc(2 * T + 1, sizeof *ys);
    for (size_t k = 0; k < T; k++)
        xs[k] = plot_map(sx, st->t[k]);
    int marks = T <= 60;
    double lx = fr->x1 + 16, ly = fr->y0 + 14;
    if (lines) {
        for (int m = 0; m < nsms; m++) {
            size_t np = 0;
            for (size_t k = 0; k < T; k++)
                if (isfinite(per[k * nsms + m])) {
                    xs[np] = plot_map(sx, st->t[k]);
                    ys[np++] = plot_map(&sy, per[k * nsms + m]);
                }
            const char *c = plot_category(m);
            /* Lower SM ids are drawn wider, so SMs with equal values show
             * as stripes of one line rather than hiding each other. */
            double wpx = 2 + 1.5 * (nsms - 1 - m);
            svg_polyline(s, xs, ys, np, c, wpx);
            if (np <= 3)   /* a point or two: a line alone would hardly show */
                for (size_t k = 0; k < np; k++)
                    svg_circle(s, xs[k], ys[k], wpx / 2 + 1.5, c, NULL);
            double avg = 0;
            size_t cnt = 0;
            for (size_t k = 0; k < T; k++)
                if (isfinite(per[k * nsms + m]))
                    avg += per[k * nsms + m], cnt++;
            char b[64];
            snprintf(b, sizeof b, "SM %d, mean %.4g", m, cnt ? avg / (double)cnt : NAN);
            plot_legend_item(s, lx, ly + 18 * m, c, 1, b);
        }
    } else {
        if (!sum) {
            for (size_t k = 0; k < T; k++) {
                ys[k] = plot_map(&sy, mx[k]);
                xs[2 * T - 1 - k] = xs[k];
                ys[2 * T - 1 - k] = plot_map(&sy, mn[k]);
            }
            if (T >= 2)
                svg_polygon(s, xs, ys, 2 * T, "#56b4e9", 0.35);
            else
                svg_line(s, xs[0], ys[0], xs[0], ys[1], "#56b4e9", 6, NULL);
            svg_rect(s, lx + 4, ly + 18 - 11, 14, 12, "#56b4e9", NULL, 0);
            char b[48];
            snprintf(b, sizeof b, "range of %d SMs", nsms);
            svg_text(s, lx + 28, ly + 18, 12, "start", 0, 0, NULL, b);
        }
        for (size_t k = 0; k < T; k++)
            ys[k] = plot_map(&sy, mean[k]);
        svg_polyline(s, xs, ys, T, "#0072b2", 2);
        if (marks)
            for (size_t k = 0; k < T; k++)
                svg_circle(s, xs[k], ys[k], 3.2, "#0072b2", "#ffffff");
        plot_legend_item(s, lx, ly, "#0072b2", 1, sum ? "sum over SMs" : "mean over SMs");
    }
    free(xs);
    free(ys);
    free(mn);
    free(mx);
    free(mean);
    free(per);
}

svg *plot_draw_time(const plot_kind *k, const plot_input *in, sk_error *e)
{
    const plot_run *r = in->run;
    if (r->nepochs == 0) {
        sk_errorf(e, SK_EUSAGE, "plot %s: %s/epochs.csv has no rows", k->name, r->dir);
        return NULL;
    }
    steps st;
    find_steps(r, &st);
    double t0 = 0, t1 = SK_MAX(st.t[st.n - 1], r->total_ns);
    const char *unit;
    double div = plot_time_unit(t1, &unit);
    double lo = t0 / div, hi = t1 / div;
    plot_nice_range(&lo, &hi, 8);
    plot_scale sx = {lo * div, hi * div, 90, W - 230};

    int clock = k->metric == PLOT_TIME_CLOCK;
    char title[128], sub[320];
    snprintf(title, sizeof title, clock ? "SM clocks and supply voltages over time"
                                        : "SM power and temperature over time");
    int n = snprintf(sub, sizeof sub, "%zu step%s of the silicon model (each DVFS epoch and kernel end)", st.n,
                     st.n == 1 ? "" : "s");
    if (!clock && isfinite(r->mean_power_w) && n > 0 && (size_t)n < sizeof sub)
        snprintf(sub + n, sizeof sub - (size_t)n, "; board power (SMs, uncore, HBM): mean %.1f W, max %.1f W",
                 r->mean_power_w, r->max_power_w);
    double H = 70 + 2 * PANEL_H + 40;
    svg *s = svg_create(W, H, title);
    plot_title(s, W, title, sub);
    plot_frame top = {sx.r0, 70, sx.r1, 70 + PANEL_H - 30};
    plot_frame bot = {sx.r0, 70 + PANEL_H + 10, sx.r1, 70 + 2 * PANEL_H - 20};
    if (clock) {
        panel(s, r, &st, &top, &sx, F_MHZ, 0, "clock (MHz)", div);
        panel(s, r, &st, &bot, &sx, F_VDD, 0, "supply at the SM (mV)", div);
    } else {
        panel(s, r, &st, &top, &sx, F_POWER, 1, "SM power (W)", div);
        panel(s, r, &st, &bot, &sx, F_TEMP, 0, "temperature (\xc2\xb0" "C)", div);
    }
    char xl[64];
    snprintf(xl, sizeof xl, "simulated time (%s)", unit);
    svg_text(s, (sx.r0 + sx.r1) / 2, bot.y1 + 40, 13, "middle", 0, 0, NULL, xl);
    if (st.n == 1)
        svg_text(s, (sx.r0 + sx.r1) / 2, top.y0 + 22, 12, "middle", 0, 0, "#d55e00",
                 "one step only: the run is shorter than one DVFS epoch (dvfs.epoch_ns)");
    free(st.t);
    free(st.first);
    return s;
}
