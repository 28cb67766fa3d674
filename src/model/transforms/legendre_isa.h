/* The register-blocked Legendre method's code paths, one per instruction set (legendre.h: the
 * "simd" method), each compiled in its own translation unit with that set's flags and chosen at
 * run time from the CPU's flags (or forced: --legendre-isa). */
#ifndef PST_MODEL_LEGENDRE_ISA_H
#define PST_MODEL_LEGENDRE_ISA_H

#include <stdbool.h>
#include <stddef.h>

struct pst_legendre;

typedef enum pst_leg_isa { PST_LEG_ISA_BASELINE, PST_LEG_ISA_AVX2, PST_LEG_ISA_AVX512, PST_NLEG_ISAS } pst_leg_isa;
extern const char
    *const pst_leg_isa_names[PST_NLEG_ISAS]; /* "baseline" (x86-64 SSE2), "avx2" (with FMA), "avx512" (F) */

/* One path's kernels.  P blocks are degree-major, [degree][pair] with rows ldp apart, as the
 * recurrence generates them.
 *   generate:  P̄ of wavenumber i, pairs [pair0, pair0 + pairs), parity 0 rows at row0, 1 at row1;
 *   synth:     X[pairs][ncols] = Σ_k P[k][pair] S[k][ncols]  (k < nk);
 *   analysis:  O[nk][ncols] = Σ_pair P[k][pair] F[pair][ncols] + beta O  (beta 0: O not read). */
typedef struct pst_leg_isa_ops {
    void (*generate)(const struct pst_legendre *L, int i, int pair0, int pairs, double *row0, double *row1);
    void (*synth)(int pairs, int nk, const double *P, size_t ldp, const double *S, int lds, int ncols, double *X,
                  int ldx);
    void (*analysis)(int nk, int pairs, const double *P, size_t ldp, const double *F, int ldf, int ncols, double beta,
                     double *O, int ldo);
} pst_leg_isa_ops;

/* Whether this build has the path (the compiler took its flags) and whether this CPU runs it. */
bool pst_leg_isa_built(pst_leg_isa isa);
bool pst_leg_isa_cpu_has(pst_leg_isa isa);
/* The fastest path built and run by this CPU. */
pst_leg_isa pst_leg_isa_best(void);
/* A name of pst_leg_isa_names, "auto" (-1: the best), or -2 for none of them. */
int pst_leg_isa_parse(const char *name);
/* Why isa cannot run here (NULL: it can): one line for a usage error. */
const char *pst_leg_isa_refusal(pst_leg_isa isa);
const pst_leg_isa_ops *pst_leg_isa_ops_of(pst_leg_isa isa);

#endif
