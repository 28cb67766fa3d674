/* Linear least squares: y ≈ X·c with optional weights, coefficient standard errors,
 * confidence intervals and fit quality.  Used for T(n)=α+n/β models, the ping-pong
 * regression and the message-matching cost fit. */
#ifndef PST_FIT_H
#define PST_FIT_H

#include <stddef.h>

#define PST_FIT_MAXP 4

typedef struct pst_fit {
    int p;                      /* number of coefficients */
    size_t n;                   /* number of observations */
    double coef[PST_FIT_MAXP];
    double se[PST_FIT_MAXP];    /* standard errors (NaN when n <= p) */
    double r2;                  /* coefficient of determination (weighted; vs weighted mean) */
    double rss;                 /* weighted residual sum of squares */
} pst_fit;

/* Solve min Σ w_i (y_i − Σ_j X_ij c_j)² by Householder QR.  X is n×p row-major; w may be
 * NULL (all ones).  Returns 0, or -1 when X is rank deficient or n < p. */
int pst_lsq(size_t n, int p, const double *X, const double *y, const double *w, pst_fit *out);

/* Straight line y = a + b·x (coef[0] = a, coef[1] = b). */
int pst_linfit(size_t n, const double *x, const double *y, const double *w, pst_fit *out);

/* Two-sided confidence interval at level conf for coefficient j (t with n−p dof). */
void pst_fit_ci(const pst_fit *f, int j, double conf, double *lo, double *hi);

#endif
