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

#include <fftw3.h>
#include <stddef.h>

typedef struct pst_fft {
    int nlon, nc, nlines;
    fftw_plan forward, inverse;
} pst_fft;

/* flags: FFTW_ESTIMATE, FFTW_MEASURE or FFTW_PATIENT. */
void pst_fft_init(pst_fft *f, int nlon, int nlines, unsigned flags);
void pst_fft_free(pst_fft *f);

void pst_fft_forward(const pst_fft *f, double *grid, fftw_complex *fourier);
/* Destroys `fourier` (FFTW's c2r may use its input as scratch). */
void pst_fft_inverse(const pst_fft *f, fftw_complex *fourier, double *grid);

double *pst_fft_alloc_real(size_t n);           /* zeroed, SIMD-aligned */
fftw_complex *pst_fft_alloc_complex(size_t n);  /* zeroed, SIMD-aligned */

/* Planner flags for a name: "estimate", "measure", "patient"; -1 if unknown. */
int pst_fft_flags(const char *name, unsigned *flags);

#endif
