/* Piecewise latency/bandwidth models.  A message-passing library switches protocol with the
 * message size (eager, rendezvous, single-copy), and one straight line T = α + N/β through all
 * sizes misses by 30-70 %.  segfit finds the switch points from the data: it fits the linear
 * model separately on each segment of consecutive sizes, for every placement of up to
 * PST_SEGFIT_MAX_BREAKS breakpoints (each segment at least 3 sizes, so each has an interval),
 * and keeps the placement with the smallest BIC (Schwarz 1978) of the relative residuals, the
 * breakpoints counting as parameters.  A fit is not ok when its largest relative error exceeds
 * 15 %, its first segment has a negative latency, or any segment a negative bandwidth: it is then
 * reported as such, never printed as if it were valid.  (A later segment's intercept is the
 * offset of its regime, not a latency: it is negative when that regime costs more per byte.) */
#ifndef PST_SEGFIT_H
#define PST_SEGFIT_H

#include "core/record.h"
#include "stats/fit.h"

#include <stdbool.h>
#include <stddef.h>

enum { PST_SEGFIT_MAX_BREAKS = 3, PST_SEGFIT_MIN_POINTS = 3 };
#define PST_SEGFIT_MAX_ERR 0.15

typedef struct pst_segment {
    size_t from, to;            /* points [from, to) of the size-ordered input */
    pst_fit fit;                /* coef[0]: latency-like term, coef[1]: seconds per byte */
    double ci[2][2];            /* confidence interval of each coefficient */
} pst_segment;

typedef struct pst_segfit {
    size_t nseg;                /* 0: no fit (too few points or rank deficient) */
    pst_segment seg[PST_SEGFIT_MAX_BREAKS + 1];
    double max_rel_err;         /* largest |model − y| / y over all points */
    bool ok;
} pst_segfit;

/* Points i < n in ascending order of key[i] (the message size; equal keys never split), with
 * X (n × 2, row-major) and y > 0; weights 1/y² (relative errors).  conf: interval level. */
pst_segfit pst_segfit_run(size_t n, const double *X, const double *y, const long long *key, double conf);

/* The model's value for row x of segment s. */
double pst_segfit_eval(const pst_segment *s, const double *x);

/* Record fields: breakpoints_bytes, segments (from_bytes, to_bytes, npoints, alpha_s, alpha_ci,
 * beta_mbytes_per_s, beta_ci, and the same as t_l_s, t_l_ci95, t_s_s_per_byte, t_s_ci95),
 * model_max_rel_err, fit_ok.  key: the message sizes the fit ran on. */
void pst_rec_segfit(pst_rec *r, const pst_segfit *f, const long long *key);

/* One line for tables: "alpha 0.31 us, beta 10453 MB/s; breaks at 64K" or "FIT NOT OK (31 % error)". */
const char *pst_segfit_text(const pst_segfit *f, const long long *key, char *buf, size_t len);

#endif
