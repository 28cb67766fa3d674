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
 * (pairs down, degrees across) at P + npairs * pst_spec_block(i, par).
 *
 * The time step's tables (pst_legendre_init_p) hold P̄ alone, for degrees m..M+1, and make the H
 * sums from P̄ sums with H_n = a_n P̄_{n−1} − b_n P̄_{n+1}, a_n = (n+1) ε_n, b_n = n ε_{n+1} (the
 * recurrence the H tables are built from): synthesis Σ_n s_n H_n = Σ_k c_k P̄_k with
 * c_k = a_{k+1} s_{k+1} − b_{k−1} s_{k−1}; analysis Σ_j F_j H_n(μ_j) = a_n Z_{n−1} − b_n Z_{n+1}
 * with Z_k = Σ_j F_j P̄_k(μ_j).  H_n of parity par meets P̄ of parity 1 − par.  The Legendre
 * stage then streams one table instead of two, one degree longer. */
#ifndef PST_MODEL_LEGENDRE_H
#define PST_MODEL_LEGENDRE_H

#include "model/blas.h"
#include "model/spectral.h"

#include <stdbool.h>

typedef enum pst_leg_kernel { PST_LEG_P = 0, PST_LEG_H = 1 } pst_leg_kernel;

typedef struct pst_legendre {
    const pst_spec_layout *spec;  /* the coefficients transformed (truncation M) */
    pst_spec_layout ext;          /* P̄-only tables: their degrees m..M+1 (truncation M + 1) */
    bool p_only;
    int npairs;
    double *table[2];   /* [PST_LEG_P], [PST_LEG_H]: npairs * ncoef each (P̄-only: npairs * ext.ncoef, H NULL) */
    double *rec_a, *rec_b; /* P̄-only: a_n, b_n per coefficient of spec */
    pst_blas blas;      /* the library of the dgemms (OpenBLAS after init; must be loaded) */
} pst_legendre;

/* mu_north[0..npairs): the northern node (mu > 0) of each local latitude pair, coslat its
 * √(1 − mu²) (accurate near the pole: see gauss.h). */
void pst_legendre_init(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                       int npairs);
/* The same with P̄ alone for degrees m..M+1 (H sums through pst_leg_synth_h / pst_leg_analysis_h). */
void pst_legendre_init_p(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                         int npairs);
void pst_legendre_free(pst_legendre *L);

/* The layout of the tables: spec, or ext for P̄-only tables. */
static inline const pst_spec_layout *pst_leg_table_layout(const pst_legendre *L) { return L->p_only ? &L->ext : L->spec; }

static inline const double *pst_leg_matrix(const pst_legendre *L, pst_leg_kernel k, int i, int par)
{
    return L->table[k] + (size_t)L->npairs * pst_spec_block(pst_leg_table_layout(L), i, par);
}

/* Synthesis (spectral → Fourier) of one parity: X[npairs][ncols] = K · S[nk][ncols]
 * (leading dimensions lds, ldx).  X is zeroed when the block is empty. */
void pst_leg_synth(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *S, int lds, int ncols,
                   double *X, int ldx);

/* Analysis (Fourier → spectral) of one parity: O[nk][ncols] = Kᵀ · F[npairs][ncols] + beta · O. */
void pst_leg_analysis(const pst_legendre *L, pst_leg_kernel k, int i, int par, const double *F, int ldf, int ncols,
                      double beta, double *O, int ldo);
/* The same for the block's degree rows [k0, k1) alone: O[k1 − k0][ncols] (a block of a pipelined
 * vector sum computes only its own coefficients). */
void pst_leg_analysis_rows(const pst_legendre *L, pst_leg_kernel k, int i, int par, int k0, int k1, const double *F,
                           int ldf, int ncols, double beta, double *O, int ldo);

/* P̄-only tables.  Synthesis of the H sums of the parity 1 − par coefficients (columns
 * [col0, col0 + ncols) of S_opp, the [nk(1 − par)][lds] block) through P̄ of parity par:
 * X[npairs][ncols] = Σ_n s_n H_n.  C: scratch of M / 2 + 2 rows of ncols. */
void pst_leg_synth_h(const pst_legendre *L, int i, int par, const double *S_opp, int lds, int col0, int ncols,
                     double *C, double *X, int ldx);
/* Analysis: the H sums of F ([npairs][ncols], ldf) through P̄ of parity par, added to rows
 * [j0, j1) of the parity 1 − par coefficients, O_opp ([j1 − j0][ncols], ldo; all of them: 0 and
 * nk(1 − par)).  Z: scratch as C above. */
void pst_leg_analysis_h(const pst_legendre *L, int i, int par, int j0, int j1, const double *F, int ldf, int ncols,
                        double *Z, double *O_opp, int ldo);

/* Values of P̄_n^m and H_n^m at one μ (with coslat = √(1 − μ²)) for n = m..M (out arrays of
 * M − m + 1); exposed for tests. */
void pst_legendre_column(int M, int m, double mu, double coslat, double *p, double *h);

#endif
