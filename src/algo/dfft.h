/* dfft: distributed FFT of many lines by binary exchange (Worley 1998 §6; Foster & Worley 1997).
 *
 * Complex lines: `lines` lines of length N, block-distributed over the P = 2^k ranks of comm:
 * rank p holds elements [p*nl, (p+1)*nl) of every line, nl = N/P (N a multiple of P), stored
 * line after line: data[l*nl + j] is element p*nl + j of line l.
 *
 * Forward: k decimation-in-frequency stages, stage t (t = 0..k-1, butterfly span h = N/2^(t+1))
 * a SWAP of the whole local block with partner p XOR (h/nl) = p XOR 2^(k-1-t), the lower rank
 * forming a + b and the upper (a - b) w^j (w = e^(-2 pi i/2h), j = global index mod h); then a
 * local FFTW transform of length nl on every line.  The result is unnormalized (FFTW_FORWARD)
 * and distributed cyclically with bit-reversed rank order: data[l*nl + j] holds frequency
 *     pst_dfft_freq(f, j) = bitrev_k(p) + P*j.
 * Backward is the exact inverse schedule (local FFTW_BACKWARD, then the stages in reverse as
 * decimation-in-time butterflies): it takes that distribution and returns the block one,
 * unnormalized like FFTW (backward(forward(x)) = N x).
 *
 * Real lines (what the model needs for longitude lines): pst_dfft_r2c transforms `lines` real
 * lines in the block layout in[l*nl + j] (two per complex line) and keeps the coefficients
 * m = 0..mmax (mmax < N/2) that this rank owns in that cyclic distribution:
 *     out[l*nm + i], i = 0..nm-1, is coefficient m = pst_dfft_m(f, i) = bitrev_k(p) + P*i of
 * line l (FFTW r2c convention: X_m = sum_g x_g e^(-2 pi i m g/N), unnormalized), nm =
 * pst_dfft_nm(f) (ranks differ by at most one; the cyclic order balances a triangular
 * truncation's work over ranks).  Separating the two real lines needs Z_(N-m), which lives
 * on rank bitrev_k((P - bitrev_k(p)) mod P): one more SWAP of the local block with that rank
 * (none when it is p).  pst_dfft_c2r is the inverse (FFTW c2r convention: coefficients above
 * mmax are zero, the imaginary part of m = 0 is ignored; unnormalized).
 *
 * Overlap (pst_overlapped): each stage's SWAP is split into up to PST_MAX_CHUNKS messages and
 * the butterflies on chunk c run while later chunks are in flight. */
#ifndef PST_DFFT_H
#define PST_DFFT_H

#include "algo/fft_planner.h"
#include "comm/protocol.h"

#include <complex.h>
#include <mpi.h>
#include <stdbool.h>

typedef struct pst_dfft pst_dfft;

/* Collective.  P must be a power of two dividing n; lines >= 0; for the real transforms
 * 0 <= mmax < n/2 (pass -1 when only the complex transform is used).  The local FFTW transforms
 * are planned through `planner` with the run's effort, agreed over comm (fft_planner.h). */
pst_dfft *pst_dfft_create(const pst_protocol *p, bool overlap, MPI_Comm comm, int n, int lines, int mmax,
                          pst_fft_planner *planner);
/* Why create would refuse (NULL when fine): for callers that validate input first. */
const char *pst_dfft_check(int nranks, int n, int mmax);

/* Complex, in place on lines x nl elements (layout above).  `lines` complex lines. */
void pst_dfft_forward(pst_dfft *f, double complex *data);
void pst_dfft_backward(pst_dfft *f, double complex *data);
int pst_dfft_local_n(const pst_dfft *f);          /* nl */
long pst_dfft_freq(const pst_dfft *f, int j);      /* global frequency of local index j */

/* Real: `lines` real lines; in has lines x nl doubles, out lines x nm coefficients. */
void pst_dfft_r2c(pst_dfft *f, const double *in, double complex *out);
void pst_dfft_c2r(pst_dfft *f, const double complex *in, double *out);
int pst_dfft_nm(const pst_dfft *f);               /* local coefficients m <= mmax */
int pst_dfft_m(const pst_dfft *f, int i);         /* the i-th local m */

void pst_dfft_free(pst_dfft *f);

#endif
