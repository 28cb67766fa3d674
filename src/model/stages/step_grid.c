/* Stage 3 of the time step (step.h): the grid-point products of a chunk, and the previous time
 * level kept on the grid between steps. */
#include "model/stages/step.h"

#include "model/stages/skeleton.h"

/* One latitude line of the products (restrict: lets the compiler vectorise).  Three passes of at
 * most six streams: all lines start at the same offset modulo 4 KiB, and ten streams in one loop
 * overflow the L1 cache's ways (T85L16 grid stage 4.0 ms in one pass, 1.6 ms in three). */
static void product_line(int nlon, double c, const double *restrict U, const double *restrict V,
                         const double *restrict E, const double *restrict F, const double *restrict phis,
                         double *restrict ue, double *restrict ve, double *restrict uf, double *restrict vf,
                         double *restrict en)
{
    for (int i = 0; i < nlon; i++) {
        ue[i] = U[i] * E[i];
        ve[i] = V[i] * E[i];
    }
    for (int i = 0; i < nlon; i++) {
        uf[i] = U[i] * F[i];
        vf[i] = V[i] * F[i];
    }
    for (int i = 0; i < nlon; i++) en[i] = (U[i] * U[i] + V[i] * V[i]) * c + phis[i];
}

/* Nonlinear products into the chunk's forward lines, beside the previous level, completed
 * (Robert term) or, on the first step, taken from the current one (and kept).  Only the previous
 * level persists between steps (go: the block's [pair][3][B][hemi][nlon]); the products live in
 * the cache-sized chunk, so the forward FFT reads them from cache.  One field of one pair is 2B
 * contiguous lines in the chunk's inverse lines, its forward lines and the kept level alike, so
 * the previous level moves in contiguous blocks (line by line it ran at a third of the speed:
 * every 2 KiB line restarted the hardware prefetcher). */
void pst_step_products(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (pst_skeleton()) { /* the whole grid count, the Robert term's share of the kept level included */
        pst_skeleton_inject(PST_STAGE_GRID, pst_skeleton_chain_flops(d, PST_STAGE_GRID, 1.0, c->p1 - c->p0));
        return;
    }
    const int p0 = c->p0, p1 = c->p1, l0 = c->l0;
    double *go = d->grid_old[c->b];
    const int nlon = d->nlon_local;
    const size_t fi = field_lines(d) * nlon; /* distance between fields; also one field's block */
    const double eps = d->cfg.robert;
    PST_PAIRS_IN_THREADS
    for (int p = p0; p < p1; p++) {
        for (int h = 0; h < 2; h++) {
            const int lat = lat_of(d, p, h);
            const double cs = 0.5 / one_minus_mu2(d, lat);
            const double *phis = d->phis + ((size_t)p * 2 + (size_t)h) * nlon;
            for (int l = 0; l < d->Bc; l++) {
                const double *g = d->grid_inv[c->t] + inv_line(d, p - p0, h, 0, l) * nlon;
                const double *U = g + G_U * fi, *V = g + G_V * fi, *E = g + G_ETA * fi, *F = g + G_PHI * fi;
                double *q = d->grid_fwd[c->t] + fwd_line(d, p - p0, h, 0, l) * nlon;
                product_line(nlon, cs, U, V, E, F, phis, q + Q_UETA * fi, q + Q_VETA * fi, q + Q_UPHI * fi,
                             q + Q_VPHI * fi, q + Q_ENERGY * fi);
            }
        }
        for (int f = 0; f < N_OLD; f++) {
            const double *restrict cur = d->grid_inv[c->t] + inv_line(d, p - p0, 0, G_ETA + f, 0) * nlon;
            double *restrict old = d->grid_fwd[c->t] + fwd_line(d, p - p0, 0, Q_ETA_OLD + f, 0) * nlon;
            double *restrict prev = go + old_line(d, p, 0, f, l0) * nlon;
            if (s->old_from_cur) {
                memcpy(old, cur, fi * sizeof *old);
                memcpy(prev, cur, fi * sizeof *prev);
            } else if (d->old_partial) {
                for (size_t i = 0; i < fi; i++) old[i] = prev[i] + eps * cur[i];
            } else {
                for (size_t i = 0; i < fi; i++) old[i] = prev[i];
            }
        }
    }
}

/* After the forward FFT (which leaves its input intact): the current level becomes the
 * previous one, Robert-filtered as far as it can be now, (1 − 2ε) X_n + ε X_{n−1}; the
 * ε X_{n+1} term is added next step (the first step's substeps keep the t0 level instead).
 * Field blocks as in the products. */
void pst_step_store_old(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (s->keep_old || pst_skeleton()) return; /* skeleton: its flops are in the products' */
    const int p0 = c->p0, p1 = c->p1, l0 = c->l0;
    double *go = d->grid_old[c->b];
    const size_t fi = field_lines(d) * d->nlon_local;
    const double eps = d->cfg.robert;
    PST_PAIRS_IN_THREADS
    for (int p = p0; p < p1; p++)
        for (int f = 0; f < N_OLD; f++) {
            const double *restrict cur = d->grid_inv[c->t] + inv_line(d, p - p0, 0, G_ETA + f, 0) * d->nlon_local;
            const double *restrict old = d->grid_fwd[c->t] + fwd_line(d, p - p0, 0, Q_ETA_OLD + f, 0) * d->nlon_local;
            double *restrict prev = go + old_line(d, p, 0, f, l0) * d->nlon_local;
            if (eps == 0) {
                for (size_t i = 0; i < fi; i++) prev[i] = cur[i];
            } else {
                for (size_t i = 0; i < fi; i++) prev[i] = (1.0 - 2.0 * eps) * cur[i] + eps * old[i];
            }
        }
}
