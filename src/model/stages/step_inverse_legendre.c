/* Stage 1a of the time step (step.h): the inverse Legendre sums of a level block. */
#include "model/stages/step.h"

#include "model/stages/skeleton.h"

#include <omp.h>

/* Per wavenumber and parity, P̄ sums of all five state fields and, through the same table block in
 * the same dgemm, the H sums of the other parity's ψ', χ' (legendre.h), into the Legendre buffer
 * of `pairs` pairs [m][pair][xe | yo | xo | ye] (layout.h). */
void pst_step_inverse_sums(pst_dyn *d, const double *st, double *lb, int pairs)
{
    if (pst_skeleton()) {
        pst_skeleton_inject(PST_STAGE_LEGENDRE, pst_skeleton_sums_flops(d, pairs, 0, d->spec.nm));
        return;
    }
    const int B = d->B, cs = PST_DYN_NSPEC * B * 2, ch = 2 * B * 2, ldx = (int)leg_width(d);
    /* Wavenumbers among the threads, dealt out as they finish (the sums shrink with m). */
#pragma omp parallel for schedule(dynamic) num_threads(d->nthreads) if (d->nthreads > 1)
    for (int i = 0; i < d->spec.nm; i++) {
        const double *S[2] = {st + (size_t)cs * pst_spec_block(&d->spec, i, 0),
                              st + (size_t)cs * pst_spec_block(&d->spec, i, 1)};
        double *piece = lb + leg_piece(d, (size_t)i, 0, (size_t)pairs),
               *X[2] = {piece + inv_x(d, 0), piece + inv_x(d, 1)};
        pst_leg_synth_ph(&d->leg, d->leg_work + omp_get_thread_num(), i, S, cs, cs, S_PSI * B * 2, ch,
                         d->leg_scratch[omp_get_thread_num()], X, ldx);
    }
}
