/* The BLAS library behind the Legendre transforms' matrix products.
 *
 * OpenBLAS is linked.  BLIS (Van Zee & van de Geijn 2015) is loaded at run time from
 * libblis.so.4 (Debian: libblis4-pthread) and called through its typed API with explicit row and
 * column strides, so its exported BLAS/CBLAS symbols never clash with OpenBLAS's; or its
 * small-matrix kernels are called directly (blis_sup.h).  Which is fastest for the model's
 * shapes (a few dozen rows and degrees, 10-200 columns) depends on the CPU and the library
 * build: on an AVX2 AMD EPYC (Zen 3) BLIS's kernels called directly ran T85's shapes at 1.6-2.5x
 * OpenBLAS 0.3.21's rate (pst_yardstick legendre), on an AVX-512 EPYC OpenBLAS's own
 * small-matrix kernels beat bli_dgemm, so the model can time each on its own products and keep
 * the fastest (pst_blas_choose). */
#ifndef PST_MODEL_BLAS_H
#define PST_MODEL_BLAS_H

#include <mpi.h>
#include <stdbool.h>

/* PST_BLAS_BLIS_SUP: the same BLIS, its small-matrix kernels called directly (blis_sup.h). */
typedef enum pst_blas { PST_BLAS_OPENBLAS, PST_BLAS_BLIS, PST_BLAS_BLIS_SUP, PST_NBLAS } pst_blas;

extern const char *const pst_blas_names[PST_NBLAS]; /* "openblas", "blis", "blis-sup" */

/* Make library b callable (loading BLIS on first use, limited to one thread like OpenBLAS).
 * NULL when it is, else why not (a message naming the library file and the package). */
const char *pst_blas_load(pst_blas b);

/* The library's own version text ("OpenBLAS 0.3.21 ..." / "BLIS 0.9.0" / "BLIS 0.9.0, zen3
 * small-matrix kernels"); b must be loaded. */
const char *pst_blas_version(pst_blas b);

/* BLIS's version text and the configuration it runs on this CPU ("zen3", "haswell", "generic":
 * BLIS_ARCH_TYPE overrides its choice), loading it if need be; NULL when it does not load (or,
 * for the configuration, does not say). */
const char *pst_blis_version(void);
const char *pst_blis_arch(void);

/* C[m][n] = alpha op(A) B + beta C, row-major, op(A) = A (m x k, lda) or Aᵀ (A is k x m);
 * B is k x n (ldb), C m x n (ldc).  b must be loaded. */
void pst_blas_dgemm(pst_blas b, bool trans_a, int m, int n, int k, double alpha, const double *A, int lda,
                    const double *B, int ldb, double beta, double *C, int ldc);

/* The BLAS backend a run's --blas chose, the same for `pstswm model` and `pstswm kernel`: a library
 * (OpenBLAS limited to one thread, as BLIS is), or with auto (the model only: it times its own
 * products at set-up, pst_blas_choose) OpenBLAS until the choice. */
typedef struct pst_blas_backend {
    pst_blas lib;
    bool auto_choose;
} pst_blas_backend;

/* --blas NAME (a name of pst_blas_names, or "auto"): collective over MPI_COMM_WORLD, a named
 * library must load on every rank, else every rank exits 2 naming why. */
pst_blas_backend pst_blas_backend_resolve(const char *name);

/* One timed pass of the caller's matrix products with library b (loaded), in seconds. */
typedef double pst_blas_pass_fn(void *arg, pst_blas b);

/* --blas auto: time pass(arg, b) with each library that loads, in three interleaved rounds after
 * one untimed call each (BLIS sets itself up on its first call), and return the one with the
 * smallest best time; `configured` stays unless another is at least 5 % faster, so a tie on a
 * noisy host changes nothing.  On a communicator (collective; MPI_COMM_NULL: this process alone)
 * the slowest rank's times decide, so every rank uses the same library, and a library one rank
 * cannot load is out everywhere.  trial_s: each library's best time (NaN: not timed); *skipped:
 * why a library was not timed (NULL: all were). */
pst_blas pst_blas_choose(pst_blas configured, pst_blas_pass_fn *pass, void *arg, MPI_Comm comm,
                         double trial_s[PST_NBLAS], const char **skipped);

#endif
