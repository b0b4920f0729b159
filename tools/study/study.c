/* study.c -- the studies of docs/experiments/: silicon maps in, tables,
 * figures and findings out (docs/experiments/README.md says how to run
 * them).
 *
 *   study maps NAME [-d DOCS]          write the study's generated inputs
 *                                      (silicon maps, a generated spec) into
 *                                      DOCS/NAME/ (DOCS: docs/experiments)
 *   study report NAME RUNDIR [-d DOCS] read RUNDIR/sweep.csv and each point's
 *                                      summary.json and ctas.csv; write
 *                                      DOCS/NAME/results.md, figure.svg,
 *                                      claims.tsv and the generated block of
 *                                      DOCS/NAME/README.md
 *   study index [-d DOCS]              the claims table and the list of what no
 *                                      paper reports, in DOCS/README.md, from
 *                                      every registered study's claims.tsv
 *   study list                         the registered studies, one a line
 *
 * Nothing a reader takes as a result is typed by hand: every number of a
 * results table, of a "Findings" block and of the index is printed here from
 * the run's own files.  The hand-written parts of each README state the
 * question, the expectation from the literature and the model's limits.
 *
 * Skew maps.  A study's per-SM clock skew is a `silicon.preset: file` map of
 * fmax_scale values (docs/silicon.md, "Process variation").  Its shape is the
 * VARIUS field of the project's own variation model (si_variation_map with
 * silicon.preset=skewed, sim.seed 1): `corr` takes the systematic part only
 * (variation.sys_pct 100: spatially correlated over the die, range phi = half
 * the die); `rand` puts the same values on the SMs in the rank order of the
 * independent part (sys_pct 0), so both hold the same clocks.  The field is then
 * rescaled so that the fastest SM keeps the top clock and the slowest loses
 * exactly X % of it: scale_i = (1 - X u_i) / h, u_i = (vth_i - min) / (max -
 * min) in [0, 1], h = the nominal SM's clock headroom at the top bin's
 * regulator set-point less 1.5 % of IR drop (the guard band leaves a nominal
 * SM above the top bin; without 1/h the first few % of skew would vanish
 * into it).  So corr and rand have the same clock distribution and differ
 * only in where the slow SMs sit: on the die and, through the SM numbering,
 * in the dispatchers' order.  The clocks a run reaches are read back
 * from its summary.json and reported as the measured skew.
 *
 * Determinism: same inputs, same bytes; every file is written to a
 * temporary and renamed.
 */
#include <errno.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <jansson.h>
#include "skewsim/plot.h"
#include "study.h"

/* ---- a growing string ---------------------------------------------- */

void sbuf_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        size_t room = b->cap - b->n;
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            abort();
        if (b->s && (size_t)k < room) {
            b->n += (size_t)k;
            return;
        }
        b->cap = (b->cap + (size_t)k + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
}

void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("study: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(3);
}

/* Write `len` bytes to path atomically (temporary in the same directory,
 * then rename). */
void write_file(const char *path, const char *s, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        die("%s: %s", path, strerror(errno));
    FILE *f = fdopen(fd, "w");
    if (!f || fwrite(s, 1, len, f) != len || fclose(f) != 0 || chmod(tmp, 0644) != 0 ||
        rename(tmp, path) != 0) {
        unlink(tmp);
        die("%s: cannot write: %s", path, strerror(errno));
    }
}

char *read_file(const char *path, int must)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (must)
            die("%s: %s", path, strerror(errno));
        return NULL;
    }
    sbuf b = {0};
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbuf_printf(&b, "%.*s", (int)k, chunk);
    fclose(f);
    if (!b.s)
        b.s = xstrdup("");
    return b.s;
}

/* ---- skew maps --------------------------------------------------------- */

#define IR_ALLOW 0.015  /* IR drop allowed for when rescaling: docs/silicon.md puts the
                         * uncapped-GEMM worst case at 5.6 %, FMA at 1 %; 1.5 % keeps the
                         * fastest SM at the top bin on FMA-class loads. */

void chip_open(chip *ch, const char *config, const char *tpcs)
{
    sk_error e = {0};
    cfg_defaults(&ch->c);
    if (cfg_load_file(&ch->c, config, &e) ||
        (tpcs && cfg_set_value(&ch->c, "topology.tpcs_per_gpc", tpcs, &e)) ||
        topo_build(&ch->t, &ch->c, &e) || si_floorplan_build(&ch->fp, &ch->c, &ch->t, &e) ||
        si_vf_init(&ch->vf, &ch->c, &e))
        die("%s", e.msg);
    int top = ch->vf.nbins - 1;
    double v = ch->vf.vreg_mv[top] * (1.0 - IR_ALLOW);
    ch->headroom = si_vf_fmax_mhz(&ch->vf, v, ch->vf.vth_mv) / ch->vf.mhz[top];
    if (!(ch->headroom >= 1.0))
        ch->headroom = 1.0;
}

void chip_close(chip *ch)
{
    si_vf_free(&ch->vf);
    si_floorplan_free(&ch->fp);
    topo_free(&ch->t);
}

/* u[i] in [0, 1]: the VARIUS field's shape, 1 = slowest.  sys_pct 100:
 * correlated, 0: independent. */
static void varius_shape(chip *ch, int sys_pct, double *u)
{
    sk_error e = {0};
    cfg c = ch->c;
    char pct[16];
    snprintf(pct, sizeof pct, "%d", sys_pct);
    c.seed = 1;
    if (cfg_set_value(&c, "silicon.preset", "skewed", &e) ||
        cfg_set_value(&c, "variation.sys_pct", pct, &e))
        die("%s", e.msg);
    int n = ch->t.nsms;
    double *vth = xmalloc(sizeof *vth * (size_t)n), *fs = xmalloc(sizeof *fs * (size_t)n);
    if (si_variation_map(&c, &ch->fp, vth, fs, &e))
        die("%s", e.msg);
    double lo = vth[0], hi = vth[0];
    for (int i = 1; i < n; i++) {
        lo = fmin(lo, vth[i]);
        hi = fmax(hi, vth[i]);
    }
    for (int i = 0; i < n; i++)
        u[i] = hi > lo ? (vth[i] - lo) / (hi - lo) : 0.0;
    free(vth);
    free(fs);
}

int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The shape of a map: corr (k 0) is the correlated field; rand (k 1) puts
 * the correlated field's values on the SMs in the order of the independent
 * field's ranks, so both maps hold the same clocks and differ only in where
 * the slow SMs sit. */
void skew_shape(chip *ch, int k, double *u)
{
    int n = ch->t.nsms;
    varius_shape(ch, 100, u);
    if (!k)
        return;
    double *sorted = xmalloc(sizeof *sorted * (size_t)n), *ind = xmalloc(sizeof *ind * (size_t)n);
    memcpy(sorted, u, sizeof *sorted * (size_t)n);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_dbl);
    varius_shape(ch, 0, ind);
    for (int i = 0; i < n; i++) {
        int rank = 0;
        for (int j = 0; j < n; j++)
            rank += ind[j] < ind[i] || (ind[j] == ind[i] && j < i);
        u[i] = sorted[rank];
    }
    free(sorted);
    free(ind);
}

void write_map(const char *path, const chip *ch, const double *scale, const char *what)
{
    sbuf b = {0};
    sbuf_printf(&b, "# generated by `study maps` (tools/study/study.c): %s\n", what);
    sbuf_printf(&b, "# headroom of the nominal SM at the top bin: %.6f\nsm,fmax_scale\n", ch->headroom);
    for (int i = 0; i < ch->t.nsms; i++)
        sbuf_printf(&b, "%d,%.6f\n", i, scale[i]);
    write_file(path, b.s, b.n);
    free(b.s);
}

void mkdir_p(const char *dir)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(tmp, 0755);
            *p = '/';
        }
    struct stat st;
    if (mkdir(tmp, 0755) != 0 && (errno != EEXIST || stat(tmp, &st) != 0 || !S_ISDIR(st.st_mode)))
        die("%s: cannot create directory: %s", dir, strerror(errno));
}

static const int SKEWS[] = {5, 10, 20, 30};   /* % of the top clock lost by the slowest SM */
#define NSKEWS ((int)(sizeof SKEWS / sizeof SKEWS[0]))

/* The skew maps shared by skew_tail, grid_barrier and cta_granularity:
 * maps/flat_00.csv and maps/{corr,rand}_XX.csv. */
void maps_skew(const char *sdir)
{
    chip ch;
    chip_open(&ch, "configs/h200.yaml", NULL);
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/maps", sdir);
    mkdir_p(dir);
    int n = ch.t.nsms;
    double *u = xmalloc(sizeof *u * (size_t)n), *s = xmalloc(sizeof *s * (size_t)n);
    for (int i = 0; i < n; i++)
        s[i] = 1.0 / ch.headroom;
    snprintf(path, sizeof path, "%s/flat_00.csv", dir);
    write_map(path, &ch, s, "every SM at the top clock (skew 0)");
    for (int k = 0; k < 2; k++) {
        const char *kind = k ? "rand" : "corr";
        skew_shape(&ch, k, u);
        for (int j = 0; j < NSKEWS; j++) {
            char what[200];
            snprintf(what, sizeof what, "%s, the slowest SM %d %% below the top clock",
                     k ? "the correlated map's clocks placed in the ranks of an independent field "
                         "(sys_pct 0)" : "spatially correlated VARIUS shape (sys_pct 100)", SKEWS[j]);
            for (int i = 0; i < n; i++)
                s[i] = (1.0 - SKEWS[j] / 100.0 * u[i]) / ch.headroom;
            snprintf(path, sizeof path, "%s/%s_%02d.csv", dir, kind, SKEWS[j]);
            write_map(path, &ch, s, what);
        }
    }
    free(u);
    free(s);
    chip_close(&ch);
}

/* ---- a run's points ----------------------------------------------------- */

/* A point's clocks (summary.json) and CTA ends (ctas.csv), through the
 * plot module's run reader. */
static void point_detail(point *pt, const char *rundir, const char *pdir)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", rundir, pdir);
    plot_run pr;
    sk_error e = {0};
    if (plot_run_load(&pr, dir, &e))
        die("%s", e.msg);
    if (pr.nsms == 0) {
        plot_run_free(&pr);
        die("%s/summary.json: sms: expected a non-empty array", dir);
    }
    double lo = 1e30, hi = 0, sum = 0;
    for (int i = 0; i < pr.nsms; i++) {
        double f = pr.sms[i].mean_mhz;
        lo = fmin(lo, f);
        hi = fmax(hi, f);
        sum += f;
    }
    pt->fmin = lo;
    pt->fmax = hi;
    pt->fmean = sum / (double)pr.nsms;
    pt->klast_ns = pr.nkernels ? pr.kernels[pr.nkernels - 1].time_ns : NAN;
    pt->kspan_ns = pr.nkernels ? pr.kernels[pr.nkernels - 1].span_ns : NAN;
    double *last = xcalloc((size_t)pr.nsms, sizeof *last);
    double end = 0;
    for (size_t r = 0; r < pr.nctas; r++) {
        int sm = pr.ctas[r].sm;
        double t = pr.ctas[r].end_ns;
        if (t > last[sm])
            last[sm] = t;
        end = fmax(end, t);
    }
    double first = end;
    for (int i = 0; i < pr.nsms; i++)
        if (last[i] > 0)
            first = fmin(first, last[i]);
    pt->first_idle_ns = first;
    pt->last_end_ns = end;
    free(last);
    plot_run_free(&pr);
}

/* The column `name` of sweep.csv. */
static int col(const plot_table *t, const char *name, const char *path)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->header[i], name) == 0)
            return i;
    die("%s: no column '%s'", path, name);
}

run run_read(const char *rundir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sweep.csv", rundir);
    run r = {rundir, 0, NULL, {0}};
    sk_error e = {0};
    if (plot_table_load(&r.sweep, path, &e))
        die("%s", e.msg);
    const plot_table *c = &r.sweep;
    int ct = col(c, "trace", path), cc = col(c, "case", path), cs = col(c, "status", path),
        ctime = col(c, "time_ns", path), cspan = col(c, "span_ns", path),
        cdir = col(c, "dir", path), cseed = col(c, "seed", path);
    int cax = cc + 1 < cseed ? cc + 1 : -1;
    r.n = c->nrows;
    r.p = xcalloc((size_t)c->nrows + 1, sizeof(point));
    for (int i = 0; i < c->nrows; i++) {
        char **f = c->cells + (size_t)i * (size_t)c->ncols;
        point *p = &r.p[i];
        p->trace = f[ct];
        p->cas = f[cc];
        p->axis = cax >= 0 ? f[cax] : "";
        p->ok = strcmp(f[cs], "ok") == 0;
        if (!p->ok)
            die("%s: point %s (%s %s %s): status %s: every point must be ok", path, f[0],
                p->trace, p->cas, p->axis, f[cs]);
        p->time_ns = strtod(f[ctime], NULL);
        p->span_ns = strtod(f[cspan], NULL);
        point_detail(p, rundir, f[cdir]);
    }
    return r;
}

void run_free(run *r)
{
    free(r->p);
    plot_table_free(&r->sweep);
    memset(r, 0, sizeof *r);
}

const point *find(const run *r, const char *trace, const char *cas, const char *axis)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->p[i].trace, trace) == 0 && (!cas || strcmp(r->p[i].cas, cas) == 0) &&
            (!axis || strcmp(r->p[i].axis, axis) == 0))
            return &r->p[i];
    return NULL;
}

const point *flat_base(const run *r, const point *p, int same_case)
{
    const point *base = NULL;
    for (int j = 0; j < r->n; j++) {
        char k2[16];
        int s2;
        map_kind(r->p[j].axis, k2, sizeof k2, &s2);
        if (strcmp(k2, "flat") == 0 && strcmp(r->p[j].trace, p->trace) == 0 &&
            (!same_case || strcmp(r->p[j].cas, p->cas) == 0))
            base = &r->p[j];
    }
    return base;
}

/* "docs/.../maps/corr_20.csv" -> kind "corr", skew 20 */
void map_kind(const char *path, char *kind, size_t kl, int *skew)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *us = strchr(b, '_');
    size_t L = us ? (size_t)(us - b) : strlen(b);
    if (L >= kl)
        L = kl - 1;
    memcpy(kind, b, L);
    kind[L] = 0;
    *skew = us ? atoi(us + 1) : 0;
}

/* ---- the figure: series gathered here, drawn by plot_lines() ----------- */

series *chart_series(chart *c, const char *name, int dash)
{
    for (int i = 0; i < c->ns; i++)
        if (strcmp(c->s[i].name, name) == 0)
            return &c->s[i];
    if (c->ns == MAXSER)
        die("chart: more than %d series", MAXSER);
    series *s = &c->s[c->ns++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->dash = dash;
    return s;
}

void series_add(series *s, double x, double y)
{
    if (s->n == MAXPTS)
        die("chart: series '%s': more than %d points", s->name, MAXPTS);
    if (isfinite(y)) {
        s->x[s->n] = x;
        s->y[s->n] = y;
        s->n++;
    }
}

void chart_x_categories(chart *c)
{
    double xs[MAXPTS];
    int n = 0;
    for (int i = 0; i < c->ns; i++)
        for (int j = 0; j < c->s[i].n; j++) {
            int seen = 0;
            for (int k = 0; k < n; k++)
                seen |= xs[k] == c->s[i].x[j];
            if (!seen) {
                if (n == MAXPTS)
                    die("chart: more than %d distinct x values", MAXPTS);
                xs[n++] = c->s[i].x[j];
            }
        }
    qsort(xs, (size_t)n, sizeof *xs, cmp_dbl);
    for (int k = 0; k < n; k++) {
        snprintf(c->catbuf[k], sizeof c->catbuf[k], "%g", xs[k]);
        c->cats[k] = c->catbuf[k];
    }
    c->ncats = n;
    for (int i = 0; i < c->ns; i++) {
        series *s = &c->s[i];
        for (int j = 0; j < s->n; j++)
            for (int k = 0; k < n; k++)
                if (xs[k] == s->x[j])
                    s->x[j] = k;
        for (int a = 1; a < s->n; a++)    /* insertion sort by x: a few points */
            for (int b = a; b > 0 && s->x[b - 1] > s->x[b]; b--) {
                double tx = s->x[b], ty = s->y[b];
                s->x[b] = s->x[b - 1], s->y[b] = s->y[b - 1];
                s->x[b - 1] = tx, s->y[b - 1] = ty;
            }
    }
}

/* The length of a series' family name: the part before the first ", ". */
static size_t family_len(const char *name)
{
    const char *cut = strstr(name, ", ");
    return cut ? (size_t)(cut - name) : strlen(name);
}

void chart_write(const chart *c, const char *path, const char *source)
{
    static const char *const DASH[] = {NULL, "7 4", "2 3"};
    plot_series ps[MAXSER];
    int fam[MAXSER], nfam = 0;
    for (int i = 0; i < c->ns; i++) {
        /* one colour per family ("gigathread, corr" and "gigathread, rand"
         * share one), in the order the families first appear */
        size_t L = family_len(c->s[i].name);
        fam[i] = -1;
        for (int j = 0; j < i && fam[i] < 0; j++)
            if (family_len(c->s[j].name) == L && !strncmp(c->s[i].name, c->s[j].name, L))
                fam[i] = fam[j];
        if (fam[i] < 0)
            fam[i] = nfam++;
        ps[i] = (plot_series){.name = c->s[i].name, .x = c->s[i].x, .y = c->s[i].y,
                              .n = (size_t)c->s[i].n, .color = plot_category(fam[i]),
                              .dash = DASH[c->s[i].dash % 3]};
    }
    plot_lines_spec sp = {.title = c->title, .subtitle = c->subtitle[0] ? c->subtitle : NULL,
                          .xlabel = c->xlabel, .ylabel = c->ylabel, .series = ps,
                          .nseries = (size_t)c->ns, .cats = c->cats, .ncats = (size_t)c->ncats,
                          .y_zero = c->y_zero, .label = source};
    sk_error e = {0};
    svg *s = plot_lines(&sp, &e);
    if (!s)
        die("%s: %s", path, e.msg);
    size_t len;
    char *text = svg_finish(s, &len);
    if (plot_write_file(path, text, len, &e)) {
        free(text);
        die("%s", e.msg);
    }
    free(text);
}

/* ---- outputs of one study ---------------------------------------------- */

void claim(out *o, const char *claim_, const char *published, const char *value,
                  const char *tol, const char *agree)
{
    sbuf_printf(&o->claims, "%s\t%s\t%s\t%s\t%s\n", claim_, published, value, tol, agree);
}

double pct(double a, double b) { return (a / b - 1.0) * 100.0; }

/* ---- the registry ------------------------------------------------------ */

/* The registry, in the order of the index (docs/experiments/README.md).  A
 * study is one file, tools/study/study_NAME.c, defining `const study
 * study_NAME`, plus one line here (tools/study/README.md). */
#define STUDY_LIST(X) \
    X(skew_tail)      \
    X(grid_barrier)   \
    X(lee2011)        \
    X(cta_granularity) \
    X(short_dvfs)     \
    X(die_asymmetry)  \
    X(warp_cache)

#define STUDY_DECL(n) extern const study study_##n;
STUDY_LIST(STUDY_DECL)
#undef STUDY_DECL
#define STUDY_REF(n) &study_##n,
static const study *const STUDIES[] = {STUDY_LIST(STUDY_REF)};
#undef STUDY_REF
#define NSTUDIES ((int)(sizeof STUDIES / sizeof STUDIES[0]))

static const study *study_find(const char *name)
{
    for (int i = 0; i < NSTUDIES; i++)
        if (strcmp(STUDIES[i]->name, name) == 0)
            return STUDIES[i];
    sbuf b = {0};
    for (int i = 0; i < NSTUDIES; i++)
        sbuf_printf(&b, "%s%s", i ? ", " : "", STUDIES[i]->name);
    fprintf(stderr, "study: %s: unknown study: expected one of %s\n", name, b.s);
    free(b.s);
    exit(3);
}

/* Replace the text between the BEGIN/END markers of `path` (kept if the
 * file or the markers are missing: then nothing is written). */
static int replace_block(const char *path, const char *tag, const char *body)
{
    char *text = read_file(path, 0);
    if (!text)
        return -1;
    char begin[128], end[128];
    snprintf(begin, sizeof begin, "<!-- BEGIN GENERATED %s", tag);
    snprintf(end, sizeof end, "<!-- END GENERATED %s", tag);
    char *b = strstr(text, begin), *e = b ? strstr(b, end) : NULL;
    if (!b || !e) {
        free(text);
        return -1;
    }
    char *bl = strchr(b, '\n');
    sbuf o = {0};
    sbuf_printf(&o, "%.*s%s%s", (int)(bl + 1 - text), text, body, e);
    write_file(path, o.s, o.n);
    free(o.s);
    free(text);
    return 0;
}

static void cmd_report(const study *st, const char *rundir, const char *docs)
{
    run r = run_read(rundir);
    out o;
    memset(&o, 0, sizeof o);
    st->report(&r, &o);
    char path[4096];
    sbuf md = {0};
    sbuf_printf(&md, "# %s: results\n\nGenerated by `study report %s` from the sweep's own output "
              "(sweep.csv, each point's summary.json and ctas.csv); do not edit.\n\n## Findings\n\n%s\n"
              "## Table\n\n%s", st->name, st->name, o.find.s ? o.find.s : "", o.table.s ? o.table.s : "");
    snprintf(path, sizeof path, "%s/%s/results.md", docs, st->name);
    write_file(path, md.s, md.n);
    snprintf(path, sizeof path, "%s/%s/figure.svg", docs, st->name);
    char source[160];
    snprintf(source, sizeof source, "study report %s (tools/study)", st->name);
    chart_write(&o.fig, path, source);
    snprintf(path, sizeof path, "%s/%s/figure-2.svg", docs, st->name);
    if (o.fig2.ns)
        chart_write(&o.fig2, path, source);
    snprintf(path, sizeof path, "%s/%s/claims.tsv", docs, st->name);
    write_file(path, o.claims.s ? o.claims.s : "", o.claims.n);
    snprintf(path, sizeof path, "%s/%s/README.md", docs, st->name);
    replace_block(path, "FINDINGS", o.find.s ? o.find.s : "");
    printf("study: %s: %d points; %s/%s/results.md\n%s", st->name, r.n, docs, st->name,
           o.find.s ? o.find.s : "");
    free(md.s);
    free(o.table.s);
    free(o.find.s);
    free(o.claims.s);
    run_free(&r);
}

/* One cell of a claims.tsv row, for a markdown table: '|' cannot stand in
 * a cell. */
static void cell(sbuf *b, const char *text)
{
    for (const char *p = text; *p; p++)
        sbuf_printf(b, "%c", *p == '|' ? '/' : *p);
}

/* The index of DOCS/README.md, from every registered study's claims.tsv
 * (claim, published, skewsim, tolerance, agree): the CLAIMS table, a tally,
 * and the NOVEL list of the claims that no paper reports (published value
 * "none published"). */
static void cmd_index(const char *docs)
{
    sbuf b = {0}, nov = {0};
    int rows = 0, published = 0, agree = 0, novel = 0, notrun = 0;
    sbuf_printf(&b, "| study | claim | published | skewsim | tolerance | agree |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < NSTUDIES; i++) {
        const char *nm = STUDIES[i]->name;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/claims.tsv", docs, nm);
        char *text = read_file(path, 0);
        if (!text) {
            sbuf_printf(&b, "| [%s](%s/) | not run yet | | | | |\n", nm, nm);
            notrun++;
            continue;
        }
        char *save = NULL;
        int lineno = 0;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            lineno++;
            char *f[5];
            int nf = 0;
            for (char *p = line; nf < 5; nf++) {
                f[nf] = p;
                char *tab = strchr(p, '\t');
                if (!tab) {
                    nf++;
                    break;
                }
                *tab = 0;
                p = tab + 1;
            }
            if (nf != 5) {
                free(text);
                free(b.s);
                free(nov.s);
                die("%s:%d:1: claim: bad value: expected 5 tab-separated fields (claim, published, "
                    "skewsim, tolerance, agree), got %d", path, lineno, nf);
            }
            sbuf_printf(&b, "| [%s](%s/) |", nm, nm);
            for (int k = 0; k < 5; k++) {
                sbuf_printf(&b, " ");
                cell(&b, f[k]);
                sbuf_printf(&b, " |");
            }
            sbuf_printf(&b, "\n");
            rows++;
            if (strncmp(f[1], "none", 4) == 0) {
                novel++;
                sbuf_printf(&nov, "- **%s** ([%s](%s/)): %s: %s.\n", f[0], nm, nm, f[2], f[4]);
            } else {
                published++;
                agree += strncmp(f[4], "yes", 3) == 0;
            }
        }
        free(text);
    }
    sbuf_printf(&b, "\n%d claims from %d studies%s: %d with a published value, of which %d agree "
                "within the stated tolerance; %d that no paper reports (below).\n", rows,
                NSTUDIES - notrun, notrun ? " (the others not run yet)" : "", published, agree, novel);
    if (!nov.s)
        sbuf_printf(&nov, "- none yet\n");
    char path[4096];
    snprintf(path, sizeof path, "%s/README.md", docs);
    int rc = replace_block(path, "CLAIMS", b.s);
    int rn = rc ? rc : replace_block(path, "NOVEL", nov.s);
    free(b.s);
    free(nov.s);
    if (rc != 0)
        die("%s: no <!-- BEGIN GENERATED CLAIMS --> / <!-- END GENERATED CLAIMS --> block", path);
    if (rn != 0)
        die("%s: no <!-- BEGIN GENERATED NOVEL --> / <!-- END GENERATED NOVEL --> block", path);
}

int main(int argc, char **argv)
{
    const char *docs = "docs/experiments";
    int quick = 0;
    char *args[4];
    int na = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-d") == 0 && i + 1 < argc)
            docs = argv[++i];
        else if (strcmp(argv[i], "--quick") == 0)
            quick = 1;
        else if (argv[i][0] == '-' || na == 4)
            die("%s: unexpected argument: expected maps NAME | report NAME RUNDIR | index | list "
                "[-d DOCS] [--quick]", argv[i]);
        else
            args[na++] = argv[i];
    }
    if (na == 2 && strcmp(args[0], "maps") == 0) {
        const study *st = study_find(args[1]);
        char sdir[4096];
        snprintf(sdir, sizeof sdir, "%s/%s", docs, st->name);
        /* -d DOCS need not exist yet: every study writes into DOCS/NAME,
         * some only files at its top (a generated spec), so it is made
         * here, once, for all of them. */
        mkdir_p(sdir);
        if (st->maps)
            st->maps(sdir, quick);
    } else if (na == 3 && strcmp(args[0], "report") == 0) {
        cmd_report(study_find(args[1]), args[2], docs);
    } else if (na == 1 && strcmp(args[0], "index") == 0) {
        cmd_index(docs);
    } else if (na == 1 && strcmp(args[0], "list") == 0) {
        for (int i = 0; i < NSTUDIES; i++)
            printf("%s\n", STUDIES[i]->name);
    } else {
        die("expected maps NAME | report NAME RUNDIR | index | list [-d DOCS] [--quick]");
    }
    return 0;
}
