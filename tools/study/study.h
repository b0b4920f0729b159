/* study.h -- what the study files share (tools/study/README.md).
 *
 * study.c holds the common part: the registry (STUDY_LIST), main, the
 * skew maps shared by several studies, the reader of a sweep's run
 * directory, the SVG chart and the writers of results.md, claims.tsv and
 * the index.  Each study is one file, study_NAME.c, that defines `const
 * study study_NAME`: a maps function (generated inputs: silicon maps,
 * traces, a spec; may be NULL) and a report function (tables, figure,
 * findings and claims from the run's own files).
 */
#ifndef STUDY_H
#define STUDY_H

#include <stddef.h>
#include <stdint.h>
#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/topo.h"
#include "skewsim/silicon.h"
#include "skewsim/gen.h"
#include "skewsim/program.h"
#include "skewsim/plot.h"

/* ---- a growing string ---------------------------------------------- */

typedef struct sbuf { char *s; size_t n, cap; } sbuf;

void sbuf_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "study: MESSAGE" on stderr, exit status 3 */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* `len` bytes to path atomically (temporary in the same directory, then rename) */
void write_file(const char *path, const char *s, size_t len);
/* the whole file, NUL-terminated; NULL if it cannot be opened and !must */
char *read_file(const char *path, int must);
void mkdir_p(const char *dir);

/* ---- skew maps (study.c's header comment says how they are made) ---- */

typedef struct chip {
    cfg c;
    topo t;
    si_floorplan fp;
    si_vf vf;
    double headroom;    /* nominal SM's attainable clock at the top bin / top bin */
} chip;

void chip_open(chip *ch, const char *config, const char *tpcs);
void chip_close(chip *ch);
/* u[i] in [0, 1], 1 = slowest: k 0 correlated, k 1 the same values in an
 * independent field's ranks */
void skew_shape(chip *ch, int k, double *u);
void write_map(const char *path, const chip *ch, const double *scale, const char *what);
/* maps/flat_00.csv and maps/{corr,rand}_XX.csv (skew_tail, grid_barrier,
 * cta_granularity) */
void maps_skew(const char *sdir);
int cmp_dbl(const void *a, const void *b);

/* ---- a run's points ----------------------------------------------------- */

typedef struct point {
    const char *trace, *cas, *axis;   /* axis: the first axis column's value, or "" */
    int ok;
    double time_ns, span_ns;
    double fmin, fmax, fmean;         /* over SMs of their mean clock (summary.json) */
    double first_idle_ns;             /* earliest time an SM ended its last CTA (ctas.csv) */
    double last_end_ns;
    double klast_ns;                  /* time_ns of the trace's last kernel (summary.json) */
    double kspan_ns;                  /* span_ns of the trace's last kernel (summary.json) */
} point;

typedef struct run {
    const char *dir;
    int n;
    point *p;
    plot_table sweep;                 /* sweep.csv: the points' strings live here */
} run;

/* RUNDIR/sweep.csv and each point's summary.json and ctas.csv (the plot
 * module's readers); every point must be ok.  run_free() releases it. */
run run_read(const char *rundir);
void run_free(run *r);
/* the first point of the trace (and case, and axis value, unless NULL) */
const point *find(const run *r, const char *trace, const char *cas, const char *axis);
/* "docs/.../maps/corr_20.csv" -> kind "corr", skew 20 */
void map_kind(const char *path, char *kind, size_t kl, int *skew);
/* The last point on flat silicon (a "flat" map) of p's trace, and with
 * same_case of p's case too; NULL if there is none. */
const point *flat_base(const run *r, const point *p, int same_case);

/* ---- the figure: series gathered here, drawn by plot_lines() --------- */

#define MAXSER 16
#define MAXPTS 32
/* dash: 0 solid, 1 dashed, 2 dotted.  Series of one family (the name's
 * part before the first ", ") share a colour. */
typedef struct series { char name[64]; int n; double x[MAXPTS], y[MAXPTS]; int dash; } series;
typedef struct chart {
    char title[160], subtitle[200], xlabel[96], ylabel[96];
    const char *cats[MAXPTS];         /* ncats > 0: x is a category index (plot_lines_spec) */
    char catbuf[MAXPTS][24];          /* the labels chart_x_categories() writes */
    int ncats;
    int y_zero;                       /* the y range includes 0 */
    int ns;
    series s[MAXSER];
} chart;

/* The series called name, created (with its dash) the first time. */
series *chart_series(chart *c, const char *name, int dash);
/* a point; a non-finite y is left out */
void series_add(series *s, double x, double y);
/* Turn the distinct x values of every series into evenly spaced
 * categories, ascending, labelled "%g", and sort
 * each series by x: for x values spread over decades (2 ... 128). */
void chart_x_categories(chart *c);
/* The figure, through plot_lines(), to path (atomically); source goes in
 * its corner.  A chart with no finite point is an error. */
void chart_write(const chart *c, const char *path, const char *source);

/* ---- outputs of one study ---------------------------------------------- */

typedef struct out {
    sbuf table;     /* results.md body */
    sbuf find;      /* the Findings block (README.md and results.md) */
    sbuf claims;    /* claims.tsv rows: claim, published, skewsim, tolerance, agree */
    chart fig;      /* figure.svg */
    chart fig2;     /* figure-2.svg, when it has series */
} out;

/* one claims.tsv row: claim, published, skewsim, tolerance, agree */
void claim(out *o, const char *claim_, const char *published, const char *value,
           const char *tol, const char *agree);
/* (a / b - 1) x 100 */
double pct(double a, double b);

/* ---- the registry ------------------------------------------------------ */

typedef struct study {
    const char *name;                            /* docs/experiments/NAME */
    void (*maps)(const char *sdir, int quick);   /* generated inputs, or NULL */
    void (*report)(const run *r, out *o);
} study;

#endif
