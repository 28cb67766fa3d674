#include "stats/fit.h"

#include "core/alloc.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pst_lsq(size_t n, int p, const double *X, const double *y, const double *w, pst_fit *out)
{
    memset(out, 0, sizeof *out);
    out->p = p;
    out->n = n;
    if (p < 1 || p > PST_FIT_MAXP || n < (size_t)p) return -1;

    /* Weighted system A = diag(√w)·X, b = √w·y; columns of A stored contiguously. */
    double *A = pst_malloc(n * (size_t)p * sizeof *A), *b = pst_malloc(n * sizeof *b);
    for (size_t i = 0; i < n; i++) {
        double sw = w ? sqrt(w[i]) : 1.0;
        for (int j = 0; j < p; j++) A[(size_t)j * n + i] = sw * X[i * (size_t)p + j];
        b[i] = sw * y[i];
    }
    double R[PST_FIT_MAXP][PST_FIT_MAXP] = {{0}};
    int rc = 0;
    for (int k = 0; k < p; k++) {
        double *a = A + (size_t)k * n;
        double norm = 0, colmax = 0;
        for (size_t i = k; i < n; i++) { norm += a[i] * a[i]; colmax = fmax(colmax, fabs(a[i])); }
        norm = sqrt(norm);
        double scale = 0;
        for (size_t i = 0; i < n; i++) scale = fmax(scale, fabs(a[i]));
        if (norm <= 1e-13 * scale || colmax == 0) { rc = -1; break; }
        double alpha = a[k] > 0 ? -norm : norm;
        /* Householder vector v = a − alpha·e_k, applied to this and later columns and b. */
        a[k] -= alpha;
        double vnorm2 = 0;
        for (size_t i = k; i < n; i++) vnorm2 += a[i] * a[i];
        for (int j = k + 1; j < p; j++) {
            double *c = A + (size_t)j * n, dot = 0;
            for (size_t i = k; i < n; i++) dot += a[i] * c[i];
            for (size_t i = k; i < n; i++) c[i] -= 2 * dot / vnorm2 * a[i];
        }
        double dot = 0;
        for (size_t i = k; i < n; i++) dot += a[i] * b[i];
        for (size_t i = k; i < n; i++) b[i] -= 2 * dot / vnorm2 * a[i];
        R[k][k] = alpha;
        for (int j = k + 1; j < p; j++) R[k][j] = A[(size_t)j * n + k];
    }
    if (rc == 0) {
        for (int k = p - 1; k >= 0; k--) {
            double s = b[k];
            for (int j = k + 1; j < p; j++) s -= R[k][j] * out->coef[j];
            out->coef[k] = s / R[k][k];
        }
        double rss = 0;
        for (size_t i = (size_t)p; i < n; i++) rss += b[i] * b[i];
        out->rss = rss;
        /* (RᵀR)⁻¹ diagonal via R⁻¹: standard errors σ²·diag((XᵀWX)⁻¹). */
        double Rinv[PST_FIT_MAXP][PST_FIT_MAXP] = {{0}};
        for (int i = p - 1; i >= 0; i--) {
            Rinv[i][i] = 1.0 / R[i][i];
            for (int j = i + 1; j < p; j++) {
                double s = 0;
                for (int k = i + 1; k <= j; k++) s += R[i][k] * Rinv[k][j];
                Rinv[i][j] = -s / R[i][i];
            }
        }
        double sigma2 = n > (size_t)p ? rss / (double)(n - (size_t)p) : NAN;
        for (int i = 0; i < p; i++) {
            double d = 0;
            for (int j = i; j < p; j++) d += Rinv[i][j] * Rinv[i][j];
            out->se[i] = sqrt(sigma2 * d);
        }
        double sw = 0, swy = 0;
        for (size_t i = 0; i < n; i++) { double wi = w ? w[i] : 1.0; sw += wi; swy += wi * y[i]; }
        double ybar = swy / sw, tss = 0;
        for (size_t i = 0; i < n; i++) { double wi = w ? w[i] : 1.0; tss += wi * (y[i] - ybar) * (y[i] - ybar); }
        out->r2 = tss > 0 ? 1.0 - rss / tss : 1.0;
    }
    free(A);
    free(b);
    return rc;
}

int pst_linfit(size_t n, const double *x, const double *y, const double *w, pst_fit *out)
{
    double *X = pst_malloc(2 * n * sizeof *X);
    for (size_t i = 0; i < n; i++) { X[2 * i] = 1.0; X[2 * i + 1] = x[i]; }
    int rc = pst_lsq(n, 2, X, y, w, out);
    free(X);
    return rc;
}

void pst_fit_ci(const pst_fit *f, int j, double conf, double *lo, double *hi)
{
    double dof = (double)f->n - f->p;
    if (dof < 1 || !isfinite(f->se[j])) { *lo = *hi = f->coef[j]; return; }
    double half = pst_t_quantile(0.5 + conf / 2.0, dof) * f->se[j];
    *lo = f->coef[j] - half;
    *hi = f->coef[j] + half;
}
