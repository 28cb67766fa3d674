/* Statistics, Student t, confidence intervals and least-squares fits against known answers. */
#include "check.h"
#include "stats/fit.h"
#include "stats/sensitivity.h"
#include "stats/stats.h"

#include <stdlib.h>
#include <string.h>

static void test_summary(void)
{
    double x[] = {5, 1, 4, 2, 3};
    pst_summary s = pst_summarize(x, 5);
    CHECK(s.n == 5);
    CHECK_CLOSE(s.min, 1, 0, 0);
    CHECK_CLOSE(s.max, 5, 0, 0);
    CHECK_CLOSE(s.median, 3, 0, 0);
    CHECK_CLOSE(s.mean, 3, 1e-15, 0);
    CHECK_CLOSE(s.stddev, sqrt(2.5), 1e-15, 0);
    CHECK(x[0] == 5); /* input untouched */
    double even[] = {4, 1, 3, 2};
    CHECK_CLOSE(pst_summarize(even, 4).median, 2.5, 0, 0);
    pst_summary e = pst_summarize(NULL, 0);
    CHECK(e.n == 0 && isnan(e.mean));
    double one[] = {7};
    CHECK_CLOSE(pst_summarize(one, 1).stddev, 0, 0, 0);
}

static void test_quantile(void)
{
    double s[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    /* numpy.quantile(arange(1,11), [0.1, 0.25, 0.9]) = 1.9, 3.25, 9.1 */
    CHECK_CLOSE(pst_quantile_sorted(s, 10, 0.1), 1.9, 1e-12, 0);
    CHECK_CLOSE(pst_quantile_sorted(s, 10, 0.25), 3.25, 1e-12, 0);
    CHECK_CLOSE(pst_quantile_sorted(s, 10, 0.9), 9.1, 1e-12, 0);
    CHECK_CLOSE(pst_quantile_sorted(s, 10, 0), 1, 0, 0);
    CHECK_CLOSE(pst_quantile_sorted(s, 10, 1), 10, 0, 0);
}

static void test_student_t(void)
{
    /* Tables: t_{0.975,1} = 12.7062047, t_{0.975,10} = 2.22813885, t_{0.995,5} = 4.03214298,
     * t_{0.95,30} = 1.69726089; large dof tends to the normal 1.95996398. */
    CHECK_CLOSE(pst_t_quantile(0.975, 1), 12.706204736, 1e-8, 0);
    CHECK_CLOSE(pst_t_quantile(0.975, 10), 2.228138852, 1e-8, 0);
    CHECK_CLOSE(pst_t_quantile(0.995, 5), 4.032142984, 1e-8, 0);
    CHECK_CLOSE(pst_t_quantile(0.95, 30), 1.697260887, 1e-8, 0);
    CHECK_CLOSE(pst_t_quantile(0.975, 1e6), 1.959965, 1e-5, 0);
    CHECK_CLOSE(pst_t_quantile(0.025, 10), -2.228138852, 1e-8, 0);
    CHECK_CLOSE(pst_t_cdf(0, 3), 0.5, 1e-15, 0);
    CHECK_CLOSE(pst_t_cdf(2.228138852, 10), 0.975, 1e-9, 0);
}

static void test_mean_ci(void)
{
    double x[] = {10, 12, 11, 13, 9, 11, 12, 10};
    double lo, hi;
    pst_mean_ci(x, 8, 0.95, &lo, &hi);
    /* mean 11, sd 1.309307, t_{0.975,7} = 2.364624, half width = 1.0946083 */
    CHECK_CLOSE(lo, 11 - 1.0946083, 1e-6, 0);
    CHECK_CLOSE(hi, 11 + 1.0946083, 1e-6, 0);
}

static void test_linfit_exact(void)
{
    double x[] = {1, 2, 3, 4, 5}, y[5];
    for (int i = 0; i < 5; i++) y[i] = 3.0 + 0.5 * x[i];
    pst_fit f;
    CHECK(pst_linfit(5, x, y, NULL, &f) == 0);
    CHECK_CLOSE(f.coef[0], 3.0, 1e-13, 0);
    CHECK_CLOSE(f.coef[1], 0.5, 1e-13, 0);
    CHECK_CLOSE(f.r2, 1.0, 1e-13, 0);
    CHECK(f.rss < 1e-24);
}

static void test_linfit_noisy(void)
{
    /* Anscombe's first quartet: a = 3.0001, b = 0.5001, r2 = 0.6665, se(b) = 0.1179 */
    double x[] = {10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5};
    double y[] = {8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68};
    pst_fit f;
    CHECK(pst_linfit(11, x, y, NULL, &f) == 0);
    CHECK_CLOSE(f.coef[0], 3.0000909, 1e-6, 0);
    CHECK_CLOSE(f.coef[1], 0.5000909, 1e-6, 0);
    CHECK_CLOSE(f.r2, 0.6665425, 1e-6, 0);
    CHECK_CLOSE(f.se[1], 0.1179055, 1e-6, 0);
    CHECK_CLOSE(f.se[0], 1.1247468, 1e-6, 0);
    double lo, hi;
    pst_fit_ci(&f, 1, 0.95, &lo, &hi);
    CHECK_CLOSE(hi - lo, 2 * 2.262157 * 0.1179055, 1e-5, 0);
}

static void test_lsq_three_params(void)
{
    /* y = 2 + 3n + 0.25 n(n-1), the shape of the matching-cost model, recovered exactly. */
    double X[3 * 10], y[10];
    for (int i = 0; i < 10; i++) {
        double n = i + 1;
        X[3 * i] = 1; X[3 * i + 1] = n; X[3 * i + 2] = n * (n - 1);
        y[i] = 2 + 3 * n + 0.25 * n * (n - 1);
    }
    pst_fit f;
    CHECK(pst_lsq(10, 3, X, y, NULL, &f) == 0);
    CHECK_CLOSE(f.coef[0], 2, 1e-11, 0);
    CHECK_CLOSE(f.coef[1], 3, 1e-11, 0);
    CHECK_CLOSE(f.coef[2], 0.25, 1e-12, 0);
}

static void test_lsq_weighted_and_degenerate(void)
{
    /* Weights: an outlier with weight ~0 is ignored. */
    double x[] = {1, 2, 3, 4}, y[] = {1, 2, 3, 100}, w[] = {1, 1, 1, 1e-20};
    pst_fit f;
    CHECK(pst_linfit(4, x, y, w, &f) == 0);
    CHECK_CLOSE(f.coef[1], 1, 1e-6, 0);
    /* Rank deficient (x constant) and too few points are refused. */
    double xc[] = {2, 2, 2}, yc[] = {1, 2, 3};
    CHECK(pst_linfit(3, xc, yc, NULL, &f) == -1);
    CHECK(pst_linfit(1, x, y, NULL, &f) == -1);
}

static void test_sensitivity(void)
{
    double t[] = {1.00, 1.004, 1.03, 1.2, 2.0, 1.1};
    pst_sensitivity s = pst_sensitivity_of(t, 6);
    CHECK(s.n == 6);
    CHECK_CLOSE(s.min, 1.0, 0, 0);
    CHECK_CLOSE(s.max_rel, 1.0, 1e-15, 0);
    CHECK_CLOSE(s.median_rel, (1.03 + 1.1) / 2 - 1, 1e-12, 0);
    CHECK(s.within[0] == 2 && s.within[1] == 3 && s.within[2] == 5);
    CHECK(s.norder == 5 && s.order[0] == 0 && s.order[1] == 1 && s.order[2] == 2 && s.order[3] == 5 && s.order[4] == 3);
    CHECK(!strcmp(s.level, "moderate"));
    double flat[] = {1, 1.01, 1.02};
    CHECK(!strcmp(pst_sensitivity_of(flat, 3).level, "low"));
    double nan_skipped[] = {NAN, 2, 4};
    pst_sensitivity n = pst_sensitivity_of(nan_skipped, 3);
    CHECK(n.n == 2 && n.order[0] == 1 && !strcmp(n.level, "high"));
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    test_summary();
    test_quantile();
    test_student_t();
    test_mean_ci();
    test_linfit_exact();
    test_linfit_noisy();
    test_lsq_three_params();
    test_lsq_weighted_and_degenerate();
    test_sensitivity();
    CHECK_MAIN_END();
}
