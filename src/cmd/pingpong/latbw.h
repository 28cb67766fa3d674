/* Latency/bandwidth analysis of a message-size sweep (Frese & Knipp 1998): the linear model
 * T(N) = t_l + N·t_s fitted by least squares over a window of large messages, its residuals,
 * and the point where the bandwidth N/T(N) peaks. */
#ifndef PST_LATBW_H
#define PST_LATBW_H

#include "stats/fit.h"

#include <stddef.h>

typedef struct pst_latbw {
    size_t npoints;          /* sizes inside the window */
    pst_fit fit;             /* coef[0] = t_l (s), coef[1] = t_s (s per byte); valid when fitted */
    int fitted;              /* 1 when npoints >= 2 and the sizes differ */
    double t_l_ci95[2], t_s_ci95[2];
    double max_abs_resid_s;  /* max |T_observed − T_model| over the window */
    double max_rel_resid;    /* the same relative to T_observed */
    size_t peak;             /* index of the peak bandwidth N/T (first of ties; sizes > 0 only) */
    double peak_bytes_per_s; /* 0 when no size > 0 */
} pst_latbw;

/* bytes[i], t_s[i] for i < n (any order); the window is lo ≤ bytes ≤ hi.  resid (may be NULL)
 * receives T_observed − T_model for every point inside the window and NaN outside. */
pst_latbw pst_latbw_analyse(size_t n, const long long *bytes, const double *t_s, long long lo, long long hi,
                            double *resid);

#endif
