/* Orthonormal associated Legendre functions on the local latitude pairs, and the Legendre
 * transforms as BLAS dgemm per zonal wavenumber and parity.
 *
 * P̄_n^m is normalised so that ∫_{-1}^{1} (P̄_n^m)² dμ = 1, and H_n^m = (1 − μ²) dP̄_n^m/dμ.
 * Tables are kept only for the northern member μ > 0 of each latitude pair: for the southern
 * member P̄(−μ) = (−1)^{n−m} P̄(μ) and H(−μ) = −(−1)^{n−m} H(μ).  So for parity par = (n−m) mod 2
 * a P̄ sum over the whole sphere only needs the symmetric part F(μ) + F(−μ) (par 0) or the
 * antisymmetric part F(μ) − F(−μ) (par 1) of the Fourier coefficients; an H sum the opposite.
 *
 * The recurrence in n is the standard stable one, P̄_n = (μ P̄_{n−1} − ε_{n−1} P̄_{n−2}) / ε_n with
 * ε_n^m = √((n² − m²)/(4n² − 1)), started from P̄_m^m = √((2m+1)/(2m)) √(1−μ²) P̄_{m−1}^{m−1},
 * carried with a separate binary exponent so that (1−μ²)^{m/2} cannot underflow before the
 * recurrence has grown it back: the tables are correct (or exactly 0 where below 1e-308) at any M.
 *
 * Matrices: for local wavenumber i and parity par, P and H are npairs x nk row-major
 * (pairs down, degrees across) at P + npairs * pst_spec_block(i, par). */
#ifndef PST_MODEL_LEGENDRE_H
#define PST_MODEL_LEGENDRE_H

#include "model/blas.h"
#include "model/spectral.h"

typedef enum pst_leg_kernel { PST_LEG_P = 0, PST_LEG_H = 1 } pst_leg_kernel;

typedef struct pst_legendre {
    const pst_spec_layout *spec;
    int npairs;
    double *table[2];   /* [PST_LEG_P], [PST_LEG_H]: npairs * ncoef each */
    pst_blas blas;      /* the library of the dgemms (OpenBLAS after init; must be loaded) */
} pst_legendre;

/* mu_north[0..npairs): the northern node (mu > 0) of each local latitude pair, coslat its
 * √(1 − mu²) (accurate near the pole: see gauss.h). */
void pst_legendre_init(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                       int npairs);
void pst_legendre_free(pst_legendre *L);

static inline const double *pst_leg_matrix(const pst_legendre *L, pst_leg_kernel k, int i, int par)
{
    return L->table[k] + (size_t)L->npairs * pst_spec_block(L->spec, i, par);
}

/* Synthesis (spectral → Fourier) of one parity: X[npairs][ncols] = K · S[nk][ncols]
 * (leading dimensions lds, ldx).  X is zeroed when the block is empty. */
void pst_leg_synth(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *S, int lds, int ncols,
                   double *X, int ldx);

/* Analysis (Fourier → spectral) of one parity: O[nk][ncols] = Kᵀ · F[npairs][ncols] + beta · O. */
void pst_leg_analysis(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *F, int ldf, int ncols,
                      double beta, double *O, int ldo);

/* Values of P̄_n^m and H_n^m at one μ (with coslat = √(1 − μ²)) for n = m..M (out arrays of
 * M − m + 1); exposed for tests. */
void pst_legendre_column(int M, int m, double mu, double coslat, double *p, double *h);

#endif
