/* plot.h -- figures that skewsim draws itself, as SVG, from a run or sweep
 * directory (docs/figures.md).
 *
 * Three layers, each usable alone:
 *
 *   svg_*        a tiny SVG writer into a growing buffer: shapes, escaped
 *                text, numbers printed with fixed decimals (the same inputs
 *                give byte-identical files);
 *   plot_*       the pieces every figure shares: linear scales, "nice"
 *                ticks, axes with units, legends, the colour scales;
 *   plot_data_*  a run directory (summary.json, ctas.csv, epochs.csv) or a
 *                sweep directory (sweep.csv) read into plain arrays;
 *
 * and on top one table of figure kinds (plot_kinds(), plot_render()), so
 * that `skewsim plot KIND DIR` and `skewsim report` draw the same pictures
 * and a new kind is one row plus one function.
 */
#ifndef SKEWSIM_PLOT_H
#define SKEWSIM_PLOT_H

#include <stddef.h>
#include "skewsim/common.h"
#include "skewsim/config.h"

/* ==================================================================== */
/* SVG writer                                                            */
/* ==================================================================== */

typedef struct svg svg;

/* A w x h px picture with a white background and `title` (may be NULL) as
 * its <title>.  Caller owns it: svg_finish() or svg_destroy(). */
svg *svg_create(double w_px, double h_px, const char *title);
void svg_destroy(svg *s);                     /* NULL is a no-op */
double svg_width(const svg *s);               /* as created, px */
double svg_height(const svg *s);
/* Close the document; returns its text (NUL-terminated, caller frees) and
 * its length in *len (may be NULL), and frees s. */
char *svg_finish(svg *s, size_t *len);

/* Raw markup, printf-style: the caller escapes any text it interpolates. */
void svg_raw(svg *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append `text` with &, <, >, " and ' escaped, and bytes below 0x20
 * other than tab and newline dropped (XML 1.0 cannot carry them). */
void svg_escaped(svg *s, const char *text);

/* Styles: a colour is any SVG paint ("#1f77b4", "none"). */
void svg_rect(svg *s, double x, double y, double w, double h, const char *fill,
              const char *stroke, double stroke_w);
/* The same with a tooltip (<title>, shown on hover in a browser). */
void svg_rect_tip(svg *s, double x, double y, double w, double h, const char *fill,
                  const char *stroke, double stroke_w, const char *tip);
void svg_line(svg *s, double x0, double y0, double x1, double y1, const char *stroke,
              double stroke_w, const char *dash /* NULL: solid */);
/* n points as one polyline (n >= 1; a single point draws nothing). */
void svg_polyline(svg *s, const double *x, const double *y, size_t n, const char *stroke,
                  double stroke_w);
/* The same, dashed: `dash` an SVG dash array ("6 4"; NULL: solid). */
void svg_polyline_dash(svg *s, const double *x, const double *y, size_t n, const char *stroke,
                       double stroke_w, const char *dash);
/* A filled polygon (n >= 3), e.g. a min-max band. */
void svg_polygon(svg *s, const double *x, const double *y, size_t n, const char *fill,
                 double opacity);
void svg_circle(svg *s, double cx, double cy, double r, const char *fill, const char *stroke);
/* Text at (x, y) (baseline), size in px; anchor "start", "middle" or "end";
 * bold 0/1; rotate in degrees about (x, y) (0: none). */
void svg_text(svg *s, double x, double y, double size, const char *anchor, int bold,
              double rotate, const char *fill, const char *text);
void svg_textf(svg *s, double x, double y, double size, const char *anchor, int bold,
               const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* ==================================================================== */
/* Scales, ticks, axes, legends, colours                                 */
/* ==================================================================== */

/* Data value d0..d1 onto pixels r0..r1 (either may be decreasing). */
typedef struct plot_scale {
    double d0, d1, r0, r1;
} plot_scale;

double plot_map(const plot_scale *sc, double v);

/* At most `max` "nice" ticks (1, 2 or 5 times a power of ten apart) inside
 * [lo, hi], about `target` of them; returns how many, *step gets their
 * spacing.  lo == hi gives one tick. */
int plot_ticks(double lo, double hi, int target, double *ticks, int max, double *step);
/* Widen [*lo, *hi] outwards to multiples of the tick step (a span of zero
 * becomes one around the value), so data never touches the frame. */
void plot_nice_range(double *lo, double *hi, int target);
/* A tick label: as many decimals as the step needs, no "-0". */
void plot_fmt_tick(char *buf, size_t n, double v, double step);

/* A time axis in the unit that keeps its numbers short: ns, us or ms.
 * Returns the divisor from ns and sets *unit ("ns", "\u00b5s", "ms"). */
double plot_time_unit(double span_ns, const char **unit);

/* The plotting frame: the data area inside a w x h picture. */
typedef struct plot_frame {
    double x0, y0, x1, y1;      /* data area in px (y0 top) */
} plot_frame;

/* Axes along the bottom and left of the frame: ticks, tick labels and a
 * label with its unit ("time (\u00b5s)").  Light grid lines when grid != 0. */
void plot_axis_x(svg *s, const plot_frame *f, const plot_scale *sc, const char *label, int grid);
void plot_axis_y(svg *s, const plot_frame *f, const plot_scale *sc, const char *label, int grid);

/* Sequential colour scale (viridis, perceptually uniform and readable in
 * grey and by colour-blind readers) at t in [0, 1]: "#rrggbb" into buf[8]. */
void plot_viridis(double t, char buf[8]);
/* Categorical colour i (Okabe-Ito, colour-blind safe), cycling after 8. */
const char *plot_category(int i);
/* `color` ("#rrggbb") mixed with white: 0 leaves it, 1 is white. */
void plot_tint(const char *color, double white, char buf[8]);
/* A vertical colour bar at (x, y), w x h, for values lo..hi, with ticks and
 * `label` (unit included) beside it. */
void plot_colorbar(svg *s, double x, double y, double w, double h, double lo, double hi,
                   const char *label);
/* One legend entry: a swatch (a line when line != 0, else a box) and text. */
void plot_legend_item(svg *s, double x, double y, const char *color, int line, const char *text);
/* Title (bold) and a subtitle line under it (may be NULL). */
void plot_title(svg *s, double w_px, const char *title, const char *subtitle);

/* ==================================================================== */
/* Line charts                                                           */
/* ==================================================================== */

/* One line of a chart: n points drawn in order, each with a mark; a point
 * whose x or y is not finite is left out. */
typedef struct plot_series {
    const char *name;           /* legend text */
    const double *x, *y;
    size_t n;
    const char *color;          /* any SVG paint; NULL: plot_category(its position) */
    const char *dash;           /* SVG dash array ("6 4"); NULL: solid */
} plot_series;

typedef struct plot_lines_spec {
    const char *title, *subtitle;   /* subtitle may be NULL */
    const char *xlabel, *ylabel;    /* with their units */
    const plot_series *series;
    size_t nseries;
    /* Categories on x: when ncats > 0, x value i (0 .. ncats-1) sits at
     * evenly spaced positions labelled cats[i], not on a numeric axis. */
    const char *const *cats;
    size_t ncats;
    int y_zero;                 /* 1: the y range includes 0 */
    const char *label;          /* the source, in the bottom-right corner; may be NULL */
} plot_lines_spec;

/* A line chart of the series, legend at the right, the y range padded to
 * nice ticks; a series that later ones lie on is drawn wider, so series
 * with equal values show as stripes rather than hiding each other.  Returns the picture, or NULL with *e filled (SK_EUSAGE when
 * no series has a finite point: an empty figure is an error, not a blank
 * picture). */
svg *plot_lines(const plot_lines_spec *spec, sk_error *e);

/* ==================================================================== */
/* Reading run and sweep directories                                     */
/* ==================================================================== */

typedef struct plot_sm {
    int id, gpc, tpc, ctas;
    double busy_frac, mean_mhz, min_mhz, max_mhz, vdd_min_mv;
    double temp_max_c;          /* highest temp_c of this SM in epochs.csv (NaN: no rows) */
    double temp_last_c;         /* its last temp_c in epochs.csv (NaN: no rows) */
} plot_sm;

typedef struct plot_kernel {
    char name[64];
    double launch_ns, span_ns, time_ns;
    int ctas;
} plot_kernel;

typedef struct plot_cta {
    int kernel, sm;
    long cta;
    double start_ns, end_ns;    /* relative to its kernel's first CTA start */
    long cycles;
} plot_cta;

typedef struct plot_epoch {
    double t_ns, mhz, vdd_mv, power_w, temp_c;
    int sm;
} plot_epoch;

typedef struct plot_run {
    char *dir;
    char chip[64];
    double total_ns, mean_power_w, max_power_w;
    plot_sm *sms;
    int nsms;
    plot_kernel *kernels;
    int nkernels;
    plot_cta *ctas;
    size_t nctas;
    plot_epoch *epochs;
    size_t nepochs;
} plot_run;

/* Read DIR/summary.json, DIR/ctas.csv and DIR/epochs.csv.  Returns 0,
 * SK_EIO (a missing or unreadable file) or SK_ETRACE ("file:line: ..." for
 * a malformed one).  run owns its arrays until plot_run_free(). */
int plot_run_load(plot_run *run, const char *dir, sk_error *e);
void plot_run_free(plot_run *run);

/* One row of DIR/sweep.csv (docs/sweeps.md). */
typedef struct plot_point {
    int index;
    char trace[64], group[192];  /* group: the case and every axis value, "/"-joined */
    char status[16];
    unsigned long long seed;
    double time_ns, mean_mhz, energy_j;   /* NaN unless status is ok */
} plot_point;

typedef struct plot_sweep {
    char *dir;
    plot_point *pts;
    int npts;
} plot_sweep;

int plot_sweep_load(plot_sweep *sw, const char *dir, sk_error *e);
void plot_sweep_free(plot_sweep *sw);

/* A sweep point's directory holds point.json (docs/sweeps.md): apply its
 * overrides, in order, and its seed to *c, the sweep's base config, which
 * gives that point's effective config.  1 when applied, 0 when DIR has no
 * point.json, or a negative code (SK_ETRACE for a malformed file, the
 * config's code for an override it refuses). */
int plot_point_apply(const char *dir, cfg *c, sk_error *e);

/* A CSV file as strings: the header's names and each row's fields
 * (RFC 4180 quoting undone).  0, SK_EIO or SK_ETRACE ("file:line: ..."). */
typedef struct plot_table {
    int ncols, nrows;
    char **header;              /* ncols names */
    char **cells;               /* nrows x ncols, row-major */
} plot_table;

int plot_table_load(plot_table *t, const char *path, sk_error *e);
void plot_table_free(plot_table *t);

/* ==================================================================== */
/* Figure kinds                                                          */
/* ==================================================================== */

enum {
    PLOT_NEEDS_RUN = 1,         /* a run directory */
    PLOT_NEEDS_SWEEP = 2,       /* a sweep directory */
    PLOT_NEEDS_CONFIG = 4,      /* the chip config (the floorplan) */
};

/* What a figure is drawn from; the kind's `needs` say which are set. */
typedef struct plot_input {
    const plot_run *run;
    const plot_sweep *sweep;
    const cfg *cfg;
    const char *label;          /* the source (the directory), in the bottom-right corner; may be NULL */
} plot_input;

typedef struct plot_kind {
    const char *name;
    const char *help;
    int needs;
    /* Draw into a fresh svg; returns it, or NULL with *e filled. */
    svg *(*draw)(const struct plot_kind *k, const plot_input *in, sk_error *e);
    int metric;                 /* which value a family of kinds shows (die heatmaps) */
} plot_kind;

/* The table, in help order; *n gets its length. */
const plot_kind *plot_kinds(size_t *n);
const plot_kind *plot_kind_find(const char *name);

/* Draw kind `name` from `in`; returns the SVG text (caller frees) or NULL
 * with *e filled (SK_EUSAGE for an unknown kind or a missing input). */
char *plot_render(const char *name, const plot_input *in, size_t *len, sk_error *e);

/* Write `text` to `path` atomically (a temporary in the same directory,
 * then rename).  0 or SK_EIO. */
int plot_write_file(const char *path, const char *text, size_t len, sk_error *e);

#endif
