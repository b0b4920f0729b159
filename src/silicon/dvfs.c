/* dvfs.c -- one clock domain's power-cap controller.
 *
 * What the H200 shows (validation/h200/smi_trace2, 40 s of capped GEMM):
 * power held at 691.6 W mean (sd 1.8 W) under a 700 W cap, the clock moving
 * in 15 MHz bins between 1380 and 1545 MHz (median 1470), changing at most
 * once per ~100 ms telemetry period and in 78 % of them (7.8 changes/s),
 * mostly by one or two bins.  After a step in load, the first clock drop is
 * visible within ~100-120 ms.
 *
 * The controller here: at the end of each epoch (dvfs.epoch_ns, 100 ms) it
 * takes the measured mean power P over the epoch and
 *
 *   1. integrates the error against the set-point S = cap - margin:
 *      acc += S - P, clipped to +-max(margin, one bin's power) (anti-windup);
 *   2. asks for the highest bin whose predicted power, with the last
 *      epoch's activity per cycle, stays at or below S + acc;
 *   3. the decision takes effect dvfs.latency_ns later; while it is
 *      pending, no new decision is made (the next measurement would not
 *      see it yet).
 *
 * Step 2 brings a load step above the cap under it in one decision: the
 * error is clipped, so the request is at most cap - 2 margin, below the cap
 * by more than the prediction's error.  Step 1 makes the clock dither
 * between the two bins that bracket the set-point, with a duty cycle that
 * puts the mean power on the set-point: a first-order sigma-delta
 * modulator, and its dithering is the model's account of the measured
 * clock changes several times a second.  The price is that an epoch at the
 * upper bin may exceed the cap by up to one bin's power minus the margin
 * (~7 W at 1470 MHz on the H200); the mean stays at the set-point.  The
 * H200 does the same: its 1-s power averages reach 706.7 W under the 700 W
 * cap while their mean is 691.6 W.  The prediction is the power model itself
 * (silicon.c): the firmware's own estimate, which on real parts is likewise
 * calibrated per SKU.
 *
 * The thermal limit takes precedence: `hot` 2 forces at least one bin down
 * per decision, 1 forbids going up (the hysteresis band below slowdown_c).
 */
#include "skewsim/silicon.h"

int si_dvfs_decide(si_dvfs_domain *d, double measured_w, int top_bin, int hot,
                   si_predict_fn predict, void *ud, ps_t now, ps_t latency_ps)
{
    if (d->pend >= 0)
        return d->cur;
    double set = d->cap_w - d->margin_w;
    /* One bin's worth of power at the current clock: the integral must be
     * able to reach it, or the clock could never dither up to the bin
     * above the set-point. */
    int lo = SK_MIN(d->cur, top_bin - 1);
    double step = lo >= 0 ? predict(ud, lo + 1) - predict(ud, lo) : 0;
    double clip = SK_MAX(d->margin_w, step);
    d->acc_w += set - measured_w;
    d->acc_w = SK_MAX(-clip, SK_MIN(clip, d->acc_w));
    double want = set + d->acc_w;
    int b = top_bin;
    while (b > 0 && predict(ud, b) > want)
        b--;
    if (hot >= 2)
        b = SK_MIN(b, SK_MAX(0, d->cur - 1));
    else if (hot == 1)
        b = SK_MIN(b, d->cur);
    if (b != d->cur) {
        d->pend = b;
        d->pend_ps = now + latency_ps;
    }
    return b;
}
