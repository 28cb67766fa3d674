/* Fourier coefficients of the wind images U = u cosθ, V = v cosθ from the Legendre sums of the
 * scaled stream function ψ' = ψ/a and velocity potential χ' = χ/a (ψ = −a²ζ/(n(n+1)), likewise χ):
 *   U_m = im Σ χ' P̄ − Σ ψ' H,   V_m = im Σ ψ' P̄ + Σ χ' H        (Hack & Jakob 1992, eq. 4.3)
 * x* are P̄ sums, y* are H sums, each (re, im).  8 flops. */
#ifndef PST_MODEL_WIND_H
#define PST_MODEL_WIND_H

static inline void pst_wind_from_sums(double m, const double *xpsi, const double *xchi, const double *ypsi,
                                      const double *ychi, double *u, double *v)
{
    u[0] = -m * xchi[1] - ypsi[0];
    u[1] = m * xchi[0] - ypsi[1];
    v[0] = -m * xpsi[1] + ychi[0];
    v[1] = m * xpsi[0] + ychi[1];
}

/* −a/(n(n+1)): ζ ↦ ψ' (0 for n = 0). */
static inline double pst_inv_laplace_a(int n, double a) { return n ? -a / ((double)n * (n + 1)) : 0.0; }

#endif
