/* Analytic floating-point operation count of one model time step (per level), derived from the
 * operations the time step performs (step*.c); a multiply-add counts 2.  With K = (M+1)(M+2)/2
 * coefficients, J = nlat latitudes (J/2 pairs) and N = nlon longitudes:
 *
 *   legendre   ψ' and χ' from η and δ (6 per coefficient); 14 complex sums over coefficients
 *              x latitude pairs, 4 flops each: inverse P̄: η, δ, Φ', ψ', χ' (5) and H: ψ', χ'
 *              (2); forward P̄: η, δ, Φ', κ (4) and H: η, δ, Φ' (3); then κ folded into δ
 *              (δ += n(n+1)/a² κ)                                          56 · K · J/2 + 10 · K
 *   fourier    per wavenumber m ≤ M and latitude: inverse north/south split and winds (22),
 *              forward tendency combination with the old level and the symmetric/
 *              antisymmetric parts (50)                                      72 · (M+1) · J
 *   fft        13 real FFTs per latitude (5 inverse: U, V, η, δ, Φ'; 8 forward: Uη, Vη, UΦ',
 *              VΦ', E, and the old η, δ, Φ'), 2.5 N log2 N each (the usual real-FFT count,
 *              half of 5 N log2 N)                                          13 · J · 2.5 N log2 N
 *   grid       Uη, Vη, UΦ', VΦ' (4) and E = (U²+V²)c + Φ_s (5) per point      9 · J · N
 *              (+15 per point with the Robert–Asselin filter)
 *   spectral   semi-implicit (or explicit) update: 10 per coefficient (advection: 4)
 *              (+6 with ∇⁴ diffusion)                                        10 · K
 *
 * T42 (64 x 128): 3,849,704 (Worley 1998: 4,129,859, −6.8 %); T85 (128 x 256): 23,089,732
 * (Worley 1998: 24,235,477, −4.7 %).  Per-coefficient constants (n(n+1)/a², the solve factor)
 * are shared by all levels and left out, and so is what taking the H sums through P̄ adds
 * (legendre.h: one more degree per wavenumber and the recurrence's 8 flops per coefficient and H
 * field, about 2 % of the Legendre count at T85).
 *
 * The Legendre recurrence kernel (legendre.h) adds the generation of P̄ for degrees m..M+1,
 * 5 flops per value (the step's multiply, multiply-add and division, and the underflow scale),
 * once per level block and direction for all its levels: 10 · (K + M + 1) · J/2 per level
 * block.  It is counted apart (pst_flops_recurrence_per_step), so MFlop/s stay comparable with
 * Worley's count whichever kernel ran. */
#ifndef PST_MODEL_FLOPS_H
#define PST_MODEL_FLOPS_H

#include "model/stages/dynamics.h"

typedef struct pst_flops {
    double legendre, fourier, fft, grid, spectral, total;
} pst_flops;

/* Per level and step, for the scheme and options of cfg (M, nlat, nlon, scheme, robert, hdiff). */
pst_flops pst_flops_per_level(const pst_dyn_config *cfg);

/* The recurrence's generation flops of one step, all levels of cfg (blocks of level_block). */
double pst_flops_recurrence_per_step(const pst_dyn_config *cfg);

/* The category a stage of the time step (dynamics.h's timer events) performs. */
double pst_flops_of_stage(const pst_flops *f, pst_stage stage);

#endif
