/* Stage 5b of the time step (step.h): the forward Legendre sums of a level block. */
#include "model/stages/step.h"

#include "model/stages/skeleton.h"

#include <omp.h>

/* κ folds into δ (δ* = δ + n(n+1)/a² κ) on the way from parity par's sums S of degree rows
 * [k0, k1) of wavenumber i (lds apart) to O (η, δ*, Φ* per row).  The fold is linear, so it may
 * come before the column's sum, which then carries three fields, as in Hack and Jakob's forward
 * transform. */
static void fold_out(const pst_dyn *d, int i, int par, int k0, int k1, const double *S, int lds, double *O)
{
    const int B = d->B, cu = OUT_N * B * 2;
    for (int k = k0; k < k1; k++) {
        const double L = minus_laplacian(d->spec.m[i] + par + 2 * k);
        const double *sk = S + (size_t)(k - k0) * lds;
        double *ok = O + (size_t)(k - k0) * cu;
        memcpy(ok, sk, (size_t)cu * sizeof *ok);
        for (int j = 0; j < B * 2; j++) ok[O_DIV * B * 2 + j] += L * sk[O_KAPPA * B * 2 + j];
    }
}

/* All of wavenumber i (piece: its pairs' inputs): each parity's table block once, for the P̄ sums
 * of its parity and the sums of the H inputs it meets together (one dgemm, Z: [row][P̄ | H]);
 * then each parity's H sums from the other's Z, added onto its first three fields. */
static void whole_wavenumber(pst_dyn *d, pst_leg_work *w, double *Z, const double *piece, int i, double *O)
{
    const int B = d->B, co = O_N * B * 2, chh = H_N * B * 2, ldz = co + chh, ldf = (int)leg_width(d);
    double *Zt[2] = {Z, Z + ((size_t)d->cfg.grid->M / 2 + 2) * ldz};
    pst_leg_analysis_ext(&d->leg, w, i, (const double *[2]){piece + fwd_p(d, 0), piece + fwd_p(d, 1)}, ldf, ldz, Zt);
    for (int par = 0; par < 2; par++) {
        pst_leg_h_from_sums(&d->leg, i, 1 - par, Zt[1 - par] + co, ldz, chh, Zt[par], ldz);
        fold_out(d, i, par, 0, d->spec.nk[par][i], Zt[par], ldz,
                 O + (size_t)OUT_N * B * 2 * (pst_spec_block(&d->spec, i, par) - d->spec.off[i]));
    }
}

/* Degree rows [k0, k1) of each parity of wavenumber i (a pipelined block's edge cuts it): their
 * P̄ sums, then the H sums of the same rows through the other parity's table (S, H_scratch: the
 * thread's scratch). */
static void part_wavenumber(pst_dyn *d, pst_leg_work *w, double *S, double *H_scratch, const double *piece, int i,
                            size_t c0, size_t c1, double *O)
{
    const int B = d->B, co = O_N * B * 2, chh = H_N * B * 2, ldf = (int)leg_width(d);
    for (int par = 0; par < 2; par++) {
        const size_t first = pst_spec_block(&d->spec, i, par), end = first + (size_t)d->spec.nk[par][i];
        const int k0 = (int)((c0 > first ? c0 : first) - first), k1 = (int)((c1 < end ? c1 : end) - first);
        if (k1 <= k0) continue;
        pst_leg_analysis_rows(&d->leg, w, PST_LEG_P, i, par, k0, k1, piece + fwd_p(d, par), ldf, co, 0.0, S, co);
        /* Parity par's H sums come through the P̄ table of parity 1 − par, from the input it meets. */
        pst_leg_analysis_h(&d->leg, w, i, 1 - par, k0, k1, piece + fwd_h(d, 1 - par), ldf, chh, H_scratch, S, co);
        fold_out(d, i, par, k0, k1, S, co, O + (size_t)OUT_N * B * 2 * (first + (size_t)k0 - c0));
    }
}

/* The forward sums of owned coefficients [c0, c1) from the Legendre buffer lb ([owned m][pair][W],
 * `pairs` pairs) into O ([c1 − c0][OUT_N B 2], the layout of d->out from c0 on).  Any range costs
 * in proportion to its coefficients, so the blocks of a pipelined vector sum are computed once
 * each and evenly. */
static void forward_sums(pst_dyn *d, const double *lb, int pairs, size_t c0, size_t c1, double *O)
{
    if (c1 <= c0) return;
    if (pst_skeleton()) { /* all owned coefficients' flops, times the range's share of them */
        const double share = (double)(c1 - c0) / (double)d->spec.ncoef;
        pst_skeleton_inject(PST_STAGE_LEGENDRE, pst_skeleton_sums_flops(d, pairs, 0, d->spec.nm) * share);
        return;
    }
    int i_first = 0, i_end;
    while (d->spec.off[i_first + 1] <= c0) i_first++;
    for (i_end = i_first; i_end < d->spec.nm && d->spec.off[i_end] < c1; i_end++) continue;
    /* Wavenumbers among the threads as in the inverse sums, each with its own scratch. */
#pragma omp parallel for schedule(dynamic) num_threads(d->nthreads) if (d->nthreads > 1)
    for (int i = i_first; i < i_end; i++) {
        const int t = omp_get_thread_num();
        const double *piece = lb + leg_piece(d, (size_t)i, 0, (size_t)pairs);
        if (c0 <= d->spec.off[i] && d->spec.off[i + 1] <= c1)
            whole_wavenumber(d, d->leg_work + t, d->sum_scratch[t], piece, i,
                             O + (size_t)OUT_N * d->B * 2 * (d->spec.off[i] - c0));
        else
            part_wavenumber(d, d->leg_work + t, d->sum_scratch[t], d->leg_scratch[t], piece, i, c0, c1, O);
    }
}

void pst_step_forward_sums(pst_dyn *d, const double *lb, int pairs, double *O_all)
{
    forward_sums(d, lb, pairs, 0, d->spec.ncoef, O_all);
}

/* ringpipe's (and iallreduce's) just-in-time block: the vector sum's partition is by whole
 * coefficients (its unit, dynamics.c), so the block is coefficients [lo, lo + count) / unit. */
void pst_step_forward_sums_block(void *arg, size_t lo, size_t count, double *dst)
{
    pst_dyn *d = arg;
    const size_t unit = (size_t)OUT_N * d->B * 2;
    forward_sums(d, d->legbuf, d->npairs, lo / unit, (lo + count) / unit, dst);
}
