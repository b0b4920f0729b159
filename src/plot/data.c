/* data.c -- a run directory and a sweep directory read back into arrays
 * (plot.h), for the figures and the report.
 *
 * summary.json is read with jansson; the CSV files with one small reader
 * that knows RFC 4180 quoting (sweep.csv quotes a message that holds a
 * comma) and finds columns by their header names, so a column added later
 * does not break an old reader.  Every malformed line is refused with
 * "file:line: ..." rather than drawn wrong.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "skewsim/plot.h"

/* ---- CSV --------------------------------------------------------------- */

enum { CSV_MAXF = 64 };

typedef struct csv {
    FILE *f;
    const char *path;
    char *line;
    size_t cap;
    long lineno;
    char *field[CSV_MAXF];
    int nf;
    char *hdr[CSV_MAXF];        /* owned copies of the header's names */
    int nh;
} csv;

/* Split the current line in place: quoted fields lose their quotes and a
 * doubled quote becomes one.  Returns the number of fields. */
static int split(csv *c)
{
    char *p = c->line, *o;
    c->nf = 0;
    size_t n = strlen(p);
    while (n && (p[n - 1] == '\n' || p[n - 1] == '\r'))
        p[--n] = '\0';
    for (;;) {
        if (c->nf == CSV_MAXF)
            return -1;
        c->field[c->nf++] = o = p;
        if (*p == '"') {
            p++;
            for (;;) {
                if (!*p)
                    return -1;
                if (*p == '"' && p[1] == '"') {
                    *o++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else {
                    *o++ = *p++;
                }
            }
            if (*p && *p != ',')
                return -1;
        } else {
            while (*p && *p != ',')
                *o++ = *p++;
        }
        int more = *p == ',';
        if (*p)
            p++;
        *o = '\0';
        if (!more)
            return c->nf;
    }
}

static int csv_open(csv *c, const char *path, sk_error *e)
{
    memset(c, 0, sizeof *c);
    c->path = path;
    c->f = fopen(path, "r");
    if (!c->f)
        return sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(errno));
    if (getline(&c->line, &c->cap, c->f) < 0 || split(c) < 1) {
        fclose(c->f);
        free(c->line);
        c->f = NULL;
        return sk_errorf(e, SK_ETRACE, "%s:1: no header line", path);
    }
    c->lineno = 1;
    c->nh = c->nf;
    for (int i = 0; i < c->nf; i++)
        c->hdr[i] = xstrdup(c->field[i]);
    return 0;
}

static void csv_close(csv *c)
{
    if (c->f)
        fclose(c->f);
    free(c->line);
    for (int i = 0; i < c->nh; i++)
        free(c->hdr[i]);
    memset(c, 0, sizeof *c);
}

/* The column named `name`, or -1 with *e filled. */
static int csv_col(csv *c, const char *name, sk_error *e)
{
    for (int i = 0; i < c->nh; i++)
        if (!strcmp(c->hdr[i], name))
            return i;
    sk_errorf(e, SK_ETRACE, "%s:1: no column '%s' in the header", c->path, name);
    return -1;
}

/* Next data line: 1, 0 at the end, or a negative code. */
static int csv_next(csv *c, sk_error *e)
{
    for (;;) {
        if (getline(&c->line, &c->cap, c->f) < 0)
            return 0;
        c->lineno++;
        if (c->line[0] == '\n' || c->line[0] == '\0')
            continue;
        if (split(c) != c->nh)
            return sk_errorf(e, SK_ETRACE, "%s:%ld: %d fields: expected %d as in the header", c->path,
                             c->lineno, c->nf, c->nh);
        return 1;
    }
}

/* Field `col` as a number; an empty field is NaN when empty_ok. */
static int csv_num(csv *c, int col, int empty_ok, double *v, sk_error *e)
{
    const char *s = c->field[col];
    if (!*s && empty_ok) {
        *v = NAN;
        return 0;
    }
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(*v))
        return sk_errorf(e, SK_ETRACE, "%s:%ld: %s: bad value '%s': expected a number", c->path,
                         c->lineno, c->hdr[col], s);
    return 0;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* ---- summary.json ---------------------------------------------------- */

static double jnum(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static int load_summary(plot_run *r, const char *path, sk_error *e)
{
    json_error_t je;
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(errno));
    json_t *root = json_loadf(f, 0, &je);
    fclose(f);
    if (!root)
        return sk_errorf(e, SK_ETRACE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
    int rc = 0;
    json_t *sms = json_object_get(root, "sms"), *ks = json_object_get(root, "kernels");
    if (!json_is_object(root) || !json_is_array(sms) || !json_is_array(ks) ||
        !json_is_number(json_object_get(root, "total_ns"))) {
        rc = sk_errorf(e, SK_ETRACE, "%s: not a skewsim summary: expected total_ns, kernels[] and sms[]",
                       path);
        goto out;
    }
    const char *chip = json_string_value(json_object_get(root, "config"));
    snprintf(r->chip, sizeof r->chip, "%s", chip ? chip : "?");
    r->total_ns = jnum(root, "total_ns");
    json_t *chipo = json_object_get(root, "chip");
    r->mean_power_w = jnum(chipo, "mean_power_w");
    r->max_power_w = jnum(chipo, "max_power_w");

    r->nsms = (int)json_array_size(sms);
    r->sms = xcalloc((size_t)r->nsms + 1, sizeof *r->sms);
    for (int i = 0; i < r->nsms; i++) {
        json_t *o = json_array_get(sms, (size_t)i);
        plot_sm *m = &r->sms[i];
        double id = jnum(o, "id");
        if (!(id == i)) {
            rc = sk_errorf(e, SK_ETRACE, "%s: sms[%d]: id %g: expected %d (SMs in id order)", path, i,
                           id, i);
            goto out;
        }
        m->id = i;
        m->gpc = (int)jnum(o, "gpc");
        m->tpc = (int)jnum(o, "tpc");
        m->ctas = (int)jnum(o, "ctas");
        m->busy_frac = jnum(o, "busy_frac");
        m->mean_mhz = jnum(o, "mean_mhz");
        m->min_mhz = jnum(o, "min_mhz");
        m->max_mhz = jnum(o, "max_mhz");
        m->vdd_min_mv = jnum(o, "vdd_min_mv");
        m->temp_max_c = m->temp_last_c = NAN;
    }
    r->nkernels = (int)json_array_size(ks);
    r->kernels = xcalloc((size_t)r->nkernels + 1, sizeof *r->kernels);
    for (int i = 0; i < r->nkernels; i++) {
        json_t *o = json_array_get(ks, (size_t)i);
        plot_kernel *k = &r->kernels[i];
        const char *name = json_string_value(json_object_get(o, "name"));
        snprintf(k->name, sizeof k->name, "%s", name ? name : "?");
        k->launch_ns = jnum(o, "launch_ns");
        k->span_ns = jnum(o, "span_ns");
        k->time_ns = jnum(o, "time_ns");
        k->ctas = (int)jnum(o, "ctas");
    }
out:
    json_decref(root);
    return rc;
}

/* ---- ctas.csv, epochs.csv --------------------------------------------- */

static int load_ctas(plot_run *r, const char *path, sk_error *e)
{
    csv c;
    int rc = csv_open(&c, path, e);
    if (rc)
        return rc;
    int ck = csv_col(&c, "kernel", e), cc = csv_col(&c, "cta", e), cs = csv_col(&c, "sm", e);
    int c0 = csv_col(&c, "start_ns", e), c1 = csv_col(&c, "end_ns", e), cy = csv_col(&c, "cycles", e);
    if (e->code) {
        csv_close(&c);
        return e->code;
    }
    size_t cap = 0;
    while ((rc = csv_next(&c, e)) > 0) {
        double v[6];
        int cols[6] = {ck, cc, cs, c0, c1, cy};
        for (int i = 0; i < 6 && rc >= 0; i++)
            rc = csv_num(&c, cols[i], 0, &v[i], e);
        if (rc < 0)
            break;
        if (v[2] < 0 || v[2] >= r->nsms || v[0] < 0 || v[0] >= r->nkernels) {
            rc = sk_errorf(e, SK_ETRACE, "%s:%ld: CTA on SM %g of kernel %g: the summary has %d SMs, "
                           "%d kernels", path, c.lineno, v[2], v[0], r->nsms, r->nkernels);
            break;
        }
        if (r->nctas == cap) {
            cap = cap ? cap * 2 : 256;
            r->ctas = xrealloc(r->ctas, cap * sizeof *r->ctas);
        }
        plot_cta *t = &r->ctas[r->nctas++];
        t->kernel = (int)v[0];
        t->cta = (long)v[1];
        t->sm = (int)v[2];
        t->start_ns = v[3];
        t->end_ns = v[4];
        t->cycles = (long)v[5];
    }
    csv_close(&c);
    return rc < 0 ? rc : 0;
}

static int load_epochs(plot_run *r, const char *path, sk_error *e)
{
    csv c;
    int rc = csv_open(&c, path, e);
    if (rc)
        return rc;
    int cols[6] = {csv_col(&c, "t_ns", e), csv_col(&c, "sm", e), csv_col(&c, "mhz", e),
                   csv_col(&c, "vdd_mv", e), csv_col(&c, "power_w", e), csv_col(&c, "temp_c", e)};
    if (e->code) {
        csv_close(&c);
        return e->code;
    }
    size_t cap = 0;
    while ((rc = csv_next(&c, e)) > 0) {
        double v[6];
        for (int i = 0; i < 6 && rc >= 0; i++)
            rc = csv_num(&c, cols[i], 0, &v[i], e);
        if (rc < 0)
            break;
        if (v[1] < 0 || v[1] >= r->nsms) {
            rc = sk_errorf(e, SK_ETRACE, "%s:%ld: SM %g: the summary has %d SMs", path, c.lineno, v[1],
                           r->nsms);
            break;
        }
        if (r->nepochs == cap) {
            cap = cap ? cap * 2 : 256;
            r->epochs = xrealloc(r->epochs, cap * sizeof *r->epochs);
        }
        plot_epoch *p = &r->epochs[r->nepochs++];
        p->t_ns = v[0];
        p->sm = (int)v[1];
        p->mhz = v[2];
        p->vdd_mv = v[3];
        p->power_w = v[4];
        p->temp_c = v[5];
        plot_sm *m = &r->sms[p->sm];
        if (!(m->temp_max_c >= p->temp_c))
            m->temp_max_c = p->temp_c;
        m->temp_last_c = p->temp_c;
    }
    csv_close(&c);
    return rc < 0 ? rc : 0;
}

int plot_run_load(plot_run *r, const char *dir, sk_error *e)
{
    memset(r, 0, sizeof *r);
    r->dir = xstrdup(dir);
    char *p = join(dir, "summary.json");
    int rc = load_summary(r, p, e);
    free(p);
    if (!rc) {
        p = join(dir, "ctas.csv");
        rc = load_ctas(r, p, e);
        free(p);
    }
    if (!rc) {
        p = join(dir, "epochs.csv");
        rc = load_epochs(r, p, e);
        free(p);
    }
    if (rc)
        plot_run_free(r);
    return rc;
}

void plot_run_free(plot_run *r)
{
    if (!r)
        return;
    free(r->dir);
    free(r->sms);
    free(r->kernels);
    free(r->ctas);
    free(r->epochs);
    memset(r, 0, sizeof *r);
}

/* ---- sweep.csv ------------------------------------------------------- */

int plot_sweep_load(plot_sweep *sw, const char *dir, sk_error *e)
{
    memset(sw, 0, sizeof *sw);
    char *path = join(dir, "sweep.csv");
    csv c;
    int rc = csv_open(&c, path, e);
    if (rc) {
        free(path);
        return rc;
    }
    int ci = csv_col(&c, "index", e), ct = csv_col(&c, "trace", e), cc = csv_col(&c, "case", e);
    int cs = csv_col(&c, "seed", e), cst = csv_col(&c, "status", e), ctime = csv_col(&c, "time_ns", e);
    int cm = csv_col(&c, "mean_mhz", e), cen = csv_col(&c, "energy_j", e);
    if (e->code) {
        csv_close(&c);
        free(path);
        return e->code;
    }
    /* The axis columns lie between case and seed. */
    int cap = 0;
    while ((rc = csv_next(&c, e)) > 0) {
        double idx, seed;
        if ((rc = csv_num(&c, ci, 0, &idx, e)) < 0 || (rc = csv_num(&c, cs, 0, &seed, e)) < 0)
            break;
        if (sw->npts == cap) {
            cap = cap ? cap * 2 : 64;
            sw->pts = xrealloc(sw->pts, (size_t)cap * sizeof *sw->pts);
        }
        plot_point *p = &sw->pts[sw->npts];
        memset(p, 0, sizeof *p);
        p->index = (int)idx;
        p->seed = (unsigned long long)seed;
        snprintf(p->trace, sizeof p->trace, "%s", c.field[ct]);
        snprintf(p->status, sizeof p->status, "%s", c.field[cst]);
        size_t gl = 0;
        for (int k = cc; k < cs; k++) {
            const char *f = c.field[k];
            if (!*f)
                continue;
            int n = snprintf(p->group + gl, sizeof p->group - gl, "%s%s", gl ? "/" : "", f);
            if (n > 0)
                gl = SK_MIN(gl + (size_t)n, sizeof p->group - 1);
        }
        int ok = !strcmp(p->status, "ok");
        if ((rc = csv_num(&c, ctime, !ok, &p->time_ns, e)) < 0 ||
            (rc = csv_num(&c, cm, !ok, &p->mean_mhz, e)) < 0 ||
            (rc = csv_num(&c, cen, !ok, &p->energy_j, e)) < 0)
            break;
        if (!ok)
            p->time_ns = p->mean_mhz = p->energy_j = NAN;
        sw->npts++;
    }
    csv_close(&c);
    free(path);
    if (rc < 0) {
        plot_sweep_free(sw);
        return rc;
    }
    sw->dir = xstrdup(dir);
    return 0;
}

void plot_sweep_free(plot_sweep *sw)
{
    if (!sw)
        return;
    free(sw->dir);
    free(sw->pts);
    memset(sw, 0, sizeof *sw);
}

/* ---- any CSV, as strings (the report's tables) ----------------------- */

int plot_table_load(plot_table *t, const char *path, sk_error *e)
{
    memset(t, 0, sizeof *t);
    csv c;
    int rc = csv_open(&c, path, e);
    if (rc)
        return rc;
    t->ncols = c.nh;
    t->header = xcalloc((size_t)c.nh, sizeof *t->header);
    for (int i = 0; i < c.nh; i++)
        t->header[i] = xstrdup(c.hdr[i]);
    int cap = 0;
    while ((rc = csv_next(&c, e)) > 0) {
        if (t->nrows == cap) {
            cap = cap ? cap * 2 : 64;
            t->cells = xrealloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof *t->cells);
        }
        for (int i = 0; i < t->ncols; i++)
            t->cells[(size_t)t->nrows * (size_t)t->ncols + (size_t)i] = xstrdup(c.field[i]);
        t->nrows++;
    }
    csv_close(&c);
    if (rc < 0) {
        plot_table_free(t);
        return rc;
    }
    return 0;
}

void plot_table_free(plot_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ncols; i++)
        free(t->header[i]);
    for (size_t i = 0; i < (size_t)t->nrows * (size_t)t->ncols; i++)
        free(t->cells[i]);
    free(t->header);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

/* ---- a sweep point's config ------------------------------------------ */

int plot_point_apply(const char *dir, cfg *c, sk_error *e)
{
    char *path = join(dir, "point.json");
    FILE *f = fopen(path, "r");
    if (!f) {
        free(path);
        return 0;
    }
    json_error_t je;
    json_t *root = json_loadf(f, 0, &je);
    fclose(f);
    int rc = 1;
    if (!root) {
        rc = sk_errorf(e, SK_ETRACE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
        goto out;
    }
    json_t *ov = json_object_get(root, "overrides");
    for (size_t i = 0; i < json_array_size(ov); i++) {
        json_t *kv = json_array_get(ov, i);
        const char *k = json_string_value(json_array_get(kv, 0)), *v = json_string_value(json_array_get(kv, 1));
        if (!k || !v) {
            rc = sk_errorf(e, SK_ETRACE, "%s: overrides[%zu]: expected [\"key\", \"value\"]", path, i);
            goto out;
        }
        int r = cfg_set_value(c, k, v, e);
        if (r < 0) {
            rc = r;
            goto out;
        }
    }
    json_t *seed = json_object_get(root, "seed");
    if (json_is_integer(seed))
        c->seed = (uint64_t)json_integer_value(seed);
    int r = cfg_validate(c, e);
    if (r < 0)
        rc = r;
out:
    json_decref(root);
    free(path);
    return rc;
}
