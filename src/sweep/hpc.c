/* hpc.c -- a sweep on a cluster (include/skewsim/sweep_hpc.h, docs/hpc.md):
 * trace cost and shard sizing, Slurm scripts and submission, the results
 * directory's lock, progress.
 *
 * Sizing.  A task of an array has a hard time limit; a shard that does not
 * fit loses its last points to SIGTERM and needs a resubmission, a shard
 * far below it wastes queue slots (each task waits in the queue on its
 * own).  The engine starts a shard's points in index order, each on the
 * first of its -j slots to come free, so a shard's wall time is that list
 * schedule of its points' costs; sweep_shard_seconds() computes exactly
 * that schedule, and sweep_slurm_shards() takes the fewest shards whose
 * every schedule fits.  A point's cost is a model of the simulator's speed
 * (sweep_point_seconds), which is only an estimate: `fill` leaves room.
 */
#define _GNU_SOURCE 1   /* F_OFD_SETLK */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <signal.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "skewsim/config.h"
#include "skewsim/program.h"
#include "skewsim/fileio.h"
#include "skewsim/sweep_hpc.h"
#include "skewsim/trace.h"
#include "skewsim/version.h"

/* ---- a trace's cost ---------------------------------------------------- */

/* round(count * work), the rounding the SM model applies to work-scaled loops. */
static uint64_t scaled(uint32_t count, double work)
{
    double x = round((double)count * work);
    if (!(x > 0))
        return 0;
    return x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
    return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* Dynamic warp-instructions of warp `widx` running p with `work`, and of
 * them global memory ops: the walk of prog_warp_count(), by kind. */
static void warp_walk(const program *p, double work, uint32_t widx, uint64_t *all, uint64_t *mem)
{
    uint64_t mult[PROG_MAX_LOOP_DEPTH + 1];
    int depth = 0;
    mult[0] = 1;
    *all = *mem = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const instr *in = &p->code[i];
        switch (in->kind) {
        case IK_LOOP:
            if (depth < PROG_MAX_LOOP_DEPTH) {
                uint64_t c = (in->flags & IF_WORK_SCALED) ? scaled(in->arg, work) : in->arg;
                mult[depth + 1] = mul_sat(mult[depth], c);
                depth++;
            }
            break;
        case IK_ENDLOOP:
            if (depth > 0)
                depth--;
            break;
        case IK_IFWARP:
            if (in->arg != widx && in->jump > i)
                i = in->jump - 1;
            break;
        case IK_ENDIF:
            break;
        default:
            *all = add_sat(*all, mult[depth]);
            if (in->kind == IK_LD_GLOBAL || in->kind == IK_ST_GLOBAL)
                *mem = add_sat(*mem, mult[depth]);
            break;
        }
    }
}

int sweep_trace_cost_read(const char *path, const sass *listing, const char *listing_name,
                          sweep_trace_cost *out, sk_error *e)
{
    memset(out, 0, sizeof *out);
    trace *t = trace_open(path, e);
    if (!t)
        return e->code ? e->code : SK_EIO;
    int rc = 0;
    if (listing && (rc = trace_set_sass(t, listing, listing_name, e)) != 0) {
        trace_close(t);
        return rc;
    }
    kernel k;
    memset(&k, 0, sizeof k);
    while ((rc = trace_next_kernel(t, &k, e)) == 1) {
        out->kernels++;
        uint32_t warps = (k.block_threads + 31) / 32;
        /* CTAs of one program and one work factor cost the same: remember
         * the last pair (a grid is almost always one program at work 1). */
        uint32_t last_prog = UINT32_MAX;
        double last_work = 0;
        uint64_t cta_all = 0, cta_mem = 0;
        cta_desc d;
        while ((rc = trace_next_cta(t, &d, e)) == 1) {
            if (d.prog != last_prog || d.work != last_work) {
                cta_all = cta_mem = 0;
                if (d.prog < k.nprogs)
                    for (uint32_t w = 0; w < warps; w++) {
                        uint64_t a, m;
                        warp_walk(&k.progs[d.prog], d.work, w, &a, &m);
                        cta_all = add_sat(cta_all, a);
                        cta_mem = add_sat(cta_mem, m);
                    }
                last_prog = d.prog;
                last_work = d.work;
            }
            out->ctas++;
            out->warps += warps;
            out->warp_instr = add_sat(out->warp_instr, cta_all);
            out->mem_instr = add_sat(out->mem_instr, cta_mem);
        }
        kernel_free(&k);
        if (rc < 0)
            break;
    }
    kernel_free(&k);
    trace_close(t);
    return rc < 0 ? rc : 0;
}


int sweep_trace_is_native(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char line[256];
    int native = 0, c0 = fgetc(f), c1 = fgetc(f);
    if (c0 == 0x1f && c1 == 0x8b) {
        native = 1;               /* gzip: the Accel-Sim reader takes plain text only */
    } else {
        rewind(f);
        while (fgets(line, sizeof line, f)) {
            const char *p = line + strspn(line, " \t\r\n");
            if (!*p || *p == '#')
                continue;
            native = strncmp(p, "skewsim-trace", 13) == 0;
            break;
        }
    }
    fclose(f);
    return native;
}

/* The writer's CTA source: the reader's next CTA, counted on the way. */
typedef struct conv_ctx {
    trace *t;
    const kernel *k;
    sweep_trace_cost *c;
    uint32_t last_prog;
    double last_work;
    uint64_t cta_all, cta_mem;
} conv_ctx;

static int conv_next(void *ctx, cta_desc *d, sk_error *e)
{
    conv_ctx *v = ctx;
    int rc = trace_next_cta(v->t, d, e);
    if (rc != 1)
        return rc;
    uint32_t warps = (v->k->block_threads + 31) / 32;
    if (d->prog != v->last_prog || d->work != v->last_work) {
        v->cta_all = v->cta_mem = 0;
        if (d->prog < v->k->nprogs)
            for (uint32_t w = 0; w < warps; w++) {
                uint64_t a, m;
                warp_walk(&v->k->progs[d->prog], d->work, w, &a, &m);
                v->cta_all = add_sat(v->cta_all, a);
                v->cta_mem = add_sat(v->cta_mem, m);
            }
        v->last_prog = d->prog;
        v->last_work = d->work;
    }
    v->c->ctas++;
    v->c->warps += warps;
    v->c->warp_instr = add_sat(v->c->warp_instr, v->cta_all);
    v->c->mem_instr = add_sat(v->c->mem_instr, v->cta_mem);
    return 1;
}

int sweep_trace_convert(const char *path, const sass *listing, const char *listing_name, const char *out,
                        sweep_trace_cost *cost, sk_error *e)
{
    memset(cost, 0, sizeof *cost);
    trace *t = trace_open(path, e);
    if (!t)
        return e->code ? e->code : SK_EIO;
    int rc = 0;
    if (listing && (rc = trace_set_sass(t, listing, listing_name, e)) != 0) {
        trace_close(t);
        return rc;
    }
    size_t n = strlen(out) + sizeof ".tmp.XXXXXX";
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp.XXXXXX", out);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        rc = sk_errorf(e, SK_EIO, "%s: cannot create a temporary file: %s", tmp, strerror(errno));
        free(tmp);
        trace_close(t);
        return rc;
    }
    close(fd);
    trace_writer *w = trace_writer_open(tmp, 0, e);
    if (!w) {
        remove(tmp);
        free(tmp);
        trace_close(t);
        return e->code ? e->code : SK_EIO;
    }
    kernel k;
    memset(&k, 0, sizeof k);
    while ((rc = trace_next_kernel(t, &k, e)) == 1) {
        cost->kernels++;
        conv_ctx v = {.t = t, .k = &k, .c = cost, .last_prog = UINT32_MAX};
        rc = trace_writer_kernel(w, &k, conv_next, &v, e);
        kernel_free(&k);
        if (rc < 0)
            break;
        rc = 0;
    }
    kernel_free(&k);
    sk_error ce = {0};
    int crc = trace_writer_close(w, &ce);
    if (rc == 0 && crc != 0)
        rc = sk_errorf(e, crc, "%s", ce.msg);
    trace_close(t);
    if (rc == 0) {
        chmod(tmp, 0644);
        if (rename(tmp, out) != 0)
            rc = sk_errorf(e, SK_EIO, "%s: cannot write: %s", out, strerror(errno));
    }
    if (rc)
        remove(tmp);
    free(tmp);
    return rc;
}

/* The model: a point costs a fixed start (fork, config, silicon model,
 * writing three files), a time per warp-instruction, more per global
 * memory op (it is a memory-model request and a completion event as well
 * as an issue), and a time per CTA (dispatch and retirement events).
 * Fitted to single runs on the two-core development machine under a load
 * of about 3 (docs/hpc.md, "Sizing"; a cluster core is rarely slower):
 * gen fma --grid 1056, 156.0 M warp-instructions and almost no memory ops,
 * 8.9 s, gives COST_WI_S; gen stream --ctas 4224, 51.5 M of which 8.41 M
 * global loads, 10.9 s, gives COST_MEM_S from what is left; gen gemm
 * 4096^3 (5.6 M, 0.20 M memory ops) 0.58 s and gen fma --grid 132 (19.5 M)
 * 1.31 s are then predicted at 0.55 s and 1.13 s. */
#define COST_START_S 0.05         /* fork + config + silicon setup + outputs */
#define COST_WI_S 55e-9           /* per warp-instruction: fma --grid 1056, 156 M in 8.9 s */
#define COST_MEM_S 900e-9         /* more per global load/store: stream's 10.9 s less its issue */
#define COST_CTA_S 20e-6          /* per CTA: dispatch, retire, record */

double sweep_point_seconds(const sweep_trace_cost *c)
{
    return COST_START_S + (double)c->warp_instr * COST_WI_S + (double)c->mem_instr * COST_MEM_S +
           (double)c->ctas * COST_CTA_S;
}

/* ---- Slurm: times ------------------------------------------------------ */

/* A run of decimal digits at *p (at most 9), or -1. */
static long digits(const char **p)
{
    const char *s = *p;
    long v = 0;
    int n = 0;
    while (*s >= '0' && *s <= '9' && n < 9) {
        v = v * 10 + (*s++ - '0');
        n++;
    }
    if (n == 0 || (*s >= '0' && *s <= '9'))
        return -1;
    *p = s;
    return v;
}

int sweep_slurm_parse_time(const char *s, long *seconds)
{
    if (!s)
        return -1;
    const char *p = s;
    long f[4];
    int n = 0, days = -1;
    if ((f[0] = digits(&p)) < 0)
        return -1;
    n = 1;
    if (*p == '-') {
        days = (int)f[0];
        p++;
        if ((f[0] = digits(&p)) < 0)
            return -1;
    }
    while (*p == ':' && n < 3) {
        p++;
        if ((f[n] = digits(&p)) < 0)
            return -1;
        n++;
    }
    if (*p)
        return -1;
    long total;
    if (days >= 0) {              /* D-HH, D-HH:MM, D-HH:MM:SS */
        long h = f[0], m = n > 1 ? f[1] : 0, sec = n > 2 ? f[2] : 0;
        if (m > 59 || sec > 59)
            return -1;
        total = ((long)days * 24 + h) * 3600 + m * 60 + sec;
    } else if (n == 1) {          /* MM */
        total = f[0] * 60;
    } else if (n == 2) {          /* MM:SS */
        if (f[1] > 59)
            return -1;
        total = f[0] * 60 + f[1];
    } else {                      /* HH:MM:SS */
        if (f[1] > 59 || f[2] > 59)
            return -1;
        total = f[0] * 3600 + f[1] * 60 + f[2];
    }
    if (total <= 0)
        return -1;
    *seconds = total;
    return 0;
}

const char *sweep_slurm_fmt_time(long seconds, char *buf, size_t cap)
{
    if (seconds < 1)
        seconds = 1;
    snprintf(buf, cap, "%ld-%02ld:%02ld:%02ld", seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60,
             seconds % 60);
    return buf;
}

/* ---- Slurm: sizing ----------------------------------------------------- */

/* The index of the least of n values. */
static int least(const double *v, int n)
{
    int b = 0;
    for (int i = 1; i < n; i++)
        if (v[i] < v[b])
            b = i;
    return b;
}

double sweep_shard_seconds(const double *cost, size_t npoints, int k, int n, int cpus)
{
    if (cpus < 1)
        cpus = 1;
    double *slot = xcalloc((size_t)cpus, sizeof *slot);
    for (size_t i = (size_t)k; i < npoints; i += (size_t)n)
        if (cost[i] >= 0)
            slot[least(slot, cpus)] += cost[i];
    double worst = 0;
    for (int c = 0; c < cpus; c++)
        worst = slot[c] > worst ? slot[c] : worst;
    free(slot);
    return worst;
}

int sweep_slurm_shards(const double *cost, size_t npoints, const sweep_sizing *z, int *shards,
                       double *worst_s, sk_error *e)
{
    double budget = z->fill * (double)(z->time_s - z->grace_s);
    size_t nrun = 0, big = SIZE_MAX;
    double total = 0;
    for (size_t i = 0; i < npoints; i++) {
        if (cost[i] < 0)
            continue;
        nrun++;
        total += cost[i];
        if (big == SIZE_MAX || cost[i] > cost[big])
            big = i;
    }
    char tb[32];
    sweep_slurm_fmt_time(z->time_s, tb, sizeof tb);
    if (budget <= 0)
        return sk_errorf(e, SK_ERANGE, "sweep: --time %s: leaves nothing after the %ld s grace period",
                         tb, z->grace_s);
    *shards = 1;
    *worst_s = 0;
    if (nrun == 0)
        return 0;
    if (cost[big] > budget)
        return sk_errorf(e, SK_ERANGE,
                         "sweep: point %04zu alone is estimated at %.0f s, more than --time %s allows "
                         "(%.0f s: %.0f%% of the limit less the %ld s grace): raise --time",
                         big, cost[big], tb, budget, z->fill * 100, z->grace_s);
    int cpus = z->cpus < 1 ? 1 : z->cpus;
    /* Shards are index classes, so with done points among them more shards
     * than points to run can be needed to spread the rest: up to npoints. */
    size_t maxn = SK_MIN(npoints, (size_t)(z->array_max < 1 ? 1 : z->array_max));
    /* No fewer than the total work over the task's capacity needs. */
    size_t n = (size_t)ceil(total / (budget * cpus));
    if (n < 1)
        n = 1;
    /* An empty shard ends at once: that costs a queue slot, nothing more. */
    for (; n <= maxn; n++) {
        double worst = 0;
        for (size_t k = 0; k < n && worst <= budget; k++) {
            double s = sweep_shard_seconds(cost, npoints, (int)k, (int)n, cpus);
            worst = s > worst ? s : worst;
        }
        if (worst <= budget) {
            *shards = (int)n;
            *worst_s = worst;
            return 0;
        }
    }
    return sk_errorf(e, SK_ERANGE,
                     "sweep: %zu points estimated at %.0f CPU-s do not fit %zu tasks of --time %s on "
                     "--cpus %d: raise --time, --cpus or --array-max",
                     nrun, total, maxn, tb, cpus);
}

/* ---- Slurm: scripts ---------------------------------------------------- */

int sweep_slurm_path_ok(const char *path)
{
    return path && *path && !strpbrk(path, " \t\n\r'\"\\%$`") ? 0 : -1;
}

static void sbatch_common(FILE *f, const sweep_slurm_job *j)
{
    if (j->partition && *j->partition)
        fprintf(f, "#SBATCH --partition=%s\n", j->partition);
    if (j->mem && *j->mem)
        fprintf(f, "#SBATCH --mem=%s\n", j->mem);
}

void sweep_slurm_array_script(FILE *f, const sweep_slurm_job *j)
{
    char tb[32];
    const char *flags = j->sweep_flags && *j->sweep_flags ? j->sweep_flags : NULL;
    fprintf(f,
            "#!/bin/sh\n"
            "# Written by `skewsim sweep --slurm` (docs/hpc.md): %zu of the spec's %zu points\n"
            "# in %d shards; task K runs the points whose index %% %d == K, %d at once.\n"
            "# Estimated longest shard: %.0f s of the %ld s limit.  The task index is\n"
            "# the shard: `sbatch --array=3,7 THIS` reruns shards 3 and 7; done points\n"
            "# are skipped.  SIGTERM %ld s before the limit (--signal=B:TERM) reaches\n"
            "# the sweep through exec: it keeps its finished points and exits 143.\n",
            j->nrun, j->npoints, j->shards, j->shards, j->cpus, j->worst_s, j->time_s, j->grace_s);
    fprintf(f, "#SBATCH --job-name=skewsim-sweep\n");
    fprintf(f, "#SBATCH --array=0-%d\n", j->shards - 1);
    fprintf(f, "#SBATCH --cpus-per-task=%d\n", j->cpus);
    fprintf(f, "#SBATCH --time=%s\n", sweep_slurm_fmt_time(j->time_s, tb, sizeof tb));
    fprintf(f, "#SBATCH --signal=B:TERM@%ld\n", j->grace_s);
    sbatch_common(f, j);
    fprintf(f, "#SBATCH --output=%s/slurm/sweep-%%A_%%a.out\n", j->dir);
    fprintf(f,
            "set -eu\n"
            "K=${SLURM_ARRAY_TASK_ID:?not an array task: submit with sbatch}\n"
            "[ \"$K\" -lt %d ] || { echo \"sweep.sbatch: task $K: expected 0..%d\" >&2; exit 1; }\n"
            "exec %s sweep %s -o %s --shard \"$K/%d\" -j %d%s%s\n",
            j->shards, j->shards - 1, j->bin, j->spec, j->dir, j->shards, j->cpus, flags ? " " : "",
            flags ? flags : "");
}

void sweep_slurm_collect_script(FILE *f, const sweep_slurm_job *j)
{
    const char *flags = j->sweep_flags && *j->sweep_flags ? j->sweep_flags : NULL;
    fprintf(f,
            "#!/bin/sh\n"
            "# Written by `skewsim sweep --slurm` (docs/hpc.md): once every task of the\n"
            "# array exited 0 (afterok), DIR/sweep.csv and the collected tables.\n");
    fprintf(f, "#SBATCH --job-name=skewsim-collect\n");
    fprintf(f, "#SBATCH --cpus-per-task=1\n");
    fprintf(f, "#SBATCH --time=0-00:30:00\n");
    sbatch_common(f, j);
    fprintf(f, "#SBATCH --output=%s/slurm/collect-%%j.out\n", j->dir);
    fprintf(f, "set -eu\nexec %s sweep %s -o %s --collect%s%s\n", j->bin, j->spec, j->dir, flags ? " " : "",
            flags ? flags : "");
}

int sweep_slurm_submit(const char *script, const char *after, char *jobid, size_t cap, sk_error *e)
{
    const char *sbatch = getenv("SKEWSIM_SBATCH");
    if (!sbatch || !*sbatch)
        sbatch = "sbatch";
    char dep[128] = "";
    if (after)
        snprintf(dep, sizeof dep, "--dependency=afterok:%s", after);
    char *argv[6];
    int argc = 0;
    argv[argc++] = (char *)sbatch;
    argv[argc++] = (char *)"--parsable";
    if (after) {
        argv[argc++] = dep;
        argv[argc++] = (char *)"--kill-on-invalid-dep=yes";
    }
    argv[argc++] = (char *)script;
    argv[argc] = NULL;
    int fds[2];
    if (pipe(fds) != 0)
        return sk_errorf(e, SK_EIO, "sweep: sbatch: cannot make a pipe: %s", strerror(errno));
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return sk_errorf(e, SK_EIO, "sweep: sbatch: cannot fork: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[1]);
        execvp(sbatch, argv);
        fprintf(stderr, "skewsim: sweep: %s: cannot run: %s\n", sbatch, strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    char buf[256];
    size_t n = 0;
    ssize_t got;
    while ((got = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0 || (got < 0 && errno == EINTR))
        if (got > 0)
            n += (size_t)got;
    close(fds[0]);
    buf[n] = '\0';
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return sk_errorf(e, SK_EIO, "sweep: %s --parsable %s failed (exit %d): nothing more was submitted",
                         sbatch, script, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    /* "JOBID" or "JOBID;CLUSTER" */
    size_t len = strspn(buf, "0123456789");
    if (len == 0 || len >= cap)
        return sk_errorf(e, SK_EIO, "sweep: %s --parsable %s printed no job id: '%.40s'", sbatch, script, buf);
    memcpy(jobid, buf, len);
    jobid[len] = '\0';
    return 0;
}


/* ---- Slurm: the options and the launch --------------------------------- */

#define SLURM_DEFAULT_TIME_S 7200     /* 2 h: most partitions allow it */
#define SLURM_DEFAULT_CPUS 8
#define SLURM_DEFAULT_ARRAY_MAX 1000  /* Slurm's default MaxArraySize is 1001 (indices 0..1000) */
#define SLURM_GRACE_S 60              /* --signal lead: a point of this study rarely runs longer */
#define SLURM_FILL 0.7                /* the cost model is an estimate: keep 30 % spare */

void sweep_slurm_opts_init(sweep_slurm_opts *o)
{
    memset(o, 0, sizeof *o);
    o->time_s = SLURM_DEFAULT_TIME_S;
    o->cpus = SLURM_DEFAULT_CPUS;
    o->array_max = SLURM_DEFAULT_ARRAY_MAX;
}

/* Decimal digits only, 1..max. */
static int pos_int(const char *s, long max, long *out)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
        return -1;
    long v = strtol(s, NULL, 10);
    if (v < 1 || v > max)
        return -1;
    *out = v;
    return 0;
}

/* Slurm's --mem: digits and an optional K, M, G or T. */
static int mem_ok(const char *s)
{
    size_t n = strspn(s, "0123456789");
    return n > 0 && n <= 12 && (s[n] == '\0' || (strchr("KMGTkmgt", s[n]) && s[n + 1] == '\0'));
}

/* Slurm's --partition: a name (or a comma-separated list of names). */
static int name_ok(const char *s)
{
    return *s && strlen(s) < 256 &&
           strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,-") == strlen(s);
}

int sweep_slurm_opt(sweep_slurm_opts *o, int argc, char **argv, int *i, sk_error *e)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--slurm")) {
        o->on = 1;
        return 1;
    }
    if (!strcmp(a, "--dry-run")) {
        o->dry_run = 1;
        return 1;
    }
    static const char *const valued[] = {"--partition", "--time", "--array-max", "--cpus", "--mem"};
    size_t w = SK_ARRAY_LEN(valued);
    for (size_t k = 0; k < SK_ARRAY_LEN(valued); k++)
        if (!strcmp(a, valued[k]))
            w = k;
    if (w == SK_ARRAY_LEN(valued))
        return 0;
    if (*i + 1 >= argc)
        return sk_errorf(e, SK_EUSAGE, "sweep: %s: missing value", a);
    const char *v = argv[++*i];
    long n;
    switch (w) {
    case 0:
        if (!name_ok(v))
            return sk_errorf(e, SK_EUSAGE, "sweep: --partition %s: expected a partition name ([A-Za-z0-9_.-], "
                             "or several joined by ,)", v);
        o->partition = v;
        break;
    case 1:
        if (sweep_slurm_parse_time(v, &o->time_s) != 0)
            return sk_errorf(e, SK_EUSAGE, "sweep: --time %s: expected a Slurm time limit: MM, MM:SS, HH:MM:SS, "
                             "D-HH, D-HH:MM or D-HH:MM:SS, more than 0", v);
        break;
    case 2:
        if (pos_int(v, 1000000, &n) != 0)
            return sk_errorf(e, SK_EUSAGE, "sweep: --array-max %s: expected an integer in 1..1000000", v);
        o->array_max = (int)n;
        break;
    case 3:
        if (pos_int(v, 1024, &n) != 0)
            return sk_errorf(e, SK_EUSAGE, "sweep: --cpus %s: expected an integer in 1..1024", v);
        o->cpus = (int)n;
        break;
    default:
        if (!mem_ok(v))
            return sk_errorf(e, SK_EUSAGE, "sweep: --mem %s: expected a Slurm memory size: digits and K, M, G "
                             "or T (4G)", v);
        o->mem = v;
        break;
    }
    return 1;
}

/* An absolute path for `p` (which must exist): realpath(3). */
static char *abs_path(const char *p, sk_error *e)
{
    char *r = realpath(p, NULL);
    if (!r)
        sk_errorf(e, SK_EIO, "%s: cannot resolve: %s", p, strerror(errno));
    return r;
}

int sweep_slurm_launch(const sweep_slurm_opts *o, const char *bin, const char *spec, const char *dir,
                       const double *cost, size_t npoints, const char *sweep_flags, FILE *out, sk_error *e)
{
    sweep_slurm_job j;
    memset(&j, 0, sizeof j);
    sweep_sizing z = {.time_s = o->time_s, .grace_s = SLURM_GRACE_S, .cpus = o->cpus,
                      .array_max = o->array_max, .fill = SLURM_FILL};
    int rc = sweep_slurm_shards(cost, npoints, &z, &j.shards, &j.worst_s, e);
    if (rc)
        return rc;
    char *ab = abs_path(bin ? bin : "/proc/self/exe", e), *as = ab ? abs_path(spec, e) : NULL,
         *ad = as ? abs_path(dir, e) : NULL;
    if (!ad) {
        free(ab);
        free(as);
        return e->code;
    }
    const char *const paths[] = {ab, as, ad};
    for (size_t i = 0; i < 3 && rc == 0; i++)
        if (sweep_slurm_path_ok(paths[i]) != 0)
            rc = sk_errorf(e, SK_EUSAGE, "sweep: --slurm: %s: a path with a blank, quote, backslash, %%, $ or "
                           "backquote, which #SBATCH lines and sh would split or expand: move or link it",
                           paths[i]);
    j.bin = ab;
    j.spec = as;
    j.dir = ad;
    j.partition = o->partition;
    j.mem = o->mem;
    j.time_s = o->time_s;
    j.grace_s = SLURM_GRACE_S;
    j.cpus = o->cpus;
    j.sweep_flags = sweep_flags;
    j.npoints = npoints;
    for (size_t i = 0; i < npoints; i++)
        j.nrun += cost[i] >= 0;
    char *a = NULL, *c = NULL;
    size_t al = 0, cl = 0;
    FILE *f = open_memstream(&a, &al);
    sweep_slurm_array_script(f, &j);
    fclose(f);
    f = open_memstream(&c, &cl);
    sweep_slurm_collect_script(f, &j);
    fclose(f);
    size_t n = strlen(ad) + 32;
    char *sd = xmalloc(n), *sa = xmalloc(n), *sc = xmalloc(n);
    snprintf(sd, n, "%s/slurm", ad);
    snprintf(sa, n, "%s/slurm/sweep.sbatch", ad);
    snprintf(sc, n, "%s/slurm/collect.sbatch", ad);
    if (rc == 0 && o->dry_run) {
        fprintf(out, "# %s\n%s\n# %s\n%s", sa, a, sc, c);
        fprintf(out, "# --dry-run: %zu of %zu points to run in %d tasks; nothing written or submitted\n", j.nrun,
                npoints, j.shards);
    } else if (rc == 0) {
        if (mkdir(sd, 0777) != 0 && errno != EEXIST)
            rc = sk_errorf(e, SK_EIO, "%s: cannot create directory: %s", sd, strerror(errno));
        if (rc == 0)
            rc = sk_write_atomic(sa, a, al, 0755, e);
        if (rc == 0)
            rc = sk_write_atomic(sc, c, cl, 0755, e);
        char ja[64], jc[64];
        if (rc == 0 && j.nrun == 0) {
            /* nothing to run: collect now, no array */
            fprintf(out, "sweep: all %zu points are done; nothing submitted (collect: %s)\n", npoints, sc);
        } else if (rc == 0 && (rc = sweep_slurm_submit(sa, NULL, ja, sizeof ja, e)) == 0) {
            if ((rc = sweep_slurm_submit(sc, ja, jc, sizeof jc, e)) != 0) {
                fprintf(out, "sweep: submitted array job %s (%d tasks) but not its collect job\n", ja, j.shards);
            } else {
                char tb[32];
                fprintf(out, "sweep: submitted array job %s: %zu points in %d tasks of %s on %d CPUs "
                             "(longest shard estimated at %.0f s); collect job %s runs after it (afterok)\n",
                        ja, j.nrun, j.shards, sweep_slurm_fmt_time(j.time_s, tb, sizeof tb), j.cpus, j.worst_s, jc);
            }
        }
    }
    free(a);
    free(c);
    free(sd);
    free(sa);
    free(sc);
    free(ab);
    free(as);
    free(ad);
    return rc;
}

/* ---- point processes --------------------------------------------------- */

void sweep_child_bind(pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    /* the sweep may have died between fork() and prctl(): then no signal
     * will come, and the child was reparented already */
    if (getppid() != parent)
        _exit(128 + SIGKILL);
}

int sweep_value_fingerprint(const char *key, const char *value, uint64_t *fp, sk_error *e)
{
    cfg c;
    cfg_defaults(&c);
    int rc = cfg_set_value(&c, key, value, e);
    if (rc)
        return rc;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cfg_dump(&c, f, 0);
    fclose(f);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)buf[i];
        h *= 0x100000001b3ULL;
    }
    free(buf);
    *fp = h;
    return 0;
}

/* ---- provenance -------------------------------------------------------- */

uint64_t sweep_key_with_build(uint64_t input_key)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    const unsigned char *b = (const unsigned char *)&input_key;
    for (size_t i = 0; i < sizeof input_key; i++) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    const char *parts[] = {"skewsim", sk_version(), sk_commit()};
    for (size_t k = 0; k < SK_ARRAY_LEN(parts); k++)
        for (const char *p = parts[k];; p++) {      /* each with its NUL: "a","bc" is not "ab","c" */
            h ^= (unsigned char)*p;
            h *= 0x100000001b3ULL;
            if (!*p)
                break;
        }
    return h;
}

/* ---- the lock ---------------------------------------------------------- */

int sweep_lock_take(sweep_lock *l, const char *dir, int shard_k, int shard_n, sk_error *e)
{
    l->fd = -1;
    size_t plen = strlen(dir) + sizeof "/.lock";
    char *path = xmalloc(plen);
    snprintf(path, plen, "%s/.lock", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        int rc = sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, strerror(errno));
        free(path);
        return rc;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = shard_n > 1 ? 1 + (off_t)shard_k : 0;
    fl.l_len = shard_n > 1 ? 1 : 0;            /* 0: to the end, and beyond */
    if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        int err = errno;
        close(fd);
        int rc;
        if (err == EAGAIN || err == EACCES)
            rc = sk_errorf(e, SK_EIO,
                           "sweep: %s: another sweep is writing this directory (%s is locked%s); wait "
                           "for it to end, or use another -o DIR",
                           dir, path, shard_n > 1 ? " for this shard or for all" : "");
        else
            rc = sk_errorf(e, SK_EIO, "%s: cannot lock: %s", path, strerror(err));
        free(path);
        return rc;
    }
    free(path);
    l->fd = fd;
    return 0;
}

void sweep_lock_drop(sweep_lock *l)
{
    if (l && l->fd >= 0) {
        close(l->fd);
        l->fd = -1;
    }
}

/* ---- progress ---------------------------------------------------------- */

double sweep_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* "1h05m", "3m20s", "4.2s". */
static const char *fmt_span(double s, char *buf, size_t cap)
{
    long v = s < 0 ? 0 : (long)(s + 0.5);
    if (v >= 3600)
        snprintf(buf, cap, "%ldh%02ldm", v / 3600, v / 60 % 60);
    else if (v >= 60)
        snprintf(buf, cap, "%ldm%02lds", v / 60, v % 60);
    else
        snprintf(buf, cap, "%.1fs", s < 0 ? 0 : s);
    return buf;
}

/* Remaining seconds: the elapsed time scaled by the estimated work left
 * over the estimated work ended; "?" before anything ended. */
static const char *eta(const sweep_progress *p, char *buf, size_t cap)
{
    double el = p->now() - p->t0;
    if (p->done + p->failed >= p->total)
        return fmt_span(0, buf, cap);
    if (p->est_done <= 0 || el <= 0) {
        snprintf(buf, cap, "?");
        return buf;
    }
    double left = p->est_total - p->est_done;
    return fmt_span(left > 0 ? el * left / p->est_done : 0, buf, cap);
}

static void draw(sweep_progress *p)
{
    char b[32];
    fprintf(p->out, "\rsweep: %zu/%zu done, %zu failed, %zu running, ETA %s\033[K", p->done, p->total, p->failed,
            p->running, eta(p, b, sizeof b));
    fflush(p->out);
    p->shown = 1;
}

void sweep_progress_init(sweep_progress *p, FILE *out, int tty, int quiet, size_t total, double est_total,
                         double (*now)(void))
{
    memset(p, 0, sizeof *p);
    p->out = out;
    p->tty = tty;
    p->quiet = quiet;
    p->total = total;
    p->est_total = est_total;
    p->now = now ? now : sweep_clock;
    p->t0 = p->now();
}

void sweep_progress_started(sweep_progress *p)
{
    p->running++;
    if (!p->quiet && p->tty)
        draw(p);
}

void sweep_progress_ended(sweep_progress *p, const char *name, int ok, double wall_s, double est_s)
{
    if (p->running)
        p->running--;
    if (ok)
        p->done++;
    else
        p->failed++;
    p->est_done += est_s;
    if (p->quiet)
        return;
    if (p->tty) {
        draw(p);
        return;
    }
    char b[32], w[32];
    fprintf(p->out, "sweep: %s %s in %s (%zu/%zu done, %zu failed, ETA %s)\n", name, ok ? "ok" : "FAILED",
            fmt_span(wall_s, w, sizeof w), p->done, p->total, p->failed, eta(p, b, sizeof b));
    fflush(p->out);
}

void sweep_progress_pause(sweep_progress *p)
{
    if (p->shown) {
        fputc('\n', p->out);
        fflush(p->out);
        p->shown = 0;
    }
}
