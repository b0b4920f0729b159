/* validate_e30.c -- how a sub-partition feeds shared memory, against E30
 * (tools/capture/cap_lds.cu; validation/h100/lds, README "E30").
 *
 * cap_lds runs E16's smem_kernel loop (two LDS and one STS of 128 bytes a
 * warp an iteration, 12 instructions) on one CTA of 1024 threads an SM,
 * with N of each sub-partition's 8 warps running it (the others wait at
 * the closing barrier), or two such CTAs an SM; thread 0 times the loop
 * with clock64().  The chip's figure is the median over CTAs and reps of
 * those cycles (lds*.csv.gz, op smemk, mask f: all four sub-partitions).
 *
 * Simulated as `gen unit --op smem` (cap_power.cu's smem_kernel listing:
 * the same loop, compiled in another program, so its instruction order
 * and stall counts differ a little) with 128 N threads a CTA and as many
 * CTAs as the chip ran; the loop's cycles are the difference of the
 * median CTA cycles at 2 I and I iterations (I the chip's), which leaves
 * out the fill of the array and the record.  One warp a sub-partition
 * measures the loop's latency; 4 and 8 are where its LD/ST pipe (one
 * access in 4 cycles a sub-partition: the sts32 rows) and its issue port
 * (12 instructions an iteration) both nearly saturate, and they are the
 * rows units.ldst.queue was chosen on (fitted); 1 and 2 warps, and 16
 * (two CTAs an SM, where a capture has them), are predicted.  Of the rate
 * loops, LDS.128 from one warp in sub-partition 0, two there, and one in
 * each of two are the rows memory.smem_warp_wf_cycles was chosen on
 * (fitted); the rest are predicted.  Measured numbers are read from the
 * capture, never written here.
 */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "cli.h"
#include "skewsim/gen.h"
#include "skewsim/sass.h"

#define E30_TOL 0.10
#define E30_MAXW 8    /* warps a sub-partition in a CTA of 1024 threads */
#define E30_MAXK 2    /* CTAs an SM */
#define E30_MAXV 65536
#define E30_MAX_ITERS (1L << 20)   /* the chip ran 2048; bounds the simulation */

typedef struct {
    double *v;      /* every CTA's cycles of every rep */
    size_t n, cap;
    long iters;
} e30_cell;

/* The column of name in a CSV header line (-1: none). */
static int column(const char *hdr, const char *name)
{
    size_t n = strlen(name);
    int i = 0;
    for (const char *p = hdr; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL, i++)
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\n' || p[n] == '\r' || p[n] == '\0'))
            return i;
    return -1;
}

/* Field i of a CSV line into buf (empty when absent). */
static void field(const char *line, int i, char *buf, size_t n)
{
    const char *p = line;
    while (i-- > 0 && p)
        p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    size_t k = p ? strcspn(p, ",\r\n") : 0;
    if (k >= n)
        k = n - 1;
    memcpy(buf, p ? p : "", k);
    buf[k] = '\0';
}

/* The kernels: smemk (smem_kernel's loop, all four sub-partitions) and
 * the rate loops of gen lds (gen_lds_ops, each sub-partition mask), and
 * the masks cap_lds runs: sub-partition 0, 0 and 1, all four. */
#define E30_NOPS 5
#define E30_NMASK 3
static const char *const e30_ops[E30_NOPS] = { "smemk", "lds32", "lds32c2", "lds128", "sts32" };
static const int e30_per_iter[E30_NOPS] = { 3, 16, 16, 8, 16 };   /* accesses an iteration */
static const char *const e30_masks[E30_NMASK] = { "1", "3", "f" };
typedef e30_cell e30_cells[E30_NOPS][E30_NMASK][E30_MAXW + 1][E30_MAXK + 1];

static const char *const e30_mnemonic[E30_NOPS] = { NULL, "LDS", "LDS", "LDS.128", "STS" };

/* Which rate loops of the capture at path (lds_TAG.csv.gz) gen lds stands
 * for: bit op of *ok set when the capture's listing (cap_lds_TAG.sass.gz
 * beside it) has lds<op - 1> issue at least the loop's accesses an
 * iteration.  A build whose compiler hoisted the loads out of the loop
 * (board m's plain ld.shared: 8 LDS where the loop has 16) ran another
 * kernel; without a listing none is taken.  A listing that cannot be read
 * is an error (0 or the error's code). */
static int rate_ops(const char *path, unsigned *ok, sk_error *e)
{
    *ok = 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t blen = strlen(base);
    if (strncmp(base, "lds_", 4) || blen < 4 + 7 || strcmp(base + blen - 7, ".csv.gz"))
        return 0;
    /* DIR/cap_lds_TAG.sass.gz for DIR/lds_TAG.csv.gz */
    size_t n = strlen(path) + 32;
    char *sp = xmalloc(n);
    snprintf(sp, n, "%.*scap_lds_%.*s.sass.gz", (int)(base - path), path, (int)(blen - 4 - 7), base + 4);
    if (access(sp, R_OK) != 0) {
        free(sp);
        return 0;
    }
    sass *s = sass_load(sp, e);
    free(sp);
    if (!s)
        return e->code;
    for (int op = 1; op < E30_NOPS; op++) {
        char name[64];
        snprintf(name, sizeof name, "_Z3ldsILi%dEEvPmPjPfjji", op - 1);
        int fn = sass_function(s, name, 90);
        size_t ni = 0;
        const sass_instr *code = fn >= 0 ? sass_code(s, fn, &ni) : NULL;
        int count = 0;
        for (size_t i = 0; i < ni; i++)
            count += strcmp(code[i].op, e30_mnemonic[op]) == 0;
        if (count >= e30_per_iter[op])
            *ok |= 1u << op;
    }
    sass_free(s);
    return 0;
}

/* Add path's rows to cell[op][mask][nper][per_sm]: smemk's, and the rate
 * loops' that rate_ops takes. */
static int read_lds(const char *path, e30_cells cell, sk_error *e)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    char line[512];
    long lineno = 0;
    int c_op = -1, c_mask = -1, c_nper = -1, c_k = -1, c_ops = -1, c_cyc = -1;
    unsigned rates = 0;
    int rc = rate_ops(path, &rates, e);
    if (rc < 0) {
        gzclose(f);
        return rc;
    }
    while (rc == 0 && gzgets(f, line, sizeof line)) {
        lineno++;
        if (!strchr(line, '\n') && !gzeof(f)) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: a line longer than %zu characters: expected cap_lds's rows", path,
                           lineno, sizeof line - 2);
            break;
        }
        if (lineno == 1) {
            c_op = column(line, "op");
            c_mask = column(line, "mask");
            c_nper = column(line, "nper");
            c_k = column(line, "per_sm");   /* absent in the first run: one CTA an SM */
            c_ops = column(line, "ops");
            c_cyc = column(line, "cycles");
            if (c_op < 0 || c_mask < 0 || c_nper < 0 || c_ops < 0 || c_cyc < 0)
                rc = sk_errorf(e, SK_EIO, "%s:1: expected a header with op, mask, nper, ops and cycles", path);
            continue;
        }
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        char op[32], mask[16], buf[32];
        field(line, c_op, op, sizeof op);
        field(line, c_mask, mask, sizeof mask);
        int oi = 0, mi = 0;
        while (oi < E30_NOPS && strcmp(op, e30_ops[oi]))
            oi++;
        while (mi < E30_NMASK && strcmp(mask, e30_masks[mi]))
            mi++;
        if (oi == E30_NOPS || mi == E30_NMASK || (oi == 0 && mi != E30_NMASK - 1) || (oi > 0 && !(rates >> oi & 1)))
            continue;
        const long per = e30_per_iter[oi];
        char *end;
        int bad = 0;
        field(line, c_nper, buf, sizeof buf);
        long nper = strtol(buf, &end, 10);
        bad |= !*buf || *end;
        long k = 1;
        if (c_k >= 0) {
            field(line, c_k, buf, sizeof buf);
            k = strtol(buf, &end, 10);
            bad |= !*buf || *end;
        }
        field(line, c_ops, buf, sizeof buf);
        long ops = strtol(buf, &end, 10);
        bad |= !*buf || *end;
        field(line, c_cyc, buf, sizeof buf);
        double cyc = strtod(buf, &end);
        bad |= !*buf || *end;
        if (bad || nper < 1 || nper > E30_MAXW || k < 1 || k > E30_MAXK || ops < per || ops % per ||
            ops / per > E30_MAX_ITERS || !(cyc > 0) || cyc > 1e12) {
            line[strcspn(line, "\r\n")] = '\0';
            rc = sk_errorf(e, SK_EIO,
                           "%s:%ld: '%s': expected nper 1-%d, per_sm 1-%d, ops a multiple of %ld in %ld..%ld and "
                           "cycles 1..1e12",
                           path, lineno, line, E30_MAXW, E30_MAXK, per, per, per * E30_MAX_ITERS);
            break;
        }
        e30_cell *x = &cell[oi][mi][nper][k];
        if (x->n && x->iters != ops / per) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: ops %ld (%ld iterations): expected %ld, as earlier rows of %s nper %ld",
                           path, lineno, ops, ops / per, per * x->iters, op, nper);
            break;
        }
        if (x->n == x->cap) {
            if (x->cap >= E30_MAXV) {
                rc = sk_errorf(e, SK_EIO, "%s:%ld: more than %d rows of one case", path, lineno, E30_MAXV);
                break;
            }
            x->cap = x->cap ? 2 * x->cap : 256;
            x->v = xrealloc(x->v, x->cap * sizeof *x->v);
        }
        x->iters = ops / per;
        x->v[x->n++] = cyc;
    }
    rc = e11_gz_close(f, path, lineno, rc, e);
    return rc;
}

/* The median CTA's cycles of op (e30_ops) at iters: smem_kernel with 128
 * nper threads a CTA, or gen lds with nper warps of the sub-partitions in
 * mask (e30_masks); grid CTAs. */
static int sim_cycles(const cfg *c, int op, int mask, long iters, long nper, long grid, double *cyc,
                      sk_error *e)
{
    kernel k;
    if (op == 0 ? gen_unit(&k, 2, iters, 128 * nper, grid, e) < 0     /* gen_unit_ops[2]: smem */
                : gen_lds(&k, op - 1, iters, nper, mask == 0 ? 1 : mask == 1 ? 2 : 4, grid, e) < 0)
        return e->code;
    results *r = NULL;
    int rc = e11_simulate(c, &k, 1, &r, e);
    kernel_free(&k);
    if (rc < 0)
        return rc;
    size_t n = results_nctas(r);
    double *v = xcalloc(n ? n : 1, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (double)results_cta(r, i)->cycles;
    *cyc = n ? e11_median(v, n) : NAN;
    free(v);
    results_free(r);
    return 0;
}

int validate_e30_has_capture(const char *dir)
{
    char pat[4096];
    snprintf(pat, sizeof pat, "%s/lds/lds_*.csv.gz", dir);
    glob_t g;
    int n = glob(pat, 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
    globfree(&g);
    return n > 0;
}

int validate_e30(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    e30_cell (*cell)[E30_NMASK][E30_MAXW + 1][E30_MAXK + 1] = xcalloc(1, sizeof(e30_cells));
    char pat[4096];
    snprintf(pat, sizeof pat, "%s/lds/lds_*.csv.gz", dir);
    glob_t g;
    int rc = 0;
    if (glob(pat, 0, NULL, &g) != 0) {
        globfree(&g);
        free(cell);
        return sk_errorf(e, SK_EIO, "%s: no capture (tools/capture/cap_lds DIR)", pat);
    }
    for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
        rc = read_lds(g.gl_pathv[i], cell, e);
    globfree(&g);
    if (rc == 0) {
        printf("\nE30 shared memory's issue path: E16's smem_kernel loop, N warps in each sub-partition "
               "(cycles of the loop)\n");
        int nsm = cfg_num_sms(c);
        for (int k = 1; k <= E30_MAXK && rc == 0; k++)
            for (int w = 1; w <= E30_MAXW && rc == 0; w++) {
                e30_cell *x = &cell[0][E30_NMASK - 1][w][k];
                if (!x->n)
                    continue;
                double meas = e11_median(x->v, x->n), a = NAN, b = NAN;
                if ((rc = sim_cycles(c, 0, E30_NMASK - 1, x->iters, w, (long)nsm * k, &a, e)) < 0 ||
                    (rc = sim_cycles(c, 0, E30_NMASK - 1, 2 * x->iters, w, (long)nsm * k, &b, e)) < 0)
                    break;
                char what[64];
                snprintf(what, sizeof what, "smemk %d warp%s/SMSP%s", w * k, w * k > 1 ? "s" : "",
                         k > 1 ? " (2 CTAs)" : "");
                e11_row(what, meas, b - a, "cyc", k == 1 && (w == 4 || w == 8), E30_TOL, fails);
            }
        /* The rate loops, one CTA an SM: shared memory is the SM's own, so
         * one SM simulates what each of the chip's 132 ran */
        int head = 0;
        for (int op = 1; op < E30_NOPS && rc == 0; op++)
            for (int mi = 0; mi < E30_NMASK && rc == 0; mi++)
                for (int w = 1; w <= E30_MAXW && rc == 0; w++) {
                    e30_cell *x = &cell[op][mi][w][1];
                    if (!x->n)
                        continue;
                    if (!head++)
                        printf("\nE30 shared memory's rates: cap_lds's loops (gen lds), N warps in the "
                               "sub-partitions of mask 1 (SMSP 0), 3 (0, 1) or f (all) (cycles of the loop)\n");
                    double meas = e11_median(x->v, x->n), a = NAN, b = NAN;
                    if ((rc = sim_cycles(c, op, mi, x->iters, w, 1, &a, e)) < 0 ||
                        (rc = sim_cycles(c, op, mi, 2 * x->iters, w, 1, &b, e)) < 0)
                        break;
                    char what[64];
                    snprintf(what, sizeof what, "%s mask %s %d warp%s/SMSP", e30_ops[op], e30_masks[mi], w,
                             w > 1 ? "s" : "");
                    /* memory.smem_warp_wf_cycles was chosen on the
                     * LDS.128 loops of one warp in one or two
                     * sub-partitions and two warps in one (fitted) */
                    int fit = !strcmp(e30_ops[op], "lds128") &&
                              ((!strcmp(e30_masks[mi], "1") && w <= 2) || (!strcmp(e30_masks[mi], "3") && w == 1));
                    e11_row(what, meas, b - a, "cyc", fit, E30_TOL, fails);
                }
    }
    for (int op = 0; op < E30_NOPS; op++)
        for (int mi = 0; mi < E30_NMASK; mi++)
            for (int w = 0; w <= E30_MAXW; w++)
                for (int k = 0; k <= E30_MAXK; k++)
                    free(cell[op][mi][w][k].v);
    free(cell);
    return rc;
}
