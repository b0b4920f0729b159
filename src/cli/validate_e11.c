/* validate_e11.c -- the memory hierarchy against E11 (validation/h200/capture,
 * README "E11"): pointer chases over 16 KiB - 1 GiB through L1 (.ca) and
 * past it (.cg), grid-stride read bandwidth against the working set, and
 * c = a + b, each simulated with `gen chase`, `gen stream --bytes` and `gen
 * add` (src/trace/gen_mem.c) on the config with memory.model = hierarchy.
 *
 * Rows are marked `fitted` where configs/h200.yaml set a value from that
 * very measurement (agreement by construction, printed, not judged) and
 * `predicted` otherwise (judged: PASS within 10 % for latencies, 15 % for
 * bandwidths).  The fitting set: the L1 hit (E19b's chase warmed in its
 * own launch, not an E11 row), the L2 and HBM tiers (l2map's medians,
 * not a chase row) and the L2 slices' bandwidth (the 16 MiB .cg stream,
 * the one bandwidth row tagged fitted).  memory.hbm.pc_mbps
 * was fitted to the 512 MiB .cg stream with a driver that had no SM model,
 * so the SM-driven .cg rows are predictions of the whole chain and are
 * judged (they reach that plateau only since bw.c's calendar stopped
 * losing the time before a late booking: docs/memory.md).  Bandwidths are bytes
 * moved over kernel time, launch included, as the CUDA events measured
 * them, for a sample of the rows (each moves 4 GiB: seconds to simulate).
 * Measured numbers are read from the capture files, never written here.
 * E18 and E18b (fabric.csv, fabric_sweep.csv) follow: validate_e18().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "skewsim/gen.h"
#include "skewsim/results.h"
#include "skewsim/trace.h"
#include "skewsim/run.h"

#define LAT_TOL 0.10
#define BW_TOL 0.15

/* Kernels k[0..n-1] written to one trace, in order, and simulated on c. */
int e11_simulate(const cfg *c, const kernel *k, int n, results **out, sk_error *e)
{
    char path[] = "/tmp/skewsim-e11-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return sk_errorf(e, SK_EIO, "validate: cannot make a temporary file");
    close(fd);
    int rc = 0;
    trace_writer *w = trace_writer_open(path, 0, e);
    if (!w)
        rc = e->code;
    for (int i = 0; i < n && rc == 0; i++)
        rc = trace_writer_kernel(w, &k[i], NULL, NULL, e);
    sk_error ign = {0, ""};
    if (w && trace_writer_close(w, rc == 0 ? e : &ign) < 0 && rc == 0)
        rc = e->code;
    if (rc == 0) {
        trace *tr = trace_open(path, e);
        if (!tr) {
            rc = e->code;
        } else {
            *out = run_simulate(c, tr, e);
            trace_close(tr);
            rc = *out ? 0 : e->code;
        }
    }
    unlink(path);
    return rc;
}

void e11_on_sm(const cfg *c, kernel *k, int n, int on_sm)
{
    if (on_sm >= 0 && on_sm < cfg_num_sms(c))
        for (int i = 0; i < n; i++)
            k[i].one_sm = (uint32_t)on_sm + 1;
}

/* Kernels k[0..n-1] simulated one after another, each after the first
 * launched once the one before completed (sync=host), as the captures
 * synchronise on an event after every launch; rc is how making them went
 * (< 0: nothing is simulated and rc is returned).  Frees the kernels
 * either way; *out gets the results. */
int e11_simulate_seq(const cfg *c, kernel *k, int n, int rc, results **out, sk_error *e)
{
    for (int i = 1; i < n; i++)
        k[i].sync_host = 1;
    if (rc == 0)
        rc = e11_simulate(c, k, n, out, e);
    for (int i = 0; i < n; i++)
        kernel_free(&k[i]);
    return rc;
}

/* Simulated cycles per hop of a chase, run as E11 ran it (tools/capture/
 * cap_mem.cu): the untimed walk of `warm` hops is a launch of its own and
 * the timed chase of `hops` a second launch, so the timed kernel meets a
 * warm L2 and an L1 that its launch invalidated (docs/memory.md): its
 * first pass over the cycle misses L1 on every line.  warm 0: one launch.
 * Both on SM on_sm, where the chip's timed chase ran (the capture records
 * it; the untimed one's is not recorded): e11_on_sm. */
static int chase_cycles(const cfg *c, long long bytes, long hops, long warm, int cg, int on_sm, double *cyc,
                        sk_error *e)
{
    kernel k[2];
    int nk = warm > 0 ? 2 : 1, rc = 0;
    memset(k, 0, sizeof k);
    if (warm > 0 && gen_chase(&k[0], bytes, warm, 1, 0, cg, e) < 0)
        return e->code;
    if (gen_chase(&k[nk - 1], bytes, hops, 1, 0, cg, e) < 0) {
        rc = e->code;
        goto out;
    }
    e11_on_sm(c, k, nk, on_sm);
    results *r = NULL;
    rc = e11_simulate(c, k, nk, &r, e);
    if (rc == 0) {
        /* the timed kernel's one CTA is the last */
        size_t n = results_nctas(r);
        *cyc = n == (size_t)nk ? (double)results_cta(r, n - 1)->cycles / (double)hops : NAN;
        results_free(r);
    }
out:
    for (int i = 0; i < 2; i++)
        kernel_free(&k[i]);
    return rc;
}

/* Simulated CUDA-event time (ns) of the last of the kernels k[0..n-1],
 * each after the first launched once the one before completed (sync=host),
 * as the captures synchronise on an event after every launch; rc is how
 * making them went (< 0: *ns is not set).  Frees the kernels either way. */
static int seq_last_ns(const cfg *c, kernel *k, int n, int rc, double *ns, double *span_ns, sk_error *e)
{
    results *r = NULL;
    if ((rc = e11_simulate_seq(c, k, n, rc, &r, e)) < 0)
        return rc;
    /* kernels complete in trace order here, each waiting for the last */
    const kernel_stats *ks = results_nkernels(r) == (size_t)n ? results_kernel(r, (size_t)n - 1) : NULL;
    *ns = ks ? (double)(ks->done_ps - ks->launch_ps) * 1e-3 : NAN;   /* as the CUDA events measure it */
    if (span_ns)   /* first CTA start to last CTA end, as the captures' globaltimer reads it */
        *span_ns = ks ? (double)(ks->last_record_end_ps - ks->first_start_ps) * 1e-3 : NAN;
    results_free(r);
    return 0;
}

/* Simulated CUDA-event time (ns) of a stream (passes) or, add != 0, of
 * c = a + b, run as cap_mem.cu runs it: an untimed launch of the same
 * kernel first, then the timed one, launched once the first has completed
 * (sync=host; the capture synchronises on an event after every launch).
 * The timed launch meets the L2 the untimed one left: the add's dirty c
 * lines and whatever of a, b and the stream's working set stayed
 * resident (E24b: a launch right after the same one starts on the L2
 * plateau at 48-52 MiB where one from a flushed L2 climbs to it). */
int e11_grid_ns(const cfg *c, long ctas, long block, long long bytes, long passes, int add, int cg, double *ns,
                double *span_ns, sk_error *e)
{
    kernel k[2];
    int rc = 0, made = 0;
    memset(k, 0, sizeof k);
    for (; made < 2 && rc == 0; made++)
        rc = add ? gen_add(&k[made], ctas, block, bytes, e)
                 : gen_stream_cache(&k[made], ctas, block, bytes, passes, cg, e);
    return seq_last_ns(c, k, made, rc, ns, span_ns, e);
}

int e11_kernel_ns(const cfg *c, long long bytes, long passes, int add, int cg, double *ns, double *span_ns,
                  sk_error *e)
{
    return e11_grid_ns(c, 1056, 256, bytes, passes, add, cg, ns, span_ns, e);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int e11_gz_close(gzFile f, const char *path, long lineno, int rc, sk_error *e)
{
    int zerr = Z_OK;
    gzerror(f, &zerr);      /* Z_OK or a negative error: never Z_STREAM_END */
    gzclose(f);
    if (rc == 0 && zerr < 0)
        rc = sk_errorf(e, SK_EIO, "%s:%ld: the gzip stream is damaged", path, lineno);
    return rc;
}

double e11_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void e11_row(const char *what, double meas, double simv, const char *unit, int fitted, double tol,
                int *fails)
{
    double err = (simv - meas) / meas;
    int ok = fabs(err) <= tol;
    printf("%-6s %-34s %9.1f %9.1f %-5s %+6.1f %%  %s\n", fitted ? "info" : (ok ? "PASS" : "FAIL"), what,
           meas, simv, unit, 100 * err, fitted ? "fitted" : "predicted");
    if (!fitted && !ok)
        (*fails)++;
}

/* ---- E18 / E18b: SMs of one partition reading pages of one partition ----
 *
 * tools/capture/cap_fabric.cu's bw_kernel: a persistent grid of 2 CTAs x
 * 512 threads per SM; each CTA takes chunks of 16 pages (64 KiB) of its
 * SM's partition's list from a queue, and each thread issues 8 16-byte
 * ld.global.cg (element k x 512 + tid of the chunk) before summing them.
 * Simulated as one kernel per reading partition, launched together
 * (sms=l2:P: the SMs homed in P; launch.host_ns = 0, since the chip
 * launches one grid), the list an address pattern of partition Q's pages
 * (part=Q).  The queue is the CTA dispatcher's: one CTA of 512 threads per
 * chunk (regs=64: 2 per SM at a time, as __launch_bounds__(512, 2) keeps
 * the chip's), CTA c reading chunk c modulo the list, so that passes
 * follow each other and a chunk starts when a slot frees, in list order,
 * as a chunk of the chip's queue does when a CTA asks for it.  (Before, a
 * static split stood in for the queue: 132 CTAs, CTA c taking chunks c, c
 * + 132, ...  Its CTAs drift apart over the passes, and LRU finds hits in
 * the reordering that a queue does not make: lists of 107 % of a half
 * kept 57-70 % of their lines, and the all-far 24 MiB lists, which the
 * chip reads fabric-bound, escaped to L2-resident (5571 GB/s against
 * 2416); docs/memory.md.)  The chip's median launch follows a warm-up
 * launch; so does the simulated one (the warm-up one pass), and only the
 * second is timed: bytes over the time from the first timed launch to the
 * last timed CTA. */
static uint64_t fabric_kernel(FILE *b, const char *name, int sms_part, int list_part, uint64_t list,
                          uint64_t passes, int stream, int sync)
{
    const uint64_t chunk = 65536;
    uint64_t grid = SK_MAX(list / chunk * passes, 1);
    fprintf(b, "kernel %s grid=%llu block=512 regs=64 smem=0 sms=l2:%d stream=%d%s\nprogram main\n", name,
              (unsigned long long)grid, sms_part, stream, sync ? " sync=host" : "");
    for (int k = 0; k < 8; k++)
        fprintf(b, "LDG.E.128.STRONG.GPU R%d <- R2 bytes=16 addr=%llu lane=16 warp=512 cta=%llu "
                     "ws=%llu part=%d stall=1\n", 4 + k, (unsigned long long)(0x100000000ull + 8192ull * k),
                  (unsigned long long)chunk, (unsigned long long)list, list_part);
    for (int k = 0; k < 8; k++)
        fprintf(b, "FADD R20 <- R20 R%d stall=4\n", 4 + k);
    fprintf(b, "EXIT stall=5\nend\n");
    fprintf(b, "endkernel\n");
    return grid * chunk;
}

/* One simulated E18 case: rd[p] the list partition p's SMs read (-1:
 * none).  *launch_ns: the first timed launch to its first CTA; *run_ns: from
 * there to the last timed CTA; *bytes: what the timed kernels read. */
static int fabric_run(const cfg *c, const int rd[2], uint64_t list, uint64_t passes, int warm, double *launch_ns,
                      double *run_ns, double *bytes_read, sk_error *e)
{
    char *text = NULL;
    size_t len = 0;
    FILE *b = open_memstream(&text, &len);
    if (!b)
        return sk_errorf(e, SK_EIO, "validate: cannot build the E18 trace in memory");
    fprintf(b, "skewsim-trace 1\n");
    int nk = 0, first = 0;
    uint64_t bytes = 0;
    for (int round = warm ? 0 : 1; round < 2; round++) {
        int lead = 1;
        if (round == 1)
            first = nk;
        for (int p = 0; p < 2; p++)
            if (rd[p] >= 0) {
                char name[32];
                snprintf(name, sizeof name, "fabric_%s%d", round ? "" : "warm", p);
                uint64_t got = fabric_kernel(b, name, p, rd[p], list, round ? passes : 1, p, round && warm && lead);
                if (round)
                    bytes += got;
                lead = 0;
                nk++;
            }
    }
    fclose(b);
    trace *tr = trace_open_string("e18.trace", text, e);
    free(text);
    if (!tr)
        return e->code;
    results *r = run_simulate(c, tr, e);
    trace_close(tr);
    if (!r)
        return e->code;
    ps_t t0 = 0, t1 = 0, s0 = 0;
    for (int i = first; i < nk; i++) {
        const kernel_stats *ks = results_kernel(r, (size_t)i);
        if (i == first || ks->launch_ps < t0)
            t0 = ks->launch_ps;
        if (i == first || ks->first_start_ps < s0)
            s0 = ks->first_start_ps;
        if (ks->done_ps > t1)
            t1 = ks->done_ps;
    }
    results_free(r);
    *launch_ns = (double)(s0 - t0) * 1e-3;
    *run_ns = (double)(t1 - s0) * 1e-3;
    *bytes_read = (double)bytes;
    return 0;
}

/* GB/s of one E18 case, extrapolated to the bytes the chip moved.  `list`
 * alone (hbm 0): the launch as simulated, then the reading scaled to the
 * chip's bytes (its passes are the same steady state).  hbm != 0: the cold
 * reading is simulated at `list` and at twice it, and the chip's time is
 * the launch plus the affine extension of the two: the ramp-up, the tail of
 * the last chunks and, where both halves read one list, the stretch in
 * which the far readers still find the near readers' home copies are then
 * counted once, as on the chip's 2 GiB lists, instead of being scaled up
 * with the bytes (one 128 MiB list scaled 16-fold put A_reads_A_hbm at
 * 1994 GB/s; 512 MiB simulated gives 2194). */
int e11_fabric_gbps(const cfg *c, const int rd[2], uint64_t list, uint64_t passes, int warm, int hbm,
                       double chip_bytes, double *gbps, sk_error *e)
{
    double l1, r1, b1;
    int rc = fabric_run(c, rd, list, passes, warm, &l1, &r1, &b1, e);
    if (rc < 0)
        return rc;
    double ns = l1 + r1 * chip_bytes / b1;
    if (hbm) {
        double l2, r2, b2;
        if ((rc = fabric_run(c, rd, 2 * list, passes, warm, &l2, &r2, &b2, e)) < 0)
            return rc;
        double per_byte = (r2 - r1) / (b2 - b1);
        if (per_byte > 0)
            ns = l2 + r2 + per_byte * (chip_bytes - b2);
    }
    *gbps = chip_bytes / ns;
    return 0;
}

/* DIR/capture/NAME opened past its header line, TITLE printed (NULL and
 * *e set when it cannot be opened). */
static FILE *open_capture(const char *dir, const char *name, const char *title, sk_error *e)
{
    char path[4096], line[512];
    snprintf(path, sizeof path, "%s/capture/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        sk_errorf(e, SK_EIO, "%s: cannot open", path);
        return NULL;
    }
    printf("\n%s\n", title);
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    return f;
}

/* ---- E21: bandwidth by read/write mix --------------------------------
 *
 * tools/capture/cap_rw.cu: grid-stride kernels of 1056 x 256 threads over
 * arrays of N bytes each (float4: read, write, copy, add, triad; capture/
 * rw.csv), each the median of 7 launches after 2 warm-ups, each launch
 * synchronised.  Simulated with `gen rw` as a warm-up launch and the timed
 * one (sync=host), so the timed kernel meets the L2 its predecessor left
 * (resident arrays, dirty lines); its CUDA-event time is done - launch,
 * the stores taken by the L2 included.  GB/s counts every array byte read
 * and written once, as the capture does.  memory.hbm.write_batch was
 * fitted to the copy at 256 MiB (configs/h200.yaml): that row is printed,
 * not judged; the rest are predicted. */

/* One gen rw kernel of a sequence: its mix over `bytes`, on ctas x block
 * threads (E21's and E21d's 1056 x 256, E22's own). */
typedef struct rw_step {
    int mix;
    long long bytes;
    long ctas, block;
    long elem;                /* bytes an element: 16 (float4) or 4 (fp32) */
} rw_step;

/* Simulated CUDA-event time (ns) of the last of n gen rw kernels run one
 * after another, each after the first launched once the one before
 * completed (sync=host), as cap_rw.cu, cap_l2keep.cu and cap_inflight.cu
 * synchronise every launch. */
static int rw_seq(const cfg *c, const rw_step *st, int n, double *ns, sk_error *e)
{
    kernel k[3];
    int rc = 0, made = 0;
    memset(k, 0, sizeof k);
    if (n > 3)
        return sk_errorf(e, SK_EUSAGE, "validate: %d kernels in a row: expected at most 3", n);
    for (; made < n && rc == 0; made++)
        rc = gen_rw(&k[made], st[made].ctas, st[made].block, st[made].bytes, st[made].mix, st[made].elem, e);
    return seq_last_ns(c, k, made, rc, ns, NULL, e);
}


/* E21d (capture/l2keep.csv, cap_l2keep.cu): the read of N bytes right after
 * the same read (warm), after a 512 MiB read (flush: gen rw's arrays all
 * start at one address, so the big read's first N bytes are the array and
 * its rest evicts them) or after a write of the array (write: as the
 * capture repeats it, read, write, read).  Every row predicted. */
static int validate_e21d(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    char line[256];
    FILE *f = open_capture(dir, "l2keep.csv", "E21d a float4 read after the same read, a 512 MiB read, or a write "
                           "of its array (us, CUDA events)", e);
    if (!f)
        return e->code;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        long long bytes;
        char before[16];
        double us, gbps;
        if (sscanf(line, "%lld,%15[^,],%lf,%lf", &bytes, before, &us, &gbps) != 4)
            continue;
        const rw_step rd = {0, bytes, 1056, 256, 16}, big = {0, 512ll << 20, 1056, 256, 16}, wr = {1, bytes, 1056, 256, 16};
        rw_step st[3] = {rd, rd, rd};
        int n = 2;
        if (!strcmp(before, "flush"))
            st[0] = big;
        else if (!strcmp(before, "write"))
            n = 3, st[1] = wr;
        else if (strcmp(before, "warm"))
            continue;
        double ns = NAN;
        if ((rc = rw_seq(c, st, n, &ns, e)) < 0)
            break;
        char what[64];
        snprintf(what, sizeof what, "read %lld MiB after %s", bytes >> 20, before);
        e11_row(what, us, ns * 1e-3, "us", 0, BW_TOL, fails);
    }
    fclose(f);
    return rc;
}

static int validate_e21(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    char line[512];
    FILE *f = open_capture(dir, "rw.csv", "E21 bandwidth by read/write mix, float4, 1056 x 256 threads (GB/s; "
                           "every array byte once)", e);
    if (!f)
        return e->code;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char name[32];
        long long bytes;
        int nrd, nwr;
        double us, gbps;
        if (sscanf(line, "%31[^,],%lld,%d,%d,%lf,%lf", name, &bytes, &nrd, &nwr, &us, &gbps) != 6)
            continue;
        int mix = -1;
        for (int i = 0; gen_rw_mixes[i]; i++)
            if (!strcmp(name, gen_rw_mixes[i]))
                mix = i;
        /* a sample: L2-resident (16 MiB), past the L2 (64 MiB) and HBM
         * (256 MiB: the 1 GiB rows, within 1-7 % of it on the chip, take
         * four times as long to simulate; 4 MiB is mostly the launch) */
        long mb = (long)(bytes >> 20);
        if (mix < 0 || !(mb == 16 || mb == 64 || mb == 256))
            continue;
        /* a warm-up launch, then the timed one; GB/s over the arrays the
         * capture says the kernel reads and writes */
        const rw_step st[2] = {{mix, bytes, 1056, 256, 16}, {mix, bytes, 1056, 256, 16}};
        double ns = NAN;
        if ((rc = rw_seq(c, st, 2, &ns, e)) < 0)
            break;
        double simv = (double)bytes * (nrd + nwr) / ns;
        char what[64];
        snprintf(what, sizeof what, "%s %ld MiB", name, mb);
        e11_row(what, gbps, simv, "GB/s", mix == 2 && mb == 256, BW_TOL, fails);
    }
    fclose(f);
    return rc;
}

/* ---- E22: what one SM keeps in flight ---------------------------------
 *
 * tools/capture/cap_inflight.cu: cap_rw's float4 read and write on ONE CTA
 * of 32 .. 1024 threads over 256 MiB (from HBM) or 4 MiB (L2 resident,
 * read by 132 x 1024 threads before each timed launch) (capture/
 * inflight.csv), and on 1 .. 132 CTAs of 1024 threads over 256 MiB
 * (inflight_scale.csv), each the median of 7 launches.  Simulated as run:
 * the L2 rows after their warm-up launch (sync=host), the rest as one cold
 * launch; the time is done - launch.  memory.l1.store_bytes_per_cycle was
 * read off the one-CTA writes to HBM from 128 threads on (the plateau),
 * sm.store_read_cycles off the one-warp write to HBM (its loop's 41
 * cycles): those rows are printed, not judged; the rest are predicted. */
static int validate_e22(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    char line[256];
    static const char *const files[] = {"inflight.csv", "inflight_scale.csv"};
    static const char *const titles[] = {
        "E22 one CTA (one SM) of 32-1024 threads, float4 read or write (GB/s)",
        "E22 1-132 CTAs of 1024 threads, float4 read or write of 256 MiB (GB/s)"};
    int rc = 0;
    for (int fi = 0; fi < 2 && rc == 0; fi++) {
        FILE *f = open_capture(dir, files[fi], titles[fi], e);
        if (!f)
            return e->code;
        while (rc == 0 && fgets(line, sizeof line, f)) {
            char mode[16];
            long long bytes;
            long ctas, threads;
            double a, b, gbps;
            /* inflight.csv: mode,bytes,ctas,threads,sm,us,gbps;
             * inflight_scale.csv: mode,bytes,ctas,threads,us,gbps,per_cta */
            if (sscanf(line, "%15[^,],%lld,%ld,%ld,%lf,%lf,%lf", mode, &bytes, &ctas, &threads, &a, &b, &gbps) != 7)
                continue;
            if (fi == 1)
                gbps = b;
            int mix = !strcmp(mode, "read") ? 0 : !strcmp(mode, "write") ? 1 : -1;
            if (mix < 0)
                continue;
            /* the L2-resident rows after the capture's warm-up read */
            const rw_step warm = {0, bytes, 132, 1024, 16}, timed = {mix, bytes, ctas, threads, 16};
            const rw_step st[2] = {warm, timed};
            int resident = bytes < (256ll << 20);
            double ns = NAN;
            if ((rc = rw_seq(c, resident ? st : st + 1, resident ? 2 : 1, &ns, e)) < 0)
                break;
            double simv = (double)bytes / ns;
            char what[64];
            snprintf(what, sizeof what, "%s %lld MiB %ldx%ld", mode, bytes >> 20, ctas, threads);
            /* the one-CTA writes to HBM from 128 threads, in either table
             * (store_bytes_per_cycle), and from 32 (store_read_cycles) */
            int fitted = mix == 1 && ctas == 1 && (threads >= 128 || threads == 32) && bytes == (256ll << 20);
            e11_row(what, gbps, simv, "GB/s", fitted, BW_TOL, fails);
        }
        fclose(f);
    }
    return rc;
}

/* E22b (capture/inflight_add.csv, cap_inflight.cu's add mode): one CTA of
 * 32-1024 threads running c = a + b, fp32 (add1) and float4 (add), over
 * three arrays of 16 MiB (after a 132 x 1024 launch of the same kernel)
 * or 256 MiB (cold); GB/s counts the three arrays once.  The one-SM
 * latency of the scalar add, which E11's add.64MB and E21's add 16 MiB
 * show under load (validation/h200/README.md E22b).  Simulated at 32 and
 * 1024 threads (the table is linear in the warps between; the 256 MiB
 * fp32 run of one warp alone takes ~7 s here).  Every row predicted. */
static int validate_e22b(const cfg *c, const char *dir, int *fails, sk_error *e)
{
    char line[256];
    FILE *f = open_capture(dir, "inflight_add.csv",
                           "E22b one CTA (one SM) of 32 and 1024 threads, c = a + b, fp32 (add1) or float4 (add) "
                           "(GB/s, three arrays)", e);
    if (!f)
        return e->code;
    int rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        char mode[16];
        long long bytes;
        long ctas, threads;
        double us, gbps;
        /* mode,bytes,ctas,threads,median_us,gbps */
        if (sscanf(line, "%15[^,],%lld,%ld,%ld,%lf,%lf", mode, &bytes, &ctas, &threads, &us, &gbps) != 6)
            continue;
        long elem = !strcmp(mode, "add1") ? 4 : !strcmp(mode, "add") ? 16 : 0;
        if (!elem || (threads != 32 && threads != 1024))
            continue;
        const rw_step warm = {3, bytes, 132, 1024, elem}, timed = {3, bytes, ctas, threads, elem};
        const rw_step st[2] = {warm, timed};
        int resident = bytes < (256ll << 20);
        double ns = NAN;
        if ((rc = rw_seq(c, resident ? st : st + 1, resident ? 2 : 1, &ns, e)) < 0)
            break;
        char what[64];
        snprintf(what, sizeof what, "%s 3x%lld MiB %ldx%ld", mode, bytes >> 20, ctas, threads);
        e11_row(what, gbps, 3.0 * (double)bytes / ns, "GB/s", 0, BW_TOL, fails);
    }
    fclose(f);
    return rc;
}

/* E18 (fabric.csv) and E18b (fabric_sweep.csv's 16-64 MiB rows).  Scaled
 * to keep `validate` short: the 2 GiB HBM lists are simulated as one cold
 * pass over 128 and over 256 MiB (past the L2, HBM- or fabric-bound either
 * way) and extended affinely to 2 GiB (fabric_gbps), the sweep's
 * lists 4 passes instead of 10 (the 8 MiB lists keep their 40: with fewer
 * the first iterations' fill weighs in, -28 % at 4 passes), the resident
 * ones after a one-pass warm-up, their time after the first CTA starts
 * scaled to the bytes the chip moved (launch as simulated, then the same
 * steady state); the sweep is sampled at 24 and 32 MiB
 * (the all-far collapse and the near lists' edge).  Fitted rows:
 * memory.l2.fabric_gbps was set from the 66-SM far HBM reads; the rest
 * are predicted (memory.l2.slice_gbps, fitted to them until E33 showed
 * that their 40-pass launches carry more launch time than the model's, is
 * now fitted to E11's 16 MiB .cg stream: docs/memory.md). */
static int validate_e18(const cfg *c0, const char *dir, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "launch.host_ns=0", e) < 0)
        return e->code;
    static const char *const files[] = {"fabric.csv", "fabric_sweep.csv"};
    int rc = 0;
    for (int fi = 0; fi < 2 && rc == 0; fi++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/capture/%s", dir, files[fi]);
        /* said, not judged, where a partial directory lacks it
         * (validation/h200/rerun) */
        int ab = e11_absent(dir, path, fi ? "E18b" : "E18", fi ? "tools/capture/cap_fabric DIR sweep"
                                                               : "tools/capture/cap_fabric DIR", e);
        if (ab < 0)
            return ab;
        if (ab)
            continue;
        FILE *f = fopen(path, "r");
        if (!f)
            return sk_errorf(e, SK_EIO, "%s: cannot open", path);
        if (fi == 0)
            printf("\nE18 L2 partitions: SMs of a partition read pages of one (GB/s; 2 CTAs x 512 per SM, .cg)\n");
        else
            printf("\nE18b lists of 16-64 MiB per reading partition (GB/s; sampled)\n");
        e11_fabric_row fr;
        long lineno = 0;
        while (rc == 0 && (rc = e11_fabric_next(f, path, &lineno, &fr, e)) > 0) {
            rc = 0;
            const char *name = fr.name;
            int *rd = fr.rd;
            long long bytes = fr.bytes;
            long passes = fr.passes;
            double gbps = fr.gbps;
            int hbm = strstr(name, "_hbm") != NULL;
            int sweep = strstr(name, "MiB") != NULL;
            if (fi == 0 ? sweep : !sweep || !(strstr(name, "_24MiB") || strstr(name, "_32MiB")))
                continue;
            int nread = (rd[0] >= 0) + (rd[1] >= 0);
            uint64_t list = hbm ? 128ull << 20 : (uint64_t)bytes / (uint64_t)nread;
            uint64_t sp = hbm ? 1 : sweep ? 4 : (uint64_t)passes;
            double simv = NAN;
            if ((rc = e11_fabric_gbps(&c, rd, list, sp, !hbm, hbm, (double)bytes * (double)passes, &simv, e)) < 0)
                break;
            int one = nread == 1, near = one ? rd[0] == 0 || rd[1] == 1 : rd[0] == 0 && rd[1] == 1;
            int fitted = !sweep && hbm && one && !near;
            e11_row(name, gbps, simv, "GB/s", fitted, BW_TOL, fails);
        }
        fclose(f);
    }
    return rc;
}

int e11_chase_next(FILE *f, e11_chase_row *r)
{
    char line[512];
    while (fgets(line, sizeof line, f)) {
        long smid;
        double ns;
        if (sscanf(line, "%lld,%7[^,],%ld,%ld,%ld,%lf,%lf", &r->bytes, r->mode, &r->hops, &r->warm, &smid,
                   &r->cycles, &ns) == 7) {
            r->cg = strcmp(r->mode, "cg") == 0;
            r->sm = (int)smid;
            return 1;
        }
    }
    return 0;
}

/* The next data line of f (its first line, the header, and blank lines
 * passed over): 1 with it in line, 0 at the end. */
int e11_next_line(FILE *f, char *line, size_t n, long *lineno)
{
    while (fgets(line, (int)n, f)) {
        ++*lineno;
        size_t k = strcspn(line, "\r\n");
        line[k] = '\0';
        if (*lineno > 1 && k > 0)
            return 1;
    }
    return 0;
}

int e11_gz_next_line(gzFile f, char *line, size_t n, long *lineno)
{
    while (gzgets(f, line, (int)n)) {
        ++*lineno;
        size_t k = strcspn(line, "\r\n");
        line[k] = '\0';
        if (*lineno > 1 && k > 0)
            return 1;
    }
    return 0;
}

int e11_bw_next(FILE *f, const char *path, long *lineno, e11_bw_row *r, sk_error *e)
{
    char line[512];
    if (!e11_next_line(f, line, sizeof line, lineno))
        return 0;
    if (sscanf(line, "%63[^,],%lld,%ld,%lld,%lf,%lf", r->name, &r->ws, &r->passes, &r->moved, &r->tns,
               &r->gbps) != 6 ||
        r->ws <= 0 || r->passes <= 0 || r->moved <= 0 || !(r->gbps > 0 && r->gbps < 1e9))
        return sk_errorf(e, SK_EIO,
                         "%s:%ld: '%.60s': expected kernel,bytes_ws,passes,bytes_moved,time_ns_median,gbps with "
                         "positive bytes, passes and GB/s",
                         path, *lineno, line);
    return 1;
}

int e11_fabric_next(FILE *f, const char *path, long *lineno, e11_fabric_row *r, sk_error *e)
{
    char line[512];
    if (!e11_next_line(f, line, sizeof line, lineno))
        return 0;
    if (sscanf(line, "%63[^,],%d,%d,%lld,%ld,%lf,%lf", r->name, &r->rd[0], &r->rd[1], &r->bytes, &r->passes,
               &r->tns, &r->gbps) != 7 ||
        r->rd[0] < -1 || r->rd[0] > 1 || r->rd[1] < -1 || r->rd[1] > 1 || (r->rd[0] < 0 && r->rd[1] < 0) ||
        r->bytes <= 0 || r->passes <= 0 || !(r->gbps > 0 && r->gbps < 1e9))
        return sk_errorf(e, SK_EIO,
                         "%s:%ld: '%.60s': expected case,readers_a,readers_b,bytes_per_pass,passes,time_ns_median,"
                         "gbps with readers -1, 0 or 1 (at least one reading) and positive bytes, passes and GB/s",
                         path, *lineno, line);
    return 1;
}

static int listed_mib(const int *v, long mb)
{
    for (; *v; v++)
        if (*v == mb)
            return 1;
    return 0;
}

/* The reps file beside bandwidth table `name` (bw.csv: reps.csv, X_bw.csv:
 * X_reps.csv, either gzipped as .gz), its path into path: 1 found, 0 not
 * (path then the plain name). */
static int reps_path(const char *dir, const char *name, char *path, size_t n)
{
    size_t k = strlen(name);
    int stem = k >= 6 && !strcmp(name + k - 6, "bw.csv") ? (int)(k - 6) : 0;
    for (int gz = 1; gz >= 0; gz--) {
        snprintf(path, n, "%s/capture/%.*sreps.csv%s", dir, stem, name, gz ? ".gz" : "");
        if (access(path, R_OK) == 0)
            return 1;
    }
    return 0;
}

/* Kernel `kname`'s reps in the reps file at path (kernel,rep,time_ns,
 * t_first_ns,t_last_ns,gap_ns,host_ns; t_first -1 where a kernel kept no
 * CTA times): the median CTA span (t_last - t_first) and the median of
 * each rep's CUDA-event time less its span, in ns, over *n reps (0: none).
 * Every line is checked. */
static int reps_span(const char *path, const char *kname, double *span, double *over, int *n, sk_error *e)
{
    enum { MAXREP = 64 };
    double sp[MAXREP], ov[MAXREP];
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    char line[512];
    long lineno = 0;
    int k = 0;
    while (e11_gz_next_line(f, line, sizeof line, &lineno)) {
        char kn[128];
        long rep;
        double t, a, b, gap, host;
        if (sscanf(line, "%127[^,],%ld,%lf,%lf,%lf,%lf,%lf", kn, &rep, &t, &a, &b, &gap, &host) != 7 || rep < 0 ||
            !(t == -1 || (t > 0 && t < 1e15)) || !(a >= -1 && a < 1e15) || !(b >= -1 && b < 1e15) ||
            (a >= 0 && b < a)) {
            int zrc = e11_gz_close(f, path, lineno, 0, e);
            if (zrc < 0)
                return zrc;
            return sk_errorf(e, SK_EIO,
                             "%s:%ld: '%.60s': expected kernel,rep,time_ns,t_first_ns,t_last_ns,gap_ns,host_ns "
                             "with a positive time (-1: none) and t_last_ns >= t_first_ns (-1: no CTA times)",
                             path, lineno, line);
        }
        if (strcmp(kn, kname) || a < 0 || t < 0 || k == MAXREP)
            continue;
        sp[k] = b - a;
        ov[k] = t - (b - a);
        k++;
    }
    int rc = e11_gz_close(f, path, lineno, 0, e);
    if (rc < 0)
        return rc;
    *n = k;
    *span = k ? e11_median(sp, (size_t)k) : NAN;
    *over = k ? e11_median(ov, (size_t)k) : NAN;
    return 0;
}

/* An add's CTA span beside its CUDA-event row: the bytes over the median
 * span of its reps (the reps file beside table `name`), judged against the
 * simulated span; then, not judged, what the CUDA events add to the span on
 * the chip (the median over reps) and in the model (launch.start_ns and
 * end_ns and the tail).  A short add's event time is mostly that: the
 * chip's varies from session to session (E11, docs/calibration.md). */
static int add_span_row(const char *dir, const char *name, const e11_bw_row *br, double sim_ns, double sim_span,
                        int *fails, sk_error *e)
{
    char path[4096], what[64];
    if (!reps_path(dir, name, path, sizeof path)) {
        char mark[4096];
        if (!e11_partial(dir, mark, sizeof mark))
            return sk_errorf(e, SK_EIO, "%s: cannot open (nor %s.gz; a directory that lacks it by design says so "
                             "in %s)", path, path, mark);
        printf("%-6s %-34s not judged: %s absent (%s)\n", "info", br->name + 4, path, mark);
        return 0;
    }
    double span = NAN, over = NAN;
    int n = 0;
    int rc = reps_span(path, br->name, &span, &over, &n, e);
    if (rc < 0)
        return rc;
    snprintf(what, sizeof what, "%s span", br->name + 4);
    if (n == 0 || !(span > 0)) {
        printf("%-6s %-34s not judged: no CTA times in %s\n", "info", what, path);
        return 0;
    }
    e11_row(what, (double)br->moved / span, (double)br->moved / sim_span, "GB/s", 0, BW_TOL, fails);
    printf("%-6s %-34s %9.2f %9.2f us     event time less span (median of %d reps)\n", "info", "",
           over * 1e-3, (sim_ns - sim_span) * 1e-3, n);
    return 0;
}

int e11_bw_rows(const cfg *c, const char *dir, const char *name, const char *title, const int *cg_mib,
                const int *add_mib, const int *ca_mib, int fit_cg_mib, int *fails, sk_error *e)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/capture/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    printf("\n%s, 1056 x 256 threads (GB/s; add: 3 arrays moved)\n", title);
    e11_bw_row br;
    long lineno = 0;
    int rc = 0;
    while ((rc = e11_bw_next(f, path, &lineno, &br, e)) > 0) {
        int add = strstr(br.name, ".add.") != NULL, cg = strstr(br.name, ".cg.") != NULL;
        if (!listed_mib(cg ? cg_mib : add ? add_mib : ca_mib, (long)(br.ws >> 20)))
            continue;
        double t, span;
        if ((rc = e11_kernel_ns(c, br.ws, br.passes, add, cg, &t, &span, e)) < 0)
            break;
        e11_row(br.name + 4, br.gbps, (double)br.moved / t, "GB/s", cg && (long)(br.ws >> 20) == fit_cg_mib, BW_TOL,
                fails);
        if (add && (rc = add_span_row(dir, name, &br, t, span, fails, e)) < 0)
            break;
    }
    fclose(f);
    return rc < 0 ? rc : 0;
}

int e11_partial(const char *dir, char *mark, size_t n)
{
    snprintf(mark, n, "%s/capture/PARTIAL", dir);
    return access(mark, R_OK) == 0;
}

int e11_absent(const char *dir, const char *path, const char *title, const char *how, sk_error *e)
{
    if (access(path, R_OK) == 0)
        return 0;
    char mark[4096];
    if (!e11_partial(dir, mark, sizeof mark))
        return sk_errorf(e, SK_EIO, "%s: cannot open (a directory that lacks it by design says so in %s)", path,
                         mark);
    printf("\n%s not judged: %s absent (%s; %s)\n", title, path, how, mark);
    return 1;
}

int validate_e11(const cfg *c0, const char *dir, int *fails, sk_error *e)
{
    cfg c = *c0;
    if (cfg_set(&c, "memory.model=hierarchy", e) < 0)
        return e->code;
    char path[4096];
    snprintf(path, sizeof path, "%s/capture/chase.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open", path);
    printf("\nE11 memory hierarchy (memory.model=hierarchy): pointer chase, cycles a hop\n");
    printf("%-6s %-34s %9s %9s %-5s %8s\n", "", "chase", "measured", "simulated", "", "error");
    e11_chase_row ch;
    int rc = 0;
    while (rc == 0 && e11_chase_next(f, &ch)) {
        long long bytes = ch.bytes;
        const char *mode = ch.mode;
        long hops = ch.hops, warm = ch.warm;
        double cyc = ch.cycles;
        int cg = ch.cg;
        double simv = NAN;
        if ((rc = chase_cycles(&c, bytes, hops, warm, cg, ch.sm, &simv, e)) < 0)
            break;
        char what[64];
        snprintf(what, sizeof what, "%s %lld KiB%s", mode, bytes / 1024, warm ? "" : " (cold)");
        /* memory.l1.hit_cycles was fitted to E19b's same-launch chase, so
         * no chase row here set a value */
        e11_row(what, cyc, simv, "cyc", 0, LAT_TOL, fails);
    }
    fclose(f);
    if (rc < 0)
        return rc;

    /* a sample of the curve, as measured (passes and all; the 4 GiB runs
     * take 5-40 s each to simulate): L1-resident working sets (1 MiB: 16
     * warps an SM with one element a pass each; 4 MiB: 64 warps with one;
     * 8 MiB: two), where the pass loop's own instructions count (the
     * listing, gen_mem.c), the L2 plateau with and without L1, the .cg
     * plateau's edge (48 MiB: all SMs' working set fits only if a
     * home copy read for a remote reader's replica gives up its place;
     * 64 MiB: it does not fit), the HBM plateau, and add.  One row sets a
     * value: the 16 MiB .cg stream, memory.l2.slice_gbps's fit
     * (configs/h200.yaml), tagged fitted; the others are predictions. */
    static const int cg_mib[] = {8, 16, 48, 64, 128, 0}, add_mib[] = {4, 64, 0}, ca_mib[] = {1, 4, 8, 16, 0};
    rc = e11_bw_rows(&c, dir, "bw.csv", "E11 read bandwidth", cg_mib, add_mib, ca_mib, 16, fails, e);
    if (rc == 0)
        rc = validate_e18(&c, dir, fails, e);
    if (rc == 0)
        rc = validate_e21(&c, dir, fails, e);
    if (rc == 0)
        rc = validate_e21d(&c, dir, fails, e);
    if (rc == 0)
        rc = validate_e22(&c, dir, fails, e);
    if (rc == 0)
        rc = validate_e22b(&c, dir, fails, e);
    return rc;
}
