/* validate_e24.c -- the L2's capacity edge against E24 (validation/h200
 * README "E24", tools/capture/cap_fabric.cu `chase` and `fine`, cap_mem.cu
 * `fine`).
 *
 * Chase rows: one thread on SM 0 (partition 0) walks every 128-B line of
 * W MiB of near pages (its own partition's), far pages or all pages in
 * address order, three passes in one launch; the chip's figure is the
 * third pass's mean cycles a hop, from the per-pass histogram of 8-cycle
 * bins (capture/l2cap_hist.csv.gz, each bin counted at its middle).  Each
 * line is reused after exactly W: with exact LRU and a set hash that
 * spreads a contiguous list perfectly, a half would keep all of it up to
 * its capacity and nothing past it; the chip's hits fall smoothly from 26
 * to 36 MiB (the README).  Simulated as `gen chase --order seq --cg 1`
 * with the two passes as warm hops in the same launch, on SM 0 as on the
 * chip (sms=sm:0; each SM's L2 latency is its own, docs/topology.md "TPC
 * chains"), part=0 or 1 for the near and far lists.
 *
 * Bandwidth rows: E11's .cg stream and c = a + b at working sets between
 * E11's (capture/e24_bw.csv), and E18b's lists in 1-4 MiB steps
 * (capture/fabric_fine.csv), each simulated as validate_e11.c simulates
 * its own rows.  A sample of each curve: the sizes where the chip's L2
 * lets go.  The near chase rows are fitted (printed, not judged):
 * memory.l2.scatter_ppm was set from the width of their edge and
 * memory.hbm.row_idle_ps from their HBM rows (configs/h200.yaml); the far
 * and mixed chases and the bandwidths are predicted.  Measured numbers
 * are read from the capture files, never written here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "cli.h"
#include "skewsim/gen.h"
#include "skewsim/memsys.h"

#define LAT_TOL 0.10
#define BW_TOL 0.15
#define NCASE 3
#define MAX_MIB 64

static const char *const case_name[NCASE] = {"near", "far", "mixed"};

/* The third pass's cycles a hop of every (case, MiB) in l2cap_hist.csv.gz:
 * cyc[case][mib] (NAN where absent). */
static int read_hist(const char *dir, double cyc[NCASE][MAX_MIB + 1], sk_error *e)
{
    double sum[NCASE][MAX_MIB + 1], n[NCASE][MAX_MIB + 1];
    memset(sum, 0, sizeof sum);
    memset(n, 0, sizeof n);
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/capture/l2cap_hist.csv.gz", dir);
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    long lineno = 0;
    while (gzgets(f, line, sizeof line)) {
        lineno++;
        if (lineno == 1 || line[strspn(line, " \t\r\n")] == '\0')
            continue;
        char cs[16];
        int mib, pass, lo;
        long long count;
        if (sscanf(line, "%15[^,],%d,%d,%d,%lld", cs, &mib, &pass, &lo, &count) != 5 || mib < 0 ||
            mib > MAX_MIB || lo < 0 || count < 0) {
            int zrc = e11_gz_close(f, path, lineno, 0, e);
            if (zrc < 0)
                return zrc;
            return sk_errorf(e, SK_EIO, "%s:%ld: expected case,mib,pass,cycles_lo,count with mib 0..%d",
                             path, lineno, MAX_MIB);
        }
        int c = 0;
        while (c < NCASE && strcmp(cs, case_name[c]))
            c++;
        if (c == NCASE || pass != 3)
            continue;
        sum[c][mib] += (lo + 4.0) * (double)count;
        n[c][mib] += (double)count;
    }
    int zrc = e11_gz_close(f, path, lineno, 0, e);
    if (zrc < 0)
        return zrc;
    for (int c = 0; c < NCASE; c++)
        for (int m = 0; m <= MAX_MIB; m++)
            cyc[c][m] = n[c][m] > 0 ? sum[c][m] / n[c][m] : NAN;
    return 0;
}

/* Simulated cycles a hop of E24's third pass: case cs over mib MiB. */
static int chase_cycles(const cfg *c, int cs, int mib, double *cyc, sk_error *e)
{
    long long bytes = (long long)mib << 20;
    long n = (long)(bytes / 128);
    kernel k;
    if (gen_chase_stride(&k, bytes, n, 1, 2 * n, 1, 128, GEN_CHASE_SEQ, e) < 0)
        return e->code;
    k.one_sm = 1;    /* sms=sm:0: the chip's chase ran on SM 0 (cap_fabric line_chase) */
    if (cs < 2)
        for (uint32_t p = 0; p < k.nprogs; p++)
            for (uint32_t i = 0; i < k.progs[p].napats; i++)
                if (k.progs[p].apats[i].ws == (uint64_t)bytes)
                    k.progs[p].apats[i].part = (uint8_t)(cs + 1);
    results *r = NULL;
    int rc = e11_simulate(c, &k, 1, &r, e);
    kernel_free(&k);
    if (rc < 0)
        return rc;
    *cyc = results_nctas(r) == 1 ? (double)results_cta(r, 0)->cycles / (double)n : NAN;
    results_free(r);
    return 0;
}

int validate_e24(const cfg *c0, const char *dir, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    /* each of E24's three captures is judged where the directory has it;
     * a partial directory (capture/PARTIAL: validation/h100 has the
     * bandwidths alone) says which it lacks, and elsewhere that is an
     * error */
    char hist[4096], bw[4096], fine[4096];
    snprintf(hist, sizeof hist, "%s/capture/l2cap_hist.csv.gz", dir);
    snprintf(bw, sizeof bw, "%s/capture/e24_bw.csv", dir);
    snprintf(fine, sizeof fine, "%s/capture/fabric_fine.csv", dir);
    /* in a full directory, a missing file before the chases take their
     * minute */
    const char *const need[] = {hist, bw, fine};
    char mark[4096];
    for (int i = 0; i < 3 && !e11_partial(dir, mark, sizeof mark); i++)
        if (access(need[i], R_OK) != 0)
            return e11_absent(dir, need[i], "", "", e);
    int rc = e11_absent(dir, hist, "E24 chase rows", "tools/capture/cap_fabric DIR chase", e);
    if (rc < 0)
        return rc;
    if (rc) {
        rc = 0;
    } else {
        double cyc[NCASE][MAX_MIB + 1];
        if ((rc = read_hist(dir, cyc, e)) < 0)
            return rc;
        /* the edge in 2 MiB steps, and one size past it */
        static const int sizes[] = {24, 26, 28, 30, 32, 34, 36, 48};
        printf("\nE24 the L2's capacity: one SM chases W MiB cyclically, third pass (cycles a hop)\n");
        for (int cs = 0; cs < NCASE && rc == 0; cs++)
            for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && rc == 0; i++) {
                int mib = sizes[i];
                if (isnan(cyc[cs][mib]))
                    continue;
                double simv = NAN;
                if ((rc = chase_cycles(&c, cs, mib, &simv, e)) < 0)
                    break;
                char what[64];
                snprintf(what, sizeof what, "chase %s %d MiB", case_name[cs], mib);
                e11_row(what, cyc[cs][mib], simv, "cyc", cs == 0, LAT_TOL, fails);
            }
        if (rc < 0)
            return rc;
    }

    static const int cg_mib[] = {52, 56, 60, 0}, add_mib[] = {12, 16, 20, 0}, ca_mib[] = {0};
    if ((rc = e11_absent(dir, bw, "E24 bandwidth rows", "tools/capture/cap_mem DIR fine", e)) < 0)
        return rc;
    if (!rc && (rc = e11_bw_rows(&c, dir, "e24_bw.csv", "E24 read bandwidth around the L2's capacity", cg_mib,
                                 add_mib, ca_mib, 0, fails, e)) < 0)
        return rc;
    /* E11's bandwidth table captured again beside E24's on another chip
     * (validation/h100/capture/e11_bw.csv, `cap_mem DIR stream`): its
     * L1-resident default-cached rows, where the pass loop's listing
     * counts, and the .cg L2 plateau, judged where the directory has it
     * (the H200's own table is E11's, capture/bw.csv) */
    char e11bw[4096];
    snprintf(e11bw, sizeof e11bw, "%s/capture/e11_bw.csv", dir);
    if (access(e11bw, R_OK) == 0) {
        static const int cg11[] = {8, 0}, add11[] = {0}, ca11[] = {1, 4, 8, 0};
        if ((rc = e11_bw_rows(&c, dir, "e11_bw.csv", "E11 read bandwidth on this chip", cg11, add11, ca11, 0,
                              fails, e)) < 0)
            return rc;
    }
    if ((rc = e11_absent(dir, fine, "E24 E18b's lists in finer steps", "tools/capture/cap_fabric DIR fine", e)))
        return rc < 0 ? rc : 0;

    /* E18b's lists in finer steps: the near lists' edge and the all-far
     * collapse, simulated as validate_e11.c simulates E18b's rows (4
     * passes after a warm one; the chip's one grid as one kernel per
     * reading partition, launched together: launch.host_ns 0.  Until
     * session 26 these rows kept the host's launch gap between the two,
     * which started one half's readers first and put the all-far 20 MiB
     * row at -34.5 % instead of -22 %.) */
    if (cfg_set(&c, "launch.host_ns=0", e) < 0)
        return e->code;
    const char *path = fine;
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    printf("\nE24 E18b's lists in finer steps (GB/s; sampled)\n");
    e11_fabric_row fr;
    long lineno = 0;
    while (rc == 0 && (rc = e11_fabric_next(f, path, &lineno, &fr, e)) > 0) {
        rc = 0;
        int near = !strncmp(fr.name, "A_reads_A_l2_", 13) || !strncmp(fr.name, "all_near_l2_", 12);
        int far = !strncmp(fr.name, "all_far_l2_", 11);
        int mib = atoi(strrchr(fr.name, '_') + 1);
        if (!((near && (mib == 28 || mib == 30 || mib == 31 || mib == 33)) || (far && mib == 20)))
            continue;
        int nread = (fr.rd[0] >= 0) + (fr.rd[1] >= 0);
        double simv = NAN;
        if ((rc = e11_fabric_gbps(&c, fr.rd, (uint64_t)fr.bytes / (uint64_t)nread, 4, 1, 0,
                                  (double)fr.bytes * (double)fr.passes, &simv, e)) < 0)
            break;
        e11_row(fr.name, fr.gbps, simv, "GB/s", 0, BW_TOL, fails);
    }
    fclose(f);
    return rc;
}
