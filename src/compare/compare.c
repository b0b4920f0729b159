/* compare.c -- `skewsim compare` as a library call (compare.h).
 *
 * The matrix is a sweep: this file only writes the spec, hands it to
 * sweep_run() and reads back what the points wrote.  So a comparison
 * resumes (done points are skipped), runs on -j local cores in forked
 * children, and gives the same bytes whatever -j, as a sweep does
 * (docs/sweeps.md).  Every figure comes from the points' summary.json
 * (kernels[].time_ns, imbalance, tail_ns, barrier_wait_ns): nothing is
 * recomputed from ctas.csv.  Statistics across seeds are stats.h's: mean,
 * type-7 median and p99, sample sd, and the speedup against the baseline
 * paired by seed with its Student-t 95 % interval.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "skewsim/compare.h"
#include "skewsim/config.h"
#include "skewsim/json.h"
#include "skewsim/stats.h"
#include "skewsim/sweep.h"

/* ---- names ------------------------------------------------------------ */

/* A name for the sweep spec: [A-Za-z0-9._-], every other byte '_'. */
static void sanitize(char *dst, size_t cap, const char *src, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < cap; i++) {
        unsigned char ch = (unsigned char)src[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' ||
                 ch == '_' || ch == '-';
        dst[k++] = ok ? (char)ch : '_';
    }
    dst[k] = 0;
    if (k == 0)
        snprintf(dst, cap, "x");
}

/* The base name of a path without a trailing '/', .gz and .trace/.traceg. */
static void base_name(char *dst, size_t cap, const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *b = path;
    for (size_t i = 0; i < n; i++)
        if (path[i] == '/' && i + 1 < n)
            b = path + i + 1;
    size_t len = (size_t)(path + n - b);
    static const char *const suffixes[] = {".gz", ".trace", ".traceg", ".csv", ".g"};
    for (size_t k = 0; k < SK_ARRAY_LEN(suffixes); k++) {
        size_t sl = strlen(suffixes[k]);
        if (len > sl && !memcmp(b + len - sl, suffixes[k], sl))
            len -= sl;
    }
    sanitize(dst, cap, b, SK_MIN(len, (size_t)(SWEEP_NAME_MAX - 8)));
}

/* The silicon variant's name in a combination: uniform, skewed, or the map
 * file's base name after "file-". */
static void silicon_name(char *dst, size_t cap, const char *v)
{
    if (!strncmp(v, "file:", 5)) {
        char b[SWEEP_NAME_MAX];
        base_name(b, sizeof b, v + 5);
        snprintf(dst, cap, "file-%s", b);
    } else {
        snprintf(dst, cap, "%s", v);
    }
}

typedef struct combo {
    char name[3 * SWEEP_NAME_MAX];
    const char *cta, *warp, *sil;
} combo;

static size_t ncombos(const compare_opts *o)
{
    return o->ncta * o->nwarp * o->nsilicon;
}

/* Combination i: the CTA policy varies slowest, the silicon fastest. */
static combo combo_at(const compare_opts *o, size_t i)
{
    combo c;
    c.sil = o->silicon[i % o->nsilicon];
    c.warp = o->warp[(i / o->nsilicon) % o->nwarp];
    c.cta = o->cta[i / (o->nsilicon * o->nwarp)];
    char s[SWEEP_NAME_MAX + 8];
    silicon_name(s, sizeof s, c.sil);
    snprintf(c.name, sizeof c.name, "%s/%s/%s", c.cta, c.warp, s);
    return c;
}

static size_t baseline_index(const compare_opts *o)
{
    if (!o->baseline)
        return 0;
    for (size_t i = 0; i < ncombos(o); i++)
        if (!strcmp(combo_at(o, i).name, o->baseline))
            return i;
    return SIZE_MAX;
}

/* ---- checks ----------------------------------------------------------- */

static int dup_in(const char *const *v, size_t n, size_t *at)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < i; j++)
            if (!strcmp(v[i], v[j])) {
                *at = i;
                return 1;
            }
    return 0;
}

static int check_list(const char *opt, const char *key, const char *const *v, size_t n, sk_error *e)
{
    if (n == 0)
        return sk_errorf(e, SK_EUSAGE, "compare: %s: expected at least one value", opt);
    if (n > COMPARE_MAX_ITEMS)
        return sk_errorf(e, SK_EUSAGE, "compare: %s: %zu values: expected at most %d", opt, n, COMPARE_MAX_ITEMS);
    size_t at;
    if (dup_in(v, n, &at))
        return sk_errorf(e, SK_EUSAGE, "compare: %s: %s: listed twice", opt, v[at]);
    for (size_t i = 0; key && i < n; i++) {
        cfg c;
        cfg_defaults(&c);
        sk_error ce = {0};
        if (cfg_set_value(&c, key, v[i], &ce) < 0)
            return sk_errorf(e, SK_EUSAGE, "compare: %s: %s", opt, ce.msg);
    }
    return 0;
}

int compare_check(const compare_opts *o, sk_error *e)
{
    if (!o->config)
        return sk_errorf(e, SK_EUSAGE, "compare: missing -c CONFIG");
    if (o->ntraces == 0)
        return sk_errorf(e, SK_EUSAGE, "compare: missing -t TRACE");
    if (o->ntraces > COMPARE_MAX_ITEMS)
        return sk_errorf(e, SK_EUSAGE, "compare: -t: %zu traces: expected at most %d", o->ntraces,
                         COMPARE_MAX_ITEMS);
    if (!o->dir)
        return sk_errorf(e, SK_EUSAGE, "compare: missing -o DIR");
    if (o->seeds < 1 || o->seeds > COMPARE_MAX_SEEDS)
        return sk_errorf(e, SK_EUSAGE, "compare: --seeds %d: expected an integer in 1..%d", o->seeds,
                         COMPARE_MAX_SEEDS);
    int r;
    if ((r = check_list("--cta-policies", "dispatch.policy", o->cta, o->ncta, e)) < 0 ||
        (r = check_list("--warp-policies", "sm.warp_policy", o->warp, o->nwarp, e)) < 0 ||
        (r = check_list("--silicon", NULL, o->silicon, o->nsilicon, e)) < 0)
        return r;
    for (size_t i = 0; i < o->nsilicon; i++) {
        const char *v = o->silicon[i];
        if (strcmp(v, "uniform") && strcmp(v, "skewed") && (strncmp(v, "file:", 5) || !v[5]))
            return sk_errorf(e, SK_EUSAGE, "compare: --silicon: %s: expected uniform, skewed or file:PATH", v);
    }
    for (size_t i = 0; i < o->nsilicon; i++)
        for (size_t j = 0; j < i; j++) {
            char a[SWEEP_NAME_MAX + 8], b[SWEEP_NAME_MAX + 8];
            silicon_name(a, sizeof a, o->silicon[i]);
            silicon_name(b, sizeof b, o->silicon[j]);
            if (!strcmp(a, b))
                return sk_errorf(e, SK_EUSAGE, "compare: --silicon: %s and %s: both named %s: expected map files "
                                 "with different base names", o->silicon[j], o->silicon[i], a);
        }
    if (baseline_index(o) == SIZE_MAX) {
        combo f = combo_at(o, 0);
        return sk_errorf(e, SK_EUSAGE, "compare: --baseline %s: not a combination of the matrix: expected "
                         "CTA/WARP/SILICON, e.g. %s", o->baseline, f.name);
    }
    return 0;
}

/* ---- the spec ---------------------------------------------------------- */

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void bput(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = SK_MAX(2 * b->cap, b->n + n + 256);
        b->p = xrealloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void bstr(buf *b, const char *s)
{
    bput(b, s, strlen(s));
}

/* A YAML double-quoted scalar. */
static void bquote(buf *b, const char *s)
{
    bstr(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            bput(b, "\\", 1);
        bput(b, s, 1);
    }
    bstr(b, "\"");
}

static char *abs_path(const char *p, const char *what, sk_error *e)
{
    char *r = realpath(p, NULL);
    if (!r)
        sk_errorf(e, SK_EIO, "%s: cannot open %s: %s", p, what, strerror(errno));
    return r;
}

/* Write `len` bytes to path through a temporary in the same directory. */
static int write_atomic(const char *path, const char *text, size_t len, sk_error *e)
{
    size_t n = strlen(path) + 8;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        sk_errorf(e, SK_EIO, "%s: cannot write: %s", tmp, strerror(errno));
        free(tmp);
        return e->code;
    }
    int bad = fwrite(text, 1, len, f) != len;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        sk_errorf(e, SK_EIO, "%s: write failed", path);
        remove(tmp);
        free(tmp);
        return e->code;
    }
    free(tmp);
    return 0;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

/* The text of DIR/compare.yaml: the matrix as a sweep spec, every path
 * absolute (so it reads the same from DIR).  Every input must exist. */
static int build_spec(const compare_opts *o, buf *out, sk_error *e)
{
    buf b = {0};
    char *cp = abs_path(o->config, "the config", e);
    if (!cp)
        return e->code;
    bstr(&b, "# written by skewsim compare: the matrix as a sweep (docs/sweeps.md)\nconfig: ");
    bquote(&b, cp);
    free(cp);
    bstr(&b, "\ntraces:\n");
    char names[COMPARE_MAX_ITEMS][SWEEP_NAME_MAX];
    for (size_t i = 0; i < o->ntraces; i++) {
        base_name(names[i], sizeof names[i], o->traces[i]);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(names[i], names[j])) {
                char t[SWEEP_NAME_MAX + 32];
                snprintf(t, sizeof t, "%.40s-%zu", names[i], i + 1);
                snprintf(names[i], sizeof names[i], "%.63s", t);
                break;
            }
        char *tp = abs_path(o->traces[i], "the trace", e);
        if (!tp) {
            free(b.p);
            return e->code;
        }
        bstr(&b, "  ");
        bstr(&b, names[i]);
        bstr(&b, ": {path: ");
        bquote(&b, tp);
        bstr(&b, "}\n");
        free(tp);
    }
    bstr(&b, "cases:\n");
    for (size_t i = 0; i < ncombos(o); i++) {
        combo c = combo_at(o, i);
        bstr(&b, "  ");
        bquote(&b, c.name);
        bstr(&b, ": {dispatch.policy: ");
        bquote(&b, c.cta);
        bstr(&b, ", sm.warp_policy: ");
        bquote(&b, c.warp);
        bstr(&b, ", silicon.preset: ");
        if (!strncmp(c.sil, "file:", 5)) {
            char *mp = abs_path(c.sil + 5, "the silicon map", e);
            if (!mp) {
                free(b.p);
                return e->code;
            }
            bstr(&b, "file, silicon.map_file: ");
            bquote(&b, mp);
            free(mp);
        } else {
            bstr(&b, c.sil);
        }
        bstr(&b, "}\n");
    }
    bstr(&b, "seeds: [");
    for (int s = 1; s <= o->seeds; s++) {
        char t[16];
        snprintf(t, sizeof t, "%s%d", s > 1 ? ", " : "", s);
        bstr(&b, t);
    }
    bstr(&b, "]\n");
    *out = b;
    return 0;
}

/* ---- reading the points ------------------------------------------------ */

/* What one point says about one kernel. */
typedef struct kfig {
    double time_ns, imbalance, tail_ns, barrier_ns;
} kfig;

typedef struct point_res {
    int ok;
    size_t nk;
    kfig *k;
    char **kname;
} point_res;

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void read_point(const char *pdir, point_res *p)
{
    memset(p, 0, sizeof *p);
    char *pj = join(pdir, "point.json"), *sj = join(pdir, "summary.json");
    json_t *pt = json_load_file(pj, 0, NULL);
    const json_t *st = pt ? json_object_get(pt, "status") : NULL;
    json_t *sum = st && json_is_string(st) && !strcmp(json_string_value(st), "ok") ? json_load_file(sj, 0, NULL)
                                                                                   : NULL;
    const json_t *ks = sum ? json_object_get(sum, "kernels") : NULL;
    if (ks && json_is_array(ks)) {
        p->ok = 1;
        p->nk = json_array_size(ks);
        p->k = xcalloc(p->nk ? p->nk : 1, sizeof *p->k);
        p->kname = xcalloc(p->nk ? p->nk : 1, sizeof *p->kname);
        for (size_t i = 0; i < p->nk; i++) {
            const json_t *k = json_array_get(ks, i);
            const json_t *nm = json_object_get(k, "name");
            p->kname[i] = xstrdup(json_is_string(nm) ? json_string_value(nm) : "");
            p->k[i].time_ns = num(k, "time_ns");
            p->k[i].imbalance = num(k, "imbalance");
            p->k[i].tail_ns = num(k, "tail_ns");
            p->k[i].barrier_ns = num(k, "barrier_wait_ns");
        }
    }
    json_decref(sum);
    json_decref(pt);
    free(pj);
    free(sj);
}

static void point_free(point_res *p)
{
    for (size_t i = 0; i < p->nk; i++)
        free(p->kname[i]);
    free(p->kname);
    free(p->k);
}

/* ---- the report --------------------------------------------------------- */

static double mean_of(const double *x, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return n ? s / (double)n : NAN;
}

/* A fixed-point number for the CSV ("" when not finite). */
static void csv_num(buf *b, double v, int dec)
{
    char t[64];
    if (isfinite(v))
        snprintf(t, sizeof t, ",%.*f", dec, v);
    else
        snprintf(t, sizeof t, ",");
    bstr(b, t);
}

/* The CSV quoting of a free-text field (kernel names). */
static void csv_text(buf *b, const char *s)
{
    bstr(b, ",\"");
    for (; *s; s++) {
        if (*s == '"')
            bput(b, "\"", 1);
        bput(b, s, 1);
    }
    bstr(b, "\"");
}

#define CSV_HEADER                                                                                    \
    "trace,kernel,name,combination,cta_policy,warp_policy,silicon,seeds,time_mean_ns,time_median_ns," \
    "time_p99_ns,time_sd_ns,time_min_ns,time_max_ns,speedup,speedup_lo,speedup_hi,imbalance,tail_ns,"  \
    "barrier_wait_ns\n"

int compare_run(const compare_opts *o, compare_outcome *out, sk_error *e)
{
    memset(out, 0, sizeof *out);
    int r = compare_check(o, e);
    if (r < 0)
        return r;
    FILE *tab = o->out ? o->out : stdout;
    buf spec_text = {0};
    if ((r = build_spec(o, &spec_text, e)) < 0)
        return r;
    if (mkdir(o->dir, 0777) != 0 && errno != EEXIST) {
        free(spec_text.p);
        return sk_errorf(e, SK_EIO, "%s: cannot create output directory: %s", o->dir, strerror(errno));
    }
    char *spec = join(o->dir, "compare.yaml"), *runs = join(o->dir, "runs");
    char *csvp = join(o->dir, "compare.csv"), *jsonp = join(o->dir, "compare.json");
    sweep_spec sp;
    memset(&sp, 0, sizeof sp);
    FILE *quiet = NULL;
    point_res *pts = NULL;
    r = write_atomic(spec, spec_text.p, spec_text.n, e);
    free(spec_text.p);
    if (r < 0)
        goto done;
    quiet = fopen("/dev/null", "w");
    sweep_opts so = {.spec = spec, .dir = runs, .jobs = o->jobs, .shard_k = 0, .shard_n = 1, .stop = o->stop,
                     .timeline = o->timeline, .timeline_max_events = o->timeline_max_events,
                     .out = quiet ? quiet : tab};
    sweep_outcome sr;
    if ((r = sweep_run(&so, &sr, e)) < 0)
        goto done;
    out->npoints = sr.npoints;
    out->failed = sr.not_ok;          /* from sweep.csv: this run's and earlier ones' */
    out->signal = sr.signal;
    if (sr.signal)
        goto done;
    if ((r = sweep_spec_load(&sp, spec, e)) < 0)
        goto done;

    size_t nc = ncombos(o), ns = (size_t)o->seeds, base = baseline_index(o);
    pts = xcalloc(sp.npoints, sizeof *pts);
    char *pdir = join(runs, "points");
    for (size_t i = 0; i < sp.npoints; i++) {
        sweep_point p;
        char slug[512];
        sweep_point_at(&sp, i, &p);
        sweep_point_slug(&sp, &p, slug, sizeof slug);
        char *d = join(pdir, slug);
        read_point(d, &pts[i]);
        free(d);
    }
    free(pdir);

    buf csv = {0};
    bstr(&csv, CSV_HEADER);
    json_t *root = json_object();
    skjson_set(root, "config", skjson_str(o->config));
    skjson_set(root, "seeds", json_integer(o->seeds));
    skjson_set(root, "baseline", skjson_str(combo_at(o, base).name));
    json_t *rows = json_array();
    double *tx = xcalloc(ns, sizeof *tx), *tb = xcalloc(ns, sizeof *tb), *aux = xcalloc(ns, sizeof *aux);
    for (size_t t = 0; t < o->ntraces; t++) {
        const char *tname = sp.traces[t].name;
        size_t first = t * nc * ns, nk = 0;
        int all_ok = 1;
        for (size_t i = 0; i < nc * ns; i++) {
            const point_res *p = &pts[first + i];
            if (!p->ok || (i > 0 && p->nk != pts[first].nk))
                all_ok = 0;
        }
        if (!all_ok) {
            fprintf(tab, "%s: some points failed or differ in kernels: no table (see %s/sweep.csv)\n", tname, runs);
            continue;
        }
        nk = pts[first].nk;
        for (size_t k = 0; k < nk; k++) {
            fprintf(tab, "\n%s kernel %zu (%s), %zu seeds, baseline %s\n", tname, k, pts[first].kname[k], ns,
                    combo_at(o, base).name);
            fprintf(tab, "%-36s %12s %12s %12s %10s %8s %18s %9s %11s %12s\n", "combination", "mean us", "median us",
                    "p99 us", "sd us", "speedup", "95% CI", "imbalance", "tail us", "barrier us");
            for (size_t s = 0; s < ns; s++)
                tb[s] = pts[first + base * ns + s].k[k].time_ns;
            for (size_t c = 0; c < nc; c++) {
                combo cb = combo_at(o, c);
                const point_res *pc = &pts[first + c * ns];
                for (size_t s = 0; s < ns; s++)
                    tx[s] = pc[s].k[k].time_ns;
                stats_summary sm;
                stats_summarize(tx, ns, &sm);
                stats_speedup su;
                int can = 1;
                for (size_t s = 0; s < ns; s++)
                    can &= tx[s] > 0 && tb[s] > 0;
                if (can)
                    stats_speedup_paired(tb, tx, ns, &su);
                else
                    su = (stats_speedup){.n = ns, .mean = NAN, .lo = NAN, .hi = NAN, .has_ci = 0};
                double fig[3];
                for (int f = 0; f < 3; f++) {
                    for (size_t s = 0; s < ns; s++)
                        aux[s] = f == 0 ? pc[s].k[k].imbalance : f == 1 ? pc[s].k[k].tail_ns : pc[s].k[k].barrier_ns;
                    fig[f] = mean_of(aux, ns);
                }
                char sil[SWEEP_NAME_MAX + 8], ci[64];
                silicon_name(sil, sizeof sil, cb.sil);
                if (su.has_ci)
                    snprintf(ci, sizeof ci, "[%.4f, %.4f]", su.lo, su.hi);
                else
                    snprintf(ci, sizeof ci, "-");
                fprintf(tab, "%-36s %12.3f %12.3f %12.3f %10.3f %8.4f %18s %9.4f %11.3f %12.3f\n", cb.name,
                        sm.mean / 1e3, sm.median / 1e3, sm.p99 / 1e3, sm.stddev / 1e3, su.mean, ci, fig[0],
                        fig[1] / 1e3, fig[2] / 1e3);
                char head[512];
                snprintf(head, sizeof head, "%s,%zu", tname, k);
                bstr(&csv, head);
                csv_text(&csv, pts[first].kname[k]);
                snprintf(head, sizeof head, ",%s,%s,%s,%s,%zu", cb.name, cb.cta, cb.warp, sil, ns);
                bstr(&csv, head);
                csv_num(&csv, sm.mean, 3);
                csv_num(&csv, sm.median, 3);
                csv_num(&csv, sm.p99, 3);
                csv_num(&csv, sm.stddev, 3);
                csv_num(&csv, sm.min, 3);
                csv_num(&csv, sm.max, 3);
                csv_num(&csv, su.mean, 6);
                csv_num(&csv, su.has_ci ? su.lo : NAN, 6);
                csv_num(&csv, su.has_ci ? su.hi : NAN, 6);
                csv_num(&csv, fig[0], 6);
                csv_num(&csv, fig[1], 3);
                csv_num(&csv, fig[2], 3);
                bstr(&csv, "\n");
                json_t *jr = json_object();
                skjson_set(jr, "trace", skjson_str(tname));
                skjson_set(jr, "kernel", json_integer((json_int_t)k));
                skjson_set(jr, "name", skjson_str(pts[first].kname[k]));
                skjson_set(jr, "combination", skjson_str(cb.name));
                skjson_set(jr, "cta_policy", skjson_str(cb.cta));
                skjson_set(jr, "warp_policy", skjson_str(cb.warp));
                skjson_set(jr, "silicon", skjson_str(sil));
                skjson_set(jr, "seeds", json_integer((json_int_t)ns));
                skjson_set(jr, "time_mean_ns", skjson_fixed(sm.mean, 3));
                skjson_set(jr, "time_median_ns", skjson_fixed(sm.median, 3));
                skjson_set(jr, "time_p99_ns", skjson_fixed(sm.p99, 3));
                skjson_set(jr, "time_sd_ns", skjson_fixed(sm.stddev, 3));
                skjson_set(jr, "time_min_ns", skjson_fixed(sm.min, 3));
                skjson_set(jr, "time_max_ns", skjson_fixed(sm.max, 3));
                skjson_set(jr, "speedup", skjson_fixed(su.mean, 6));
                skjson_set(jr, "speedup_lo", skjson_fixed(su.has_ci ? su.lo : NAN, 6));
                skjson_set(jr, "speedup_hi", skjson_fixed(su.has_ci ? su.hi : NAN, 6));
                skjson_set(jr, "imbalance", skjson_fixed(fig[0], 6));
                skjson_set(jr, "tail_ns", skjson_fixed(fig[1], 3));
                skjson_set(jr, "barrier_wait_ns", skjson_fixed(fig[2], 3));
                skjson_append(rows, jr);
            }
        }
    }
    free(tx);
    free(tb);
    free(aux);
    skjson_set(root, "rows", rows);
    size_t jlen;
    char *jtext = skjson_dumps(root, &jlen);
    json_decref(root);
    if ((r = write_atomic(csvp, csv.p, csv.n, e)) == 0)
        r = write_atomic(jsonp, jtext, jlen, e);
    free(jtext);
    free(csv.p);
    if (r == 0)
        fprintf(tab, "\ncompare: %zu points (%zu failed): %s, %s\n", out->npoints, out->failed, csvp, jsonp);

done:
    if (pts)
        for (size_t i = 0; i < sp.npoints; i++)
            point_free(&pts[i]);
    free(pts);
    sweep_spec_free(&sp);
    if (quiet)
        fclose(quiet);
    free(spec);
    free(runs);
    free(csvp);
    free(jsonp);
    return r;
}
