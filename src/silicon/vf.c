/* vf.c -- voltage to frequency: the alpha-power law and the clock bins.
 *
 * Sakurai and Newton (IEEE JSSC 25, 1990): a gate's saturation current goes
 * as (V - Vth)^alpha with alpha between 1 (velocity saturated) and 2 (long
 * channel), so a path's delay goes as V / (V - Vth)^alpha and
 *
 *     f(V, Vth) = k (V - Vth)^alpha / V.
 *
 * alpha = 1.3 and Vth = 0.3 V are the usual short-channel values (shared
 * physics.md).  k is fixed so that a nominal SM (Vth = vf.vth_mv) at
 * vf.vnom_mv runs exactly at clocks.sm_mhz, the top bin.
 *
 * The regulator is not set to the bare need: a part-specific V/f table
 * carries margin for IR drop (and, on real parts, di/dt droop, aging and
 * temperature).  We model that as vreg(f) = max(vmin, vneed(f) (1 + guard))
 * with guard = vf.guard_pct: 5 % covers the static IR drop the power grid
 * is designed for (VoltSpot's 5 % noise target, physics.md), so nominal
 * silicon is never limited by its own supply, and variation beyond the
 * margin shows up as SMs that cannot hold the domain clock.  vmin is the
 * floor below which SRAM and logic stop working; with alpha 1.3 and
 * Vth 0.3 V the law's dynamic range is small (f(1.0 V)/f(0.7 V) ~ 1.45),
 * so every bin below ~1265 MHz sits on the floor.
 *
 * Bins step down from clocks.sm_mhz by dvfs.step_mhz to dvfs.min_mhz: on
 * the H200, 1980 down to 345 in 15 MHz steps, 110 bins (measured).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "skewsim/silicon.h"

double si_vf_fmax_mhz(const si_vf *vf, double v_mv, double vth_mv)
{
    if (v_mv <= vth_mv)
        return 0;
    return vf->k * pow(v_mv - vth_mv, vf->alpha) / v_mv;
}

/* f is increasing in V for V > Vth and alpha >= 1 (d ln f / d ln V =
 * alpha V / (V - Vth) - 1 > 0), so bisection on [Vth, big] converges. */
double si_vf_vneed_mv(const si_vf *vf, double mhz)
{
    double lo = vf->vth_mv, hi = vf->vth_mv + 1;
    if (mhz <= 0)
        return vf->vth_mv;
    while (si_vf_fmax_mhz(vf, hi, vf->vth_mv) < mhz && hi < 1e7)
        hi = vf->vth_mv + 2 * (hi - vf->vth_mv);
    for (int i = 0; i < 100 && hi - lo > 1e-9; i++) {
        double mid = 0.5 * (lo + hi);
        if (si_vf_fmax_mhz(vf, mid, vf->vth_mv) < mhz)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

int si_vf_bin_down(const si_vf *vf, double mhz)
{
    /* the run loop asks this for every SM at every step: bins are evenly
     * spaced, so it is one division */
    double b = floor((mhz - vf->mhz[0]) / vf->step_mhz);
    if (!(b > 0))
        return 0;
    return b >= vf->nbins - 1 ? vf->nbins - 1 : (int)b;
}

int si_vf_init(si_vf *vf, const cfg *c, sk_error *e)
{
    memset(vf, 0, sizeof *vf);
    int top = c->sm_mhz, step = c->dvfs_step_mhz, lo = c->dvfs_min_mhz;
    if (lo > top)
        return sk_errorf(e, SK_ECONFIG, "config: dvfs.min_mhz: %d: expected at most "
                         "clocks.sm_mhz (%d)", lo, top);
    if (c->vf_vth_mv >= c->vf_vnom_mv)
        return sk_errorf(e, SK_ECONFIG, "config: vf.vth_mv: %d: expected less than "
                         "vf.vnom_mv (%d)", c->vf_vth_mv, c->vf_vnom_mv);
    vf->vnom_mv = c->vf_vnom_mv;
    vf->vth_mv = c->vf_vth_mv;
    vf->alpha = c->vf_alpha_milli / 1000.0;
    vf->vmin_mv = c->vf_vmin_mv;
    vf->guard = c->vf_guard_pct / 100.0;
    vf->k = top * vf->vnom_mv / pow(vf->vnom_mv - vf->vth_mv, vf->alpha);

    vf->nbins = (top - lo) / step + 1;
    vf->step_mhz = step;
    vf->mhz = xcalloc((size_t)vf->nbins, sizeof *vf->mhz);
    vf->vreg_mv = xcalloc((size_t)vf->nbins, sizeof *vf->vreg_mv);
    for (int b = 0; b < vf->nbins; b++) {
        vf->mhz[b] = top - (vf->nbins - 1 - b) * step;
        double v = si_vf_vneed_mv(vf, vf->mhz[b]) * (1 + vf->guard);
        vf->vreg_mv[b] = SK_MAX(v, vf->vmin_mv);
    }
    return 0;
}

void si_vf_free(si_vf *vf)
{
    if (!vf)
        return;
    free(vf->mhz);
    free(vf->vreg_mv);
    memset(vf, 0, sizeof *vf);
}
