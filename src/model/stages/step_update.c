/* Stage 6 of the time step (step.h): the spectral update of a level block, per coefficient of
 * degree n (L = n(n+1)/a²), by the time scheme:
 *   semi-implicit: δ_new = (δ* + τ L Φ*) / (1 + τ² L Φ̄),  Φ_new = Φ* − τ Φ̄ δ_new
 *   explicit:      δ_new = δ* + 2τ L Φ_cur,              Φ_new = Φ* − 2τ Φ̄ δ_cur
 *   advection:     η, δ unchanged,                        Φ_new = Φ*
 * with δ* = out_δ (κ folded in by the forward sums), Φ* = out_Φ, η_new = out_η; then ∇⁴
 * diffusion, the same for every scheme.  ψ' and χ' are not kept: the inverse sums form them. */
#include "model/stages/step.h"
#include "model/stages/skeleton.h"

#include <math.h>

/* The per-coefficient constants a scheme reads. */
typedef struct scheme_coef {
    double tau, L, phibar, solve;
} scheme_coef;

/* η, δ, Φ' at one level and part (re or im) of a coefficient. */
typedef struct scheme_point {
    double eta, div, phi;
} scheme_point;

static inline scheme_point semi_implicit(const scheme_coef *c, scheme_point star, scheme_point cur)
{
    (void)cur;
    const double dn = (star.div + c->tau * c->L * star.phi) * c->solve;
    return (scheme_point){star.eta, dn, star.phi - c->tau * c->phibar * dn};
}

static inline scheme_point explicit_leapfrog(const scheme_coef *c, scheme_point star, scheme_point cur)
{
    return (scheme_point){star.eta, star.div + 2.0 * c->tau * c->L * cur.phi,
                          star.phi - 2.0 * c->tau * c->phibar * cur.div};
}

static inline scheme_point advection(const scheme_coef *c, scheme_point star, scheme_point cur)
{
    (void)c;
    return (scheme_point){cur.eta, cur.div, star.phi};
}

/* The new level (before diffusion) from the forward sums and the current level.  A switch, not a
 * table of functions: the OpenMP loop below is outlined once for every scheme, and through a
 * function pointer each point would cost a call; this way every scheme's arithmetic is inlined and
 * the branch, the same for the whole loop, is predicted. */
static inline scheme_point scheme_step(pst_scheme scheme, const scheme_coef *c, scheme_point star, scheme_point cur)
{
    switch (scheme) {
    case PST_SCHEME_EXPLICIT: return explicit_leapfrog(c, star, cur);
    case PST_SCHEME_ADVECTION: return advection(c, star, cur);
    case PST_SCHEME_SEMI_IMPLICIT: break;
    }
    return semi_implicit(c, star, cur);
}

/* The k range of coefficients [c0, c1) in the block of `nk` coefficients from `base`. */
static void clamp_block(size_t base, int nk, size_t c0, size_t c1, int *k0, int *k1)
{
    *k0 = c0 > base ? (int)(c0 - base < (size_t)nk ? c0 - base : (size_t)nk) : 0;
    *k1 = c1 > base ? (int)(c1 - base < (size_t)nk ? c1 - base : (size_t)nk) : 0;
}

static bool update(pst_dyn *d, double *st, const double *out, const pst_substep *s, size_t c0, size_t c1)
{
    const pst_scheme scheme = d->cfg.scheme;
    const int B = d->B, co = OUT_N * B * 2, cs = PST_DYN_NSTATE * B * 2;
    const double tau = s->tau, a = PST_EARTH_RADIUS_M, K = d->cfg.hdiff;
    double acc = 0.0; /* only its finiteness matters: the order of the sum may follow the threads */
#pragma omp parallel for schedule(dynamic) reduction(+ : acc) num_threads(d->nthreads) if (d->nthreads > 1)
    for (int i = 0; i < d->spec.nm; i++)
        for (int par = 0; par < 2; par++) {
            const size_t base = pst_spec_block(&d->spec, i, par);
            int k0, k1;
            clamp_block(base, d->spec.nk[par][i], c0, c1, &k0, &k1);
            for (int k = k0; k < k1; k++) {
                const int n = d->spec.m[i] + par + 2 * k;
                const double L = minus_laplacian(n);
                const scheme_coef c = {tau, L, d->cfg.phibar, 1.0 / (1.0 + tau * tau * L * d->cfg.phibar)};
                const double dz = K > 0 ? 1.0 / (1.0 + 2.0 * tau * K * (L * L - 4.0 / (a * a * a * a))) : 1.0;
                const double dp = K > 0 ? 1.0 / (1.0 + 2.0 * tau * K * L * L) : 1.0;
                const double *o = out + (size_t)co * (base + k);
                double *x = st + (size_t)cs * (base + k);
                for (int l = 0; l < B; l++)
                    for (int r = 0; r < 2; r++) {
                        const int j = l * 2 + r;
                        double *eta = x + S_ETA * B * 2 + j, *div = x + S_DIV * B * 2 + j, *phi = x + S_PHI * B * 2 + j;
                        const scheme_point star = {o[O_ETA * B * 2 + j], o[O_DIV * B * 2 + j], o[O_PHI * B * 2 + j]};
                        const scheme_point next = scheme_step(scheme, &c, star, (scheme_point){*eta, *div, *phi});
                        *eta = next.eta * dz;
                        *div = next.div * dz;
                        *phi = next.phi * dp;
                        acc += *eta + *div + *phi;
                    }
            }
        }
    return isfinite(acc);
}

bool pst_step_update(pst_dyn *d, double *st, const double *out, const pst_substep *s, size_t c0, size_t c1)
{
    if (pst_skeleton()) {
        const double share_of_all = d->spec.ncoef ? (double)(c1 - c0) / (double)d->spec.ncoef : 0.0;
        pst_skeleton_inject(PST_STAGE_SPECTRAL, pst_skeleton_update_flops(d) * share_of_all);
        return true;
    }
    return update(d, st, out, s, c0, c1);
}
