/* The compute mode of model and kernel runs (--compute; docs/predict.md, "Skeleton mode").
 *
 *   real      every stage does its arithmetic (on a simulated platform SMPI times it on this host
 *             and scales it to the platform's rate).
 *   skeleton  SMPI builds only: each stage of the time step skips its arithmetic and injects the
 *             time of its analytic flop count on this rank (flops.h) at the simulated host's
 *             speed, which scripts/pstrun --problem sets to the platform's rate for the problem,
 *             or at the platform's rate for the stage where it gives one;
 *             messages keep their real sizes and order.  SMPI's own timing of this host's work
 *             is switched off (smpi/simulate-computation:no), so the injected time is the whole
 *             compute time and the simulation costs what the messages cost; the copies of the
 *             transposes and vector sums are charged at the platform's copy rate when it gives
 *             one (core/copy_charge.h: PSTSWM_SMPI_COPY_BYTES_PER_S).  Buffer values are
 *             meaningless: the large ones are folded (pst_shared_alloc) and error norms are null.
 *
 * The mode is the process's (every simulated rank selects the same one); a real build refuses
 * skeleton by name with exit 2. */
#ifndef PST_MODEL_SKELETON_H
#define PST_MODEL_SKELETON_H

#include "model/stages/dynamics.h"

#include <stdbool.h>

extern const char *const pst_compute_names[]; /* "real", "skeleton", NULL: the option's choices */

/* The --compute option row of a command's pst_opt table (field: const char *, default "real"). */
#define PST_COMPUTE_OPT(field)                                                                             \
    {"compute", PST_OPT_STRING, (field), "MODE",                                                           \
     "real, or skeleton (SMPI builds): each stage's arithmetic skipped, its analytic flops "              \
     "injected as simulated time", 1, 0, pst_compute_names, NULL}

/* --compute NAME, after option parsing and before pst_ctx_start: exit 2 for skeleton outside
 * SMPI; adds the run header's "compute" field (schema: pst_compute_header_fields); in skeleton
 * mode turns verification off (there are no results to check) and says so. */
struct pst_ctx;
void pst_compute_setup(struct pst_ctx *ctx, const char *name);
bool pst_skeleton(void);
extern const struct pst_fields pst_compute_header_fields;

/* Skeleton mode: spend the simulated time of `flops` of `stage` on this rank, at the platform's
 * rate for the stage when it gives one (PSTSWM_SMPI_STAGE_MFLOPS), else the problem's. */
void pst_skeleton_inject(pst_stage stage, double flops);

/* This rank's analytic flops (flops.h's per-level count of the stage's category, times the share
 * of it one call covers) for: one direction of the Legendre sums of one level block, `pairs`
 * latitude pairs over owned wavenumbers [i0, i1); a chain stage of category `stage` on `pairs`
 * pairs of Bc levels, `direction` its share of the category (e.g. 5 of the 13 FFTs); the update
 * of one level block. */
double pst_skeleton_sums_flops(const pst_dyn *d, int pairs, int i0, int i1);
double pst_skeleton_chain_flops(const pst_dyn *d, pst_stage stage, double direction, int pairs);
double pst_skeleton_update_flops(const pst_dyn *d);

#endif
