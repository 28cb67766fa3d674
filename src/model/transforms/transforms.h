/* Spherical harmonic transforms of whole single-level fields on the full Gaussian grid.
 *
 * These are the reference transforms: initial conditions, diagnostics, reference solutions,
 * field output and the unit tests use them.  The time step uses the same Legendre and FFT
 * building blocks, fused and batched over fields and levels (step*.c).
 *
 * Grid fields are [nlat][nlon], latitude 0 northernmost, longitude i at λ = 2πi/nlon.
 * Spectral fields are [ncoef][2] (re, im) in the full layout of spectral.h, with
 * f(λ, μ) = Σ_{m=−M}^{M} Σ_n f_n^m P̄_n^m(μ) e^{imλ}, f_n^{−m} = conj f_n^m. */
#ifndef PST_MODEL_TRANSFORMS_H
#define PST_MODEL_TRANSFORMS_H

#include "model/transforms/fft.h"
#include "model/transforms/legendre.h"
#include "model/transforms/spectral.h"
#include "model/setup/spectral_grid.h"

typedef struct pst_sht {
    const pst_spectral_grid *grid; /* the caller's (pst_sht_init), which outlives the transform */
    int npairs;                  /* grid->nlat / 2 */
    double *mu, *coslat, *w;     /* Gaussian nodes (north to south), √(1 − μ²), weights [nlat] */
    pst_spec_layout spec;        /* all wavenumbers 0..M */
    pst_legendre leg;            /* all latitude pairs */
    pst_fft fft;                 /* one line per latitude */
    double *points;              /* scratch [nlat][nlon] */
    fftw_complex *four;          /* scratch [nlat][nc] */
    double *a, *b, *x, *y;       /* scratch [npairs][4] */
} pst_sht;

/* Kept by reference: g must outlive t.  Set-up plans (PST_FFT_SETUP). */
void pst_sht_init(pst_sht *t, const pst_spectral_grid *g, pst_fft_planner *planner);
void pst_sht_free(pst_sht *t);

void pst_sht_analysis(pst_sht *t, const double *grid, double *spec);
void pst_sht_synthesis(pst_sht *t, const double *spec, double *grid);
/* (U, V) = (u cosθ, v cosθ) → vorticity ζ and divergence δ coefficients (1/s). */
void pst_sht_vordiv(pst_sht *t, const double *U, const double *V, double *zeta, double *div);
/* ζ, δ coefficients → grid U, V (m/s times cosθ). */
void pst_sht_wind(pst_sht *t, const double *zeta, const double *div, double *U, double *V);

#endif
