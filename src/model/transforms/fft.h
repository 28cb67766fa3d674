/* Batched real FFTs along longitude with FFTW: plans made once per batch shape, executed on
 * any arrays of that shape (FFTW's new-array interface; arrays from pst_fft_alloc_*).
 *
 * Layout: `nlines` contiguous grid lines of nlon reals ↔ `nlines` contiguous Fourier lines of
 * nc = nlon/2 + 1 complex values.  Forward: F_m = Σ_i f_i e^{−2πi·im/nlon} (unnormalised);
 * inverse: f_i = Σ_{m=−nc+1}^{nc−1} F_m e^{2πi·im/nlon} (F_{−m} = conj F_m), i.e. the inverse of
 * the forward divided by nlon.  Lines are contiguous because FFTW is 2-4x faster on them than
 * on strided ones (measured on this project's reference machine). */
#ifndef PST_MODEL_FFT_H
#define PST_MODEL_FFT_H

#include "algo/fft_planner.h"

#include <fftw3.h>
#include <mpi.h>
#include <stddef.h>

typedef struct pst_fft {
    int nlon, nc, nlines;
    fftw_plan forward, inverse;
} pst_fft;

/* Both plans through the planner (algo/fft_planner.h), for `use`. */
void pst_fft_init(pst_fft *f, pst_fft_planner *planner, pst_fft_use use, int nlon, int nlines);
/* pst_fft_init for the step on every rank of comm (collective), agreed over it
 * (pst_fft_plan_agreed: rank 0's plans everywhere the problem is the same).  A rank with nlines 0
 * takes part without planning; comm MPI_COMM_NULL plans alone. */
void pst_fft_init_agreed(pst_fft *f, pst_fft_planner *planner, int nlon, int nlines, MPI_Comm comm);
void pst_fft_free(pst_fft *f);

void pst_fft_forward(const pst_fft *f, double *grid, fftw_complex *fourier);
/* Destroys `fourier` (FFTW's c2r may use its input as scratch). */
void pst_fft_inverse(const pst_fft *f, fftw_complex *fourier, double *grid);

double *pst_fft_alloc_real(size_t n);           /* zeroed, SIMD-aligned */
fftw_complex *pst_fft_alloc_complex(size_t n);  /* zeroed, SIMD-aligned */

#endif
