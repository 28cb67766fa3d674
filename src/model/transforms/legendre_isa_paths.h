/* The kernels of each instruction-set path (legendre_isa.h), defined by legendre_isa_<path>.c
 * from the one template legendre_isa_kernel.h. */
#ifndef PST_MODEL_LEGENDRE_ISA_PATHS_H
#define PST_MODEL_LEGENDRE_ISA_PATHS_H

#include "model/transforms/legendre_isa.h"

#define PST_LEG_ISA_DECLARE(path)                                                                                      \
    void pst_leg_generate_##path(const struct pst_legendre *L, int i, int pair0, int pairs, double *row0,              \
                                 double *row1);                                                                        \
    void pst_leg_synth_##path(int pairs, int nk, const double *P, size_t ldp, const double *S, int lds, int ncols,     \
                              double *X, int ldx);                                                                     \
    void pst_leg_analysis_##path(int nk, int pairs, const double *P, size_t ldp, const double *F, int ldf, int ncols,  \
                                 double beta, double *O, int ldo);
PST_LEG_ISA_DECLARE(baseline)
PST_LEG_ISA_DECLARE(avx2)
PST_LEG_ISA_DECLARE(avx512)
#undef PST_LEG_ISA_DECLARE

#endif
