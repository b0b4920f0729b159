/* calib.c -- the silicon model against the H200's measured operating
 * points, with synthetic activity and no SM model (docs/silicon.md,
 * "Calibration").
 *
 * The workloads are activity per SM per cycle, so they follow the clock:
 *
 *   FMA: the loop of validation/h200/fma_kernel.sass (32 FFMA, IADD3,
 *        ISETP, BRA) issued at 0.93 instructions per scheduler per cycle,
 *        four schedulers: README point 1 measures ~19.5 us per extra CTA
 *        where 143 k instructions at one per cycle would take 18.1 us.
 *   GEMM: the four tensor pipes do arithmetic 84 % of cycles (668 TFLOP/s
 *        at 1470 MHz against 132 SMs x 4096 flop/cycle: README point 7) and
 *        are held SI_GEMM_PIPE_PER_MATH times that (94.5 %: the MMAs wait
 *        for shared memory to deliver their operands, gen_gemm.c), a few
 *        loads, integer and branch instructions per cycle, and 2.6 DRAM
 *        bytes per SM cycle (0.5 TB/s at 1470 MHz: an 8192^3 bf16 GEMM
 *        moves well under 1 GB per 1.6 ms).
 *
 * Each run starts from a chip that has idled long and lasts `seconds` of
 * simulated time; statistics are taken over its second half.  The model is
 * advanced at every time silicon_next_ps() names (and at least every
 * 10 ms), so each step runs at one clock and the activity is exact.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/silicon.h"

enum { WL_NONE, WL_FMA, WL_GEMM };

typedef struct sample {
    int mhz;
    double dt;
} sample;

typedef struct run_stats {
    double mhz_median, mhz_min, mhz_max;
    double power_w, max_window_w, temp_c, changes_per_s;
} run_stats;

/* Activity per SM cycle of the synthetic workloads.  Register operands as
 * the SASS has them: FFMA 3 sources + 1 destination, IADD3 and ISETP 2 + 1,
 * a predicated BRA 1; the GEMM's few others 3 each.  Every scheduler holds
 * warps all the time. */
static void workload_rate(const cfg *c, int wl, si_rate *a)
{
    (void)c;
    memset(a, 0, sizeof *a);
    if (wl == WL_FMA) {
        double ipc = 4 * 0.93;
        a->issued[FU_FP32] = ipc * 32 / 35;
        a->issued[FU_INT] = ipc * 2 / 35;
        a->issued[FU_BRANCH] = ipc * 1 / 35;
        a->operands[FU_FP32] = 4 * a->issued[FU_FP32];
        a->operands[FU_INT] = 3 * a->issued[FU_INT];
        a->operands[FU_BRANCH] = a->issued[FU_BRANCH];
        a->sched_cycles = 4;
    } else if (wl == WL_GEMM) {
        a->tensor_cycles[SI_DT_BF16] = 4 * 0.84 * SI_GEMM_PIPE_PER_MATH;
        a->issued[FU_LDST] = 0.06;
        a->issued[FU_INT] = 0.12;
        a->issued[FU_FP32] = 0.04;
        a->issued[FU_MISC] = 0.06;
        a->issued[FU_BRANCH] = 0.02;
        for (int r = 0; r < SI_OP_N; r++)
            a->operands[r] = 3 * a->issued[r];
        a->sched_cycles = 4;
        a->mem_bytes = 2.6;
    }
}

static void activity(const si_rate *r, double cycles, si_activity *a)
{
    for (int k = 0; k < SI_OP_N; k++) {
        a->issued[k] = (uint64_t)llround(r->issued[k] * cycles);
        a->operands[k] = (uint64_t)llround(r->operands[k] * cycles);
    }
    for (int t = 0; t < SI_DT_N; t++)
        a->tensor_cycles[t] = (uint64_t)llround(r->tensor_cycles[t] * cycles);
    a->sched_cycles = (uint64_t)llround(r->sched_cycles * cycles);
    a->mem_bytes = (uint64_t)llround(r->mem_bytes * cycles);
    a->l1_sectors = (uint64_t)llround(r->l1_sectors * cycles);
    a->smem_wavefronts = (uint64_t)llround(r->smem_wavefronts * cycles);
    a->l2_sectors = (uint64_t)llround(r->l2_sectors * cycles);
    a->noc_sector_um = (uint64_t)llround(r->noc_sector_um * cycles);
}

static int cmp_sample(const void *a, const void *b)
{
    const sample *x = a, *y = b;
    return (x->mhz > y->mhz) - (x->mhz < y->mhz);
}

/* Run activity `rate` (per SM per cycle: one for all SMs, or NULL: idle)
 * for `seconds` on a fresh model of c; SM 0's clock is the chip's (one
 * domain). */
static int run(const cfg *c, const topo *t, const si_rate *rate, int per_sm, double seconds,
               run_stats *st, sk_error *e)
{
    silicon *si = silicon_create(c, t, e);
    if (!si)
        return e->code;
    int n = silicon_num_sms(si);
    si_activity *act = xcalloc((size_t)n, sizeof *act);
    const ps_t max_step = 10 * (ps_t)1000000000, end = (ps_t)llround(seconds * 1e12);
    const ps_t half = end / 2;
    size_t ns = 0, cap = 1024;
    sample *s = xmalloc(cap * sizeof *s);
    double e0 = 0, win_max = 0;
    uint64_t ch0 = 0;
    int rc = 0;
    ps_t now = 0;

    if (rate)
        silicon_kernel_launch(si, 0);
    while (rc == 0 && now < end) {
        ps_t next = SK_MIN(SK_MIN(now + max_step, silicon_next_ps(si)), end);
        double dt = (double)(next - now) * 1e-12;
        for (int i = 0; i < n; i++) {
            if (rate)
                activity(&rate[per_sm ? i : 0], silicon_sm_mhz(si, i, now) * 1e6 * dt, &act[i]);
            else
                memset(&act[i], 0, sizeof act[i]);
        }
        int mhz = silicon_sm_mhz(si, 0, now);
        rc = silicon_advance(si, next, act, e);
        if (now >= half) {
            if (ns == cap) {
                cap *= 2;
                s = xrealloc(s, cap * sizeof *s);
            }
            s[ns].mhz = mhz;
            s[ns++].dt = dt;
        }
        if (now < half && next >= half) {
            e0 = silicon_chip(si)->energy_j;
            ch0 = silicon_chip(si)->changes;
            win_max = 0;
        }
        now = next;
        if (now > half)
            win_max = SK_MAX(win_max, silicon_chip(si)->window_power_w);
    }
    if (rc == 0) {
        const si_chip_state *ch = silicon_chip(si);
        double secs = (double)(end - half) * 1e-12;
        qsort(s, ns, sizeof *s, cmp_sample);
        double tot = 0, acc = 0;
        for (size_t k = 0; k < ns; k++)
            tot += s[k].dt;
        st->mhz_median = ns ? s[ns - 1].mhz : 0;
        for (size_t k = 0; k < ns; k++) {
            acc += s[k].dt;
            if (acc >= tot / 2) {
                st->mhz_median = s[k].mhz;
                break;
            }
        }
        st->mhz_min = ns ? s[0].mhz : 0;
        st->mhz_max = ns ? s[ns - 1].mhz : 0;
        st->power_w = (ch->energy_j - e0) / secs;
        st->max_window_w = win_max;
        st->temp_c = ch->temp_mean_c;
        st->changes_per_s = (double)(ch->changes - ch0) / secs;
    }
    free(s);
    free(act);
    silicon_destroy(si);
    return rc;
}

int silicon_calibrate(const cfg *c, const topo *t, double seconds, si_calib *out,
                      sk_error *e)
{
    memset(out, 0, sizeof *out);
    cfg k = *c;
    k.dvfs_policy = DVFS_POWER_CAP;
    run_stats st;
    int rc;
    si_rate fma, gemm;
    workload_rate(c, WL_FMA, &fma);
    workload_rate(c, WL_GEMM, &gemm);

    /* idle and awake through the two legacy stages (dvfs.idle_stages 0):
     * the idle clock from the start, or never; a stage table's deepest
     * clock is the idle clock */
    int idle_mhz = c->dvfs_idle_mhz;
    for (int i = 0; i < c->dvfs_idle_stages && i < CFG_IDLE_STAGES; i++)
        if (c->dvfs_stage[i].mhz)
            idle_mhz = c->dvfs_stage[i].mhz;
    k.dvfs_idle_stages = 0;
    k.dvfs_idle_mhz = idle_mhz;
    cfg idle = k;
    idle.dvfs_idle_after_ns = 0;
    if ((rc = run(&idle, t, NULL, 0, seconds, &st, e)))
        return rc;
    out->idle_w = st.power_w;
    out->idle_temp_c = st.temp_c;

    cfg awake = k;
    awake.dvfs_idle_after_ns = 1000000000000000;
    if ((rc = run(&awake, t, NULL, 0, seconds, &st, e)))
        return rc;
    out->awake_w = st.power_w;

    if ((rc = run(&k, t, &fma, 0, seconds, &st, e)))
        return rc;
    out->fma_mhz = st.mhz_median;
    out->fma_w = st.power_w;
    out->fma_temp_c = st.temp_c;

    if ((rc = run(&k, t, &gemm, 0, seconds, &st, e)))
        return rc;
    out->gemm_mhz = st.mhz_median;
    out->gemm_mhz_min = st.mhz_min;
    out->gemm_mhz_max = st.mhz_max;
    out->gemm_w = st.power_w;
    out->gemm_max_w = st.max_window_w;
    out->gemm_temp_c = st.temp_c;
    out->gemm_changes_per_s = st.changes_per_s;

    cfg fixed = k;
    fixed.dvfs_policy = DVFS_FIXED;
    fixed.dvfs_fixed_mhz = 0;
    fixed.th_slowdown_c = 200;   /* what the chip would draw, not what it survives */
    fixed.th_shutdown_c = 1000;
    if ((rc = run(&fixed, t, &gemm, 0, SK_MIN(seconds, 2.0), &st, e)))
        return rc;
    out->gemm_uncapped_w = st.power_w;
    return 0;
}

int silicon_sustain(const cfg *c, const topo *t, const si_rate *rate, double seconds,
                    si_sustained *out, sk_error *e)
{
    memset(out, 0, sizeof *out);
    run_stats st;
    int rc = run(c, t, rate, 1, seconds, &st, e);
    if (rc)
        return rc;
    out->mhz_median = st.mhz_median;
    out->mhz_min = st.mhz_min;
    out->mhz_max = st.mhz_max;
    out->power_w = st.power_w;
    out->temp_c = st.temp_c;
    return 0;
}
