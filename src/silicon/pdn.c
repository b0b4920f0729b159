/* pdn.c -- the on-die power grid as a resistive mesh, solved for IR drop.
 *
 * Model (VoltSpot-like, static: no inductance, no decap, so it gives the
 * IR part of the supply noise and not di/dt droop):
 *
 *   regulator (v_reg) --r_pkg-- package plane --g_bump[n]-- mesh node n
 *   mesh node (ix,iy) --r_x-- (ix+1,iy),  --r_y-- (ix,iy+1)
 *   each node n draws i_node[n] to ground.
 *
 * Nodal analysis gives, for the mesh voltages v and the plane voltage vp,
 *
 *   A v - g vp = -i          A = L + diag(g), L the mesh Laplacian
 *   (g_pkg + sum g) vp - g.v = g_pkg v_reg
 *
 * A is symmetric positive definite and banded: numbering the nodes along
 * the shorter side first, its half-bandwidth is min(nx, ny).  It does not
 * change between epochs, so it is factored once (gsl_linalg_cholesky_band_
 * decomp: O(n b^2)), and the plane node, which couples to every bumped node
 * and would destroy the band, is eliminated by a Schur complement: with
 * w = A^-1 g computed once,
 *
 *   vp = (g_pkg v_reg - g.y) / (g_pkg + sum g - g.w),   y = A^-1 i
 *   v  = w vp - y
 *
 * so one solve costs one banded triangular pair, O(n b).  A 32 x 32 mesh is
 * 1024 nodes at bandwidth 32: about 65 k multiply-adds per solve.
 *
 * A ground net with the same layout carries the same currents back, so the
 * caller passes loop resistances (both nets in series) and v is then the
 * supply the cells see.
 */
#include <math.h>
#include <stdlib.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include "skewsim/silicon.h"

struct si_pdn {
    int nx, ny, n, bw;          /* bw: half-bandwidth in the internal order */
    int row_major;              /* internal index = ix + nx*iy (else iy + ny*ix) */
    gsl_matrix *llt;            /* n x (bw + 1) banded Cholesky factor */
    double *g;                  /* bump conductances, internal order */
    double *w;                  /* A^-1 g */
    double g_pkg;               /* 0 with r_pkg == 0: the plane is the regulator */
    double denom;               /* g_pkg + sum g - g.w */
    double *tmp_in, *tmp_out;   /* scratch for one solve */
};

static int idx(const si_pdn *p, int ix, int iy)
{
    return p->row_major ? ix + p->nx * iy : iy + p->ny * ix;
}

si_pdn *si_pdn_create(int nx, int ny, double r_x_ohm, double r_y_ohm,
                      const double *g_bump_s, double r_pkg_ohm, sk_error *e)
{
    if (nx < 1 || ny < 1) {
        sk_errorf(e, SK_ECONFIG, "pdn: a %d x %d mesh: expected at least 1 x 1", nx, ny);
        return NULL;
    }
    if ((nx > 1 && !(r_x_ohm > 0)) || (ny > 1 && !(r_y_ohm > 0)) || !(r_pkg_ohm >= 0)) {
        sk_errorf(e, SK_ECONFIG, "pdn: segment resistances %g, %g Ohm and package %g Ohm: "
                  "expected positive segments and a package resistance >= 0",
                  r_x_ohm, r_y_ohm, r_pkg_ohm);
        return NULL;
    }
    double gsum = 0;
    for (int i = 0; i < nx * ny; i++) {
        if (!(g_bump_s[i] >= 0)) {
            sk_errorf(e, SK_ECONFIG, "pdn: node %d: bump conductance %g S: expected >= 0",
                      i, g_bump_s[i]);
            return NULL;
        }
        gsum += g_bump_s[i];
    }
    if (!(gsum > 0)) {
        sk_errorf(e, SK_ECONFIG, "pdn: no node has a bump: the grid has no supply");
        return NULL;
    }

    si_pdn *p = xcalloc(1, sizeof *p);
    p->nx = nx;
    p->ny = ny;
    p->n = nx * ny;
    p->row_major = nx <= ny;
    p->bw = p->row_major ? (ny > 1 ? nx : 1) : (nx > 1 ? ny : 1);
    p->llt = gsl_matrix_calloc((size_t)p->n, (size_t)p->bw + 1);
    p->g = xcalloc((size_t)p->n, sizeof *p->g);
    p->w = xcalloc((size_t)p->n, sizeof *p->w);
    p->tmp_in = xcalloc((size_t)p->n, sizeof *p->tmp_in);
    p->tmp_out = xcalloc((size_t)p->n, sizeof *p->tmp_out);

    /* Banded storage (GSL): llt(i, j) = A(i + j, i), the lower triangle. */
    double gx = nx > 1 ? 1 / r_x_ohm : 0, gy = ny > 1 ? 1 / r_y_ohm : 0;
    for (int iy = 0; iy < ny; iy++)
        for (int ix = 0; ix < nx; ix++) {
            int a = idx(p, ix, iy);
            double diag = g_bump_s[ix + nx * iy];
            p->g[a] = diag;
            if (ix + 1 < nx) {
                int b = idx(p, ix + 1, iy);
                diag += gx;
                int lo = SK_MIN(a, b), hi = SK_MAX(a, b);
                gsl_matrix_set(p->llt, (size_t)lo, (size_t)(hi - lo), -gx);
            }
            if (ix > 0)
                diag += gx;
            if (iy + 1 < ny) {
                int b = idx(p, ix, iy + 1);
                diag += gy;
                int lo = SK_MIN(a, b), hi = SK_MAX(a, b);
                gsl_matrix_set(p->llt, (size_t)lo, (size_t)(hi - lo), -gy);
            }
            if (iy > 0)
                diag += gy;
            gsl_matrix_set(p->llt, (size_t)a, 0, diag);
        }
    /* GSL's default handler aborts; a matrix that is not positive definite
     * is reported instead.  (It cannot happen for a connected mesh with one
     * bump, but a report is cheaper than a crash if it ever does.) */
    gsl_error_handler_t *old = gsl_set_error_handler_off();
    int rc = gsl_linalg_cholesky_band_decomp(p->llt);
    gsl_set_error_handler(old);
    if (rc) {
        sk_errorf(e, SK_ECONFIG, "pdn: the %d x %d grid matrix is not positive definite (%s)",
                  nx, ny, gsl_strerror(rc));
        si_pdn_destroy(p);
        return NULL;
    }
    gsl_vector_view gv = gsl_vector_view_array(p->g, (size_t)p->n);
    gsl_vector_view wv = gsl_vector_view_array(p->w, (size_t)p->n);
    gsl_linalg_cholesky_band_solve(p->llt, &gv.vector, &wv.vector);
    double gw = 0;
    for (int i = 0; i < p->n; i++)
        gw += p->g[i] * p->w[i];
    p->g_pkg = r_pkg_ohm > 0 ? 1 / r_pkg_ohm : 0;
    p->denom = p->g_pkg + gsum - gw;
    return p;
}

void si_pdn_destroy(si_pdn *p)
{
    if (!p)
        return;
    gsl_matrix_free(p->llt);
    free(p->g);
    free(p->w);
    free(p->tmp_in);
    free(p->tmp_out);
    free(p);
}

void si_pdn_solve(const si_pdn *p, double v_reg, const double *i_node, double *v_node,
                  double *v_pkg)
{
    for (int iy = 0; iy < p->ny; iy++)
        for (int ix = 0; ix < p->nx; ix++)
            p->tmp_in[idx(p, ix, iy)] = i_node[ix + p->nx * iy];
    gsl_vector_const_view iv = gsl_vector_const_view_array(p->tmp_in, (size_t)p->n);
    gsl_vector_view yv = gsl_vector_view_array(p->tmp_out, (size_t)p->n);
    gsl_linalg_cholesky_band_solve(p->llt, &iv.vector, &yv.vector);
    const double *y = p->tmp_out;
    double vp = v_reg;
    if (p->g_pkg > 0) {
        double gy = 0;
        for (int i = 0; i < p->n; i++)
            gy += p->g[i] * y[i];
        vp = (p->g_pkg * v_reg - gy) / p->denom;
    }
    for (int iy = 0; iy < p->ny; iy++)
        for (int ix = 0; ix < p->nx; ix++) {
            int a = idx(p, ix, iy);
            v_node[ix + p->nx * iy] = p->w[a] * vp - y[a];
        }
    if (v_pkg)
        *v_pkg = vp;
}
