/* test_stats.c -- compare's statistics (src/stats/stats.c) against values
 * worked out by hand (the working is in each comment). */
#include <math.h>
#include "tests.h"
#include "skewsim/stats.h"

#define EPS 1e-9

/* x = 3 1 4 1 5: sorted 1 1 3 4 5; mean 14/5 = 2.8; squared deviations
 * 0.04 + 3.24 + 1.44 + 3.24 + 4.84 = 12.8, / (n - 1) = 3.2, sd = sqrt 3.2;
 * median s[2] = 3; p99: h = 4 x 0.99 = 3.96, s[3] + 0.96 (s[4] - s[3]) = 4.96. */
START_TEST(summary_by_hand)
{
    const double x[] = {3, 1, 4, 1, 5};
    stats_summary s;
    stats_summarize(x, 5, &s);
    ck_assert_uint_eq(s.n, 5);
    ck_assert_double_eq_tol(s.mean, 2.8, EPS);
    ck_assert_double_eq_tol(s.stddev, sqrt(3.2), EPS);
    ck_assert_double_eq_tol(s.median, 3.0, EPS);
    ck_assert_double_eq_tol(s.p99, 4.96, EPS);
    ck_assert_double_eq_tol(s.min, 1.0, EPS);
    ck_assert_double_eq_tol(s.max, 5.0, EPS);
    /* the input is left as it was */
    ck_assert_double_eq(x[0], 3.0);
    ck_assert_double_eq(x[4], 5.0);
}
END_TEST

/* Type-7 quantiles of 1 1 3 4 5: p = 0.6 gives h = 2.4, 3 + 0.4 = 3.4;
 * p = 0.25 gives h = 1, s[1] = 1; the ends are the extremes.  An even
 * sample's median is the mean of the middle two. */
START_TEST(quantiles_by_hand)
{
    const double x[] = {5, 4, 3, 1, 1};
    ck_assert_double_eq_tol(stats_quantile(x, 5, 0.6), 3.4, EPS);
    ck_assert_double_eq_tol(stats_quantile(x, 5, 0.25), 1.0, EPS);
    ck_assert_double_eq_tol(stats_quantile(x, 5, 0.0), 1.0, EPS);
    ck_assert_double_eq_tol(stats_quantile(x, 5, 1.0), 5.0, EPS);
    const double y[] = {10, 2, 8, 4};
    ck_assert_double_eq_tol(stats_quantile(y, 4, 0.5), 6.0, EPS);
}
END_TEST

/* One value: sd 0, every quantile that value. */
START_TEST(single_value)
{
    const double x[] = {7.5};
    stats_summary s;
    stats_summarize(x, 1, &s);
    ck_assert_double_eq(s.stddev, 0.0);
    ck_assert_double_eq(s.median, 7.5);
    ck_assert_double_eq(s.p99, 7.5);
    stats_speedup sp;
    stats_speedup_paired(x, x, 1, &sp);
    ck_assert_double_eq_tol(sp.mean, 1.0, EPS);
    ck_assert_int_eq(sp.has_ci, 0);
    ck_assert(isnan(sp.lo) && isnan(sp.hi));
}
END_TEST

/* base 10 10 10 against 5, 4, 10/3: ratios 2, 2.5, 3; mean 2.5, sd 0.5;
 * t(0.975, 2) = 4.302652729911275 (any t table), half width
 * 4.302652729911275 x 0.5 / sqrt 3 = 1.242068...; interval 1.2579..3.7420. */
START_TEST(speedup_by_hand)
{
    const double base[] = {10, 10, 10}, x[] = {5, 4, 10.0 / 3.0};
    stats_speedup sp;
    stats_speedup_paired(base, x, 3, &sp);
    double half = 4.302652729911275 * 0.5 / sqrt(3.0);
    ck_assert_uint_eq(sp.n, 3);
    ck_assert_double_eq_tol(sp.mean, 2.5, EPS);
    ck_assert_int_eq(sp.has_ci, 1);
    ck_assert_double_eq_tol(sp.lo, 2.5 - half, 1e-7);
    ck_assert_double_eq_tol(sp.hi, 2.5 + half, 1e-7);
    ck_assert(sp.lo > 1.25 && sp.hi < 3.75);
}
END_TEST

/* Equal ratios: a zero-width interval, exactly. */
START_TEST(speedup_constant)
{
    const double base[] = {10, 12, 14, 16}, x[] = {5, 6, 7, 8};
    stats_speedup sp;
    stats_speedup_paired(base, x, 4, &sp);
    ck_assert_double_eq(sp.mean, 2.0);
    ck_assert_double_eq(sp.lo, 2.0);
    ck_assert_double_eq(sp.hi, 2.0);
}
END_TEST

Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, summary_by_hand);
    tcase_add_test(tc, quantiles_by_hand);
    tcase_add_test(tc, single_value);
    tcase_add_test(tc, speedup_by_hand);
    tcase_add_test(tc, speedup_constant);
    suite_add_tcase(s, tc);
    return s;
}
