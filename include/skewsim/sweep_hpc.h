/* sweep_hpc.h -- what a sweep needs to run well on a cluster (issue 14,
 * docs/hpc.md): a trace's cost profile and the shard sizing it drives, the
 * Slurm array and collect scripts and their submission, the lock on a
 * results directory, and the progress report.
 *
 * None of this runs a point; the sweep engine calls it.  Everything that
 * reads a clock or a terminal takes it as an argument, so the tests drive
 * it with a fake one.
 */
#ifndef SKEWSIM_SWEEP_HPC_H
#define SKEWSIM_SWEEP_HPC_H

#include <stdio.h>
#include <sys/types.h>
#include "skewsim/common.h"
#include "skewsim/sass.h"

/* ---- a trace's cost ------------------------------------------------------- */

/* A whole trace read once, as `run` will read it: every kernel and CTA
 * record parsed (so a syntax error is found before any point runs), and
 * what a point's simulation time grows with counted. */
typedef struct sweep_trace_cost {
    uint64_t kernels, ctas, warps;
    uint64_t warp_instr;          /* dynamic warp-instructions, all warps of all CTAs */
    uint64_t mem_instr;           /* of them global loads and stores */
} sweep_trace_cost;

/* Parse the trace at `path` (a file, or an Accel-Sim list or its
 * directory, as trace_open reads it; with `listing`, its stall counts from
 * that SASS listing) to the end and count it.  0, or the reader's negative
 * code with its "file:line: ..." message in *e. */
int sweep_trace_cost_read(const char *path, const sass *listing, const char *listing_name,
                          sweep_trace_cost *out, sk_error *e);

/* 1 when `path` is a native skewsim trace (gzip'd, or text whose first
 * line that is not blank or a # comment is the "skewsim-trace" header),
 * 0 for anything else (an Accel-Sim directory, list or kernel file). */
int sweep_trace_is_native(const char *path);

/* sweep_trace_cost_read() that also writes what it reads, in the native
 * format, to `out` (through a temporary in its directory, then rename):
 * an Accel-Sim trace converted once, with its listing's stall counts, so
 * that every point of a sweep reads the compact form (docs/sweeps.md,
 * "Accel-Sim traces").  A trace and its conversion simulate to the same
 * bytes (tests/test_accelsim.c, import). */
int sweep_trace_convert(const char *path, const sass *listing, const char *listing_name, const char *out,
                        sweep_trace_cost *cost, sk_error *e);

/* Estimated wall seconds of one point that simulates a trace of cost *c on
 * one core: a model in docs/hpc.md ("Sizing"), for sizing shards only. */
double sweep_point_seconds(const sweep_trace_cost *c);

/* ---- Slurm ---------------------------------------------------------------------- */

/* A Slurm time limit ("MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM",
 * "D-HH:MM:SS") in seconds.  0, or -1 for anything else (also 0 s and
 * UNLIMITED: shards are sized to a finite limit). */
int sweep_slurm_parse_time(const char *s, long *seconds);
/* Seconds as D-HH:MM:SS (at least 1 s), what #SBATCH --time takes.  Returns buf. */
const char *sweep_slurm_fmt_time(long seconds, char *buf, size_t cap);

/* How shards must fit a task. */
typedef struct sweep_sizing {
    long time_s;                  /* the task's --time */
    long grace_s;                 /* --signal=B:TERM@grace_s: the sweep stops this early */
    int cpus;                     /* points at once per task (-j) */
    int array_max;                /* most tasks in the array */
    double fill;                  /* share of time_s - grace_s the estimate may fill (0..1] */
} sweep_sizing;

/* Estimated wall seconds of shard k of n (the points whose index % n == k
 * and whose cost is >= 0; a negative cost is a point already done) on
 * `cpus` slots, scheduled as the engine schedules them: in index order,
 * each on the first slot to come free. */
double sweep_shard_seconds(const double *cost, size_t npoints, int k, int n, int cpus);

/* The fewest shards (tasks) whose every estimated shard fits
 * fill * (time_s - grace_s), at most array_max and at most the points to
 * run (1 when none are left).  *worst_s: the longest shard's estimate.
 * 0, or SK_ERANGE with a message naming what does not fit (one point
 * alone, or the whole study in array_max tasks). */
int sweep_slurm_shards(const double *cost, size_t npoints, const sweep_sizing *z, int *shards,
                       double *worst_s, sk_error *e);

/* One submission of a sweep.  Paths are absolute (the caller resolves
 * them); partition and mem may be NULL (the cluster's defaults). */
typedef struct sweep_slurm_job {
    const char *bin, *spec, *dir;
    const char *partition, *mem;
    long time_s, grace_s;
    int cpus, shards;
    const char *sweep_flags;      /* more `sweep` options for every task ("" or NULL: none) */
    size_t npoints, nrun;         /* for the script's comment: the spec's, and those to run */
    double worst_s;               /* the longest shard's estimate */
} sweep_slurm_job;

/* The array script: task K of shards runs `sweep SPEC -o DIR --shard K/N -j cpus`
 * through exec (so --signal=B:TERM reaches the sweep).  Its index is the
 * shard: resubmitting it with --array=3,7 reruns shards 3 and 7. */
void sweep_slurm_array_script(FILE *f, const sweep_slurm_job *j);
/* The collect script: `sweep SPEC -o DIR --collect`, one core. */
void sweep_slurm_collect_script(FILE *f, const sweep_slurm_job *j);
/* A path #SBATCH and sh can take as it is: no blank, quote, backslash, %,
 * $ or backquote (sbatch splits #SBATCH lines at blanks, and expands % in
 * --output).  0, or -1. */
int sweep_slurm_path_ok(const char *path);

/* Submit `script` with `sbatch --parsable` (the program $SKEWSIM_SBATCH,
 * else sbatch on PATH), after job `after` with afterok and
 * --kill-on-invalid-dep=yes when not NULL.  The job id goes to jobid.
 * 0, or SK_EIO with a message (sbatch's own error went to stderr). */
int sweep_slurm_submit(const char *script, const char *after, char *jobid, size_t cap, sk_error *e);

/* The command-line options of `sweep --slurm` (docs/hpc.md). */
typedef struct sweep_slurm_opts {
    int on;                       /* --slurm */
    int dry_run;                  /* --dry-run: print the scripts, submit nothing */
    const char *partition, *mem;  /* --partition P, --mem M (NULL: the cluster's default) */
    long time_s;                  /* --time T (default 2 h) */
    int cpus;                     /* --cpus C (default 8) */
    int array_max;                /* --array-max K (default 1000) */
} sweep_slurm_opts;

void sweep_slurm_opts_init(sweep_slurm_opts *o);
/* If argv[*i] is one of the --slurm options, take it (and its value:
 * *i advances) and return 1; 0 when it is not one; SK_EUSAGE with a
 * message for a bad value. */
int sweep_slurm_opt(sweep_slurm_opts *o, int argc, char **argv, int *i, sk_error *e);
/* The usage text of those options, for `sweep --help`. */
#define SWEEP_SLURM_USAGE "[--slurm [--partition P] [--time T] [--array-max K] [--cpus C] [--mem M] [--dry-run]]"

/* Everything `sweep --slurm` does once the spec is loaded and every point's
 * cost is known (cost[i] < 0: done): size the shards, write
 * DIR/slurm/sweep.sbatch and DIR/slurm/collect.sbatch (atomically), then
 * with dry_run print both to `out`, else submit the array and the collect
 * job after it and print their ids.  bin: NULL for this executable
 * (/proc/self/exe); spec and dir are made absolute here.  sweep_flags:
 * options every task repeats (NULL: none). */
int sweep_slurm_launch(const sweep_slurm_opts *o, const char *bin, const char *spec, const char *dir,
                       const double *cost, size_t npoints, const char *sweep_flags, FILE *out,
                       sk_error *e);

/* ---- the results directory's lock ------------------------------------------ */

/* DIR/.lock, locked with fcntl open-file-description locks: an unsharded
 * sweep write-locks the whole file, shard K write-locks byte 1 + K, so the
 * shards of one array share DIR while a second unsharded sweep, the same
 * shard twice, or a sweep into a directory an array is filling is
 * refused.  (flock(2) has no byte ranges, and NFS turns it into these
 * locks anyway.)  The file stays empty, so the tree stays byte-identical. */
typedef struct sweep_lock {
    int fd;                       /* -1: not held */
} sweep_lock;

/* Take the lock, without waiting.  0; SK_EIO with "DIR: another sweep is
 * writing this directory ..." when held elsewhere, or when DIR/.lock
 * cannot be opened. */
int sweep_lock_take(sweep_lock *l, const char *dir, int shard_k, int shard_n, sk_error *e);
/* Release it (a no-op when not held).  A forked child that will not write
 * the tree calls it too, so a child outliving the sweep cannot keep it. */
void sweep_lock_drop(sweep_lock *l);

/* ---- collect ---------------------------------------------------------------------- */

/* DIR/results.csv and DIR/results.json from every point directory of DIR
 * that holds a point.json (src/sweep/tidy.c says how): one row per point
 * and kernel (one row for a failed point), every override key, gen option
 * and the seed in a column of its own.  *npoints, *nrows: what was
 * written.  0, or SK_EIO (an unreadable DIR/points, a point.json or
 * summary.json that does not parse: "file:line:col: ..."). */
int sweep_tidy_write(const char *dir, size_t *npoints, size_t *nrows, sk_error *e);

/* ---- point processes --------------------------------------------------------- */

/* In a forked point process: die with the sweep (PR_SET_PDEATHSIG: SIGKILL),
 * so a SIGKILLed sweep leaves no point running on its own, and exit at once
 * if the sweep `parent` is already gone. */
void sweep_child_bind(pid_t parent);

/* A fingerprint of what `value` means for config key `key` (the effective
 * config it gives, dumped and hashed): `1` and `01` of an int key, `0.5`
 * and `.50` of a real one, share it.  0, or the message cfg_set_value()
 * gives. */
int sweep_value_fingerprint(const char *key, const char *value, uint64_t *fp, sk_error *e);

/* ---- provenance ------------------------------------------------------------------ */

/* The resume key of a point: the key of its inputs (config, trace, listing,
 * map file) and the simulator that ran it (sk_version(), sk_commit()), so
 * a rebuilt skewsim does not take an older build's results as its own.
 * `--reuse-across-versions` compares input keys only. */
uint64_t sweep_key_with_build(uint64_t input_key);

/* ---- progress ------------------------------------------------------------------ */

/* On a terminal, one line rewritten in place ("sweep: 12/100 done, 1
 * failed, 4 running, ETA 3m20s"); otherwise one line per finished point;
 * quiet: nothing.  The ETA weighs the points by their estimated cost. */
typedef struct sweep_progress {
    FILE *out;
    int tty, quiet;
    size_t total, done, failed, running;
    double est_total, est_done;   /* estimated seconds: of the points to run, of those ended */
    double t0;                    /* now() at the start */
    double (*now)(void);          /* seconds, any origin */
    int shown;                    /* a terminal line is on screen */
} sweep_progress;

void sweep_progress_init(sweep_progress *p, FILE *out, int tty, int quiet, size_t total,
                         double est_total, double (*now)(void));
void sweep_progress_started(sweep_progress *p);
/* A point ended: its name, ok or not, its wall seconds and its estimate. */
void sweep_progress_ended(sweep_progress *p, const char *name, int ok, double wall_s, double est_s);
/* Before anything else is printed, and at the end: the terminal line is
 * ended with a newline. */
void sweep_progress_pause(sweep_progress *p);
/* Monotonic seconds (CLOCK_MONOTONIC), the clock a real sweep uses. */
double sweep_clock(void);

#endif
