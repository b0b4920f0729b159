/* silicon.c -- the silicon model's context: it ties the floorplan, power
 * grid, variation map, V/f law, power, thermal and DVFS pieces together and
 * steps them through time (docs/silicon.md has the whole picture).
 *
 * Time.  The model keeps its own clock t (ps).  silicon_advance(si, T, act)
 * walks from t to T in intervals cut at every internal event: a DVFS epoch
 * boundary, a decided clock taking effect, the idle clock starting or
 * ending.  Inside an interval every domain target and the regulator are
 * constant, so every SM's clock is too.  In each interval:
 *
 *   1. each SM's clock: min(domain target, attainable bin at its supply);
 *      its cycles, its share of the activity (act is spread uniformly over
 *      the call's span), its power: switched energy x (V/vnom)^2 + leakage
 *      at its temperature;
 *   2. uncore power on the L2/PHY/I/O blocks, HBM power into the package;
 *   3. the power grid: block currents P/V drawn from the mesh nodes under
 *      each block; each block's supply = area-weighted mean of its nodes
 *      (the mean, not the minimum: a 32 x 32 mesh cell is ~0.9 mm, a
 *      quarter of an SM, so within-SM extremes are not resolved anyway);
 *      the supply found is used from the next interval on (one fixed-point
 *      step per interval; drops change slowly).  The grid is linear and
 *      only block means are needed, so at creation one banded solve per
 *      block gives the block-to-block transfer resistances K (blocks x
 *      blocks, ~140 x 140 on the H200); each interval then costs one dense
 *      mat-vec, drop = K i, instead of a mesh solve;
 *   4. temperatures (thermal.c) over the interval;
 *   5. energy into the DVFS window.
 *
 * At an epoch boundary each domain's controller (dvfs.c) decides from the
 * window's mean power, with a prediction of its power at every bin that
 * rescales the window's per-cycle switched energy by f V^2 and re-evaluates
 * leakage at the new supply.
 *
 * Domains and the rail.  power_cap and fixed: one domain, all SMs (the
 * H200 has one SM clock).  per_gpc / per_sm: one domain per GPC / SM, each
 * with its share of the cap (cap x its SMs / all SMs, the uncore and HBM
 * shared the same way).  All domains sit on one regulator, set for the
 * fastest domain's bin: per-domain clocks on a shared rail, as on a die
 * without voltage islands.  A slower domain saves f, not V^2.
 *
 * Fast path: preset uniform with policy fixed has no way to change a clock
 * (apart from the thermal limit), and uniform silicon within the guard band
 * never loses a bin to IR drop, so the grid is not solved: SM supplies are
 * reported as the regulator set-point.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/silicon.h"

/* One idle stage of the power manager: entered `after` ps after the last
 * kernel ended; its clock (bin, or -1: the DVFS target) holds until a
 * launch, which waits `wake` ps. */
typedef struct si_idle_stage {
    ps_t after, wake;
    int bin;
} si_idle_stage;

struct silicon {
    cfg c;                      /* private copy */
    int nsms, nblocks;
    si_floorplan fp;
    si_vf vf;
    si_power pw;
    si_thermal *th;
    int fast;

    double *vth_mv, *fscale;    /* per SM */
    double *blk_area;           /* per block, mm^2 */
    double *uncore_share;       /* per block: its part of uncore_w */
    double uncore_pkg_w;        /* uncore_w with no uncore block to put it on */
    double *route_um;           /* per SM: mean wire route to the L2 blocks (flat memory's energy) */

    /* grid: drop_mv = k_ohm . (block currents, A) * 1000 */
    double *k_ohm;              /* nblocks x nblocks transfer resistances */
    double *amps;               /* scratch: block currents */
    double *drop_mv;            /* per block: regulator set-point minus its supply */
    double *blk_w;              /* per block power over the last interval */
    int *att;                   /* per SM: attainable bin at att_rail with the current drops */
    int *dom_att;               /* per domain: the lowest att[] of its SMs (its feasible clock) */
    int att_rail;

    /* domains */
    int ndom;
    int *dom_of;                /* per SM */
    int *dom_n;                 /* SMs per domain */
    si_dvfs_domain *dom;
    double *pend_scale;         /* per domain: predicted / measured power of its pending bin */
    int top_bin, idle_bin;

    /* time and idle handling */
    ps_t t, epoch_ps, latency_ps, next_epoch;
    ps_t tcheck_ps, next_tcheck;   /* the hardware thermal loop (thermal.check_ns; 0: none) */
    si_idle_stage stage[CFG_IDLE_STAGES + 1];   /* by entry time */
    int nstages;
    int running;
    ps_t idle_since;            /* when the last kernel ended (valid while running == 0) */
    ps_t wake_end;              /* a launch from an idle clock: wake_bin holds until then */
    int wake_bin;

    /* DVFS window */
    double win_s, win_other_j;
    double *win_dom_j, *win_nom_j, *win_cycles;

    si_sm_state *sms;
    si_chip_state chip;
};

/* ---- clocks ----------------------------------------------------------- */

/* The idle stage clock in force at t (>= the model's time), or -1 when the
 * DVFS target is.  A clock lock does not idle down. */
static int idle_bin_at(const silicon *si, ps_t t)
{
    if (si->c.dvfs_policy == DVFS_FIXED)
        return -1;
    if (t < si->wake_end)
        return si->wake_bin;
    if (si->running > 0)
        return -1;
    int b = -1;
    for (int k = 0; k < si->nstages && si->idle_since + si->stage[k].after <= t; k++)
        if (si->stage[k].bin >= 0)
            b = si->stage[k].bin;
    return b;
}

static int dom_bin_at(const silicon *si, int d, ps_t t)
{
    int idle = idle_bin_at(si, t);
    if (idle >= 0)
        return idle;
    const si_dvfs_domain *dm = &si->dom[d];
    return dm->pend >= 0 && t >= dm->pend_ps ? dm->pend : dm->cur;
}

static int rail_bin_at(const silicon *si, ps_t t)
{
    int b = 0;
    for (int d = 0; d < si->ndom; d++)
        b = SK_MAX(b, dom_bin_at(si, d, t));
    return b;
}

/* Attainable bin of SM i at supply v. */
static int att_bin(const silicon *si, int i, double v_mv)
{
    return si_vf_bin_down(&si->vf, si->fscale[i] * si_vf_fmax_mhz(&si->vf, v_mv, si->vth_mv[i]));
}

/* The highest bin every SM of domain d attains on the rail `rail`: one
 * clock domain is one clock, so its slowest SM sets it. */
static int dom_att_at(const silicon *si, int d, int rail)
{
    if (rail == si->att_rail)
        return si->dom_att[d];
    int a = si->top_bin;
    for (int i = 0; i < si->nsms; i++)
        if (si->dom_of[i] == d)
            a = SK_MIN(a, att_bin(si, i, si->vf.vreg_mv[rail] - si->drop_mv[i]));
    return a;
}

static int sm_bin_at(const silicon *si, int i, ps_t t)
{
    int d = si->dom_of[i];
    return SK_MIN(dom_bin_at(si, d, t), dom_att_at(si, d, rail_bin_at(si, t)));
}

/* Refill the attainable-bin caches for the rail in force at the model's
 * time (after the drops or the rail changed). */
static void cache_att(silicon *si)
{
    si->att_rail = rail_bin_at(si, si->t);
    double vreg = si->vf.vreg_mv[si->att_rail];
    for (int d = 0; d < si->ndom; d++)
        si->dom_att[d] = si->top_bin;
    for (int i = 0; i < si->nsms; i++) {
        si->att[i] = att_bin(si, i, vreg - si->drop_mv[i]);
        int d = si->dom_of[i];
        si->dom_att[d] = SK_MIN(si->dom_att[d], si->att[i]);
    }
}

int silicon_sm_mhz(const silicon *si, int sm, ps_t t)
{
    return si->vf.mhz[sm_bin_at(si, sm, t)];
}

/* The model's time: how far it has been stepped. */
ps_t silicon_time(const silicon *si)
{
    return si->t;
}

/* The next internal event strictly after the model's time. */
ps_t silicon_next_ps(const silicon *si)
{
    ps_t n = SK_MIN(si->next_epoch, si->next_tcheck);
    for (int d = 0; d < si->ndom; d++)
        if (si->dom[d].pend >= 0 && si->dom[d].pend_ps > si->t)
            n = SK_MIN(n, si->dom[d].pend_ps);
    if (si->c.dvfs_policy != DVFS_FIXED) {
        if (si->wake_end > si->t && si->wake_end < PS_MAX)
            n = SK_MIN(n, si->wake_end);
        if (si->running == 0)
            for (int k = 0; k < si->nstages; k++) {
                ps_t at = si->idle_since + si->stage[k].after;
                if (si->stage[k].bin >= 0 && at > si->t) {
                    n = SK_MIN(n, at);
                    break;
                }
            }
    }
    return n;
}

/* ---- one interval ----------------------------------------------------- */

static void solve_grid(silicon *si, double vreg_mv)
{
    int nb = si->nblocks;
    for (int b = 0; b < nb; b++)
        si->amps[b] = si->blk_w[b] / ((vreg_mv - si->drop_mv[b]) * 1e-3);
    for (int a = 0; a < nb; a++) {
        const double *k = &si->k_ohm[(size_t)a * (size_t)nb];
        double v = 0;
        for (int b = 0; b < nb; b++)
            v += k[b] * si->amps[b];
        si->drop_mv[a] = v * 1e3;
    }
}

/* SM i's activity act times frac, as doubles.  memory.model = flat has no
 * L1 or L2 to count their accesses, but the bytes it moves to and from DRAM
 * went through both on the chip: each 32-byte sector is charged an L1 and
 * an L2 sector and the SM's mean route to the L2 (route_um). */
static void si_activity_scale(const silicon *si, const si_activity *act, double frac, int i,
                              si_rate *a)
{
    for (int r = 0; r < SI_OP_N; r++) {
        a->issued[r] = (double)act->issued[r] * frac;
        a->operands[r] = (double)act->operands[r] * frac;
    }
    for (int t = 0; t < SI_DT_N; t++)
        a->tensor_cycles[t] = (double)act->tensor_cycles[t] * frac;
    a->sched_cycles = (double)act->sched_cycles * frac;
    a->mem_bytes = (double)act->mem_bytes * frac;
    a->l1_sectors = (double)act->l1_sectors * frac;
    a->smem_wavefronts = (double)act->smem_wavefronts * frac;
    a->l2_sectors = (double)act->l2_sectors * frac;
    a->noc_sector_um = (double)act->noc_sector_um * frac;
    if (si->c.mem_model == MEM_MODEL_FLAT) {
        double sectors = a->mem_bytes / 32;
        a->l1_sectors += sectors;
        a->l2_sectors += sectors;
        a->noc_sector_um += sectors * si->route_um[i];
    }
}

static void run_interval(silicon *si, ps_t t0, ps_t t1, const si_activity *act, double frac)
{
    double dt = (double)(t1 - t0) * 1e-12;
    int rail = rail_bin_at(si, t0);
    double vreg = si->vf.vreg_mv[rail];
    const double *temp = si_thermal_temps(si->th);
    double sm_w = 0;

    for (int i = 0; i < si->nsms; i++) {
        int b = sm_bin_at(si, i, t0);
        double cycles = si->vf.mhz[b] * 1e6 * dt;
        si_rate a;
        if (act)
            si_activity_scale(si, &act[i], frac, i, &a);
        else
            memset(&a, 0, sizeof a);
        double v = vreg - si->drop_mv[i];
        double nom_j = si_power_dyn_nom_j(&si->pw, &a, cycles);
        double s = v / si->pw.vnom_mv;
        double leak_w = si_power_leak_w(&si->pw, v, si->vth_mv[i], temp[i]);
        double p = nom_j * s * s / dt + leak_w;
        double part[SI_E_N];
        si_power_dyn_nom_parts(&si->pw, &a, cycles, part);
        for (int k = SI_E_CLOCK; k <= SI_E_L1; k++)
            si->chip.energy_by_j[k] += part[k] * s * s;
        si->chip.energy_by_j[SI_E_LEAK] += leak_w * dt;
        si->blk_w[i] = p;
        sm_w += p;
        si->win_nom_j[i] += nom_j;
        si->win_cycles[i] += cycles;
        si->win_dom_j[si->dom_of[i]] += p * dt;
    }
    for (int b = si->nsms; b < si->nblocks; b++)
        si->blk_w[b] = si->uncore_share[b];
    double bytes = 0, l2_j = 0;
    for (int i = 0; act && i < si->nsms; i++) {
        si_rate a;
        si_activity_scale(si, &act[i], frac, i, &a);
        bytes += a.mem_bytes;
        l2_j += si_power_mem_chip_j(&si->pw, a.l2_sectors, a.noc_sector_um);
    }
    double mem_w = si->pw.mem_idle_w + bytes * si->pw.mem_j_per_byte / dt;
    double uncore_w = si->pw.uncore_w + l2_j / dt;
    double other_w = uncore_w + mem_w;

    if (!si->fast)
        solve_grid(si, vreg);
    /* the hierarchy's L2 and wire heat goes to the package node, as the
     * HBM's does (not spread over the L2 band's block) */
    si_thermal_step(si->th, si->blk_w, mem_w + si->uncore_pkg_w + l2_j / dt, dt);

    si->win_s += dt;
    si->win_other_j += other_w * dt;
    si->chip.sm_power_w = sm_w;
    si->chip.uncore_w = uncore_w;
    si->chip.mem_w = mem_w;
    si->chip.power_w = sm_w + other_w;
    si->chip.energy_j += si->chip.power_w * dt;
    si->chip.energy_by_j[SI_E_L2] += l2_j;
    si->chip.energy_by_j[SI_E_UNCORE] += si->pw.uncore_w * dt;
    si->chip.energy_by_j[SI_E_HBM_IDLE] += si->pw.mem_idle_w * dt;
    si->chip.energy_by_j[SI_E_HBM] += bytes * si->pw.mem_j_per_byte;
}

/* ---- DVFS decisions ---------------------------------------------------- */

typedef struct predict_ctx {
    const silicon *si;
    int d;
    double other_w;             /* the domain's share of uncore + HBM */
    double measured_w;          /* the domain's power over the window */
    int other_rail;             /* highest bin of the other domains */
} predict_ctx;

/* Power of domain pc->d at `bin` with each SM's IR drop scaled by
 * drop_scale (the drop goes with the current). */
static double predict_at(const predict_ctx *pc, int bin, double drop_scale)
{
    const silicon *si = pc->si;
    double vreg = si->vf.vreg_mv[SK_MAX(bin, pc->other_rail)];
    const double *temp = si_thermal_temps(si->th);
    double p = pc->other_w;
    int b = bin;   /* the domain's one clock: its slowest SM's bin at the new supply */
    for (int i = 0; i < si->nsms; i++)
        if (si->dom_of[i] == pc->d)
            b = SK_MIN(b, att_bin(si, i, vreg - si->drop_mv[i] * drop_scale));
    for (int i = 0; i < si->nsms; i++) {
        if (si->dom_of[i] != pc->d)
            continue;
        double v = vreg - si->drop_mv[i] * drop_scale;
        double per_cycle = si->win_cycles[i] > 0 ? si->win_nom_j[i] / si->win_cycles[i] : 0;
        double s = v / si->pw.vnom_mv;
        p += per_cycle * si->vf.mhz[b] * 1e6 * s * s
           + si_power_leak_w(&si->pw, v, si->vth_mv[i], temp[i]);
    }
    return p;
}

/* The IR drop measured at the window's power would understate the supply
 * at a lower power (and so the power), so one fixed-point step rescales it
 * by the predicted over the measured power. */
static double predict(void *ud, int bin)
{
    const predict_ctx *pc = ud;
    double p = predict_at(pc, bin, 1);
    if (pc->measured_w > 0)
        p = predict_at(pc, bin, p / pc->measured_w);
    return p;
}

static double zero_power(void *ud, int bin)
{
    (void)ud;
    (void)bin;
    return 0;
}

static void decide(silicon *si, ps_t now)
{
    if (!(si->win_s > 0))
        return;
    const double *temp = si_thermal_temps(si->th);
    double chip_w = 0;
    for (int d = 0; d < si->ndom; d++)
        chip_w += si->win_dom_j[d];
    chip_w = (chip_w + si->win_other_j) / si->win_s;
    si->chip.window_power_w = chip_w;
    si->chip.max_window_power_w = SK_MAX(si->chip.max_window_power_w, chip_w);
    si->chip.thermal_limited = 0;

    for (int d = 0; d < si->ndom; d++) {
        double share = (double)si->dom_n[d] / si->nsms;
        predict_ctx pc = { si, d, share * si->win_other_j / si->win_s, 0, 0 };
        double measured = si->win_dom_j[d] / si->win_s + pc.other_w;
        pc.measured_w = measured;
        for (int o = 0; o < si->ndom; o++)
            if (o != d)
                pc.other_rail = SK_MAX(pc.other_rail, si->dom[o].cur);
        double tmax = -HUGE_VAL;
        for (int i = 0; i < si->nsms; i++)
            if (si->dom_of[i] == d)
                tmax = SK_MAX(tmax, temp[i]);
        int hot = tmax >= si->c.th_slowdown_c ? 2
                : tmax >= si->c.th_slowdown_c - si->c.th_hyst_c ? 1 : 0;
        si->chip.thermal_limited |= hot == 2;
        si->pend_scale[d] = 1;
        if (si->c.dvfs_policy == DVFS_FIXED) {
            si_dvfs_decide(&si->dom[d], 0, si->top_bin, hot, zero_power, NULL, now,
                           si->latency_ps);
        } else {
            int b = si_dvfs_decide(&si->dom[d], measured, si->top_bin, hot, predict, &pc, now,
                                   si->latency_ps);
            if (si->dom[d].pend >= 0 && measured > 0)
                si->pend_scale[d] = SK_MAX(0.2, SK_MIN(5.0, predict(&pc, b) / measured));
        }
    }
    si->win_s = 0;
    si->win_other_j = 0;
    memset(si->win_dom_j, 0, (size_t)si->ndom * sizeof *si->win_dom_j);
    memset(si->win_nom_j, 0, (size_t)si->nsms * sizeof *si->win_nom_j);
    memset(si->win_cycles, 0, (size_t)si->nsms * sizeof *si->win_cycles);
}

/* The hardware thermal loop, between DVFS decisions: a domain whose
 * hottest SM is at or over thermal.slowdown_c loses one bin at once (a
 * pending decision above it is cut to match).  The firmware's 100 ms
 * power loop cannot protect a chip whose first epoch of a load step runs
 * uncapped; GPUs keep a faster hardware slowdown for that (nvidia-smi's
 * "HW Slowdown" clock-event reason), which this stands for.  Its period is
 * not measured. */
static void thermal_check(silicon *si)
{
    const double *temp = si_thermal_temps(si->th);
    for (int d = 0; d < si->ndom; d++) {
        double tmax = -HUGE_VAL;
        for (int i = 0; i < si->nsms; i++)
            if (si->dom_of[i] == d)
                tmax = SK_MAX(tmax, temp[i]);
        si_dvfs_domain *dm = &si->dom[d];
        if (tmax < si->c.th_slowdown_c || dm->cur == 0)
            continue;
        dm->cur--;
        si->chip.changes++;
        si->chip.thermal_limited = 1;
        if (dm->pend > dm->cur)
            dm->pend = dm->cur;
    }
}

/* A decided clock takes effect.  The SMs' IR drops were solved at the old
 * clock's current; until the next solve they are rescaled by the power the
 * decision predicted, so that the attainable clocks of the first interval
 * at the new setting do not see the old load's drop. */
static void apply_pending(silicon *si, ps_t now)
{
    for (int d = 0; d < si->ndom; d++) {
        si_dvfs_domain *dm = &si->dom[d];
        if (dm->pend >= 0 && dm->pend_ps <= now) {
            if (dm->pend != dm->cur)
                si->chip.changes++;
            dm->cur = dm->pend;
            dm->pend = -1;
            for (int i = 0; i < si->nsms; i++)
                if (si->dom_of[i] == d)
                    si->drop_mv[i] *= si->pend_scale[d];
        }
    }
}

static void refresh_state(silicon *si)
{
    const double *temp = si_thermal_temps(si->th);
    int rail = rail_bin_at(si, si->t);
    double vreg = si->vf.vreg_mv[rail], tmax = -HUGE_VAL, tsum = 0;
    for (int i = 0; i < si->nsms; i++) {
        si_sm_state *s = &si->sms[i];
        double v = vreg - si->drop_mv[i];
        s->mhz = silicon_sm_mhz(si, i, si->t);
        s->att_mhz = si->vf.mhz[si->att_rail == rail ? si->att[i] : att_bin(si, i, v)];
        s->vdd_mv = v;
        s->power_w = si->blk_w[i];
        s->temp_c = temp[i];
        s->vth_mv = si->vth_mv[i];
        tmax = SK_MAX(tmax, temp[i]);
        tsum += temp[i];
    }
    si->chip.target_mhz = si->vf.mhz[dom_bin_at(si, 0, si->t)];
    si->chip.vreg_mv = vreg;
    si->chip.temp_max_c = tmax;
    si->chip.temp_mean_c = tsum / si->nsms;
    si->chip.temp_pkg_c = si_thermal_pkg(si->th);
}

/* What a physics error message says about the variation map, so that the
 * keys that produced the SM can be named: "" for uniform silicon. */
static const char *variation_note(const silicon *si, int sm, char *buf, size_t n)
{
    const cfg *c = &si->c;
    if (c->si_preset == SI_PRESET_VARIUS || c->si_preset == SI_PRESET_SKEWED)
        snprintf(buf, n, " (its Vth %.0f mV is drawn by silicon.preset=%s, "
                 "variation.vth_sigma_permille=%d, sim.seed=%llu)", si->vth_mv[sm],
                 c->si_preset == SI_PRESET_VARIUS ? "varius" : "skewed", c->var_sigma_permille,
                 (unsigned long long)c->seed);
    else if (c->si_preset == SI_PRESET_FILE)
        snprintf(buf, n, " (Vth %.0f mV, fmax scale %.3g from silicon.map_file %s)", si->vth_mv[sm],
                 si->fscale[sm], c->si_map_file);
    else
        buf[0] = '\0';
    return buf;
}

/* Where the physics has no answer, the run fails: an SM hotter than
 * thermal.shutdown_c (the chip powers off; leakage runaway ends here), an
 * SM whose supply cannot hold even the lowest clock bin (IR drop beyond
 * the margin, or a threshold too high: no feasible V/f bin), or a value
 * that is not finite.  Checked after every interval, so no NaN or infinity
 * ever reaches a clock, a CSV or summary.json.  Returns 0 or SK_ESIM. */
static int check_physics(const silicon *si, ps_t t, sk_error *e)
{
    const double *temp = si_thermal_temps(si->th);
    double vreg = si->vf.vreg_mv[rail_bin_at(si, t)];
    char note[200];
    double ms = (double)t * 1e-9;
    /* the supply first: a collapsing grid also heats, but it is the cause */
    for (int i = 0; i < si->nsms; i++) {
        double v = vreg - si->drop_mv[i];
        double f = si->fscale[i] * si_vf_fmax_mhz(&si->vf, v, si->vth_mv[i]);
        if (!(f >= si->vf.mhz[0]))
            return sk_errorf(e, SK_ESIM, "silicon: at %.3f ms SM %d has %.0f mV at its cells "
                             "(regulator %.0f mV less %.0f mV of IR drop) and reaches %.0f MHz, "
                             "below the lowest clock bin dvfs.min_mhz (%d MHz): no feasible V/f "
                             "bin%s", ms, i, v, vreg, si->drop_mv[i], f, si->vf.mhz[0],
                             variation_note(si, i, note, sizeof note));
    }
    for (int b = 0; b < si->nblocks; b++) {
        int sm = b < si->nsms ? b : -1;
        if (!isfinite(si->blk_w[b]) || !isfinite(temp[b]) || !isfinite(si->drop_mv[b]))
            return sk_errorf(e, SK_ESIM, "silicon: at %.3f ms block %d%s: power %g W, %g C, IR "
                             "drop %g mV: not finite (a runaway the model cannot follow)%s", ms, b,
                             sm >= 0 ? " (an SM)" : "", si->blk_w[b], temp[b], si->drop_mv[b],
                             sm >= 0 ? variation_note(si, sm, note, sizeof note) : "");
        if (temp[b] > si->c.th_shutdown_c) {
            if (sm < 0)
                return sk_errorf(e, SK_ESIM, "silicon: at %.3f ms block %d (uncore) reached %.1f C, "
                                 "above thermal.shutdown_c (%d C): the chip powers off", ms, b,
                                 temp[b], si->c.th_shutdown_c);
            return sk_errorf(e, SK_ESIM, "silicon: at %.3f ms SM %d reached %.1f C drawing %.1f W, "
                             "above thermal.shutdown_c (%d C): the chip powers off%s", ms, sm,
                             temp[b], si->blk_w[b], si->c.th_shutdown_c,
                             variation_note(si, sm, note, sizeof note));
        }
    }
    return 0;
}

int silicon_advance(silicon *si, ps_t t, const si_activity *act, sk_error *e)
{
    if (t < si->t)
        return sk_errorf(e, SK_ESIM, "silicon: advance to %lld ps: before the model's time "
                         "%lld ps", (long long)t, (long long)si->t);
    double span = (double)(t - si->t);
    while (si->t < t) {
        ps_t tn = SK_MIN(t, silicon_next_ps(si));
        run_interval(si, si->t, tn, act, (double)(tn - si->t) / span);
        si->t = tn;
        apply_pending(si, tn);
        if (tn == si->next_epoch) {
            decide(si, tn);
            si->next_epoch += si->epoch_ps;
            apply_pending(si, tn);   /* dvfs.latency_ns = 0 */
        }
        if (tn == si->next_tcheck) {
            thermal_check(si);
            si->next_tcheck += si->tcheck_ps;
        }
        int rc = check_physics(si, tn, e);
        if (rc < 0)
            return rc;
        cache_att(si);
    }
    refresh_state(si);
    return 0;
}

/* ---- idle and wake ------------------------------------------------------ */

ps_t silicon_kernel_launch(silicon *si, ps_t t)
{
    if (t < si->t) {
        /* A run-loop bug, like scheduling an event into the past. */
        fprintf(stderr, "skewsim: bug: silicon_kernel_launch at %lld ps, before the model's "
                "time %lld ps\n", (long long)t, (long long)si->t);
        abort();
    }
    ps_t delay = 0;
    if (si->running == 0) {
        /* The deepest stage entered sets the cost; its clock (if it has
         * one) holds until the delay ends, when the DVFS target is back
         * before any CTA starts. */
        int bin = idle_bin_at(si, t);
        for (int k = 0; k < si->nstages && si->idle_since + si->stage[k].after <= t; k++)
            delay = si->stage[k].wake;
        si->wake_bin = bin;
        si->wake_end = bin >= 0 ? t + delay : 0;
    }
    si->running++;
    return delay;
}

void silicon_kernel_end(silicon *si, ps_t t)
{
    if (si->running > 0)
        si->running--;
    if (si->running == 0)
        si->idle_since = t;
}

/* ---- construction -------------------------------------------------------- */

static double overlap(double a0, double a1, double b0, double b1)
{
    return SK_MAX(0.0, SK_MIN(a1, b1) - SK_MAX(a0, b0));
}

/* Cover each block by mesh cells (weights: area fractions), lay bumps on a
 * square lattice with power and ground alternating (a checkerboard, as
 * VoltSpot's default pad layout), factor the grid, and reduce it to the
 * block-to-block transfer resistances: K[a][b] = drop at block a (area
 * mean) per ampere drawn by block b. */
static int build_grid(silicon *si, sk_error *e)
{
    const cfg *c = &si->c;
    int nx = c->pdn_nx, ny = c->pdn_ny, nn = nx * ny, nb = si->nblocks;
    double dx = si->fp.w_um / nx, dy = si->fp.h_um / ny;
    si->k_ohm = xcalloc((size_t)nb * (size_t)nb, sizeof *si->k_ohm);
    si->amps = xcalloc((size_t)nb, sizeof *si->amps);
    if (si->fast)
        return 0;

    int *start = xcalloc((size_t)nb + 1, sizeof *start);
    size_t cap = 64, len = 0;
    int *node = xmalloc(cap * sizeof *node);
    double *wt = xmalloc(cap * sizeof *wt);
    for (int b = 0; b < nb; b++) {
        const si_block *r = &si->fp.blocks[b];
        double area = (r->x1_um - r->x0_um) * (r->y1_um - r->y0_um);
        start[b] = (int)len;
        int ix0 = (int)floor(r->x0_um / dx), ix1 = (int)ceil(r->x1_um / dx);
        int iy0 = (int)floor(r->y0_um / dy), iy1 = (int)ceil(r->y1_um / dy);
        for (int iy = SK_MAX(iy0, 0); iy < SK_MIN(iy1, ny); iy++)
            for (int ix = SK_MAX(ix0, 0); ix < SK_MIN(ix1, nx); ix++) {
                double a = overlap(r->x0_um, r->x1_um, ix * dx, (ix + 1) * dx)
                         * overlap(r->y0_um, r->y1_um, iy * dy, (iy + 1) * dy);
                if (a <= 0)
                    continue;
                if (len == cap) {
                    cap *= 2;
                    node = xrealloc(node, cap * sizeof *node);
                    wt = xrealloc(wt, cap * sizeof *wt);
                }
                node[len] = ix + nx * iy;
                wt[len++] = a / area;
            }
    }
    start[nb] = (int)len;

    /* Loop resistances: the ground net mirrors the power net (pdn.c). */
    double sheet = 2 * c->pdn_sheet_mohm * 1e-3, rb = 2 * c->pdn_bump_mohm * 1e-3;
    double pitch = c->pdn_bump_pitch_um;
    int rc = 0;
    if (!(rb > 0) || !(sheet > 0))
        rc = sk_errorf(e, SK_ECONFIG, "config: pdn.bump_mohm (%d) and pdn.sheet_mohm (%d): "
                       "expected both above 0", c->pdn_bump_mohm, c->pdn_sheet_mohm);
    si_pdn *pdn = NULL;
    if (rc == 0) {
        double *g = xcalloc((size_t)nn, sizeof *g);
        for (int ky = 0; pitch / 2 + ky * pitch < si->fp.h_um; ky++)
            for (int kx = 0; pitch / 2 + kx * pitch < si->fp.w_um; kx++) {
                if ((kx + ky) % 2)
                    continue;
                int ix = SK_MIN(nx - 1, (int)((pitch / 2 + kx * pitch) / dx));
                int iy = SK_MIN(ny - 1, (int)((pitch / 2 + ky * pitch) / dy));
                g[ix + nx * iy] += 1 / rb;
            }
        pdn = si_pdn_create(nx, ny, sheet * dx / dy, sheet * dy / dx, g,
                            c->pdn_pkg_uohm * 1e-6, e);
        free(g);
        rc = pdn ? 0 : e->code;
    }
    if (rc == 0) {
        /* By linearity, with the regulator at 0 V a load of 1 A spread over
         * block b leaves node voltages -(drop per ampere). */
        double *i_node = xcalloc((size_t)nn, sizeof *i_node);
        double *v_node = xcalloc((size_t)nn, sizeof *v_node);
        for (int b = 0; b < nb; b++) {
            memset(i_node, 0, (size_t)nn * sizeof *i_node);
            for (int k = start[b]; k < start[b + 1]; k++)
                i_node[node[k]] += wt[k];
            si_pdn_solve(pdn, 0, i_node, v_node, NULL);
            for (int a = 0; a < nb; a++) {
                double v = 0;
                for (int k = start[a]; k < start[a + 1]; k++)
                    v += v_node[node[k]] * wt[k];
                si->k_ohm[(size_t)a * (size_t)nb + (size_t)b] = -v;
            }
        }
        free(i_node);
        free(v_node);
    }
    si_pdn_destroy(pdn);
    free(start);
    free(node);
    free(wt);
    return rc;
}

/* The idle stages, sorted by entry time: dvfs.stage1..N, or (N = 0) the
 * two the older keys describe: a launch after wake_after_ns pays wake_ns,
 * and after idle_after_ns the clock drops to idle_mhz.  The long-idle clock
 * (the state the chip starts in) is the last stage clock. */
static void build_stages(silicon *si)
{
    const cfg *c = &si->c;
    int n = 0;
    if (c->dvfs_idle_stages == 0) {
        ps_t wa = c->dvfs_wake_after_ns * PS_PER_NS, ia = c->dvfs_idle_after_ns * PS_PER_NS;
        ps_t w = (ps_t)c->dvfs_wake_ns * PS_PER_NS;
        si_idle_stage wake = { wa, w, -1 };
        si_idle_stage clk = { ia, ia >= wa ? w : 0, si_vf_bin_down(&si->vf, c->dvfs_idle_mhz) };
        si->stage[n++] = ia >= wa ? wake : clk;
        si->stage[n++] = ia >= wa ? clk : wake;
    } else {
        for (int k = 0; k < c->dvfs_idle_stages; k++) {
            si_idle_stage st = { c->dvfs_stage[k].after_ns * PS_PER_NS,
                                 (ps_t)c->dvfs_stage[k].wake_ns * PS_PER_NS,
                                 c->dvfs_stage[k].mhz ? si_vf_bin_down(&si->vf, c->dvfs_stage[k].mhz)
                                                      : -1 };
            si->stage[n++] = st;
        }
    }
    si->nstages = n;
    si->idle_bin = si->top_bin;
    for (int k = 0; k < n; k++)
        if (si->stage[k].bin >= 0)
            si->idle_bin = si->stage[k].bin;
}

static int check_cfg(const cfg *c, const si_vf *vf, sk_error *e)
{
    int top = c->sm_mhz;
    /* An idle clock below the lowest bin idles at the lowest bin: the bins
     * step down from clocks.sm_mhz, so a chip whose top clock is not the
     * H200's cannot always reach dvfs.idle_mhz exactly. */
    if (c->dvfs_idle_mhz > top)
        return sk_errorf(e, SK_ECONFIG, "config: dvfs.idle_mhz: %d: expected at most clocks.sm_mhz (%d)",
                         c->dvfs_idle_mhz, top);
    if (c->dvfs_fixed_mhz != 0 && (c->dvfs_fixed_mhz < vf->mhz[0] || c->dvfs_fixed_mhz > top))
        return sk_errorf(e, SK_ECONFIG, "config: dvfs.fixed_mhz: %d: expected 0 or a clock in "
                         "dvfs.min_mhz..clocks.sm_mhz (%d..%d)", c->dvfs_fixed_mhz, vf->mhz[0],
                         top);
    for (int k = 0; k < c->dvfs_idle_stages; k++) {
        int mhz = c->dvfs_stage[k].mhz;
        if (mhz != 0 && (mhz < vf->mhz[0] || mhz > top))
            return sk_errorf(e, SK_ECONFIG, "config: dvfs.stage%d.mhz: %d: expected 0 or a clock "
                             "in dvfs.min_mhz..clocks.sm_mhz (%d..%d)", k + 1, mhz, vf->mhz[0], top);
        if (k > 0 && c->dvfs_stage[k].after_ns <= c->dvfs_stage[k - 1].after_ns)
            return sk_errorf(e, SK_ECONFIG, "config: dvfs.stage%d.after_ns: %lld: expected more "
                             "than dvfs.stage%d.after_ns (%lld): stages are entered in order", k + 1,
                             (long long)c->dvfs_stage[k].after_ns, k,
                             (long long)c->dvfs_stage[k - 1].after_ns);
    }
    if (c->th_shutdown_c <= c->th_slowdown_c)
        return sk_errorf(e, SK_ECONFIG, "config: thermal.shutdown_c: %d: expected above "
                         "thermal.slowdown_c (%d)", c->th_shutdown_c, c->th_slowdown_c);
    if (c->dvfs_margin_w >= c->dvfs_cap_w)
        return sk_errorf(e, SK_ECONFIG, "config: dvfs.margin_w: %d: expected less than "
                         "dvfs.cap_w (%d)", c->dvfs_margin_w, c->dvfs_cap_w);
    return 0;
}

/* Temperatures of a chip that has idled long at the idle clock: the
 * steady state, iterated because leakage depends on temperature (and the
 * IR drop on the current).  The iteration rises monotonically from the
 * inlet temperature to the lowest fixed point; when there is none (leakage
 * grows faster with temperature than the package can remove it: thermal
 * runaway) it passes thermal.shutdown_c, and check_physics() says so. */
static int settle_idle(silicon *si, sk_error *e)
{
    double vreg = si->vf.vreg_mv[si->idle_bin];
    double mhz = si->vf.mhz[si->idle_bin];
    si_rate zero;
    memset(&zero, 0, sizeof zero);
    double prev = -HUGE_VAL;
    for (int it = 0; it < 500; it++) {
        const double *temp = si_thermal_temps(si->th);
        for (int i = 0; i < si->nsms; i++) {
            double v = vreg - si->drop_mv[i], s = v / si->pw.vnom_mv;
            si->blk_w[i] = si_power_dyn_nom_j(&si->pw, &zero, mhz * 1e6) * s * s
                         + si_power_leak_w(&si->pw, v, si->vth_mv[i], temp[i]);
        }
        for (int b = si->nsms; b < si->nblocks; b++)
            si->blk_w[b] = si->uncore_share[b];
        if (!si->fast)
            solve_grid(si, vreg);
        si_thermal_steady(si->th, si->blk_w, si->pw.mem_idle_w + si->uncore_pkg_w);
        double tmax = -HUGE_VAL;
        for (int b = 0; b < si->nblocks; b++)
            tmax = SK_MAX(tmax, temp[b]);
        sk_error probe = { 0 };
        if (!(tmax <= si->c.th_shutdown_c) || fabs(tmax - prev) < 1e-6
            || check_physics(si, 0, &probe) < 0)
            break;
        prev = tmax;
    }
    if (check_physics(si, 0, e) < 0) {
        /* name the cause: at idle, a hot SM is a leakage runaway */
        char msg[SK_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s", e->msg);
        const char *p = strncmp(msg, "silicon: at 0.000 ms ", 21) == 0 ? msg + 21 : msg;
        e->code = 0;   /* sk_errorf keeps the first error: this one replaces it */
        return sk_errorf(e, SK_ESIM, "silicon: idle chip, before any kernel: %s%s", p,
                         strstr(p, "powers off") ? "; leakage outruns cooling (thermal runaway)"
                                                 : "");
    }
    return 0;
}

silicon *silicon_create(const cfg *c, const topo *t, sk_error *e)
{
    silicon *si = xcalloc(1, sizeof *si);
    si->c = *c;
    si->nsms = t->nsms;
    if (si_floorplan_build(&si->fp, c, t, e) || si_vf_init(&si->vf, c, e)
        || check_cfg(c, &si->vf, e)) {
        silicon_destroy(si);
        return NULL;
    }
    si->nblocks = si->fp.nblocks;
    si_power_init(&si->pw, c);
    si->fast = c->si_preset == SI_PRESET_UNIFORM && c->dvfs_policy == DVFS_FIXED;

    int n = si->nsms, nb = si->nblocks;
    si->vth_mv = xcalloc((size_t)n, sizeof *si->vth_mv);
    si->fscale = xcalloc((size_t)n, sizeof *si->fscale);
    si->drop_mv = xcalloc((size_t)nb, sizeof *si->drop_mv);
    si->blk_w = xcalloc((size_t)nb, sizeof *si->blk_w);
    si->blk_area = xcalloc((size_t)nb, sizeof *si->blk_area);
    si->uncore_share = xcalloc((size_t)nb, sizeof *si->uncore_share);
    si->win_nom_j = xcalloc((size_t)n, sizeof *si->win_nom_j);
    si->win_cycles = xcalloc((size_t)n, sizeof *si->win_cycles);
    si->sms = xcalloc((size_t)n, sizeof *si->sms);
    si->att = xcalloc((size_t)n, sizeof *si->att);
    si->dom_of = xcalloc((size_t)n, sizeof *si->dom_of);
    if (si_variation_map(c, &si->fp, si->vth_mv, si->fscale, e) || build_grid(si, e)) {
        silicon_destroy(si);
        return NULL;
    }

    /* Uncore power spread over the non-SM blocks by area; thermal nodes
     * sized by area (thermal.block_*). */
    double *cap_j = xcalloc((size_t)nb, sizeof *cap_j), *g = xcalloc((size_t)nb, sizeof *g);
    double other_mm2 = 0;
    for (int b = 0; b < nb; b++) {
        const si_block *r = &si->fp.blocks[b];
        si->blk_area[b] = (r->x1_um - r->x0_um) * (r->y1_um - r->y0_um) * 1e-6;
        if (b >= n)
            other_mm2 += si->blk_area[b];
        cap_j[b] = c->th_block_c_uj_per_k_mm2 * 1e-6 * si->blk_area[b];
        g[b] = si->blk_area[b] / (c->th_block_r_mk_mm2_per_w * 1e-3);
    }
    for (int b = n; b < nb; b++)
        si->uncore_share[b] = si->pw.uncore_w * si->blk_area[b] / other_mm2;
    /* Flat memory's wires: an SM's sectors go to every L2 block alike
     * (addresses hash over the partitions), each along a Manhattan route
     * from the SM's centre to the block's. */
    si->route_um = xcalloc((size_t)n, sizeof *si->route_um);
    for (int i = 0; i < n; i++) {
        const si_block *q = &si->fp.blocks[i];
        double x = (q->x0_um + q->x1_um) / 2, y = (q->y0_um + q->y1_um) / 2, sum = 0;
        int nl2 = 0;
        for (int b = n; b < nb; b++) {
            const si_block *r = &si->fp.blocks[b];
            if (r->kind != SI_BLOCK_L2)
                continue;
            sum += fabs(x - (r->x0_um + r->x1_um) / 2) + fabs(y - (r->y0_um + r->y1_um) / 2);
            nl2++;
        }
        si->route_um[i] = nl2 ? sum / nl2 : 0;
    }
    if (nb == n)   /* floorplan.* without L2, PHY or I/O strips */
        si->uncore_pkg_w = si->pw.uncore_w;
    si->th = si_thermal_create(nb, cap_j, g, c->th_pkg_c_j_per_k,
                               1 / (c->th_pkg_r_mk_per_w * 1e-3), c->th_inlet_c);
    free(cap_j);
    free(g);

    /* Domains. */
    si->top_bin = si->vf.nbins - 1;
    int start = si->top_bin;
    if (c->dvfs_policy == DVFS_FIXED && c->dvfs_fixed_mhz != 0)
        start = si->top_bin = si_vf_bin_down(&si->vf, c->dvfs_fixed_mhz);
    si->ndom = c->dvfs_policy == DVFS_PER_GPC ? t->ngpcs : c->dvfs_policy == DVFS_PER_SM ? n : 1;
    si->dom = xcalloc((size_t)si->ndom, sizeof *si->dom);
    si->dom_n = xcalloc((size_t)si->ndom, sizeof *si->dom_n);
    si->pend_scale = xcalloc((size_t)si->ndom, sizeof *si->pend_scale);
    si->win_dom_j = xcalloc((size_t)si->ndom, sizeof *si->win_dom_j);
    si->dom_att = xcalloc((size_t)si->ndom, sizeof *si->dom_att);
    for (int i = 0; i < n; i++) {
        si->dom_of[i] = c->dvfs_policy == DVFS_PER_GPC ? t->sm[i].gpc
                      : c->dvfs_policy == DVFS_PER_SM ? i : 0;
        si->dom_n[si->dom_of[i]]++;
    }
    for (int d = 0; d < si->ndom; d++) {
        double share = (double)si->dom_n[d] / n;
        si->dom[d].cur = start;
        si->dom[d].pend = -1;
        si->dom[d].pend_ps = PS_MAX;
        si->dom[d].cap_w = c->dvfs_cap_w * share;
        si->dom[d].margin_w = c->dvfs_margin_w * share;
    }

    si->epoch_ps = c->dvfs_epoch_ns * PS_PER_NS;
    si->latency_ps = c->dvfs_latency_ns * PS_PER_NS;
    si->next_epoch = si->epoch_ps;
    si->tcheck_ps = c->th_check_ns * PS_PER_NS;
    si->next_tcheck = si->tcheck_ps > 0 ? si->tcheck_ps : PS_MAX;
    build_stages(si);
    si->idle_since = 0;
    si->wake_end = 0;
    si->wake_bin = -1;

    if (settle_idle(si, e) < 0) {
        silicon_destroy(si);
        return NULL;
    }
    cache_att(si);
    refresh_state(si);
    return si;
}

void silicon_destroy(silicon *si)
{
    if (!si)
        return;
    si_floorplan_free(&si->fp);
    si_vf_free(&si->vf);
    si_thermal_destroy(si->th);
    free(si->vth_mv);
    free(si->fscale);
    free(si->blk_area);
    free(si->uncore_share);
    free(si->route_um);
    free(si->k_ohm);
    free(si->amps);
    free(si->att);
    free(si->dom_att);
    free(si->drop_mv);
    free(si->blk_w);
    free(si->dom_of);
    free(si->dom_n);
    free(si->dom);
    free(si->pend_scale);
    free(si->win_dom_j);
    free(si->win_nom_j);
    free(si->win_cycles);
    free(si->sms);
    free(si);
}

int silicon_num_sms(const silicon *si)
{
    return si->nsms;
}

const si_sm_state *silicon_sm(const silicon *si, int sm)
{
    return &si->sms[sm];
}

const si_chip_state *silicon_chip(const silicon *si)
{
    return &si->chip;
}
