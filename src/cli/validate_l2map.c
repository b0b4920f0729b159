/* validate_l2map.c -- E11's l2map against the model's L2 routes
 * (validation/h200 README "E11", tools/capture/cap_mem.cu `l2map`): every SM
 * s read line s mod 32 of each of 384 pages twice with ld.global.cg, the
 * second read an L2 hit in the SM's half (a far line's replica).  Those
 * hits differ line by line and repeat, and what they follow is what
 * memory.l2.route_spread_ps models (src/mem/hier.c route_spread): each row
 * here is computed from the capture and from the same reads on the model's
 * hierarchy, alike on both sides.
 *
 * Per SM and page, the hit less the SM's mean and the page's mean (a
 * two-way decomposition over the hits kept: within 0.5-1.35 times the
 * median, which drops the few slow outliers) leaves each line's route; its
 * s.d. set the width (fitted).  The SMs' means spread too (predicted: the
 * model's come from the floorplan alone).  Then the correlation of two
 * SMs' routes over their common pages: SMs of one GPC reading the same
 * 256 B chunk (lines 2k and 2k + 1, or the same line), SMs of one GPC
 * reading other chunks of the page, and SMs of different GPCs with one home
 * reading the same chunk, split by the rows of GPC blocks the model's
 * floorplan puts them in (mem_hier_row): on E11's chip and two H100s two
 * GPCs of one row agree and two of different rows oppose, the share the
 * model draws as memory.l2.route_row_pct (hier.c route_spread).  Measured numbers
 * come from the capture files, never from here. */
#include <math.h>
#include <gsl/gsl_multifit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <fnmatch.h>
#include <unistd.h>
#include "cli.h"
#include "skewsim/memsys.h"
#include "skewsim/topo.h"

#define LM_PAGES 384
#define LM_KEEP_LO 0.5
#define LM_KEEP_HI 1.35
#define LM_MEAN_TOL 0.25        /* the SMs' means' s.d., relative */
#define LM_MEAN_R_MIN 0.80      /* the SMs' means, the model's against the chip's: least r */

typedef struct lm_map {
    int nsm;
    double *x;                  /* nsm * LM_PAGES second reads, cycles; NAN: none */
} lm_map;

/* pages.csv (page,offset_bytes,va): every page's address. */
static int lm_pages(const char *path, uint64_t va[LM_PAGES], sk_error *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open (tools/capture/cap_mem DIR l2map)", path);
    char line[256];
    long lineno = 0;
    int n = 0, rc = 0;
    while (rc == 0 && e11_next_line(f, line, sizeof line, &lineno)) {
        long page;
        long long off;
        unsigned long long a;
        if (sscanf(line, "%ld,%lld,%llx", &page, &off, &a) != 3 || page != n || n >= LM_PAGES || a == 0)
            rc = sk_errorf(e, SK_EIO, "%s:%ld: '%.60s': expected page,offset_bytes,va with pages 0..%d in order",
                           path, lineno, line, LM_PAGES - 1);
        else
            va[n++] = a;
    }
    fclose(f);
    if (rc == 0 && n != LM_PAGES)
        rc = sk_errorf(e, SK_EIO, "%s: %d pages, expected %d", path, n, LM_PAGES);
    return rc;
}

/* l2map.csv.gz's `self` rows (mode,warm_sm,sm,page,cycles1,cycles2). */
static int lm_load(const char *path, int nsm, lm_map *m, sk_error *e)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open (tools/capture/cap_mem DIR l2map)", path);
    m->nsm = nsm;
    m->x = xcalloc((size_t)nsm * LM_PAGES, sizeof *m->x);
    for (size_t i = 0; i < (size_t)nsm * LM_PAGES; i++)
        m->x[i] = NAN;
    char line[256];
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && e11_gz_next_line(f, line, sizeof line, &lineno)) {
        char mode[16];
        long warm, smn, page;
        double c1, c2;
        if (sscanf(line, "%15[^,],%ld,%ld,%ld,%lf,%lf", mode, &warm, &smn, &page, &c1, &c2) != 6 || smn < 0 ||
            smn >= nsm || page < 0 || page >= LM_PAGES || !(c2 > 0 && c2 < 1e9)) {
            rc = sk_errorf(e, SK_EIO,
                           "%s:%ld: '%.60s': expected mode,warm_sm,sm,page,cycles1,cycles2 with SMs 0..%d, "
                           "pages 0..%d and cycles in (0, 1e9)",
                           path, lineno, line, nsm - 1, LM_PAGES - 1);
            break;
        }
        if (strcmp(mode, "self") == 0)
            m->x[smn * LM_PAGES + page] = c2;
    }
    return e11_gz_close(f, path, lineno, rc, e);
}

/* The same reads on the model: SM s's first read of line s mod 32 of each
 * page, then its second, one at a time (an unloaded hierarchy), in cycles
 * of the SM clock; and each SM's home partition into home[] (the chip's
 * since E11: test_homes_measured) and its GPC's row into row[]. */
static int lm_model(const cfg *c, const topo *t, const uint64_t va[LM_PAGES], lm_map *m, int *home, int *row,
                    sk_error *e)
{
    mem_hier *h = mem_hier_create(c, t, NULL, e);
    if (!h)
        return e->code;
    for (int s = 0; s < t->nsms; s++) {
        home[s] = mem_hier_home(h, s);
        row[s] = mem_hier_row(h, s);
    }
    m->nsm = t->nsms;
    m->x = xcalloc((size_t)t->nsms * LM_PAGES, sizeof *m->x);
    const double cyc_ps = 1e6 / c->sm_mhz;
    ps_t now = 0;
    for (int s = 0; s < t->nsms; s++)
        for (int p = 0; p < LM_PAGES; p++) {
            uint64_t a[32] = { va[p] + (uint64_t)(s % 32) * 128 };
            mem_req r = { .sm = s, .op = MEM_LOAD, .flags = MEM_F_BYPASS_L1, .lane_bytes = 4, .mask = 1,
                          .addr = a, .bytes = 4, .t = now };
            now = mem_access(mem_hier_l1(h, s), &r) + 1000000;
            r.t = now;
            ps_t d = mem_access(mem_hier_l1(h, s), &r);
            m->x[s * LM_PAGES + p] = (double)(d - now) / cyc_ps;
            now = d + 1000000;
        }
    mem_hier_destroy(h);
    return 0;
}

typedef struct lm_stats {
    double spread, means;       /* s.d. of the routes and of the SMs' means, cycles */
    double *sm_mean;            /* owned: each SM's mean hit less the chip's, cycles (NAN: none) */
    /* the SMs' means fitted by their TPC chains (topo_sm.cpc, hops): each
     * chain's offset from chain 0's and the step per TPC passed, cycles */
    double chain_cpc[CFG_MAX_CPCS], chain_hop;
    double chain_row;           /* row -1's mean over row +1's (mem_hier_row), cycles */
    /* mean r of two SMs' routes: one GPC, one chunk; one GPC, other
     * chunks; two GPCs of one row, one chunk; two of different rows */
    double r_chunk_gpc, r_other_gpc, r_row_same, r_row_other;
    int n_chunk_gpc, n_other_gpc, n_row_same, n_row_other;
} lm_stats;

/* Pearson's r of a[0..n-1] and b[0..n-1] over the entries both have (not
 * NAN); NAN with fewer than min_n of them or no spread. */
static double lm_pearson(const double *a, const double *b, int n, int min_n)
{
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(a[i]) && !isnan(b[i])) {
            sa += a[i];
            sb += b[i];
            saa += a[i] * a[i];
            sbb += b[i] * b[i];
            sab += a[i] * b[i];
            k++;
        }
    if (k < min_n)
        return NAN;
    double va = saa - sa * sa / k, vb = sbb - sb * sb / k;
    return va > 0 && vb > 0 ? (sab - sa * sb / k) / sqrt(va * vb) : NAN;
}

/* Two SMs' routes over their common pages (at least 16). */
static double lm_corr(const double *a, const double *b)
{
    return lm_pearson(a, b, LM_PAGES, 16);
}

/* Least squares over the SMs with a mean: mean = a + cpc offset (chain 0's
 * none) + hop x hops + the row's offset (row -1 over +1: half of it each
 * way; GSL's SVD fit; NAN when too few SMs). */
static void lm_chain_fit(lm_stats *o, const topo *t, const int *row, int ns, int ncpc)
{
    int np = ncpc + 2, n = 0;
    o->chain_hop = NAN;
    o->chain_row = NAN;
    for (int k = 0; k < CFG_MAX_CPCS; k++)
        o->chain_cpc[k] = k ? NAN : 0;
    for (int s = 0; s < ns; s++)
        n += !isnan(o->sm_mean[s]);
    if (n < 2 * np)
        return;
    gsl_matrix *X = gsl_matrix_calloc((size_t)n, (size_t)np), *cov = gsl_matrix_alloc((size_t)np, (size_t)np);
    gsl_vector *y = gsl_vector_alloc((size_t)n), *b = gsl_vector_alloc((size_t)np);
    gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc((size_t)n, (size_t)np);
    int i = 0;
    for (int s = 0; s < ns; s++) {
        if (isnan(o->sm_mean[s]))
            continue;
        gsl_matrix_set(X, (size_t)i, 0, 1.0);
        if (t->sm[s].cpc > 0)
            gsl_matrix_set(X, (size_t)i, (size_t)t->sm[s].cpc, 1.0);
        gsl_matrix_set(X, (size_t)i, (size_t)ncpc, (double)t->sm[s].hops);
        gsl_matrix_set(X, (size_t)i, (size_t)ncpc + 1, -0.5 * row[s]);
        gsl_vector_set(y, (size_t)i, o->sm_mean[s]);
        i++;
    }
    double chisq;
    if (gsl_multifit_linear(X, y, b, cov, &chisq, w) == 0) {
        for (int k = 1; k < ncpc; k++)
            o->chain_cpc[k] = gsl_vector_get(b, (size_t)k);
        o->chain_hop = gsl_vector_get(b, (size_t)ncpc);
        o->chain_row = gsl_vector_get(b, (size_t)ncpc + 1);
    }
    gsl_multifit_linear_free(w);
    gsl_vector_free(b);
    gsl_vector_free(y);
    gsl_matrix_free(cov);
    gsl_matrix_free(X);
}

/* Two maps' SM means over the SMs both have (at least 3). */
static double lm_corr_sm(const double *a, const double *b, int ns)
{
    return lm_pearson(a, b, ns, 3);
}

/* The statistics above, of m (its hits kept, the rest set NAN), with the
 * chip's SM-to-GPC map and home partitions (h) from the model's topology. */
static void lm_stats_of(lm_map *m, const topo *t, const int *home, const int *row, int ncpc, lm_stats *o)
{
    int ns = m->nsm, n = ns * LM_PAGES;
    double *v = xcalloc((size_t)n, sizeof *v);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(m->x[i]))
            v[k++] = m->x[i];
    double med = k ? e11_median(v, (size_t)k) : NAN;
    free(v);
    for (int i = 0; i < n; i++)
        if (!(m->x[i] >= LM_KEEP_LO * med && m->x[i] <= LM_KEEP_HI * med))
            m->x[i] = NAN;
    double *ms = xcalloc((size_t)ns, sizeof *ms), *mp = xcalloc(LM_PAGES, sizeof *mp), grand = 0;
    int *cs = xcalloc((size_t)ns, sizeof *cs), *cp = xcalloc(LM_PAGES, sizeof *cp), cg = 0;
    for (int s = 0; s < ns; s++)
        for (int p = 0; p < LM_PAGES; p++) {
            double x = m->x[s * LM_PAGES + p];
            if (isnan(x))
                continue;
            ms[s] += x;
            cs[s]++;
            grand += x;
            cg++;
        }
    for (int s = 0; s < ns; s++)
        ms[s] = cs[s] ? ms[s] / cs[s] : NAN;
    grand = cg ? grand / cg : NAN;
    for (int s = 0; s < ns; s++)
        for (int p = 0; p < LM_PAGES; p++) {
            double x = m->x[s * LM_PAGES + p];
            if (!isnan(x)) {
                mp[p] += x - ms[s];
                cp[p]++;
            }
        }
    double ss = 0, sdev = 0, smm = 0;
    int nr = 0, nm = 0;
    for (int s = 0; s < ns; s++) {
        for (int p = 0; p < LM_PAGES; p++) {
            double *x = &m->x[s * LM_PAGES + p];
            if (isnan(*x))
                continue;
            *x -= ms[s] + mp[p] / cp[p];
            ss += *x * *x;
            nr++;
        }
        if (cs[s]) {
            sdev += ms[s] - grand;
            smm += (ms[s] - grand) * (ms[s] - grand);
            nm++;
        }
    }
    o->spread = nr ? sqrt(ss / nr) : NAN;
    o->means = nm > 1 ? sqrt((smm - sdev * sdev / nm) / (nm - 1)) : NAN;
    o->sm_mean = xcalloc((size_t)ns, sizeof *o->sm_mean);
    for (int s = 0; s < ns; s++)
        o->sm_mean[s] = cs[s] ? ms[s] - grand : NAN;
    lm_chain_fit(o, t, row, ns, ncpc);
    /* pairs of SMs: the same 256 B chunk when their lines differ only in
     * bit 0; two GPCs' SMs of either home (each reads its own half's copy:
     * one class, two slices), by their rows */
    double r1 = 0, r2 = 0, r3 = 0, r4 = 0;
    int n1 = 0, n2 = 0, n3 = 0, n4 = 0;
    for (int a = 0; a < ns; a++)
        for (int b = a + 1; b < ns; b++) {
            /* a tail TPC with a host is of its host's GPC (topo_sm.hub_gpc) */
            int chunk = (a % 32) / 2 == (b % 32) / 2, gpc = t->sm[a].hub_gpc == t->sm[b].hub_gpc;
            if (t->sm[a].tpc_global == t->sm[b].tpc_global || (gpc && home[a] != home[b]) ||
                (!gpc && (!chunk || row[a] == 0 || row[b] == 0)))
                continue;
            double r = lm_corr(&m->x[a * LM_PAGES], &m->x[b * LM_PAGES]);
            if (isnan(r))
                continue;
            if (gpc && chunk) {
                r1 += r;
                n1++;
            } else if (gpc) {
                r2 += r;
                n2++;
            } else if (row[a] == row[b]) {
                r3 += r;
                n3++;
            } else {
                r4 += r;
                n4++;
            }
        }
    o->r_chunk_gpc = n1 ? r1 / n1 : NAN;
    o->r_other_gpc = n2 ? r2 / n2 : NAN;
    o->r_row_same = n3 ? r3 / n3 : NAN;
    o->r_row_other = n4 ? r4 / n4 : NAN;
    o->n_chunk_gpc = n1;
    o->n_other_gpc = n2;
    o->n_row_same = n3;
    o->n_row_other = n4;
    free(ms);
    free(mp);
    free(cs);
    free(cp);
}

static void lm_info(const char *what, double chip, double model, const char *note)
{
    printf("%-6s %-34s %9.2f %9.2f        %s\n", "info", what, chip, model, note);
}

/* One judged row: model against chip within tol, relative. */
static void lm_judged(const char *what, double chip, double model, double tol, const char *kind, const char *note,
                      int *fails)
{
    double err = chip != 0 ? (model - chip) / chip : NAN;
    int ok = fabs(err) <= tol;          /* a chip's 0 (or NAN) is no yardstick: fails */
    printf("%-6s %-34s %9.2f %9.2f cyc   %+6.1f %%  %s (%s)\n", ok ? "PASS" : "FAIL", what, chip, model,
           100 * err, kind, note);
    if (!ok)
        (*fails)++;
}

/* One judged correlation: r at least lo (a NAN r fails). */
static void lm_judged_r(const char *what, double r, double lo, const char *kind, const char *note, int *fails)
{
    int ok = r >= lo;
    printf("%-6s %-34s %9s %9.3f       >= %.2f  %s (%s)\n", ok ? "PASS" : "FAIL", what, "", r, lo, kind, note);
    if (!ok)
        (*fails)++;
}

#define LM_MAX_RUNS 8
#define LM_SPREAD_TOL 0.15      /* a further chip's route s.d., relative */

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The captures in DIR/capture: l2map.csv.gz (E11's, which the width was
 * fitted on) and l2map_TAG.csv.gz (further runs, each beside its
 * pages_TAG.csv), sorted; their count (at most LM_MAX_RUNS), or -1 where
 * the folder cannot be read.  readdir, not glob: a directory name holding
 * [, * or ? must not be read as a pattern. */
static int lm_list(const char *dir, char names[LM_MAX_RUNS][256])
{
    char path[4096];
    snprintf(path, sizeof path, "%s/capture", dir);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    char *found[LM_MAX_RUNS];
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) && n < LM_MAX_RUNS)
        if (fnmatch("l2map*.csv.gz", de->d_name, 0) == 0 && strlen(de->d_name) < 256)
            found[n++] = xstrdup(de->d_name);
    closedir(d);
    qsort(found, (size_t)n, sizeof *found, cmp_name);
    for (int i = 0; i < n; i++) {
        snprintf(names[i], 256, "%s", found[i]);
        free(found[i]);
    }
    return n;
}

int validate_l2map_has_capture(const char *dir)
{
    char names[LM_MAX_RUNS][256];
    return lm_list(dir, names) > 0;
}

/* A cross check's error on a layout file's keys ("config: KEY: ..."), said
 * at the file's last line that set KEY (the file's name alone where none
 * did). */
static int lm_layout_err(sk_error *e, int code, const char *path, const char *msg)
{
    char key[128], line[512];
    const char *rest = cfg_error_key(msg, key, sizeof key);
    size_t kn = rest ? strlen(key) : 0;
    long at = 0;
    FILE *f = rest ? fopen(path, "r") : NULL;
    for (long n = 1; f && fgets(line, sizeof line, f); n++)
        if (!strncmp(line, key, kn) && line[kn] == '=')
            at = n;
    if (f)
        fclose(f);
    if (at)
        return sk_errorf(e, code, "%s:%ld: %.3800s", path, at, rest);
    return sk_errorf(e, code, "%s: %.3800s", path, msg);
}

/* A board's own layout beside its capture, capture/layout{TAG}.txt: lines
 * of floorplan.KEY=VALUE (where the board's floorsweeping put its GPCs:
 * its partitions and rows, measured from this capture, validation/h100/
 * README.md), # comments and blank lines passed over, set on a copy of the
 * config for this run alone.  No file: the config as it is.  Into set:
 * what the file set.  (What was fitted on a capture is the config's fitted
 * table's, validate_fitted.c.) */
static int lm_layout(const cfg *c, const char *dir, const char *tag, cfg *out, char *set, size_t nset, sk_error *e)
{
    *out = *c;
    set[0] = '\0';
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/capture/layout%s.txt", dir, tag);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        char *eq = strchr(line, '=');
        if (!eq || strncmp(line, "floorplan.", 10) != 0) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%ld: %s: expected floorplan.KEY=VALUE (a board's own layout; what "
                           "was fitted on a capture: the config's fitted table)", path, lineno, line);
            break;
        }
        sk_error e2 = { 0, "" };
        if (cfg_set(out, line, &e2) < 0) {
            const char *m = e2.msg;     /* cfg_set speaks of --set; here it is a file's line */
            if (!strncmp(m, "--set ", 6))
                m += 6;
            rc = sk_errorf(e, SK_ECONFIG, "%s:%ld: %.3800s", path, lineno, m);
            break;
        }
        size_t k = strlen(set);
        snprintf(set + k, nset - k, "%s%s", k ? ", " : "", line);
    }
    fclose(f);
    if (rc == 0 && set[0]) {            /* the keys together, as the config's own */
        sk_error e2 = { 0, "" };
        if (cfg_validate(out, &e2) < 0)
            rc = lm_layout_err(e, e2.code, path, e2.msg);
    }
    return rc;
}

/* Whether any of the keys (NULL-terminated) was fitted on capture file path. */
static int lm_fitted(const vfit *fit, const char *path, const char *const *keys)
{
    for (int i = 0; keys[i]; i++)
        if (vfit_capture(fit, path, keys[i]))
            return 1;
    return 0;
}

int validate_l2map(const cfg *c, const char *dir, const vfit *fit, int *fails, sk_error *e)
{
    char names[LM_MAX_RUNS][256];
    int nrun = lm_list(dir, names);
    if (nrun <= 0)
        return nrun < 0 ? sk_errorf(e, SK_EIO, "%s/capture: cannot read the folder", dir) : 0;
    topo t;
    if (topo_build(&t, c, e) < 0)
        return e->code;
    int *home = xcalloc((size_t)t.nsms, sizeof *home), *row = xcalloc((size_t)t.nsms, sizeof *row), rc = 0;
    /* every capture read and simulated before a row is printed */
    lm_stats sc[LM_MAX_RUNS], so[LM_MAX_RUNS];
    int nstats = 0;
    char tag[LM_MAX_RUNS][256], set[LM_MAX_RUNS][256];
    for (int r = 0; r < nrun && rc == 0; r++) {
        char path[4096], ppath[4096];
        size_t len = strlen(names[r]);
        snprintf(tag[r], sizeof tag[r], "%.*s", (int)(len - strlen("l2map") - strlen(".csv.gz")),
                 names[r] + strlen("l2map"));
        snprintf(path, sizeof path, "%s/capture/%s", dir, names[r]);
        snprintf(ppath, sizeof ppath, "%s/capture/pages%s.csv", dir, tag[r]);
        uint64_t va[LM_PAGES];
        lm_map chip = { 0 }, model = { 0 };
        cfg cr;
        rc = lm_layout(c, dir, tag[r], &cr, set[r], sizeof set[r], e);
        if (rc == 0)
            rc = lm_pages(ppath, va, e);
        if (rc == 0)
            rc = lm_load(path, t.nsms, &chip, e);
        if (rc == 0 && (rc = lm_model(&cr, &t, va, &model, home, row, e)) != 0 && set[r][0]) {
            /* the layout's keys refused together (the floorplan): name its file */
            char msg[sizeof e->msg];
            snprintf(msg, sizeof msg, "%s", e->msg);
            int code = e->code;
            e->code = 0;                /* sk_errorf keeps a first error: this one replaces it */
            snprintf(path, sizeof path, "%s/capture/layout%s.txt", dir, tag[r]);
            rc = lm_layout_err(e, code, path, msg);
        }
        if (rc == 0) {
            lm_stats_of(&chip, &t, home, row, c->cpcs_per_gpc, &sc[r]);
            lm_stats_of(&model, &t, home, row, c->cpcs_per_gpc, &so[r]);
            nstats = r + 1;
        }
        free(chip.x);
        free(model.x);
    }
    for (int r = 0; r < nrun && rc == 0; r++) {
        printf("\nE11 l2map%s: each SM's L2 hits by line, less the SM's and the line's means (cycles;"
               " memory.l2.route_spread_ps=%d)\n", tag[r], c->l2_route_spread_ps);
        if (set[r][0])
            printf("(this board's own layout, capture/layout%s.txt: %s)\n", tag[r], set[r]);
        printf("%-6s %-34s %9s %9s\n", "", "", "measured", "simulated");
        char what[64], note[300];
        /* each row fitted where the config's table says its keys were set
         * from this capture (the H200's: E11's l2map.csv.gz), else judged
         * as a prediction */
        static const char *const k_width[] = {"memory.l2.route_spread_ps", NULL};
        static const char *const k_means[] = {"memory.l2.tpc_hop_ps", "memory.l2.cpc_ps",
                                              "memory.l2.route_row_skew_permille", NULL};
        static const char *const k_rows[] = {"memory.l2.route_row_pct", NULL};
        char cap[4096];
        snprintf(cap, sizeof cap, "%s/capture/%s", dir, names[r]);
        int f_width = lm_fitted(fit, cap, k_width), f_means = lm_fitted(fit, cap, k_means);
        int f_rows = lm_fitted(fit, cap, k_rows);
        if (f_width)
            lm_info("route s.d., per SM and line", sc[r].spread, so[r].spread, "fitted (route_spread_ps)");
        else
            lm_judged("route s.d., per SM and line", sc[r].spread, so[r].spread, LM_SPREAD_TOL, "predicted",
                      "route_spread_ps fitted on another capture", fails);
        const char *kind = f_means ? "fitted" : "predicted";
        snprintf(note, sizeof note, "TPC chains, floorplan%s%s%.200s", set[r][0] ? "; layout measured here" : "",
                 f_means ? "; " : "", f_means ? fit->path : "");
        lm_judged("the SMs' means, s.d.", sc[r].means, so[r].means, LM_MEAN_TOL, kind, note, fails);
        lm_judged_r("the SMs' means, r chip vs model", lm_corr_sm(sc[r].sm_mean, so[r].sm_mean, t.nsms),
                    LM_MEAN_R_MIN, kind, note, fails);
        lm_info("means fit: cycles per TPC passed", sc[r].chain_hop, so[r].chain_hop, "tpc_hop_ps");
        for (int k = 1; k < c->cpcs_per_gpc; k++) {
            snprintf(what, sizeof what, "means fit: chain %d over chain 0", k);
            lm_info(what, sc[r].chain_cpc[k], so[r].chain_cpc[k], "cpc_ps");
        }
        lm_info("means fit: row -1 over row +1", sc[r].chain_row, so[r].chain_row, "route_row_skew_permille");
        snprintf(what, sizeof what, "r, one chunk, one GPC (%d pairs)", sc[r].n_chunk_gpc);
        lm_info(what, sc[r].r_chunk_gpc, so[r].r_chunk_gpc, "fitted (drawn per GPC)");
        snprintf(what, sizeof what, "r, other chunks, one GPC (%d)", sc[r].n_other_gpc);
        lm_info(what, sc[r].r_other_gpc, so[r].r_other_gpc, "fitted (drawn per 256 B chunk)");
        snprintf(what, sizeof what, "r, one chunk, 2 GPCs, one row (%d)", sc[r].n_row_same);
        const char *share = f_rows ? "fitted (route_row_pct; floorplan rows)"
                                   : "predicted (route_row_pct; floorplan rows)";
        lm_info(what, sc[r].r_row_same, so[r].r_row_same, share);
        snprintf(what, sizeof what, "r, one chunk, 2 GPCs, 2 rows (%d)", sc[r].n_row_other);
        lm_info(what, sc[r].r_row_other, so[r].r_row_other, share);
        /* the rows' share of a route: half the gap between those two,
         * over what one GPC's SMs on one chunk reach (the chip's reads
         * keep that below 1) */
        lm_info("rows' share of the routes", (sc[r].r_row_same - sc[r].r_row_other) / 2 / sc[r].r_chunk_gpc,
                (so[r].r_row_same - so[r].r_row_other) / 2 / so[r].r_chunk_gpc,
                f_rows ? "fitted (route_row_pct / 100)" : "predicted (route_row_pct / 100)");
    }
    for (int r = 0; r < nstats; r++) {
        free(sc[r].sm_mean);
        free(so[r].sm_mean);
    }
    free(home);
    free(row);
    topo_free(&t);
    return rc;
}
