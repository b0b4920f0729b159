/* variation.c -- per-SM process variation: threshold voltage (or Fmax).
 *
 * VARIUS (Sarangi, Greskamp, Teodorescu, Nakano, Tiwari and Torrellas, IEEE
 * Trans. Semiconductor Manufacturing 21(1), 2008) splits the within-die
 * variation of Vth into a systematic part, a Gaussian random field whose
 * correlation falls with distance r as the spherical function
 *
 *     rho(r) = 1 - 3/2 (r/phi) + 1/2 (r/phi)^3   for r <= phi, 0 beyond,
 *
 * and a random part independent from device to device.  With VARIUS's
 * parameters (sigma/mu = 9 % in total, the variance split equally, phi =
 * half the chip width) the preset `skewed` draws, for SM i at centre c_i,
 *
 *     Vth_i = Vth_nom (1 + s_i + r_i),
 *     s = sigma_sys L z  (L L^T the correlation matrix over SM centres, z ~ N(0, I)),
 *     r_i ~ N(0, sigma_rnd^2),
 *
 * sigma_sys^2 = sys_pct * sigma^2, sigma_rnd^2 = (1 - sys_pct) sigma^2.
 * Distances are in units of the die width, as VARIUS states phi.
 *
 * Approximation: VARIUS's random part is per transistor; a unit's critical
 * path delay then depends on the slowest of many paths, which shifts and
 * narrows it.  We keep one independent draw per SM, as if each SM were one
 * critical path: this overstates the SM-to-SM random spread, which makes
 * `skewed` an upper-end what-if rather than a prediction.  The measured
 * H200 (preset `uniform`) shows no SM-to-SM spread at all (per-SM clocks
 * within 0.3 %, validation/h200/README.md point 3).
 *
 * The stream: gsl_rng_mt19937 seeded with a SplitMix64 hash of sim.seed
 * (mt19937 takes only 32 bits of a seed; hashing first keeps distinct
 * 64-bit seeds distinct in practice); first the n systematic normals, then
 * the n random ones, in SM order.  Same seed, same map, bit for bit.
 *
 * Preset `file`: silicon.map_file is a CSV with the header `sm,vth_mv` or
 * `sm,fmax_scale` and one row per SM; '#' starts a comment line.  vth_mv
 * replaces the SM's threshold; fmax_scale multiplies its attainable clock at
 * any voltage (1 = nominal) and leaves its Vth nominal.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include "skewsim/silicon.h"

double si_spherical_corr(double r, double phi)
{
    if (r >= phi)
        return 0;
    double q = r / phi;
    return 1 - 1.5 * q + 0.5 * q * q * q;
}

static uint64_t splitmix64(uint64_t x)
{
    return sk_mix64(x + 0x9e3779b97f4a7c15ULL);
}

static int varius_map(const cfg *c, const si_floorplan *fp, double *vth_mv, sk_error *e)
{
    int n = fp->nsms;
    double sigma = c->var_sigma_permille / 1000.0;
    double s_sys = sigma * sqrt(c->var_sys_pct / 100.0);
    double s_rnd = sigma * sqrt(1 - c->var_sys_pct / 100.0);
    double phi = c->var_phi_permille / 1000.0;

    gsl_matrix *r = gsl_matrix_alloc((size_t)n, (size_t)n);
    for (int i = 0; i < n; i++) {
        const si_block *a = &fp->blocks[i];
        double ax = 0.5 * (a->x0_um + a->x1_um) / fp->w_um;
        double ay = 0.5 * (a->y0_um + a->y1_um) / fp->w_um;
        for (int j = 0; j <= i; j++) {
            const si_block *b = &fp->blocks[j];
            double bx = 0.5 * (b->x0_um + b->x1_um) / fp->w_um;
            double by = 0.5 * (b->y0_um + b->y1_um) / fp->w_um;
            double rho = si_spherical_corr(hypot(ax - bx, ay - by), phi);
            /* A relative 1e-10 on the diagonal keeps the factorisation
             * well-posed when two centres nearly coincide; its effect on
             * the draws is far below any tolerance that matters. */
            if (i == j)
                rho += 1e-10;
            gsl_matrix_set(r, (size_t)i, (size_t)j, rho);
            gsl_matrix_set(r, (size_t)j, (size_t)i, rho);
        }
    }
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_linalg_cholesky_decomp1(r);
    gsl_set_error_handler(old);
    if (rc) {
        gsl_matrix_free(r);
        return sk_errorf(e, SK_ECONFIG, "variation: the correlation matrix over %d SM centres "
                         "is not positive definite (%s)", n, gsl_strerror(rc));
    }

    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, (unsigned long)(splitmix64(c->seed) & 0xffffffffUL));
    double *z = xcalloc((size_t)n, sizeof *z);
    for (int i = 0; i < n; i++)
        z[i] = gsl_ran_gaussian(rng, 1.0);
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j <= i; j++)      /* lower triangle holds L */
            s += gsl_matrix_get(r, (size_t)i, (size_t)j) * z[j];
        double rnd = gsl_ran_gaussian(rng, 1.0);
        double rel = s_sys * s + s_rnd * rnd;
        /* Only reachable with sigma near the key's upper bound: a
         * threshold at or below zero has no meaning in the law. */
        vth_mv[i] = c->vf_vth_mv * SK_MAX(1 + rel, 0.01);
    }
    free(z);
    gsl_rng_free(rng);
    gsl_matrix_free(r);
    return 0;
}

/* ---- map file --------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno != 0 || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *s, long *out)
{
    char *end;
    if (*s == '\0' || *s == '+' || *s == ' ')
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (*end != '\0' || errno != 0)
        return -1;
    *out = v;
    return 0;
}

static int file_map(const cfg *c, int n, double *vth_mv, double *fscale, sk_error *e)
{
    const char *path = c->si_map_file;
    if (path[0] == '\0')
        return sk_errorf(e, SK_ECONFIG, "config: silicon.map_file: (empty): expected a CSV "
                         "file for silicon.preset file");
    FILE *f = fopen(path, "r");
    if (!f)
        return sk_errorf(e, SK_EIO, "%s: cannot open: %s", path, strerror(errno));

    enum { NONE, VTH, SCALE } kind = NONE;
    int *line_of = xcalloc((size_t)n, sizeof *line_of);
    char buf[256];
    int line = 0, rc = 0;
    while (rc == 0 && fgets(buf, sizeof buf, f)) {
        line++;
        if (!strchr(buf, '\n') && !feof(f)) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: line longer than %zu characters", path, line,
                           sizeof buf - 2);
            break;
        }
        char *s = trim(buf);
        if (*s == '\0' || *s == '#')
            continue;
        char *comma = strchr(s, ',');
        if (kind == NONE) {
            if (strcmp(s, "sm,vth_mv") == 0)
                kind = VTH;
            else if (strcmp(s, "sm,fmax_scale") == 0)
                kind = SCALE;
            else
                rc = sk_errorf(e, SK_ECONFIG, "%s:%d: header '%.60s': expected 'sm,vth_mv' or "
                               "'sm,fmax_scale'", path, line, s);
            continue;
        }
        if (!comma || strchr(comma + 1, ',')) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: '%.60s': expected 'SM,VALUE'", path, line, s);
            break;
        }
        *comma = '\0';
        char *a = trim(s), *b = trim(comma + 1);
        long sm;
        double v;
        if (parse_int(a, &sm) != 0 || sm < 0 || sm >= n) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: sm '%.20s': expected an SM id in 0..%d",
                           path, line, a, n - 1);
            break;
        }
        if (line_of[sm]) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: sm %ld: a second row (the first is at line %d)",
                           path, line, sm, line_of[sm]);
            break;
        }
        if (kind == VTH && (parse_double(b, &v) != 0 || v <= 0 || v >= c->vf_vnom_mv)) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: vth_mv '%.20s': expected a number above 0 "
                           "and below vf.vnom_mv (%d)", path, line, b, c->vf_vnom_mv);
            break;
        }
        if (kind == SCALE && (parse_double(b, &v) != 0 || v <= 0 || v > 10)) {
            rc = sk_errorf(e, SK_ECONFIG, "%s:%d: fmax_scale '%.20s': expected a number above 0 "
                           "and at most 10", path, line, b);
            break;
        }
        line_of[sm] = line;
        if (kind == VTH)
            vth_mv[sm] = v;
        else
            fscale[sm] = v;
    }
    if (rc == 0 && ferror(f))
        rc = sk_errorf(e, SK_EIO, "%s: cannot read: %s", path, strerror(errno));
    if (rc == 0 && kind == NONE)
        rc = sk_errorf(e, SK_ECONFIG, "%s: no header: expected 'sm,vth_mv' or 'sm,fmax_scale'",
                       path);
    for (int i = 0; rc == 0 && i < n; i++)
        if (!line_of[i])
            rc = sk_errorf(e, SK_ECONFIG, "%s: sm %d has no row: expected one row for each of "
                           "the %d SMs", path, i, n);
    free(line_of);
    fclose(f);
    return rc;
}

int si_variation_map(const cfg *c, const si_floorplan *fp, double *vth_mv, double *fscale,
                     sk_error *e)
{
    int n = fp->nsms;
    for (int i = 0; i < n; i++) {
        vth_mv[i] = c->vf_vth_mv;
        fscale[i] = 1;
    }
    switch (c->si_preset) {
    case SI_PRESET_VARIUS:
    case SI_PRESET_SKEWED:   /* the old name */
        return varius_map(c, fp, vth_mv, e);
    case SI_PRESET_FILE:
        return file_map(c, n, vth_mv, fscale, e);
    default:
        return 0;
    }
}
