#include "stats/stats.h"
#include "core/alloc.h"
#include "core/record.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void pst_sort_doubles(double *x, size_t n) { qsort(x, n, sizeof *x, cmp_double); }

double pst_quantile_sorted(const double *sorted, size_t n, double q)
{
    if (n == 0) return NAN;
    if (q <= 0) return sorted[0];
    if (q >= 1) return sorted[n - 1];
    double h = q * (double)(n - 1);
    size_t lo = (size_t)floor(h);
    double frac = h - (double)lo;
    if (lo + 1 >= n) return sorted[n - 1];
    return sorted[lo] + frac * (sorted[lo + 1] - sorted[lo]);
}

pst_summary pst_summarize(const double *x, size_t n)
{
    pst_summary s = {.n = n, .min = NAN, .median = NAN, .mean = NAN, .max = NAN, .stddev = NAN};
    if (n == 0) return s;
    double *sorted = pst_malloc(n * sizeof *sorted);
    memcpy(sorted, x, n * sizeof *sorted);
    pst_sort_doubles(sorted, n);
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = pst_quantile_sorted(sorted, n, 0.5);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += sorted[i];
    s.mean = sum / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++) ss += (sorted[i] - s.mean) * (sorted[i] - s.mean);
    s.stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0;
    free(sorted);
    return s;
}

void pst_rec_times(pst_rec *r, const pst_summary *s)
{
    pst_rec_num(r, "t_min", s->min);
    pst_rec_num(r, "t_med", s->median);
    pst_rec_num(r, "t_mean", s->mean);
    pst_rec_num(r, "t_max", s->max);
    pst_rec_int(r, "reps", (long long)s->n);
}

/* Regularized incomplete beta I_x(a,b) by Lentz's continued fraction (converges fast for
 * x < (a+1)/(a+b+2); the symmetry relation covers the rest). */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    if (fabs(d) < tiny) d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((a - 1.0 + m2) * (a + m2));
        d = 1.0 + aa * d; if (fabs(d) < tiny) d = tiny;
        c = 1.0 + aa / c; if (fabs(c) < tiny) c = tiny;
        d = 1.0 / d; h *= d * c;
        aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2));
        d = 1.0 + aa * d; if (fabs(d) < tiny) d = tiny;
        c = 1.0 + aa / c; if (fabs(c) < tiny) c = tiny;
        d = 1.0 / d;
        double delta = d * c;
        h *= delta;
        if (fabs(delta - 1.0) < 1e-15) break;
    }
    return h;
}

static double incomplete_beta(double a, double b, double x)
{
    if (x <= 0) return 0;
    if (x >= 1) return 1;
    double lbeta = lgamma(a + b) - lgamma(a) - lgamma(b);
    double front = exp(lbeta + a * log(x) + b * log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0)) return front * beta_cf(a, b, x) / a;
    return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double pst_t_cdf(double t, double dof)
{
    double x = dof / (dof + t * t);
    double tail = 0.5 * incomplete_beta(dof / 2.0, 0.5, x);
    return t >= 0 ? 1.0 - tail : tail;
}

double pst_t_quantile(double p, double dof)
{
    if (p <= 0) return -INFINITY;
    if (p >= 1) return INFINITY;
    if (p == 0.5) return 0.0;
    /* Bracket then bisect: the CDF is monotone, and 200 halvings reach full precision. */
    double lo = -1.0, hi = 1.0;
    while (pst_t_cdf(lo, dof) > p) lo *= 2.0;
    while (pst_t_cdf(hi, dof) < p) hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-14 * fmax(1.0, fabs(hi)); i++) {
        double mid = 0.5 * (lo + hi);
        if (pst_t_cdf(mid, dof) < p) lo = mid; else hi = mid;
    }
    return 0.5 * (lo + hi);
}

void pst_mean_ci(const double *x, size_t n, double conf, double *lo, double *hi)
{
    pst_summary s = pst_summarize(x, n);
    if (n < 2) { *lo = *hi = s.mean; return; }
    double half = pst_t_quantile(0.5 + conf / 2.0, (double)(n - 1)) * s.stddev / sqrt((double)n);
    *lo = s.mean - half;
    *hi = s.mean + half;
}
