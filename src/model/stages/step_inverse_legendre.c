/* Stage 1a of the time step (step.h): the inverse Legendre sums of a level block. */
#include "model/stages/step.h"

#include "model/stages/skeleton.h"
#include "model/transforms/wind.h"

#include <omp.h>

/* Wavenumber i's coefficients of parity par in state block st, with the ψ' = ψ/a and χ' = χ/a
 * that the state does not keep (wind.h: ψ' = −a (η − f)/(n(n+1)), χ' = −a δ/(n(n+1))), into rows
 * of S lds apart ([η, δ, Φ', ψ', χ'][B][2] each).  Forming them here rather than in the update keeps
 * the state, its update and the partitioned update's gather at three fields. */
static void with_potentials(const pst_dyn *d, const double *st, int i, int par, double *S, int lds)
{
    const int B = d->B, cs = PST_DYN_NSTATE * B * 2;
    const size_t base = pst_spec_block(&d->spec, i, par);
    for (int k = 0; k < d->spec.nk[par][i]; k++) {
        const double ia = pst_inv_laplace_a(d->spec.m[i] + par + 2 * k, PST_EARTH_RADIUS_M);
        const double *x = st + (size_t)cs * (base + (size_t)k), *f = d->coriolis + 2 * (base + (size_t)k);
        double *s = S + (size_t)lds * k;
        memcpy(s, x, (size_t)cs * sizeof *s);
        for (int l = 0; l < B; l++)
            for (int r = 0; r < 2; r++) {
                const int j = l * 2 + r;
                s[S_PSI * B * 2 + j] = ia * (x[S_ETA * B * 2 + j] - f[r]);
                s[S_CHI * B * 2 + j] = ia * x[S_DIV * B * 2 + j];
            }
    }
}

/* Per wavenumber and parity, P̄ sums of all five fields and, through the same table block in the
 * same dgemm, the H sums of the other parity's ψ', χ' (legendre.h), into the Legendre buffer of
 * `pairs` pairs [m][pair][xe | yo | xo | ye] (layout.h).  The five fields are formed straight into
 * the rows the products read (pst_leg_synth_ph's B), so they are written once. */
void pst_step_inverse_sums(pst_dyn *d, const double *st, double *lb, int pairs)
{
    if (pst_skeleton()) {
        pst_skeleton_inject(PST_STAGE_LEGENDRE, pst_skeleton_sums_flops(d, pairs, 0, d->spec.nm));
        return;
    }
    const int B = d->B, np = PST_DYN_NSPEC * B * 2, nh = 2 * B * 2, ldb = np + nh, ldx = (int)leg_width(d);
    const size_t parity_rows = (size_t)d->cfg.grid->M / 2 + 2;
    /* Wavenumbers among the threads, dealt out as they finish (the sums shrink with m). */
#pragma omp parallel for schedule(dynamic) num_threads(d->nthreads) if (d->nthreads > 1)
    for (int i = 0; i < d->spec.nm; i++) {
        const int t = omp_get_thread_num();
        double *scratch = d->leg_scratch[t], *S[2] = {scratch, scratch + parity_rows * (size_t)ldb};
        for (int par = 0; par < 2; par++) with_potentials(d, st, i, par, S[par], ldb);
        double *piece = lb + leg_piece(d, (size_t)i, 0, (size_t)pairs),
               *X[2] = {piece + inv_x(d, 0), piece + inv_x(d, 1)};
        pst_leg_synth_ph(&d->leg, d->leg_work + t, i, np, S_PSI * B * 2, nh, scratch, X, ldx);
    }
}
