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
 * (two CTAs an SM, where a capture has them), are predicted.  Measured numbers are read from the capture, never written
 * here.
 */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "cli.h"
#include "skewsim/gen.h"

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

/* Add path's smemk rows (all four sub-partitions) to cell[nper][per_sm]. */
static int read_lds(const char *path, e30_cell cell[E30_MAXW + 1][E30_MAXK + 1], sk_error *e)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    char line[512];
    long lineno = 0;
    int c_op = -1, c_mask = -1, c_nper = -1, c_k = -1, c_ops = -1, c_cyc = -1;
    int rc = 0;
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
        if (strcmp(op, "smemk") || strcmp(mask, "f"))
            continue;
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
        if (bad || nper < 1 || nper > E30_MAXW || k < 1 || k > E30_MAXK || ops < 3 || ops % 3 ||
            ops / 3 > E30_MAX_ITERS || !(cyc > 0) || cyc > 1e12) {
            line[strcspn(line, "\r\n")] = '\0';
            rc = sk_errorf(e, SK_EIO,
                           "%s:%ld: '%s': expected nper 1-%d, per_sm 1-%d, ops a multiple of 3 in 3..%ld and "
                           "cycles 1..1e12",
                           path, lineno, line, E30_MAXW, E30_MAXK, 3 * E30_MAX_ITERS);
            break;
        }
        e30_cell *x = &cell[nper][k];
        if (x->n && x->iters != ops / 3) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: ops %ld (%ld iterations): expected %ld, as earlier rows of nper %ld",
                           path, lineno, ops, ops / 3, 3 * x->iters, nper);
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
        x->iters = ops / 3;
        x->v[x->n++] = cyc;
    }
    int zerr = 0;
    gzerror(f, &zerr);
    gzclose(f);
    if (rc == 0 && zerr < 0)
        rc = sk_errorf(e, SK_EIO, "%s:%ld: the gzip stream is damaged", path, lineno);
    return rc;
}

/* The median CTA's cycles of smem_kernel at iters, 128 nper threads a CTA,
 * grid CTAs. */
static int sim_cycles(const cfg *c, long iters, long nper, long grid, double *cyc, sk_error *e)
{
    kernel k;
    if (gen_unit(&k, 2, iters, 128 * nper, grid, e) < 0)   /* gen_unit_ops[2]: smem */
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
    e30_cell cell[E30_MAXW + 1][E30_MAXK + 1];
    memset(cell, 0, sizeof cell);
    char pat[4096];
    snprintf(pat, sizeof pat, "%s/lds/lds_*.csv.gz", dir);
    glob_t g;
    int rc = 0;
    if (glob(pat, 0, NULL, &g) != 0) {
        globfree(&g);
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
                e30_cell *x = &cell[w][k];
                if (!x->n)
                    continue;
                double meas = e11_median(x->v, x->n), a = NAN, b = NAN;
                if ((rc = sim_cycles(c, x->iters, w, (long)nsm * k, &a, e)) < 0 ||
                    (rc = sim_cycles(c, 2 * x->iters, w, (long)nsm * k, &b, e)) < 0)
                    break;
                char what[64];
                snprintf(what, sizeof what, "smemk %d warp%s/SMSP%s", w * k, w * k > 1 ? "s" : "",
                         k > 1 ? " (2 CTAs)" : "");
                e11_row(what, meas, b - a, "cyc", k == 1 && (w == 4 || w == 8), E30_TOL, fails);
            }
    }
    for (int w = 0; w <= E30_MAXW; w++)
        for (int k = 0; k <= E30_MAXK; k++)
            free(cell[w][k].v);
    return rc;
}
