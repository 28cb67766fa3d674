/* Verdicts with their confidence: which of k alternatives measured in the same rounds is
 * fastest, as a set of alternatives the data cannot tell apart from the best.
 *
 * The statistic is the median over rounds (a minimum has no usable confidence interval).
 * Intervals are distribution-free: order statistics chosen from the binomial(n, 1/2) law of
 * the sign test, so a stall that hits a few samples moves no bound by more than it moves the
 * order statistics.  Alternatives are compared paired by round, through per-round log-ratios,
 * so what slowed one round slowed both sides.  The best set is subset selection by multiple
 * comparisons with the best (Gupta 1965; Hsu 1984): alternative i is dropped only when its
 * paired log-ratio against the empirically fastest is, with confidence, above ln(1 + margin),
 * with a Bonferroni split of 1 − confidence over the k − 1 comparisons.  Two alternatives
 * closer than the margin are a tie by definition.  docs/statistics.md explains the choices. */
#ifndef PST_VERDICT_H
#define PST_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

/* The largest j >= 1 with P(Binomial(n, 1/2) <= j − 1) <= alpha, or 0 when there is none (n too
 * small for that level).  The order statistic x_(j) is then a lower bound at level 1 − alpha. */
size_t pst_sign_rank(size_t n, double alpha);

/* Median (type 7) of x[0..n) and its two-sided interval [x_(j), x_(n−j+1)] at level conf;
 * lo = hi = NaN when n is too small for conf.  Returns the median. */
double pst_median_ci(const double *x, size_t n, double conf, double *lo, double *hi);

/* Sensitivity class of a relative spread (median − min)/min: "low" (<= 5 %), "moderate",
 * "high" (>= 15 %), as Worley and Foster classified protocol sensitivity. */
const char *pst_sensitivity_class(double rel);

/* The paired ratio of a against b over n rounds: exp(median of ln a_r − ln b_r) with its
 * two-sided interval at conf; significant when the interval lies wholly outside
 * [1/(1+margin), 1+margin]. */
typedef struct pst_ratio {
    double ratio, lo, hi;
    bool significant;
} pst_ratio;
pst_ratio pst_paired_ratio(const double *a, const double *b, size_t n, double conf, double margin);

typedef struct pst_verdict {
    size_t k, n;
    size_t best;            /* index of the smallest median */
    double best_median;
    size_t nbest;           /* members of the best set */
    bool decided;           /* nbest == 1 */
    double median_rel;      /* median over alternatives of (paired ratio to the best − 1) */
    double median_rel_lo, median_rel_hi;   /* the same over the ratios' interval ends */
    const char *level;      /* class of median_rel, or "undetermined" when its ends differ */
    const char *level_lo, *level_hi;
} pst_verdict;

/* t is k × n, row i holding alternative i's time in each round (t[i*n + r] > 0).  in_set[i]
 * (k entries, written) says whether alternative i is in the best set.  median, lo, hi (k
 * entries each, written; may be NULL) receive each alternative's median and interval. */
pst_verdict pst_verdict_of(const double *t, size_t k, size_t n, double conf, double margin, bool *in_set,
                           double *median, double *lo, double *hi);

#endif
