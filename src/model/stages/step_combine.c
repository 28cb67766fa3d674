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
static inline void prefetch_piece(const pst_dyn *d, int i, int p, int l0, bool for_write)
{
    if (i + LEG_PREFETCH_AHEAD >= d->par->nmx) return;
    const size_t slot = (size_t)d->par->leg_slot[i + LEG_PREFETCH_AHEAD];
    const double *next = d->legbuf + leg_piece(d, slot, (size_t)p, (size_t)d->npairs);
    const size_t group = 2 * (size_t)d->B, slice = 2 * (size_t)d->Bc;
    for (size_t g = 0; g < (d->Bc == d->B ? 1 : LEG_GROUPS); g++) { /* whole pieces in one run */
        const char *lo = (const char *)(next + g * group + 2 * (size_t)l0);
        const size_t bytes = (d->Bc == d->B ? LEG_GROUPS * group : slice) * sizeof(double);
        for (size_t byte = 0; byte < bytes; byte += 64) {
            if (for_write)
                __builtin_prefetch(lo + byte, 1, 3);
            else
                __builtin_prefetch(lo + byte, 0, 3);
        }
    }
}

/* The per-pair constants of the forward combination (pst_step_forward_combine). */
typedef struct forward_coefs {
    double wn, sn, tau, cphi, ckap;
} forward_coefs;

/* Each width compiled for AVX-512, AVX2 and baseline x86-64, the loader picking the best the CPU
 * runs. */
#define COMBINE_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define COMBINE_W 4
#include "model/stages/step_combine_levels.h"
#undef COMBINE_W
#define COMBINE_W 2
#include "model/stages/step_combine_levels.h"
#undef COMBINE_W
#define COMBINE_W 1
#include "model/stages/step_combine_levels.h"
#undef COMBINE_W

/* The widths, widest first.  A slice takes the widest that divides its levels, on a CPU with
 * AVX2: the wider vectors halve the combinations' instructions (T85L16 on an AVX-512 Xeon: the
 * Fourier stage 14 % shorter at 4 levels), while on SSE2 alone the gathers cost more than they
 * save (15 % longer). */
static const struct {
    int levels;
    void (*inverse)(const pst_dyn *, const pst_chunk *, int);
    void (*forward)(const pst_dyn *, const pst_chunk *, int, const forward_coefs *);
} widths[] = {
    {4, inverse_pair_4, forward_pair_4},
    {2, inverse_pair_2, forward_pair_2},
    {1, inverse_pair_1, forward_pair_1},
};
enum { NWIDTHS = sizeof widths / sizeof widths[0] };

static int width_row(const pst_dyn *d)
{
    if (!__builtin_cpu_supports("avx2")) return NWIDTHS - 1;
    int k = 0;
    while (d->Bc % widths[k].levels) k++;
    return k;
}

/* 1b: north = even + odd, south = even − odd (H sums: the reverse) and the winds, straight into
 * the chunk's Fourier lines. */
void pst_step_inverse_combine(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (pst_skeleton()) { /* 22 of the 72 flops per wavenumber and latitude (flops.h) */
        pst_skeleton_inject(PST_STAGE_FOURIER,
                            pst_skeleton_chain_flops(d, PST_STAGE_FOURIER, 22.0 / 72.0, c->p1 - c->p0));
        return;
    }
    const int w = width_row(d);
    PST_PAIRS_IN_THREADS
    for (int p = c->p0; p < c->p1; p++) widths[w].inverse(d, c, p);
}

/* 5a: combine, per wavenumber m and latitude, the Fourier coefficients into the quantities whose
 * Legendre sums give the new level (s = 2τ w/(nlon a (1−μ²)), wn = w/nlon):
 *   η*:  P̄[wn η_old − s im (Uη)]            + H[s (Vη)]
 *   δ*:  P̄[wn δ_old + s im (Vη)]            + H[s (Uη)]      + n(n+1)/a² · κ
 *   Φ*:  P̄[wn (Φ_old − cφ δ_old) − s im (UΦ)] + H[s (VΦ)]
 *   κ:   P̄[wn (2τ E + cκ Φ_old)]
 * with cφ = τΦ̄, cκ = τ for the semi-implicit scheme (the old-level halves of the averaged
 * gravity terms) and 0 otherwise; then the symmetric/antisymmetric parts and one dgemm per
 * kernel and parity (H sums accumulate onto the first three outputs). */
void pst_step_forward_combine(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (pst_skeleton()) { /* the other 50 of the 72 */
        pst_skeleton_inject(PST_STAGE_FOURIER,
                            pst_skeleton_chain_flops(d, PST_STAGE_FOURIER, 50.0 / 72.0, c->p1 - c->p0));
        return;
    }
    const double tau = s->tau;
    const bool si = d->cfg.scheme == PST_SCHEME_SEMI_IMPLICIT;
    const int w = width_row(d);
    PST_PAIRS_IN_THREADS
    for (int p = c->p0; p < c->p1; p++) {
        const int lat = lat_of(d, p, 0);
        const double wn = d->w[lat] / d->cfg.grid->nlon;
        const forward_coefs k = {wn, 2.0 * tau * wn / (PST_EARTH_RADIUS_M * one_minus_mu2(d, lat)), tau,
                                 si ? tau * d->cfg.phibar : 0.0, si ? tau : 0.0};
        widths[w].forward(d, c, p, &k);
    }
}
