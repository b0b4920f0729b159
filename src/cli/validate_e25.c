/* validate_e25.c -- what the L2 holds after E24's kernels, line by line
 * (validation/h200 README "E25", tools/capture/cap_mem.cu `retain`).
 *
 * E24's stream and add rows judge bandwidth, which mixes how much of the
 * working set a launch finds in the L2 with what each access costs.  E25
 * asks the first question alone.  The chip: the add at 12-24 MiB per array
 * and the .cg stream at 48-64 MiB (8 passes a launch, where E24's make
 * 4 GiB) run twice from a flushed L2 (as E24 times a launch after an
 * untimed one); then one thread on SM 0 times a
 * single ld.global.cg of each of 1024 sampled lines an array.  Before
 * that, the same lines were read from a flushed L2 twice (cold1, cold2)
 * and once more after another flush (cold3), which gives each line's
 * partition as SM 0 sees it and the latency levels to classify by:
 *
 *   miss level of a line   min(cold1, cold3): a refresh that held one cold
 *                          read back rarely holds both
 *   near / far             the two clusters of those (k-medians from the
 *                          widest gap within the 5th-95th percentiles):
 *                          SM 0's own partition's HBM reads and the other's
 *   L_hit                  median cold2 of the near lines (a local hit)
 *   L_near, L_far          median miss level of each cluster
 *   R = L_far - (L_near - L_hit)   a hit in the far partition: the far
 *                          miss less the same HBM part (the paper's tiers,
 *                          physics.md: 490 - 309 near, 655 - 466 far)
 *
 * A near line hit if `after` < (L_hit + L_near) / 2; a far line is a local
 * hit (a replica in SM 0's partition) below (L_hit + R) / 2, a hit in the
 * far partition below (R + L_far) / 2, else a miss.  A capture whose levels
 * are not apart by 40 cycles, or with fewer than 64 lines of a class, is
 * an error: its classes would mean nothing.
 *
 * The model: the same kernel twice (gen add or the .cg stream, the second
 * launched once the first completed), then per array two one-thread
 * probes on an SM of SM 0's partition (sms=l2:0; replicas are per
 * partition, so which one does not matter), each 512 dependent ld.global.cg of random
 * lines of the array's pages in one partition (part=0, part=1); the
 * probes' L2 counters give the fractions: near l2_hits, far l2_replica_hits
 * (local) and l2_hits (either).  Lines are drawn with replacement (~0.5 %
 * repeats, each a hit); the chip's are distinct.  The runs a parameter
 * was chosen on, as the config's fitted table names them
 * (validate_fitted.c), are marked fitted and not judged: under
 * configs/h200.yaml E25's first H200 run (validation/h200/capture/
 * retain.csv: memory.l2.clean_first, session 24, and the comparison that
 * chose memory.l2.dirty_reprieve, session 26), under configs/h100.yaml
 * both E39 runs of the H100 that chose dirty_reprieve (validation/h100/
 * capture/dirty.csv, dirty_b.csv); every other run's are predicted.
 * Fractions are judged within 0.10 absolute (1024 lines give the chip's a
 * standard error of ~0.02).
 *
 * A capture directory may hold further runs beside retain.csv, another
 * chip or the same one again, as retain_TAG.csv: each is classified by
 * its own levels and judged against the same model, its rows marked
 * [TAG] (validation/h100: three H100s, two runs each).
 *
 * E39 (capture/dirty.csv, cap_mem.cu `dirty`; validation/h200 README
 * "E39") uses the same probe, classes and tolerance on one 8 MiB array
 * written (gen rw's float4 write) or read (the .cg stream, one pass) and
 * then pushed by a .cg stream of Y MiB 1 GiB above it (none for Y 0): does
 * the L2 keep written lines longer than read ones?  memory.l2.dirty_reprieve
 * was chosen on one H100's two runs (fitted, above); cap_mem's `ysweep`
 * adds the same probe at more stream sizes as a further run.  The two are
 * rows of one table (e25_exp). */
#include <dirent.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "skewsim/gen.h"
#include "skewsim/memsys.h"
#include "skewsim/run.h"

#define E25_TOL 0.10
#define E25_MAX_CASES 32
#define E25_HOPS 512
#define E25_MIN_GAP 40.0        /* cycles between levels */
#define E25_MIN_LINES 64        /* lines of a class (near, far) a case */
#define E25_MAX_CYC 1000000u
#define E25_MAX_RUNS 16         /* retain.csv and retain_TAG.csv files */
#define E25_MAX_TAG 16

enum { E25_NEAR_HIT, E25_FAR_HIT, E25_FAR_LOCAL, E25_NCLASS };
static const char *const class_name[E25_NCLASS] = {"near hit", "far hit", "far local"};

typedef struct e25_line {
    int array;                  /* 0..2: a, b, c */
    uint32_t line;              /* the line's index in its array */
    unsigned cold1, cold2, cold3, after;
} e25_line;

/* What a case ran: E25's kernel (twice) over arrays of mib MiB, or E39's
 * array of mib MiB written or read and then a .cg stream of ymib MiB. */
enum { E25_K_CG, E25_K_ADD, E39_K_READ, E39_K_WRITE };

typedef struct e25_key {
    int kind;
    long mib, ymib;             /* ymib: E39's stream (0 for E25's kinds) */
} e25_key;

static int key_narr(const e25_key *k)
{
    return k->kind == E25_K_ADD ? 3 : 1;
}

static int key_eq(const e25_key *a, const e25_key *b)
{
    return a->kind == b->kind && a->mib == b->mib && a->ymib == b->ymib;
}

/* The case as its rows name it ("add 12 MiB", "stream.cg 48 MiB", "write 8
 * MiB, cg 32 MiB"), or with csv set as the capture's kernel column names
 * E25's kinds (stream_cg). */
static const char *key_label(const e25_key *k, char *buf, size_t n, int csv)
{
    if (k->kind == E25_K_ADD || k->kind == E25_K_CG)
        snprintf(buf, n, "%s %ld MiB", k->kind == E25_K_ADD ? "add" : csv ? "stream_cg" : "stream.cg", k->mib);
    else
        snprintf(buf, n, "%s %ld MiB, cg %ld MiB", k->kind == E39_K_WRITE ? "write" : "read", k->mib, k->ymib);
    return buf;
}

typedef struct e25_case {
    e25_key key;
    e25_line *l;
    size_t n, cap;
} e25_case;

/* Fractions of a case: frac[array][class], NAN where an array has none. */
typedef struct e25_frac {
    double f[3][E25_NCLASS];
} e25_frac;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}


static unsigned miss_level(const e25_line *l)
{
    return l->cold1 < l->cold3 ? l->cold1 : l->cold3;
}

/* The median over the lines of cs whose miss level lies in [from, to) of
 * that miss level, or of their cold2 when cold2 is set; NAN when there is
 * none, and their count into *count when count is not NULL.  v: scratch
 * of cs->n. */
static double median_of(const e25_case *cs, double *v, double from, double to, int cold2, size_t *count)
{
    size_t k = 0;
    for (size_t i = 0; i < cs->n; i++) {
        double m = miss_level(&cs->l[i]);
        if (m >= from && m < to)
            v[k++] = cold2 ? cs->l[i].cold2 : m;
    }
    if (count)
        *count = k;
    return k ? e11_median(v, k) : NAN;
}

/* k-medians of cs's miss levels in two clusters from a first split: the
 * split it settles on, with *cost the sum of each level's distance from its
 * cluster's median (infinite when a cluster is empty).  v: scratch of
 * cs->n. */
static double settle(const e25_case *cs, double *v, double split, double *cost)
{
    for (int it = 0; it < 50 && cs->n; it++) {
        double a = median_of(cs, v, -INFINITY, split, 0, NULL), b = median_of(cs, v, split, INFINITY, 0, NULL);
        if (isnan(a) || isnan(b))
            break;
        double next = 0.5 * (a + b);
        if (next == split)
            break;
        split = next;
    }
    double a = median_of(cs, v, -INFINITY, split, 0, NULL), b = median_of(cs, v, split, INFINITY, 0, NULL);
    *cost = INFINITY;
    if (isnan(a) || isnan(b))
        return split;
    double sum = 0;
    for (size_t i = 0; i < cs->n; i++) {
        double m = miss_level(&cs->l[i]);
        sum += fabs(m - (m < split ? a : b));
    }
    *cost = sum;
    return split;
}

/* The chip's fractions of case cs from its lines (the file comment's
 * rules), and its levels into lv (hit, near miss, far miss, far hit R);
 * where names the capture for errors. */
static int e25_classify(const e25_case *cs, const char *where, e25_frac *out, double lv[4], sk_error *e)
{
    size_t n = cs->n;
    double *v = xmalloc((n ? n : 1) * sizeof *v);
    /* two clusters of the miss levels by their medians (k-medians), from
     * the widest gap between sorted levels within the 5th to 95th
     * percentiles: a stray line far off either level moves neither, and
     * a cluster of a twentieth of the lines is still found.  And from the
     * median level: where the valley between the levels holds a few lines
     * and the slow tail is sparse, the widest gap lies in the tail (an
     * H100's stream_cg 52 MiB, retain_z2.csv: 965 and 59 lines from there).
     * The start whose clusters lie closer to their medians wins, the gap's
     * on a tie. */
    for (size_t i = 0; i < n; i++)
        v[i] = miss_level(&cs->l[i]);
    qsort(v, n, sizeof *v, cmp_d);
    double mid = n ? v[n / 2] : 0, split = mid, gap = -1;
    for (size_t i = n / 20; i + 1 < n - n / 20; i++)
        if (v[i + 1] - v[i] > gap) {
            gap = v[i + 1] - v[i];
            split = 0.5 * (v[i] + v[i + 1]);
        }
    double cost_gap, cost_mid;
    split = settle(cs, v, split, &cost_gap);
    double split_mid = settle(cs, v, mid, &cost_mid);
    if (cost_mid < cost_gap)
        split = split_mid;
    size_t nn = 0, nf = 0;
    double l_near = median_of(cs, v, -INFINITY, split, 0, &nn);
    double l_far = median_of(cs, v, split, INFINITY, 0, &nf);
    double l_hit = median_of(cs, v, -INFINITY, split, 1, NULL);
    free(v);
    char kind[64];
    key_label(&cs->key, kind, sizeof kind, 1);
    if (nn < E25_MIN_LINES || nf < E25_MIN_LINES)
        return sk_errorf(e, SK_EIO, "%s: %s: %zu near and %zu far lines: expected at least %d of each", where, kind,
                         nn, nf, E25_MIN_LINES);
    if (!(l_far - l_near >= E25_MIN_GAP && l_near - l_hit >= E25_MIN_GAP))
        return sk_errorf(e, SK_EIO,
                         "%s: %s: levels hit %.0f, near miss %.0f, far miss %.0f cycles: expected each "
                         "at least %.0f above the one before",
                         where, kind, l_hit, l_near, l_far, E25_MIN_GAP);
    double r = l_far - (l_near - l_hit);
    double t_near = 0.5 * (l_hit + l_near), t_local = 0.5 * (l_hit + r), t_far = 0.5 * (r + l_far);
    lv[0] = l_hit, lv[1] = l_near, lv[2] = l_far, lv[3] = r;
    double cnt[3][E25_NCLASS], tot[3][2];
    memset(cnt, 0, sizeof cnt);
    memset(tot, 0, sizeof tot);
    for (size_t i = 0; i < n; i++) {
        const e25_line *l = &cs->l[i];
        int far = miss_level(l) >= split;
        tot[l->array][far]++;
        if (!far) {
            cnt[l->array][E25_NEAR_HIT] += l->after < t_near;
        } else {
            cnt[l->array][E25_FAR_HIT] += l->after < t_far;
            cnt[l->array][E25_FAR_LOCAL] += l->after < t_local;
        }
    }
    /* every array of the kernel, each with enough lines of both classes
     * (a partial capture would leave rows unjudged) */
    for (int a = 0; a < key_narr(&cs->key); a++)
        if (tot[a][0] < E25_MIN_LINES / 2 || tot[a][1] < E25_MIN_LINES / 2)
            return sk_errorf(e, SK_EIO, "%s: %s: array %c has %.0f near and %.0f far lines: expected at "
                             "least %d of each",
                             where, kind, "abc"[a], tot[a][0], tot[a][1], E25_MIN_LINES / 2);
    for (int a = 0; a < 3; a++) {
        out->f[a][E25_NEAR_HIT] = tot[a][0] ? cnt[a][E25_NEAR_HIT] / tot[a][0] : NAN;
        out->f[a][E25_FAR_HIT] = tot[a][1] ? cnt[a][E25_FAR_HIT] / tot[a][1] : NAN;
        out->f[a][E25_FAR_LOCAL] = tot[a][1] ? cnt[a][E25_FAR_LOCAL] / tot[a][1] : NAN;
    }
    return 0;
}

/* The arrays k's address patterns read or write, by first use (gen add:
 * a, b, c; the stream: its one array; a pattern with every lane idle
 * touches nothing and is no array): patterns whose bases lie within a
 * working set of each other are one array (a tail's block starts inside
 * it), at the least of those bases.  The count, or -1 past max. */
static int bases(const kernel *k, uint64_t *out, int max)
{
    int n = 0;
    for (uint32_t p = 0; p < k->nprogs; p++)
        for (uint32_t i = 0; i < k->progs[p].napats; i++) {
            const mem_apat *ap = &k->progs[p].apats[i];
            int j = 0;
            if (ap->idle == UINT32_MAX)
                continue;   /* touches nothing (mask=0: the listings' guarded sink store) */
            while (j < n && !(ap->base < out[j] + ap->ws && out[j] < ap->base + ap->ws))
                j++;
            if (j == n) {
                if (n == max)
                    return -1;
                out[n++] = ap->base;
            } else if (ap->base < out[j]) {
                out[j] = ap->base;
            }
        }
    return n;
}

/* E39's second kernel: the .cg stream of ymib MiB, one pass, its array 1
 * GiB above the first kernel's (cap_mem.cu: buf + 1 GB). */
static int e39_push(kernel *k, long ymib, sk_error *e)
{
    int rc = gen_stream_cache(k, 1056, 256, (long long)ymib << 20, 1, 1, e);
    for (uint32_t p = 0; rc == 0 && p < k->nprogs; p++)
        for (uint32_t i = 0; i < k->progs[p].napats; i++)
            k->progs[p].apats[i].base += 1ull << 30;
    return rc;
}

/* The two kernels before the probes: E25's kernel twice (the second
 * launched once the first completed), or E39's write or read of its array
 * and then the stream that pushes it out (none for ymib 0).  The count
 * made into *made; 0 or a negative code. */
static int case_kernels(const e25_key *key, kernel *k, int *made, sk_error *e)
{
    long long bytes = (long long)key->mib << 20;
    const long passes = 8;   /* cap_mem.cu's stream in `retain`: 8 passes a launch */
    int rc = 0;
    switch (key->kind) {
    case E25_K_ADD:
    case E25_K_CG:
        for (*made = 0; *made < 2 && rc == 0; (*made)++)
            rc = key->kind == E25_K_ADD ? gen_add(&k[*made], 1056, 256, bytes, e)
                                        : gen_stream_cache(&k[*made], 1056, 256, bytes, passes, 1, e);
        return rc;
    default:   /* E39: k_write (float4 stores) or the .cg stream, one pass */
        *made = 1;
        rc = key->kind == E39_K_WRITE ? gen_rw(&k[0], 1056, 256, bytes, 1 /* write */, 16, e)
                                      : gen_stream_cache(&k[0], 1056, 256, bytes, 1, 1, e);
        if (rc == 0 && key->ymib > 0)
            rc = e39_push(&k[(*made)++], key->ymib, e);
        return rc;
    }
}

/* The model's fractions for a case (the file comment). */
static int model_frac(const cfg *c, const e25_key *key, e25_frac *out, sk_error *e)
{
    long long bytes = (long long)key->mib << 20;
    int narr = key_narr(key), made = 0;
    kernel k[8];
    memset(k, 0, sizeof k);
    int rc = case_kernels(key, k, &made, e);
    int nk = made + 2 * narr, first = made;
    uint64_t base[3];
    char what[64];
    if (rc == 0 && bases(&k[0], base, 3) != narr)
        rc = sk_errorf(e, SK_EUSAGE, "validate: E25: the %s kernel's arrays: expected %d",
                       key_label(key, what, sizeof what, 1), narr);
    for (int a = 0; a < narr && rc == 0; a++)
        for (int part = 0; part < 2 && rc == 0; part++, made++) {
            kernel *p = &k[made];
            if ((rc = gen_chase(p, 1 << 20, E25_HOPS, 1, 0, 1, e)) < 0)
                break;
            p->l2_part = 1;   /* sms=l2:0: an SM of SM 0's partition takes the one CTA */
            for (uint32_t q = 0; q < p->nprogs; q++)
                for (uint32_t i = 0; i < p->progs[q].napats; i++) {
                    mem_apat *ap = &p->progs[q].apats[i];
                    if (ap->kind != MEM_AP_CHASE)
                        continue;
                    /* random lines of the array's pages of one partition:
                     * part= numbers the partition's pages from address 0,
                     * so the array at B is its pages from B / 2 */
                    ap->kind = MEM_AP_RANDOM;
                    ap->base = base[a] / 2;
                    ap->ws = (uint64_t)bytes / 2;
                    ap->seed = 1 + (uint64_t)(2 * a + part);
                    ap->part = (uint8_t)(1 + part);
                }
        }
    results *r = NULL;
    if ((rc = e11_simulate_seq(c, k, made, rc, &r, e)) < 0)
        return rc;
    for (int a = 0; a < 3; a++)
        for (int cl = 0; cl < E25_NCLASS; cl++)
            out->f[a][cl] = NAN;
    size_t got = results_nkernels(r);
    if (got != (size_t)nk) {
        results_free(r);
        return sk_errorf(e, SK_EUSAGE, "validate: E25: %zu kernels simulated: expected %d", got, nk);
    }
    for (int a = 0; a < narr; a++) {
        const kernel_stats *nr = results_kernel(r, (size_t)(first + 2 * a));
        const kernel_stats *fr = results_kernel(r, (size_t)(first + 1 + 2 * a));
        double h = E25_HOPS;
        out->f[a][E25_NEAR_HIT] = nr->has_mem ? (double)nr->mem.l2_hits / h : NAN;
        out->f[a][E25_FAR_HIT] = fr->has_mem ? (double)fr->mem.l2_hits / h : NAN;
        out->f[a][E25_FAR_LOCAL] = fr->has_mem ? (double)fr->mem.l2_replica_hits / h : NAN;
    }
    results_free(r);
    return 0;
}

static void row(const char *what, double meas, double simv, int fitted, int *fails)
{
    if (isnan(meas)) {
        printf("%-6s %-34s %9s %9.3f frac  %8s  predicted\n", "model", what, "-", simv, "");
        return;
    }
    double d = simv - meas;
    int ok = fabs(d) <= E25_TOL;
    printf("%-6s %-34s %9.3f %9.3f frac  %+8.3f  %s\n", fitted ? "info" : ok ? "PASS" : "FAIL", what, meas, simv, d,
           fitted ? "fitted" : "predicted");
    if (!ok && !fitted)
        (*fails)++;
}

/* " [TAG]" into buf for a further run's tag, "" for retain.csv's. */
static const char *tag_mark(char *buf, size_t n, const char *tag)
{
    if (!tag || !tag[0])
        return "";
    snprintf(buf, n, " [%s]", tag);
    return buf;
}

/* Print one case's rows, the model's side computed once: for each array
 * and class a row per chip run (chip[j], tag[j]: judged unless fitted[j],
 * marked [TAG] for a further run), or, with no run (n 0), the model's side
 * alone. */
static int case_rows(const cfg *c, const e25_key *key, const e25_frac *const *chip, const char *const *tag,
                     const int *fitted, int n, int *fails, sk_error *e)
{
    e25_frac m;
    int rc = model_frac(c, key, &m, e);
    if (rc < 0)
        return rc;
    char label[64];
    key_label(key, label, sizeof label, 0);
    for (int a = 0; a < key_narr(key); a++)
        for (int cl = 0; cl < E25_NCLASS; cl++)
            for (int j = 0; j < (n ? n : 1); j++) {
                char what[128], mark[32];
                snprintf(what, sizeof what, "%s %c %s%s", label, "abc"[a], class_name[cl],
                         tag_mark(mark, sizeof mark, n ? tag[j] : NULL));
                row(what, n ? chip[j]->f[a][cl] : NAN, m.f[a][cl], n && fitted[j], fails);
            }
    return 0;
}

#define E25_MAX_MIB 256
#define E39_MAX_YMIB 1024

/* One experiment of this file: E25 (retain.csv) or E39 (dirty.csv). */
typedef struct e25_exp {
    const char *id;             /* "E25" */
    const char *prefix;         /* its files: PREFIX.csv, PREFIX_TAG.csv */
    const char *header;
    const char *expect;         /* what a data line holds, for errors */
    const e25_key *cases;       /* cap_mem.cu's cases, in its order: what the
                                   model's side prints and a capture should hold */
    size_t ncases;
    const char *title;          /* the section's heading, after "E25 " */
    const char *count_what;     /* "(kernel, mib)" */
} e25_exp;

static const e25_key e25_cases[] = {{E25_K_ADD, 12, 0}, {E25_K_ADD, 16, 0}, {E25_K_ADD, 20, 0},
                                    {E25_K_ADD, 24, 0}, {E25_K_CG, 48, 0},  {E25_K_CG, 52, 0},
                                    {E25_K_CG, 56, 0},  {E25_K_CG, 60, 0},  {E25_K_CG, 64, 0}};
static const e25_key e39_cases[] = {{E39_K_WRITE, 8, 0},  {E39_K_READ, 8, 0},  {E39_K_WRITE, 8, 32},
                                    {E39_K_READ, 8, 32},  {E39_K_WRITE, 8, 96}, {E39_K_READ, 8, 96}};

static const e25_exp exp_e25 = {
    "E25", "retain", "kernel,mib,array,line,cold1,cold2,cold3,after",
    "with kernel add (arrays a, b, c) or stream_cg (a), mib 1..256, a line of the array and cycles 1..1000000",
    e25_cases, sizeof e25_cases / sizeof e25_cases[0],
    "what the L2 holds after the kernel ran twice: fraction of sampled lines SM 0 hits (near: its partition's; "
    "far: the other's, local = a replica)",
    "(kernel, mib)"};
static const e25_exp exp_e39 = {
    "E39", "dirty", "mode,x_mib,y_mib,line,cold1,cold2,cold3,after",
    "with mode write or read, x_mib 1..256, y_mib 0..1024, a line of the array and cycles 1..1000000",
    e39_cases, sizeof e39_cases / sizeof e39_cases[0],
    "written or read lines under a stream: an 8 MiB array written (float4 stores) or read (.cg), then a .cg "
    "stream of Y MiB elsewhere; fraction of its sampled lines SM 0 hits (near, far, far local as E25)",
    "(mode, x_mib, y_mib)"};

_Static_assert(E25_MAX_CYC == 1000000u && E25_MAX_MIB == 256 && E39_MAX_YMIB == 1024,
               "exp_e25.expect and exp_e39.expect spell out these bounds");

/* One data line of a capture into *l and *key; 0, or -1 when it does not
 * parse. */
static int parse_line(const e25_exp *x, const char *s, e25_key *key, e25_line *l)
{
    char kind[16], arr = 'a';
    long m, y = 0;
    unsigned long line, c1, c2, c3, af;
    int used = 0;
    if (x == &exp_e39) {
        if (sscanf(s, "%15[^,],%ld,%ld,%lu,%lu,%lu,%lu,%lu%n", kind, &m, &y, &line, &c1, &c2, &c3, &af, &used) != 8)
            return -1;
        if (!strcmp(kind, "write"))
            key->kind = E39_K_WRITE;
        else if (!strcmp(kind, "read"))
            key->kind = E39_K_READ;
        else
            return -1;
        if (y < 0 || y > E39_MAX_YMIB)
            return -1;
    } else {
        if (sscanf(s, "%15[^,],%ld,%c,%lu,%lu,%lu,%lu,%lu%n", kind, &m, &arr, &line, &c1, &c2, &c3, &af, &used) != 8)
            return -1;
        if (!strcmp(kind, "add"))
            key->kind = E25_K_ADD;
        else if (!strcmp(kind, "stream_cg"))
            key->kind = E25_K_CG;
        else
            return -1;
    }
    if (s[used + strspn(s + used, " \t\r\n")] != '\0')
        return -1;
    key->mib = m;
    key->ymib = y;
    if (m < 1 || m > E25_MAX_MIB || arr < 'a' || arr >= 'a' + key_narr(key))
        return -1;
    if (line >= ((unsigned long)m << 20) / 128)
        return -1;
    if (!c1 || !c2 || !c3 || !af || c1 > E25_MAX_CYC || c2 > E25_MAX_CYC || c3 > E25_MAX_CYC || af > E25_MAX_CYC)
        return -1;
    *l = (e25_line){arr - 'a', (uint32_t)line, (unsigned)c1, (unsigned)c2, (unsigned)c3, (unsigned)af};
    return 0;
}

static int cmp_line(const void *a, const void *b)
{
    const e25_line *x = a, *y = b;
    if (x->array != y->array)
        return x->array - y->array;
    return (x->line > y->line) - (x->line < y->line);
}

/* The capture's lines by case; 0 or a negative code. */
static int read_capture(const e25_exp *x, const char *path, e25_case *cs, int *ncase, sk_error *e)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    char line[512];
    int rc = 0;
    long lineno = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: a line longer than %zu characters: expected %s", path, lineno,
                           sizeof line - 2, x->header);
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (lineno == 1) {
            if (strcmp(line, x->header))
                rc = sk_errorf(e, SK_EIO, "%s:1: '%.60s': expected the header %s", path, line, x->header);
            continue;
        }
        if (line[strspn(line, " \t")] == '\0')
            continue;
        e25_key key;
        e25_line l;
        if (parse_line(x, line, &key, &l) < 0) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: '%.80s': expected %s %s", path, lineno, line, x->header, x->expect);
            break;
        }
        int k = 0;
        while (k < *ncase && !key_eq(&cs[k].key, &key))
            k++;
        if (k == *ncase) {
            if (*ncase == E25_MAX_CASES) {
                rc = sk_errorf(e, SK_EIO, "%s:%ld: more than %d %s cases", path, lineno, E25_MAX_CASES, x->count_what);
                break;
            }
            cs[(*ncase)++] = (e25_case){key, NULL, 0, 0};
        }
        if (cs[k].n == cs[k].cap) {
            cs[k].cap = cs[k].cap ? 2 * cs[k].cap : 1024;
            cs[k].l = xrealloc(cs[k].l, cs[k].cap * sizeof *cs[k].l);
        }
        cs[k].l[cs[k].n++] = l;
    }
    fclose(f);
    if (rc == 0 && lineno == 0)
        rc = sk_errorf(e, SK_EIO, "%s: empty: expected the header %s", path, x->header);
    if (rc == 0 && *ncase == 0)
        rc = sk_errorf(e, SK_EIO, "%s: no data lines: expected %s", path, x->header);
    /* a line sampled twice: cap_mem appends, so a second run over an old
     * capture repeats every line */
    for (int k = 0; k < *ncase && rc == 0; k++) {
        e25_line *v = xmalloc(cs[k].n * sizeof *v);
        memcpy(v, cs[k].l, cs[k].n * sizeof *v);
        qsort(v, cs[k].n, sizeof *v, cmp_line);
        char label[64];
        key_label(&cs[k].key, label, sizeof label, 1);
        for (size_t i = 1; i < cs[k].n && rc == 0; i++)
            if (!cmp_line(&v[i - 1], &v[i]))
                rc = sk_errorf(e, SK_EIO,
                               "%s: %s: array %c line %u appears twice: expected each sampled line once "
                               "(a capture appended to an older one?)",
                               path, label, "abc"[v[i].array], v[i].line);
        free(v);
    }
    return rc;
}

/* One capture file: PREFIX.csv (tag "") or PREFIX_TAG.csv, a further run
 * (another chip, or the same one again) judged against the same model. */
typedef struct e25_run {
    char path[4096];
    char tag[E25_MAX_TAG + 1];
    int fitted;                       /* a parameter was chosen on it (the config's fitted table) */
    e25_case cs[E25_MAX_CASES];
    int ncase;
    e25_frac chip[E25_MAX_CASES];
    double lv[E25_MAX_CASES][4];
} e25_run;

/* The tag of a capture file's name into tag: "" for PREFIX.csv, TAG for
 * PREFIX_TAG.csv; -1 for any other name. */
static int run_tag(const e25_exp *x, const char *path, char *tag)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b), np = strlen(x->prefix);
    if (!strncmp(b, x->prefix, np) && !strcmp(b + np, ".csv")) {
        tag[0] = '\0';
        return 0;
    }
    /* PREFIX _ TAG .csv, TAG at least one character */
    if (strncmp(b, x->prefix, np) || b[np] != '_' || n < np + 6 || strcmp(b + n - 4, ".csv"))
        return -1;
    size_t t = n - np - 5;
    if (t > E25_MAX_TAG)
        return -1;
    for (size_t i = 0; i < t; i++) {
        char ch = b[np + 1 + i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-'))
            return -1;
    }
    memcpy(tag, b + np + 1, t);
    tag[t] = '\0';
    return 0;
}

static int cmp_run(const void *a, const void *b)
{
    return strcmp(((const e25_run *)a)->tag, ((const e25_run *)b)->tag);
}

static int find_case(const e25_run *r, const e25_key *key)
{
    for (int k = 0; k < r->ncase; k++)
        if (key_eq(&r->cs[k].key, key))
            return k;
    return -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in DIR/capture that match PREFIX*.csv, sorted by bytes, into
 * *names (each and the array the caller's to free); their count, or -1
 * where the folder cannot be read.  readdir, not glob: a directory name
 * holding [, * or ? must not be read as a pattern. */
static int list_runs(const e25_exp *x, const char *dir, char ***names)
{
    char path[4096], pat[64];
    snprintf(path, sizeof path, "%s/capture", dir);
    snprintf(pat, sizeof pat, "%s*.csv", x->prefix);
    *names = NULL;
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (fnmatch(pat, de->d_name, 0) != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            *names = xrealloc(*names, (size_t)cap * sizeof **names);
        }
        (*names)[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (n)
        qsort(*names, (size_t)n, sizeof **names, cmp_str);
    return n;
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

static int has_capture(const e25_exp *x, const char *dir)
{
    char **names;
    int n = list_runs(x, dir, &names);
    free_names(names, n > 0 ? n : 0);
    return n > 0;
}

static int judge(const e25_exp *x, const cfg *c0, const char *dir, const vfit *fit, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    char **names;
    int nname = list_runs(x, dir, &names);
    if (nname <= 0) {
        free_names(names, nname > 0 ? nname : 0);
        return sk_errorf(e, SK_EIO, "%s/capture/%s.csv: cannot open", dir, x->prefix);
    }
    int rc = 0, nrun = 0;
    e25_run *run = xcalloc(E25_MAX_RUNS, sizeof *run);
    for (int i = 0; i < nname && rc == 0; i++) {
        if (nrun == E25_MAX_RUNS) {
            rc = sk_errorf(e, SK_EIO, "%s/capture: %d files %s*.csv: expected at most %d runs", dir, nname,
                           x->prefix, E25_MAX_RUNS);
            break;
        }
        e25_run *r = &run[nrun];
        snprintf(r->path, sizeof r->path, "%s/capture/%s", dir, names[i]);
        if (strlen(dir) + strlen(names[i]) + 10 >= sizeof r->path || run_tag(x, names[i], r->tag) < 0) {
            rc = sk_errorf(e, SK_EIO, "%s: not a capture name: expected %s.csv or %s_TAG.csv (TAG 1-%d "
                           "letters, digits or '-')", r->path, x->prefix, x->prefix, E25_MAX_TAG);
            break;
        }
        r->fitted = vfit_capture(fit, r->path, NULL);
        nrun++;
        rc = read_capture(x, r->path, r->cs, &r->ncase, e);
        for (int k = 0; k < r->ncase && rc == 0; k++)
            rc = e25_classify(&r->cs[k], r->path, &r->chip[k], r->lv[k], e);
    }
    free_names(names, nname);
    /* PREFIX.csv first, the further runs by tag (byte order: x10 before
     * x2) */
    qsort(run, (size_t)nrun, sizeof *run, cmp_run);
    if (rc == 0 && (nrun == 0 || run[0].tag[0]))
        rc = sk_errorf(e, SK_EIO, "%s/capture/%s.csv: cannot open: expected it beside %s (the first run)", dir,
                       x->prefix, run[0].path);
    if (rc == 0) {
        printf("\n%s %s", x->id, x->title);
        if (nrun > 1)
            printf("; %d runs, rows of %s_TAG.csv marked [TAG]", nrun, x->prefix);
        printf("\n");
        /* cap_mem's cases that a run lacks: said, not judged */
        char mark[32], label[64];
        for (int j = 0; j < nrun; j++)
            for (size_t i = 0; i < x->ncases; i++)
                if (find_case(&run[j], &x->cases[i]) < 0)
                    printf("%-6s %s%s: not in the capture\n", "absent", key_label(&x->cases[i], label, sizeof label, 0),
                           tag_mark(mark, sizeof mark, run[j].tag));
        /* every case of any run, in the order the runs give them, with
         * the runs that hold it (none before run j does) */
        for (int j = 0; j < nrun && rc == 0; j++)
            for (int k = 0; k < run[j].ncase && rc == 0; k++) {
                const e25_case *cs = &run[j].cs[k];
                int seen = 0;
                for (int jj = 0; jj < j && !seen; jj++)
                    seen = find_case(&run[jj], &cs->key) >= 0;
                if (seen)
                    continue;
                const e25_frac *chip[E25_MAX_RUNS];
                const char *tag[E25_MAX_RUNS];
                int is_fit[E25_MAX_RUNS], n = 0;
                for (int jj = j; jj < nrun; jj++) {
                    int kk = find_case(&run[jj], &cs->key);
                    if (kk < 0)
                        continue;
                    const double *lv = run[jj].lv[kk];
                    printf("%-6s %s%s: levels (cycles) hit %.0f, near miss %.0f, far miss %.0f, far hit "
                           "%.0f (derived)\n",
                           "levels", key_label(&cs->key, label, sizeof label, 0),
                           tag_mark(mark, sizeof mark, run[jj].tag), lv[0], lv[1], lv[2], lv[3]);
                    chip[n] = &run[jj].chip[kk];
                    is_fit[n] = run[jj].fitted;
                    tag[n++] = run[jj].tag;
                }
                rc = case_rows(&c, &cs->key, chip, tag, is_fit, n, fails, e);
            }
    }
    for (int j = 0; j < nrun; j++)
        for (int k = 0; k < run[j].ncase; k++)
            free(run[j].cs[k].l);
    free(run);
    return rc;
}

static int model_only(const e25_exp *x, const cfg *c0, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    printf("\n%s (no capture/%s.csv yet: the model's side only, nothing judged) %s\n", x->id, x->prefix, x->title);
    int ign = 0;
    for (size_t i = 0; i < x->ncases; i++) {
        int rc = case_rows(&c, &x->cases[i], NULL, NULL, NULL, 0, &ign, e);
        if (rc < 0)
            return rc;
    }
    return 0;
}

int validate_e25_has_capture(const char *dir)
{
    return has_capture(&exp_e25, dir);
}

int validate_e25(const cfg *c, const char *dir, const vfit *fit, int *fails, sk_error *e)
{
    return judge(&exp_e25, c, dir, fit, fails, e);
}

int validate_e25_model(const cfg *c, sk_error *e)
{
    return model_only(&exp_e25, c, e);
}

int validate_e39_has_capture(const char *dir)
{
    return has_capture(&exp_e39, dir);
}

int validate_e39(const cfg *c, const char *dir, const vfit *fit, int *fails, sk_error *e)
{
    return judge(&exp_e39, c, dir, fit, fails, e);
}

int validate_e39_model(const cfg *c, sk_error *e)
{
    return model_only(&exp_e39, c, e);
}
