/* thermal.c -- lumped RC temperatures, HotSpot-like but coarse.
 *
 *   block i (C_i) --g_i-- package / heat sink (C_pkg) --g_amb-- inlet (T_amb)
 *
 * Each floorplan block (an SM, the L2 band, a PHY or I/O strip) is one
 * node whose heat flows vertically through the die, the thermal interface
 * and the lid into a single package node; the package node loses it to the
 * coolant.  silicon.c sizes g_i and C_i by block area (thermal.block_*:
 * resistance times area and capacity per area are properties of the stack,
 * not of the block).  Lateral conduction between blocks is left out: over
 * the millimetre scale of an SM it is small next to the vertical path, and
 * the package node does the spreading.
 *
 * Integration is backward Euler, which is stable for any step; for accuracy
 * each call is cut into sub-steps of at most a twentieth of the fastest
 * time constant (the step response then lags the exact exponential by
 * under 1 % of the rise).  The star topology makes each implicit step closed-form: every
 * block temperature is an affine function of the new package temperature,
 * which one scalar equation then fixes.
 */
#include <math.h>
#include <stdlib.h>
#include "skewsim/silicon.h"

struct si_thermal {
    int n;
    double *c, *g, *t;
    double c_pkg, g_amb, t_amb, t_pkg;
    double tau_min;             /* s */
};

si_thermal *si_thermal_create(int n, const double *c_j_per_k, const double *g_w_per_k,
                              double c_pkg, double g_amb, double t_amb_c)
{
    si_thermal *th = xcalloc(1, sizeof *th);
    th->n = n;
    th->c = xcalloc((size_t)n, sizeof *th->c);
    th->g = xcalloc((size_t)n, sizeof *th->g);
    th->t = xcalloc((size_t)n, sizeof *th->t);
    th->c_pkg = c_pkg;
    th->g_amb = g_amb;
    th->t_amb = t_amb_c;
    th->t_pkg = t_amb_c;
    double gsum = 0;
    th->tau_min = HUGE_VAL;
    for (int i = 0; i < n; i++) {
        th->c[i] = c_j_per_k[i];
        th->g[i] = g_w_per_k[i];
        th->t[i] = t_amb_c;
        gsum += th->g[i];
        th->tau_min = SK_MIN(th->tau_min, th->c[i] / th->g[i]);
    }
    th->tau_min = SK_MIN(th->tau_min, c_pkg / (g_amb + gsum));
    return th;
}

void si_thermal_destroy(si_thermal *th)
{
    if (!th)
        return;
    free(th->c);
    free(th->g);
    free(th->t);
    free(th);
}

static void euler(si_thermal *th, const double *p_w, double p_pkg_w, double dt)
{
    double lhs = th->c_pkg / dt + th->g_amb, rhs = th->c_pkg / dt * th->t_pkg + p_pkg_w
                                                    + th->g_amb * th->t_amb;
    for (int i = 0; i < th->n; i++) {
        double a = th->c[i] / dt + th->g[i];
        double b = th->c[i] / dt * th->t[i] + p_w[i];
        lhs += th->g[i] - th->g[i] * th->g[i] / a;
        rhs += th->g[i] * b / a;
    }
    th->t_pkg = rhs / lhs;
    for (int i = 0; i < th->n; i++) {
        double a = th->c[i] / dt + th->g[i];
        th->t[i] = (th->c[i] / dt * th->t[i] + p_w[i] + th->g[i] * th->t_pkg) / a;
    }
}

void si_thermal_step(si_thermal *th, const double *p_w, double p_pkg_w, double dt_s)
{
    if (!(dt_s > 0))
        return;
    /* At most 2000 sub-steps: a call longer than 100 of the fastest time
     * constants finds that node at its steady state whatever the transient
     * (backward Euler is L-stable: with h = dt/2000 >= 5 tau each sub-step
     * still damps the fast mode by at least 6x, and the slow ones are
     * resolved), so more steps would buy nothing but time.  The H200's
     * fastest node (~9 ms) reaches the cap only in calls over 0.9 s. */
    double h = th->tau_min / 20;
    double nsub = ceil(dt_s / h);
    long n = nsub > 2000 ? 2000 : (long)nsub;
    for (long k = 0; k < n; k++)
        euler(th, p_w, p_pkg_w, dt_s / (double)n);
}

void si_thermal_steady(si_thermal *th, const double *p_w, double p_pkg_w)
{
    double total = p_pkg_w;
    for (int i = 0; i < th->n; i++)
        total += p_w[i];
    th->t_pkg = th->t_amb + total / th->g_amb;
    for (int i = 0; i < th->n; i++)
        th->t[i] = th->t_pkg + p_w[i] / th->g[i];
}

const double *si_thermal_temps(const si_thermal *th)
{
    return th->t;
}

double si_thermal_pkg(const si_thermal *th)
{
    return th->t_pkg;
}
