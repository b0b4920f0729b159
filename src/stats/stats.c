/* stats.c -- descriptive statistics across seeds (see stats.h for the
 * definitions, which are those of R's and NumPy's defaults). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_cdf.h>
#include "skewsim/common.h"
#include "skewsim/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double quantile_sorted(const double *s, size_t n, double p)
{
    double h = (double)(n - 1) * p;
    size_t lo = (size_t)floor(h);
    if (lo + 1 >= n)
        return s[n - 1];
    return s[lo] + (h - (double)lo) * (s[lo + 1] - s[lo]);
}

static double *sorted_copy(const double *x, size_t n)
{
    double *s = xmalloc(n * sizeof *s);
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    return s;
}

double stats_quantile(const double *x, size_t n, double p)
{
    double *s = sorted_copy(x, n);
    double q = quantile_sorted(s, n, p);
    free(s);
    return q;
}

/* Mean and sample standard deviation by Welford's update, which stays
 * exact for equal values (a constant sample gives exactly 0). */
static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
    double m = 0, m2 = 0;
    for (size_t i = 0; i < n; i++) {
        double d = x[i] - m;
        m += d / (double)(i + 1);
        m2 += d * (x[i] - m);
    }
    *mean = m;
    *sd = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0.0;
}

void stats_summarize(const double *x, size_t n, stats_summary *out)
{
    double *s = sorted_copy(x, n);
    out->n = n;
    mean_sd(x, n, &out->mean, &out->stddev);
    out->median = quantile_sorted(s, n, 0.5);
    out->p99 = quantile_sorted(s, n, 0.99);
    out->min = s[0];
    out->max = s[n - 1];
    free(s);
}

void stats_speedup_paired(const double *base, const double *x, size_t n, stats_speedup *out)
{
    double *r = xmalloc(n * sizeof *r);
    for (size_t i = 0; i < n; i++)
        r[i] = base[i] / x[i];
    double sd;
    out->n = n;
    mean_sd(r, n, &out->mean, &sd);
    free(r);
    out->has_ci = n > 1;
    if (!out->has_ci) {
        out->lo = out->hi = NAN;
        return;
    }
    double half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd / sqrt((double)n);
    out->lo = out->mean - half;
    out->hi = out->mean + half;
}
