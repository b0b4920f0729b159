/* validate_e20.c -- address translation (memory.tlb.*, src/mem/tlb.c)
 * against E20 (validation/h200 README "E20", capture/tlb.csv): one thread
 * chases a cycle of n elements `stride` bytes apart with ld.global.cg,
 * warmed by max(n, 4096) hops in the same launch, then 4096 timed hops; at
 * most 16384 lines, so the data are L2-resident and what the hop costs
 * above an L2 hit is translation.  Simulated with `gen chase --stride S
 * --order spread --cg 1` (src/trace/gen_mem.c: element i one line further
 * into its slot than i - 1, as the probe spreads its lines over the L2's
 * sets) on the config with memory.model = hierarchy.
 *
 * Only the strides of one element per 2 MB page (2 MiB and 32 MiB) are
 * simulated: there every order of the cycle is a cycle over pages, so
 * gen's in-order walk sees the same reuse as the chip's random one.  The
 * 4 KiB and 64 KiB rows put many elements in a page in a random order that
 * the trace's chase pattern (random over 128-byte lines only) cannot
 * express; they are listed as not simulated.
 *
 * The judged figure is the extra over the 256 MiB row at 2 MiB (E20's
 * reach, where every translation hits): chip and model each against their
 * own, since what the L2 hit costs is E11's business.  PASS within
 * EXTRA_TOL cycles, a quarter of the ~10-cycle L1 TLB miss.  Fitted, so
 * printed and not judged: the 2 MiB rows (memory.tlb.l1_entries, the
 * replacement and memory.tlb.l2_hit_ps come from that curve) and the
 * 32 MiB rows of 16 and 32 pages (the set count: 16 pages 16 apart fit one
 * set, 32 do not).  Predicted: the 32 MiB rows of 64 pages and more, and
 * E11's DRAM chases (capture/chase.csv, 128 MiB - 1 GiB), whose rise over
 * the 128 MiB row E11 attributed to translation.
 * Measured numbers are read from the capture files, never written here.
 *
 * Every model figure of these rows is its mean over E20_SEEDS values of
 * sim.seed (the config's and the next ones).  The seed draws each line's
 * L2 route (memory.l2.route_spread_ps) and where a DRAM hop meets a
 * refresh window: a chase of 16-1024 lines averages a few route draws, and
 * one seed's extra moves by up to 5 cycles with them (the 32 MiB x 1024
 * row: -3.9, +1.5, +1.2 for seeds 1-3), twice the tolerance.  The chip's
 * lines have routes of their own that no capture names, so the model's
 * prediction is its mean over the draws; the `seeds` column prints the
 * range of the extra over them.
 *
 * Then E20's L1 capacity curve (capture/l1cap.csv, README "E20" and
 * "E20b"): a .ca chase over 160-320 KiB of 128-byte lines, warmed by 2n
 * hops in the same launch, random (Sattolo) and sequential cycles.  The
 * judged figure is the fraction of hops that miss, each side from its own
 * cycles between its 160 KiB row (every hop a hit) and its 320 KiB row
 * (every hop a miss), PASS within L1_TOL.  The model runs the same two
 * orders (gen chase --order seq, and the random order, a seeded random
 * cycle of any number of lines).  Since E41 the L1's data limit draws its
 * victims across sets (memory.l1.whole_tags, docs/memory.md "L1"), so the
 * orders differ, as on the chip.  Every row is marked fitted: that draw was
 * chosen among six candidate policies on these curves and E41's H100
 * walks together (validation/h100/README.md "E41").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "skewsim/gen.h"

#define EXTRA_TOL 2.5          /* cycles */
#define E20_SEEDS 4            /* model figures: the mean over this many seeds */
#define L1_TOL 0.10            /* fraction of hops that miss L1 */
#define L1_ROWS 16
#define MAX_ROWS 128
#define BASE_STRIDE 2097152ll  /* the base row: 2 MiB apart ... */
#define BASE_N 128             /* ... 128 pages, 256 MiB */

/* Cycles per timed hop of kernels k[0..nk-1] run in one trace (the last
 * CTA is the timed one), on SM on_sm: where the chip's chase ran, which
 * each capture row records (e11_on_sm). */
static int timed_cycles(const cfg *c, kernel *k, int nk, long hops, int on_sm, double *cyc, sk_error *e)
{
    e11_on_sm(c, k, nk, on_sm);
    char path[] = "/tmp/skewsim-e20-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return sk_errorf(e, SK_EIO, "validate: cannot make a temporary file");
    close(fd);
    int rc = 0;
    trace_writer *w = trace_writer_open(path, 0, e);
    if (!w) {
        unlink(path);
        return e->code;
    }
    for (int i = 0; i < nk && rc == 0; i++)
        rc = trace_writer_kernel(w, &k[i], NULL, NULL, e);
    sk_error ign = {0, ""};
    if (trace_writer_close(w, rc == 0 ? e : &ign) < 0 && rc == 0)
        rc = e->code;
    if (rc == 0) {
        trace *tr = trace_open(path, e);
        results *r = tr ? run_simulate(c, tr, e) : NULL;
        if (tr)
            trace_close(tr);
        if (!r) {
            rc = e->code;
        } else {
            size_t n = results_nctas(r);
            *cyc = n == (size_t)nk ? (double)results_cta(r, n - 1)->cycles / (double)hops : NAN;
            results_free(r);
        }
    }
    unlink(path);
    return rc;
}

/* E20's chase: n elements `stride` apart, warmed in the same launch. */
static int probe_cycles(const cfg *c, long long stride, long n, int on_sm, double *cyc, sk_error *e);

/* The same run at sim.seed, seed + 1, ... (E20_SEEDS of them) into v[]:
 * kind 0 E20's chase (probe_cycles), 1 E11's DRAM chase (e11_cycles). */
static int e11_cycles(const cfg *c, long long bytes, long hops, int cg, int on_sm, double *cyc, sk_error *e);
static int seeds_cycles(const cfg *c, int kind, long long a, long n, int cg, int on_sm, double *v, sk_error *e)
{
    for (int j = 0; j < E20_SEEDS; j++) {
        cfg cj = *c;
        cj.seed = c->seed + (uint64_t)j;
        int rc = kind ? e11_cycles(&cj, a, n, cg, on_sm, &v[j], e) : probe_cycles(&cj, a, n, on_sm, &v[j], e);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static double mean_of(const double *v)
{
    double s = 0;
    for (int j = 0; j < E20_SEEDS; j++)
        s += v[j];
    return s / E20_SEEDS;
}

/* The range over the seeds of v[j] - base[j] (one seed's extra). */
static double range_of(const double *v, const double *base)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j < E20_SEEDS; j++) {
        lo = SK_MIN(lo, v[j] - base[j]);
        hi = SK_MAX(hi, v[j] - base[j]);
    }
    return hi - lo;
}

/* L1 TLB misses per timed hop of E20's chase on c: the hop's time with
 * memory.tlb.l2_hit_ps at FIT_PS less at 0 (a lone dependent chase waits
 * out every miss in full), over FIT_PS in cycles. */
#define FIT_PS 10000
static int probe_misses(const cfg *c0, long long stride, long n, int on_sm, double *m, sk_error *e)
{
    cfg c = *c0;
    double y[2] = {NAN, NAN};
    for (int k = 0; k < 2; k++) {
        c.tlb_l2_hit_ps = k ? FIT_PS : 0;
        int rc = probe_cycles(&c, stride, n, on_sm, &y[k], e);
        if (rc < 0)
            return rc;
    }
    *m = (y[1] - y[0]) / (FIT_PS * 1e-6 * c.sm_mhz);
    return 0;
}

static int probe_cycles(const cfg *c, long long stride, long n, int on_sm, double *cyc, sk_error *e)
{
    kernel k;
    long hops = 4096, warm = n > 4096 ? n : 4096;
    if (gen_chase_stride(&k, stride * n, hops, 1, warm, 1, (long)stride, GEN_CHASE_SPREAD, e) < 0)
        return e->code;
    int rc = timed_cycles(c, &k, 1, hops, on_sm, cyc, e);
    kernel_free(&k);
    return rc;
}

/* E11's DRAM chase: a cold launch of 4096 hops of its random line cycle. */
static int e11_cycles(const cfg *c, long long bytes, long hops, int cg, int on_sm, double *cyc, sk_error *e)
{
    kernel k;
    if (gen_chase(&k, bytes, hops, 1, 0, cg, e) < 0)
        return e->code;
    int rc = timed_cycles(c, &k, 1, hops, on_sm, cyc, e);
    kernel_free(&k);
    return rc;
}

enum { PREDICTED, FITTED, BASE };

static void extra_row(const char *what, double chip, double chip_x, double model, double model_x,
                      double seeds, int kind, int *fails)
{
    static const char *const kinds[] = {"predicted", "fitted", "base"};
    double d = model_x - chip_x;
    int ok = fabs(d) <= EXTRA_TOL;
    printf("%-6s %-28s %8.1f %8.1f %+7.1f %+7.1f %+6.1f %6.1f  %s\n", kind ? "info" : (ok ? "PASS" : "FAIL"),
           what, chip, model, chip_x, model_x, d, seeds, kinds[kind]);
    if (kind == PREDICTED && !ok)
        (*fails)++;
}

typedef struct e20_row {
    long long stride;
    long n;
    int sm;             /* the chip's SM (the row's first launch's) */
    double sum;
    int cnt;
} e20_row;

static const char *size_name(long long b, char *buf, size_t cap)
{
    if (b >= 1ll << 30)
        snprintf(buf, cap, "%lld GiB", b >> 30);
    else if (b >= 1ll << 20)
        snprintf(buf, cap, "%lld MiB", b >> 20);
    else
        snprintf(buf, cap, "%lld KiB", b >> 10);
    return buf;
}

/* E20's L1 chase: n lines in order (seq) or in a random cycle, warmed by 2n
 * hops in the same launch. */
static int l1cap_cycles(const cfg *c, long n, int seq, int on_sm, double *cyc, sk_error *e)
{
    kernel k;
    long hops = 4096;
    if (gen_chase_stride(&k, (long long)n * 128, hops, 1, 2 * n, 0, 128, seq ? GEN_CHASE_SEQ : GEN_CHASE_RANDOM,
                         e) < 0)
        return e->code;
    int rc = timed_cycles(c, &k, 1, hops, on_sm, cyc, e);
    kernel_free(&k);
    return rc;
}

typedef struct l1cap_row {
    long kib;
    int sm;             /* the chip's SM (the row's first launch's) */
    double seq, rnd;    /* chip cycles a hop; NAN where not measured */
} l1cap_row;

static int validate_l1cap(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/capture/l1cap.csv", dir);
    if (access(path, R_OK) != 0)
        return 0;      /* a capture without E20's L1 probe: the section is not run */
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    l1cap_row rows[L1_ROWS];
    int nr = 0;
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        char order[32];
        long kib, smid;
        double cyc;
        if (sscanf(line, "%31[^,],%ld,%lf,%ld", order, &kib, &cyc, &smid) != 4)
            continue;
        int seq = !strcmp(order, "sequential");
        if (!seq && strcmp(order, "random"))
            continue;      /* the lcg row: one size, the random rows' order class */
        int i = 0;
        while (i < nr && rows[i].kib != kib)
            i++;
        if (i == nr) {
            if (nr == L1_ROWS)
                continue;
            rows[nr++] = (l1cap_row){kib, (int)smid, NAN, NAN};
        }
        *(seq ? &rows[i].seq : &rows[i].rnd) = cyc;
    }
    fclose(f);
    int lo = -1, hi = -1;
    for (int i = 0; i < nr; i++) {
        if (lo < 0 || rows[i].kib < rows[lo].kib)
            lo = i;
        if (hi < 0 || rows[i].kib > rows[hi].kib)
            hi = i;
    }
    if (lo < 0 || lo == hi || isnan(rows[lo].rnd) || isnan(rows[hi].rnd))
        return sk_errorf(e, SK_EIO, "%s: expected random rows at two sizes at least (the all-hit and "
                         "all-miss bases)", path);
    double model[2][L1_ROWS];
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nr; i++) {
            int rc = l1cap_cycles(c, rows[i].kib * 1024 / 128, pass, rows[i].sm, &model[pass][i], e);
            if (rc < 0)
                return rc;
        }
    double ch0 = rows[lo].rnd, ch1 = rows[hi].rnd, m0 = model[0][lo], m1 = model[0][hi];
    printf("\nE20 L1 capacity (memory.l1.*): .ca chase warmed in its launch, fraction of hops that miss L1;"
           "\neach side's own %ld KiB row = 0 (all hit: %.1f / %.1f cycles), %ld KiB = 1 (all miss: %.1f / %.1f)\n",
           rows[lo].kib, ch0, m0, rows[hi].kib, ch1, m1);
    printf("%-6s %-28s %8s %8s %7s\n", "", "order, KiB (lines)", "chip", "model", "diff");
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < nr; i++) {
            double chip = pass ? rows[i].seq : rows[i].rnd;
            if (isnan(chip) || ((i == lo || i == hi) && !pass))
                continue;
            double fc = (chip - ch0) / (ch1 - ch0), fm = (model[pass][i] - m0) / (m1 - m0), d = fm - fc;
            int ok = fabs(d) <= L1_TOL;
            char what[64];
            snprintf(what, sizeof what, "%s %ld (%ld)", pass ? "sequential" : "random", rows[i].kib,
                     rows[i].kib * 8);
            printf("%-6s %-28s %8.2f %8.2f %+7.2f  fitted\n", ok ? "PASS" : "FAIL", what, fc, fm, d);
            if (!ok)
                (*fails)++;
        }
    return 0;
}

int validate_e20(const cfg *c0, const char *dir, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/capture/tlb.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    e20_row rows[MAX_ROWS];
    int nr = 0;
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        long long stride, span;
        long n, smid;
        double cyc;
        if (sscanf(line, "%lld,%ld,%lld,%lf,%ld", &stride, &n, &span, &cyc, &smid) != 5)
            continue;
        int i = 0;
        while (i < nr && !(rows[i].stride == stride && rows[i].n == n))
            i++;
        if (i == nr) {
            if (nr == MAX_ROWS)
                continue;
            rows[nr++] = (e20_row){stride, n, (int)smid, 0, 0};
        }
        rows[i].sum += cyc;    /* the launches of one case, averaged */
        rows[i].cnt++;
    }
    fclose(f);

    printf("\nE20 address translation (memory.tlb.enabled=%d): .cg chase of L2-resident elements, cycles a hop;"
           "\nextra = above the 2 MiB x %d row (256 MiB, every translation a hit), chip and model each their own;"
           "\nmodel: the mean over sim.seed %llu-%llu (its routes' draws), seeds: the range of model+ over them\n",
           c.tlb_enabled, BASE_N, (unsigned long long)c.seed, (unsigned long long)(c.seed + E20_SEEDS - 1));
    printf("%-6s %-28s %8s %8s %7s %7s %6s %6s\n", "", "stride x elements (span)", "chip", "model", "chip+",
           "model+", "diff", "seeds");
    double chip_base = NAN, model_base = NAN, fit_xm = 0, fit_mm = 0, base_v[E20_SEEDS];
    int skipped = 0, rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++)
        for (int i = 0; i < nr && rc == 0; i++) {
            e20_row *r = &rows[i];
            int base = r->stride == BASE_STRIDE && r->n == BASE_N;
            if (pass == 0 ? !base : base)
                continue;
            if (r->stride < (long long)c.tlb_page_bytes) {
                skipped += pass;
                continue;
            }
            double chip = r->sum / r->cnt, v[E20_SEEDS];
            if ((rc = seeds_cycles(&c, 0, r->stride, r->n, 0, r->sm, v, e)) < 0)
                break;
            double model = mean_of(v);
            if (base) {
                chip_base = chip;
                model_base = model;
                memcpy(base_v, v, sizeof base_v);
            }
            char what[64], sz[2][24];
            snprintf(what, sizeof what, "%s x %ld (%s)", size_name(r->stride, sz[0], sizeof sz[0]), r->n,
                     size_name(r->stride * r->n, sz[1], sizeof sz[1]));
            int kind = base ? BASE : r->stride == BASE_STRIDE || r->n <= 32 ? FITTED : PREDICTED;
            extra_row(what, chip, chip - chip_base, model, model - model_base, range_of(v, base_v), kind, fails);
            /* the 2 MiB rows past the reach set memory.tlb.l2_hit_ps:
             * least squares of the chip's extra over the model's misses */
            double m;
            if (c.tlb_enabled && r->stride == BASE_STRIDE && r->n > BASE_N) {
                if ((rc = probe_misses(&c, r->stride, r->n, r->sm, &m, e)) < 0)
                    break;
                fit_xm += (chip - chip_base) * m;
                fit_mm += m * m;
            }
        }
    if (rc < 0)
        return rc;
    if (isnan(chip_base))
        return sk_errorf(e, SK_EIO, "%s: no row of %lld-byte stride and %d elements (the base)", path,
                         BASE_STRIDE, BASE_N);
    if (fit_mm > 0)
        printf("       fit: memory.tlb.l2_hit_ps = %.0f ps (%.2f cycles at %d MHz) from the 2 MiB rows past %d "
               "pages; the config has %d\n", fit_xm / fit_mm / (1e-6 * c.sm_mhz), fit_xm / fit_mm, c.sm_mhz,
               BASE_N, c.tlb_l2_hit_ps);
    if (skipped)
        printf("       (%d rows of strides below memory.tlb.page_bytes not simulated: several elements a page "
               "in a random order, which gen chase cannot express)\n", skipped);

    /* E11's DRAM chases, cold, 4096 hops: their rise over the 128 MiB row */
    snprintf(path, sizeof path, "%s/capture/chase.csv", dir);
    f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    printf("\nE11 DRAM chase, rise over its 128 MiB row (cycles a hop; the rise E11 laid to translation);"
           "\nmodel: the mean over the same seeds (its routes' and refresh windows' draws)\n");
    double cb[2] = {NAN, NAN}, mb[2] = {NAN, NAN}, mbv[2][E20_SEEDS];
    e11_chase_row ch;
    while (rc == 0 && e11_chase_next(f, &ch)) {
        if (ch.bytes < 128ll << 20 || ch.warm)
            continue;
        long long bytes = ch.bytes;
        const char *mode = ch.mode;
        long hops = ch.hops;
        double cyc = ch.cycles;
        int cg = ch.cg;
        double v[E20_SEEDS];
        if ((rc = seeds_cycles(&c, 1, bytes, hops, cg, ch.sm, v, e)) < 0)
            break;
        double model = mean_of(v);
        if (bytes == 128ll << 20) {
            cb[cg] = cyc;
            mb[cg] = model;
            memcpy(mbv[cg], v, sizeof mbv[cg]);
        }
        char what[64], sz[24];
        snprintf(what, sizeof what, "%s %s", mode, size_name(bytes, sz, sizeof sz));
        extra_row(what, cyc, cyc - cb[cg], model, model - mb[cg], isnan(mb[cg]) ? NAN : range_of(v, mbv[cg]),
                  bytes == 128ll << 20 ? BASE : PREDICTED, fails);
    }
    fclose(f);
    if (rc < 0)
        return rc;
    return validate_l1cap(&c, dir, fails, e);
}
