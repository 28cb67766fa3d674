/* The algorithm cases `pstswm kernel` times: synthetic model-sized data for one algorithm on
 * one stage communicator, the timed call, and verification against the MPI collective (or
 * serial FFTW) the algorithm is equivalent to.
 *
 * Timed call per family (what one transform of the stage costs in a model run):
 *   transposes  forward + inverse transpose (the double transpose around a serial FFT or
 *               Legendre transform), unpacking into / packing from the full-line array by hooks;
 *   dfft        real r2c (coefficients m <= mmax) + c2r of the row's longitude lines;
 *   vector sums the forward Legendre sum: each block of spectral coefficients computed (the
 *               compute callback) and summed over the column; by the dgemm kernel a dgemm of
 *               synthetic dyadic Legendre values and Fourier data, by the recurrence kernel the
 *               model's P̄ sums of the coefficients (m, n) over the rank's Gaussian latitude
 *               pairs, P̄ generated per block (model/transforms/legendre.h). */
#ifndef PST_KERNEL_CASES_H
#define PST_KERNEL_CASES_H

#include "algo/algorithm.h"
#include "algo/fft_planner.h"
#include "cmd/kernel/kernel_problem.h"
#include "comm/protocol.h"
#include "model/libs/blas.h"
#include "model/transforms/legendre.h"

#include <mpi.h>
#include <stdbool.h>

typedef enum kstage { KS_FFT, KS_LEGENDRE } kstage;
extern const char *const pst_kernel_stage_names[2]; /* by kstage: "fft", "legendre" (--stages) */

/* Where this rank sits: the stage communicator and its grid coordinates. */
typedef struct kgeom {
    MPI_Comm comm;   /* the row (FFT stage) or column (Legendre stage) */
    int px, py, x, y;
} kgeom;

typedef struct kcase kcase;
typedef struct kplan kplan;

/* blas: the library of the vector sums' dgemms; leg: their Legendre kernel (--legendre-kernel);
 * fft: the FFTW planner (--fftw-plan) of the distributed FFT's local transforms, as the model's. */
kcase *kcase_create(pst_alg_family fam, kstage stage, const kproblem *k, const kgeom *g, bool partitioned,
                    pst_blas blas, pst_leg_method leg, pst_fft_planner *fft);
/* One alternative's plans on the case's data: alg is a registry row of the case's family (the
 * collective takes p = NULL).  Several plans may be alive at once, so
 * alternatives can be measured in interleaved rounds; a one-sided transport grows its area on
 * the case's communicator as plans are made (release it after freeing them). */
kplan *kcase_plan(kcase *c, const pst_algorithm *alg, const pst_protocol *p, bool overlap);
void kplan_free(kplan *pl);
void kcase_run(kcase *c, const kplan *pl);
/* Mismatches in the last run's result (0: verified): bitwise, but the recurrence kernel's sums
 * and dfft's to 1e-12 of the largest reference value on the rank. */
long long kcase_verify(kcase *c);
/* This rank's data per call in bytes (the transposed block, line block or vector). */
long long kcase_bytes(const kcase *c);
void kcase_free(kcase *c);

#endif
