/* validate_e31.c -- which warp a sub-partition serves when more are ready
 * than it issues, against E31 (tools/capture/cap_worder.cu;
 * validation/h100/worder, README "E31").
 *
 * cap_worder runs worder<CH> (CH independent FFMA chains a warp) on CTAs
 * of B threads, K an SM, and every warp's lane 0 times its own loop with
 * clock64().  The judged figure: warp 0's loop cycles in each CTA, by the
 * CTA's rank among its SM's CTAs (launch order, CTA index), the median
 * over SMs and reps (worder.csv.gz).  Warp 0 is its CTA's oldest warp: a
 * greedy-then-oldest scheduler finishes it first, a round-robin one with
 * the rest; an oldest-CTA-first one finishes the first CTA as if alone.
 * Simulated as `gen worder` (the listing's path) with the same CTAs, the
 * model's CTA cycles being warp 0's clock marks.  Every row is predicted:
 * no parameter was chosen on this capture.  Measured numbers are read
 * from the capture, never written here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "cli.h"
#include "skewsim/gen.h"

#define E31_TOL 0.10
#define E31_MAXK 8       /* CTAs an SM */
#define E31_NCFG 16
#define E31_MAXSM 1024
#define E31_MAXV (1 << 20)

typedef struct {
    int ch, block, per_sm;
    double *v[E31_MAXK];      /* warp 0's cycles by CTA rank */
    size_t n[E31_MAXK], cap[E31_MAXK];
} e31_cfg;

/* one warp-0 row: its config, rep, SM, CTA and loop cycles */
typedef struct {
    int cfg;
    long rep, sm, cta;
    double cyc;
} e31_row;

static int cfg_of(e31_cfg *cf, int *ncfg, int ch, int block, int per_sm)
{
    for (int i = 0; i < *ncfg; i++)
        if (cf[i].ch == ch && cf[i].block == block && cf[i].per_sm == per_sm)
            return i;
    if (*ncfg == E31_NCFG)
        return -1;
    memset(&cf[*ncfg], 0, sizeof cf[*ncfg]);
    cf[*ncfg].ch = ch;
    cf[*ncfg].block = block;
    cf[*ncfg].per_sm = per_sm;
    return (*ncfg)++;
}

static void push(e31_cfg *x, int k, double v)
{
    if (x->n[k] == x->cap[k]) {
        x->cap[k] = x->cap[k] ? 2 * x->cap[k] : 256;
        x->v[k] = xrealloc(x->v[k], x->cap[k] * sizeof *x->v[k]);
    }
    x->v[k][x->n[k]++] = v;
}

static int row_cmp(const void *pa, const void *pb)
{
    const e31_row *a = pa, *b = pb;
    if (a->cfg != b->cfg)
        return a->cfg < b->cfg ? -1 : 1;
    if (a->rep != b->rep)
        return a->rep < b->rep ? -1 : 1;
    if (a->sm != b->sm)
        return a->sm < b->sm ? -1 : 1;
    return a->cta < b->cta ? -1 : a->cta > b->cta;
}

/* Read worder.csv.gz's warp-0 rows, then rank each (config, rep, SM)'s
 * CTAs by index: every such group must hold exactly the config's CTAs an
 * SM, each once. */
static int read_worder(const char *path, e31_cfg *cf, int *ncfg, sk_error *e)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: no capture (tools/capture/cap_worder DIR)", path);
    e31_row *rows = NULL;
    size_t nrows = 0, cap = 0;
    char line[512];
    long lineno = 0;
    int rc = 0;
    while (rc == 0 && gzgets(f, line, sizeof line)) {
        lineno++;
        if (lineno == 1) {
            if (strncmp(line, "kernel,ch,block,per_sm,rep,cta,warp,sm,c0,c1", 44))
                rc = sk_errorf(e, SK_EIO, "%s:1: expected the header kernel,ch,block,per_sm,rep,cta,warp,sm,c0,c1",
                               path);
            continue;
        }
        if (line[strspn(line, " \t\r\n")] == '\0')
            continue;
        long ch, block, per_sm, rep, cta, wp, smi;
        unsigned long long c0, c1;
        char kname[64];
        int end = -1;
        if (sscanf(line, "%63[^,],%ld,%ld,%ld,%ld,%ld,%ld,%ld,%llu,%llu%n", kname, &ch, &block, &per_sm, &rep, &cta,
                   &wp, &smi, &c0, &c1, &end) != 10 ||
            line[end + (int)strspn(line + end, " \t\r\n")] != '\0' || (ch != 1 && ch != 2 && ch != 4) ||
            block < 32 || block > 1024 || block % 32 || per_sm < 1 || per_sm > E31_MAXK || rep < 0 ||
            rep > 1000000 || cta < 0 || cta >= (1L << 24) || wp < 0 || wp >= 32 || smi < 0 || smi >= E31_MAXSM ||
            c1 <= c0 || c1 - c0 > 1000000000000ull) {
            line[strcspn(line, "\r\n")] = '\0';
            rc = sk_errorf(e, SK_EIO,
                           "%s:%ld: '%s': expected kernel,ch,block,per_sm,rep,cta,warp,sm,c0,c1 with ch 1, 2 or 4, "
                           "block a multiple of 32 in 32..1024, per_sm 1-%d, rep 0-1000000, cta below 2^24, warp "
                           "0-31, sm 0-%d and c1 - c0 in 1..1e12",
                           path, lineno, line, E31_MAXK, E31_MAXSM - 1);
            break;
        }
        if (wp != 0)
            continue;
        int ci = cfg_of(cf, ncfg, (int)ch, (int)block, (int)per_sm);
        if (ci < 0) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: more than %d configurations", path, lineno, E31_NCFG);
            break;
        }
        if (nrows == cap) {
            if (cap >= E31_MAXV) {
                rc = sk_errorf(e, SK_EIO, "%s:%ld: more than %d warp-0 rows", path, lineno, E31_MAXV);
                break;
            }
            cap = cap ? 2 * cap : 1024;
            rows = xrealloc(rows, cap * sizeof *rows);
        }
        rows[nrows++] = (e31_row){ci, rep, smi, cta, (double)(c1 - c0)};
    }
    rc = e11_gz_close(f, path, lineno, rc, e);
    if (rc == 0 && nrows == 0)
        rc = sk_errorf(e, SK_EIO, "%s: no warp-0 rows: expected cap_worder's capture", path);
    if (rc == 0) {
        qsort(rows, nrows, sizeof *rows, row_cmp);
        for (size_t i = 0; i < nrows && rc == 0;) {
            size_t j = i;
            while (j < nrows && rows[j].cfg == rows[i].cfg && rows[j].rep == rows[i].rep && rows[j].sm == rows[i].sm)
                j++;
            e31_cfg *x = &cf[rows[i].cfg];
            for (size_t k = i + 1; k < j && rc == 0; k++)
                if (rows[k].cta == rows[k - 1].cta)
                    rc = sk_errorf(e, SK_EIO, "%s: CTA %ld's warp 0 twice in rep %ld (ch %d, block %d)", path,
                                   rows[k].cta, rows[k].rep, x->ch, x->block);
            if (rc == 0 && j - i != (size_t)x->per_sm)
                rc = sk_errorf(e, SK_EIO, "%s: SM %ld in rep %ld of ch %d, block %d, per_sm %d: %zu CTAs, expected %d",
                               path, rows[i].sm, rows[i].rep, x->ch, x->block, x->per_sm, j - i, x->per_sm);
            for (size_t k = i; k < j && rc == 0; k++)
                push(x, (int)(k - i), rows[k].cyc);
            i = j;
        }
    }
    free(rows);
    return rc;
}

int validate_e31_has_capture(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/worder/worder.csv.gz", dir);
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    return f != NULL;
}

int validate_e31(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/worder/worder.csv.gz", dir);
    e31_cfg cf[E31_NCFG];
    int ncfg = 0;
    int rc = read_worder(path, cf, &ncfg, e);
    if (rc == 0) {
        printf("\nE31 which warp a sub-partition serves: warp 0's loop cycles in each CTA by its rank on the SM, "
               "CH FFMA chains a warp, CTAs of B threads, K an SM\n");
        int nsm = cfg_num_sms(c);
        for (int i = 0; i < ncfg && rc == 0; i++) {
            e31_cfg *x = &cf[i];
            static const int chi[5] = { -1, 0, 1, -1, 2 };   /* gen_worder_chs */
            kernel k;
            if ((rc = gen_worder(&k, chi[x->ch], 4096, x->block, (long)nsm * x->per_sm, e)) < 0)
                break;
            results *r = NULL;
            rc = e11_simulate(c, &k, 1, &r, e);
            kernel_free(&k);
            if (rc < 0)
                break;
            /* the model's CTAs, ranked on their SMs the same way */
            size_t n = results_nctas(r);
            double *sv[E31_MAXK];
            size_t sn[E31_MAXK] = {0};
            for (int q = 0; q < E31_MAXK; q++)
                sv[q] = xcalloc(n ? n : 1, sizeof *sv[q]);
            for (size_t a = 0; a < n; a++) {
                const cta_record *ra = results_cta(r, a);
                int rank = 0;
                for (size_t b = 0; b < n; b++) {
                    const cta_record *rb = results_cta(r, b);
                    rank += rb->sm == ra->sm && rb->cta < ra->cta;
                }
                if (rank < x->per_sm)
                    sv[rank][sn[rank]++] = (double)ra->cycles;
            }
            for (int q = 0; q < x->per_sm; q++) {
                if (!x->n[q] || !sn[q])
                    continue;
                char what[64];
                snprintf(what, sizeof what, "ch %d, %d threads x %d: CTA %d", x->ch, x->block, x->per_sm, q);
                e11_row(what, e11_median(x->v[q], x->n[q]), e11_median(sv[q], sn[q]), "cyc", 0, E31_TOL, fails);
            }
            for (int q = 0; q < E31_MAXK; q++)
                free(sv[q]);
            results_free(r);
        }
    }
    for (int i = 0; i < ncfg; i++)
        for (int q = 0; q < E31_MAXK; q++)
            free(cf[i].v[q]);
    return rc;
}
