/* The model's FFT stage across a processor row: `lines` real longitude lines whose points are
 * split over the row (each rank [lines][nlon_local], pst_par's longitude block) to and from
 * their Fourier coefficients split by wavenumber (each rank [lines][nmx], the column's
 * wavenumbers pst_par.mx, m <= M; conventions of model/transforms/fft.h: forward unnormalised, inverse the
 * plain sum over m).
 *
 *   transposes (srtrans, swtrans, logtrans, coll) — the double transpose: the first transpose
 *     gathers whole lines (each rank a block of the lines), FFTW transforms them, the second
 *     returns to the original decomposition; block gathers and scatters run in the transposes'
 *     pack/unpack hooks, so with overlap they overlap the transfers.
 *   dfft — the binary-exchange distributed FFT (algo/dfft.h), whose wavenumber order is the
 *     column's list.
 * The timer event "fft_comm" of the caller's table sums the time spent in the parallel algorithm
 * (transposes with their packing; the whole distributed FFT, whose butterflies and transfers
 * interleave). */
#ifndef PST_MODEL_PFFT_H
#define PST_MODEL_PFFT_H

#include "algo/fft_planner.h"
#include "model/setup/parallel.h"
#include "runtime/events.h"

#include <fftw3.h>

typedef struct pst_pfft pst_pfft;

/* Collective over par->row (PX > 1). */
/* FFTW plans through `planner` (fft_planner.h); the algorithm's time into the event "fft_comm" of
 * `events` (registered here).  The transposes' FFTs of the rank's line block run on `threads`
 * OpenMP threads (1: none), the transposes on the calling thread. */
pst_pfft *pst_pfft_create(const pst_par *par, int lines, int threads, pst_fft_planner *planner,
                          pst_event_table *events);
/* Fourier [lines][nmx] → grid [lines][nlon_local]; four is not modified. */
void pst_pfft_inverse(pst_pfft *f, const fftw_complex *four, double *grid);
/* grid [lines][nlon_local] → Fourier [lines][nmx]; grid is not modified. */
void pst_pfft_forward(pst_pfft *f, const double *grid, fftw_complex *four);
void pst_pfft_free(pst_pfft *f);

#endif
