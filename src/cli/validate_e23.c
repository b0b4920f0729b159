/* validate_e23.c -- what one warp load costs as its 32 lanes spread over
 * more lines (E23: validation/h200 README "E23", capture/warpload.csv.gz,
 * tools/capture/cap_warpload.cu).
 *
 * On the chip one warp on one SM times single ld.global.cg loads one after
 * another (clock64, the load, a vote over every lane's value, a shared
 * store, clock64), each hop in a page no earlier hop read: `cold` from
 * HBM, `warm` after the same hops were read once (L2 hits, far lines by
 * their replicas).  The layouts: bcast (every lane one word, 1 sector), cN
 * (lane l at 4N x l: N contiguous lines from the page's start; c16 and c32
 * take 2 and 1 sectors a line), p32 (each lane a word of its own page).
 *
 * The judged figure is a layout's extra over bcast, chip and model each
 * against their own, so that the timing sequence and the base latency
 * (E11's business) drop out.  The chip's cold hops are bimodal (the page's
 * partition: near or far, E11) with a tail above both (the refresh-like
 * waits E11 saw, 10-30 % of the hops of the widest layouts): its figure is
 * the near mode, taken as the 25th percentile, the median of the lower half
 * of the hops (half the pages are near, and the near cluster lies below
 * the far one, ~182 cycles apart).  The model's CTA runs on a partition-0 SM (sms=l2:0) and
 * reads partition 0's pages only (part=0): its near hops, without a tail
 * (p32's 32 pages, cold, are printed only: both partitions, means over
 * bcast's mean).
 * With refresh on (memory.hbm.refresh_ps) the model's hops have a tail of
 * their own and its totals give no mode: then both sides' cold figures are
 * means over both partitions.
 * Warm hops (near hits and replicas alike): medians, both sides.  Every SM
 * of the capture (0 and 124) counts equally.
 * PASS within TOL cycles or REL of the chip's extra, whichever is larger.
 * Fitted (printed as info, as every section prints its fitted rows, and
 * not judged): warm c32 (memory.l1.request_millicycles: 32 lines of one sector each,
 * the line count alone) and cold c2 (memory.hbm.ccd_l_ps was read off it
 * before it was found to be JEDEC's 4 tCK).  The model runs the same loop
 * (an L1-hit load of the offsets, the load, compare, vote, shared store,
 * clock) in a trace of its own with affine addresses: hop h at page 37h of
 * a 256 MiB buffer.  Measured numbers are read from the capture, never
 * written here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "cli.h"

#define TOL 10.0      /* cycles */
#define REL 0.25      /* of the chip's extra */
#define HOPS 1024     /* the model's hops a run, as the chip's */
#define MAX_SM 4

enum { PREDICTED, FITTED, INFO };

typedef struct e23_layout {
    const char *name;
    long long lane;       /* bytes between lanes */
    int kind[2];          /* cold, warm: PREDICTED, FITTED or INFO */
} e23_layout;

static const e23_layout layouts[] = {
    {"bcast", 0, {INFO, INFO}},
    {"c1", 4, {PREDICTED, PREDICTED}},
    {"c2", 8, {FITTED, PREDICTED}},
    {"c4", 16, {PREDICTED, PREDICTED}},
    {"c8", 32, {PREDICTED, PREDICTED}},
    {"c16", 64, {PREDICTED, PREDICTED}},
    {"c32", 128, {PREDICTED, FITTED}},
    /* cold: the slowest of 32 pages, near and far mixed: no modes to split */
    {"p32", 4096 * 33 + 128, {INFO, PREDICTED}},
};
#define NLAYOUT (int)(sizeof layouts / sizeof layouts[0])

typedef struct e23_cell {
    int sm[MAX_SM], nsm;
    double *v[MAX_SM];
    size_t n[MAX_SM], cap[MAX_SM];
} e23_cell;

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The chip's figure for one cell: per SM, the median (warm), the mean
 * (cold, `mean`) or the near mode (cold: the median of the lower half),
 * then the SMs' mean. */
static double chip_figure(e23_cell *c, int warm, int mean)
{
    double s = 0;
    for (int i = 0; i < c->nsm; i++) {
        qsort(c->v[i], c->n[i], sizeof(double), cmp_d);
        double x;
        if (warm) {
            x = median_of(c->v[i], c->n[i]);
        } else if (mean) {
            x = 0;
            for (size_t j = 0; j < c->n[i]; j++)
                x += c->v[i][j];
            x /= (double)c->n[i];
        } else {
            x = median_of(c->v[i], c->n[i] / 2);
        }
        s += x;
    }
    return c->nsm ? s / c->nsm : NAN;
}

/* The model's cycles a hop of layout L, cold or warm. */
static int model_hop(const cfg *c, const e23_layout *L, int warm, int mean, double *cyc, sk_error *e)
{
    /* cap_warpload's loop (capture/sass/cap_warpload.sass.gz) in the instructions that
     * time it: the offsets' load (one L1 line), its test, the clock, the
     * load, the compare and vote that read every lane, the shared store,
     * the clock, the record */
    char body[1024];
    snprintf(body, sizeof body,
             "    LDG.E R19 <- R4 bytes=4 pattern=coalesced addr=0x10000000 lane=4 ws=128 stall=2\n"
             "    ISETP.NE.U32.AND P1 <- R19 stall=13\n"
             "    S2UR R20 <- P1 stall=1\n"
             "    LDG.E.STRONG.GPU R9 <- R19 bytes=4 pattern=coalesced addr=0x7f0000000000 lane=%lld "
             "iter=%d ws=%d%s stall=1\n"
             "    ISETP.NE.AND P2 <- R9 stall=4\n"
             "    VOTE.ANY R10 <- P2 stall=2\n"
             "    STS <- R10 bytes=4 pattern=uniform stall=1\n"
             "    S2UR R21 <- R10 stall=1\n"
             "    STG.E <- R21 bytes=4 pattern=uniform stall=2\n",
             L->lane, 4096 * 37, 256 << 20, warm || mean ? "" : " part=0");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return sk_errorf(e, SK_EIO, "validate: cannot build the E23 trace in memory");
    fprintf(f, "skewsim-trace 1\nkernel e23_%s grid=1 block=32 regs=32 smem=128 sms=l2:0\nprogram main\n  MOV R4 stall=1\n",
            L->name);
    if (warm)
        fprintf(f, "  loop %d\n%s  end\n", HOPS, body);
    fprintf(f, "  CS2R R6 <- R4 clock=start stall=1\n  loop %d\n%s  end\n  CS2R R6 <- R21 clock=end stall=1\n"
            "  EXIT stall=5\nend\nendkernel\n", HOPS, body);
    fclose(f);
    trace *tr = trace_open_string("e23.trace", text, e);
    free(text);
    if (!tr)
        return e->code;
    results *r = run_simulate(c, tr, e);
    trace_close(tr);
    if (!r)
        return e->code;
    size_t n = results_nctas(r);
    *cyc = n == 1 ? (double)results_cta(r, 0)->cycles / HOPS : NAN;
    results_free(r);
    return 0;
}

static void cells_free(e23_cell cells[][2])
{
    for (int i = 0; i < NLAYOUT; i++)
        for (int m = 0; m < 2; m++)
            for (int s = 0; s < cells[i][m].nsm; s++)
                free(cells[i][m].v[s]);
}

/* Reads capture/warpload.csv.gz into cells[layout][cold/warm]. */
static int read_capture(const char *path, e23_cell cells[][2], sk_error *e)
{
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    char line[256];
    long lineno = 0;
    while (gzgets(f, line, sizeof line)) {
        lineno++;
        char lay[32], mode[16];
        int w, pages, lines, sectors, hop, smid;
        double cyc;
        if (lineno == 1) {
            if (strncmp(line, "layout,", 7) != 0) {
                gzclose(f);
                return sk_errorf(e, SK_EIO, "%s:1: expected the header layout,w,pages,lines,sectors,mode,hop,sm,cycles",
                                 path);
            }
            continue;
        }
        if (sscanf(line, "%31[^,],%d,%d,%d,%d,%15[^,],%d,%d,%lf", lay, &w, &pages, &lines, &sectors, mode, &hop,
                   &smid, &cyc) != 9) {
            gzclose(f);
            line[strcspn(line, "\r\n")] = '\0';
            return sk_errorf(e, SK_EIO, "%s:%ld: '%.60s': expected layout,w,pages,lines,sectors,mode,hop,sm,cycles",
                             path, lineno, line);
        }
        if (!isfinite(cyc) || cyc < 0 || cyc > 1e9) {
            gzclose(f);
            return sk_errorf(e, SK_EIO, "%s:%ld: cycles %g: expected a count of cycles, 0..1e9", path, lineno,
                             cyc);
        }
        int m = !strcmp(mode, "cold") ? 0 : !strcmp(mode, "warm") ? 1 : -1;
        int i = 0;
        while (i < NLAYOUT && strcmp(layouts[i].name, lay))
            i++;
        if (m < 0 || i == NLAYOUT || w != 4)
            continue;      /* reg (the timing sequence alone), float4 and grouped layouts: not simulated */
        e23_cell *c = &cells[i][m];
        int s = 0;
        while (s < c->nsm && c->sm[s] != smid)
            s++;
        if (s == c->nsm) {
            if (c->nsm == MAX_SM) {
                gzclose(f);
                return sk_errorf(e, SK_EIO, "%s:%ld: SM %d: expected at most %d SMs a layout", path, lineno, smid,
                                 MAX_SM);
            }
            c->sm[c->nsm++] = smid;
        }
        if (c->n[s] == c->cap[s]) {
            c->cap[s] = c->cap[s] ? 2 * c->cap[s] : 1024;
            c->v[s] = xrealloc(c->v[s], c->cap[s] * sizeof(double));
        }
        c->v[s][c->n[s]++] = cyc;
    }
    int zrc = e11_gz_close(f, path, lineno, 0, e);
    if (zrc < 0)
        return zrc;
    for (int i = 0; i < NLAYOUT; i++)
        for (int m = 0; m < 2; m++) {
            const e23_cell *c = &cells[i][m];
            if (c->nsm == 0)
                return sk_errorf(e, SK_EIO, "%s: no %s hops of layout %s", path, m ? "warm" : "cold",
                                 layouts[i].name);
            for (int k = 0; k < c->nsm; k++)
                if (c->n[k] < 2)
                    return sk_errorf(e, SK_EIO, "%s: %zu %s hop(s) of layout %s on SM %d: expected 2 or more",
                                     path, c->n[k], m ? "warm" : "cold", layouts[i].name, c->sm[k]);
        }
    return 0;
}

int validate_e23(const cfg *c0, const char *dir, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    char path[4096];
    snprintf(path, sizeof path, "%s/capture/warpload.csv.gz", dir);
    e23_cell cells[NLAYOUT][2];
    memset(cells, 0, sizeof cells);
    int rc = read_capture(path, cells, e);
    double chip[NLAYOUT][2], model[NLAYOUT][2], chip_mean0 = NAN, model_mean0 = NAN;
    /* cold: near modes, unless the model has a tail of its own (refresh on)
     * or the layout mixes partitions in every hop (p32): then means, against
     * bcast's mean */
    int tail = c.hbm_refresh_ps > 0, meanrow[NLAYOUT];
    for (int i = 0; i < NLAYOUT && rc == 0; i++)
        for (int m = 0; m < 2 && rc == 0; m++) {
            int mean = m == 0 && (tail || !strcmp(layouts[i].name, "p32"));
            if (m == 0)
                meanrow[i] = mean;
            chip[i][m] = chip_figure(&cells[i][m], m, mean);
            rc = model_hop(&c, &layouts[i], m, mean, &model[i][m], e);
        }
    if (rc == 0 && !tail) {
        chip_mean0 = chip_figure(&cells[0][0], 0, 1);
        rc = model_hop(&c, &layouts[0], 0, 1, &model_mean0, e);
    } else if (rc == 0) {
        chip_mean0 = chip[0][0];
        model_mean0 = model[0][0];
    }
    cells_free(cells);
    if (rc < 0)
        return rc;
    printf("\nE23 one warp's load by its spread (memory.l1.request_millicycles=%d, memory.hbm.ccd_l_ps=%d): cycles a hop;"
           "\nextra = above bcast (all lanes one word), chip and model each their own; cold = from HBM (%s),"
           "\nwarm = L2 hits; PASS within %.0f cycles or %.0f %% of the chip's extra\n",
           c.l1_request_millicycles, c.hbm_ccd_l_ps,
           tail ? "means, the model's refresh on: both sides' tails" : "near mode: the chip's lower half's median, the model's partition-0 pages",
           TOL, REL * 100);
    printf("%-6s %-28s %8s %8s %7s %7s %6s\n", "", "layout, mode", "chip", "model", "chip+", "model+", "diff");
    const char *const kinds[] = {"predicted", "fitted", "base"};
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < NLAYOUT; i++) {
            const e23_layout *L = &layouts[i];
            int mean = m == 0 && meanrow[i];
            double cx = chip[i][m] - (mean ? chip_mean0 : chip[0][m]);
            double mx = model[i][m] - (mean ? model_mean0 : model[0][m]), d = mx - cx;
            int ok = fabs(d) <= fmax(TOL, REL * fabs(cx));
            int kind = L->kind[m];
            char what[64];
            snprintf(what, sizeof what, "%s %s", L->name, m ? "warm" : "cold");
            printf("%-6s %-28s %8.1f %8.1f %+7.1f %+7.1f %+6.1f  %s\n",
                   kind != PREDICTED ? "info" : (ok ? "PASS" : "FAIL"), what, chip[i][m], model[i][m], cx, mx, d,
                   i == 0 ? "base" : kind == INFO ? "not judged" : kinds[kind]);
            if (kind == PREDICTED && !ok)
                (*fails)++;
        }
    return 0;
}
