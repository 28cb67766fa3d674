#define _GNU_SOURCE /* dlsym */
#include "model/libs/blis_sup.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#ifdef PST_HAVE_BLIS_H
#include <blis.h>
#include <math.h>
#include <stdlib.h>

/* GEMMSUP_KER_PROT of BLIS's bli_l3_sup_ker_prot.h, for double. */
typedef void sup_kernel_fn(conj_t conja, conj_t conjb, dim_t m, dim_t n, dim_t k, double *alpha, double *a,
                           inc_t rs_a, inc_t cs_a, double *b, inc_t rs_b, inc_t cs_b, double *beta, double *c,
                           inc_t rs_c, inc_t cs_c, auxinfo_t *data, cntx_t *cntx);

static struct {
    cntx_t *cntx;
    sup_kernel_fn *kernel[2]; /* [trans_a]: A row-stored (storage case RRR) or column-stored (CRR) */
    dim_t mr, nr;
    const char *arch;
    char why[512];
} sup;

static void call(bool trans_a, int m, int n, int k, double alpha, const double *A, int lda, const double *B, int ldb,
                 double beta, double *C, int ldc)
{
    if (m <= 0 || n <= 0) return;
    if (k <= 0) { /* C = beta C, and beta 0 means C is not read */
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) C[(size_t)i * ldc + j] = beta == 0.0 ? 0.0 : beta * C[(size_t)i * ldc + j];
        return;
    }
    /* Element (i, p) of op(A) at i rs_a + p cs_a; the kernel steps through the rows MR at a time,
     * moving A by ps_a = MR rs_a. */
    inc_t rs_a = trans_a ? 1 : lda, cs_a = trans_a ? lda : 1;
    auxinfo_t aux;
    memset(&aux, 0, sizeof aux);
    bli_auxinfo_set_ps_a(sup.mr * rs_a, &aux);
    for (int j0 = 0; j0 < n; j0 += (int)sup.nr) {
        dim_t nc = n - j0 < sup.nr ? n - j0 : sup.nr;
        sup.kernel[trans_a](BLIS_NO_CONJUGATE, BLIS_NO_CONJUGATE, m, nc, k, &alpha, (double *)A, rs_a, cs_a,
                            (double *)B + j0, ldb, 1, &beta, C + j0, ldc, 1, &aux, sup.cntx);
    }
}

/* The kernels against a triple loop, on shapes that exercise every edge: rows not a multiple of
 * MR, a last panel narrower than NR, one degree, leading dimensions wider than the matrices
 * (whose extra columns must stay untouched), beta 0 over a C full of NaN (which must not be
 * read) and beta 1. */
static bool kernels_verified(void)
{
    const int ms[] = {1, (int)sup.mr + 1, 2 * (int)sup.mr + 5}, ns[] = {1, (int)sup.nr - 1, (int)sup.nr + 3},
              ks[] = {1, 9};
    enum { PAD = 3, MAXD = 64 };
    double A[MAXD * MAXD], B[MAXD * MAXD], C[MAXD * MAXD];
    if (2 * sup.mr + 5 + PAD > MAXD || sup.nr + 3 + PAD > MAXD) return false;
    for (int t = 0; t < MAXD * MAXD; t++) {
        A[t] = 1.0 / (t % 17 + 1);
        B[t] = (t % 7) - 3.0;
    }
    for (int trans = 0; trans < 2; trans++)
        for (unsigned a = 0; a < sizeof ms / sizeof *ms; a++)
            for (unsigned b = 0; b < sizeof ns / sizeof *ns; b++)
                for (unsigned c = 0; c < sizeof ks / sizeof *ks; c++)
                    for (int beta = 0; beta < 2; beta++) {
                        int m = ms[a], n = ns[b], k = ks[c], lda = (trans ? m : k) + PAD, ldb = n + PAD, ldc = n + PAD;
                        for (int t = 0; t < MAXD * MAXD; t++) C[t] = beta ? 0.5 * (t % 5) : NAN;
                        call(trans, m, n, k, 2.0, A, lda, B, ldb, beta, C, ldc);
                        for (int i = 0; i < m; i++)
                            for (int j = 0; j < ldc; j++) { /* columns past n must be left alone */
                                double want = beta ? 0.5 * ((i * ldc + j) % 5) : j < n ? 0.0 : NAN;
                                for (int p = 0; p < k && j < n; p++)
                                    want += 2.0 * (trans ? A[p * lda + i] : A[i * lda + p]) * B[p * ldb + j];
                                bool ok = isnan(want) ? isnan(C[i * ldc + j])
                                                      : fabs(C[i * ldc + j] - want) <= 1e-13 * (1.0 + fabs(want));
                                if (!ok) return false;
                            }
                    }
    return true;
}

const char *pst_blis_sup_bind(void *handle, const char *version)
{
    if (sup.cntx) return NULL;
    if (*sup.why) return sup.why;
    /* The context's layout is the header's: only the version this build was compiled against. */
    if (strcmp(version, PST_BLIS_H_VERSION) != 0) {
        snprintf(sup.why, sizeof sup.why,
                 "BLIS %s is loaded but pstswm was built against BLIS %s's blis.h, whose context layout the "
                 "small-matrix kernels are found through", version, PST_BLIS_H_VERSION);
        return sup.why;
    }
    cntx_t *(*query_cntx)(void) = (cntx_t * (*)(void)) dlsym(handle, "bli_gks_query_cntx");
    arch_t (*arch_id)(void) = (arch_t(*)(void))dlsym(handle, "bli_arch_query_id");
    char *(*arch_name)(arch_t) = (char *(*)(arch_t))dlsym(handle, "bli_arch_string");
    if (!query_cntx || !arch_id || !arch_name) {
        snprintf(sup.why, sizeof sup.why, "the loaded BLIS exports no bli_gks_query_cntx / bli_arch_query_id");
        return sup.why;
    }
    cntx_t *cntx = query_cntx();
    sup.arch = arch_name(arch_id());
    sup.mr = bli_cntx_get_l3_sup_blksz_def_dt(BLIS_DOUBLE, BLIS_MR, cntx);
    sup.nr = bli_cntx_get_l3_sup_blksz_def_dt(BLIS_DOUBLE, BLIS_NR, cntx);
    sup.kernel[0] = (sup_kernel_fn *)bli_cntx_get_l3_sup_ker_dt(BLIS_DOUBLE, BLIS_RRR, cntx);
    sup.kernel[1] = (sup_kernel_fn *)bli_cntx_get_l3_sup_ker_dt(BLIS_DOUBLE, BLIS_CRR, cntx);
    sup.cntx = cntx;
    /* The generic configuration (BLIS's choice on a CPU its build has no configuration for) has
     * no small-matrix kernels. */
    if (sup.mr < 1 || sup.nr < 1 || !sup.kernel[0] || !sup.kernel[1])
        snprintf(
            sup.why, sizeof sup.why,
            "BLIS %s runs its %s configuration on this CPU, which has no small-matrix dgemm kernels (MR %ld, NR %ld)",
            version, sup.arch, (long)sup.mr, (long)sup.nr);
    else if (!kernels_verified())
        snprintf(sup.why, sizeof sup.why,
                 "BLIS %s's small-matrix dgemm kernels for %s (MR %ld, NR %ld) do not give a plain triple loop's "
                 "answers when called one panel of NR columns at a time", version, sup.arch,
                 (long)sup.mr, (long)sup.nr);
    else
        return NULL;
    sup.cntx = NULL;
    return sup.why;
}

const char *pst_blis_sup_arch(void) { return sup.arch ? sup.arch : "(not bound)"; }

void pst_blis_sup_dgemm(bool trans_a, int m, int n, int k, double alpha, const double *A, int lda, const double *B,
                        int ldb, double beta, double *C, int ldc)
{
    call(trans_a, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

#else /* built without blis.h */

#include <stdlib.h>

const char *pst_blis_sup_bind(void *handle, const char *version)
{
    (void)handle;
    (void)version;
    return "pstswm was built without BLIS's header blis.h, through which the small-matrix kernels are found "
           "(Debian/Ubuntu: apt install libblis-dev, then rebuild)";
}

const char *pst_blis_sup_arch(void) { return "(not built)"; }

void pst_blis_sup_dgemm(bool trans_a, int m, int n, int k, double alpha, const double *A, int lda, const double *B,
                        int ldb, double beta, double *C, int ldc)
{
    (void)trans_a, (void)m, (void)n, (void)k, (void)alpha, (void)A, (void)lda, (void)B, (void)ldb, (void)beta;
    (void)C, (void)ldc;
    abort(); /* unreachable: pst_blis_sup_bind refused */
}

#endif
