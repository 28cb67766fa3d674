/* Stages 1b and 5a of the time step (step.h): the Fourier-space combinations that turn the
 * Legendre dgemms' wavenumber-major sums into latitude-major Fourier lines and back (memory bound). */
#include "model/stages/step.h"

#include "model/stages/skeleton.h"

/* The combinations read (inverse) or write (forward) one piece per wavenumber, a buffer row
 * apart: the hardware prefetcher does not follow those jumps, so they fetch the piece
 * LEG_PREFETCH_AHEAD wavenumbers ahead themselves (T85L16 with 4-level blocks: about 75 ns per
 * piece against a memory latency above 100 ns).  A piece is 14 groups of B levels (re, im) —
 * inverse: 5 + 5 P̄ sums, 2 + 2 H sums; forward: 4 + 4 P̄ inputs, 3 + 3 H inputs — of which a
 * chain slice touches levels [l0, l0 + Bc). */
enum { LEG_PREFETCH_AHEAD = 2, LEG_GROUPS = 14 };
static void prefetch_piece(const pst_dyn *d, int i, int p, int l0, bool for_write)
{
    if (i + LEG_PREFETCH_AHEAD >= d->par->nmx) return;
    const size_t slot = (size_t)d->par->leg_slot[i + LEG_PREFETCH_AHEAD];
    const double *next = d->legbuf + leg_piece(d, slot, (size_t)p, (size_t)d->npairs);
    const size_t group = 2 * (size_t)d->B, slice = 2 * (size_t)d->Bc;
    for (size_t g = 0; g < (d->Bc == d->B ? 1 : LEG_GROUPS); g++) { /* whole pieces in one run */
        const char *lo = (const char *)(next + g * group + 2 * (size_t)l0);
        const size_t bytes = (d->Bc == d->B ? LEG_GROUPS * group : slice) * sizeof(double);
        for (size_t byte = 0; byte < bytes; byte += 64) {
            if (for_write) __builtin_prefetch(lo + byte, 1, 3);
            else __builtin_prefetch(lo + byte, 0, 3);
        }
    }
}

/* 1b: north = even + odd, south = even − odd (H sums: the reverse) and the
 * winds, straight into the chunk's Fourier lines, pair by pair along m so each line is written
 * sequentially. */
void pst_step_inverse_combine(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (pst_skeleton()) { /* 22 of the 72 flops per wavenumber and latitude (flops.h) */
        pst_skeleton_inject(PST_STAGE_FOURIER,
                            pst_skeleton_chain_flops(d, PST_STAGE_FOURIER, 22.0 / 72.0, c->p1 - c->p0));
        return;
    }
    const int p0 = c->p0, p1 = c->p1, l0 = c->l0;
    const int B = d->B, nc = d->fstride;
    const size_t fs = field_lines(d) * nc; /* fs: distance between fields */
    PST_PAIRS_IN_THREADS
    for (int p = p0; p < p1; p++)
        for (int i = 0; i < d->par->nmx; i++) {
            const double m = d->par->mx[i];
            const double *piece = d->legbuf + leg_piece(d, (size_t)d->par->leg_slot[i], (size_t)p, (size_t)d->npairs);
            const double *xe = piece + inv_x(d, 0), *xo = piece + inv_x(d, 1), *ye = piece + inv_y(d, 0),
                         *yo = piece + inv_y(d, 1);
            prefetch_piece(d, i, p, l0, false);
            for (int l = 0; l < d->Bc; l++) {
                const int lb = l0 + l; /* level in the block */
                cvec e[PST_DYN_NSPEC], o[PST_DYN_NSPEC], he[2], ho[2];
                for (int f = 0; f < PST_DYN_NSPEC; f++) {
                    e[f] = cload(xe + (f * B + lb) * 2);
                    o[f] = cload(xo + (f * B + lb) * 2);
                }
                for (int f = 0; f < 2; f++) {
                    he[f] = cload(ye + (f * B + lb) * 2);
                    ho[f] = cload(yo + (f * B + lb) * 2);
                }
                for (int h = 0; h < 2; h++) {
                    cvec x[PST_DYN_NSPEC], y[2];
                    for (int f = 0; f < PST_DYN_NSPEC; f++) x[f] = h ? e[f] - o[f] : e[f] + o[f];
                    for (int f = 0; f < 2; f++) y[f] = h ? ho[f] - he[f] : he[f] + ho[f];
                    double *q = (double *)(d->four_inv[c->t] + inv_line(d, p - p0, h, 0, l) * nc + i);
                    cstore(q + 2 * G_U * fs, m * times_i(x[S_CHI]) - y[0]); /* U, V as in wind.h */
                    cstore(q + 2 * G_V * fs, m * times_i(x[S_PSI]) + y[1]);
                    cstore(q + 2 * G_ETA * fs, x[S_ETA]);
                    cstore(q + 2 * G_DIV * fs, x[S_DIV]);
                    cstore(q + 2 * G_PHI * fs, x[S_PHI]);
                }
            }
        }
}

/* 5a: combine, per wavenumber m and latitude, the Fourier coefficients into the quantities whose
 * Legendre sums give the new level (s = 2τ w/(nlon a (1−μ²)), wn = w/nlon):
 *   η*:  P̄[wn η_old − s im (Uη)]            + H[s (Vη)]
 *   δ*:  P̄[wn δ_old + s im (Vη)]            + H[s (Uη)]      + n(n+1)/a² · κ
 *   Φ*:  P̄[wn (Φ_old − cφ δ_old) − s im (UΦ)] + H[s (VΦ)]
 *   κ:   P̄[wn (2τ E + cκ Φ_old)]
 * with cφ = τΦ̄, cκ = τ for the semi-implicit scheme (the old-level halves of the averaged
 * gravity terms) and 0 otherwise; then the symmetric/antisymmetric parts and one dgemm per
 * kernel and parity (H sums accumulate onto the first three outputs).  The combination runs pair
 * by pair along m (sequential reads of each Fourier line) into the Legendre buffer
 * [m][pair][sP | aP | sH | aH]. */
void pst_step_forward_combine(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (pst_skeleton()) { /* the other 50 of the 72 */
        pst_skeleton_inject(PST_STAGE_FOURIER,
                            pst_skeleton_chain_flops(d, PST_STAGE_FOURIER, 50.0 / 72.0, c->p1 - c->p0));
        return;
    }
    const int p0 = c->p0, p1 = c->p1, l0 = c->l0;
    const int B = d->B, nc = d->fstride;
    const double tau = s->tau, a = PST_EARTH_RADIUS_M;
    const bool si = d->cfg.scheme == PST_SCHEME_SEMI_IMPLICIT;
    const double cphi = si ? tau * d->cfg.phibar : 0.0, ckap = si ? tau : 0.0;
    const size_t fs = field_lines(d) * nc;
    PST_PAIRS_IN_THREADS
    for (int p = p0; p < p1; p++) {
        const int lat = lat_of(d, p, 0);
        const double wn = d->w[lat] / d->cfg.grid->nlon, sn = 2.0 * tau * wn / (a * one_minus_mu2(d, lat));
        for (int i = 0; i < d->par->nmx; i++) {
            const double sm = sn * d->par->mx[i];
            double *piece = d->legbuf + leg_piece(d, (size_t)d->par->leg_slot[i], (size_t)p, (size_t)d->npairs);
            double *sP = piece + fwd_p(d, 0), *aP = piece + fwd_p(d, 1), *sH = piece + fwd_h(d, 0),
                   *aH = piece + fwd_h(d, 1);
            prefetch_piece(d, i, p, l0, true);
            for (int l = 0; l < d->Bc; l++) {
                const double *qn = (const double *)(d->four_fwd[c->t] + fwd_line(d, p - p0, 0, 0, l) * nc + i);
                const double *qs = (const double *)(d->four_fwd[c->t] + fwd_line(d, p - p0, 1, 0, l) * nc + i);
                /* The combinations are linear: apply them to the symmetric and antisymmetric parts
                 * (both hemispheres loaded once: the stores below may alias them for the compiler). */
                cvec north[PST_DYN_NFWD], south[PST_DYN_NFWD];
                for (int f = 0; f < PST_DYN_NFWD; f++) {
                    north[f] = cload(qn + 2 * f * fs);
                    south[f] = cload(qs + 2 * f * fs);
                }
                for (int par = 0; par < 2; par++) {
                    cvec v[PST_DYN_NFWD];
                    for (int f = 0; f < PST_DYN_NFWD; f++) v[f] = par ? north[f] - south[f] : north[f] + south[f];
                    double *P = par ? aP : sP, *H = par ? aH : sH;
                    const size_t k = (size_t)(l0 + l) * 2, fb = (size_t)B * 2; /* level l0 + l of field f at k + f fb */
                    cstore(P + k + O_ETA * fb, wn * v[Q_ETA_OLD] - sm * times_i(v[Q_UETA]));
                    cstore(P + k + O_DIV * fb, wn * v[Q_DIV_OLD] + sm * times_i(v[Q_VETA]));
                    cstore(P + k + O_PHI * fb, wn * (v[Q_PHI_OLD] - cphi * v[Q_DIV_OLD]) - sm * times_i(v[Q_UPHI]));
                    cstore(P + k + O_KAPPA * fb, wn * (2.0 * tau * v[Q_ENERGY] + ckap * v[Q_PHI_OLD]));
                    cstore(H + k + O_ETA * fb, sn * v[Q_VETA]);
                    cstore(H + k + O_DIV * fb, sn * v[Q_UETA]);
                    cstore(H + k + O_PHI * fb, sn * v[Q_VPHI]);
                }
            }
        }
    }
}
