/* Descriptive statistics and confidence intervals over repetition samples. */
#ifndef PST_STATS_H
#define PST_STATS_H

#include <stddef.h>

typedef struct pst_summary {
    size_t n;
    double min, median, mean, max;
    double stddev; /* sample standard deviation (n-1); 0 when n < 2 */
} pst_summary;

/* Summary of x[0..n) (x is not modified). n == 0 gives all-NaN with n = 0. */
pst_summary pst_summarize(const double *x, size_t n);

struct pst_rec;
/* t_min, t_med, t_mean, t_max (seconds) and reps of a summary into a record (stats_schema.h's times). */
void pst_rec_times(struct pst_rec *r, const pst_summary *s);

/* Quantile q in [0,1] of an ascending array, linear interpolation between order statistics
 * (type 7 of Hyndman & Fan, numpy's default). */
double pst_quantile_sorted(const double *sorted, size_t n, double q);

/* Sort ascending in place. */
void pst_sort_doubles(double *x, size_t n);

/* Student t distribution: CDF and its inverse (dof > 0). */
double pst_t_cdf(double t, double dof);
double pst_t_quantile(double p, double dof);

/* Two-sided confidence interval for the mean at level conf (e.g. 0.95), t-based.
 * With n < 2 the interval is [mean, mean]. */
void pst_mean_ci(const double *x, size_t n, double conf, double *lo, double *hi);

#endif
