/* sweep.h -- a parameter sweep's spec (docs/sweeps.md): which config, which
 * traces, which overrides, and the points they multiply out to.
 *
 * A spec is YAML with six top-level keys (sweep_spec_help() prints them
 * from the one table in spec.c).  Points are traces x cases x product(axes)
 * x seeds, numbered in that order with the seed varying fastest; point i is
 * computed from i alone (mixed radix), so a shard or a resume needs no list.
 *
 * Parsing checks everything it can without touching the file system: every
 * key and value is applied to a scratch cfg (cfg_set_value), every `gen`
 * command is built once in memory.  Errors are one line,
 * "spec:line:col: section: key: value: expected ...".  sweep_point_cfg()
 * then checks each point against the real config (cross-field rules).
 * sweep_run() (src/sweep/engine.c) runs a spec: it forks one child per
 * point; `skewsim sweep` (src/cli/cmd_sweep.c) is its command line.
 */
#ifndef SKEWSIM_SWEEP_H
#define SKEWSIM_SWEEP_H

#include <signal.h>
#include <stdio.h>
#include "skewsim/common.h"
#include "skewsim/config.h"
#include "skewsim/program.h"
#include "skewsim/sweep_hpc.h"

#define SWEEP_MAX_POINTS 100000   /* a bigger study is several specs, or a mistake */
#define SWEEP_MAX_AXES 16
#define SWEEP_MAX_LIST 10000      /* traces, cases, seeds, values of one axis: each at most this */
#define SWEEP_NAME_MAX 64         /* trace and case names */

typedef struct sweep_pos {
    size_t line, col;             /* 1-based, in the spec file */
} sweep_pos;

/* One override: a config key and its value as text. */
typedef struct sweep_kv {
    char *key, *value;
    sweep_pos at;                 /* of the value */
} sweep_kv;

typedef struct sweep_trace {
    char *name;
    char *path;                   /* as written (path:), or NULL for gen: */
    char *resolved;               /* path: relative to the spec's directory; NULL for gen: */
    char *gen;                    /* the gen command line, or NULL */
    char *sass;                   /* sass: the binary's SASS listing for an Accel-Sim path:, as written */
    char *sass_resolved;          /* ... relative to the spec's directory; NULL: none */
    sweep_pos at;
} sweep_trace;

typedef struct sweep_case {
    char *name;
    sweep_kv *kv;
    size_t nkv;
    sweep_pos at;
} sweep_case;

typedef struct sweep_axis {
    char *key;
    char **values;
    sweep_pos *at;                /* of each value */
    size_t nvalues;
} sweep_axis;

typedef struct sweep_spec {
    char *name;                   /* the spec's file name, for messages */
    char *config;                 /* as written */
    char *config_resolved;        /* relative to the spec's directory */
    sweep_pos config_at;
    sweep_trace *traces;
    size_t ntraces;
    sweep_kv *set;
    size_t nset;
    sweep_case *cases;            /* ncases == 0: one unnamed case, no overrides */
    size_t ncases;
    sweep_axis *axes;
    size_t naxes;
    uint64_t *seeds;              /* nseeds == 0: the config's sim.seed */
    sweep_pos *seed_at;
    size_t nseeds;
    size_t npoints;
} sweep_spec;

/* Point `index` of a spec: which trace, case, value of each axis, seed. */
typedef struct sweep_point {
    size_t index;
    size_t trace, kase, seed;     /* kase, seed: 0 when the spec has none */
    size_t axis[SWEEP_MAX_AXES];
} sweep_point;

/* Parse a spec from memory.  `name` is used in messages; `dir` is the
 * directory relative paths are resolved against (NULL or "": as written).
 * Fills *s (caller frees with sweep_spec_free(), also after a failure).
 * Returns 0, SK_ECONFIG or SK_ERANGE (too many points). */
int sweep_spec_parse(sweep_spec *s, const char *name, const char *dir, const unsigned char *buf,
                     size_t len, sk_error *e);
/* Read and parse a spec file; relative paths are resolved against its
 * directory.  SK_EIO when it cannot be read. */
int sweep_spec_load(sweep_spec *s, const char *path, sk_error *e);
void sweep_spec_free(sweep_spec *s);

/* Point `index` (< s->npoints). */
void sweep_point_at(const sweep_spec *s, size_t index, sweep_point *p);

/* The point's config: *base (the loaded config), then `set`, the case, each
 * axis value and the seed, then cfg_validate().  A failure is placed at the
 * last override the point applies: "spec:line:col: point NNNN-slug: ...". */
int sweep_point_cfg(const sweep_spec *s, const sweep_point *p, const cfg *base, cfg *out,
                    sk_error *e);

/* The point's directory name "NNNN-trace-case-values-sSEED": [A-Za-z0-9._-]
 * only, every other byte as '_'.  Returns buf. */
const char *sweep_point_slug(const sweep_spec *s, const sweep_point *p, char *buf, size_t cap);

/* Build trace t's `gen` kernel in memory (*k: caller frees with
 * kernel_free(); *repeat: kernels back to back).  Errors name the spec
 * position. */
int sweep_gen_build(const sweep_spec *s, const sweep_trace *t, kernel *k, long *repeat,
                    sk_error *e);

/* The spec's keys, one per line, from the schema table (docs/sweeps.md). */
void sweep_spec_help(FILE *out);

/* ---- running a spec (src/sweep/engine.c) ---- */

#define SWEEP_MAX_JOBS 1024

typedef struct sweep_opts {
    const char *spec;             /* the spec file */
    const char *dir;              /* the output tree; may be NULL with list */
    int jobs;                     /* points at once, 1..SWEEP_MAX_JOBS; 0: one per online CPU */
    int shard_k, shard_n;         /* run only points i with i % shard_n == shard_k (0, 1: all) */
    int force;                    /* run points already done */
    int collect;                  /* run nothing: rebuild sweep.csv, count what is done */
    int list;                     /* print the points (this shard's) and run nothing */
    /* Each point run also writes DIR/points/NNNN-.../timeline.json (run
     * --timeline), at most timeline_max_events events (0: no bound).  Not
     * part of a point's key: points already done keep what they have. */
    int timeline;
    uint64_t timeline_max_events;
    /* The caller's signal flag (its SIGINT/SIGTERM handler stores the
     * signal number): once non-zero, no new point starts, running ones get
     * SIGTERM, their temporaries are removed.  The engine only reads it;
     * NULL: no signal stops the sweep. */
    const volatile sig_atomic_t *stop;
    FILE *out;                    /* the table, --list: NULL is stdout */
    int quiet;                    /* no progress report */
    FILE *progress;               /* the progress report (sweep_hpc.h): NULL: none */
    int progress_tty;             /* 1: one line rewritten in place, 0: a line per point, -1: isatty() */
    int reuse_across_versions;    /* a point done by another build of skewsim counts as done */
    const sweep_slurm_opts *slurm;   /* on: submit to Slurm instead of running (docs/hpc.md); NULL: run */
} sweep_opts;

/* How a sweep ended, for the caller's message and exit status. */
typedef struct sweep_outcome {
    size_t npoints;               /* of the spec */
    size_t run, skipped, failed;  /* this run's points (this shard's): run (failed among them), done already */
    size_t missing, not_ok;       /* sweep.csv: points not done (stale or missing), points failed */
    char missing_list[128];       /* the first of the missing: "0003, 0007, ..." */
    int signal;                   /* the signal that stopped it, 0: none */
    int slurm;                    /* submitted (or printed, --dry-run) instead of run */
} sweep_outcome;

/* Run (or with collect / list, only read) the sweep of opts->spec into
 * opts->dir; writes DIR/sweep.csv and prints its table to opts->out.
 * Returns 0 whether or not points failed (the outcome says), or a
 * negative SK_E* code with *e filled: the spec, the config, a trace, the
 * file system. */
int sweep_run(const sweep_opts *o, sweep_outcome *out, sk_error *e);

#endif
