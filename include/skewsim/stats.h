/* stats.h -- descriptive statistics across seeds, for `compare` and
 * `collect`: what a study reports for one kernel under one combination of
 * policies, and the speedup of one combination against a baseline.
 *
 * Conventions (docs/schedulers.md, "Statistics"):
 *  - quantiles interpolate linearly between order statistics (Hyndman and
 *    Fan's type 7, the default of R and NumPy): q(p) = x[h] + (h - floor h)
 *    (x[h+1] - x[h]) with h = (n - 1) p on the sorted sample, 0-based;
 *  - the standard deviation is the sample one (divisor n - 1); 0 for n = 1;
 *  - a speedup pairs runs by seed (the same seed draws the same silicon for
 *    both): r_i = base_i / x_i, and its 95 % interval is the Student-t
 *    interval of the mean of r_i, mean +- t(0.975, n - 1) s / sqrt(n).  With
 *    one seed there is no interval: lo = hi = NAN and `has_ci` is 0, and
 *    writers print null, never a number.
 */
#ifndef SKEWSIM_STATS_H
#define SKEWSIM_STATS_H

#include <stddef.h>

typedef struct stats_summary {
    size_t n;
    double mean, median, p99, stddev, min, max;
} stats_summary;

typedef struct stats_speedup {
    size_t n;
    double mean;              /* mean of the per-seed ratios base_i / x_i */
    double lo, hi;            /* 95 % interval; NAN when !has_ci */
    int has_ci;
} stats_speedup;

/* Summary of x[0..n-1] (n >= 1; the values are not modified). */
void stats_summarize(const double *x, size_t n, stats_summary *out);
/* The type-7 quantile p in [0, 1] of x[0..n-1] (n >= 1). */
double stats_quantile(const double *x, size_t n, double p);
/* Paired speedup of x against base over n seeds (n >= 1, every x_i > 0). */
void stats_speedup_paired(const double *base, const double *x, size_t n, stats_speedup *out);

#endif
