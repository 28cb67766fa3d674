#define _GNU_SOURCE /* dlopen flags */
#include "model/libs/blas.h"
#include "model/libs/fastest.h"
#include "core/errors.h"
#include "model/libs/blis_sup.h"

#include <cblas.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pst_blas_names[PST_NBLAS] = {"openblas", "blis", "blis-sup"};

/* BLIS's typed API (BLIS docs, BLISTypedAPI.md): dim_t and inc_t are the library's integer
 * type, checked to be 64 bits before use; trans_t 0 is BLIS_NO_TRANSPOSE (transposes are given
 * as strides instead). */
typedef int64_t blis_int;
typedef void blis_dgemm_fn(int transa, int transb, blis_int m, blis_int n, blis_int k, const double *alpha,
                           const double *a, blis_int rs_a, blis_int cs_a, const double *b, blis_int rs_b, blis_int cs_b,
                           const double *beta, double *c, blis_int rs_c, blis_int cs_c);

static struct {
    void *handle;
    blis_dgemm_fn *dgemm;
    const char *version;
    const char *arch; /* the configuration it runs on this CPU; NULL when it does not say */
    char why[512];
} blis;

static const char *blis_library(void)
{
    /* PST_BLIS_LIBRARY: another BLIS build (a path or a soname); tests use it to see refusals. */
    const char *path = getenv("PST_BLIS_LIBRARY");
    return path && *path ? path : "libblis.so.4";
}

static const char *load_blis(void)
{
    if (blis.dgemm) return NULL;
    if (*blis.why) return blis.why;
    const char *lib = blis_library();
    /* RTLD_LOCAL: BLIS's BLAS and CBLAS symbols stay out of the global scope, where OpenBLAS's are. */
    blis.handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!blis.handle) {
        snprintf(blis.why, sizeof blis.why, "BLIS is not available: %s (Debian/Ubuntu: apt install libblis4-pthread)",
                 dlerror());
        return blis.why;
    }
    int (*int_size)(void) = (int (*)(void))dlsym(blis.handle, "bli_info_get_int_type_size");
    const char *(*version)(void) = (const char *(*)(void))dlsym(blis.handle, "bli_info_get_version_str");
    void (*set_threads)(blis_int) = (void (*)(blis_int))dlsym(blis.handle, "bli_thread_set_num_threads");
    void (*init)(void) = (void (*)(void))dlsym(blis.handle, "bli_init");
    int (*arch_id)(void) = (int (*)(void))dlsym(blis.handle, "bli_arch_query_id"); /* returns the enum arch_t */
    const char *(*arch_name)(int) = (const char *(*)(int))dlsym(blis.handle, "bli_arch_string");
    blis.dgemm = (blis_dgemm_fn *)dlsym(blis.handle, "bli_dgemm");
    if (!int_size || !version || !set_threads || !init || !blis.dgemm) {
        snprintf(blis.why, sizeof blis.why,
                 "%s is not a BLIS library (no bli_dgemm, bli_init, bli_info_get_int_type_size, "
                 "bli_thread_set_num_threads)",
                 lib);
    } else if (int_size() != 64) {
        snprintf(blis.why, sizeof blis.why, "%s uses %d-bit integers; pstswm calls BLIS with 64-bit ones", lib,
                 int_size());
    } else {
        /* Before any query: BLIS 0.9 checks BLIS_ARCH_TYPE against its table of configurations on
         * the first, and aborts when that table is not yet filled. */
        init();
        blis.version = version();
        blis.arch = arch_id && arch_name ? arch_name(arch_id()) : NULL;
        set_threads(1); /* one rank, one core: as OpenBLAS is limited to one thread */
        return NULL;
    }
    blis.dgemm = NULL;
    dlclose(blis.handle);
    blis.handle = NULL;
    return blis.why;
}

const char *pst_blas_load(pst_blas b)
{
    if (b == PST_BLAS_OPENBLAS) return NULL;
    const char *why = load_blis();
    return why || b == PST_BLAS_BLIS ? why : pst_blis_sup_bind(blis.handle, blis.version);
}

const char *pst_blis_version(void) { return load_blis() ? NULL : blis.version; }

const char *pst_blis_arch(void) { return load_blis() ? NULL : blis.arch; }

const char *pst_blas_version(pst_blas b)
{
    static char text[160];
    if (b == PST_BLAS_BLIS_SUP)
        snprintf(text, sizeof text, "BLIS %s, %s small-matrix kernels", blis.version, pst_blis_sup_arch());
    else if (b == PST_BLAS_BLIS) snprintf(text, sizeof text, "BLIS %s", blis.version ? blis.version : "(not loaded)");
    else snprintf(text, sizeof text, "%s", openblas_get_config());
    return text;
}

void pst_blas_dgemm(pst_blas b, bool trans_a, int m, int n, int k, double alpha, const double *A, int lda,
                    const double *B, int ldb, double beta, double *C, int ldc)
{
    if (b == PST_BLAS_BLIS_SUP) {
        pst_blis_sup_dgemm(trans_a, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    if (b == PST_BLAS_BLIS) {
        /* As the transposed product Cᵀ = Bᵀ op(A)ᵀ on column-stored matrices, which is how BLIS's
         * own CBLAS layer passes a row-major call, so the model gets the rates measured through
         * that layer (the product stated row-major was slower in a single T85L16 comparison, not
         * a repeated one).  Element (r, c) of each operand is at r rs + c cs: op(A)ᵀ (k x m) has
         * A[i][p] (A[p][i] when transposed) at (p, i). */
        blis_int rs_at = trans_a ? lda : 1, cs_at = trans_a ? 1 : lda;
        blis.dgemm(0, 0, n, m, k, &alpha, B, 1, ldb, A, rs_at, cs_at, &beta, C, 1, ldc);
        return;
    }
    cblas_dgemm(CblasRowMajor, trans_a ? CblasTrans : CblasNoTrans, CblasNoTrans, m, n, k, alpha, A, lda, B, ldb, beta,
                C, ldc);
}

pst_blas_backend pst_blas_backend_resolve(const char *name)
{
    pst_blas_backend b = {.lib = PST_BLAS_OPENBLAS, .auto_choose = strcmp(name, "auto") == 0};
    openblas_set_num_threads(1);
    if (b.auto_choose) return b;
    for (int k = 0; k < PST_NBLAS; k++)
        if (strcmp(name, pst_blas_names[k]) == 0) b.lib = (pst_blas)k;
    const char *why = pst_blas_load(b.lib);
    char message[700];
    /* BLIS itself may run where its small-matrix kernels do not: say what does. */
    if (why)
        snprintf(message, sizeof message, "--blas %s: %s%s", name, why,
                 b.lib == PST_BLAS_BLIS_SUP && !pst_blas_load(PST_BLAS_BLIS) ? "; plain BLIS runs here (--blas blis)"
                                                                             : "");
    pst_usage_check_all(why ? message : NULL);
    return b;
}

/* pst_fastest's pass over the libraries. */
typedef struct blas_trial {
    pst_blas_pass_fn *pass;
    void *arg;
} blas_trial;

static double blas_pass(void *arg, int k)
{
    const blas_trial *t = arg;
    return t->pass(t->arg, (pst_blas)k);
}

pst_blas pst_blas_choose(pst_blas configured, pst_blas_pass_fn *pass, void *arg, MPI_Comm comm,
                         double trial_s[PST_NBLAS], const char **skipped)
{
    bool usable[PST_NBLAS];
    *skipped = NULL;
    for (int k = 0; k < PST_NBLAS; k++) {
        const char *why = pst_blas_load((pst_blas)k);
        usable[k] = !why;
        if (why) *skipped = why;
    }
    return (pst_blas)pst_fastest(PST_NBLAS, usable, configured, blas_pass, &(blas_trial){pass, arg}, comm, trial_s);
}
