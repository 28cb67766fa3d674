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
#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct pst_fft {
    int nlon, nc, nlines;
    fftw_plan forward, inverse;
} pst_fft;

/* flags: FFTW_ESTIMATE, FFTW_MEASURE or FFTW_PATIENT. */
void pst_fft_init(pst_fft *f, int nlon, int nlines, unsigned flags);
/* pst_fft_init on every rank of comm (collective), with the same plans wherever the problem is
 * the same: rank 0 plans, and its wisdom goes to the others, which then make the same plan
 * without timing candidates.  Planned apart, each rank times FFTW's candidates under its own load
 * and may keep another plan (T85L16 on 1x2 with `measure`: the two ranks' plans differed in
 * every launch), so ranks doing equal transforms would do them at different speeds.  A rank with
 * nlines 0 takes part without planning; comm MPI_COMM_NULL plans alone. */
void pst_fft_init_agreed(pst_fft *f, int nlon, int nlines, unsigned flags, MPI_Comm comm);
void pst_fft_free(pst_fft *f);

/* FFTW plans this process has made through pst_fft_init, and how many of them came from wisdom
 * alone (imported, or shared by pst_fft_init_agreed) without timing candidates. */
void pst_fft_plan_counts(int *made, int *from_wisdom);

/* A wisdom file (--fftw-wisdom): load before planning, so the plans of an earlier run on this
 * machine come back without timing (same plans, same results bit for bit, planning in
 * milliseconds); save after, atomically (PATH.partial, then renamed).  Load: a missing file is
 * no error (*loaded false); NULL when fine, else the message in err. */
const char *pst_fft_wisdom_load(const char *path, bool *loaded, char *err, size_t len);
const char *pst_fft_wisdom_save(const char *path, char *err, size_t len);

void pst_fft_forward(const pst_fft *f, double *grid, fftw_complex *fourier);
/* Destroys `fourier` (FFTW's c2r may use its input as scratch). */
void pst_fft_inverse(const pst_fft *f, fftw_complex *fourier, double *grid);

double *pst_fft_alloc_real(size_t n);           /* zeroed, SIMD-aligned */
fftw_complex *pst_fft_alloc_complex(size_t n);  /* zeroed, SIMD-aligned */

/* Planner flags for a name: "estimate", "measure", "patient"; -1 if unknown. */
int pst_fft_flags(const char *name, unsigned *flags);

#endif
