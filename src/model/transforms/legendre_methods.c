/* The Legendre methods (legendre.h): one row each in pst_leg_methods, read by the set-up,
 * --legendre-kernel (model and kernel subcommands), auto's trial, the layout's memory table,
 * the flop counts and skeleton mode.  A new method is a product function here (or in its own
 * file) and a row. */
#include "model/transforms/legendre_impl.h"

#include "model/libs/blas.h"

#include <string.h>

/* dgemm: the tables, pair-major, over all pairs. */
static void product_tables(const pst_legendre *L, const double *A, int lda, int pairs, int p0, bool synthesis,
                           const pst_leg_product *q)
{
    if (synthesis)
        pst_blas_dgemm(L->blas, false, pairs, q->ncols, q->k1, 1.0, A, lda, q->in, q->ldin, 0.0, q->out, q->ldout);
    else
        pst_blas_dgemm(L->blas, true, q->k1 - q->k0, q->ncols, pairs, 1.0, A, lda, q->in, q->ldin, q->beta, q->out,
                       q->ldout);
}

/* recurrence: a generated block (degree-major) through the BLAS; the analysis of later blocks
 * adds onto the first's. */
static void product_blas(const pst_legendre *L, const double *A, int lda, int pairs, int p0, bool synthesis,
                         const pst_leg_product *q)
{
    if (synthesis)
        pst_blas_dgemm(L->blas, true, pairs, q->ncols, q->k1, 1.0, A, lda, q->in, q->ldin, 0.0,
                       q->out + (size_t)p0 * q->ldout, q->ldout);
    else
        pst_blas_dgemm(L->blas, false, q->k1 - q->k0, q->ncols, pairs, 1.0, A, lda, q->in + (size_t)p0 * q->ldin,
                       q->ldin, p0 ? 1.0 : q->beta, q->out, q->ldout);
}

/* simd: P̄ and the sums on L's instruction-set path. */
static void generate_simd(const pst_legendre *L, int i, int pair0, int pairs, double *row0, double *row1)
{
    pst_leg_isa_ops_of(L->isa)->generate(L, i, pair0, pairs, row0, row1);
}

/* simd: the same block through pstswm's register-blocked kernels on L's instruction-set path. */
static void product_simd(const pst_legendre *L, const double *A, int lda, int pairs, int p0, bool synthesis,
                         const pst_leg_product *q)
{
    const pst_leg_isa_ops *isa = pst_leg_isa_ops_of(L->isa);
    if (synthesis)
        isa->synth(pairs, q->k1, A, (size_t)lda, q->in, q->ldin, q->ncols, q->out + (size_t)p0 * q->ldout, q->ldout);
    else
        isa->analysis(q->k1 - q->k0, pairs, A, (size_t)lda, q->in + (size_t)p0 * q->ldin, q->ldin, q->ncols,
                      p0 ? 1.0 : q->beta, q->out, q->ldout);
}

const pst_leg_method_ops pst_leg_methods[PST_NLEG_METHODS] = {
    [PST_LEG_DGEMM] = {"dgemm", true, false, NULL, product_tables,
                       "P-bar from tables held in memory, through the BLAS"},
    [PST_LEG_RECURRENCE] = {"recurrence", false, true, pst_leg_generate_cloned, product_blas,
                            "P-bar generated on the fly for each block of latitudes, no tables, through the BLAS"},
    [PST_LEG_SIMD] = {"simd", false, true, generate_simd, product_simd,
                      "P-bar generated as recurrence, sums in pstswm's own register-blocked kernels for the CPU's "
                      "instruction set, no BLAS"},
};

const char *pst_leg_method_name(pst_leg_method method) { return pst_leg_methods[method].name; }
bool pst_leg_method_generates(pst_leg_method method) { return pst_leg_methods[method].generated; }
bool pst_leg_method_tables(pst_leg_method method) { return pst_leg_methods[method].tables; }
const char *pst_leg_method_summary(pst_leg_method method) { return pst_leg_methods[method].summary; }

pst_leg_method pst_leg_method_parse(const char *name)
{
    for (int k = 0; k < PST_NLEG_METHODS; k++)
        if (!strcmp(name, pst_leg_methods[k].name)) return (pst_leg_method)k;
    return PST_NLEG_METHODS;
}
