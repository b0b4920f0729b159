/* validate_e36.c -- the L1 and the L2 past their capacity: E35's stream
 * rates (cap_mem `l1cap`; validation/h100/l1cap, README "E35") and E36's
 * hardware counters of the same stream (tools/capture/cap_ncu.cu under
 * ncu; validation/h100/ncu, README "E36").
 *
 * cap_ncu launches E35's stream_kernel (default-cached at 1 and 8 CTAs of
 * 256 threads an SM, .cg at 8) at per-SM footprints of 128-512 KiB a pass,
 * each at 3 and at 6 passes; ncu flushes the caches before each launch and
 * counts.  The difference of the two launches' counts is three steady
 * passes, the cold first pass cancelled, and gives:
 *
 *   L1   l1tex global-load sectors that hit, over all of them (default rows);
 *   L2   of the SMs' L2 read lookups (lts srcunit tex, hits and misses:
 *        the sector count itself can run a few per cent past them), those
 *        that hit in the SM's own partition plus those its far requests hit
 *        in the other (lts srcunit ltcfabric hits): the share that did not
 *        come from DRAM (.cg rows; the default rows' are printed, not
 *        judged, as their L2 traffic is what the L1 leaves).
 *
 * The model runs the same two kernels, each alone from empty caches (its
 * L1s are emptied at a launch anyway), and takes the same differences of
 * its own counters (l1_hits / l1_sectors; l2_hits / l2_sectors, which
 * count a replica's far fill as a hit or a miss of the home partition).
 * Judged within 0.10 absolute.  The L1 rows are predicted: no parameter
 * was chosen on them.  The L2 rows are marked fitted: memory.l2.replicate
 * 6 was chosen over 5 on them (with E11's and E24's bandwidth rows), a fit
 * in kind (docs/calibration.md).  Measured numbers are read from the
 * capture, never written here.
 *
 * E37 (`run_ncu.sh OUT warps`, validation/h100/ncu/warps, README "E37"),
 * when present, is judged the same way: one CTA an SM of 32-1024 threads
 * at 192 KiB (stream_b: its k= field is the CTA's threads), the .cg stream
 * at 336-368 KiB, and one CTA of 1024 threads alone on one SM reading 8-48
 * MiB .cg (stream_1sm: kib= is the whole footprint).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "cli.h"
#include "skewsim/gen.h"

#define E36_TOL 0.10
#define E36_MAXL 512     /* launches */

enum { M_L1S, M_L1H, M_TEX, M_TEXH, M_TEXM, M_FABH, M_N };
static const char *const e36_metric[M_N] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
    "lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
    "lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum", "lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum",
};

typedef struct {
    char kind[32], cache[16];
    int k, kib;
    long long bytes;
    long passes;
    double m[M_N];
    int have;                   /* bit i: metric i read */
} e36_launch;

/* Split one quoted CSV line (ncu's: every field in double quotes) into at
 * most nf fields, in place; returns the count, or -1 when malformed. */
static int csv_split(char *s, char **f, int nf)
{
    int n = 0;
    while (*s) {
        if (*s != '"' || n == nf)
            return -1;
        f[n++] = ++s;
        char *q = strchr(s, '"');
        if (!q)
            return -1;
        *q = '\0';
        s = q + 1;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return n;
}

/* A counter's value as ncu prints it, thousands separated by commas. */
static int parse_count(const char *v, double *out)
{
    char b[64];
    size_t n = 0;
    for (; *v && n + 1 < sizeof b; v++)
        if (*v != ',')
            b[n++] = *v;
    b[n] = '\0';
    char *end;
    *out = strtod(b, &end);
    return n > 0 && *end == '\0' && isfinite(*out) && *out >= 0 ? 0 : -1;
}

static int read_ncu(const char *path, e36_launch *L, int *nl, sk_error *e)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    char line[2048];
    long lineno = 0;
    int rc = 0, idc = -1, namec = -1, valc = -1, nprof = 0;
    long last_id = -1;
    *nl = 0;
    while (rc == 0 && gzgets(f, line, sizeof line)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: a line longer than %zu characters", path, lineno, sizeof line - 2);
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (!strncmp(line, "launch ", 7)) {
            e36_launch *x = &L[*nl];
            int id;
            if (*nl == E36_MAXL ||
                sscanf(line, "launch %d %31s %15s k=%d kib=%d bytes=%lld passes=%ld", &id, x->kind, x->cache, &x->k,
                       &x->kib, &x->bytes, &x->passes) != 7 ||
                id != *nl || x->k < 0 || x->kib < 0 || x->bytes <= 0 || x->passes <= 0) {
                rc = sk_errorf(e, SK_EIO,
                               "%s:%ld: '%.60s': expected 'launch N KIND CACHE k=K kib=F bytes=B passes=P' numbered "
                               "from 0, at most %d",
                               path, lineno, line, E36_MAXL);
                break;
            }
            memset(x->m, 0, sizeof x->m);
            x->have = 0;
            (*nl)++;
            continue;
        }
        if (line[0] != '"')
            continue;
        char *fld[32];
        int n = csv_split(line, fld, 32);
        if (n < 0) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: a malformed ncu CSV line (expected quoted fields)", path, lineno);
            break;
        }
        if (idc < 0) {           /* the header */
            for (int i = 0; i < n; i++) {
                if (!strcmp(fld[i], "ID"))
                    idc = i;
                if (!strcmp(fld[i], "Metric Name"))
                    namec = i;
                if (!strcmp(fld[i], "Metric Value"))
                    valc = i;
            }
            if (idc < 0 || namec < 0 || valc < 0) {
                rc = sk_errorf(e, SK_EIO, "%s:%ld: ncu's CSV header lacks ID, Metric Name or Metric Value", path,
                               lineno);
                break;
            }
            continue;
        }
        char *end;
        long id = n > idc ? strtol(fld[idc], &end, 10) : -1;
        if (n <= valc || n <= namec || id < 0 || *end || end == fld[idc] || id < last_id || id > last_id + 1 || id >= *nl) {
            rc = sk_errorf(e, SK_EIO,
                           "%s:%ld: ncu row of kernel ID '%s': expected IDs in order, each after its launch line",
                           path, lineno, n > idc ? fld[idc] : "?");
            break;
        }
        if (id != last_id)
            nprof++;
        last_id = id;
        for (int i = 0; i < M_N; i++)
            if (!strcmp(fld[namec], e36_metric[i])) {
                if (parse_count(fld[valc], &L[id].m[i]) < 0) {
                    rc = sk_errorf(e, SK_EIO, "%s:%ld: %s = '%s': expected a count", path, lineno, e36_metric[i],
                                   fld[valc]);
                    break;
                }
                L[id].have |= 1 << i;
            }
    }
    rc = e11_gz_close(f, path, lineno, rc, e);
    if (rc == 0 && nprof != *nl)
        rc = sk_errorf(e, SK_EIO, "%s: %d launches listed, %d profiled: expected one ncu record each", path, *nl,
                       nprof);
    return rc;
}

/* cap_ncu's stream launches, by kind: what its k= field counts, and the
 * CTA size (tools/capture/cap_ncu.cu).  kib= is each SM's footprint a
 * pass, so bytes / (kib KiB) is the number of SMs the grid covers. */
enum { E36_K_CTAS, E36_K_BLOCK };
static const struct {
    const char *kind;
    int k_is;                   /* E36_K_CTAS: k CTAs an SM; E36_K_BLOCK: one CTA an SM of k threads */
    int block;                  /* threads a CTA where k counts CTAs */
} e36_kinds[] = {
    { "stream", E36_K_CTAS, 256 },       /* E35's cells */
    { "stream_b", E36_K_BLOCK, 0 },      /* E37: one CTA an SM, 32-1024 threads */
    { "stream_1sm", E36_K_CTAS, 1024 },  /* E37: one CTA of 1024 on one SM */
};

static int e36_kind(const char *kind)
{
    for (size_t i = 0; i < SK_ARRAY_LEN(e36_kinds); i++)
        if (!strcmp(kind, e36_kinds[i].kind))
            return (int)i;
    return -1;
}

/* The SMs launch x's grid covers: its bytes over each SM's footprint. */
static long long e36_sms(const e36_launch *x)
{
    return x->bytes / ((long long)x->kib * 1024);
}

/* The grid of launch x (a known kind, checked): CTAs and threads a CTA. */
static void e36_grid(const e36_launch *x, long *ctas, int *block)
{
    int t = e36_kind(x->kind);
    long sms = (long)e36_sms(x);
    *ctas = e36_kinds[t].k_is == E36_K_BLOCK ? sms : sms * x->k;
    *block = e36_kinds[t].k_is == E36_K_BLOCK ? x->k : e36_kinds[t].block;
}

/* Kernel k run alone (rc: its generator's result, passed on; k is freed)
 * and its memory counters. */
static int kernel_mem(const cfg *c, kernel *k, int rc, mem_stats *m, sk_error *e)
{
    results *r = NULL;
    if ((rc = e11_simulate_seq(c, k, 1, rc, &r, e)) < 0)
        return rc;
    const kernel_stats *ks = results_kernel(r, 0);
    if (!ks || !ks->has_mem) {
        results_free(r);
        return sk_errorf(e, SK_EUSAGE, "validate: E36: the model kept no memory counters");
    }
    *m = ks->mem;
    results_free(r);
    return 0;
}

/* The model's counters of one stream kernel run alone. */
static int model_counts(const cfg *c, const e36_launch *x, double m[4], sk_error *e)
{
    kernel k;
    memset(&k, 0, sizeof k);
    long ctas;
    int block;
    e36_grid(x, &ctas, &block);
    int cg = !strcmp(x->cache, "cg");
    mem_stats ms;
    int rc = gen_stream_cache(&k, ctas, block, x->bytes, x->passes, cg, e);
    if ((rc = kernel_mem(c, &k, rc, &ms, e)) < 0)
        return rc;
    m[0] = (double)ms.l1_sectors;
    m[1] = (double)ms.l1_hits;
    m[2] = (double)ms.l2_sectors;
    m[3] = (double)ms.l2_hits;
    return 0;
}

/* E35 (validation/h100 README, l1cap/, `cap_mem DIR l1cap`): the stream,
 * default-cached and .cg, at a per-SM footprint of F KiB a pass and k CTAs
 * of 256 threads an SM, over hashed words; the chip's GB/s is the median
 * of a cell's timed launches, each simulated as E11's (a warm launch, then
 * the timed one, at the measured passes).  A sample judged as predicted:
 * one CTA an SM in and past the L1 (latency-bound), eight past the L1's
 * capacity and past the L2's, the .cg stream around the L2's edge. */
#define E35_MAX 64
#define E35_TOL 0.15
static const struct {
    int cg, k, kib;
} e35_sample[] = {
    {0, 1, 64},  {0, 1, 128}, {0, 1, 256}, {0, 8, 128}, {0, 8, 256}, {0, 8, 320},
    {0, 8, 384}, {0, 8, 448}, {0, 8, 512}, {1, 8, 256}, {1, 8, 384}, {1, 8, 448},
};
#define E35_N (sizeof e35_sample / sizeof e35_sample[0])

int validate_e35_has_capture(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/l1cap/l1cap_stream.csv", dir);
    return access(path, R_OK) == 0;
}

/* ---- E43: each CTA's time in the one-CTA stream (l1spread/) ----------
 *
 * validation/h100 README "E43", `cap_mem DIR l1spread`: E35's stream, 132
 * CTAs of 256 threads (one an SM) over hashed words, default-cached and
 * .cg, at 64-256 KiB an SM a pass, three timed launches; every CTA's
 * clock64 cycles.  Each CTA reads its own 4 KiB pieces 528 KiB apart, so
 * the L1's index (E41) gives each its own conflicts.  Judged per case on
 * the CTAs' cycles over their median (median of the launches): the 10th
 * and 90th percentiles and the largest, and which CTAs take more than 1.2
 * times the median (the Jaccard index of the chip's and the model's sets,
 * where either holds E43_MINSLOW or more).  All predicted. */
#define E43_NCTA 132
#define E43_REPS 3
#define E43_TOL 0.15        /* on a ratio to the median */
#define E43_JACCARD 0.75
#define E43_MINSLOW 3
static const int e43_kib[] = { 64, 128, 192, 256 };
#define E43_NK (sizeof e43_kib / sizeof e43_kib[0])

typedef struct {
    long long bytes;
    long passes;
    int n[E43_NCTA];
    double cyc[E43_NCTA][E43_REPS];
} e43_cell;

/* Ratios to the median of v (n values): 10th and 90th percentile, largest;
 * slow[i] = v[i] > 1.2 x median. */
static void e43_shape(const double *v, int n, double q[3], unsigned char *slow)
{
    double s[E43_NCTA];
    memcpy(s, v, (size_t)n * sizeof *s);
    double med = e11_median(s, (size_t)n);  /* sorts s */
    q[0] = s[n / 10] / med;
    q[1] = s[n - 1 - n / 10] / med;
    q[2] = s[n - 1] / med;
    for (int i = 0; i < n; i++)
        slow[i] = v[i] > 1.2 * med;
}

static int e43_load(const char *path, e43_cell cell[2][E43_NK], sk_error *e)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open (tools/capture/cap_mem DIR l1spread)", path);
    char line[512];
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && e11_gz_next_line(f, line, sizeof line, &lineno)) {
        char cache[16];
        int kib, rep, cta, smid;
        long long bytes;
        long passes;
        double tns, cyc, ns;
        size_t k = E43_NK;
        if (sscanf(line, "%15[^,],%d,%lld,%ld,%d,%lf,%d,%d,%lf,%lf", cache, &kib, &bytes, &passes, &rep, &tns, &cta,
                   &smid, &cyc, &ns) == 10)
            for (k = 0; k < E43_NK && e43_kib[k] != kib; k++)
                ;
        int cg = !strcmp(cache, "cg");
        if (k == E43_NK || (!cg && strcmp(cache, "default")) || bytes != (long long)kib * 1024 * E43_NCTA ||
            passes <= 0 || rep < 0 || rep >= E43_REPS || cta < 0 || cta >= E43_NCTA || !(cyc > 0 && cyc < 1e15)) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: '%.60s': expected cache,kib_per_sm,bytes_ws,passes,rep,time_ns,cta,"
                           "sm,cycles,ns with cache default or cg, kib_per_sm 64, 128, 192 or 256, bytes_ws 132 x "
                           "kib_per_sm KiB, rep 0-2, cta 0-131 and positive cycles", path, lineno, line);
            break;
        }
        e43_cell *c = &cell[cg][k];
        if ((c->passes && (c->passes != passes || c->bytes != bytes)) || c->n[cta] == E43_REPS) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: '%.60s': a CTA more than %d times, or the case's passes changed",
                           path, lineno, line, E43_REPS);
            break;
        }
        c->passes = passes;
        c->bytes = bytes;
        c->cyc[cta][c->n[cta]++] = cyc;
    }
    return e11_gz_close(f, path, lineno, rc, e);
}

static void e43_row(const char *what, double chip, double simv, double tol, int *fails)
{
    int ok = fabs(simv - chip) <= tol;
    printf("%-6s %-34s %9.3f %9.3f ratio %+6.3f    predicted\n", ok ? "PASS" : "FAIL", what, chip, simv, simv - chip);
    if (!ok)
        (*fails)++;
}

/* E43's capture in dir, loaded into *out (NULL when there is none): read
 * before any row is printed, so that a bad one leaves stdout empty. */
static int e43_open(const char *dir, e43_cell (**out)[E43_NK], sk_error *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/l1spread/l1spread.csv.gz", dir);
    *out = NULL;
    if (access(path, R_OK) != 0)
        return 0;
    e43_cell(*cell)[E43_NK] = calloc(2, sizeof *cell);
    if (!cell)
        return sk_errorf(e, SK_EIO, "validate: E43: out of memory");
    int rc = e43_load(path, cell, e);
    if (rc < 0)
        free(cell);
    else
        *out = cell;
    return rc;
}

static int validate_e43(const cfg *c, e43_cell (*cell)[E43_NK], int *fails, sk_error *e)
{
    int rc = 0;
    if (!cell)
        return 0;
    printf("\nE43 each CTA's cycles in the one-CTA stream (l1spread/), over their median\n");
    for (int cg = 0; cg < 2 && rc == 0; cg++)
        for (size_t k = 0; k < E43_NK && rc == 0; k++) {
            e43_cell *x = &cell[cg][k];
            int full = x->passes > 0;
            for (int i = 0; i < E43_NCTA; i++)
                full &= x->n[i] > 0;
            if (!full)
                continue;
            double chip[E43_NCTA], model[E43_NCTA];
            for (int i = 0; i < E43_NCTA; i++)
                chip[i] = e11_median(x->cyc[i], (size_t)x->n[i]);
            /* as cap_mem runs it: an untimed launch, then the timed one */
            kernel kk[2];
            int made = 0;
            memset(kk, 0, sizeof kk);
            for (; made < 2 && rc == 0; made++)
                rc = gen_stream_cache(&kk[made], E43_NCTA, 256, x->bytes, x->passes, cg, e);
            results *r = NULL;
            if ((rc = e11_simulate_seq(c, kk, made, rc, &r, e)) < 0)
                break;
            int got = 0;
            for (size_t j = 0; j < results_nctas(r); j++) {
                const cta_record *cr = results_cta(r, j);
                if (cr->kernel == 1 && cr->cta < E43_NCTA) {
                    model[cr->cta] = (double)cr->cycles;
                    got++;
                }
            }
            results_free(r);
            if (got != E43_NCTA) {
                rc = sk_errorf(e, SK_ESIM, "validate: E43: the model's timed launch has %d CTA records, not %d",
                               got, E43_NCTA);
                break;
            }
            double qc[3], qm[3];
            unsigned char sc[E43_NCTA], sd[E43_NCTA];
            e43_shape(chip, E43_NCTA, qc, sc);
            e43_shape(model, E43_NCTA, qm, sd);
            static const char *const qn[3] = { "p10", "p90", "max" };
            char what[64];
            for (int q = 0; q < 3; q++) {
                snprintf(what, sizeof what, "%s %d KiB %s", cg ? "cg" : "ca", e43_kib[k], qn[q]);
                e43_row(what, qc[q], qm[q], E43_TOL, fails);
            }
            int both = 0, either = 0, nc = 0, nm = 0;
            for (int i = 0; i < E43_NCTA; i++) {
                both += sc[i] && sd[i];
                either += sc[i] || sd[i];
                nc += sc[i];
                nm += sd[i];
            }
            snprintf(what, sizeof what, "%s %d KiB slow CTAs", cg ? "cg" : "ca", e43_kib[k]);
            if (nc < E43_MINSLOW && nm < E43_MINSLOW) {
                printf("%-6s %-34s %9d %9d CTAs  fewer than %d on either: not judged\n", "info", what, nc, nm,
                       E43_MINSLOW);
                continue;
            }
            double jac = (double)both / either;
            int ok = jac >= E43_JACCARD;
            printf("%-6s %-34s %9d %9d CTAs  %d on both, Jaccard %.3f (at least %.2f)    predicted\n",
                   ok ? "PASS" : "FAIL", what, nc, nm, both, jac, E43_JACCARD);
            if (!ok)
                (*fails)++;
        }
    return rc < 0 ? rc : 0;
}

int validate_e35(const cfg *c0, const char *dir, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    char path[4096];
    snprintf(path, sizeof path, "%s/l1cap/l1cap_stream.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: no capture (tools/capture/cap_mem DIR l1cap)", path);
    double v[E35_N][E35_MAX];
    size_t n[E35_N] = {0};
    long long ws[E35_N] = {0};
    long passes[E35_N] = {0};
    char line[512];
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && e11_next_line(f, line, sizeof line, &lineno)) {
        char data[16], cache[16];
        int k, kib, rep;
        long long bytes;
        long p;
        double tns, gbps;
        if (sscanf(line, "%15[^,],%15[^,],%d,%d,%lld,%ld,%d,%lf,%lf", data, cache, &k, &kib, &bytes, &p, &rep, &tns,
                   &gbps) != 9 ||
            (strcmp(cache, "default") && strcmp(cache, "cg")) || k <= 0 || kib <= 0 || bytes <= 0 ||
            bytes % ((long long)kib * 1024) || p <= 0 || !(gbps > 0 && gbps < 1e9)) {
            rc = sk_errorf(e, SK_EIO,
                           "%s:%ld: '%.60s': expected data,cache,ctas_per_sm,kib_per_sm,bytes_ws,passes,rep,time_ns,"
                           "gbps with cache default or cg, a whole number of SMs' footprints and positive GB/s",
                           path, lineno, line);
            break;
        }
        if (strcmp(data, "hash"))
            continue;
        for (size_t i = 0; i < E35_N; i++)
            if (e35_sample[i].cg == !strcmp(cache, "cg") && e35_sample[i].k == k && e35_sample[i].kib == kib) {
                if (n[i] == E35_MAX || (n[i] && (ws[i] != bytes || passes[i] != p))) {
                    rc = sk_errorf(e, SK_EIO, "%s:%ld: '%.60s': more than %d launches of a cell, or its size or "
                                   "passes changed", path, lineno, line, E35_MAX);
                    break;
                }
                ws[i] = bytes;
                passes[i] = p;
                v[i][n[i]++] = gbps;
            }
    }
    fclose(f);
    if (rc < 0)
        return rc;
    size_t cells = 0;
    for (size_t i = 0; i < E35_N; i++)
        cells += n[i] > 0;
    if (!cells)
        return sk_errorf(e, SK_EIO, "%s: no hashed-word rows of the sampled cells: expected cap_mem's l1cap capture",
                         path);
    e43_cell(*spread)[E43_NK] = NULL;
    if ((rc = e43_open(dir, &spread, e)) < 0)
        return rc;
    printf("\nE35 the stream past the L1's capacity, k CTAs of 256 threads an SM, F KiB an SM a pass "
           "(l1cap/, hashed words; GB/s)\n");
    for (size_t i = 0; i < E35_N && rc == 0; i++) {
        if (!n[i])
            continue;
        long sms = (long)(ws[i] / ((long long)e35_sample[i].kib * 1024));
        double t;
        if ((rc = e11_grid_ns(&c, sms * e35_sample[i].k, 256, ws[i], passes[i], 0, e35_sample[i].cg, &t, NULL,
                              e)) < 0)
            break;
        char what[64];
        snprintf(what, sizeof what, "stream.%s k%d %d KiB", e35_sample[i].cg ? "cg" : "ca", e35_sample[i].k,
                 e35_sample[i].kib);
        e11_row(what, e11_median(v[i], n[i]), (double)ws[i] * (double)passes[i] / t, "GB/s", 0, E35_TOL, fails);
    }
    if (rc == 0)
        rc = validate_e43(&c, spread, fails, e);
    free(spread);
    return rc < 0 ? rc : 0;
}

int validate_e36_has_capture(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/ncu/ncu.csv.gz", dir);
    return access(path, R_OK) == 0;
}

/* One ncu capture: its launches, and where each stream pair (P passes,
 * then 2P) starts among them. */
typedef struct {
    e36_launch *L;
    int nl, np;
    int pair[E36_MAXL / 2];
} e36_cap;

/* The counts' differences of the pair starting at launch i. */
static void e36_diff(const e36_cap *cp, int i, double d[M_N])
{
    for (int j = 0; j < M_N; j++)
        d[j] = cp->L[i + 1].m[j] - cp->L[i].m[j];
}

/* Read the capture at path and check its stream pairs (want: the capture
 * cap_ncu makes, for the message when there is none); nothing is printed,
 * so a bad capture leaves stdout empty. */
static int e36_load(const char *path, const char *want, e36_cap *cp, sk_error *e)
{
    cp->L = calloc(E36_MAXL, sizeof *cp->L);
    cp->nl = cp->np = 0;
    if (!cp->L)
        return sk_errorf(e, SK_EIO, "validate: E36: out of memory");
    e36_launch *L = cp->L;
    int rc = read_ncu(path, L, &cp->nl, e);
    for (int i = 0; rc == 0 && i + 1 < cp->nl; i++) {
        const e36_launch *a = &L[i], *b = &L[i + 1];
        int t = e36_kind(a->kind);
        if (t < 0 || strcmp(a->kind, b->kind) || strcmp(a->cache, b->cache) || a->k != b->k ||
            a->kib != b->kib || a->bytes != b->bytes || b->passes != 2 * a->passes)
            continue;
        i++;
        int blk = e36_kinds[t].k_is == E36_K_BLOCK;
        if ((blk ? a->k < 32 || a->k > 1024 || a->k % 32 : a->k < 1 || a->k > 32) || a->kib < 1 ||
            a->bytes % ((long long)a->kib * 1024) || e36_sms(a) > 1024 || a->bytes > (1ll << 33) ||
            b->passes > 4096) {
            rc = sk_errorf(e, SK_EIO,
                           "%s: launches %d and %d: %s k=%d kib=%d bytes=%lld passes=%ld: expected %s, "
                           "bytes a whole number (1-1024) of KiB footprints, at most 8 GiB and 4096 passes",
                           path, i - 1, i, a->kind, a->k, a->kib, a->bytes, b->passes,
                           blk ? "32-1024 threads a CTA, a multiple of 32" : "1-32 CTAs an SM");
            break;
        }
        if ((a->have & b->have) != (1 << M_N) - 1) {
            rc = sk_errorf(e, SK_EIO, "%s: launch %d or %d lacks a counter this section reads (%s ...)", path, i - 1,
                           i, e36_metric[0]);
            break;
        }
        double d[M_N];
        e36_diff(cp, i - 1, d);
        /* a count may differ by a few sectors between ncu's replays (the
         * capture's far hits of the L1-resident cells: -1 to -130 of
         * millions): a fall past a thousandth of the L1's growth is not that */
        int fell = !(d[M_L1S] > 0);
        for (int j = 0; j < M_N; j++)
            fell |= d[j] < -1e-3 * d[M_L1S];
        if (fell) {
            rc = sk_errorf(e, SK_EIO, "%s: launches %d and %d: a count fell, or the L1's sectors did not grow, "
                           "from %ld to %ld passes: expected each to grow (or fall by under a thousandth of the "
                           "L1's growth)", path, i - 1, i, a->passes,
                           b->passes);
            break;
        }
        cp->pair[cp->np++] = i - 1;
    }
    if (rc == 0 && cp->np == 0)
        rc = sk_errorf(e, SK_EIO, "%s: no stream launched at P and then 2P passes: expected cap_ncu's %s capture",
                       path, want);
    return rc;
}

/* Judge the stream pairs of a loaded capture, under its title. */
static int e36_judge(const cfg *c, const e36_cap *cp, const char *title, int *fails, sk_error *e)
{
    printf("%s", title);
    for (int p = 0; p < cp->np; p++) {
        const e36_launch *a = &cp->L[cp->pair[p]], *b = a + 1;
        int t = e36_kind(a->kind), blk = e36_kinds[t].k_is == E36_K_BLOCK, rc;
        double d[M_N], ma[4], mb[4];
        e36_diff(cp, cp->pair[p], d);
        if ((rc = model_counts(c, a, ma, e)) < 0 || (rc = model_counts(c, b, mb, e)) < 0)
            return rc;
        int cg = !strcmp(a->cache, "cg");
        char what[64], cell[40];
        if (t == 0)
            snprintf(cell, sizeof cell, "k%d %d KiB", a->k, a->kib);
        else if (blk)
            snprintf(cell, sizeof cell, "1 CTA x %d %d KiB", a->k, a->kib);
        else
            snprintf(cell, sizeof cell, "%lld SM %d KiB", e36_sms(a), a->kib);
        if (!cg && d[M_L1S] > 0 && mb[0] > ma[0]) {
            double chip = d[M_L1H] / d[M_L1S], simv = (mb[1] - ma[1]) / (mb[0] - ma[0]);
            int ok = fabs(simv - chip) <= E36_TOL;
            snprintf(what, sizeof what, "L1 ca %s", cell);
            printf("%-6s %-34s %9.3f %9.3f %-5s %+6.3f    predicted\n", ok ? "PASS" : "FAIL", what, chip,
                   simv, "hit", simv - chip);
            *fails += !ok;
        }
        /* the L2's share where it carries a tenth of the loads or more */
        double looked = d[M_TEXH] + d[M_TEXM];
        if (d[M_TEX] >= 0.1 * d[M_L1S] && looked > 0 && !(mb[2] > ma[2])) {
            snprintf(what, sizeof what, "L2 %s %s", cg ? "cg" : "ca", cell);
            printf("%-6s %-34s %9.3f %9s %-5s %7s    the model read nothing from L2 in these passes\n", "info", what,
                   (d[M_TEXH] + d[M_FABH]) / looked, "-", "hit", "");
        } else if (d[M_TEX] >= 0.1 * d[M_L1S] && looked > 0) {
            double chip = (d[M_TEXH] + d[M_FABH]) / looked, simv = (mb[3] - ma[3]) / (mb[2] - ma[2]);
            int ok = fabs(simv - chip) <= E36_TOL;
            snprintf(what, sizeof what, "L2 %s %s", cg ? "cg" : "ca", cell);
            printf("%-6s %-34s %9.3f %9.3f %-5s %+6.3f    %s\n", cg ? (ok ? "PASS" : "FAIL") : "info", what, chip,
                   simv, "hit", simv - chip, cg ? "fitted" : "not judged: what the L1 leaves");
            *fails += cg && !ok;
        }
    }
    return 0;
}

/* The model's L1 sectors and hits of one walk (gen_walk). */
static int walk_counts(const cfg *c, long long piece, long long gap, long lines, long hops, double m[2], sk_error *e)
{
    kernel k;
    mem_stats ms;
    int rc = gen_walk(&k, piece, gap, lines, hops, e);
    if ((rc = kernel_mem(c, &k, rc, &ms, e)) < 0)
        return rc;
    m[0] = (double)ms.l1_sectors;
    m[1] = (double)ms.l1_hits;
    return 0;
}

/* E40-E40d (validation/h100/README.md; ncu/layout, spectrum, ways,
 * ways2): one thread walks N lines laid out as pieces of P bytes D apart
 * (cap_ncu's kind layout_P_D, k= N, passes= the hops), at R and 2R rounds;
 * the steady L1 hit fraction from the two launches' difference, chip and
 * model alike.  Every row is a prediction of the L1's index (E41's maps)
 * and, past the data limit (ways2's 56-64 pieces), of its victim draw. */
#define E40_MAX 512
typedef struct {
    const char *part;
    long long piece, gap;
    long lines, hops;           /* the R-round launch's hops */
    double chip;
} e40_walk;

static const char *const e40_parts[] = { "layout", "spectrum", "ways", "ways2" };

/* Read and check every E40 capture present, before anything is printed. */
static int e40_load(const char *dir, e40_walk *w, int *nw, sk_error *e)
{
    int rc = 0;
    *nw = 0;
    e36_launch *L = calloc(E36_MAXL, sizeof *L);
    if (!L)
        return sk_errorf(e, SK_EIO, "validate: E40: out of memory");
    for (size_t p = 0; rc == 0 && p < SK_ARRAY_LEN(e40_parts); p++) {
        char path[4096];
        int nl = 0;
        snprintf(path, sizeof path, "%s/ncu/%s/ncu.csv.gz", dir, e40_parts[p]);
        if (access(path, R_OK) != 0)
            continue;
        if ((rc = read_ncu(path, L, &nl, e)) < 0)
            break;
        for (int i = 0; rc == 0 && i + 1 < nl; i++) {
            const e36_launch *a = &L[i], *b = &L[i + 1];
            long long piece, gap;
            char tail;
            if (sscanf(a->kind, "layout_%lld_%lld%c", &piece, &gap, &tail) != 2 || strcmp(a->kind, b->kind) ||
                a->k != b->k || b->passes != 2 * a->passes)
                continue;
            i++;
            if ((a->have & b->have & 3) != 3 || !(b->m[M_L1S] > a->m[M_L1S]) || b->m[M_L1H] < a->m[M_L1H]) {
                rc = sk_errorf(e, SK_EIO, "%s: launches %d and %d: expected both L1 counts, growing", path, i - 1, i);
                break;
            }
            if (*nw == E40_MAX) {
                rc = sk_errorf(e, SK_EIO, "%s: expected at most %d walks in E40's captures", path, E40_MAX);
                break;
            }
            w[(*nw)++] = (e40_walk){ e40_parts[p], piece, gap, a->k, a->passes,
                                     (b->m[M_L1H] - a->m[M_L1H]) / (b->m[M_L1S] - a->m[M_L1S]) };
        }
    }
    free(L);
    return rc;
}

static int e40_judge(const cfg *c, const e40_walk *w, int nw, int *fails, sk_error *e)
{
    for (int i = 0; i < nw; i++) {
        double ma[2], mb[2];
        int rc;
        if ((rc = walk_counts(c, w[i].piece, w[i].gap, w[i].lines, w[i].hops, ma, e)) < 0 ||
            (rc = walk_counts(c, w[i].piece, w[i].gap, w[i].lines, 2 * w[i].hops, mb, e)) < 0)
            return rc;
        if (i == 0)
            printf("\nE40 one thread's walk of N lines in pieces of P bytes D apart (ncu/layout, spectrum, ways, "
                   "ways2; steady L1 hits: 2R rounds less R)\n");
        double simv = mb[0] > ma[0] ? (mb[1] - ma[1]) / (mb[0] - ma[0]) : 0;
        int ok = fabs(simv - w[i].chip) <= E36_TOL;
        char what[64];
        snprintf(what, sizeof what, "%s N %ld P %lld D %lld KiB", w[i].part, w[i].lines, w[i].piece, w[i].gap / 1024);
        printf("%-6s %-34s %9.3f %9.3f %-5s %+6.3f    predicted\n", ok ? "PASS" : "FAIL", what, w[i].chip, simv,
               "hit", simv - w[i].chip);
        *fails += !ok;
    }
    return 0;
}

/* ---- E42: the shared-memory configuration the driver picks (smemcfg/) ----
 *
 * validation/h100 README "E42", tools/capture/cap_smemcfg.cu under ncu:
 * launches of three kernels (12, 72 registers; 4 KiB static shared memory)
 * at CTAs of 32-1024 threads with 0-20 KiB of dynamic shared memory, and
 * ncu's launch__shared_mem_config_size for each.  The model runs each as
 * an empty kernel of the same threads, registers and shared memory and
 * reports the configuration it sized (summary.json's smem_config_bytes).
 * Fitted: memory.l1.carveout_threads and _smem were chosen on these. */
#define E42_MAX 128

typedef struct {
    int threads, dyn, stat, regs;
    double config;              /* ncu's, bytes; < 0: not read */
} e42_launch;

static int e42_load(const char *dir, e42_launch *x, int *nx, sk_error *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/smemcfg/smemcfg.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open (tools/capture/cap_smemcfg DIR under ncu)", path);
    char line[512], kname[16];
    long lineno = 0;
    int rc = 0;
    *nx = 0;
    while (rc == 0 && e11_next_line(f, line, sizeof line, &lineno)) {
        int id, t, dyn, occ, regs, stat;
        if (sscanf(line, "%d,%15[^,],%d,%d,%d,%d,%d", &id, kname, &t, &dyn, &occ, &regs, &stat) != 7 || id < -1 ||
            id >= E42_MAX || t < 1 || t > 1024 || dyn < 0 || stat < 0 || regs < 1 || regs > 255) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: '%.60s': expected launch,kernel,threads,dyn_bytes,occ_api,regs,"
                           "static_bytes with launch -1..%d, threads 1-1024 and regs 1-255", path, lineno, line,
                           E42_MAX - 1);
            break;
        }
        if (id < 0)
            continue;                   /* not launched (no room for its registers) */
        if (id != *nx) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: launch %d: expected launch %d (launches in order)", path, lineno, id,
                           *nx);
            break;
        }
        x[(*nx)++] = (e42_launch){ t, dyn, stat, regs, -1 };
    }
    fclose(f);
    if (rc < 0)
        return rc;
    snprintf(path, sizeof path, "%s/smemcfg/ncu.csv", dir);
    if (!(f = fopen(path, "r")))
        return sk_errorf(e, SK_EIO, "%s: cannot open (ncu's CSV of cap_smemcfg)", path);
    char big[4096];
    lineno = 0;
    while (rc == 0 && fgets(big, sizeof big, f)) {
        lineno++;
        big[strcspn(big, "\r\n")] = '\0';
        char *fl[20];
        if (big[0] != '"' || strncmp(big, "\"ID\"", 4) == 0)
            continue;                   /* ncu's own notes, the header */
        int nf = csv_split(big, fl, 20);
        double v;
        if (nf < 15 || strcmp(fl[12], "launch__shared_mem_config_size"))
            continue;
        int id = atoi(fl[0]);
        if (id < 0 || id >= *nx || parse_count(fl[14], &v) < 0) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: launch %s: '%.30s': expected a launch of smemcfg.csv and a byte count",
                           path, lineno, fl[0], fl[14]);
            break;
        }
        x[id].config = v;
    }
    fclose(f);
    for (int i = 0; rc == 0 && i < *nx; i++)
        if (x[i].config < 0)
            rc = sk_errorf(e, SK_EIO, "%s: launch %d: no launch__shared_mem_config_size", path, i);
    return rc;
}

/* E42's launches in dir (*nx 0 when there is no capture): read before any
 * row is printed, so that a bad capture leaves stdout empty. */
static int e42_open(const char *dir, e42_launch *x, int *nx, sk_error *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/smemcfg/smemcfg.csv", dir);
    *nx = 0;
    return access(path, R_OK) != 0 ? 0 : e42_load(dir, x, nx, e);
}

static int validate_e42(const cfg *c, const e42_launch *x, int nx, sk_error *e)
{
    int rc = 0, exact = 0;
    if (nx == 0)
        return 0;
    printf("\nE42 the shared-memory configuration by CTA threads, registers and shared memory (smemcfg/; KB)\n");
    for (int i = 0; i < nx && rc == 0; i++) {
        kernel k;
        if ((rc = gen_empty(&k, x[i].threads, 132, e)) < 0)
            break;
        k.smem_bytes = (uint32_t)(x[i].dyn + x[i].stat);
        k.regs_per_thread = (uint32_t)x[i].regs;
        results *r = NULL;
        if ((rc = e11_simulate_seq(c, &k, 1, 0, &r, e)) < 0)
            break;
        double simv = results_nkernels(r) ? (double)results_kernel(r, 0)->smem_config_bytes : -1;
        results_free(r);
        char what[64];
        snprintf(what, sizeof what, "%d threads %d regs %d B shared", x[i].threads, x[i].regs, x[i].dyn + x[i].stat);
        int ok = simv == x[i].config;
        exact += ok;
        printf("%-6s %-34s %9.0f %9.0f KB    %s    fitted\n", "info", what, x[i].config / 1024, simv / 1024,
               ok ? "same" : "differs");
    }
    if (rc == 0)
        printf("%-6s %-34s %d of %d launches the same configuration    fitted\n", "info", "E42 in all", exact, nx);
    return rc < 0 ? rc : 0;
}

int validate_e36(const cfg *c0, const char *dir, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    /* E36 (ncu/), required; E37 (`run_ncu.sh OUT warps`, ncu/warps/),
     * judged the same way where it was captured */
    static const struct {
        const char *file, *title, *want;
    } cap[] = {
        { "ncu/ncu.csv.gz",
          "\nE36 hit rates past capacity, E35's stream under ncu (ncu/; steady passes: the launch at 2P passes "
          "less the one at P; L1: sectors hit; L2: read sectors not from DRAM)\n", "e36" },
        { "ncu/warps/ncu.csv.gz",
          "\nE37 the same counts: one CTA an SM of 32-1024 threads, the L2's edge, one SM alone (ncu/warps/)\n",
          "warps" },
    };
    e36_cap cp[SK_ARRAY_LEN(cap)];
    memset(cp, 0, sizeof cp);
    int n = 0, rc = 0;
    /* every capture read and checked before anything is printed */
    for (size_t i = 0; rc == 0 && i < SK_ARRAY_LEN(cap); i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, cap[i].file);
        if (i == 0 && !validate_e36_has_capture(dir))
            rc = sk_errorf(e, SK_EIO, "%s: no capture (tools/capture/run_ncu.sh OUT)", path);
        else if (access(path, R_OK) != 0)
            break;
        else
            rc = e36_load(path, cap[i].want, &cp[n++], e);
    }
    e40_walk *w = calloc(E40_MAX, sizeof *w);
    e42_launch *cfgs = calloc(E42_MAX, sizeof *cfgs);
    int nw = 0, ncfg = 0;
    if ((!w || !cfgs) && rc == 0)
        rc = sk_errorf(e, SK_EIO, "validate: E40, E42: out of memory");
    if (rc == 0)
        rc = e40_load(dir, w, &nw, e);
    if (rc == 0)
        rc = e42_open(dir, cfgs, &ncfg, e);
    for (int i = 0; rc == 0 && i < n; i++)
        rc = e36_judge(&c, &cp[i], cap[i].title, fails, e);
    for (int i = 0; i < n; i++)
        free(cp[i].L);
    if (rc == 0)
        rc = e40_judge(&c, w, nw, fails, e);
    free(w);
    if (rc == 0)
        rc = validate_e42(&c, cfgs, ncfg, e);
    free(cfgs);
    return rc;
}
