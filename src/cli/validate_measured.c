/* validate_measured.c -- `skewsim validate --measured DIR -c CONFIG
 * [--fitted FILE] [--max-mape X]`: every captured kernel of a capture
 * directory (tools/capture/README.md) that has a generator, simulated as it
 * ran and compared with what the chip did.
 *
 * What is compared, per kernel family (the capture's `exp` column):
 *
 *   time       the CUDA-event time per launch (kernels.csv time_ns_median;
 *              E17 per idle gap: the median over that gap's reps)
 *   span       first CTA start to last CTA end, median over reps (reps.csv);
 *              E14's two-stream pairs also from A's first CTA to B's last
 *   round      E13: the cost of one grid.sync() round, (t(r100) - t(r10)) / 90
 *   place      CTAs whose SM is the chip's, and SMs whose CTA count is the
 *              chip's (rep 0's ctas.csv), as fractions
 *   spread     per-SM finish spread: the latest CTA end of the latest SM less
 *              that of the earliest SM
 *   clock, power   E16 (power_mix.csv with a generator): the sustained clock
 *              and board power over the mix's window of smi.csv, against the
 *              silicon model held for as long on the activity per SM cycle
 *              that a short simulation of the same kernel measured
 *
 * Every row is tagged: `fitted` when FILE (default: the config's name with
 * .fitted.csv for .yaml) lists it -- a constant of the config was set from
 * that very measurement, so agreement proves only the arithmetic -- and
 * `predicted` otherwise.  Per family and metric the MAPE is printed over
 * the predicted rows and over the fitted ones; with --max-mape X any
 * predicted time, span, round, clock, power or rate MAPE above X fails
 * (exit 5).
 *
 * FILE is CSV `kernel,detail,keys` (validate_fitted.c, which the -d
 * sections read too): the kernel id, the row within it (`gap_ms=1` for an
 * E17 gap, `round` for an E13 round cost, empty for every row of the
 * kernel) and the keys fitted to it (documentation).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "cli.h"
#include "skewsim/gen.h"
#include "skewsim/memsys.h"
#include "skewsim/sim.h"
#include "skewsim/silicon.h"
#include "skewsim/topo.h"

/* ---- CSV tables ------------------------------------------------------- */

typedef struct table {
    int ncol;
    char **cols;
    size_t n, cap;
    char **cells;               /* n x ncol, owned */
} table;

static void table_free(table *t)
{
    for (int i = 0; i < t->ncol; i++)
        free(t->cols[i]);
    for (size_t i = 0; i < t->n * (size_t)t->ncol; i++)
        free(t->cells[i]);
    free(t->cols);
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static int split(char *line, char **out, int max)
{
    int n = 0;
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
    for (char *p = line;; p++) {
        char *c = strchr(p, ',');
        if (n == max)
            return -1;
        out[n++] = p;
        if (!c)
            break;
        *c = '\0';
        p = c;
    }
    return n;
}

/* DIR/NAME.csv or DIR/NAME.csv.gz (gzopen reads both).  1 loaded, 0
 * absent, or a negative code. */
static int table_load(table *t, const char *dir, const char *name, sk_error *e)
{
    memset(t, 0, sizeof *t);
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.csv", dir, name);
    if (access(path, R_OK) != 0) {
        snprintf(path, sizeof path, "%s/%s.csv.gz", dir, name);
        if (access(path, R_OK) != 0)
            return 0;
    }
    gzFile f = gzopen(path, "rb");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, strerror(errno));
    enum { LINE = 1 << 16, MAXCOL = 64 };
    char *buf = xmalloc(LINE), *f_[MAXCOL];
    long line = 0;
    int rc = 1;
    while (gzgets(f, buf, LINE)) {
        line++;
        if (!strchr(buf, '\n') && !gzeof(f)) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: line longer than %d bytes", path, line, LINE - 2);
            break;
        }
        int n = split(buf, f_, MAXCOL);
        if (line == 1) {
            if (n < 1) {
                rc = sk_errorf(e, SK_EIO, "%s:1: no header", path);
                break;
            }
            t->ncol = n;
            t->cols = xcalloc((size_t)n, sizeof *t->cols);
            for (int i = 0; i < n; i++)
                t->cols[i] = xstrdup(f_[i]);
            continue;
        }
        if (n != t->ncol) {
            rc = sk_errorf(e, SK_EIO, "%s:%ld: %d fields: expected the %d columns of its header",
                           path, line, n, t->ncol);
            break;
        }
        if (t->n == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 256;
            t->cells = xrealloc(t->cells, t->cap * (size_t)t->ncol * sizeof *t->cells);
        }
        for (int i = 0; i < n; i++)
            t->cells[t->n * (size_t)t->ncol + (size_t)i] = xstrdup(f_[i]);
        t->n++;
    }
    int err;
    const char *msg = gzerror(f, &err);
    if (rc > 0 && err != Z_OK && err != Z_STREAM_END)
        rc = sk_errorf(e, SK_EIO, "%s: read error: %s", path, msg);
    gzclose(f);
    free(buf);
    if (rc < 0)
        table_free(t);
    return rc;
}

static int col(const table *t, const char *name)
{
    for (int i = 0; i < t->ncol; i++)
        if (!strcmp(t->cols[i], name))
            return i;
    return -1;
}

static const char *cell(const table *t, size_t r, int c)
{
    return c < 0 ? "" : t->cells[r * (size_t)t->ncol + (size_t)c];
}

static double num(const table *t, size_t r, int c)
{
    const char *s = cell(t, r, c);
    char *end;
    double v = strtod(s, &end);
    return end == s ? NAN : v;
}

static int need_cols(const table *t, const char *file, const char *const *names, sk_error *e)
{
    for (const char *const *n = names; *n; n++)
        if (col(t, *n) < 0)
            return sk_errorf(e, SK_EIO, "%s: no column '%s': expected the format of "
                             "tools/capture/README.md", file, *n);
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- the generator command ------------------------------------------- */

/* "skewsim gen NAME --opt V ..." into a kernel.  *repeat: --repeat or 1. */
static int gen_kernel(const char *cmd, kernel *k, long *repeat, sk_error *e)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", cmd);
    char *tok[64];
    int n = 0;
    for (char *p = strtok(buf, " "); p && n < 64; p = strtok(NULL, " "))
        tok[n++] = p;
    int i = 0;
    if (i < n && !strcmp(tok[i], "skewsim"))
        i++;
    if (i >= n || strcmp(tok[i], "gen") != 0 || i + 1 >= n)
        return sk_errorf(e, SK_EUSAGE, "'%s': expected 'skewsim gen NAME ...'", cmd);
    const gen_workload *w = gen_find(tok[i + 1]);
    if (!w)
        return sk_errorf(e, SK_EUSAGE, "'%s': no generator '%s'", cmd, tok[i + 1]);
    long v[GEN_MAX_OPTS];
    gen_defaults(w, v);
    for (i += 2; i < n; i += 2) {
        int o = gen_find_opt(w, tok[i], strlen(tok[i]));
        if (o < 0 || i + 1 >= n)
            return sk_errorf(e, SK_EUSAGE, "'%s': option %s: not an option of gen %s", cmd, tok[i],
                             w->name);
        char what[96];
        if (gen_opt_value(&w->opts[o], tok[i + 1], &v[o]) < 0)
            return sk_errorf(e, SK_EUSAGE, "'%s': %s %s: expected %s", cmd, tok[i], tok[i + 1],
                             gen_opt_expect(&w->opts[o], what, sizeof what));
    }
    return gen_build(w, v, k, repeat, e);
}

/* ---- simulating ------------------------------------------------------- */

/* What one simulation gives back: per kernel its stats, rep 0's CTAs (the
 * first kernel's), and the activity per SM cycle over the first kernel's
 * span (for E16). */
typedef struct simout {
    size_t nk;
    kernel_stats *ks;
    size_t nctas;
    cta_record *ctas;
    si_rate *rate;              /* per SM */
    double mean_power_w;
} simout;

static void simout_free(simout *o)
{
    free(o->ks);
    free(o->ctas);
    free(o->rate);
    memset(o, 0, sizeof *o);
}

/* What SM i of s did per SM cycle over `cyc` cycles, as the silicon model
 * counts it (sim.c's silicon_step): instructions and operands by energy
 * row, tensor cycles by type, scheduler-cycles with a warp, DRAM bytes and
 * the hierarchy's accesses. */
static void sm_rate(const sim *s, int i, double cyc, si_rate *r)
{
    const sm *m = &s->sms[i];
    memset(r, 0, sizeof *r);
    for (int k = 0; k < SI_OP_N; k++) {
        r->issued[k] = (double)m->op_issued[k] / cyc;
        r->operands[k] = (double)m->op_operands[k] / cyc;
    }
    for (int k = 0; k < SI_DT_N; k++)
        r->tensor_cycles[k] = (double)m->tensor_dt_cycles[k] / cyc;
    uint64_t sched = m->issue_slots;
    for (int k = 0; k < SM_NSTALLS; k++)
        if (k != SM_STALL_NO_CTA)
            sched += m->stall[k];
    r->sched_cycles = (double)sched / cyc;
    if (!s->hier) {
        r->mem_bytes = (double)m->mem_bytes / cyc;
        r->smem_wavefronts = (double)m->smem_wavefronts / cyc;
        return;
    }
    const mem_stats *ms = mem_hier_total(s->hier, i);
    r->mem_bytes = (double)(ms->dram_rd_bytes + ms->dram_wr_bytes) / cyc;
    r->l1_sectors = (double)(ms->l1_sectors + ms->l1_bypass + ms->st_sectors) / cyc;
    r->smem_wavefronts = (double)ms->smem_wavefronts / cyc;
    r->l2_sectors = (double)(ms->l2_sectors + ms->l2_misses + ms->l2_writebacks) / cyc;
    r->noc_sector_um = (double)ms->noc_sector_um / cyc;
}

/* The n kernels of seq, in order, simulated on c. */
static int simulate_seq(const cfg *c, const kernel *seq, int n, simout *o, sk_error *e)
{
    memset(o, 0, sizeof *o);
    char path[] = "/tmp/skewsim-measured-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return sk_errorf(e, SK_EIO, "cannot create a temporary trace in /tmp");
    close(fd);
    trace_writer *w = trace_writer_open(path, 0, e);
    int rc = w ? 0 : e->code;
    for (int i = 0; rc == 0 && i < n; i++)
        rc = trace_writer_kernel(w, &seq[i], NULL, NULL, e);
    int rc2 = trace_writer_close(w, e);
    if (rc == 0)
        rc = rc2;
    trace *tr = rc == 0 ? trace_open(path, e) : NULL;
    if (!tr) {
        remove(path);
        return rc ? rc : e->code;
    }
    results *r = results_open(NULL, e);
    sim *s = NULL;
    if (r) {
        sim_sink sk = results_sink(r);
        s = sim_create(c, &sk, 1, e);
    }
    rc = s ? sim_run(s, tr, e) : e->code;
    if (rc == 0) {
        o->nk = results_nkernels(r);
        o->ks = xcalloc(o->nk ? o->nk : 1, sizeof *o->ks);
        for (size_t i = 0; i < o->nk; i++)
            o->ks[i] = *results_kernel(r, i);
        o->ctas = xcalloc(results_nctas(r) + 1, sizeof *o->ctas);
        for (size_t i = 0; i < results_nctas(r); i++)
            if (results_cta(r, i)->kernel == 0)
                o->ctas[o->nctas++] = *results_cta(r, i);
        /* activity per SM cycle over the first kernel's span */
        o->rate = xcalloc((size_t)s->nsms, sizeof *o->rate);
        double span_s = o->nk ? (double)(o->ks[0].last_end_ps - o->ks[0].first_start_ps) * 1e-12 : 0;
        for (int i = 0; i < s->nsms && span_s > 0; i++)
            sm_rate(s, i, silicon_sm(s->si, i)->mhz * 1e6 * span_s, &o->rate[i]);
        double tot = (double)s->end_ps * 1e-12;
        o->mean_power_w = tot > 0 ? silicon_chip(s->si)->energy_j / tot : 0;
    }
    sim_destroy(s);
    results_free(r);
    trace_close(tr);
    remove(path);
    if (rc < 0)
        simout_free(o);
    return rc;
}

/* n copies of k, copy i after gap_ns[i] (NULL: back to back), simulated on
 * c; with `first`, that kernel runs before them (a gate: kernels.csv
 * chain_gated), and the CUDA event that times them is recorded between it
 * and the first copy (event=before). */
static int simulate_after(const cfg *c, const kernel *first, const kernel *k, int n, const uint64_t *gap_ns,
                          simout *o, sk_error *e)
{
    kernel *seq = xcalloc((size_t)n + 1, sizeof *seq);
    int m = 0;
    if (first)
        seq[m++] = *first;
    for (int i = 0; i < n; i++) {
        seq[m] = *k;
        seq[m].event_before = first && i == 0;
        seq[m++].gap_ns = gap_ns ? gap_ns[i] : 0;
    }
    int rc = simulate_seq(c, seq, m, o, e);
    free(seq);
    return rc;
}

#define BUDGET 4e8   /* warp-instructions a simulation may take: E26's largest (3.1e8, seconds)
                        run; E13's biggest (minutes each) do not */

static int simulate(const cfg *c, const kernel *k, int n, const uint64_t *gap_ns, simout *o, sk_error *e)
{
    return simulate_after(c, NULL, k, n, gap_ns, o, e);
}

int validate_kernel_times(const cfg *c, const kernel *k, int n, const uint64_t *gap_ns, double *us,
                          sk_error *e)
{
    simout o;
    int rc = simulate(c, k, n, gap_ns, &o, e);
    if (rc < 0)
        return rc;
    for (int i = 0; i < n; i++)
        us[i] = (size_t)i < o.nk ? (double)(o.ks[i].done_ps - o.ks[i].launch_ps) / 1e6 : NAN;
    simout_free(&o);
    return 0;
}

/* ---- rows and verdicts -------------------------------------------------- */

enum { M_TIME, M_SPAN, M_ROUND, M_PLACE, M_COUNT, M_SPREAD, M_CLOCK, M_POWER, M_RATE, M_N };
static const char *const metric_name[M_N] = { "time_us", "span_us", "round_us", "placed",
                                              "ctas/sm", "spread_us", "clock_mhz", "power_w", "rate_T/s" };
/* judged by MAPE (the others are agreement fractions, reported) */
static const int judged[M_N] = { 1, 1, 1, 0, 0, 0, 1, 1, 1 };

typedef struct vrow {
    char family[24];
    int metric;
    double meas, sim;
    int fitted;
} vrow;

typedef struct skipgrp {
    char family[24], why[200], first[96];
    int n;
} skipgrp;

typedef struct vctx {
    const cfg *c;
    const vfit *fit;            /* may be empty */
    vrow *rows;
    size_t n, cap;
    int skipped;
    skipgrp skips[64];
    int nskips;
} vctx;

static int is_fitted(const vctx *v, const char *kid, const char *detail)
{
    return vfit_kernel(v->fit, kid, detail);
}

/* A row whose printed name is `shown` (detail, or kid when detail is
 * empty, for add_row); `detail` is what FILE's detail matches. */
static void add_row_as(vctx *v, const char *family, const char *kid, const char *detail,
                       const char *shown, int metric, double meas, double simv)
{
    if (!isfinite(meas) || !isfinite(simv))
        return;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->rows = xrealloc(v->rows, v->cap * sizeof *v->rows);
    }
    vrow *r = &v->rows[v->n++];
    snprintf(r->family, sizeof r->family, "%s", family);
    r->metric = metric;
    r->meas = meas;
    r->sim = simv;
    r->fitted = is_fitted(v, kid, detail);
    char err[16] = "";
    if (judged[metric] && meas != 0)
        snprintf(err, sizeof err, "%+.1f%%", 100 * (simv - meas) / meas);
    printf("  %-13s %-44s %-9s %11.2f %11.2f %8s  %s\n", family, shown,
           metric_name[metric], meas, simv, err, r->fitted ? "fitted" : "predicted");
}

static void add_row(vctx *v, const char *family, const char *kid, const char *detail,
                    int metric, double meas, double simv)
{
    add_row_as(v, family, kid, detail, detail[0] ? detail : kid, metric, meas, simv);
}

/* Kernels not simulated are counted by family and reason (a generator's
 * own message names its arguments: only its first words group). */
static void skip(vctx *v, const char *family, const char *kid, const char *why)
{
    v->skipped++;
    char key[200];
    snprintf(key, sizeof key, "%s", why);
    char *q = strstr(key, "': ");
    if (key[0] == '\'' && q)
        memmove(key, q + 3, strlen(q + 3) + 1);
    char *num_ = strpbrk(key, "0123456789");
    if (num_ && strstr(key, "warp-instructions"))
        snprintf(key, sizeof key, "over the %.0e warp-instruction budget", BUDGET);
    for (int i = 0; i < v->nskips; i++)
        if (!strcmp(v->skips[i].family, family) && !strcmp(v->skips[i].why, key)) {
            v->skips[i].n++;
            return;
        }
    if (v->nskips < 64) {
        skipgrp *g = &v->skips[v->nskips++];
        snprintf(g->family, sizeof g->family, "%s", family);
        snprintf(g->why, sizeof g->why, "%s", key);
        snprintf(g->first, sizeof g->first, "%s", kid);
        g->n = 1;
    }
}

/* ---- the families --------------------------------------------------------- */

/* Estimated warp-instructions of k: simulations past the budget are
 * skipped (E13's 1000-round kernels at 1056 CTAs would take minutes). */
static double cost(const kernel *k)
{
    double warps = ceil(k->block_threads / 32.0);
    return (double)prog_dynamic_count(&k->progs[0], 1.0) * warps * (double)k->grid;
}

typedef struct cap {
    table kern, reps, ctas, pmix, smi;
    int k_id, k_exp, k_gen, k_mode, k_reps, k_med;
    int r_id, r_rep, r_time, r_first, r_last, r_gap;
    int c_id, c_rep, c_cta, c_sm, c_t1;
} cap;

static void cap_free(cap *d)
{
    table_free(&d->kern);
    table_free(&d->reps);
    table_free(&d->ctas);
    table_free(&d->pmix);
    table_free(&d->smi);
}

/* Median over the reps of pair (a, b) of b's last CTA end less a's first
 * CTA start (ns): within a rep the two kernels' reps.csv times share one
 * origin.  NAN when no rep recorded both.  With a == b, each rep's own
 * span: meas_span(). */
static double pair_span(const cap *d, const char *a, const char *b)
{
    double *v = xcalloc(d->reps.n + 1, sizeof *v);
    size_t n = 0;
    int same = !strcmp(a, b);
    for (size_t r = 0; r < d->reps.n; r++) {
        if (strcmp(cell(&d->reps, r, d->r_id), a))
            continue;
        size_t q = same ? r : 0;
        while (!same && q < d->reps.n &&
               (strcmp(cell(&d->reps, q, d->r_id), b) || num(&d->reps, q, d->r_rep) != num(&d->reps, r, d->r_rep)))
            q++;
        if (q == d->reps.n)
            continue;
        double first = num(&d->reps, r, d->r_first), last = num(&d->reps, q, d->r_last);
        if (first >= 0 && last >= first)
            v[n++] = last - first;
    }
    double m = median_of(v, n);
    free(v);
    return m;
}

/* Median over the reps of kernel `id` of t_last - t_first (ns), NAN when
 * none recorded both. */
static double meas_span(const cap *d, const char *id)
{
    return pair_span(d, id, id);
}

/* Placement, CTA counts per SM and finish spread of rep 0 against the
 * simulated first kernel. */
static void placement_rows(vctx *v, const cap *d, const char *fam, const char *id,
                           const simout *o, int nsms)
{
    long *msm = NULL;
    size_t ncta = 0, cap_ = 0;
    double *mend = xcalloc((size_t)nsms, sizeof *mend), *send = xcalloc((size_t)nsms, sizeof *send);
    int *mcnt = xcalloc((size_t)nsms, sizeof *mcnt), *scnt = xcalloc((size_t)nsms, sizeof *scnt);
    for (size_t r = 0; r < d->ctas.n; r++) {
        if (strcmp(cell(&d->ctas, r, d->c_id), id) || num(&d->ctas, r, d->c_rep) != 0)
            continue;
        long cta = (long)num(&d->ctas, r, d->c_cta), smid = (long)num(&d->ctas, r, d->c_sm);
        if (cta < 0 || smid < 0 || smid >= nsms)
            continue;
        if ((size_t)cta >= cap_) {
            size_t nc = SK_MAX((size_t)cta + 1, 2 * cap_);
            msm = xrealloc(msm, nc * sizeof *msm);
            for (size_t i = cap_; i < nc; i++)
                msm[i] = -1;
            cap_ = nc;
        }
        msm[cta] = smid;
        ncta++;
        mcnt[smid]++;
        mend[smid] = SK_MAX(mend[smid], num(&d->ctas, r, d->c_t1));
    }
    if (ncta > 0 && o->nctas > 0) {
        size_t same = 0, cmp = 0;
        for (size_t i = 0; i < o->nctas; i++) {
            const cta_record *x = &o->ctas[i];
            if (x->sm < 0 || x->sm >= nsms)
                continue;
            scnt[x->sm]++;
            send[x->sm] = SK_MAX(send[x->sm], (double)(x->end_ps - x->kernel_first_start_ps) / 1e3);
            if (x->cta < cap_ && msm[x->cta] >= 0) {
                cmp++;
                same += msm[x->cta] == x->sm;
            }
        }
        int eq = 0, used = 0;
        double mlo = HUGE_VAL, mhi = -HUGE_VAL, slo = HUGE_VAL, shi = -HUGE_VAL;
        for (int i = 0; i < nsms; i++) {
            eq += mcnt[i] == scnt[i];
            if (mcnt[i]) {
                used++;
                mlo = SK_MIN(mlo, mend[i]);
                mhi = SK_MAX(mhi, mend[i]);
            }
            if (scnt[i]) {
                slo = SK_MIN(slo, send[i]);
                shi = SK_MAX(shi, send[i]);
            }
        }
        if (ncta == (size_t)o->nctas && cmp > 0) {
            add_row(v, fam, id, "", M_PLACE, 1, (double)same / (double)cmp);
            add_row(v, fam, id, "", M_COUNT, 1, (double)eq / nsms);
        }
        if (used > 1)
            add_row(v, fam, id, "", M_SPREAD, (mhi - mlo) / 1e3, (shi - slo) / 1e3);
    }
    free(msm);
    free(mend);
    free(send);
    free(mcnt);
    free(scnt);
}

typedef struct coop_time {
    char key[96];               /* ctas/block/iters */
    double r10_meas, r10_sim, r100_meas, r100_sim;
    char id10[96], id100[96];
} coop_time;

/* Measured time (ns) of rep `rep` of kernel id in reps.csv, NAN if none. */
static double rep_time(const cap *d, const char *id, int rep)
{
    for (size_t r = 0; r < d->reps.n; r++)
        if (!strcmp(cell(&d->reps, r, d->r_id), id) && num(&d->reps, r, d->r_rep) == rep)
            return num(&d->reps, r, d->r_time);
    return NAN;
}

/* E13 first launches (mode first_in_process): one process ran fma (rep 0:
 * its first launch; rep 1), then coop (rep 0: its first cooperative
 * launch; reps 1, 2), each timed by CUDA events and synchronised.  The
 * sequence is simulated as it ran, with launch.module_loading set to the
 * process's CUDA_MODULE_LOADING (params module_loading=EAGER: eager;
 * default: lazy, CUDA's default since 12.2), so the first launches pay the
 * config's one-time costs (sim.c, "First launches") and the later ones
 * must not.  The .fma row carries the process; its .coop row is found by
 * name and skipped on its own.  Rows: "first launch" (rep 0) and "launch
 * N", per kernel, so configs/h200.fitted.csv can tag the rows a constant
 * was fitted on. */
static int first_in_process(vctx *v, const cap *d, size_t row, sk_error *e)
{
    const char *id = cell(&d->kern, row, d->k_id), *fam = cell(&d->kern, row, d->k_exp);
    size_t len = strlen(id);
    if (len > 5 && !strcmp(id + len - 5, ".coop"))
        return 0;   /* with its .fma row */
    if (!(len > 4 && !strcmp(id + len - 4, ".fma"))) {
        skip(v, fam, id, "first_in_process: expected a kernel id ending .fma or .coop");
        return 0;
    }
    char cid[128];
    snprintf(cid, sizeof cid, "%.*s.coop", (int)(len - 4), id);
    size_t crow = d->kern.n;
    for (size_t r = 0; r < d->kern.n; r++)
        if (!strcmp(cell(&d->kern, r, d->k_id), cid))
            crow = r;
    if (crow == d->kern.n) {
        skip(v, fam, id, "first_in_process: no .coop kernel of the same process");
        return 0;
    }
    kernel kf, kc;
    long repeat;
    sk_error ge = { 0 };
    if (gen_kernel(cell(&d->kern, row, d->k_gen), &kf, &repeat, &ge) < 0) {
        skip(v, fam, id, ge.msg);
        return 0;
    }
    if (gen_kernel(cell(&d->kern, crow, d->k_gen), &kc, &repeat, &ge) < 0) {
        skip(v, fam, cid, ge.msg);
        kernel_free(&kf);
        return 0;
    }
    cfg c = *v->c;
    c.module_loading = strstr(cell(&d->kern, row, col(&d->kern, "params")), "module_loading=EAGER")
                           ? MODLOAD_EAGER : MODLOAD_LAZY;
    kernel seq[5] = { kf, kf, kc, kc, kc };
    for (int i = 0; i < 5; i++)
        seq[i].sync_host = 1;   /* the capture synchronised after each launch */
    simout o;
    int rc = simulate_seq(&c, seq, 5, &o, e);
    if (rc == 0 && o.nk == 5)
        for (int i = 0; i < 5; i++) {
            const char *kid = i < 2 ? id : cid;
            int rep = i < 2 ? i : i - 2;
            char det[32];
            if (rep == 0)
                snprintf(det, sizeof det, "first launch");
            else
                snprintf(det, sizeof det, "launch %d", rep + 1);
            char shown[200];
            snprintf(shown, sizeof shown, "%s %s", kid + (strncmp(kid, "e13.first.", 10) ? 0 : 10), det);
            add_row_as(v, fam, kid, det, shown, M_TIME, rep_time(d, kid, rep) / 1e3,
                       (double)(o.ks[i].done_ps - o.ks[i].launch_ps) / 1e6);
        }
    if (rc == 0)
        simout_free(&o);
    kernel_free(&kf);
    kernel_free(&kc);
    return rc;
}


/* E14's two-stream pairs (mode concurrent; params
 * pair=A+B;launched=first|second;partner=ID): two kernels launched together
 * on two non-blocking streams, A first.  Simulated as they ran: one trace,
 * A then B, each on its kernels.csv stream, so B's CTAs find A's on the
 * SMs.  Compared at A's row, for both kernels: the time (each one's CUDA
 * events, launch to completion on its own stream) and the span (first CTA
 * start to last CTA end); and the pair's span, A's first CTA start to B's
 * last CTA end, the figure tests/test_streams.c checks the shape of.
 * Nothing was fitted to these rows: they are predictions unless FILE says
 * otherwise.  B's own row is done with A's. */
static int concurrent_pair(vctx *v, const cap *d, size_t row, sk_error *e)
{
    const char *id = cell(&d->kern, row, d->k_id), *fam = cell(&d->kern, row, d->k_exp);
    int cpar = col(&d->kern, "params"), cst = col(&d->kern, "stream");
    const char *params = cell(&d->kern, row, cpar), *pp = strstr(params, "partner=");
    if (strstr(params, "launched=second"))
        return 0;
    if (!pp || !strstr(params, "launched=first")) {
        skip(v, fam, id, "concurrent: expected launched=first or second and partner=ID in params");
        return 0;
    }
    char pid[96];
    snprintf(pid, sizeof pid, "%.*s", (int)strcspn(pp + 8, ";"), pp + 8);
    size_t prow = 0;
    while (prow < d->kern.n && strcmp(cell(&d->kern, prow, d->k_id), pid))
        prow++;
    if (prow == d->kern.n || !cell(&d->kern, prow, d->k_gen)[0]) {
        skip(v, fam, id, "concurrent: the partner has no row with a generator in kernels.csv");
        return 0;
    }
    kernel k[2];
    memset(k, 0, sizeof k);
    long repeat;
    sk_error ge = { 0 };
    const size_t rows[2] = { row, prow };
    for (int i = 0; i < 2; i++) {
        if (gen_kernel(cell(&d->kern, rows[i], d->k_gen), &k[i], &repeat, &ge) < 0) {
            skip(v, fam, id, ge.msg);
            kernel_free(&k[0]);
            return 0;
        }
        long st = cst >= 0 ? atol(cell(&d->kern, rows[i], cst)) : 0;
        k[i].stream = st > 0 ? (uint32_t)st : (uint32_t)i + 1;   /* two streams, whatever the file says */
    }
    if (k[0].stream == k[1].stream)
        k[1].stream = k[0].stream + 1;
    int rc = 0;
    if (cost(&k[0]) + cost(&k[1]) > BUDGET) {
        char why[96];
        snprintf(why, sizeof why, "%.2g warp-instructions: over the %.0e budget", cost(&k[0]) + cost(&k[1]),
                 BUDGET);
        skip(v, fam, id, why);
    } else {
        simout o;
        rc = simulate_seq(v->c, k, 2, &o, e);
        if (rc == 0 && o.nk == 2) {
            const char *ids[2] = { id, pid };
            for (int i = 0; i < 2; i++) {
                const kernel_stats *ks = &o.ks[i];
                add_row(v, fam, ids[i], "", M_TIME, num(&d->kern, rows[i], d->k_med) / 1e3,
                        (double)(ks->done_ps - ks->launch_ps) / 1e6);
                add_row(v, fam, ids[i], "", M_SPAN, meas_span(d, ids[i]) / 1e3,
                        (double)(ks->last_record_end_ps - ks->first_start_ps) / 1e6);
            }
            char det[128];
            snprintf(det, sizeof det, "%s pair", id);
            add_row(v, fam, id, det, M_SPAN, pair_span(d, id, pid) / 1e3,
                    (double)(o.ks[1].last_record_end_ps - o.ks[0].first_start_ps) / 1e6);
        }
        if (rc == 0)
            simout_free(&o);
    }
    kernel_free(&k[0]);
    kernel_free(&k[1]);
    return rc;
}

/* One kernels.csv row. */
static int one_kernel(vctx *v, const cap *d, size_t row, int nsms, coop_time *ct, int *nct,
                      sk_error *e)
{
    const char *id = cell(&d->kern, row, d->k_id), *fam = cell(&d->kern, row, d->k_exp);
    const char *gen = cell(&d->kern, row, d->k_gen), *mode = cell(&d->kern, row, d->k_mode);
    if (!strcmp(mode, "sustained"))
        return 0;   /* E16, E28: power_rows(), from power_mix.csv (it says which it skips) */
    if (!gen[0]) {
        skip(v, fam, id, "no generator (kernels.csv gen is empty)");
        return 0;
    }
    /* E11's chases and streams are judged by `validate -d`'s e11 section
     * (validate_e11.c), which simulates each as the capture ran it: the
     * warm-up launch before a timed chase, and the measured bytes of a
     * bandwidth row.  Simulated here as one plain launch they would be
     * judged against the wrong experiment. */
    if (!strncmp(fam, "e11_", 4)) {
        skip(v, fam, id, "judged by validate -d's e11 section (warm-up launches, measured bytes)");
        return 0;
    }
    if (!strcmp(mode, "first_in_process"))
        return first_in_process(v, d, row, e);
    if (!strcmp(mode, "concurrent"))
        return concurrent_pair(v, d, row, e);
    int single = !strcmp(mode, "single") || !strcmp(mode, "after_warm") || !strcmp(mode, "cold")
              || !strcmp(mode, "cooperative");
    int chain = !strcmp(mode, "chain") || !strcmp(mode, "chain_gated");
    int gap = !strcmp(mode, "after_gap");
    if (!single && !chain && !gap) {
        char why[96];
        snprintf(why, sizeof why, "mode %s is not simulated", mode);
        skip(v, fam, id, why);
        return 0;
    }
    kernel k;
    long repeat;
    sk_error ge = { 0 };
    if (gen_kernel(gen, &k, &repeat, &ge) < 0) {
        skip(v, fam, id, ge.msg);
        return 0;
    }
    if (cost(&k) > BUDGET) {
        char why[96];
        snprintf(why, sizeof why, "%.2g warp-instructions: over the %.0e budget", cost(&k), BUDGET);
        skip(v, fam, id, why);
        kernel_free(&k);
        return 0;
    }
    simout o;
    memset(&o, 0, sizeof o);
    int rc = 0;
    if (single) {
        rc = simulate(v->c, &k, 1, NULL, &o, e);
        if (rc == 0 && o.nk == 1) {
            double st = (double)(o.ks[0].done_ps - o.ks[0].launch_ps) / 1e6;
            double ss = (double)(o.ks[0].last_record_end_ps - o.ks[0].first_start_ps) / 1e6;
            add_row(v, fam, id, "", M_TIME, num(&d->kern, row, d->k_med) / 1e3, st);
            add_row(v, fam, id, "", M_SPAN, meas_span(d, id) / 1e3, ss);
            placement_rows(v, d, fam, id, &o, nsms);
            /* E13's per-round cost pairs r10 with r100 */
            const char *r10 = strstr(id, ".r10."), *r100 = strstr(id, ".r100.");
            if (!strcmp(fam, "e13_coop") && (r10 || r100)) {
                char key[96];
                const char *p = r10 ? r10 : r100;
                snprintf(key, sizeof key, "%.*s|%s", (int)(p - id), id, strchr(p + 1, '.'));
                int j = 0;
                while (j < *nct && strcmp(ct[j].key, key))
                    j++;
                if (j == *nct && *nct < 64) {
                    memset(&ct[j], 0, sizeof ct[j]);
                    snprintf(ct[j].key, sizeof ct[j].key, "%s", key);
                    ct[j].r10_meas = ct[j].r100_meas = NAN;
                    (*nct)++;
                }
                if (j < *nct) {
                    if (r10) {
                        ct[j].r10_meas = num(&d->kern, row, d->k_med);
                        ct[j].r10_sim = st * 1e3;
                        snprintf(ct[j].id10, sizeof ct[j].id10, "%s", id);
                    } else {
                        ct[j].r100_meas = num(&d->kern, row, d->k_med);
                        ct[j].r100_sim = st * 1e3;
                        snprintf(ct[j].id100, sizeof ct[j].id100, "%s", id);
                    }
                }
            }
        }
    } else if (chain) {
        long reps = (long)num(&d->kern, row, d->k_reps);
        int n = (int)SK_MAX(1, SK_MIN(reps, 20));
        /* chain_gated (cap_launch.cu): a gate kernel holds the stream while
         * the host enqueues all n launches, and the CUDA events run from the
         * gate's end to the last kernel's.  So it is simulated as it ran: a
         * gate that outlasts n host launch calls, the start event recorded
         * after it (the first chain kernel's event=before), the chain queued
         * behind them (launch pipelining then finds every command already
         * there), timed from the gate's completion.  A plain chain is
         * host-launched from its first kernel. */
        int gated = !strcmp(mode, "chain_gated");
        kernel gate;
        memset(&gate, 0, sizeof gate);
        if (gated) {
            /* one warp of gen fma runs 4096 iterations in 12.5 us on
             * configs/h200.yaml (skewsim run): iterations for about twice n
             * host launch calls; checked below */
            long iters = 64 * (long)(2.0 * n * (double)v->c->launch_host_ns / 195.0 + 1);
            if (gen_fma(&gate, iters, 32, 1, e) < 0) {
                kernel_free(&k);
                return e->code;
            }
        }
        rc = simulate_after(v->c, gated ? &gate : NULL, &k, n, NULL, &o, e);
        size_t want = (size_t)n + (size_t)gated;
        if (rc == 0 && o.nk == want && gated && o.ks[want - 1].launch_ps >= o.ks[0].last_end_ps) {
            skip(v, fam, id, "the gate ended before the chain was enqueued");
        } else if (rc == 0 && o.nk == want) {
            /* a chain of reps > n kernels: the n simulated, then one
             * steady step (the last kernel's) for each one more, so that
             * the chain's one-time costs (the first launch's set-up, the
             * event after the gate) are spread over reps, not over n */
            ps_t from = gated ? o.ks[0].done_ps : o.ks[0].launch_ps;
            double total = (double)(o.ks[want - 1].done_ps - from);
            if (reps > n && n >= 2)
                total += (double)(reps - n) * (double)(o.ks[want - 1].done_ps - o.ks[want - 2].done_ps);
            double per = total / 1e6 / (double)SK_MAX(reps, n);
            char det[96];
            snprintf(det, sizeof det, "%s per launch", id);
            add_row(v, fam, id, det, M_TIME, num(&d->kern, row, d->k_med) / 1e3, per);
        }
        kernel_free(&gate);
    } else {
        /* after_gap: the nominal gaps of params `gaps_ms=a/b/...`; each rep
         * belongs to the nearest (in log) of them, since reps.csv gap_ns is
         * the gap the host measured.  One row per nominal gap: the median
         * time over its reps, simulated after the median measured gap. */
        double gaps[64];
        int ng = 0;
        const char *gp = strstr(cell(&d->kern, row, col(&d->kern, "params")), "gaps_ms=");
        for (const char *p = gp ? gp + 8 : NULL; p && ng < 64;) {
            char *end;
            double g = strtod(p, &end);
            if (end == p)
                break;
            gaps[ng++] = g * 1e6;
            p = *end == '/' ? end + 1 : NULL;
        }
        for (int j = 0; rc == 0 && j < ng; j++) {
            double *t = xcalloc(d->reps.n + 1, sizeof *t), *gv = xcalloc(d->reps.n + 1, sizeof *gv);
            size_t nt = 0;
            for (size_t r = 0; r < d->reps.n; r++) {
                if (strcmp(cell(&d->reps, r, d->r_id), id))
                    continue;
                double g = num(&d->reps, r, d->r_gap);
                int best = 0;
                for (int q = 1; q < ng; q++)
                    if (fabs(log(g / gaps[q])) < fabs(log(g / gaps[best])))
                        best = q;
                if (best == j && g > 0) {
                    gv[nt] = g;
                    t[nt++] = num(&d->reps, r, d->r_time);
                }
            }
            double meas = median_of(t, nt), gmed = median_of(gv, nt);
            free(t);
            free(gv);
            if (!(nt > 0))
                continue;
            uint64_t g2[2] = { 0, (uint64_t)llround(gmed) };
            rc = simulate(v->c, &k, 2, g2, &o, e);
            if (rc == 0 && o.nk == 2) {
                char det[96];
                snprintf(det, sizeof det, "gap_ms=%g", gaps[j] / 1e6);
                char full[160];
                snprintf(full, sizeof full, "%s %s", id, det);
                /* the row names the kernel and its gap; FILE's detail is the gap */
                size_t before = v->n;
                add_row(v, fam, id, det, M_TIME, meas / 1e3,
                        (double)(o.ks[1].done_ps - o.ks[1].launch_ps) / 1e6);
                (void)before;
                (void)full;
            }
            if (rc == 0 && j + 1 < ng)
                simout_free(&o);
        }
    }
    if (rc == 0)
        simout_free(&o);
    kernel_free(&k);
    return rc;
}

/* E16: the sustained mixes that have a generator, and the torch GEMMs for
 * which `gen gemm --dtype` stands in.
 *
 * The power model's fitted constants are recomputed here from the mixes
 * docs/calibration.md names (the "power fit" lines), so what the config
 * holds can be checked against the procedure that gave it:
 *
 *   power.op_scale_ppm, power.sched_pj   fp32_1cta and int32: the board power
 *       at their measured clock (1980 MHz, below the cap) is affine in the
 *       two (leakage follows the temperature they set, so two Newton steps
 *       with a numerical Jacobian);
 *   power.tensor_pj   bf16 GEMM: at its measured median clock, held, the
 *       model draws the measured power (the cap's set-point);
 *   power.tensor_datapath_pct   fp16 GEMM, the same, given tensor_pj.
 *
 * The rows are then simulated with the config as it is (the cap's own
 * controller sets the GEMMs' clock), and those four mixes' rows are the
 * fitted ones (configs/h200.fitted.csv).  The other mixes are predictions. */

typedef struct pmix {
    char name[32];
    char board[16];             /* power_mix.csv's board column ("" when none) */
    int run;                    /* this is the run-th window of `name` on `board` (0, 1, ...) */
    si_rate *rate;              /* per SM, from a short simulation */
    double meas_w, meas_mhz, secs;
    double meas_rate, sim_rate; /* work units a second (power_mix.csv's rate_per_s; NAN: none) */
} pmix;

/* Sustained board power of mix m on c, the clock held at the mix's
 * measured clock (held = 1) or as c's policy sets it (then *mhz gets the
 * median clock). */
/* c with its clock held at the bin nearest mhz (the clock a mix was
 * measured at) and no thermal slowdown. */
static cfg held_at(const cfg *c, double mhz)
{
    cfg k = *c;
    k.dvfs_policy = DVFS_FIXED;
    k.dvfs_fixed_mhz = (int)(c->sm_mhz - floor((c->sm_mhz - mhz) / c->dvfs_step_mhz + 0.5) * c->dvfs_step_mhz);
    k.th_slowdown_c = 200;   /* the clock is the measured one: no thermal slowdown */
    k.th_shutdown_c = 1000;
    return k;
}

static int mix_power(const cfg *c, const topo *tp, const pmix *m, int held, double *w, double *mhz,
                     sk_error *e)
{
    cfg k = *c;
    if (held) {
        k = held_at(c, m->meas_mhz);
        /* uniform silicon under a clock lock takes the fast path, which
         * skips the power grid (docs/silicon.md): the held clock must see
         * the IR drop the capped run sees, so the same uniform Vth map goes
         * through the grid (varius with no variation) */
        if (k.si_preset == SI_PRESET_UNIFORM) {
            k.si_preset = SI_PRESET_VARIUS;
            k.var_sigma_permille = 0;
        }
    }
    si_sustained su;
    int rc = silicon_sustain(&k, tp, m->rate, m->secs, &su, e);
    if (rc < 0)
        return rc;
    *w = su.power_w;
    if (mhz)
        *mhz = su.mhz_median;
    return 0;
}

static const pmix *find_mix(const pmix *v, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i].name, name))
            return &v[i];
    return NULL;
}

/* One constant (int field *x of c) so that mix m draws its measured power:
 * the power is affine in it, so a secant step from two evaluations, then a
 * second from the result. */
static int fit_one(cfg *c, int *x, const topo *tp, const pmix *m, sk_error *e)
{
    double x0 = *x, x1 = *x * 1.05 + 1, p0, p1;
    for (int it = 0; it < 2; it++) {
        *x = (int)lround(x0);
        int rc = mix_power(c, tp, m, 1, &p0, NULL, e);
        *x = (int)lround(x1);
        if (rc == 0)
            rc = mix_power(c, tp, m, 1, &p1, NULL, e);
        if (rc < 0)
            return rc;
        double nx = fabs(p1 - p0) > 1e-9 ? x0 + (m->meas_w - p0) * (x1 - x0) / (p1 - p0) : x0;
        x1 = nx * 1.01 + 1;
        x0 = nx;
    }
    *x = (int)lround(x0);
    return 0;
}

/* A config whose constant is more than 2 % (or 1 unit) from what the fit
 * gives has drifted from its procedure: say so. */
static void stale(const char *key, int fit, int have)
{
    if (abs(fit - have) > 1 && fabs((double)(fit - have)) > 0.02 * abs(have))
        printf("  power fit     %s: the config's %d is %+.1f %% from the fit's %d: refit (docs/"
               "calibration.md, \"Power\")\n", key, have, 100.0 * (have - fit) / (fit ? fit : 1), fit);
}

/* power.fp32_random_fj so that the model's step from one mix on quiet
 * data to the same kernel on random data is the measured one: E32's
 * SGEMM on all-zero inputs (sgemm_zeros) and on torch.randn's
 * (sgemm_fp32), the same cuBLAS kernel at the same rate (gen gemm
 * --data), averaged over the pairs measured in one program run on one
 * board (each pair shares its board's offset and its temperature drift:
 * docs/silicon.md, "Power").  The step is affine in the constant:
 * fit_one's two secant steps on the random mix, whose target is the
 * model's quiet mix plus the measured step.  What is fitted is the step,
 * so that is the row tagged (kernel STEP in FILE), printed whether or not
 * the fit runs; the two mixes' own rows, which carry the board's offset,
 * are predictions.  (E28's reg_rand_bc, per-thread random constants in an
 * FFMA chain, was the fit before E32: its data are between quiet and
 * random, a third of the SGEMM's step per FFMA lane.) */
static const struct {
    const char *fam, *quiet, *rnd, *step, *label;
} random_steps[] = {
    { "e32_power", "sgemm_zeros", "sgemm_fp32", "sgemm_step", "sgemm_fp32 - sgemm_zeros (held)" },
};

static int family_on(const char *only, const char *fam);

/* Whether mix is one side of a random_steps pair whose family `only`
 * asks for (sgemm_fp32 is E16's, but --only e32_power needs it for the
 * step). */
static int step_mix_on(const char *only, const char *mix)
{
    for (size_t r = 0; r < SK_ARRAY_LEN(random_steps); r++)
        if ((!strcmp(mix, random_steps[r].quiet) || !strcmp(mix, random_steps[r].rnd)) &&
            family_on(only, random_steps[r].fam))
            return 1;
    return 0;
}

static int fit_random(vctx *v, cfg *c, const topo *tp, const pmix *mx, size_t n, sk_error *e)
{
    for (size_t r = 0; r < SK_ARRAY_LEN(random_steps); r++) {
        double step = 0, quiet_w = 0, rnd_w = 0;
        int pairs = 0;
        const pmix *rnd = NULL, *q = NULL;
        for (size_t i = 0; i < n; i++) {
            if (strcmp(mx[i].name, random_steps[r].quiet))
                continue;
            for (size_t j = 0; j < n; j++)
                if (!strcmp(mx[j].name, random_steps[r].rnd) && !strcmp(mx[j].board, mx[i].board) &&
                    mx[j].run == mx[i].run) {
                    step += mx[j].meas_w - mx[i].meas_w;
                    pairs++;
                    rnd = rnd ? rnd : &mx[j];
                    q = q ? q : &mx[i];
                }
        }
        if (!pairs)
            continue;
        step /= pairs;
        int rc = mix_power(v->c, tp, q, 1, &quiet_w, NULL, e);
        if (rc == 0)
            rc = mix_power(v->c, tp, rnd, 1, &rnd_w, NULL, e);
        if (rc < 0)
            return rc;
        add_row_as(v, random_steps[r].fam, random_steps[r].step, random_steps[r].step, random_steps[r].label,
                   M_POWER, step, rnd_w - quiet_w);
        if (!is_fitted(v, random_steps[r].step, random_steps[r].step))
            continue;
        pmix target = *rnd;
        target.meas_w = quiet_w + step;
        if ((rc = fit_one(c, &c->fp32_random_fj, tp, &target, e)) < 0)
            return rc;
        printf("  power fit     power.fp32_random_fj %d (config %d): %s %.1f W over %s at %.0f MHz, %d pair(s)\n",
               c->fp32_random_fj, v->c->fp32_random_fj, random_steps[r].rnd, step, random_steps[r].quiet,
               rnd->meas_mhz, pairs);
        stale("power.fp32_random_fj", c->fp32_random_fj, v->c->fp32_random_fj);
    }
    return 0;
}

/* Each fit runs where its mixes are tagged fitted (the capture the config
 * was fitted on: configs/h200.fitted.csv for E16, configs/h100.fitted.csv
 * for E28); elsewhere the same mixes are predictions and a fit from them
 * would describe another board. */
static int fit_power(vctx *v, const topo *tp, const pmix *mx, size_t n, sk_error *e)
{
    const pmix *f32 = find_mix(mx, n, "fp32_1cta"), *i32 = find_mix(mx, n, "int32"),
               *bf = find_mix(mx, n, "bf16"), *f16 = find_mix(mx, n, "fp16");
    if ((f32 || i32 || bf || f16) && !is_fitted(v, "fp32_1cta", "fp32_1cta") && !is_fitted(v, "int32", "int32")
        && !is_fitted(v, "bf16", "bf16") && !is_fitted(v, "fp16", "fp16"))
        printf("  power fit     E16's fits not run: no mix of this capture is tagged fitted (--fitted FILE): "
               "its rows are predictions\n");
    if (f32 && !is_fitted(v, "fp32_1cta", "fp32_1cta"))
        f32 = NULL;
    if (i32 && !is_fitted(v, "int32", "int32"))
        i32 = NULL;
    if (bf && !is_fitted(v, "bf16", "bf16"))
        bf = NULL;
    if (f16 && !is_fitted(v, "fp16", "fp16"))
        f16 = NULL;
    cfg c = *v->c;
    int rc = fit_random(v, &c, tp, mx, n, e);
    if (f32 && i32) {
        /* Newton on (op_scale_ppm, sched_pj), Jacobian by differences */
        for (int it = 0; it < 2 && rc == 0; it++) {
            double p[3][2];
            int s0 = c.op_scale_ppm, q0 = c.sched_pj, ds = s0 / 20 + 100, dq = q0 / 20 + 1;
            for (int k = 0; k < 3 && rc == 0; k++) {
                c.op_scale_ppm = s0 + (k == 1 ? ds : 0);
                c.sched_pj = q0 + (k == 2 ? dq : 0);
                rc = mix_power(&c, tp, f32, 1, &p[k][0], NULL, e);
                if (rc == 0)
                    rc = mix_power(&c, tp, i32, 1, &p[k][1], NULL, e);
            }
            if (rc)
                break;
            double a = (p[1][0] - p[0][0]) / ds, b = (p[2][0] - p[0][0]) / dq;
            double cc = (p[1][1] - p[0][1]) / ds, d = (p[2][1] - p[0][1]) / dq;
            double r0 = f32->meas_w - p[0][0], r1 = i32->meas_w - p[0][1], det = a * d - b * cc;
            c.op_scale_ppm = s0;
            c.sched_pj = q0;
            if (fabs(det) > 1e-12) {
                c.op_scale_ppm = (int)lround(SK_MAX(0.0, s0 + (r0 * d - b * r1) / det));
                c.sched_pj = (int)lround(SK_MAX(0.0, q0 + (a * r1 - cc * r0) / det));
            }
        }
        if (rc == 0) {
            printf("  power fit     power.op_scale_ppm %d (config %d), power.sched_pj %d (config %d): "
                   "fp32_1cta %.0f W and int32 %.0f W at 1980 MHz\n", c.op_scale_ppm,
                   v->c->op_scale_ppm, c.sched_pj, v->c->sched_pj, f32->meas_w, i32->meas_w);
            stale("power.op_scale_ppm", c.op_scale_ppm, v->c->op_scale_ppm);
            stale("power.sched_pj", c.sched_pj, v->c->sched_pj);
        }
    }
    if (rc == 0 && bf) {
        rc = fit_one(&c, &c.tensor_pj, tp, bf, e);
        if (rc == 0) {
            printf("  power fit     power.tensor_pj %d (config %d): bf16 GEMM %.0f W at %.0f MHz\n",
                   c.tensor_pj, v->c->tensor_pj, bf->meas_w, bf->meas_mhz);
            stale("power.tensor_pj", c.tensor_pj, v->c->tensor_pj);
        }
    }
    if (rc == 0 && bf && f16) {
        rc = fit_one(&c, &c.tensor_datapath_pct, tp, f16, e);
        c.tensor_datapath_pct = SK_MAX(0, SK_MIN(100, c.tensor_datapath_pct));
        if (rc == 0) {
            printf("  power fit     power.tensor_datapath_pct %d (config %d): fp16 GEMM %.0f W at %.0f MHz\n",
                   c.tensor_datapath_pct, v->c->tensor_datapath_pct, f16->meas_w, f16->meas_mhz);
            stale("power.tensor_datapath_pct", c.tensor_datapath_pct, v->c->tensor_datapath_pct);
        }
    }
    return rc;
}

/* Per power mix: its family, and the generator that power_mix.csv gives
 * none for or, when NULL, why it has none (a mix without a row here is
 * E16's, with no generator either).  The tensor GEMMs are E16's own
 * 8192^3: their activity per cycle is the whole grid's, the partial last
 * wave (2048 tiles on 132 SMs: 15.5 waves) and each CTA's pipeline fill and
 * epilogue included, which one wave of 132 CTAs (m 1536 x n 2816, as
 * before) leaves out: at 1500 MHz and 128-cycle MMAs, 99 % of pipe cycles
 * did arithmetic there against 94 % over the grid.  The SIMT SGEMM keeps
 * its one wave over a shorter k. */
/* A mix's work rate from its simulation: the warp-instructions of energy
 * rows a and b (b < 0: none), times the work units (power_mix.csv's
 * work_unit) each one does.  RW_FFMA: an FFMA's 32 lanes x 2 flop (its
 * quiet and random-data rows); RW_DFMA likewise; RW_IMAD: int_kernel's
 * int_op, 6 PTX ops a thread an iteration of which 2 are the IMADs (the
 * adds merged into IADD3s), 3 x 32 an IMAD (its two prologue IMADs and
 * the record's IMAD.WIDE count too: +0.05 % at validate's 2048
 * iterations); RW_SMEM: smem_kernel's smem_byte, its LDS and STS of 4
 * bytes a lane, 128 each (the LD/ST pipe's other instructions count too:
 * the fill loop's 16 STS a thread, 3 LDC and a ULDC, +0.3 %); RW_LDG128:
 * l2_stream's byte, counted by its FADDs: stream_kernel's listing sums
 * each float4 with four FADDs and has no other (gen_mem.c), so 128 bytes
 * a FADD, 512 an LDG.E.128 (its LD/ST pipe also runs the pass loop's LDC
 * and two ULDC a pass, which counting that pipe took for loads: +50 %).
 * E28's mixes
 * have none: gen fma stands for their loops, which differ from it by an
 * operand a FFMA, so its rate is not theirs to judge. */
enum { RW_NONE, RW_FFMA, RW_DFMA, RW_IMAD, RW_SMEM, RW_LDG128 };
static const struct {
    const char *unit;
    int a, b;
    double per;
} rate_work[] = {
    [RW_NONE] = { NULL, -1, -1, 0 },
    [RW_FFMA] = { "flop", FU_FP32, SI_OP_FP32_RND, 64 },
    [RW_DFMA] = { "flop", FU_FP64, -1, 64 },
    [RW_IMAD] = { "int_op", SI_OP_IMAD, -1, 96 },
    [RW_SMEM] = { "smem_byte", FU_LDST, -1, 128 },
    [RW_LDG128] = { "byte", SI_OP_FADD, SI_OP_FADD_RND, 128 },
};

static const struct {
    const char *mix, *gen, *fam, *why;
    int work;                   /* rate_work's row: how its rate is counted (RW_NONE: not) */
} mix_gens[] = {
    { "fp32_1cta", NULL, "e16_power", NULL, RW_FFMA },      /* power_mix.csv names their generators */
    { "fp32_8cta", NULL, "e16_power", NULL, RW_FFMA },
    { "int32", "skewsim gen unit --op int32 --iters 2048 --block 256 --grid 1056", "e16_power", NULL, RW_IMAD },
    { "fp64", "skewsim gen unit --op fp64 --iters 2048 --block 256 --grid 1056", "e16_power", NULL, RW_DFMA },
    { "smem", "skewsim gen unit --op smem --iters 2048 --block 256 --grid 1056", "e16_power", NULL, RW_SMEM },
    { "sgemm_fp32", "skewsim gen gemm --dtype fp32 --m 1536 --n 2816 --k 256", "e16_power", NULL, RW_FFMA },
    /* stream_kernel<cg> over 24 MiB, L2-resident after its first pass (of
     * 13249 a launch on the chip; 32 here, the first one from HBM) */
    { "l2_stream", "skewsim gen stream --bytes 25165824 --passes 32 --ctas 1056 --block 256 --cg 1", "e16_power", NULL,
      RW_LDG128 },
    { "tf32", "skewsim gen gemm --dtype tf32 --m 8192 --n 8192 --k 8192", "e16_power", NULL, RW_NONE },
    { "fp16", "skewsim gen gemm --dtype fp16 --m 8192 --n 8192 --k 8192", "e16_power", NULL, RW_NONE },
    { "bf16", "skewsim gen gemm --dtype bf16 --m 8192 --n 8192 --k 8192", "e16_power", NULL, RW_NONE },
    { "fp8", "skewsim gen gemm --dtype fp8 --m 8192 --n 8192 --k 8192", "e16_power", NULL, RW_NONE },
    /* E28 (validation/h100/power; cap_power.cu, asked for by name):
     * fma_reg_kernel and fma_data_kernel are fma_kernel's loop with b and c
     * as registers or uniform operands; gen fma's SASS stands for them (one
     * register operand more or less a FFMA), with their data */
    { "reg_sparse", "skewsim gen fma --iters 2048 --block 256 --grid 1056", "e28_power", NULL, RW_NONE },
    { "reg_rand_bc", NULL, "e28_power", "no generator: data between quiet and random (data=; E32)", RW_NONE },
    { "fp32_sparse", "skewsim gen fma --iters 2048 --block 256 --grid 1056", "e28_power", NULL, RW_NONE },
    { "fp32_ones", "skewsim gen fma --iters 2048 --block 256 --grid 1056", "e28_power", NULL, RW_NONE },
    { "reg_rand_b", NULL, "e28_power", "no generator: data between quiet and random (data=)", RW_NONE },
    { "fp32_dense", NULL, "e28_power", "no generator: data between quiet and random (data=)", RW_NONE },
    /* E32 (validation/h100/sdata; cap_power.cu and power_gemm.py, asked
     * for by name): the SGEMM on zeros is sgemm_fp32's generator on quiet
     * data; smem_data_kernel's loop (LOP3 where smem_kernel has FADD) has
     * no generator */
    { "sgemm_zeros", "skewsim gen gemm --dtype fp32 --m 1536 --n 2816 --k 256 --data quiet", "e32_power", NULL,
      RW_FFMA },
    { "smem_zero", NULL, "e32_power", "no generator: smem_data_kernel's loop (LOP3 for smem_kernel's FADD)", RW_NONE },
    { "smem_rand", NULL, "e32_power", "no generator: smem_data_kernel's loop (LOP3 for smem_kernel's FADD)", RW_NONE },
};

/* mix's row of mix_gens, or -1 */
static int mix_row(const char *mix)
{
    for (size_t g = 0; g < SK_ARRAY_LEN(mix_gens); g++)
        if (!strcmp(mix, mix_gens[g].mix))
            return (int)g;
    return -1;
}

/* mix's family: e28_power for E28's mixes, else e16_power */
static const char *mix_family(const char *mix)
{
    int g = mix_row(mix);
    return g >= 0 ? mix_gens[g].fam : "e16_power";
}

static int family_on(const char *only, const char *fam);

/* The milliseconds power_mix.csv's row r judges: from its start past the
 * first 1.5 s (the board settling into the mix) to its end. */
#define MIX_SETTLE_MS 1500.0

/* The smi.csv samples of power_mix.csv's row r in its judged window
 * (MIX_SETTLE_MS on): clocks into cl, board power into pw (each d->smi.n
 * long); their count.  *secs (NULL: not wanted) gets the whole window's
 * length in s, settling included. */
static size_t mix_window(const cap *d, size_t r, int pa, int pb, int sm_t, int sm_c, int sm_p, double *cl,
                         double *pw, double *secs)
{
    double t0 = num(&d->pmix, r, pa) / 1e6 + MIX_SETTLE_MS, t1 = num(&d->pmix, r, pb) / 1e6;
    if (secs)
        *secs = (t1 - t0 + MIX_SETTLE_MS) / 1e3;
    size_t n = 0;
    for (size_t s = 0; s < d->smi.n; s++) {
        double t = num(&d->smi, s, sm_t);
        if (t >= t0 && t <= t1 && isfinite(num(&d->smi, s, sm_p))) {
            cl[n] = num(&d->smi, s, sm_c);
            pw[n++] = num(&d->smi, s, sm_p);
        }
    }
    return n;
}

/* E32's shared-memory data: smem_rand's power over smem_zero's, the same
 * SASS (no generator, so measured only), each pair of one run on one
 * board, and that step per byte at the pair's rate.  Printed as an info
 * line: no model row judges it (docs/silicon.md, "Data (E32)"). */
static void smem_data_step(const cap *d, int pm, int pa, int pb, int pbd, int pr, int pu, int sm_t, int sm_c,
                           int sm_p)
{
    double *cl = xcalloc(d->smi.n + 1, sizeof *cl), *pw = xcalloc(d->smi.n + 1, sizeof *pw);
    char *used = xcalloc(d->pmix.n + 1, 1);
    double sum_w = 0, sum_rate = 0;
    int pairs = 0;
    for (size_t r = 0; r < d->pmix.n; r++) {
        if (strcmp(cell(&d->pmix, r, pm), "smem_zero"))
            continue;
        /* the next smem_rand on the same board after it that no earlier
         * smem_zero took: one pair per run */
        for (size_t q = r + 1; q < d->pmix.n; q++) {
            if (used[q] || strcmp(cell(&d->pmix, q, pm), "smem_rand") ||
                (pbd >= 0 && strcmp(cell(&d->pmix, q, pbd), cell(&d->pmix, r, pbd))))
                continue;
            used[q] = 1;
            size_t nz = mix_window(d, r, pa, pb, sm_t, sm_c, sm_p, cl, pw, NULL);
            double wz = nz ? median_of(pw, nz) : NAN;
            size_t nr = mix_window(d, q, pa, pb, sm_t, sm_c, sm_p, cl, pw, NULL);
            double wr = nr ? median_of(pw, nr) : NAN;
            /* a rate only in bytes of shared memory, as both rows say */
            int bytes = pu >= 0 && !strcmp(cell(&d->pmix, r, pu), "smem_byte") &&
                        !strcmp(cell(&d->pmix, q, pu), "smem_byte");
            double rate = pr >= 0 && bytes ? 0.5 * (num(&d->pmix, r, pr) + num(&d->pmix, q, pr)) : NAN;
            if (isfinite(wz) && isfinite(wr) && isfinite(rate) && rate > 0) {
                sum_w += wr - wz;
                sum_rate += rate;
                pairs++;
            }
            break;
        }
    }
    if (pairs)
        printf("  power step    smem_rand - smem_zero (measured; no generator): %.1f W at %.3g B/s, %.2f pJ a "
               "byte, %d pair(s)\n", sum_w / pairs, sum_rate / pairs, sum_w / sum_rate * 1e12, pairs);
    free(cl);
    free(pw);
    free(used);
}

static int power_rows(vctx *v, const cap *d, const topo *tp, const char *only, sk_error *e)
{
    if (d->pmix.n == 0 || d->smi.n == 0)
        return 0;
    int pm = col(&d->pmix, "mix"), pg = col(&d->pmix, "gen"), pa = col(&d->pmix, "start_host_ns"),
        pb = col(&d->pmix, "end_host_ns"), pbd = col(&d->pmix, "board"), pr = col(&d->pmix, "rate_per_s"),
        pu = col(&d->pmix, "work_unit");
    int sm_t = col(&d->smi, "unix_ms"), sm_c = col(&d->smi, "clocks_sm"), sm_p = col(&d->smi, "power_draw");
    if (pm < 0 || pa < 0 || pb < 0 || sm_t < 0 || sm_c < 0 || sm_p < 0)
        return 0;
    pmix *mx = xcalloc(d->pmix.n + 1, sizeof *mx);
    size_t nmx = 0;
    int rc = 0;
    for (size_t r = 0; r < d->pmix.n && rc == 0; r++) {
        const char *mix = cell(&d->pmix, r, pm);
        char gen[256];
        snprintf(gen, sizeof gen, "%s", pg >= 0 ? cell(&d->pmix, r, pg) : "");
        int g = mix_row(mix);
        if (!gen[0] && g >= 0 && mix_gens[g].gen)
            snprintf(gen, sizeof gen, "%s", mix_gens[g].gen);
        const char *fam = mix_family(mix);
        if (!family_on(only, fam) && !step_mix_on(only, mix))
            continue;
        if (!gen[0]) {
            skip(v, fam, mix, g >= 0 && mix_gens[g].why ? mix_gens[g].why : "no generator");
            continue;
        }
        /* a long kernel's activity per cycle is its steady state: cut the
         * iterations to what a few waves need */
        char *it = strstr(gen, "--iters ");
        if (it) {
            long iters = strtol(it + 8, NULL, 10);
            if (iters > 2048)
                snprintf(it, sizeof gen - (size_t)(it - gen), "--iters 2048%s", strchr(it + 8, ' ') ? strchr(it + 8, ' ') : "");
        }
        kernel k;
        long repeat;
        sk_error ge = { 0 };
        if (gen_kernel(gen, &k, &repeat, &ge) < 0) {
            skip(v, fam, mix, ge.msg);
            continue;
        }
        double *cl = xcalloc(d->smi.n + 1, sizeof *cl), *pw = xcalloc(d->smi.n + 1, sizeof *pw), secs = 0;
        size_t n = mix_window(d, r, pa, pb, sm_t, sm_c, sm_p, cl, pw, &secs);
        /* the activity per cycle at the mix's own clock: memory latency is
         * in ns, so a kernel simulated at 1980 MHz would see fewer cycles of
         * it than E16's capped GEMMs did (the short run would not reach the
         * cap's clock itself: 100 ms epochs) */
        simout o;
        memset(&o, 0, sizeof o);
        cfg held = n > 0 ? held_at(v->c, median_of(cl, n)) : *v->c;
        rc = simulate(&held, &k, 1, NULL, &o, e);
        kernel_free(&k);
        if (rc < 0) {
            free(cl);
            free(pw);
            break;
        }
        if (n > 0) {
            pmix *m = &mx[nmx++];
            snprintf(m->name, sizeof m->name, "%s", mix);
            snprintf(m->board, sizeof m->board, "%s", pbd >= 0 ? cell(&d->pmix, r, pbd) : "");
            for (size_t i = 0; i + 1 < nmx; i++)
                m->run += !strcmp(mx[i].name, m->name) && !strcmp(mx[i].board, m->board);
            m->rate = o.rate;
            o.rate = NULL;
            m->meas_mhz = median_of(cl, n);
            m->meas_w = median_of(pw, n);
            m->secs = SK_MAX(1.0, secs);
            /* its work rate at the clock it ran at: the rows' issues per SM
             * cycle over every SM */
            m->meas_rate = m->sim_rate = NAN;
            int w = g >= 0 ? mix_gens[g].work : RW_NONE;
            if (w != RW_NONE && pr >= 0 && pu >= 0 && !strcmp(cell(&d->pmix, r, pu), rate_work[w].unit)) {
                double per_cycle = 0;
                for (int i = 0; i < tp->nsms; i++)
                    per_cycle += m->rate[i].issued[rate_work[w].a] +
                                 (rate_work[w].b >= 0 ? m->rate[i].issued[rate_work[w].b] : 0);
                m->meas_rate = num(&d->pmix, r, pr);
                m->sim_rate = per_cycle * rate_work[w].per * m->meas_mhz * 1e6;
            }
        }
        free(cl);
        free(pw);
        simout_free(&o);
    }
    if (rc == 0 && family_on(only, "e32_power"))
        smem_data_step(d, pm, pa, pb, pbd, pr, pu, sm_t, sm_c, sm_p);
    if (rc == 0)
        rc = fit_power(v, tp, mx, nmx, e);
    for (size_t i = 0; i < nmx && rc == 0; i++) {
        double w, mhz;
        rc = mix_power(v->c, tp, &mx[i], 0, &w, &mhz, e);
        if (rc == 0) {
            const char *fam = mix_family(mx[i].name);
            char shown[64];
            if (mx[i].board[0])
                snprintf(shown, sizeof shown, "%s [%s%d]", mx[i].name, mx[i].board, mx[i].run + 1);
            else
                snprintf(shown, sizeof shown, "%s", mx[i].name);
            add_row_as(v, fam, mx[i].name, mx[i].name, shown, M_CLOCK, mx[i].meas_mhz, mhz);
            add_row_as(v, fam, mx[i].name, mx[i].name, shown, M_POWER, mx[i].meas_w, w);
            /* a rate row has a kid of its own, MIX:rate, so FILE tags it
             * apart from the mix's clock and power rows (int32's is tagged:
             * the bank rule was read off its loop; no constant is fitted
             * to a rate) */
            char rkid[48];
            snprintf(rkid, sizeof rkid, "%s:rate", mx[i].name);
            if (isfinite(mx[i].meas_rate))
                add_row_as(v, fam, rkid, rkid, shown, M_RATE, mx[i].meas_rate * 1e-12, mx[i].sim_rate * 1e-12);
        }
    }
    for (size_t i = 0; i < nmx; i++)
        free(mx[i].rate);
    free(mx);
    return rc;
}

/* ---- E14: green-context SM sets ------------------------------------------- */

/* Every measured split of green.csv (both flags, both launch methods, the
 * group and the remainder) against the model's rule over the topology
 * (topo_green_split, docs/topology.md "SM partitions").  Metric `placed`:
 * the share of the union of the measured and modelled SM sets that both
 * hold (1: the same set).  The rules were read off these very rows, so the
 * rows are tagged by FILE (kernel ids e14.green.flags0, e14.green.flags1):
 * `fitted` there, and agreement shows the rule holds, not that it predicts. */
static int green_rows(vctx *v, const char *dir, const topo *tp, sk_error *e)
{
    table g;
    int rc = table_load(&g, dir, "green", e);
    if (rc <= 0)
        return rc;
    static const char *const gc[] = { "method", "flags", "n_requested", "part", "status", "sms", NULL };
    if ((rc = need_cols(&g, "green.csv", gc, e)) != 0) {
        table_free(&g);
        return rc;
    }
    int cm = col(&g, "method"), cf = col(&g, "flags"), cn = col(&g, "n_requested"), cp = col(&g, "part"),
        cs = col(&g, "status"), cl = col(&g, "sms");
    int *grp = xcalloc((size_t)tp->nsms, sizeof *grp), *rest = xcalloc((size_t)tp->nsms, sizeof *rest);
    unsigned char *model = xcalloc((size_t)tp->nsms, 1);
    for (size_t r = 0; r < g.n; r++) {
        const char *flags = cell(&g, r, cf), *part = cell(&g, r, cp);
        if (strcmp(cell(&g, r, cs), "ok") != 0 || (strcmp(flags, "0") && strcmp(flags, "1")) ||
            (strcmp(part, "group") && strcmp(part, "rest")))
            continue;                  /* the primary context's reference row, failed splits */
        int n = atoi(cell(&g, r, cn)), ng = 0, nr = 0;
        sk_error ge = {0};
        if (topo_green_split(tp, n, v->c->green_unit_sms, flags[0] == '1', grp, &ng, rest, &nr, &ge) < 0)
            continue;
        memset(model, 0, (size_t)tp->nsms);
        const int *set = part[0] == 'g' ? grp : rest;
        for (int i = 0, m = part[0] == 'g' ? ng : nr; i < m; i++)
            model[set[i]] = 1;
        int both = 0, uni = 0, nmodel = part[0] == 'g' ? ng : nr;
        for (const char *q = cell(&g, r, cl); *q;) {
            char *end;
            long id = strtol(q, &end, 10);
            if (end == q)
                break;
            q = end;
            uni++;
            if (id >= 0 && id < tp->nsms && model[id]) {
                both++;
                model[id] = 2;
            }
        }
        uni += nmodel - both;
        char kid[32], detail[64];
        snprintf(kid, sizeof kid, "e14.green.flags%s", flags);
        snprintf(detail, sizeof detail, "flags=%s N=%d %s (method %s)", flags, n, part, cell(&g, r, cm));
        add_row(v, "e14_green", kid, detail, M_PLACE, 1.0, uni ? (double)both / uni : 0.0);
    }
    free(grp);
    free(rest);
    free(model);
    table_free(&g);
    return 0;
}

/* gen_added.csv (kernel,gen): generators for kernels captured before
 * their generator existed (E15's fma_hetero_kernel), filled into the empty
 * gen cells of kernels.csv so that the capture itself stays as its program
 * wrote it.  0 (also without the file) or SK_EIO. */
static int gen_added(cap *d, const char *dir, sk_error *e)
{
    table g;
    int rc = table_load(&g, dir, "gen_added", e);
    if (rc <= 0)
        return rc;
    char file[4096];
    snprintf(file, sizeof file, "%s/gen_added.csv", dir);
    static const char *const gc[] = { "kernel", "gen", NULL };
    if ((rc = need_cols(&g, file, gc, e)) != 0) {
        table_free(&g);
        return rc;
    }
    int gk = col(&g, "kernel"), gg = col(&g, "gen");
    unsigned char *filled = xcalloc(d->kern.n + 1, 1);
    for (size_t r = 0; r < g.n && rc == 0; r++) {
        const char *id = cell(&g, r, gk), *cmd = cell(&g, r, gg);
        size_t k = 0;
        while (k < d->kern.n && strcmp(cell(&d->kern, k, d->k_id), id))
            k++;
        kernel kk;
        long repeat = 1;
        sk_error ge = { 0 };
        if (k == d->kern.n)
            rc = sk_errorf(e, SK_EIO, "%s:%zu: kernel %s: not in kernels.csv", file, r + 2, id);
        else if (filled[k])
            rc = sk_errorf(e, SK_EIO, "%s:%zu: kernel %s: named twice: expected one row per kernel", file, r + 2, id);
        else if (cell(&d->kern, k, d->k_gen)[0])
            rc = sk_errorf(e, SK_EIO, "%s:%zu: kernel %s: expected an empty gen in kernels.csv, "
                           "which has '%s'", file, r + 2, id, cell(&d->kern, k, d->k_gen));
        else if (!cmd[0])
            rc = sk_errorf(e, SK_EIO, "%s:%zu: kernel %s: empty gen: expected 'skewsim gen NAME ...'", file,
                           r + 2, id);
        else if (gen_kernel(cmd, &kk, &repeat, &ge) < 0)
            rc = sk_errorf(e, SK_EIO, "%s:%zu: kernel %s: %s", file, r + 2, id, ge.msg);
        else {
            kernel_free(&kk);
            char **c = &d->kern.cells[k * (size_t)d->kern.ncol + (size_t)d->k_gen];
            free(*c);
            *c = xstrdup(cmd);
            filled[k] = 1;
        }
    }
    free(filled);
    table_free(&g);
    return rc;
}

/* ---- the command ------------------------------------------------------------ */

/* `only`: a comma-separated list of families (NULL: all). */
static int family_on(const char *only, const char *fam)
{
    if (!only)
        return 1;
    size_t n = strlen(fam);
    for (const char *p = only; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, fam, n) && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

int validate_measured(const cfg *c, const char *dir, const vfit *fit, const char *only,
                      double max_mape, int *fails, sk_error *e)
{
    cap d;
    memset(&d, 0, sizeof d);
    int rc = table_load(&d.kern, dir, "kernels", e);
    if (rc == 0)
        rc = sk_errorf(e, SK_EIO, "%s/kernels.csv: cannot open: expected a capture directory "
                       "(tools/capture/README.md)", dir);
    if (rc > 0 && (rc = table_load(&d.reps, dir, "reps", e)) >= 0 && (rc = table_load(&d.ctas, dir, "ctas", e)) >= 0
        && (rc = table_load(&d.pmix, dir, "power_mix", e)) >= 0)
        rc = table_load(&d.smi, dir, "smi", e);
    static const char *const kc[] = { "kernel", "exp", "gen", "mode", "reps", "time_ns_median", NULL };
    static const char *const rcn[] = { "kernel", "rep", "time_ns", "t_first_ns", "t_last_ns", "gap_ns", NULL };
    static const char *const cc[] = { "kernel", "rep", "cta", "sm", "t1_ns", NULL };
    if (rc >= 0 && (rc = need_cols(&d.kern, "kernels.csv", kc, e)) == 0
        && (rc = d.reps.ncol ? need_cols(&d.reps, "reps.csv", rcn, e) : 0) == 0)
        rc = d.ctas.ncol ? need_cols(&d.ctas, "ctas.csv", cc, e) : 0;
    topo tp;
    memset(&tp, 0, sizeof tp);
    if (rc >= 0)
        rc = topo_build(&tp, c, e);
    if (rc < 0) {
        cap_free(&d);
        return rc;
    }
    d.k_id = col(&d.kern, "kernel");
    d.k_exp = col(&d.kern, "exp");
    d.k_gen = col(&d.kern, "gen");
    d.k_mode = col(&d.kern, "mode");
    d.k_reps = col(&d.kern, "reps");
    d.k_med = col(&d.kern, "time_ns_median");
    d.r_id = col(&d.reps, "kernel");
    d.r_rep = col(&d.reps, "rep");
    d.r_time = col(&d.reps, "time_ns");
    d.r_first = col(&d.reps, "t_first_ns");
    d.r_last = col(&d.reps, "t_last_ns");
    d.r_gap = col(&d.reps, "gap_ns");
    d.c_id = col(&d.ctas, "kernel");
    d.c_rep = col(&d.ctas, "rep");
    d.c_cta = col(&d.ctas, "cta");
    d.c_sm = col(&d.ctas, "sm");
    d.c_t1 = col(&d.ctas, "t1_ns");

    if ((rc = gen_added(&d, dir, e)) < 0) {
        cap_free(&d);
        topo_free(&tp);
        return rc;
    }
    static vctx v;   /* not on the stack: its skip groups are ~20 KB */
    memset(&v, 0, sizeof v);
    v.c = c;
    v.fit = fit;
    printf("\nMeasured kernels in %s against %s (tools/capture/README.md)\n", dir, c->name);
    printf("  %-13s %-44s %-9s %11s %11s %8s  %s\n", "family", "kernel", "metric", "measured",
           "simulated", "err", "tag");
    printf("  (per kernel; the summary and the kernels not simulated follow)\n");
    static coop_time ct[64];
    int nct = 0;
    for (size_t r = 0; rc >= 0 && r < d.kern.n; r++)
        if (family_on(only, cell(&d.kern, r, d.k_exp)))
            rc = one_kernel(&v, &d, r, tp.nsms, ct, &nct, e);
    for (int j = 0; rc >= 0 && j < nct; j++)
        if (isfinite(ct[j].r10_meas) && isfinite(ct[j].r100_meas)) {
            int f = is_fitted(&v, ct[j].id100, "round") || is_fitted(&v, ct[j].id10, "round");
            size_t before = v.n;
            add_row(&v, "e13_coop", ct[j].id100, "", M_ROUND,
                    (ct[j].r100_meas - ct[j].r10_meas) / 90 / 1e3, (ct[j].r100_sim - ct[j].r10_sim) / 90 / 1e3);
            if (v.n > before)
                v.rows[v.n - 1].fitted = f;
        }
    if (rc >= 0 && (family_on(only, "e16_power") || family_on(only, "e28_power") || family_on(only, "e32_power")))
        rc = power_rows(&v, &d, &tp, only, e);
    if (rc >= 0 && family_on(only, "e14_green"))
        rc = green_rows(&v, dir, &tp, e);

    if (rc >= 0) {
        printf("\n  %-13s %-9s %22s %22s\n", "family", "metric", "predicted: MAPE (n)", "fitted: MAPE (n)");
        for (size_t i = 0; i < v.n; i++) {
            int seen = 0;
            for (size_t j = 0; j < i; j++)
                seen |= !strcmp(v.rows[j].family, v.rows[i].family) && v.rows[j].metric == v.rows[i].metric;
            if (seen)
                continue;
            double sum[2] = { 0, 0 };
            int cnt[2] = { 0, 0 };
            for (size_t j = i; j < v.n; j++) {
                const vrow *x = &v.rows[j];
                if (strcmp(x->family, v.rows[i].family) || x->metric != v.rows[i].metric)
                    continue;
                double err = judged[x->metric] ? fabs(100 * (x->sim - x->meas) / x->meas)
                           : x->metric == M_SPREAD ? fabs(x->sim - x->meas)   /* us */
                                                   : 100 * x->sim;            /* agreement, % */
                sum[x->fitted] += err;
                cnt[x->fitted]++;
            }
            char a[32] = "-", b[32] = "-";
            const char *u = v.rows[i].metric == M_SPREAD ? "us" : "%";
            if (cnt[0])
                snprintf(a, sizeof a, "%.1f %s (%d)", sum[0] / cnt[0], u, cnt[0]);
            if (cnt[1])
                snprintf(b, sizeof b, "%.1f %s (%d)", sum[1] / cnt[1], u, cnt[1]);
            int judge = judged[v.rows[i].metric] && cnt[0] && max_mape > 0;
            int bad = judge && sum[0] / cnt[0] > max_mape;
            *fails += bad;
            printf("%-4s  %-13s %-9s %22s %22s%s\n", !judge ? "info" : bad ? "FAIL" : "PASS",
                   v.rows[i].family, metric_name[v.rows[i].metric], a, b,
                   judged[v.rows[i].metric] ? "" : v.rows[i].metric == M_SPREAD
                                                 ? "  (mean |difference|)" : "  (agreement, not error)");
        }
        for (int i = 0; i < v.nskips; i++)
            printf("skip  %-13s %4d kernel(s), e.g. %s: %s\n", v.skips[i].family, v.skips[i].n,
                   v.skips[i].first, v.skips[i].why);
        printf("  %zu rows, %d kernels skipped%s\n", v.n, v.skipped,
               max_mape > 0 ? "" : "; no --max-mape: nothing judged");
        if (max_mape > 0)
            printf("  judged: the predicted MAPE of time, span, round, clock, power and rate, <= %g %%\n", max_mape);
    }
    free(v.rows);
    topo_free(&tp);
    cap_free(&d);
    return rc < 0 ? rc : 0;
}
