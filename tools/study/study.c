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
 *   study index [-d DOCS]              the table of DOCS/README.md from every
 *                                      DOCS/NAME/claims.tsv
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

/* ---- CSV (sweep.csv, ctas.csv): RFC 4180 quoting, no embedded newlines - */

static int csv_split(char *line, char ***fields)
{
    int n = 0, cap = 16;
    char **f = xmalloc(sizeof *f * (size_t)cap);
    char *p = line;
    for (;;) {
        if (n == cap)
            f = xrealloc(f, sizeof *f * (size_t)(cap *= 2));
        char *w = p, *start = p;
        if (*p == '"') {
            p++;
            while (*p) {
                if (*p == '"' && p[1] == '"') { *w++ = '"'; p += 2; }
                else if (*p == '"') { p++; break; }
                else *w++ = *p++;
            }
        } else {
            while (*p && *p != ',')
                *w++ = *p++;
        }
        char sep = *p;
        *w = 0;
        f[n++] = start;
        if (sep != ',')
            break;
        p++;
    }
    *fields = f;
    return n;
}

csv *csv_read(const char *path)
{
    char *text = read_file(path, 1);
    csv *c = xcalloc(1, sizeof *c);
    int cap = 0;
    char *save = NULL;
    int lineno = 0;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        size_t L = strlen(line);
        if (L && line[L - 1] == '\r')
            line[L - 1] = 0;
        char **f;
        int n = csv_split(line, &f);
        if (!c->head) {
            c->head = f;
            c->ncols = n;
            continue;
        }
        if (n != c->ncols)
            die("%s:%d: %d fields: expected %d as in the header", path, lineno, n, c->ncols);
        if (c->nrows == cap)
            c->row = xrealloc(c->row, sizeof *c->row * (size_t)(cap = cap ? 2 * cap : 64));
        c->row[c->nrows++] = f;
    }
    if (!c->head)
        die("%s: empty: expected a CSV header", path);
    return c;   /* text is owned by the fields; kept for the life of the tool */
}

int csv_col(const csv *c, const char *name, const char *path)
{
    for (int i = 0; i < c->ncols; i++)
        if (strcmp(c->head[i], name) == 0)
            return i;
    die("%s: no column '%s'", path, name);
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
    if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
        die("%s: %s", dir, strerror(errno));
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

static void point_detail(point *pt, const char *rundir, const char *pdir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/summary.json", rundir, pdir);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    if (!root)
        die("%s:%d:%d: %s", path, je.line, je.column, je.text);
    json_t *sms = json_object_get(root, "sms");
    size_t n = json_array_size(sms);
    if (n == 0)
        die("%s: sms: expected a non-empty array", path);
    double lo = 1e30, hi = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        double f = json_number_value(json_object_get(json_array_get(sms, i), "mean_mhz"));
        lo = fmin(lo, f);
        hi = fmax(hi, f);
        sum += f;
    }
    pt->fmin = lo;
    pt->fmax = hi;
    pt->fmean = sum / (double)n;
    json_t *ks = json_object_get(root, "kernels");
    size_t nk = json_array_size(ks);
    pt->klast_ns = nk ? json_number_value(json_object_get(json_array_get(ks, nk - 1), "time_ns")) : NAN;
    json_decref(root);

    snprintf(path, sizeof path, "%s/%s/ctas.csv", rundir, pdir);
    csv *c = csv_read(path);
    int csm = csv_col(c, "sm", path), cend = csv_col(c, "end_ns", path);
    double *last = xcalloc(n, sizeof *last);
    double end = 0;
    for (int r = 0; r < c->nrows; r++) {
        long sm = strtol(c->row[r][csm], NULL, 10);
        double t = strtod(c->row[r][cend], NULL);
        if (sm >= 0 && (size_t)sm < n && t > last[sm])
            last[sm] = t;
        end = fmax(end, t);
    }
    double first = end;
    for (size_t i = 0; i < n; i++)
        if (last[i] > 0)
            first = fmin(first, last[i]);
    pt->first_idle_ns = first;
    pt->last_end_ns = end;
    free(last);
}

run run_read(const char *rundir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/sweep.csv", rundir);
    csv *c = csv_read(path);
    int ct = csv_col(c, "trace", path), cc = csv_col(c, "case", path),
        cs = csv_col(c, "status", path), ctime = csv_col(c, "time_ns", path),
        cspan = csv_col(c, "span_ns", path), cdir = csv_col(c, "dir", path),
        cseed = csv_col(c, "seed", path);
    int cax = cc + 1 < cseed ? cc + 1 : -1;
    run r = {rundir, c->nrows, xcalloc((size_t)c->nrows + 1, sizeof(point))};
    for (int i = 0; i < c->nrows; i++) {
        char **f = c->row[i];
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

const point *find(const run *r, const char *trace, const char *cas, const char *axis)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->p[i].trace, trace) == 0 && (!cas || strcmp(r->p[i].cas, cas) == 0) &&
            (!axis || strcmp(r->p[i].axis, axis) == 0))
            return &r->p[i];
    return NULL;
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

/* ---- SVG: a line chart with a legend, no dependencies ------------------ */

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
    if (s->n < MAXPTS && isfinite(y)) {
        s->x[s->n] = x;
        s->y[s->n] = y;
        s->n++;
    }
}

static double nice_step(double range)
{
    double raw = range / 5, p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

void svg_write(const chart *c, const char *path)
{
    static const char *col[] = {"#1b6ca8", "#d1495b", "#2e933c", "#edae49", "#6d597a", "#00798c",
                                "#8d6a9f", "#3d3d3d"};
    double x0 = 1e30, x1 = -1e30, y0 = 1e30, y1 = -1e30;
    for (int i = 0; i < c->ns; i++)
        for (int j = 0; j < c->s[i].n; j++) {
            x0 = fmin(x0, c->s[i].x[j]);
            x1 = fmax(x1, c->s[i].x[j]);
            y0 = fmin(y0, c->s[i].y[j]);
            y1 = fmax(y1, c->s[i].y[j]);
        }
    if (x0 > x1) { x0 = 0; x1 = 1; y0 = 0; y1 = 1; }
    if (x1 - x0 < 1e-12) x1 = x0 + 1;
    if (y1 - y0 < 1e-12) { y1 += 0.5; y0 -= 0.5; }
    double ys = nice_step(y1 - y0), xs = nice_step(x1 - x0);
    y0 = floor(y0 / ys) * ys;
    y1 = ceil(y1 / ys) * ys;
    const double W = 760, H = 440, L = 70, R = 230, T = 40, B = 55;
    double pw = W - L - R, ph = H - T - B;
#define PX(v) (L + ((v) - x0) / (x1 - x0) * pw)
#define PY(v) (T + ph - ((v) - y0) / (y1 - y0) * ph)
    sbuf b = {0};
    sbuf_printf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
              "font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
    sbuf_printf(&b, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    sbuf_printf(&b, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">%s</text>\n", L, c->title);
    for (double v = y0; v <= y1 + ys / 2; v += ys) {
        sbuf_printf(&b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                  L, PY(v), L + pw, PY(v));
        sbuf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6,
                  PY(v) + 4, fabs(v) < ys / 1e6 ? 0.0 : v);
    }
    for (double v = ceil(x0 / xs) * xs; v <= x1 + xs / 1e6; v += xs)
        sbuf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", PX(v),
                  T + ph + 18, v);
    sbuf_printf(&b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
              "stroke=\"#333\"/>\n", L, T, pw, ph);
    sbuf_printf(&b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", L + pw / 2,
              H - 12, c->xlabel);
    sbuf_printf(&b, "<text transform=\"translate(16 %.1f) rotate(-90)\" text-anchor=\"middle\">%s"
              "</text>\n", T + ph / 2, c->ylabel);
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        const char *k = col[i % 8];
        sbuf_printf(&b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", k,
                  s->dash ? " stroke-dasharray=\"6 4\"" : "");
        for (int j = 0; j < s->n; j++)
            sbuf_printf(&b, "%s%.1f,%.1f", j ? " " : "", PX(s->x[j]), PY(s->y[j]));
        sbuf_printf(&b, "\"/>\n");
        for (int j = 0; j < s->n; j++)
            sbuf_printf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", PX(s->x[j]),
                      PY(s->y[j]), k);
        double ly = T + 10 + 18 * i;
        sbuf_printf(&b, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\" "
                  "stroke-width=\"2\"%s/>\n", L + pw + 12, ly, L + pw + 36, ly, k,
                  s->dash ? " stroke-dasharray=\"6 4\"" : "");
        sbuf_printf(&b, "<text x=\"%.0f\" y=\"%.1f\">%s</text>\n", L + pw + 42, ly + 4, s->name);
    }
    sbuf_printf(&b, "</svg>\n");
#undef PX
#undef PY
    write_file(path, b.s, b.n);
    free(b.s);
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
    die("%s: unknown study: expected one of %s", name, b.s);
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
    svg_write(&o.fig, path);
    snprintf(path, sizeof path, "%s/%s/claims.tsv", docs, st->name);
    write_file(path, o.claims.s ? o.claims.s : "", o.claims.n);
    snprintf(path, sizeof path, "%s/%s/README.md", docs, st->name);
    replace_block(path, "FINDINGS", o.find.s ? o.find.s : "");
    printf("study: %s: %d points; %s/%s/results.md\n%s", st->name, r.n, docs, st->name,
           o.find.s ? o.find.s : "");
    free(md.s);
}

static void cmd_index(const char *docs)
{
    sbuf b = {0};
    sbuf_printf(&b, "| study | claim | published | skewsim | tolerance | agree |\n|---|---|---|---|---|---|\n");
    for (int i = 0; i < NSTUDIES; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s/claims.tsv", docs, STUDIES[i]->name);
        char *text = read_file(path, 0);
        if (!text) {
            sbuf_printf(&b, "| [%s](%s/) | not run yet | | | | |\n", STUDIES[i]->name, STUDIES[i]->name);
            continue;
        }
        char *save = NULL;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            sbuf_printf(&b, "| [%s](%s/) | ", STUDIES[i]->name, STUDIES[i]->name);
            for (char *p = line; *p; p++)
                if (*p == '\t') { sbuf_printf(&b, " |"); sbuf_printf(&b, " "); }
                else sbuf_printf(&b, "%c", *p == '|' ? '/' : *p);
            sbuf_printf(&b, " |\n");
        }
        free(text);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/README.md", docs);
    if (replace_block(path, "CLAIMS", b.s) != 0)
        die("%s: no <!-- BEGIN GENERATED CLAIMS --> / <!-- END GENERATED CLAIMS --> block", path);
    free(b.s);
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
            die("%s: unexpected argument: expected maps NAME | report NAME RUNDIR | index "
                "[-d DOCS] [--quick]", argv[i]);
        else
            args[na++] = argv[i];
    }
    if (na == 2 && strcmp(args[0], "maps") == 0) {
        const study *st = study_find(args[1]);
        char sdir[4096];
        snprintf(sdir, sizeof sdir, "%s/%s", docs, st->name);
        if (st->maps)
            st->maps(sdir, quick);
    } else if (na == 3 && strcmp(args[0], "report") == 0) {
        cmd_report(study_find(args[1]), args[2], docs);
    } else if (na == 1 && strcmp(args[0], "index") == 0) {
        cmd_index(docs);
    } else {
        die("expected maps NAME | report NAME RUNDIR | index [-d DOCS] [--quick]");
    }
    return 0;
}
