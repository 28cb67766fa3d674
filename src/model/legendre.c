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

/* Tables of the degrees of pst_leg_table_layout(L): P̄ and, unless p_only, H. */
static void fill_tables(pst_legendre *L, const double *mu_north, const double *coslat)
{
    const pst_spec_layout *t = pst_leg_table_layout(L);
    size_t n = (size_t)L->npairs * t->ncoef;
    L->table[PST_LEG_P] = pst_malloc((n ? n : 1) * sizeof *L->table[PST_LEG_P]);
    L->table[PST_LEG_H] = L->p_only ? NULL : pst_malloc((n ? n : 1) * sizeof *L->table[PST_LEG_H]);
    double *p = pst_malloc((size_t)(t->M + 2) * sizeof *p), *h = pst_malloc((size_t)(t->M + 2) * sizeof *h);
    for (int i = 0; i < t->nm; i++) {
        int m = t->m[i];
        for (int j = 0; j < L->npairs; j++) {
            pst_legendre_column(t->M, m, mu_north[j], coslat[j], p, h);
            for (int par = 0; par < 2; par++) {
                int nk = t->nk[par][i];
                double *tp = (double *)pst_leg_matrix(L, PST_LEG_P, i, par) + (size_t)j * nk;
                for (int k = 0; k < nk; k++) tp[k] = p[par + 2 * k];
                if (L->p_only) continue;
                double *th = (double *)pst_leg_matrix(L, PST_LEG_H, i, par) + (size_t)j * nk;
                for (int k = 0; k < nk; k++) th[k] = h[par + 2 * k];
            }
        }
    }
    free(p);
    free(h);
}

void pst_legendre_init(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                       int npairs)
{
    *L = (pst_legendre){.spec = spec, .npairs = npairs, .blas = PST_BLAS_OPENBLAS};
    fill_tables(L, mu_north, coslat);
}

void pst_legendre_init_p(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                         int npairs)
{
    *L = (pst_legendre){.spec = spec, .p_only = true, .npairs = npairs, .blas = PST_BLAS_OPENBLAS};
    pst_spec_layout_init(&L->ext, spec->M + 1, spec->m, spec->nm);
    fill_tables(L, mu_north, coslat);
    L->rec_a = pst_malloc((spec->ncoef ? spec->ncoef : 1) * sizeof *L->rec_a);
    L->rec_b = pst_malloc((spec->ncoef ? spec->ncoef : 1) * sizeof *L->rec_b);
    for (int i = 0; i < spec->nm; i++)
        for (int n = spec->m[i]; n <= spec->M; n++) {
            size_t c = pst_spec_index(spec, i, n);
            L->rec_a[c] = (n + 1.0) * eps(n, spec->m[i]);
            L->rec_b[c] = n * eps(n + 1, spec->m[i]);
        }
}

void pst_legendre_free(pst_legendre *L)
{
    free(L->table[0]);
    free(L->table[1]);
    free(L->rec_a);
    free(L->rec_b);
    if (L->p_only) pst_spec_layout_free(&L->ext);
    *L = (pst_legendre){0};
}

/* X = K[:, :nk] · S over the first nk degrees of a table block (zero for none). */
static void synth_degrees(const pst_legendre *L, pst_leg_kernel k, int i, int par, int nk, const double *S, int lds,
                          int ncols, double *X, int ldx)
{
    if (nk == 0) {
        for (int j = 0; j < L->npairs; j++) memset(X + (size_t)j * ldx, 0, (size_t)ncols * sizeof *X);
        return;
    }
    const int lda = pst_leg_table_layout(L)->nk[par][i];
    pst_blas_dgemm(L->blas, false, L->npairs, ncols, nk, 1.0, pst_leg_matrix(L, k, i, par), lda, S, lds, 0.0, X, ldx);
}

/* O = K[:, k0:k1]ᵀ · F + beta O over degrees rows k0..k1 of a table block (O's first row is k0's). */
static void analysis_degrees(const pst_legendre *L, pst_leg_kernel k, int i, int par, int k0, int k1, const double *F,
                             int ldf, int ncols, double beta, double *O, int ldo)
{
    if (k1 <= k0) return;
    const int lda = pst_leg_table_layout(L)->nk[par][i];
    pst_blas_dgemm(L->blas, true, k1 - k0, ncols, L->npairs, 1.0, pst_leg_matrix(L, k, i, par) + k0, lda, F, ldf, beta, O,
                   ldo);
}

void pst_leg_synth(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *S, int lds, int ncols,
                   double *X, int ldx)
{
    synth_degrees(L, k, i, par, L->spec->nk[par][i], S, lds, ncols, X, ldx);
}

void pst_leg_analysis(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *F, int ldf, int ncols,
                      double beta, double *O, int ldo)
{
    analysis_degrees(L, k, i, par, 0, L->spec->nk[par][i], F, ldf, ncols, beta, O, ldo);
}

void pst_leg_analysis_rows(const pst_legendre *L, pst_leg_kernel k, int i, int par, int k0, int k1, const double *F,
                           int ldf, int ncols, double beta, double *O, int ldo)
{
    analysis_degrees(L, k, i, par, k0, k1, F, ldf, ncols, beta, O, ldo);
}

/* c_k = a_{k+1} s_{k+1} − b_{k−1} s_{k−1}: degree k = m + par + 2j of the table block (i, par) has
 * its neighbours k ± 1 in the parity 1 − par block at rows j + par (k + 1) and j + par − 1
 * (k − 1), where those are degrees m..M. */
void pst_leg_synth_h(const pst_legendre *L, int i, int par, const double *S_opp, int lds, int col0, int ncols,
                     double *C, double *X, int ldx)
{
    const pst_spec_layout *s = L->spec;
    const int next = L->ext.nk[par][i], nopp = s->nk[1 - par][i];
    const size_t opp = pst_spec_block(s, i, 1 - par);
    for (int j = 0; j < next; j++) {
        const int up = j + par, down = j + par - 1; /* degrees k + 1, k − 1 in the other parity */
        double *c = C + (size_t)j * ncols;
        memset(c, 0, (size_t)ncols * sizeof *c);
        if (up < nopp) {
            const double a = L->rec_a[opp + up], *su = S_opp + (size_t)up * lds + col0;
            for (int col = 0; col < ncols; col++) c[col] += a * su[col];
        }
        if (down >= 0 && down < nopp) {
            const double b = L->rec_b[opp + down], *sd = S_opp + (size_t)down * lds + col0;
            for (int col = 0; col < ncols; col++) c[col] -= b * sd[col];
        }
    }
    synth_degrees(L, PST_LEG_P, i, par, next, C, ncols, ncols, X, ldx);
}

void pst_leg_analysis_h(const pst_legendre *L, int i, int par, int j0, int j1, const double *F, int ldf, int ncols,
                        double *Z, double *O_opp, int ldo)
{
    if (j1 <= j0 || L->ext.nk[par][i] == 0) return;
    /* Output degree n = m + (1 − par) + 2j meets Z at n − 1 (row j − par; none for n = m, where
     * a_n = 0) and n + 1 (row j + 1 − par, at most M + 1): rows z0..j1 − par of Z serve j0..j1. */
    const int z0 = j0 - par > 0 ? j0 - par : 0;
    analysis_degrees(L, PST_LEG_P, i, par, z0, j1 + 1 - par, F, ldf, ncols, 0.0, Z, ncols);
    const size_t opp = pst_spec_block(L->spec, i, 1 - par);
    for (int jo = j0; jo < j1; jo++) {
        const double a = L->rec_a[opp + jo], b = L->rec_b[opp + jo], *zu = Z + (size_t)(jo + 1 - par - z0) * ncols;
        double *o = O_opp + (size_t)(jo - j0) * ldo;
        if (jo - par >= 0) {
            const double *zd = Z + (size_t)(jo - par - z0) * ncols;
            for (int col = 0; col < ncols; col++) o[col] += a * zd[col] - b * zu[col];
        } else {
            for (int col = 0; col < ncols; col++) o[col] -= b * zu[col];
        }
    }
}
