/* The stages of the time step (dynamics.h lists them in order), one file each, and what they
 * share.  Private to the time step's files: step.c calls the stages per level block and per
 * cache-sized chunk of latitude pairs and levels; the helpers the stages' inner loops call are
 * static inline here so they stay inlined across files.
 *
 *   step_inverse_legendre.c  1a  inverse sums: P̄ and H sums per wavenumber             [legendre]
 *   step_combine.c           1b  inverse combination: north/south, winds, Fourier lines [fourier]
 *                            5a  forward combination: the tendencies per wavenumber   [fourier]
 *   step_fft.c               2/4 inverse and forward FFTs (local or across the row)    [fft]
 *   step_grid.c              3   products; the kept previous level                     [grid]
 *   step_forward_legendre.c  5b  forward sums: P̄ and H sums, the κ fold                [legendre]
 *   step_update.c            6   the time scheme's solve, diffusion, ψ', χ'            [spectral]
 *   step.c                       the schedule: blocks, chunks, the level pipeline, timing */
#ifndef PST_MODEL_STEP_H
#define PST_MODEL_STEP_H

#include "model/constants.h"
#include "model/layout.h"

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
    return h ? d->cfg.nlat - 1 - g : g;
}
/* n(n+1)/a²: −∇² on a coefficient of degree n (the forward sums' κ fold and the update). */
static inline double minus_laplacian(int n) { return (double)n * (n + 1) / (PST_EARTH_RADIUS_M * PST_EARTH_RADIUS_M); }
static inline double one_minus_mu2(const pst_dyn *d, int lat) { return d->coslat[lat] * d->coslat[lat]; }

/* 1a: the inverse sums of state block st into the Legendre buffer lb of `pairs` pairs. */
void pst_step_inverse_sums(pst_dyn *d, const double *st, double *lb, int pairs);
/* 1b and 5a over the chunk's pairs [p0, p1) and its levels from l0 (d->Bc of them). */
void pst_step_inverse_combine(pst_dyn *d, int p0, int p1, int l0);
void pst_step_forward_combine(pst_dyn *d, const pst_substep *s, int p0, int p1, int l0);
/* 2 and 4: the chunk's Fourier lines to grid lines and back. */
void pst_step_fft_inverse(pst_dyn *d);
void pst_step_fft_forward(pst_dyn *d);
/* 3: the products beside the previous level go (the block's), then, after the forward FFT, the
 * current level kept as the previous one. */
void pst_step_products(pst_dyn *d, double *go, const pst_substep *s, int p0, int p1, int l0);
void pst_step_store_old(pst_dyn *d, double *go, int p0, int p1, int l0);
/* 5b: the forward sums of owned wavenumbers [i0, i1) from lb into O_all; the _block form is the
 * same for one block of a pipelined vector sum (pst_vsum_compute_fn, arg: the pst_dyn). */
void pst_step_forward_sums(pst_dyn *d, const double *lb, int pairs, int i0, int i1, double *O_all);
void pst_step_forward_sums_block(void *arg, size_t lo, size_t count, double *dst);
/* 6: the new level of state block st from its complete sums out; false on a non-finite value. */
bool pst_step_update(pst_dyn *d, double *st, const double *out, const pst_substep *s);

#endif
