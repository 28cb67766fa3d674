#include "stats/verdict.h"

#include "core/alloc.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* P(Binomial(n, 1/2) <= m), summed in log space so n in the thousands stays exact enough. */
static double binom_half_cdf(size_t n, size_t m)
{
    double sum = 0, ln_half_n = -(double)n * log(2.0), lg_n1 = lgamma((double)n + 1);
    for (size_t i = 0; i <= m && i <= n; i++)
        sum += exp(lg_n1 - lgamma((double)i + 1) - lgamma((double)(n - i) + 1) + ln_half_n);
    return sum;
}

size_t pst_sign_rank(size_t n, double alpha)
{
    size_t j = 0;
    while (j + 1 <= n && binom_half_cdf(n, j) <= alpha) j++;
    return j;
}

static double *sorted_copy(const double *x, size_t n)
{
    double *s = pst_malloc((n ? n : 1) * sizeof *s);
    memcpy(s, x, n * sizeof *s);
    pst_sort_doubles(s, n);
    return s;
}

double pst_median_ci(const double *x, size_t n, double conf, double *lo, double *hi)
{
    double *s = sorted_copy(x, n);
    double median = pst_quantile_sorted(s, n, 0.5);
    size_t j = pst_sign_rank(n, (1 - conf) / 2);
    *lo = j ? s[j - 1] : NAN;
    *hi = j ? s[n - j] : NAN;
    free(s);
    return median;
}

const char *pst_sensitivity_class(double rel)
{
    if (!isfinite(rel)) return "n/a";
    return rel <= 0.05 ? "low" : rel >= 0.15 ? "high" : "moderate";
}

static double *log_ratios(const double *a, const double *b, size_t n)
{
    double *d = pst_malloc((n ? n : 1) * sizeof *d);
    for (size_t r = 0; r < n; r++) d[r] = log(a[r]) - log(b[r]);
    return d;
}

pst_ratio pst_paired_ratio(const double *a, const double *b, size_t n, double conf, double margin)
{
    double *d = log_ratios(a, b, n), lo, hi;
    double med = pst_median_ci(d, n, conf, &lo, &hi);
    free(d);
    pst_ratio r = {exp(med), exp(lo), exp(hi), false};
    double band = log1p(margin);
    r.significant = isfinite(lo) && (lo > band || hi < -band);
    return r;
}

/* Median over alternatives of v (NaN entries make the result NaN). */
static double median_of(const double *v, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (!isfinite(v[i])) return NAN;
    double *s = sorted_copy(v, k);
    double m = pst_quantile_sorted(s, k, 0.5);
    free(s);
    return m;
}

pst_verdict pst_verdict_of(const double *t, size_t k, size_t n, double conf, double margin, bool *in_set,
                           double *median, double *lo, double *hi)
{
    pst_verdict v = {.k = k, .n = n};
    double *med = pst_malloc((k ? k : 1) * 3 * sizeof *med), *mlo = med + k, *mhi = mlo + k;
    for (size_t i = 0; i < k; i++) {
        med[i] = pst_median_ci(&t[i * n], n, conf, &mlo[i], &mhi[i]);
        if (med[i] < med[v.best]) v.best = i;
    }
    /* Subset selection against the empirical best: i stays unless the lower confidence bound of
     * its paired log-ratio exceeds the margin. */
    size_t j = k > 1 ? pst_sign_rank(n, (1 - conf) / (double)(k - 1)) : 0;
    double band = log1p(margin);
    for (size_t i = 0; i < k; i++) {
        in_set[i] = true;
        if (i == v.best || !j) continue;
        double *d = log_ratios(&t[i * n], &t[v.best * n], n);
        pst_sort_doubles(d, n);
        in_set[i] = d[j - 1] <= band;
        free(d);
    }
    for (size_t i = 0; i < k; i++) v.nbest += in_set[i];
    v.decided = v.nbest == 1;

    v.best_median = k ? med[v.best] : NAN;
    /* The spread over alternatives, paired: each one's ratio to the best (exp of the median
     * per-round log-ratio) minus 1, and the median of that over the alternatives; its interval
     * takes the same median over each ratio's interval ends. */
    double *rel = pst_malloc((k ? k : 1) * 3 * sizeof *rel), *rel_lo = rel + k, *rel_hi = rel_lo + k;
    for (size_t i = 0; i < k; i++) {
        pst_ratio q = pst_paired_ratio(&t[i * n], &t[v.best * n], n, conf, margin);
        rel[i] = q.ratio - 1;
        rel_lo[i] = i == v.best ? 0 : q.lo - 1;
        rel_hi[i] = i == v.best ? 0 : q.hi - 1;
    }
    v.median_rel = median_of(rel, k);
    v.median_rel_lo = fmax(0, median_of(rel_lo, k)); /* no alternative beats the best by definition */
    v.median_rel_hi = median_of(rel_hi, k);
    free(rel);
    v.level_lo = pst_sensitivity_class(v.median_rel_lo);
    v.level_hi = pst_sensitivity_class(v.median_rel_hi);
    v.level = !strcmp(v.level_lo, v.level_hi) && strcmp(v.level_lo, "n/a") ? v.level_lo : "undetermined";
    if (median) memcpy(median, med, k * sizeof *med);
    if (lo) memcpy(lo, mlo, k * sizeof *mlo);
    if (hi) memcpy(hi, mhi, k * sizeof *mhi);
    free(med);
    return v;
}
