/* tidy.c -- `skewsim collect DIR`: a results directory as one tidy table
 * (include/skewsim/sweep_hpc.h, docs/hpc.md "Collect").
 *
 * sweep.csv has one row per point and one column per axis; an analysis
 * wants one row per point *and kernel*, with every parameter that differs
 * between points in a column of its own: each key a case sets, each set:
 * key, each axis, each option of a gen: line.  point.json already lists
 * every override in the order applied, so the columns come from the point
 * directories alone, and the table needs no spec: it is the directory's.
 * Columns: the gen options in the order first seen, then the overrides in
 * the order they are applied (set:, the case's, the axes'), a key first
 * seen at a later point placed after the key before it in that point's
 * list, so the axes stay last.  The value of a key a
 * point does not set is empty (in JSON: absent).
 *
 * Numbers are read with libjansson and printed back with %.15g, which
 * gives back the text summary.json wrote (at most 15 significant digits).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <jansson.h>
#include "skewsim/fileio.h"
#include "skewsim/sweep_hpc.h"

typedef struct tpoint {
    size_t index;
    char *dir;                    /* points/NAME */
    json_t *pj;                   /* point.json */
    json_t *sj;                   /* summary.json, NULL unless status ok */
    char **gk, **gv;              /* gen line: option names (gen.X) and values */
    size_t ngen;
} tpoint;

typedef struct cols {
    char **name;
    size_t n;
} cols;

static size_t col_find(const cols *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->name[i], name))
            return i;
    return SIZE_MAX;
}

/* Add a column unless there: right after `after` when that is one (so a
 * key a later case adds sits next to its neighbours in the point's own
 * order, and axes stay last), else at the end. */
static void col_add_after(cols *c, const char *name, const char *after)
{
    if (col_find(c, name) != SIZE_MAX)
        return;
    size_t at = after ? col_find(c, after) : SIZE_MAX;
    at = at == SIZE_MAX ? c->n : at + 1;
    c->name = xrealloc(c->name, (c->n + 1) * sizeof *c->name);
    memmove(c->name + at + 1, c->name + at, (c->n - at) * sizeof *c->name);
    c->name[at] = xstrdup(name);
    c->n++;
}

static void col_add(cols *c, const char *name)
{
    col_add_after(c, name, NULL);
}

static char *path2(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", a, b);
    return p;
}

/* "fma --iters 16 --grid 4" -> gen=fma, gen.iters=16, gen.grid=4 (a flag
 * without a value: 1). */
static void split_gen(tpoint *p, const char *line)
{
    char *s = xstrdup(line), *save = NULL;
    char *w = strtok_r(s, " \t", &save);
    char *pending = NULL;
    for (int first = 1; w; w = strtok_r(NULL, " \t", &save), first = 0) {
        const char *k = NULL, *v = NULL;
        char kb[96];
        if (first) {
            k = "gen";
            v = w;
        } else if (w[0] == '-' && w[1] == '-' && w[2]) {
            if (pending) {      /* the previous option was a flag */
                snprintf(kb, sizeof kb, "gen.%s", pending);
                p->gk = xrealloc(p->gk, (p->ngen + 1) * sizeof *p->gk);
                p->gv = xrealloc(p->gv, (p->ngen + 1) * sizeof *p->gv);
                p->gk[p->ngen] = xstrdup(kb);
                p->gv[p->ngen++] = xstrdup("1");
            }
            pending = w + 2;
            continue;
        } else if (pending) {
            snprintf(kb, sizeof kb, "gen.%s", pending);
            k = kb;
            v = w;
            pending = NULL;
        } else {
            continue;           /* a stray word: the gen command refused it already */
        }
        p->gk = xrealloc(p->gk, (p->ngen + 1) * sizeof *p->gk);
        p->gv = xrealloc(p->gv, (p->ngen + 1) * sizeof *p->gv);
        p->gk[p->ngen] = xstrdup(k);
        p->gv[p->ngen++] = xstrdup(v);
    }
    if (pending) {
        char kb[96];
        snprintf(kb, sizeof kb, "gen.%s", pending);
        p->gk = xrealloc(p->gk, (p->ngen + 1) * sizeof *p->gk);
        p->gv = xrealloc(p->gv, (p->ngen + 1) * sizeof *p->gv);
        p->gk[p->ngen] = xstrdup(kb);
        p->gv[p->ngen++] = xstrdup("1");
    }
    free(s);
}

static int by_index(const void *a, const void *b)
{
    const tpoint *x = a, *y = b;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* A JSON value as CSV text: strings as they are, numbers with %.15g. */
static char *val_text(const json_t *v)
{
    char b[64];
    if (!v || json_is_null(v))
        return xstrdup("");
    if (json_is_string(v))
        return xstrdup(json_string_value(v));
    if (json_is_integer(v)) {
        snprintf(b, sizeof b, "%lld", (long long)json_integer_value(v));
        return xstrdup(b);
    }
    if (json_is_real(v)) {
        snprintf(b, sizeof b, "%.15g", json_real_value(v));
        return xstrdup(b);
    }
    if (json_is_true(v))
        return xstrdup("true");
    if (json_is_false(v))
        return xstrdup("false");
    return xstrdup("");
}

/* A text value as JSON: a number when the whole text is one, else a string. */
static json_t *text_json(const char *s)
{
    if (!*s)
        return json_null();
    char *end;
    errno = 0;
    long long i = strtoll(s, &end, 10);
    if (!*end && !errno && s[0] != '+' && !(s[0] == '0' && s[1]) && !(s[0] == '-' && s[1] == '0'))
        return json_integer(i);
    if (!*end && errno == ERANGE)
        return json_string(s);    /* a uint64 seed jansson cannot hold: exact, as text */
    double d = strtod(s, &end);
    if (!*end && end != s && strspn(s, "0123456789.-+eE") == strlen(s))
        return json_real(d);
    return json_string(s);
}

/* The point fields before the parameters, and the kernel and chip fields
 * after them: (column, where it is read). */
static const char *const lead[] = {"index", "dir", "status", "trace", "trace_file", "case"};
static const char *const kern[] = {"kernel", "kernel_name", "ctas", "launch_ns", "span_ns", "time_ns",
                                   "warp_instructions"};
static const char *const kern_src[] = {"index", "name", "ctas", "launch_ns", "span_ns", "time_ns",
                                       "warp_instructions"};
static const char *const chip[] = {"total_ns", "mean_power_w", "energy_j"};
static const char *const tail[] = {"skewsim_version", "skewsim_commit", "key", "message"};

int sweep_tidy_write(const char *dir, size_t *npoints, size_t *nrows, sk_error *e)
{
    *npoints = *nrows = 0;
    char *pdir = path2(dir, "points");
    DIR *d = opendir(pdir);
    if (!d) {
        int rc = sk_errorf(e, SK_EIO, "collect: %s: cannot open: %s (not a sweep's results directory?)", pdir,
                           strerror(errno));
        free(pdir);
        return rc;
    }
    tpoint *pts = NULL;
    size_t np = 0;
    int rc = 0;
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        char *pd = path2(pdir, de->d_name), *pjp = path2(pd, "point.json");
        json_error_t je;
        json_t *pj = access(pjp, F_OK) == 0 ? json_load_file(pjp, 0, &je) : NULL;
        /* a seed above INT64_MAX is more than jansson's integers hold: read
         * numbers as reals then (the seed column comes from the command) */
        if (!pj && access(pjp, F_OK) == 0)
            pj = json_load_file(pjp, JSON_DECODE_INT_AS_REAL, &je);
        if (access(pjp, F_OK) == 0 && !pj)
            rc = sk_errorf(e, SK_EIO, "%s:%d:%d: %s", pjp, je.line, je.column, je.text);
        free(pjp);
        if (!pj) {              /* a point that never finished: nothing to collect */
            free(pd);
            if (rc)
                break;
            continue;
        }
        tpoint p;
        memset(&p, 0, sizeof p);
        p.pj = pj;
        p.index = (size_t)json_integer_value(json_object_get(pj, "index"));
        p.dir = path2("points", de->d_name);
        const char *st = json_string_value(json_object_get(pj, "status"));
        if (st && !strcmp(st, "ok")) {
            char *sp = path2(pd, "summary.json");
            p.sj = json_load_file(sp, 0, &je);
            if (!p.sj)         /* a seed above INT64_MAX (see point.json above) */
                p.sj = json_load_file(sp, JSON_DECODE_INT_AS_REAL, &je);
            if (!p.sj)
                rc = sk_errorf(e, SK_EIO, "%s:%d:%d: %s", sp, je.line, je.column, je.text);
            free(sp);
        }
        const char *gen = json_string_value(json_object_get(pj, "trace_gen"));
        if (gen)
            split_gen(&p, gen);
        free(pd);
        pts = xrealloc(pts, (np + 1) * sizeof *pts);
        pts[np++] = p;
        if (rc)
            break;
    }
    closedir(d);
    free(pdir);
    if (rc == 0 && np)
        qsort(pts, np, sizeof *pts, by_index);

    /* the parameter columns: gen options, then overrides, each in order of
     * first appearance; then the seed */
    cols pc = {0};
    for (size_t i = 0; i < np && rc == 0; i++)
        for (size_t g = 0; g < pts[i].ngen; g++)
            col_add(&pc, pts[i].gk[g]);     /* workloads differ: first seen, first */
    for (size_t i = 0; i < np && rc == 0; i++) {
        json_t *ov = json_object_get(pts[i].pj, "overrides");
        const char *prev = NULL;
        for (size_t k = 0; k < json_array_size(ov); k++) {
            const char *key = json_string_value(json_array_get(json_array_get(ov, k), 0));
            if (key)
                col_add_after(&pc, key, prev);
            prev = key;
        }
    }
    col_add(&pc, "seed");

    char *csv = NULL;
    size_t csvlen = 0;
    FILE *f = open_memstream(&csv, &csvlen);
    json_t *rows = json_array();
    for (size_t c = 0; c < SK_ARRAY_LEN(lead); c++)
        sk_csv_field(f, lead[c], 0);
    for (size_t c = 0; c < pc.n; c++)
        sk_csv_field(f, pc.name[c], 0);
    for (size_t c = 0; c < SK_ARRAY_LEN(kern); c++)
        sk_csv_field(f, kern[c], 0);
    for (size_t c = 0; c < SK_ARRAY_LEN(chip); c++)
        sk_csv_field(f, chip[c], 0);
    for (size_t c = 0; c < SK_ARRAY_LEN(tail); c++)
        sk_csv_field(f, tail[c], c + 1 == SK_ARRAY_LEN(tail));

    for (size_t i = 0; i < np && rc == 0; i++) {
        tpoint *p = &pts[i];
        /* the point's parameter values: later overrides win, as applied */
        char **pv = xcalloc(pc.n, sizeof *pv);
        for (size_t g = 0; g < p->ngen; g++)
            for (size_t c = 0; c < pc.n; c++)
                if (!strcmp(pc.name[c], p->gk[g])) {
                    free(pv[c]);
                    pv[c] = xstrdup(p->gv[g]);
                }
        json_t *ov = json_object_get(p->pj, "overrides");
        for (size_t k = 0; k < json_array_size(ov); k++) {
            json_t *kv = json_array_get(ov, k);
            const char *key = json_string_value(json_array_get(kv, 0));
            for (size_t c = 0; key && c < pc.n; c++)
                if (!strcmp(pc.name[c], key)) {
                    free(pv[c]);
                    pv[c] = val_text(json_array_get(kv, 1));
                }
        }
        free(pv[pc.n - 1]);
        pv[pc.n - 1] = NULL;
        /* the seed exactly as the point's command sets it (a uint64 that a
         * JSON real would round), else as point.json has it */
        json_t *cmd = json_object_get(p->pj, "command");
        for (size_t k = 0; k < json_array_size(cmd); k++) {
            const char *w = json_string_value(json_array_get(cmd, k));
            if (w && !strncmp(w, "sim.seed=", 9)) {
                free(pv[pc.n - 1]);
                pv[pc.n - 1] = xstrdup(w + 9);
            }
        }
        if (!pv[pc.n - 1])
            pv[pc.n - 1] = val_text(json_object_get(p->pj, "seed"));
        json_t *kernels = p->sj ? json_object_get(p->sj, "kernels") : NULL;
        size_t nk = json_array_size(kernels);
        for (size_t r = 0; r < (nk ? nk : 1); r++) {
            json_t *kj = nk ? json_array_get(kernels, r) : NULL;
            json_t *row = json_object();
            char idx[32];
            snprintf(idx, sizeof idx, "%zu", p->index);
            const char *leadv[SK_ARRAY_LEN(lead)];
            char *lt[SK_ARRAY_LEN(lead)];
            lt[0] = xstrdup(idx);
            lt[1] = xstrdup(p->dir);
            lt[2] = val_text(json_object_get(p->pj, "status"));
            lt[3] = val_text(json_object_get(p->pj, "trace"));
            lt[4] = val_text(json_object_get(p->pj, "trace_file"));
            lt[5] = val_text(json_object_get(p->pj, "case"));
            for (size_t c = 0; c < SK_ARRAY_LEN(lead); c++) {
                leadv[c] = lt[c];
                sk_csv_field(f, leadv[c], 0);
                json_object_set_new(row, lead[c], c == 0 ? json_integer((json_int_t)p->index)
                                                         : json_string(leadv[c]));
                free(lt[c]);
            }
            for (size_t c = 0; c < pc.n; c++) {
                sk_csv_field(f, pv[c] ? pv[c] : "", 0);
                if (pv[c])
                    json_object_set_new(row, pc.name[c], text_json(pv[c]));
            }
            for (size_t c = 0; c < SK_ARRAY_LEN(kern); c++) {
                json_t *v = kj ? json_object_get(kj, kern_src[c]) : NULL;
                char *t = val_text(v);
                sk_csv_field(f, t, 0);
                free(t);
                if (v)
                    json_object_set(row, kern[c], v);
            }
            for (size_t c = 0; c < SK_ARRAY_LEN(chip); c++) {
                json_t *v = NULL;
                if (p->sj)
                    v = c == 0 ? json_object_get(p->sj, chip[c])
                               : json_object_get(json_object_get(p->sj, "chip"), chip[c]);
                char *t = val_text(v);
                sk_csv_field(f, t, 0);
                free(t);
                if (v)
                    json_object_set(row, chip[c], v);
            }
            for (size_t c = 0; c < SK_ARRAY_LEN(tail); c++) {
                json_t *v = json_object_get(p->pj, tail[c]);
                char *t = val_text(v);
                sk_csv_field(f, t, c + 1 == SK_ARRAY_LEN(tail));
                if (v && *t)
                    json_object_set(row, tail[c], v);
                free(t);
            }
            json_array_append_new(rows, row);
            ++*nrows;
        }
        for (size_t c = 0; c < pc.n; c++)
            free(pv[c]);
        free(pv);
    }
    fclose(f);
    *npoints = np;
    if (rc == 0) {
        char *cp = path2(dir, "results.csv");
        rc = sk_write_atomic(cp, csv, csvlen, -1, e);
        free(cp);
    }
    if (rc == 0) {
        char *js = json_dumps(rows, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
        size_t jl = strlen(js);
        js = xrealloc(js, jl + 2);
        js[jl++] = '\n';
        js[jl] = '\0';
        char *jp = path2(dir, "results.json");
        rc = sk_write_atomic(jp, js, jl, -1, e);
        free(jp);
        free(js);
    }
    json_decref(rows);
    free(csv);
    for (size_t c = 0; c < pc.n; c++)
        free(pc.name[c]);
    free(pc.name);
    for (size_t i = 0; i < np; i++) {
        json_decref(pts[i].pj);
        json_decref(pts[i].sj);
        free(pts[i].dir);
        for (size_t g = 0; g < pts[i].ngen; g++) {
            free(pts[i].gk[g]);
            free(pts[i].gv[g]);
        }
        free(pts[i].gk);
        free(pts[i].gv);
    }
    free(pts);
    return rc;
}
