/* cli.h -- the skewsim command line: one function per subcommand.  Each
 * returns the process exit status; only this layer prints errors and exits. */
#ifndef SKEWSIM_CLI_H
#define SKEWSIM_CLI_H

#include <signal.h>
#include <zlib.h>
#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/results.h"
#include "skewsim/run.h"
#include "skewsim/trace.h"

int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_validate(int argc, char **argv);
/* validate's E10 section (validate_e10.c): the unit table against the
 * measured latencies and issue rates in DIR; adds failed criteria to *fails. */
int validate_e10(const cfg *c, const char *dir, int *fails, sk_error *e);
/* What a config's constants were fitted on (validate_fitted.c):
 * configs/NAME.fitted.csv, kernel,detail,keys.  A row is a captured
 * kernel's id, or a capture file's path relative to the table's folder
 * (real: that file resolved, NULL for a kernel row or a file not here). */
typedef struct vfit_row {
    char *kernel, *detail, *keys, *real;
} vfit_row;
typedef struct vfit {
    char path[4096];
    vfit_row *row;
    size_t n;
} vfit;
/* Read the table at path (NULL: an empty table); file:line errors. */
int vfit_load(vfit *f, const char *path, sk_error *e);
void vfit_free(vfit *f);
/* 1 when a kernel row names kernel kid, for every row (empty detail) or
 * for this detail. */
int vfit_kernel(const vfit *f, const char *kid, const char *detail);
/* 1 when a capture row names the file at path (the same file on disk) and,
 * unless key is NULL, lists config key key. */
int vfit_capture(const vfit *f, const char *path, const char *key);
/* validate --measured (validate_measured.c): every kernel of the capture
 * directory DIR (tools/capture/README.md) that has a generator, simulated
 * and compared; rows tagged fitted where fit lists them.  With
 * max_mape > 0 a predicted MAPE above it adds to *fails; `only` (NULL: all)
 * lists the families to run, comma-separated. */
int validate_measured(const cfg *c, const char *dir, const vfit *fit, const char *only,
                      double max_mape, int *fails, sk_error *e);
/* n copies of kernel k simulated on c, copy i launched gap_ns[i] after the
 * one before (NULL: back to back); us[i] gets copy i's launch-to-completion
 * time in microseconds.  0 or a negative code (validate_measured.c). */
int validate_kernel_times(const cfg *c, const kernel *k, int n, const uint64_t *gap_ns, double *us,
                          sk_error *e);
/* validate's E11 section (validate_e11.c): the memory hierarchy against the
 * chases and bandwidths in DIR/capture; adds failed criteria to *fails. */
int validate_e11(const cfg *c, const char *dir, int *fails, sk_error *e);
/* validate's l2map section (validate_l2map.c): E11's l2map, each SM's L2
 * hits line by line (DIR/capture/l2map.csv.gz and pages.csv, and any
 * further chip's l2map_TAG.csv.gz beside pages_TAG.csv), against the
 * model's routes (memory.l2.route_spread_ps); a capture's rows say fitted
 * for the keys fit lists for it. */
int validate_l2map(const cfg *c, const char *dir, const vfit *fit, int *fails, sk_error *e);
int validate_l2map_has_capture(const char *dir);
/* One row of E11's capture/chase.csv (bytes,mode,hops,warm,sm,cycles,ns):
 * the next one of f, header and malformed lines passed over; 0 at the end
 * (validate_e11.c; the E20 section reads the same file). */
typedef struct e11_chase_row {
    long long bytes;
    char mode[8];
    long hops, warm;
    double cycles;
    int cg;                   /* mode "cg": ld.global.cg */
    int sm;                   /* the SM the timed chase ran on */
} e11_chase_row;
int e11_chase_next(FILE *f, e11_chase_row *r);
/* One row of capture/bw.csv (kernel,bytes_ws,passes,bytes_moved,time_ns,
 * gbps; E11 and E24) or of capture/fabric*.csv (case,readers_a,readers_b,
 * bytes_per_pass,passes,time_ns,gbps; E18, E18b, E24): the next one of f
 * (path, *lineno counting its lines), the header and blank lines passed
 * over: 1, 0 at the end, or a negative code with "path:line: ..." in *e
 * for a line that does not parse or is out of bounds. */
typedef struct e11_bw_row {
    char name[64];
    long long ws, moved;
    long passes;
    double tns, gbps;
} e11_bw_row;
int e11_bw_next(FILE *f, const char *path, long *lineno, e11_bw_row *r, sk_error *e);
typedef struct e11_fabric_row {
    char name[64];
    int rd[2];                /* the list partition 0's and 1's SMs read (-1: none) */
    long long bytes;
    long passes;
    double tns, gbps;
} e11_fabric_row;
int e11_fabric_next(FILE *f, const char *path, long *lineno, e11_fabric_row *r, sk_error *e);
/* validate_e11.c's pieces that the E24 section shares: kernels k[0..n-1]
 * simulated on c in one trace; a stream's (passes) or c = a + b's (add)
 * kernel time in ns, 1056 x 256 threads; E18's bandwidth of partition
 * p's SMs reading list rd[p] (GB/s, the chip's bytes); one judged row. */
int e11_simulate(const cfg *c, const kernel *k, int n, results **out, sk_error *e);
/* Kernels k[0..n-1] on SM on_sm alone (sms=sm:ID), where a one-SM capture
 * recorded that the chip ran it (each SM's L2 latency is its own:
 * docs/topology.md "TPC chains"); on_sm < 0 or past c's SMs: left to the
 * dispatcher. */
void e11_on_sm(const cfg *c, kernel *k, int n, int on_sm);
/* The same, each kernel after the first launched once the one before
 * completed (sync=host); rc < 0 (making them failed) skips the run and
 * is returned.  Frees the kernels either way. */
/* A capture directory that lacks some captures by design (a second chip)
 * says which in capture/PARTIAL; there an absent capture is said, not
 * judged, and elsewhere it is an error.  e11_absent: 0 when path can be
 * read; 1, having printed "TITLE not judged: PATH absent (HOW)", when it
 * cannot and DIR is partial; else the error's negative code. */
int e11_absent(const char *dir, const char *path, const char *title, const char *how, sk_error *e);
/* 1 when DIR is such a partial directory; its marker's path into mark. */
int e11_partial(const char *dir, char *mark, size_t n);
int e11_simulate_seq(const cfg *c, kernel *k, int n, int rc, results **out, sk_error *e);
int e11_kernel_ns(const cfg *c, long long bytes, long passes, int add, int cg, double *ns, double *span_ns,
                  sk_error *e);
/* The same kernel (the stream or the add) at ctas x block threads, E11's
 * launch after a warm one: the timed launch's ns (CUDA events) and, when
 * span_ns is not NULL, its first CTA start to last CTA end. */
int e11_grid_ns(const cfg *c, long ctas, long block, long long bytes, long passes, int add, int cg, double *ns,
                double *span_ns, sk_error *e);
/* The next non-empty line of a capture CSV past its header (line 1), its
 * line number in *lineno, end of line stripped: 1, or 0 at the end. */
int e11_next_line(FILE *f, char *line, size_t n, long *lineno);
/* The same from a gzip file. */
int e11_gz_next_line(gzFile f, char *line, size_t n, long *lineno);
int e11_fabric_gbps(const cfg *c, const int rd[2], uint64_t list, uint64_t passes, int warm, int hbm,
                    double chip_bytes, double *gbps, sk_error *e);
void e11_row(const char *what, double meas, double simv, const char *unit, int fitted, double tol,
             int *fails);
/* The median of v[0..n-1], n > 0 (sorts v in place). */
double e11_median(double *v, size_t n);
/* Close a capture's gzip stream read up to line `lineno`: returns rc, or
 * where rc is 0 and zlib saw the stream damaged, that error (file:line). */
int e11_gz_close(gzFile f, const char *path, long lineno, int rc, sk_error *e);
/* The rows of DIR/capture/NAME (bw.csv's format) whose working set in MiB
 * is listed for its kind (.cg, add, or a default-caching stream; each list
 * ends with 0), simulated as measured and judged as predicted, under
 * TITLE, but the .cg row of fit_cg_mib MiB (0: none), a fit's target,
 * shown as fitted.  0 or a negative code. */
int e11_bw_rows(const cfg *c, const char *dir, const char *name, const char *title, const int *cg_mib,
                const int *add_mib, const int *ca_mib, int fit_cg_mib, int *fails, sk_error *e);
/* validate's E24 section (validate_e24.c): the L2's capacity edge, a
 * one-SM chase by working set and streams around the capacity. */
int validate_e24(const cfg *c, const char *dir, int *fails, sk_error *e);
/* validate's E20 section (validate_e20.c): address translation against
 * DIR/capture/tlb.csv and E11's DRAM chases; adds failed criteria to *fails. */
int validate_e20(const cfg *c, const char *dir, int *fails, sk_error *e);

/* validate's E23 section (validate_e23.c): one warp load's cost by the
 * lines and pages its lanes spread over, against capture/warpload.csv.gz. */
int validate_e23(const cfg *c, const char *dir, int *fails, sk_error *e);

/* validate's E25 section (validate_e25.c): what the L2 holds after E24's
 * kernels, line by line, against capture/retain.csv and the further runs
 * beside it (retain_TAG.csv); before a capture exists, the model's side
 * alone (nothing judged); a run fit names is shown, not judged.
 * has_capture: 1 when DIR/capture holds a run. */
int validate_e25_has_capture(const char *dir);
int validate_e25(const cfg *c, const char *dir, const vfit *fit, int *fails, sk_error *e);
int validate_e25_model(const cfg *c, sk_error *e);
/* validate's E39 section (validate_e25.c, with E25's classes): what the L2
 * keeps of an 8 MiB array written or read, under a .cg stream of 0-96 MiB
 * after it, against capture/dirty.csv (dirty_TAG.csv beside it); before a
 * capture exists, the model's side alone. */
int validate_e39_has_capture(const char *dir);
int validate_e39(const cfg *c, const char *dir, const vfit *fit, int *fails, sk_error *e);
int validate_e39_model(const cfg *c, sk_error *e);
/* validate's E30 section (validate_e30.c): E16's shared-memory loop at 1-8
 * warps a sub-partition against DIR/lds/lds_*.csv.gz (cap_lds). */
int validate_e30_has_capture(const char *dir);
int validate_e30(const cfg *c, const char *dir, int *fails, sk_error *e);
/* validate's E31 section (validate_e31.c): warp 0's loop cycles in each
 * CTA of cap_worder's FFMA-chain kernels, by the CTA's rank on its SM */
int validate_e31_has_capture(const char *dir);
int validate_e31(const cfg *c, const char *dir, int *fails, sk_error *e);
/* validate's E35 section (validate_e36.c): E35's stream rates by CTAs an
 * SM and footprint (DIR/l1cap/l1cap_stream.csv). */
int validate_e35_has_capture(const char *dir);
int validate_e35(const cfg *c, const char *dir, int *fails, sk_error *e);
/* validate's E36 section (validate_e36.c): the L1's and the L2's steady hit
 * rates of E35's stream against ncu's counters (DIR/ncu/ncu.csv.gz). */
int validate_e36_has_capture(const char *dir);
int validate_e36(const cfg *c, const char *dir, int *fails, sk_error *e);
int cmd_import(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_collect(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Print "skewsim: <msg>" for a recorded error and return its exit status. */
int cli_fail(const sk_error *e);

/* The flag a running sweep checks between points (opts.stop), and the call
 * that routes SIGINT and SIGTERM to it, so a stopped run keeps what it
 * finished. */
const volatile sig_atomic_t *cli_stop_flag(void);
void cli_catch_stop_signals(void);

/* A whole string of decimal digits (no sign, no blank) no larger than max,
 * into *out: 0, or -1 and *out untouched.  Every count option uses these. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);
int cli_parse_uint(const char *s, long max, long *out);

/* The command line of plot and report (args.c): up to maxpos words in
 * order, -o FILE, -c CONFIG and --set key=value (repeatable), in any order.
 * The caller fills cmd, usage, maxpos and help_ok; on a bad word it gets
 * "CMD: WORD: unknown option|missing value|unexpected argument: expected
 * USAGE" (SK_EUSAGE).  With help_ok, --list or --help stops the parse with
 * help = 1.  sets is allocated even on failure: the caller frees it. */
#define CLI_MAX_POS 2
typedef struct cli_out_args {
    const char *cmd, *usage;
    int maxpos, help_ok;
    const char *pos[CLI_MAX_POS];
    int npos, help;
    const char *out, *cpath;   /* NULL when not given */
    char **sets;
    int nsets;
} cli_out_args;
int cli_parse_out_args(cli_out_args *a, int argc, char **argv, sk_error *e);

/* Load -c FILE (or defaults when NULL) and apply each --set in order, then
 * cross-validate.  Shared by run, config and validate. */
int cli_load_config(cfg *c, const char *path, char **sets, int nsets, sk_error *e);

#endif
