/* What the Legendre modules share inside the model layer (legendre.h is the interface): the
 * jobs of the split — P̄ values, tables, recurrence, the methods' products. */
#ifndef PST_MODEL_LEGENDRE_IMPL_H
#define PST_MODEL_LEGENDRE_IMPL_H

#include "model/transforms/legendre.h"

/* P̄_m^m(μ) as mant * 2^e (s = √(1 − μ²)). */
void pst_leg_sectoral(int m, double s, double *mant, int *e);

/* The tables of pst_leg_table_layout(L): P̄ and, unless p_only, H (legendre_tables.c). */
void pst_leg_tables_fill(pst_legendre *L, const double *mu_north, const double *coslat);
void pst_leg_tables_free(pst_legendre *L);

/* The recurrence's data and work areas (legendre_recurrence.c). */
void pst_leg_recurrence_init(pst_legendre *L, const double *coslat);
void pst_leg_recurrence_free(pst_legendre *L);
size_t pst_leg_work_area_doubles(int M, int npairs, bool with_h);
/* The generated block's parity-par matrix of P̄ ([nk_ext(par)][ld]) or H ([nk(par)][ld], after P̄'s). */
const double *pst_leg_generated(const pst_legendre *L, const pst_leg_work *w, pst_leg_function k, int i, int par);

/* One parity's product through a table block: a synthesis out = K[:, :k1] · in (k0 = 0), or an
 * analysis out = K[:, k0:k1]ᵀ · in + beta out (out's first row k0's). */
typedef struct pst_leg_product {
    int par, k0, k1;
    const double *in;
    int ldin, ncols;
    double beta;
    double *out;
    int ldout;
} pst_leg_product;

/* A method's product through a block of its P̄ (or H) for `pairs` pairs from pair p0: from the
 * tables pair-major ([pair][degree], lda = the block's degrees; p0 = 0, all pairs), generated
 * degree-major ([degree][pair], lda = the padded pairs). */
typedef void pst_leg_product_fn(const pst_legendre *L, const double *A, int lda, int pairs, int p0, bool synthesis,
                                const pst_leg_product *q);

/* P̄ of wavenumber i for pairs [pair0, pair0 + pairs), parity 0 rows at row0, 1 at row1. */
typedef void pst_leg_generate_fn(const pst_legendre *L, int i, int pair0, int pairs, double *row0, double *row1);
/* The recurrence method's: compiled for AVX-512, AVX2 + FMA and baseline, the loader's choice. */
pst_leg_generate_fn pst_leg_generate_cloned;

typedef struct pst_leg_method_ops {
    const char *name;
    bool tables;                  /* set-up: the tables over all pairs (pst_leg_tables_fill) */
    bool generated;               /* set-up: the recurrence's data and a work area per thread, P̄ per block */
    pst_leg_generate_fn *generate; /* generated: a block's P̄ */
    pst_leg_product_fn *product;  /* one product of one block */
    const char *summary;          /* for help texts: what the method does */
} pst_leg_method_ops;
extern const pst_leg_method_ops pst_leg_methods[PST_NLEG_METHODS];

#endif
