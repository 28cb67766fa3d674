/* Stage 5b of the time step (step.h): the forward Legendre sums of a level block. */
#include "model/step.h"

#include "model/skeleton.h"

/* Per wavenumber, the P̄ sums of both parities, then through the same table blocks the H sums,
 * added onto the other parity's first three sums (all in d->sum_scratch, [par][coef][O_N B 2]);
 * then κ folds into δ, δ* = δ + n(n+1)/a² κ, and η, δ*, Φ* go to O_all ([coef][OUT_N B 2], the
 * layout of d->out).  The fold is linear, so it may come before the column's sum, which then
 * carries three fields, as in Hack and Jakob's forward transform.  Owned wavenumbers [i0, i1) from
 * the Legendre buffer lb ([owned m][pair][W], `pairs` pairs). */
void pst_step_forward_sums(pst_dyn *d, const double *lb, int pairs, int i0, int i1, double *O_all)
{
    if (pst_skeleton()) {
        pst_skeleton_inject(PST_STAGE_LEGENDRE, pst_skeleton_sums_flops(d, pairs, i0, i1));
        return;
    }
    const int B = d->B, co = O_N * B * 2, cu = OUT_N * B * 2, chh = H_N * B * 2, ldf = (int)leg_width(d);
    for (int i = i0; i < i1; i++) {
        const double *sP = lb + leg_piece(d, (size_t)i, 0, (size_t)pairs), *aP = sP + co, *sH = aP + co, *aH = sH + chh;
        double *S[2] = {d->sum_scratch, d->sum_scratch + (size_t)co * d->spec.nk[0][i]};
        for (int par = 0; par < 2; par++) pst_leg_analysis(&d->leg, PST_LEG_P, i, par, par ? aP : sP, ldf, co, 0.0, S[par], co);
        /* The H sums of parity 1 − par read the input P̄ of parity par meets: sH for par 0. */
        for (int par = 0; par < 2; par++)
            pst_leg_analysis_h(&d->leg, i, par, par ? aH : sH, ldf, chh, d->leg_scratch, S[1 - par], co);
        for (int par = 0; par < 2; par++) {
            double *o = O_all + (size_t)cu * pst_spec_block(&d->spec, i, par);
            for (int k = 0; k < d->spec.nk[par][i]; k++) {
                const int n = d->spec.m[i] + par + 2 * k;
                const double L = minus_laplacian(n);
                const double *sk = S[par] + (size_t)k * co;
                double *ok = o + (size_t)k * cu;
                memcpy(ok, sk, (size_t)cu * sizeof *ok);
                for (int j = 0; j < B * 2; j++) ok[O_DIV * B * 2 + j] += L * sk[O_KAPPA * B * 2 + j];
            }
        }
    }
}

void pst_step_forward_sums_blocks_begin(pst_dyn *d) { memset(d->sums_done, 0, (size_t)d->spec.nm * sizeof *d->sums_done); }

/* ringpipe's just-in-time block: the sums of coefficients [lo, lo + count) / unit, computed by
 * whole wavenumbers into d->sums.  A wavenumber on a block boundary is computed once, by the
 * first block that needs it: with more blocks than the rank owns wavenumbers (DR on a tall
 * column) recomputing it made the sums several times their cost. */
void pst_step_forward_sums_block(void *arg, size_t lo, size_t count, double *dst)
{
    pst_dyn *d = arg;
    const size_t unit = (size_t)OUT_N * d->B * 2, c0 = lo / unit, c1 = (lo + count) / unit;
    int i0 = 0;
    while (i0 < d->spec.nm && d->spec.off[i0 + 1] <= c0) i0++;
    int i1 = i0;
    while (i1 < d->spec.nm && d->spec.off[i1] < c1) i1++;
    for (int i = i0; i < i1;) { /* each run of wavenumbers not computed yet, in one call */
        if (d->sums_done[i]) {
            i++;
            continue;
        }
        int end = i;
        while (end < i1 && !d->sums_done[end]) d->sums_done[end++] = true;
        pst_step_forward_sums(d, d->legbuf, d->npairs, i, end, d->sums);
        i = end;
    }
    memcpy(dst, d->sums + lo, count * sizeof *dst);
}
