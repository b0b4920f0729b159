/* svg.c -- a tiny SVG writer (see plot.h).
 *
 * The document is built in one growing buffer; every number goes through
 * "%.2f" (pixels) so the same figure is byte-identical on every machine,
 * and every piece of text goes through svg_escaped(), the only place that
 * knows XML's five special characters.  Fonts are the generic "sans-serif"
 * family so that rsvg-convert, Chromium and Firefox all find one offline.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/plot.h"

struct svg {
    char *buf;
    size_t len, cap;
    double w, h;
};

static void grow(svg *s, size_t more)
{
    if (s->len + more + 1 <= s->cap)
        return;
    size_t cap = s->cap ? s->cap : 4096;
    while (cap < s->len + more + 1)
        cap *= 2;
    s->buf = xrealloc(s->buf, cap);
    s->cap = cap;
}

static void vput(svg *s, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n <= 0)
        return;
    grow(s, (size_t)n);
    vsnprintf(s->buf + s->len, (size_t)n + 1, fmt, ap);
    s->len += (size_t)n;
}

void svg_raw(svg *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(s, fmt, ap);
    va_end(ap);
}

static void put(svg *s, const char *str)
{
    size_t n = strlen(str);
    grow(s, n);
    memcpy(s->buf + s->len, str, n + 1);
    s->len += n;
}

void svg_escaped(svg *s, const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; p && *p; p++) {
        switch (*p) {
        case '&': put(s, "&amp;"); break;
        case '<': put(s, "&lt;"); break;
        case '>': put(s, "&gt;"); break;
        case '"': put(s, "&quot;"); break;
        case '\'': put(s, "&#39;"); break;
        default:
            if (*p < 0x20 && *p != '\t' && *p != '\n')
                break;
            grow(s, 1);
            s->buf[s->len++] = (char)*p;
            s->buf[s->len] = '\0';
        }
    }
}

svg *svg_create(double w_px, double h_px, const char *title)
{
    svg *s = xcalloc(1, sizeof *s);
    s->w = w_px;
    s->h = h_px;
    svg_raw(s, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n",
            w_px, h_px, w_px, h_px);
    if (title) {
        put(s, "<title>");
        svg_escaped(s, title);
        put(s, "</title>\n");
    }
    svg_raw(s, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n", w_px, h_px);
    return s;
}

double svg_width(const svg *s)
{
    return s->w;
}

double svg_height(const svg *s)
{
    return s->h;
}

void svg_destroy(svg *s)
{
    if (!s)
        return;
    free(s->buf);
    free(s);
}

char *svg_finish(svg *s, size_t *len)
{
    put(s, "</svg>\n");
    char *b = s->buf;
    if (len)
        *len = s->len;
    free(s);
    return b;
}

/* Paint attributes: a colour name goes through escaping like any text. */
static void paint(svg *s, const char *attr, const char *color)
{
    svg_raw(s, " %s=\"", attr);
    svg_escaped(s, color ? color : "none");
    put(s, "\"");
}

static void rect_open(svg *s, double x, double y, double w, double h, const char *fill,
                      const char *stroke, double stroke_w)
{
    svg_raw(s, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x, y,
            w > 0 ? w : 0, h > 0 ? h : 0);
    paint(s, "fill", fill);
    if (stroke && strcmp(stroke, "none")) {
        paint(s, "stroke", stroke);
        svg_raw(s, " stroke-width=\"%.2f\"", stroke_w);
    }
}

void svg_rect(svg *s, double x, double y, double w, double h, const char *fill,
              const char *stroke, double stroke_w)
{
    rect_open(s, x, y, w, h, fill, stroke, stroke_w);
    put(s, "/>\n");
}

void svg_rect_tip(svg *s, double x, double y, double w, double h, const char *fill,
                  const char *stroke, double stroke_w, const char *tip)
{
    rect_open(s, x, y, w, h, fill, stroke, stroke_w);
    put(s, "><title>");
    svg_escaped(s, tip);
    put(s, "</title></rect>\n");
}

void svg_line(svg *s, double x0, double y0, double x1, double y1, const char *stroke,
              double stroke_w, const char *dash)
{
    svg_raw(s, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", x0, y0, x1, y1);
    paint(s, "stroke", stroke);
    svg_raw(s, " stroke-width=\"%.2f\"", stroke_w);
    if (dash)
        paint(s, "stroke-dasharray", dash);
    put(s, "/>\n");
}

static void points(svg *s, const double *x, const double *y, size_t n)
{
    put(s, " points=\"");
    for (size_t i = 0; i < n; i++)
        svg_raw(s, "%s%.2f,%.2f", i ? " " : "", x[i], y[i]);
    put(s, "\"");
}

void svg_polyline(svg *s, const double *x, const double *y, size_t n, const char *stroke,
                  double stroke_w)
{
    svg_polyline_dash(s, x, y, n, stroke, stroke_w, NULL);
}

void svg_polyline_dash(svg *s, const double *x, const double *y, size_t n, const char *stroke,
                       double stroke_w, const char *dash)
{
    if (n < 2)
        return;
    put(s, "<polyline fill=\"none\"");
    paint(s, "stroke", stroke);
    svg_raw(s, " stroke-width=\"%.2f\" stroke-linejoin=\"round\"", stroke_w);
    if (dash)
        paint(s, "stroke-dasharray", dash);
    points(s, x, y, n);
    put(s, "/>\n");
}

void svg_polygon(svg *s, const double *x, const double *y, size_t n, const char *fill,
                 double opacity)
{
    if (n < 3)
        return;
    put(s, "<polygon");
    paint(s, "fill", fill);
    svg_raw(s, " fill-opacity=\"%.2f\"", opacity);
    points(s, x, y, n);
    put(s, "/>\n");
}

void svg_circle(svg *s, double cx, double cy, double r, const char *fill, const char *stroke)
{
    svg_raw(s, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", cx, cy, r);
    paint(s, "fill", fill);
    if (stroke)
        paint(s, "stroke", stroke);
    put(s, "/>\n");
}

void svg_text(svg *s, double x, double y, double size, const char *anchor, int bold,
              double rotate, const char *fill, const char *text)
{
    svg_raw(s, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%.1f\"", x, y, size);
    if (anchor && strcmp(anchor, "start"))
        paint(s, "text-anchor", anchor);
    if (bold)
        put(s, " font-weight=\"bold\"");
    if (rotate != 0)
        svg_raw(s, " transform=\"rotate(%.1f %.2f %.2f)\"", rotate, x, y);
    paint(s, "fill", fill ? fill : "#222222");
    put(s, ">");
    svg_escaped(s, text);
    put(s, "</text>\n");
}

void svg_textf(svg *s, double x, double y, double size, const char *anchor, int bold,
               const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    svg_text(s, x, y, size, anchor, bold, 0, NULL, buf);
}

/* ---- scales and ticks ------------------------------------------------ */

double plot_map(const plot_scale *sc, double v)
{
    double span = sc->d1 - sc->d0;
    if (span == 0)
        return (sc->r0 + sc->r1) / 2;
    return sc->r0 + (v - sc->d0) / span * (sc->r1 - sc->r0);
}

/* 1, 2 or 5 times a power of ten, the first at least raw. */
static double nice_step(double raw)
{
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

int plot_ticks(double lo, double hi, int target, double *ticks, int max, double *step)
{
    if (!(hi > lo) || !isfinite(lo) || !isfinite(hi)) {
        if (max > 0 && isfinite(lo))
            ticks[0] = lo;
        *step = 1;
        return max > 0 && isfinite(lo);
    }
    double st = nice_step((hi - lo) / (target > 1 ? target : 1));
    /* A step giving more ticks than fit is widened to the next nice one. */
    while ((hi - lo) / st + 1 > max)
        st = nice_step(st * 1.01);
    int n = 0;
    for (double k = ceil(lo / st - 1e-9); k * st <= hi + st * 1e-9 && n < max; k++) {
        double v = k * st;
        ticks[n++] = fabs(v) < st * 1e-9 ? 0 : v;
    }
    *step = st;
    return n;
}

void plot_nice_range(double *lo, double *hi, int target)
{
    if (!isfinite(*lo) || !isfinite(*hi)) {
        *lo = 0;
        *hi = 1;
        return;
    }
    if (*hi <= *lo) {
        double m = fabs(*lo) > 0 ? fabs(*lo) * 0.05 : 1;
        *lo -= m;
        *hi += m;
    }
    double st = nice_step((*hi - *lo) / (target > 1 ? target : 1));
    *lo = floor(*lo / st + 1e-9) * st;
    *hi = ceil(*hi / st - 1e-9) * st;
}

void plot_fmt_tick(char *buf, size_t n, double v, double step)
{
    int dec = 0;
    if (step > 0 && step < 1)
        dec = (int)ceil(-log10(step) - 1e-9);
    dec = SK_MIN(dec, 6);
    if (fabs(v) < step * 1e-6)
        v = 0;
    snprintf(buf, n, "%.*f", dec, v);
}

double plot_time_unit(double span_ns, const char **unit)
{
    if (span_ns >= 2e6) {
        *unit = "ms";
        return 1e6;
    }
    if (span_ns >= 2e3) {
        *unit = "\xc2\xb5s";
        return 1e3;
    }
    *unit = "ns";
    return 1;
}

/* ---- axes ------------------------------------------------------------- */

#define AXIS "#444444"
#define GRID "#e4e4e4"
#define TICK_PX 11.0
#define LABEL_PX 13.0

void plot_axis_x(svg *s, const plot_frame *f, const plot_scale *sc, const char *label, int grid)
{
    double t[32], step;
    int n = plot_ticks(SK_MIN(sc->d0, sc->d1), SK_MAX(sc->d0, sc->d1), 6, t, 32, &step);
    for (int i = 0; i < n; i++) {
        double x = plot_map(sc, t[i]);
        if (grid)
            svg_line(s, x, f->y0, x, f->y1, GRID, 1, NULL);
        svg_line(s, x, f->y1, x, f->y1 + 5, AXIS, 1, NULL);
        char b[32];
        plot_fmt_tick(b, sizeof b, t[i], step);
        svg_text(s, x, f->y1 + 18, TICK_PX, "middle", 0, 0, NULL, b);
    }
    svg_line(s, f->x0, f->y1, f->x1, f->y1, AXIS, 1, NULL);
    if (label)
        svg_text(s, (f->x0 + f->x1) / 2, f->y1 + 38, LABEL_PX, "middle", 0, 0, NULL, label);
}

void plot_axis_y(svg *s, const plot_frame *f, const plot_scale *sc, const char *label, int grid)
{
    double t[32], step;
    int n = plot_ticks(SK_MIN(sc->d0, sc->d1), SK_MAX(sc->d0, sc->d1), 5, t, 32, &step);
    double wmax = 0;
    for (int i = 0; i < n; i++) {
        double y = plot_map(sc, t[i]);
        if (grid)
            svg_line(s, f->x0, y, f->x1, y, GRID, 1, NULL);
        svg_line(s, f->x0 - 5, y, f->x0, y, AXIS, 1, NULL);
        char b[32];
        plot_fmt_tick(b, sizeof b, t[i], step);
        wmax = SK_MAX(wmax, (double)strlen(b));
        svg_text(s, f->x0 - 8, y + 4, TICK_PX, "end", 0, 0, NULL, b);
    }
    svg_line(s, f->x0, f->y0, f->x0, f->y1, AXIS, 1, NULL);
    if (label) {
        double x = f->x0 - 14 - wmax * TICK_PX * 0.6;
        svg_text(s, x, (f->y0 + f->y1) / 2, LABEL_PX, "middle", 0, -90, NULL, label);
    }
}

/* ---- colours and legends --------------------------------------------- */

/* viridis (matplotlib, van der Walt and Smith 2015) at 9 evenly spaced
 * stops; linear interpolation between them is within one step of 255. */
static const unsigned char VIRIDIS[9][3] = {
    {68, 1, 84}, {71, 45, 123}, {59, 82, 139}, {44, 114, 142}, {33, 145, 140},
    {39, 173, 129}, {92, 200, 99}, {170, 220, 50}, {253, 231, 37},
};

void plot_viridis(double t, char buf[8])
{
    if (!(t >= 0))
        t = 0;
    if (t > 1)
        t = 1;
    double p = t * 8;
    int i = (int)floor(p);
    if (i >= 8)
        i = 7;
    double f = p - i;
    int c[3];
    for (int k = 0; k < 3; k++)
        c[k] = (int)lround(VIRIDIS[i][k] + f * (VIRIDIS[i + 1][k] - VIRIDIS[i][k]));
    snprintf(buf, 8, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* Okabe and Ito (2008), "Color Universal Design": distinguishable by
 * readers with any common colour-vision deficiency. */
static const char *const CATEGORY[8] = {
    "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000",
};

const char *plot_category(int i)
{
    return CATEGORY[(i % 8 + 8) % 8];
}

void plot_tint(const char *color, double white, char buf[8])
{
    unsigned r = 0, g = 0, b = 0;
    if (!color || sscanf(color, "#%2x%2x%2x", &r, &g, &b) != 3)
        r = g = b = 0;
    double c[3] = {r, g, b};
    for (int k = 0; k < 3; k++)
        c[k] += (255 - c[k]) * (white < 0 ? 0 : white > 1 ? 1 : white);
    snprintf(buf, 8, "#%02x%02x%02x", (unsigned)lround(c[0]), (unsigned)lround(c[1]),
             (unsigned)lround(c[2]));
}

void plot_colorbar(svg *s, double x, double y, double w, double h, double lo, double hi,
                   const char *label)
{
    enum { STEPS = 64 };
    for (int i = 0; i < STEPS; i++) {
        char c[8];
        plot_viridis((i + 0.5) / STEPS, c);
        /* Overlap by half a pixel so no white seams show between steps. */
        svg_rect(s, x, y + h - (i + 1) * h / STEPS, w, h / STEPS + 0.5, c, NULL, 0);
    }
    svg_rect(s, x, y, w, h, "none", AXIS, 1);
    plot_scale sc = { lo, hi, y + h, y };
    double t[16], step;
    int n = plot_ticks(lo, hi, 5, t, 16, &step);
    for (int i = 0; i < n; i++) {
        double ty = plot_map(&sc, t[i]);
        char b[32];
        plot_fmt_tick(b, sizeof b, t[i], step);
        svg_line(s, x + w, ty, x + w + 4, ty, AXIS, 1, NULL);
        svg_text(s, x + w + 7, ty + 4, TICK_PX, "start", 0, 0, NULL, b);
    }
    if (label)
        svg_text(s, x + w / 2, y - 10, 12, "middle", 1, 0, NULL, label);
}

void plot_legend_item(svg *s, double x, double y, const char *color, int line, const char *text)
{
    if (line)
        svg_line(s, x, y - 4, x + 22, y - 4, color, 3, NULL);
    else
        svg_rect(s, x + 4, y - 11, 14, 12, color, "#333333", 0.5);
    svg_text(s, x + 28, y, 12, "start", 0, 0, NULL, text);
}

void plot_title(svg *s, double w_px, const char *title, const char *subtitle)
{
    (void)w_px;
    svg_text(s, 16, 24, 17, "start", 1, 0, NULL, title);
    if (subtitle)
        svg_text(s, 16, 44, 12, "start", 0, 0, "#555555", subtitle);
}
