/* Model fields on disk as NetCDF (classic format, readable by netCDF4, xarray and
 * scipy.io.netcdf_file): the grid fields for plotting and the spectral coefficients, so that
 * a run can serve as the reference of another at any resolution (`--reference`).
 *
 * Dimensions lat (north to south, Gaussian), lon (from 0, eastward), coef.  Variables:
 * lat, lon (degrees), gauss_weight(lat), h, hs, u, v, zeta (lat, lon) in m, m s⁻¹, s⁻¹;
 * coef_m, coef_n (coef) and zeta_re/_im, div_re/_im, phi_re/_im (coef): coefficients of the
 * relative vorticity, divergence and geopotential deviation Φ' = g(h − h_s) − Φ̄ for
 * f(λ, μ) = Σ_m Σ_n f_n^m P̄_n^m(μ) e^{imλ} (negative m: complex conjugate), ∫P̄² dμ = 1.
 * Global attributes: case, alpha, trunc, nlat, nlon, levels, level (written: 0), time_s, days,
 * dt_s, steps, phibar. */
#ifndef PST_MODEL_FIELDS_IO_H
#define PST_MODEL_FIELDS_IO_H

#include "model/model.h"

#include <stddef.h>

typedef struct pst_reference {
    int test_case, M;
    double alpha, time_s, phibar;
    double *zeta, *div, *phi;    /* [ncoef(M)][2], full layout */
} pst_reference;

/* Level 0 of the model at time t_s after `steps` steps.  0, or -1 with a message. */
/* Call pst_model_level_grids(m, 0) first (collective in a parallel run): this writes what it left. */
int pst_fields_write(const char *path, pst_model *m, double t_s, long steps, char *err, size_t errlen);

int pst_reference_read(const char *path, pst_reference *r, char *err, size_t errlen);
void pst_reference_free(pst_reference *r);

#endif
