/* BLIS's small-matrix ("sup") dgemm kernels, called directly.
 *
 * bli_dgemm decides, for every call, whether a product is small enough for its unpacked
 * small-matrix path (Van Zee & van de Geijn 2015 describe the framework; the sup path came
 * later), then partitions it; for the model's products (tens of rows and degrees, 10-200
 * columns, hundreds of calls per level block) that framework costs as much as the arithmetic.
 * The kernels themselves read the operands in place through row and column strides, so the
 * model can call them with its own layouts: one call per panel of NR columns, each kernel
 * looping over the rows in steps of MR.
 *
 * The kernels are found through the context of the loaded library (its blis.h accessors, so
 * the library must be the version whose header this build saw), and checked against a plain
 * triple loop on edge shapes before first use: a kernel that does not follow that calling
 * convention is refused, never used. */
#ifndef PST_MODEL_BLIS_SUP_H
#define PST_MODEL_BLIS_SUP_H

#include <stdbool.h>

/* Bind the kernels of the BLIS library opened as handle (dlopen) whose version text is
 * version.  NULL when they are ready, else why not. */
const char *pst_blis_sup_bind(void *handle, const char *version);

/* The configuration whose kernels run ("zen3", "haswell", ...); after a successful bind. */
const char *pst_blis_sup_arch(void);

/* C[m][n] = alpha op(A) B + beta C, row-major, as pst_blas_dgemm (beta 0: C is not read). */
void pst_blis_sup_dgemm(bool trans_a, int m, int n, int k, double alpha, const double *A, int lda, const double *B,
                        int ldb, double beta, double *C, int ldc);

#endif
