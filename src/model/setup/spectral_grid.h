/* The spectral grid: truncation, Gaussian latitudes, longitudes and levels, the rule that chooses
 * the grid for a truncation, its validation, and which processor column owns which wavenumber.
 * Built once (pst_spectral_grid_init) and passed by pointer to the parallel layout, the transforms,
 * the dynamics and `pstswm kernel`, so the model and the kernel run the same geometry.
 *
 * The rule: the smallest even nlat >= (3M+1)/2 and the smallest even 2,3,5-smooth nlon >= 3M+1,
 * an alias-free quadratic grid (T42: 64 x 128, T85: 128 x 256; Hack & Jakob 1992, as in STSWM).
 * Wavenumbers over PX processor columns: column px owns m = r + PX*i <= M, cyclic so the triangular
 * truncation's work is balanced, with r = bitrev(px) when PX is a power of two (the order the
 * distributed FFT produces) and r = px otherwise (Foster & Worley 1997). */
#ifndef PST_MODEL_SPECTRAL_GRID_H
#define PST_MODEL_SPECTRAL_GRID_H

#include <stdbool.h>
#include <stddef.h>

/* The largest truncation whose grid by the rule has at most INT_MAX points (T21843: 32766 x 65536;
 * test_model_spectral_grid checks it against the rule): the model counts a grid's points in an
 * int (MPI counts, pst_max_speed), so past it the arithmetic overflows.  It bounds --trunc's
 * parsing; the limit a run meets first is the memory estimate's (pst_dyn_max_trunc, dynamics.h),
 * which is never above it. */
#define PST_SPECTRAL_GRID_MAX_TRUNC 21843

typedef struct pst_spectral_grid {
    int M;       /* triangular truncation TM */
    int nlat;    /* Gaussian latitudes (even: north/south pairs) */
    int nlon;    /* longitudes */
    int levels;
} pst_spectral_grid;

/* The grid of truncation M with `levels` levels; nlat or nlon 0 takes the rule's.  Returns why the
 * grid does not fit M (naming --nlat or --nlon, the options that set them), or NULL. */
const char *pst_spectral_grid_init(pst_spectral_grid *g, int M, int levels, int nlat, int nlon, char *err, size_t len);

/* Why a PX x PY processor grid cannot hold g (every rank at least one latitude pair, one
 * wavenumber and one longitude), or NULL.  by_truncation words the grid by its truncation (the
 * kernel, whose grid only the truncation sets) rather than by its points (the model, whose
 * --nlat and --nlon may set them). */
const char *pst_spectral_grid_misfit(const pst_spectral_grid *g, int PX, int PY, bool by_truncation, char *msg,
                                     size_t len);

/* The wavenumbers of column px of PX into out (room for M + 1; NULL: count only); returns their count. */
int pst_spectral_grid_wavenumbers(const pst_spectral_grid *g, int PX, int px, int *out);
/* The spectral coefficients (m, n), n = m..M, of those wavenumbers. */
long pst_spectral_grid_coefficients(const pst_spectral_grid *g, int PX, int px);

#endif
