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
 * stage then streams one table instead of two, one degree longer.
 *
 * The recurrence kernel (PST_LEG_RECURRENCE, P̄-only) keeps no table: each product generates the
 * P̄ of one wavenumber for a block of latitude pairs (all of them up to T170; blocks of a quarter
 * MiB above) into the calling thread's work area, degree-major [degree][pair] per parity,
 * vectorised across the block's pairs, and runs the dgemm on that block from cache.  A work area
 * keeps its last block, so the P̄ and H sums of one wavenumber (both parities, both directions'
 * calls in a row) share one generation.  The recurrence is the one above written as
 * P̄_n = (μ P̄_{n−1} − β_n P̄_{n−2}) α_n, each pair started from its P̄_m^m held as a value and a
 * count of 2^400 underflow steps: a count of 1 scales the output by 2^−400, 2 or more gives 0
 * (|P̄| < 2^−400 there), so every lane runs the same branch-free loop. */
#ifndef PST_MODEL_LEGENDRE_H
#define PST_MODEL_LEGENDRE_H

#include "model/libs/blas.h"
#include "model/transforms/legendre_isa.h"
#include "model/transforms/spectral.h"

#include <stdbool.h>

/* Which function a table or sum uses: P̄_n^m or H_n^m = (1 − μ²) dP̄_n^m/dμ (not the kernel subcommand). */
typedef enum pst_leg_function { PST_LEG_P = 0, PST_LEG_H = 1 } pst_leg_function;

/* Where the P̄ of a product come from and what multiplies them: the methods' table
 * (legendre_methods.c), one row per method with its name, set-up and product. */
typedef enum pst_leg_method { PST_LEG_DGEMM, PST_LEG_RECURRENCE, PST_LEG_SIMD, PST_NLEG_METHODS } pst_leg_method;
/* A method's name ("dgemm", "recurrence", "simd"), whether it generates P̄ per block (the
 * recurrence's data and work areas, its flops), whether it keeps tables, its one-line summary. */
const char *pst_leg_method_name(pst_leg_method method);
bool pst_leg_method_generates(pst_leg_method method);
bool pst_leg_method_tables(pst_leg_method method);
const char *pst_leg_method_summary(pst_leg_method method);
/* The method called name (PST_NLEG_METHODS: none). */
pst_leg_method pst_leg_method_parse(const char *name);

/* A thread's work area for the recurrence: its generated block and the block's identity. */
typedef struct pst_leg_work {
    double *pbar;        /* [nk_ext(0)][ld] then [nk_ext(1)][ld], ld = pairs rounded up to a multiple of 8 */
    int i, pair0, pairs; /* the block held (i = -1: none) */
} pst_leg_work;

typedef struct pst_legendre {
    const pst_spec_layout *spec;  /* the coefficients transformed (truncation M) */
    pst_spec_layout ext;          /* P̄-only tables: their degrees m..M+1 (truncation M + 1) */
    bool p_only;
    int npairs;
    double *table[2];   /* [PST_LEG_P], [PST_LEG_H]: npairs * ncoef each (P̄-only: npairs * ext.ncoef, H NULL) */
    double *rec_a, *rec_b; /* P̄-only: a_n, b_n per coefficient of spec */
    pst_blas blas;      /* the library of the dgemms (OpenBLAS after init; must be loaded) */
    pst_leg_method method;
    pst_leg_isa isa;    /* the simd method's path: the best the CPU runs, or forced (pst_legendre_use_isa) */
    /* The recurrence's data (P̄-only): */
    const double *mu;   /* [npairs], the caller's */
    double *alpha, *beta;       /* per degree m+2..M+1 of each wavenumber, at ext.off[i] + n − m */
    double *start, *start_j;    /* [nm][npairs rounded up to 8]: P̄_m^m as value and 2^400 underflow steps */
    double *mu_lanes;           /* mu, padded as start */
    int block_pairs;            /* pairs per generated block */
    pst_leg_work *work;         /* [nwork] */
    int nwork;
} pst_legendre;

/* mu_north[0..npairs): the northern node (mu > 0) of each local latitude pair, coslat its
 * √(1 − mu²) (accurate near the pole: see gauss.h).  P̄ and H from tables (PST_LEG_DGEMM) or
 * both generated per block (PST_LEG_RECURRENCE: one work area, L->work; mu_north must outlive L). */
void pst_legendre_init(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                       int npairs, pst_leg_method method);
/* The same with P̄ alone for degrees m..M+1 (H sums through pst_leg_synth_h / pst_leg_analysis_h),
 * by `method`, with nwork work areas (one per thread that calls the products; mu_north must outlive L). */
void pst_legendre_init_p(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                         int npairs, pst_leg_method method, int nwork);
/* Switch a P̄-only L between its tables and the recurrence (both data are kept until
 * pst_legendre_keep): what --legendre-kernel auto times. */
void pst_legendre_use(pst_legendre *L, pst_leg_method method);
/* Force the simd method's instruction-set path (one the CPU runs: pst_leg_isa_refusal). */
void pst_legendre_use_isa(pst_legendre *L, pst_leg_isa isa);
/* Free the data of the method not in use. */
void pst_legendre_keep(pst_legendre *L);
/* The recurrence's pairs per generated block, the doubles of one P̄-only work area, and all the
 * doubles the recurrence holds for ncoef coefficients of nm wavenumbers (the memory estimates). */
int pst_legendre_block_pairs(int M, int npairs);
size_t pst_legendre_work_doubles(int M, int npairs);
size_t pst_legendre_recurrence_doubles(int M, size_t ncoef, int nm, int npairs, int nwork, bool with_h);
void pst_legendre_free(pst_legendre *L);

/* The layout of the tables: spec, or ext for P̄-only tables. */
static inline const pst_spec_layout *pst_leg_table_layout(const pst_legendre *L)
{
    return L->p_only ? &L->ext : L->spec;
}

static inline const double *pst_leg_matrix(const pst_legendre *L, pst_leg_function k, int i, int par)
{
    return L->table[k] + (size_t)L->npairs * pst_spec_block(pst_leg_table_layout(L), i, par);
}

/* The products take the calling thread's work area (L->work + t; NULL with the tables). */

/* Synthesis (spectral → Fourier) of one parity: X[npairs][ncols] = K · S[nk][ncols]
 * (leading dimensions lds, ldx).  X is zeroed when the block is empty. */
void pst_leg_synth(const pst_legendre *L, pst_leg_work *w, pst_leg_function k, int i, int par, const double *S, int lds,
                   int ncols, double *X, int ldx);

/* Analysis (Fourier → spectral) of one parity: O[nk][ncols] = Kᵀ · F[npairs][ncols] + beta · O. */
void pst_leg_analysis(const pst_legendre *L, pst_leg_work *w, pst_leg_function k, int i, int par, const double *F,
                      int ldf, int ncols, double beta, double *O, int ldo);
/* The same for the block's degree rows [k0, k1) alone: O[k1 − k0][ncols] (a block of a pipelined
 * vector sum computes only its own coefficients). */
void pst_leg_analysis_rows(const pst_legendre *L, pst_leg_work *w, pst_leg_function k, int i, int par, int k0, int k1,
                           const double *F, int ldf, int ncols, double beta, double *O, int ldo);

/* P̄-only tables.  Synthesis of the H sums of the parity 1 − par coefficients (columns
 * [col0, col0 + ncols) of S_opp, the [nk(1 − par)][lds] block) through P̄ of parity par:
 * X[npairs][ncols] = Σ_n s_n H_n.  C: scratch of M / 2 + 2 rows of ncols. */
void pst_leg_synth_h(const pst_legendre *L, pst_leg_work *w, int i, int par, const double *S_opp, int lds, int col0,
                     int ncols, double *C, double *X, int ldx);
/* Analysis: the H sums of F ([npairs][ncols], ldf) through P̄ of parity par, added to rows
 * [j0, j1) of the parity 1 − par coefficients, O_opp ([j1 − j0][ncols], ldo; all of them: 0 and
 * nk(1 − par)).  Z: scratch as C above. */
void pst_leg_analysis_h(const pst_legendre *L, pst_leg_work *w, int i, int par, int j0, int j1, const double *F,
                        int ldf, int ncols, double *Z, double *O_opp, int ldo);

/* P̄ of local wavenumber i for pairs [pair0, pair0 + pairs) by the recurrence into w->pbar (as
 * above); exposed for tests. */
void pst_leg_generate(const pst_legendre *L, pst_leg_work *w, int i, int pair0, int pairs);

/* Both products of each P̄-only table block of wavenumber i at once, both parities together (one
 * dgemm per block; by the recurrence each block of pairs generated once for all four).
 * Synthesis: X[par][npairs][np + nh] = P̄ of parity par · [S | C]: B holds 2 (M / 2 + 2) rows of
 * ldb = np + nh, parity par's at B + par (M / 2 + 2) ldb; the caller fills the first np columns of
 * its rows [0, nk(par)) with the parity par coefficients S, and the call forms C there, the H
 * combination of the other parity's coefficients (its columns [col0, col0 + nh)) as
 * pst_leg_synth_h forms it. */
void pst_leg_synth_ph(const pst_legendre *L, pst_leg_work *w, int i, int np, int col0, int nh, double *B, double *X[2],
                      int ldx);
/* Analysis: Z[par][nk_ext(par)][ncols] = P̄ᵀ of parity par · F[par] ([npairs][ncols], ldf), every
 * degree m..M+1; then pst_leg_h_from_sums adds the H sums of all parity 1 − par coefficients to
 * O_opp ([nk(1 − par)][ncols], ldo) from table par's sums of the H inputs (Z there, ldz apart). */
void pst_leg_analysis_ext(const pst_legendre *L, pst_leg_work *w, int i, const double *F[2], int ldf, int ncols,
                          double *Z[2]);
void pst_leg_h_from_sums(const pst_legendre *L, int i, int par, const double *Z, int ldz, int ncols, double *O_opp,
                         int ldo);

/* Values of P̄_n^m and H_n^m at one μ (with coslat = √(1 − μ²)) for n = m..M (out arrays of
 * M − m + 1); exposed for tests. */
void pst_legendre_column(int M, int m, double mu, double coslat, double *p, double *h);

#endif
