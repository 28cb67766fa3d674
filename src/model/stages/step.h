/* The stages of the time step (dynamics.h lists them in order), one file each, and what they
 * share.  Private to the time step's files: step.c calls the stages per level block and per
 * cache-sized chunk of latitude pairs and levels; the helpers the stages' inner loops call are
 * static inline here so they stay inlined across files.
 *
 *   step_inverse_legendre.c  1a  inverse sums: ψ', χ'; P̄ and H sums per wavenumber     [legendre]
 *   step_combine.c           1b  inverse combination: north/south, winds, Fourier lines [fourier]
 *                            5a  forward combination: the tendencies per wavenumber   [fourier]
 *   step_fft.c               2/4 inverse and forward FFTs (local or across the row)    [fft]
 *   step_grid.c              3   products; the kept previous level                     [grid]
 * (1b to 5a are the chain, listed in PST_STEP_CHAIN below)
 *   step_forward_legendre.c  5b  forward sums: P̄ and H sums, the κ fold                [legendre]
 *   step_update.c            6   the time scheme's solve, diffusion                    [spectral]
 *   step.c                       the schedule: blocks, chunks, the level pipeline, timing
 *   step_views.c                 the threads' views of the state when they share the blocks out */
#ifndef PST_MODEL_STEP_H
#define PST_MODEL_STEP_H

#include "model/setup/constants.h"
#include "model/stages/layout.h"

#include <string.h>

/* One leapfrog application X_new = X_old + 2τ T(X_cur).  The first step is two of them:
 * τ = dt/4 with old = cur (forward half step), then τ = dt/2 with old = t0 (centred step);
 * both leave the t0 grid as the previous level. */
typedef struct pst_substep {
    double tau;
    bool old_from_cur, keep_old;
} pst_substep;

/* One complex coefficient (re, im) as a two-lane vector: the Fourier-space combinations then
 * move and combine whole coefficients (half the instructions of re and im apart). */
typedef double cvec __attribute__((vector_size(16)));
static inline cvec cload(const double *p)
{
    cvec v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void cstore(double *p, cvec v) { memcpy(p, &v, sizeof v); }
static inline cvec times_i(cvec v) { return (cvec){-v[1], v[0]}; } /* i (re + i im) */

/* Latitude of local pair p's hemisphere h (0 north). */
static inline int lat_of(const pst_dyn *d, int p, int h)
{
    int g = (int)d->par->pair_lo + p;
    return h ? d->cfg.grid->nlat - 1 - g : g;
}
/* n(n+1)/a²: −∇² on a coefficient of degree n (the forward sums' κ fold and the update). */
static inline double minus_laplacian(int n) { return (double)n * (n + 1) / (PST_EARTH_RADIUS_M * PST_EARTH_RADIUS_M); }
static inline double one_minus_mu2(const pst_dyn *d, int lat) { return d->coslat[lat] * d->coslat[lat]; }

/* 1a: the inverse sums of state block st into the Legendre buffer lb of `pairs` pairs. */
void pst_step_inverse_sums(pst_dyn *d, const double *st, double *lb, int pairs);
/* The chain, run per cache-sized chunk of a level block: latitude pairs [p0, p1) (local) and
 * levels [l0, l0 + Bc) of block b, in thread t's chunk buffers. */
typedef struct pst_chunk {
    int b, p0, p1, l0, t;
} pst_chunk;
/* The pragma on a stage's loop over the chunk's pairs (the stage's pst_dyn named d): shared among
 * the threads when the chunk is not already one thread's (dynamics.h, chunks_in_threads).  Each
 * pair's arithmetic is the same whichever thread runs it, so the results do not depend on the
 * thread count. */
#define PST_PAIRS_IN_THREADS                                                                                           \
    _Pragma("omp parallel for num_threads(d->nthreads) if (d->nthreads > 1 && !d->chunks_in_threads)")
typedef void pst_chain_stage_fn(pst_dyn *d, const pst_substep *s, const pst_chunk *c);

/* The chain's stages in order, each as X(name, time category): pst_step_<name> is the stage's
 * function, declared here and run in this order by step.c, its time counted in the category.
 *   1b inverse_combine: the inverse sums to the chunk's Fourier lines (north/south, winds)
 *   2  fft_inverse: Fourier lines to grid lines
 *   3  products: the grid-point products beside the previous level
 *   4  fft_forward: the products and the previous level to Fourier lines
 *   3' store_old: the current level kept as the previous one (not in the first step's substeps)
 *   5a forward_combine: the Fourier lines to the forward sums' inputs */
#define PST_STEP_CHAIN(X)                    \
    X(inverse_combine, PST_STAGE_FOURIER)    \
    X(fft_inverse, PST_STAGE_FFT)            \
    X(products, PST_STAGE_GRID)              \
    X(fft_forward, PST_STAGE_FFT)            \
    X(store_old, PST_STAGE_GRID)             \
    X(forward_combine, PST_STAGE_FOURIER)
#define PST_STEP_DECLARE(name, stage) pst_chain_stage_fn pst_step_##name;
PST_STEP_CHAIN(PST_STEP_DECLARE)
#undef PST_STEP_DECLARE

/* 6: the update of state block st from its complete sums `out`, for the coefficients [c0, c1)
 * (all: 0, d->spec.ncoef; the partitioned update: the rank's own).  False: a non-finite value. */
bool pst_step_update(pst_dyn *d, double *st, const double *out, const pst_substep *s, size_t c0, size_t c1);
/* 5b: the forward sums of every owned coefficient from lb into O_all; the _block form computes
 * one block of a pipelined vector sum, its coefficients alone (pst_vsum_compute_fn, arg: the pst_dyn). */
void pst_step_forward_sums(pst_dyn *d, const double *lb, int pairs, double *O_all);
void pst_step_forward_sums_block(void *arg, size_t lo, size_t count, double *dst);
/* The parallel stages of d on d->par's communicators, timed in d->events (step_comm.c): the row's
 * FFT stage (PX > 1) and the column's Legendre stage (PY > 1). */
void pst_dyn_row_stage(pst_dyn *d);
void pst_dyn_column_stage(pst_dyn *d);
/* comm_threads (step_views.c): the other threads' views, made collectively on every rank in the
 * same order; brought up to date with d before each substep; freed. */
void pst_dyn_views_create(pst_dyn *d);
void pst_dyn_views_sync(pst_dyn *d);
void pst_dyn_views_free(pst_dyn *d);

#endif
