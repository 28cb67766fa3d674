#include "model/legendre.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { RESCALE_BITS = 400 };

static double eps(int n, int m) { return sqrt(((double)n * n - (double)m * m) / (4.0 * n * n - 1.0)); }

/* P̄_m^m(μ) as mant * 2^e. */
static void sectoral(int m, double s, double *mant, int *e)
{
    double v = sqrt(0.5);
    int ex = 0;
    for (int k = 1; k <= m; k++) {
        int de;
        v = frexp(v * sqrt((2.0 * k + 1.0) / (2.0 * k)) * s, &de);
        ex += de;
    }
    *mant = v;
    *e = ex;
}

void pst_legendre_column(int M, int m, double mu, double coslat, double *p, double *h)
{
    /* P̄ for n = m..M+1 (the extra degree feeds H_M). */
    int len = M - m + 2;
    double *pv = pst_malloc((size_t)len * sizeof *pv);
    double v0, v1;
    int e;
    sectoral(m, coslat, &v0, &e);
    pv[0] = ldexp(v0, e);
    v1 = mu * v0 / eps(m + 1, m);
    pv[1] = ldexp(v1, e);
    for (int n = m + 2; n <= M + 1; n++) {
        double v2 = (mu * v1 - eps(n - 1, m) * v0) / eps(n, m);
        v0 = v1;
        v1 = v2;
        if (fabs(v1) > 0x1p400) {
            v0 = ldexp(v0, -RESCALE_BITS);
            v1 = ldexp(v1, -RESCALE_BITS);
            e += RESCALE_BITS;
        }
        pv[n - m] = ldexp(v1, e);
    }
    for (int n = m; n <= M; n++) {
        p[n - m] = pv[n - m];
        double below = n > m ? (n + 1.0) * eps(n, m) * pv[n - m - 1] : 0.0;
        h[n - m] = below - n * eps(n + 1, m) * pv[n - m + 1];
    }
    free(pv);
}

void pst_legendre_init(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                       int npairs)
{
    L->spec = spec;
    L->npairs = npairs;
    L->blas = PST_BLAS_OPENBLAS;
    size_t n = (size_t)npairs * spec->ncoef;
    for (int k = 0; k < 2; k++) L->table[k] = pst_malloc((n ? n : 1) * sizeof *L->table[k]);
    double *p = pst_malloc((size_t)(spec->M + 2) * sizeof *p), *h = pst_malloc((size_t)(spec->M + 2) * sizeof *h);
    for (int i = 0; i < spec->nm; i++) {
        int m = spec->m[i];
        for (int j = 0; j < npairs; j++) {
            pst_legendre_column(spec->M, m, mu_north[j], coslat[j], p, h);
            for (int par = 0; par < 2; par++) {
                int nk = spec->nk[par][i];
                double *tp = (double *)pst_leg_matrix(L, PST_LEG_P, i, par) + (size_t)j * nk;
                double *th = (double *)pst_leg_matrix(L, PST_LEG_H, i, par) + (size_t)j * nk;
                for (int k = 0; k < nk; k++) {
                    tp[k] = p[par + 2 * k];
                    th[k] = h[par + 2 * k];
                }
            }
        }
    }
    free(p);
    free(h);
}

void pst_legendre_free(pst_legendre *L)
{
    free(L->table[0]);
    free(L->table[1]);
    L->table[0] = L->table[1] = NULL;
}

void pst_leg_synth(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *S, int lds, int ncols,
                   double *X, int ldx)
{
    int nk = L->spec->nk[par][i];
    if (nk == 0) {
        for (int j = 0; j < L->npairs; j++) memset(X + (size_t)j * ldx, 0, (size_t)ncols * sizeof *X);
        return;
    }
    pst_blas_dgemm(L->blas, false, L->npairs, ncols, nk, 1.0, pst_leg_matrix(L, k, i, par), nk, S, lds, 0.0, X, ldx);
}

void pst_leg_analysis(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *F, int ldf, int ncols,
                      double beta, double *O, int ldo)
{
    int nk = L->spec->nk[par][i];
    if (nk == 0) return;
    pst_blas_dgemm(L->blas, true, nk, ncols, L->npairs, 1.0, pst_leg_matrix(L, k, i, par), nk, F, ldf, beta, O, ldo);
}
