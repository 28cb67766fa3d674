/* Problem sizes for `pstswm kernel`: the per-rank data an algorithm sees in a model run of
 * truncation T, L levels and F fields on a PX x PY grid (docs/model.md), or, with a reference
 * configuration (Worley 1998's "same granularity as T42L16 on 8x8"), the reference's per-rank
 * sizes on the grid actually run.
 *
 * Model shape: the model's spectral grid of truncation T (pst_spectral_grid: T42: 64 x 128, T85:
 * 128 x 256, T63: 96 x 192), its decomposition too: latitudes go to processor rows in
 * north/south pairs (row y: pst_block of nlat/2 pairs over PY), longitudes to columns (pst_block
 * of nlon over PX), wavenumbers to columns as the model deals them (pst_spectral_grid_wavenumbers).
 *   FFT stage (row of PX ranks):  lines = latitudes of the row x L x F real lines of nlon.
 *   Legendre stage (column of PY ranks):  per rank, latitudes of its row and the spectral
 *     coefficients (m,n), n = m..M, of its column's wavenumbers, x L x F complex values. */
#ifndef PST_KERNEL_PROBLEM_H
#define PST_KERNEL_PROBLEM_H

#include "model/setup/spectral_grid.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct kproblem {
    pst_spectral_grid grid; /* the model problem's grid (the reference's with --granularity) */
    int trunc, levels, fields;
    int nlon, nlat;         /* the grid's, as the kernel's tables and records name them */
    /* Scaling: sizes per rank taken from this reference configuration. */
    bool scaled;
    int ref_trunc, ref_levels, ref_px, ref_py, ref_nlon, ref_nlat;
    char label[64];       /* "T42L16", or "T42L16@8x8" when scaled */
} kproblem;

/* Exact model configuration. */
void kproblem_model(kproblem *k, int trunc, int levels, int fields);
/* Parse "T42L16@8x8" into a scaled problem; -1 with a message when malformed or when the
 * reference grid does not fit the reference problem. */
int kproblem_scaled(kproblem *k, const char *spec, int fields, char *err, size_t errlen);
/* Does a PX x PY grid fit (every rank at least one longitude, wavenumber and latitude pair)?
 * NULL, or why not (pst_spectral_grid_misfit). */
const char *kproblem_grid_check(const kproblem *k, int px, int py);

int kp_fft_nlon(const kproblem *k, int px);                 /* FFT line length */
int kp_fft_lines(const kproblem *k, int py, int y);         /* real lines in row y */
void kp_lon_block(const kproblem *k, int px, int x, size_t *lo, size_t *n);
int kp_lats(const kproblem *k, int py, int y);              /* latitudes of row y */
/* The north/south latitude pairs of row y: first (of the grid's nlat / 2, north to south) and count. */
void kp_pair_block(const kproblem *k, int py, int y, size_t *lo, size_t *n);
int kp_nm(const kproblem *k, int px, int x);                /* wavenumbers of column x */
/* Their values into out (room for trunc + 1; NULL: count only), in the model's order; returns kp_nm. */
int kp_wavenumbers(const kproblem *k, int px, int x, int *out);
long kp_ncoef(const kproblem *k, int px, int x);            /* spectral coefficients of column x */
int kp_mmax(const kproblem *k, int px);                     /* highest wavenumber (dfft) */

#endif
