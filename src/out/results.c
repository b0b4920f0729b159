/* results.c -- the output contract (see results.h).
 *
 * ctas.csv prints numbers from integers wherever possible (picoseconds as
 * nanoseconds with three decimals) so that the same run gives byte-identical
 * files on every machine.  summary.json is written through libjansson in
 * the one pinned format of json.h (values rounded to the same decimals as
 * before, so they read back unchanged).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "skewsim/json.h"
#include "skewsim/results.h"
#include "skewsim/memsys.h"

struct results {
    char *dir;                /* NULL: in memory */
    char *ctas_tmp, *ctas_final, *sum_tmp, *sum_final, *ep_tmp, *ep_final;
    FILE *ctas, *epochs;
    double max_power_w;       /* largest chip power over the silicon steps */
    kernel_stats *kernels;
    size_t nk, kcap;
    cta_record *recs;         /* in-memory mode only */
    size_t nr, rcap;
};

void results_fmt_ns(char *buf, size_t n, ps_t t)
{
    const char *sign = t < 0 ? "-" : "";
    unsigned long long a = (unsigned long long)(t < 0 ? -t : t);
    snprintf(buf, n, "%s%llu.%03llu", sign, a / 1000, a % 1000);
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

results *results_open(const char *dir, sk_error *e)
{
    results *r = xcalloc(1, sizeof *r);
    if (!dir)
        return r;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        sk_errorf(e, SK_EIO, "%s: cannot create output directory: %s", dir, strerror(errno));
        free(r);
        return NULL;
    }
    r->dir = xstrdup(dir);
    r->ctas_tmp = join(dir, ".ctas.csv.tmp");
    r->ctas_final = join(dir, "ctas.csv");
    r->sum_tmp = join(dir, ".summary.json.tmp");
    r->sum_final = join(dir, "summary.json");
    r->ep_tmp = join(dir, ".epochs.csv.tmp");
    r->ep_final = join(dir, "epochs.csv");
    r->ctas = fopen(r->ctas_tmp, "w");
    r->epochs = r->ctas ? fopen(r->ep_tmp, "w") : NULL;
    if (!r->ctas || !r->epochs) {
        sk_errorf(e, SK_EIO, "%s: cannot write: %s", r->ctas ? r->ep_tmp : r->ctas_tmp, strerror(errno));
        results_free(r);
        return NULL;
    }
    fputs("kernel,cta,sm,start_ns,end_ns,cycles\n", r->ctas);
    fputs("t_ns,sm,mhz,vdd_mv,power_w,temp_c\n", r->epochs);
    return r;
}

void results_free(results *r)
{
    if (!r)
        return;
    if (r->ctas) {
        fclose(r->ctas);
        remove(r->ctas_tmp);
    }
    if (r->epochs) {
        fclose(r->epochs);
        remove(r->ep_tmp);
    }
    free(r->ep_tmp);
    free(r->ep_final);
    free(r->dir);
    free(r->ctas_tmp);
    free(r->ctas_final);
    free(r->sum_tmp);
    free(r->sum_final);
    free(r->kernels);
    free(r->recs);
    free(r);
}

static int on_cta(void *ud, const sim *s, const cta_record *c)
{
    (void)s;
    results *r = ud;
    if (!r->ctas) {
        if (r->nr == r->rcap) {
            r->rcap = r->rcap ? 2 * r->rcap : 1024;
            r->recs = xrealloc(r->recs, r->rcap * sizeof *r->recs);
        }
        r->recs[r->nr++] = *c;
        return 0;
    }
    char s0[32], s1[32];
    results_fmt_ns(s0, sizeof s0, c->start_ps - c->kernel_first_start_ps);
    results_fmt_ns(s1, sizeof s1, c->end_ps - c->kernel_first_start_ps);
    return fprintf(r->ctas, "%llu,%llu,%d,%s,%s,%llu\n", (unsigned long long)c->kernel,
                   (unsigned long long)c->cta, c->sm, s0, s1, (unsigned long long)c->cycles) < 0;
}

static int on_kernel(void *ud, const sim *s, const kernel_stats *k)
{
    (void)s;
    results *r = ud;
    if (r->nk == r->kcap) {
        r->kcap = r->kcap ? 2 * r->kcap : 16;
        r->kernels = xrealloc(r->kernels, r->kcap * sizeof *r->kernels);
    }
    r->kernels[r->nk++] = *k;
    return 0;
}

/* One row per SM per silicon step (docs/silicon.md). */
static int on_epoch(void *ud, const sim *s, ps_t t)
{
    results *r = ud;
    const si_chip_state *chip = silicon_chip(s->si);
    r->max_power_w = SK_MAX(r->max_power_w, chip->power_w);
    if (!r->epochs)
        return 0;
    char tb[32];
    results_fmt_ns(tb, sizeof tb, t);
    for (int i = 0; i < s->nsms; i++) {
        const si_sm_state *m = silicon_sm(s->si, i);
        if (fprintf(r->epochs, "%s,%d,%d,%.1f,%.3f,%.2f\n", tb, i, s->sms[i].mhz, m->vdd_mv, m->power_w,
                    m->temp_c) < 0)
            return 1;
    }
    return 0;
}

static const sink_ops results_ops = {
    .name = "results",
    .kernel_end = on_kernel,
    .cta_finish = on_cta,
    .dvfs_step = on_epoch,
};

sim_sink results_sink(results *r)
{
    sim_sink k = {.ops = &results_ops, .ud = r};
    return k;
}

size_t results_nkernels(const results *r) { return r->nk; }
const kernel_stats *results_kernel(const results *r, size_t i) { return &r->kernels[i]; }
size_t results_nctas(const results *r) { return r->nr; }
const cta_record *results_cta(const results *r, size_t i) { return &r->recs[i]; }

/* Per-SM figures derived for the summary. */
typedef struct sm_fig {
    double busy_frac;         /* fraction of the run with at least one CTA resident */
    double ipc;               /* warp instructions per SM cycle over the run */
    double mean_mhz;          /* cycles elapsed over time elapsed */
} sm_fig;

/* The SM's cycles over the run. */
static uint64_t end_cycles(const sim *s, const sm *m)
{
    return s->end_ps > 0 ? sm_cycle_at(m, s->end_ps) : 0;
}

static sm_fig figures(const sim *s, const sm *m)
{
    sm_fig f = {0, 0, 0};
    ps_t end = s->end_ps;
    if (end <= 0)
        return f;
    uint64_t cycles = sm_cycle_at(m, end);
    f.busy_frac = (double)m->resident_ps / (double)end;
    f.ipc = cycles ? (double)sm_issued(m) / (double)cycles : 0.0;
    f.mean_mhz = (double)cycles / ((double)end * 1e-6);
    return f;
}

/* The hierarchy's counters (memsys.h MEM_STAT_MAP, every one by its name)
 * and what follows from them over `span`: DRAM bandwidth, mean load
 * latency, L1 and L2 hit rates, the remote share of L2 sectors. */
static json_t *mem_json(const mem_stats *m, ps_t span)
{
    json_t *o = json_object();
    for (int i = 0; i < MEM_NSTATS; i++)
        skjson_set(o, mem_stat_name(i), skjson_u64(mem_stat_get(m, i)));
    double dram = (double)(m->dram_rd_bytes + m->dram_wr_bytes);
    skjson_set(o, "dram_gbps", skjson_fixed(span > 0 ? dram / ((double)span * 1e-3) : 0.0, 3));
    skjson_set(o, "mean_load_ns", skjson_fixed(m->load_reqs ? (double)m->load_latency_ps * 1e-3 /
                                                                  (double)m->load_reqs : 0.0, 3));
    uint64_t l1 = m->l1_hits + m->l1_merged + m->l1_misses, l2 = m->l2_hits + m->l2_merged + m->l2_misses;
    skjson_set(o, "l1_hit_rate", skjson_fixed(l1 ? (double)m->l1_hits / (double)l1 : 0.0, 6));
    skjson_set(o, "l2_hit_rate", skjson_fixed(l2 ? (double)(m->l2_hits + m->l2_merged) / (double)l2 : 0.0, 6));
    uint64_t lr = m->l2_local + m->l2_remote;
    skjson_set(o, "l2_remote_frac", skjson_fixed(lr ? (double)m->l2_remote / (double)lr : 0.0, 6));
    return o;
}

/* summary.json as a jansson tree, in the pinned format of json.h: the
 * fixed-point values of the former hand-written form (ns with 3 decimals,
 * ratios with 6, MHz with 3, mV with 1) are rounded to those decimals. */
static char *summary_text(const results *r, const sim *s, size_t *len)
{
    const si_chip_state *chip = silicon_chip(s->si);
    double secs = (double)s->end_ps * 1e-12;
    json_t *root = json_object();
    skjson_set(root, "config", skjson_str(s->c.name));
    skjson_set(root, "seed", skjson_u64(s->c.seed));
    skjson_set(root, "total_ns", skjson_ns(s->end_ps));
    skjson_set(root, "warp_instructions", skjson_u64(s->warp_instructions));
    skjson_set(root, "events", skjson_u64(s->q.fired));
    json_t *c = json_object();
    skjson_set(c, "mean_power_w", skjson_fixed(secs > 0 ? chip->energy_j / secs : 0.0, 3));
    skjson_set(c, "max_power_w", skjson_fixed(SK_MAX(r->max_power_w, chip->max_window_power_w), 3));
    skjson_set(c, "energy_j", skjson_fixed(chip->energy_j, 6));
    json_t *parts = json_object();
    for (int k = 0; k < SI_E_N; k++)
        skjson_set(parts, si_energy_part_names[k], skjson_fixed(chip->energy_by_j[k], 9));
    skjson_set(c, "energy_by_part_j", parts);
    skjson_set(c, "clock_changes", skjson_u64(chip->changes));
    skjson_set(root, "chip", c);
    json_t *ks = json_array();
    for (size_t i = 0; i < r->nk; i++) {
        const kernel_stats *k = &r->kernels[i];
        json_t *o = json_object();
        skjson_set(o, "name", skjson_str(k->name));
        skjson_set(o, "index", skjson_u64(k->index));
        skjson_set(o, "ctas", skjson_u64(k->ctas));
        skjson_set(o, "launch_ns", skjson_ns(k->launch_ps));
        skjson_set(o, "span_ns", skjson_ns(k->last_record_end_ps - k->first_start_ps));
        skjson_set(o, "time_ns", skjson_ns(k->done_ps - k->launch_ps));
        skjson_set(o, "warp_instructions", skjson_u64(k->warp_instructions));
        skjson_set(o, "imbalance", skjson_fixed(k->imbalance, 6));
        skjson_set(o, "tail_ns", skjson_ns(k->tail_ps));
        skjson_set(o, "barrier_wait_ns", skjson_ns(k->barrier_wait_ps));
        if (k->cluster) {
            skjson_set(o, "cluster", skjson_u64(k->cluster));
            skjson_set(o, "max_active_clusters", skjson_u64(k->max_active_clusters));
        }
        if (k->has_mem) {
            json_t *mo = mem_json(&k->mem, k->last_end_ps - k->first_start_ps);
            skjson_set(mo, "smem_config_bytes", skjson_u64(k->smem_config_bytes));
            skjson_set(mo, "l1_bytes", skjson_u64(k->l1_bytes));
            skjson_set(o, "memory", mo);
        }
        skjson_append(ks, o);
    }
    skjson_set(root, "kernels", ks);
    json_t *sms = json_array();
    for (int i = 0; i < s->nsms; i++) {
        const sm *m = &s->sms[i];
        sm_fig g = figures(s, m);
        json_t *o = json_object();
        skjson_set(o, "id", json_integer(m->id));
        skjson_set(o, "gpc", json_integer(s->topo.sm[i].gpc));
        skjson_set(o, "tpc", json_integer(s->topo.sm[i].tpc_global));
        skjson_set(o, "ctas", skjson_u64(m->ctas_run));
        skjson_set(o, "busy_frac", skjson_fixed(g.busy_frac, 6));
        skjson_set(o, "ipc", skjson_fixed(g.ipc, 6));
        skjson_set(o, "mean_mhz", skjson_fixed(g.mean_mhz, 3));
        skjson_set(o, "min_mhz", json_integer(m->min_mhz));
        skjson_set(o, "max_mhz", json_integer(m->max_mhz));
        skjson_set(o, "vdd_min_mv", skjson_fixed(m->vdd_min_mv, 1));
        skjson_set(o, "warp_instructions", skjson_u64(sm_issued(m)));
        uint64_t st[SM_NSTALLS];
        sm_stall_cycles(m, end_cycles(s, m), st);
        json_t *so = json_object();
        skjson_set(so, "issued", skjson_u64(m->issue_slots));
        for (int k = 0; k < SM_NSTALLS; k++)
            skjson_set(so, sm_stall_name(k), skjson_u64(st[k]));
        skjson_set(o, "stalls", so);
        if (s->hier)
            skjson_set(o, "memory", mem_json(mem_hier_total(s->hier, i), s->end_ps));
        skjson_append(sms, o);
    }
    skjson_set(root, "sms", sms);
    char *text = skjson_dumps(root, len);
    json_decref(root);
    return text;
}

static void print_human(FILE *out, const results *r, const sim *s)
{
    char b0[32], b1[32];
    for (size_t i = 0; i < r->nk; i++) {
        const kernel_stats *k = &r->kernels[i];
        results_fmt_ns(b0, sizeof b0, k->done_ps - k->launch_ps);
        results_fmt_ns(b1, sizeof b1, k->last_record_end_ps - k->first_start_ps);
        fprintf(out, "kernel %-20s %8llu CTAs  time %12s ns  span %12s ns  %llu warp-instr\n",
                k->name, (unsigned long long)k->ctas, b0, b1, (unsigned long long)k->warp_instructions);
    }
    double mn = 1e300, mx = 0, sum = 0, ipc = 0;
    for (int i = 0; i < s->nsms; i++) {
        sm_fig g = figures(s, &s->sms[i]);
        mn = SK_MIN(mn, g.busy_frac);
        mx = SK_MAX(mx, g.busy_frac);
        sum += g.busy_frac;
        ipc += g.ipc;
    }
    double mean = s->nsms ? sum / s->nsms : 0;
    results_fmt_ns(b0, sizeof b0, s->end_ps);
    const si_chip_state *chip = silicon_chip(s->si);
    fprintf(out, "total %s ns, %llu warp-instructions, %d SMs, chip power mean %.1f W (max %.1f W)\n", b0,
            (unsigned long long)s->warp_instructions, s->nsms,
            s->end_ps > 0 ? chip->energy_j / ((double)s->end_ps * 1e-12) : 0.0,
            SK_MAX(r->max_power_w, chip->max_window_power_w));
    fprintf(out, "SM busy (CTA resident): min %.1f%%  mean %.1f%%  max %.1f%%  imbalance max/mean %.3f  "
                 "mean IPC per SM %.2f\n",
            100 * mn, 100 * mean, 100 * mx, mean > 0 ? mx / mean : 0.0, s->nsms ? ipc / s->nsms : 0.0);
}

int results_finish(results *r, const sim *s, FILE *out, sk_error *e)
{
    if (r->dir) {
        if (fflush(r->ctas) != 0 || ferror(r->ctas)) {
            return sk_errorf(e, SK_EIO, "%s: write failed: %s", r->ctas_tmp, strerror(errno));
        }
        fclose(r->ctas);
        r->ctas = NULL;
        FILE *f = fopen(r->sum_tmp, "w");
        if (!f)
            return sk_errorf(e, SK_EIO, "%s: cannot write: %s", r->sum_tmp, strerror(errno));
        size_t len;
        char *text = summary_text(r, s, &len);
        int bad = fwrite(text, 1, len, f) != len;
        free(text);
        bad |= ferror(f);
        bad |= fclose(f) != 0;
        if (bad)
            return sk_errorf(e, SK_EIO, "%s: write failed", r->sum_tmp);
        if (fflush(r->epochs) != 0 || ferror(r->epochs))
            return sk_errorf(e, SK_EIO, "%s: write failed: %s", r->ep_tmp, strerror(errno));
        fclose(r->epochs);
        r->epochs = NULL;
        if (rename(r->ep_tmp, r->ep_final) != 0)
            return sk_errorf(e, SK_EIO, "%s: cannot rename: %s", r->ep_final, strerror(errno));
        if (rename(r->ctas_tmp, r->ctas_final) != 0)
            return sk_errorf(e, SK_EIO, "%s: cannot rename: %s", r->ctas_final, strerror(errno));
        if (rename(r->sum_tmp, r->sum_final) != 0)
            return sk_errorf(e, SK_EIO, "%s: cannot rename: %s", r->sum_final, strerror(errno));
    }
    if (out)
        print_human(out, r, s);
    return 0;
}
