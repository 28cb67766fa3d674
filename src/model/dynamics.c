#include "model/dynamics.h"

#include "core/alloc.h"
#include "core/errors.h"
#include "core/timer.h"
#include "model/constants.h"
#include "model/gauss.h"
#include "model/wind.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const pst_stage_names[PST_NSTAGES] = {"fft", "legendre", "fourier", "grid", "spectral"};

enum { S_ETA, S_DIV, S_PHI, S_PSI, S_CHI };       /* spectral state fields */
enum { G_U, G_V, G_ETA, G_DIV, G_PHI };           /* inverse Fourier / grid fields */
enum { Q_UETA, Q_VETA, Q_UPHI, Q_VPHI, Q_ENERGY, Q_ETA_OLD, Q_DIV_OLD, Q_PHI_OLD }; /* forward fields */
enum { N_OLD = 3 };                               /* previous-level grid fields: η, δ, Φ' */
enum { O_ETA, O_DIV, O_PHI, O_KAPPA, O_N };       /* forward Legendre sums; H sums feed the first 3 */
enum { OUT_N = 3 };                               /* ... with κ folded into δ: η, δ*, Φ* (d->out) */
enum { H_N = 3 };

/* One complex coefficient (re, im) as a two-lane vector: the Fourier-space combinations then
 * move and combine whole coefficients (half the instructions of re and im apart). */
typedef double cvec __attribute__((vector_size(16)));
static inline cvec cload(const double *p)
{
    cvec v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void cstore(double *p, cvec v) { memcpy(p, &v, sizeof v); }
static inline cvec times_i(cvec v) { return (cvec){-v[1], v[0]}; } /* i (re + i im) */

/* One leapfrog application X_new = X_old + 2τ T(X_cur).  The first step is two of them:
 * τ = dt/4 with old = cur (forward half step), then τ = dt/2 with old = t0 (centred step);
 * both leave the t0 grid as the previous level. */
typedef struct substep {
    double tau;
    bool old_from_cur, keep_old;
} substep;

/* Lines of a chunk: [pair][field][level][hemisphere], Bc levels.  The hemispheres of one field
 * and level are neighbours because the distributed FFT transforms two real lines as one complex
 * line, which is only accurate for lines of similar magnitude.  The kept previous level has the
 * same order over the block's B levels. */
static size_t inv_line(const pst_dyn *d, int p, int h, int f, int l) { return (((size_t)p * PST_DYN_NINV + f) * d->Bc + l) * 2 + h; }
static size_t fwd_line(const pst_dyn *d, int p, int h, int f, int l) { return (((size_t)p * PST_DYN_NFWD + f) * d->Bc + l) * 2 + h; }
static size_t old_line(const pst_dyn *d, int p, int h, int f, int l) { return (((size_t)p * N_OLD + f) * d->B + l) * 2 + h; }
/* Lines between one field and the next of the same pair, hemisphere and level in a chunk. */
static size_t field_lines(const pst_dyn *d) { return 2 * (size_t)d->Bc; }
/* Doubles per (wavenumber, pair) in the Legendre buffer: inverse P̄ sums of 5 fields and H sums
 * of 2, both parities; forward P̄ inputs of 4 fields and H inputs of 3, symmetric and
 * antisymmetric: 28 per level either way. */
static size_t leg_width(const pst_dyn *d) { return 28 * (size_t)d->B; }
/* Slot i's piece of pair p in a Legendre buffer of `pairs` pairs ([m][pair][28 B]). */
static size_t leg_piece(const pst_dyn *d, size_t i, size_t p, size_t pairs) { return (i * pairs + p) * leg_width(d); }
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
/* Latitude of local pair p's hemisphere h (0 north). */
static int lat_of(const pst_dyn *d, int p, int h)
{
    int g = (int)d->par->pair_lo + p;
    return h ? d->cfg.nlat - 1 - g : g;
}
/* n(n+1)/a²: −∇² on a coefficient of degree n (the forward sums' κ fold and the update). */
static double minus_laplacian(int n) { return (double)n * (n + 1) / (PST_EARTH_RADIUS_M * PST_EARTH_RADIUS_M); }
static double one_minus_mu2(const pst_dyn *d, int lat) { return d->coslat[lat] * d->coslat[lat]; }

/* Bytes of a chunk's Fourier and grid lines (13 fields, both hemispheres) per pair and level. */
static size_t chunk_bytes_per_pair_level(int nlon)
{
    return (size_t)2 * (PST_DYN_NINV + PST_DYN_NFWD) * ((size_t)(nlon / 2 + 1) * 16 + (size_t)nlon * 8);
}

/* Levels of a block taken through FFT, products and FFT together: the largest divisor of B
 * whose lines for one pair fit in `budget` bytes (at least 1).  The Legendre dgemms run over
 * the whole block (wide products, each table read once per block); the chain runs on a slice of
 * it small enough to stay in a core's L2 cache. */
static int default_chain_levels(int B, int nlon, size_t budget)
{
    int best = 1;
    for (int c = 1; c <= B; c++)
        if (B % c == 0 && (size_t)c * chunk_bytes_per_pair_level(nlon) <= budget) best = c;
    return best;
}

/* Latitude pairs taken through the chain together: the largest divisor of npairs whose lines
 * (Bc levels) fit in `budget` bytes, so the chain does not stream whole-grid arrays through
 * memory. */
static int default_pair_chunk(int npairs, int Bc, int nlon, size_t budget)
{
    size_t per_pair = (size_t)Bc * chunk_bytes_per_pair_level(nlon);
    int best = 1;
    for (int c = 1; c <= npairs; c++)
        if (npairs % c == 0 && (size_t)c * per_pair <= budget) best = c;
    return best;
}

static void inverse_sums(pst_dyn *d, const double *st, double *lb, int pairs);
static void forward_sums(pst_dyn *d, const double *lb, int pairs, int i0, int i1, double *O_all);

/* One inverse and one forward Legendre pass of a level block, on the buffers the step uses. */
static double legendre_pass_s(pst_dyn *d)
{
    double *lb = d->legall ? d->legall : d->legbuf;
    const int pairs = d->legall ? d->sum_pairs : d->npairs;
    double t0 = pst_now_s();
    inverse_sums(d, d->state[0], lb, pairs);
    forward_sums(d, lb, pairs, 0, d->spec.nm, d->out);
    return pst_now_s() - t0;
}

/* blas_auto: time a Legendre pass with each library that loads, in three interleaved rounds
 * after one untimed call each (BLIS sets itself up on its first call), and keep the one with
 * the smallest best time; the configured library stays unless another is at least 5 % faster,
 * so a tie on a noisy host changes nothing.  The slowest rank's times decide, so every rank
 * uses the same library (the decomposition tests compare ranks' results with the serial run). */
static void choose_blas(pst_dyn *d)
{
    const size_t ncoef = d->spec.ncoef, W = leg_width(d);
    memset(d->state[0], 0, (ncoef * PST_DYN_NSPEC * d->B * 2 + 1) * sizeof *d->state[0]);
    memset(d->legbuf, 0, ((size_t)d->par->nmx * d->npairs * W + 1) * sizeof *d->legbuf);
    if (d->legall) memset(d->legall, 0, (ncoef ? (size_t)d->spec.nm * d->sum_pairs * W : 1) * sizeof *d->legall);
    bool usable[PST_NBLAS];
    for (int k = 0; k < PST_NBLAS; k++) {
        const char *why = pst_blas_load((pst_blas)k);
        usable[k] = !why;
        if (why) d->blas_skipped = why;
    }
    double best[PST_NBLAS];
    for (int k = 0; k < PST_NBLAS; k++) best[k] = INFINITY;
    for (int round = -1; round < 3; round++)
        for (int k = 0; k < PST_NBLAS; k++) {
            if (!usable[k]) continue;
            d->leg.blas = (pst_blas)k;
            double t = legendre_pass_s(d);
            if (round >= 0 && t < best[k]) best[k] = t;
        }
    for (int k = 0; k < PST_NBLAS; k++) d->blas_trial_s[k] = usable[k] ? best[k] : NAN;
    /* The slowest rank's time per library (a library one rank cannot load is out everywhere). */
    if (d->par->cfg.PX * d->par->cfg.PY > 1) {
        double slowest[PST_NBLAS];
        for (int k = 0; k < PST_NBLAS; k++) slowest[k] = usable[k] ? best[k] : INFINITY;
        MPI_Allreduce(MPI_IN_PLACE, slowest, PST_NBLAS, MPI_DOUBLE, MPI_MAX, d->par->cfg.comm);
        for (int k = 0; k < PST_NBLAS; k++) d->blas_trial_s[k] = isinf(slowest[k]) ? NAN : slowest[k];
    }
    pst_blas pick = d->cfg.blas, fastest = pick;
    for (int k = 0; k < PST_NBLAS; k++)
        if (!isnan(d->blas_trial_s[k]) && d->blas_trial_s[k] < d->blas_trial_s[fastest]) fastest = (pst_blas)k;
    d->leg.blas = d->blas_trial_s[fastest] < 0.95 * d->blas_trial_s[pick] ? fastest : pick;
}

/* The communication stages of a parallel run (collective over the row and the column). */
static void init_parallel(pst_dyn *d)
{
    const pst_par *par = d->par;
    const int lines = d->pair_chunk * 2 * d->Bc;
    if (par->cfg.PX > 1) {
        double t0 = pst_now_s();
        d->pfft_inv = pst_pfft_create(par, d->cfg.M, d->cfg.nlon, lines * PST_DYN_NINV, d->cfg.fftw_flags);
        d->pfft_fwd = pst_pfft_create(par, d->cfg.M, d->cfg.nlon, lines * PST_DYN_NFWD, d->cfg.fftw_flags);
        d->fft_plan_s += pst_now_s() - t0;
    }
    if (par->cfg.PY > 1) {
        const size_t unit = (size_t)OUT_N * d->B * 2;
        d->pleg = pst_pleg_create(par, leg_width(d), d->spec.ncoef * unit, unit);
    }
}

void pst_dyn_init(pst_dyn *d, const pst_dyn_config *cfg)
{
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    if (!cfg->par) pst_par_serial(&d->serial_par, cfg->M, cfg->nlat, cfg->nlon);
    d->par = cfg->par ? cfg->par : &d->serial_par;
    const pst_par *par = d->par;
    d->B = cfg->level_block;
    d->nblocks = cfg->levels / cfg->level_block;
    d->npairs = (int)par->npairs;
    d->nlon_local = (int)par->nlon;
    d->nc = cfg->nlon / 2 + 1;
    d->fstride = par->cfg.PX > 1 ? par->nmx : d->nc;
    d->mu = pst_malloc((size_t)cfg->nlat * sizeof *d->mu);
    d->coslat = pst_malloc((size_t)cfg->nlat * sizeof *d->coslat);
    d->w = pst_malloc((size_t)cfg->nlat * sizeof *d->w);
    pst_gauss_nodes(cfg->nlat, d->mu, d->coslat, d->w);
    pst_spec_layout_init(&d->spec, cfg->M, par->leg_mx + par->own_lo, par->nown);
    /* The sums run over the local pairs, or over all of them after a Legendre transpose. */
    bool whole = par->cfg.PY > 1 && pst_par_leg_is_transpose(par->cfg.legendre);
    size_t first = whole ? 0 : par->pair_lo;
    d->sum_pairs = whole ? (int)par->pairs_all : d->npairs;
    pst_legendre_init_p(&d->leg, &d->spec, d->mu + first, d->coslat + first, d->sum_pairs);
    d->leg_scratch = pst_malloc(((size_t)cfg->M / 2 + 2) * H_N * cfg->level_block * 2 * sizeof *d->leg_scratch);
    d->sum_scratch = pst_malloc(((size_t)cfg->M / 2 + 2) * 2 * O_N * cfg->level_block * 2 * sizeof *d->sum_scratch);

    int B = d->B, np = d->npairs, nlon = d->nlon_local;
    /* Across a row every chunk is a round of transposes: 4x the serial budget keeps the chunk
     * mostly cache-resident with a quarter of the messages (T85L16 on 2x1: 31 ms per step with
     * all pairs in one chunk, 22 with 2, 4, 8 or 16 pairs; serial 25.6). */
    size_t budget = (size_t)(par->cfg.PX > 1 ? 4 : 1) * 512 * 1024;
    d->Bc = default_chain_levels(B, cfg->nlon, budget);
    d->pair_chunk = cfg->pair_chunk ? cfg->pair_chunk : default_pair_chunk(np, d->Bc, cfg->nlon, budget);
    if (par->cfg.PX == 1) {
        double t0 = pst_now_s();
        pst_fft_init_agreed(&d->fft_inv, cfg->nlon, d->pair_chunk * 2 * PST_DYN_NINV * d->Bc, cfg->fftw_flags, par->cfg.comm);
        pst_fft_init_agreed(&d->fft_fwd, cfg->nlon, d->pair_chunk * 2 * PST_DYN_NFWD * d->Bc, cfg->fftw_flags, par->cfg.comm);
        d->fft_plan_s = pst_now_s() - t0;
    }
    size_t ncoef = d->spec.ncoef, chunk_lines = (size_t)d->pair_chunk * 2 * d->Bc;
    d->state = pst_malloc((size_t)d->nblocks * sizeof *d->state);
    d->grid_old = pst_malloc((size_t)d->nblocks * sizeof *d->grid_old);
    for (int b = 0; b < d->nblocks; b++) {
        d->state[b] = pst_fft_alloc_real(ncoef * PST_DYN_NSPEC * B * 2 + 1);
        d->grid_old[b] = pst_fft_alloc_real((size_t)np * 2 * N_OLD * B * nlon);
    }
    d->four_inv = pst_fft_alloc_complex(chunk_lines * PST_DYN_NINV * (size_t)d->fstride);
    d->four_fwd = pst_fft_alloc_complex(chunk_lines * PST_DYN_NFWD * (size_t)d->fstride);
    d->grid_inv = pst_fft_alloc_real(chunk_lines * PST_DYN_NINV * (size_t)nlon);
    d->grid_fwd = pst_fft_alloc_real(chunk_lines * PST_DYN_NFWD * (size_t)nlon);
    d->legbuf = pst_fft_alloc_real((size_t)par->nmx * np * leg_width(d) + 1);
    if (whole) d->legall = pst_fft_alloc_real(ncoef ? (size_t)d->spec.nm * d->sum_pairs * leg_width(d) : 1);
    d->out = pst_fft_alloc_real(ncoef * OUT_N * B * 2 + 1);
    if (par->cfg.PY > 1 && par->cfg.leg_level_pipeline) {
        if (!pst_pleg_sum_splits(par->cfg.legendre))
            pst_fatal(PST_EXIT_FAILED, "level pipeline: the Legendre algorithm %s has no split-phase sum", par->cfg.legendre->name);
        d->out_next = pst_fft_alloc_real(ncoef * OUT_N * B * 2 + 1);
    }
    if (par->cfg.PY > 1 && par->cfg.legendre->pipelined) d->sums = pst_fft_alloc_real(ncoef * OUT_N * B * 2 + 1);
    d->coriolis = pst_calloc(2 * ncoef + 1, sizeof *d->coriolis);
    d->phis = pst_calloc((size_t)cfg->nlat * cfg->nlon, sizeof *d->phis);
    d->leg.blas = cfg->blas;
    for (int k = 0; k < PST_NBLAS; k++) d->blas_trial_s[k] = NAN;
    if (cfg->blas_auto) choose_blas(d);
    init_parallel(d);
}

double pst_dyn_memory_bytes(const pst_dyn_config *cfg)
{
    pst_par serial;
    if (!cfg->par) pst_par_serial(&serial, cfg->M, cfg->nlat, cfg->nlon);
    const pst_par *par = cfg->par ? cfg->par : &serial;
    double ncoef = 0; /* of the owned wavenumbers, as pst_spec_layout_init counts them */
    for (int i = 0; i < par->nown; i++) ncoef += cfg->M + 1 - par->leg_mx[par->own_lo + i];
    bool whole = par->cfg.PY > 1 && pst_par_leg_is_transpose(par->cfg.legendre);
    double sum_pairs = (double)(whole ? par->pairs_all : par->npairs), pairs = (double)par->npairs;
    double B = cfg->level_block, width = 28 * B; /* leg_width */
    bool second_out = par->cfg.PY > 1 && (par->cfg.leg_level_pipeline || par->cfg.legendre->pipelined);
    double doubles = sum_pairs * (ncoef + par->nown)                        /* Legendre P̄ table, degrees m..M+1 */
                     + cfg->levels * (ncoef * PST_DYN_NSPEC * 2              /* spectral state */
                                      + pairs * 2 * N_OLD * (double)par->nlon)      /* previous level */
                     + B * ncoef * OUT_N * 2 * (second_out ? 2 : 1)          /* Legendre outputs (and sums) */
                     + ((double)cfg->M / 2 + 2) * 2 * O_N * B * 2            /* ... of one wavenumber, before the fold */
                     + (double)par->nmx * pairs * width                      /* Legendre buffer */
                     + (whole ? (double)par->nown * sum_pairs * width : 0)   /* ... gathered over the column */
                     + (double)cfg->nlat * cfg->nlon;                         /* surface geopotential */
    if (!cfg->par) pst_par_free(&serial);
    return doubles * sizeof(double);
}

void pst_dyn_free(pst_dyn *d)
{
    for (int b = 0; b < d->nblocks; b++) {
        fftw_free(d->state[b]);
        fftw_free(d->grid_old[b]);
    }
    free(d->state);
    free(d->grid_old);
    fftw_free(d->grid_fwd);
    fftw_free(d->four_inv);
    fftw_free(d->four_fwd);
    fftw_free(d->grid_inv);
    fftw_free(d->legbuf);
    fftw_free(d->legall);
    fftw_free(d->out);
    fftw_free(d->out_next);
    fftw_free(d->sums);
    pst_pfft_free(d->pfft_inv);
    pst_pfft_free(d->pfft_fwd);
    pst_pleg_free(d->pleg);
    /* The plans set up their communicators' transport areas (collective over all processes). */
    const pst_par *par = d->par;
    if (par->row != MPI_COMM_NULL) pst_transport_release(par->cfg.fft_protocol->transport->name, par->row);
    if (par->col != MPI_COMM_NULL) pst_transport_release(par->cfg.leg_protocol->transport->name, par->col);
    free(d->coriolis);
    free(d->phis);
    if (d->par->cfg.PX == 1) {
        pst_fft_free(&d->fft_inv);
        pst_fft_free(&d->fft_fwd);
    }
    pst_legendre_free(&d->leg);
    free(d->leg_scratch);
    free(d->sum_scratch);
    pst_spec_layout_free(&d->spec);
    free(d->mu);
    free(d->coslat);
    free(d->w);
    if (d->par == &d->serial_par) pst_par_free(&d->serial_par);
}

static double *state_at(const pst_dyn *d, int level, size_t coef, int field)
{
    return d->state[level / d->B] + coef * PST_DYN_NSPEC * d->B * 2 + ((size_t)field * d->B + level % d->B) * 2;
}

/* ψ' = ψ/a and χ' = χ/a of coefficient `coef` (degree n) from the η and δ stored there. */
static void derive_potentials(pst_dyn *d, int level, size_t coef, int n)
{
    double ia = pst_inv_laplace_a(n, PST_EARTH_RADIUS_M);
    const double *eta = state_at(d, level, coef, S_ETA), *div = state_at(d, level, coef, S_DIV);
    double *psi = state_at(d, level, coef, S_PSI), *chi = state_at(d, level, coef, S_CHI);
    for (int r = 0; r < 2; r++) {
        psi[r] = ia * (eta[r] - d->coriolis[2 * coef + r]);
        chi[r] = ia * div[r];
    }
}

/* Full-layout index of local coefficient (i, n). */
static size_t full_index(const pst_dyn *d, int i, int n) { return pst_spec_full_index(d->cfg.M, d->spec.m[i], n); }

void pst_dyn_set_level(pst_dyn *d, int level, const double *eta, const double *div, const double *phi)
{
    const double *src[3] = {eta, div, phi};
    for (int i = 0; i < d->spec.nm; i++)
        for (int n = d->spec.m[i]; n <= d->cfg.M; n++) {
            size_t c = pst_spec_index(&d->spec, i, n), g = full_index(d, i, n);
            for (int f = 0; f < 3; f++) memcpy(state_at(d, level, c, f), src[f] + 2 * g, 2 * sizeof(double));
            derive_potentials(d, level, c, n);
        }
}

void pst_dyn_get_level(const pst_dyn *d, int level, double *eta, double *div, double *phi)
{
    double *dst[3] = {eta, div, phi};
    const pst_par *par = d->par;
    const bool parallel = par->cfg.PX * par->cfg.PY > 1;
    const size_t nfull = 2 * pst_spec_count(d->cfg.M);
    /* Each coefficient once: replicated spectral data (vector sums) comes from the first row. */
    const bool writer = pst_par_leg_is_transpose(par->cfg.legendre) || par->py == 0;
    if (parallel)
        for (int f = 0; f < 3; f++) memset(dst[f], 0, nfull * sizeof *dst[f]);
    if (writer)
        for (int i = 0; i < d->spec.nm; i++)
            for (int n = d->spec.m[i]; n <= d->cfg.M; n++) {
                size_t c = pst_spec_index(&d->spec, i, n), g = full_index(d, i, n);
                for (int f = 0; f < 3; f++) memcpy(dst[f] + 2 * g, state_at(d, level, c, f), 2 * sizeof(double));
            }
    if (parallel) /* zeros plus one value: the sum is exact */
        for (int f = 0; f < 3; f++) MPI_Allreduce(MPI_IN_PLACE, dst[f], (int)nfull, MPI_DOUBLE, MPI_SUM, par->cfg.comm);
}

void pst_dyn_comm_s(const pst_dyn *d, double *fft_s, double *legendre_s)
{
    *fft_s = d->pfft_inv ? pst_pfft_comm_s(d->pfft_inv) + pst_pfft_comm_s(d->pfft_fwd) : 0.0;
    *legendre_s = d->pleg ? pst_pleg_comm_s(d->pleg) : 0.0;
}

void pst_dyn_set_forcing(pst_dyn *d, const double *coriolis, const double *phis)
{
    for (int i = 0; i < d->spec.nm; i++)
        for (int n = d->spec.m[i]; n <= d->cfg.M; n++)
            memcpy(d->coriolis + 2 * pst_spec_index(&d->spec, i, n), coriolis + 2 * full_index(d, i, n), 2 * sizeof(double));
    size_t npts = (size_t)d->cfg.nlat * d->cfg.nlon;
    if (phis) memcpy(d->phis, phis, npts * sizeof *d->phis);
    else memset(d->phis, 0, npts * sizeof *d->phis);
    for (int level = 0; level < d->cfg.levels; level++)
        for (int i = 0; i < d->spec.nm; i++)
            for (int n = d->spec.m[i]; n <= d->cfg.M; n++) derive_potentials(d, level, pst_spec_index(&d->spec, i, n), n);
}

/* Stage 1a: per wavenumber and parity, P̄ sums of all five state fields and, through the same
 * table block, the H sums of the other parity's ψ', χ' (legendre.h), into the Legendre buffer of
 * `pairs` pairs [m][pair][xe | xo | ye | yo]. */
static void inverse_sums(pst_dyn *d, const double *st, double *lb, int pairs)
{
    const int B = d->B, cs = PST_DYN_NSPEC * B * 2, ch = 2 * B * 2, ldx = (int)leg_width(d);
    for (int i = 0; i < d->spec.nm; i++)
        for (int par = 0; par < 2; par++) {
            const double *S = st + (size_t)cs * pst_spec_block(&d->spec, i, par);
            double *X = lb + leg_piece(d, (size_t)i, 0, (size_t)pairs);
            pst_leg_synth(&d->leg, PST_LEG_P, i, par, S, cs, cs, X + par * cs, ldx);
            const double *S_opp = st + (size_t)cs * pst_spec_block(&d->spec, i, 1 - par);
            pst_leg_synth_h(&d->leg, i, par, S_opp, cs, S_PSI * B * 2, ch, d->leg_scratch, X + 2 * cs + (1 - par) * ch, ldx);
        }
}

/* Stage 1b, pairs [p0, p1): north = even + odd, south = even − odd (H sums: the reverse) and
 * the winds, straight into the chunk's Fourier lines, pair by pair along m so each line is
 * written sequentially. */

static void inverse_combine(pst_dyn *d, int p0, int p1, int l0)
{
    const int B = d->B, nc = d->fstride, cs = PST_DYN_NSPEC * B * 2, ch = 2 * B * 2;
    const size_t fs = field_lines(d) * nc; /* fs: distance between fields */
    for (int p = p0; p < p1; p++)
        for (int i = 0; i < d->par->nmx; i++) {
            const double m = d->par->mx[i];
            const double *xe = d->legbuf + leg_piece(d, (size_t)d->par->leg_slot[i], (size_t)p, (size_t)d->npairs), *xo = xe + cs, *ye = xe + 2 * cs, *yo = ye + ch;
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
                    double *q = (double *)(d->four_inv + inv_line(d, p - p0, h, 0, l) * nc + i);
                    cstore(q + 2 * G_U * fs, m * times_i(x[S_CHI]) - y[0]); /* U, V as in wind.h */
                    cstore(q + 2 * G_V * fs, m * times_i(x[S_PSI]) + y[1]);
                    cstore(q + 2 * G_ETA * fs, x[S_ETA]);
                    cstore(q + 2 * G_DIV * fs, x[S_DIV]);
                    cstore(q + 2 * G_PHI * fs, x[S_PHI]);
                }
            }
        }
}

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

/* Stage 3: nonlinear products into the chunk's forward lines, beside the previous level,
 * completed (Robert term) or, on the first step, taken from the current one (and kept).  Only
 * the previous level persists between steps (go: the block's [pair][3][B][hemi][nlon]); the
 * products live in the cache-sized chunk, so the forward FFT reads them from cache.  One field of
 * one pair is 2B contiguous lines in the chunk's inverse lines, its forward lines and the kept
 * level alike, so the previous level moves in contiguous blocks (line by line it ran at a third
 * of the speed: every 2 KiB line restarted the hardware prefetcher). */
static void products(pst_dyn *d, double *go, const substep *s, int p0, int p1, int l0)
{
    const int nlon = d->nlon_local;
    const size_t fi = field_lines(d) * nlon; /* distance between fields; also one field's block */
    const double eps = d->cfg.robert;
    for (int p = p0; p < p1; p++) {
        for (int h = 0; h < 2; h++) {
            const int lat = lat_of(d, p, h);
            const double c = 0.5 / one_minus_mu2(d, lat);
            const double *phis = d->phis + (size_t)lat * d->cfg.nlon + d->par->lon_lo;
            for (int l = 0; l < d->Bc; l++) {
                const double *g = d->grid_inv + inv_line(d, p - p0, h, 0, l) * nlon;
                const double *U = g + G_U * fi, *V = g + G_V * fi, *E = g + G_ETA * fi, *F = g + G_PHI * fi;
                double *q = d->grid_fwd + fwd_line(d, p - p0, h, 0, l) * nlon;
                product_line(nlon, c, U, V, E, F, phis, q + Q_UETA * fi, q + Q_VETA * fi, q + Q_UPHI * fi,
                             q + Q_VPHI * fi, q + Q_ENERGY * fi);
            }
        }
        for (int f = 0; f < N_OLD; f++) {
            const double *restrict cur = d->grid_inv + inv_line(d, p - p0, 0, G_ETA + f, 0) * nlon;
            double *restrict old = d->grid_fwd + fwd_line(d, p - p0, 0, Q_ETA_OLD + f, 0) * nlon;
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
 * ε X_{n+1} term is added next step.  Field blocks as in products(). */
static void store_old(pst_dyn *d, double *go, int p0, int p1, int l0)
{
    const size_t fi = field_lines(d) * d->nlon_local;
    const double eps = d->cfg.robert;
    for (int p = p0; p < p1; p++)
        for (int f = 0; f < N_OLD; f++) {
            const double *restrict cur = d->grid_inv + inv_line(d, p - p0, 0, G_ETA + f, 0) * d->nlon_local;
            const double *restrict old = d->grid_fwd + fwd_line(d, p - p0, 0, Q_ETA_OLD + f, 0) * d->nlon_local;
            double *restrict prev = go + old_line(d, p, 0, f, l0) * d->nlon_local;
            if (eps == 0) {
                for (size_t i = 0; i < fi; i++) prev[i] = cur[i];
            } else {
                for (size_t i = 0; i < fi; i++) prev[i] = (1.0 - 2.0 * eps) * cur[i] + eps * old[i];
            }
        }
}

/* Stage 5: combine, per wavenumber m and latitude, the Fourier coefficients into the
 * quantities whose Legendre sums give the new level (s = 2τ w/(nlon a (1−μ²)), wn = w/nlon):
 *   η*:  P̄[wn η_old − s im (Uη)]            + H[s (Vη)]
 *   δ*:  P̄[wn δ_old + s im (Vη)]            + H[s (Uη)]      + n(n+1)/a² · κ
 *   Φ*:  P̄[wn (Φ_old − cφ δ_old) − s im (UΦ)] + H[s (VΦ)]
 *   κ:   P̄[wn (2τ E + cκ Φ_old)]
 * with cφ = τΦ̄, cκ = τ for the semi-implicit scheme (the old-level halves of the averaged
 * gravity terms) and 0 otherwise; then the symmetric/antisymmetric parts and one dgemm per
 * kernel and parity (H sums accumulate onto the first three outputs).  The combination runs pair
 * by pair along m (sequential reads of each Fourier line) into the Legendre buffer
 * [m][pair][sP | aP | sH | aH]. */
static void forward_combine(pst_dyn *d, const substep *s, int p0, int p1, int l0)
{
    const int B = d->B, nc = d->fstride, co = O_N * B * 2, chh = H_N * B * 2;
    const double tau = s->tau, a = PST_EARTH_RADIUS_M;
    const bool si = d->cfg.scheme == PST_SCHEME_SEMI_IMPLICIT;
    const double cphi = si ? tau * d->cfg.phibar : 0.0, ckap = si ? tau : 0.0;
    const size_t fs = field_lines(d) * nc;
    for (int p = p0; p < p1; p++) {
        const int lat = lat_of(d, p, 0);
        const double wn = d->w[lat] / d->cfg.nlon, sn = 2.0 * tau * wn / (a * one_minus_mu2(d, lat));
        for (int i = 0; i < d->par->nmx; i++) {
            const double sm = sn * d->par->mx[i];
            double *sP = d->legbuf + leg_piece(d, (size_t)d->par->leg_slot[i], (size_t)p, (size_t)d->npairs), *aP = sP + co, *sH = aP + co, *aH = sH + chh;
            prefetch_piece(d, i, p, l0, true);
            for (int l = 0; l < d->Bc; l++) {
                const double *qn = (const double *)(d->four_fwd + fwd_line(d, p - p0, 0, 0, l) * nc + i);
                const double *qs = (const double *)(d->four_fwd + fwd_line(d, p - p0, 1, 0, l) * nc + i);
                /* The combinations are linear: apply them to the symmetric and antisymmetric parts. */
                for (int par = 0; par < 2; par++) {
                    cvec v[PST_DYN_NFWD];
                    for (int f = 0; f < PST_DYN_NFWD; f++) {
                        cvec north = cload(qn + 2 * f * fs), south = cload(qs + 2 * f * fs);
                        v[f] = par ? north - south : north + south;
                    }
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

/* Stage 5b: per wavenumber, the P̄ sums of both parities, then through the same table blocks the
 * H sums, added onto the other parity's first three sums (all in d->sum_scratch, [par][coef][O_N B 2]);
 * then κ folds into δ, δ* = δ + n(n+1)/a² κ, and η, δ*, Φ* go to O_all ([coef][OUT_N B 2], the
 * layout of d->out).  The fold is linear, so it may come before the column's sum, which then
 * carries three fields, as in Hack and Jakob's forward transform.  Owned wavenumbers [i0, i1) from
 * the Legendre buffer lb ([owned m][pair][W], `pairs` pairs). */
static void forward_sums(pst_dyn *d, const double *lb, int pairs, int i0, int i1, double *O_all)
{
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

/* ringpipe's just-in-time block: the sums of coefficients [lo, lo + count) / unit, computed
 * by whole wavenumbers into d->sums (a wavenumber on a block boundary is computed twice). */
static void forward_sums_block(void *arg, size_t lo, size_t count, double *dst)
{
    pst_dyn *d = arg;
    const size_t unit = (size_t)OUT_N * d->B * 2, c0 = lo / unit, c1 = (lo + count) / unit;
    int i0 = 0;
    while (i0 < d->spec.nm && d->spec.off[i0 + 1] <= c0) i0++;
    int i1 = i0;
    while (i1 < d->spec.nm && d->spec.off[i1] < c1) i1++;
    forward_sums(d, d->legbuf, d->npairs, i0, i1, d->sums);
    memcpy(dst, d->sums + lo, count * sizeof *dst);
}

/* Stage 6: per coefficient of degree n (L = n(n+1)/a²):
 *   semi-implicit: δ_new = (δ* + τ L Φ*) / (1 + τ² L Φ̄),  Φ_new = Φ* − τ Φ̄ δ_new
 *   explicit:      δ_new = δ* + 2τ L Φ_cur,              Φ_new = Φ* − 2τ Φ̄ δ_cur
 *   advection:     η, δ unchanged,                        Φ_new = Φ*
 * with δ* = out_δ (κ folded in by the forward sums), Φ* = out_Φ, η_new = out_η; then ∇⁴
 * diffusion and ψ', χ'.
 * Returns false on a non-finite result. */
static bool update(pst_dyn *d, double *st, const double *out, const substep *s)
{
    const int B = d->B, co = OUT_N * B * 2, cs = PST_DYN_NSPEC * B * 2;
    const double tau = s->tau, a = PST_EARTH_RADIUS_M, phibar = d->cfg.phibar, K = d->cfg.hdiff;
    const pst_scheme scheme = d->cfg.scheme;
    double acc = 0.0;
    for (int i = 0; i < d->spec.nm; i++)
        for (int par = 0; par < 2; par++) {
            const size_t base = pst_spec_block(&d->spec, i, par);
            for (int k = 0; k < d->spec.nk[par][i]; k++) {
                const int n = d->spec.m[i] + par + 2 * k;
                const double L = minus_laplacian(n), ia = pst_inv_laplace_a(n, a);
                const double solve = 1.0 / (1.0 + tau * tau * L * phibar);
                const double dz = K > 0 ? 1.0 / (1.0 + 2.0 * tau * K * (L * L - 4.0 / (a * a * a * a))) : 1.0;
                const double dp = K > 0 ? 1.0 / (1.0 + 2.0 * tau * K * L * L) : 1.0;
                const double *o = out + (size_t)co * (base + k), *f = d->coriolis + 2 * (base + k);
                double *x = st + (size_t)cs * (base + k);
                for (int l = 0; l < B; l++)
                    for (int r = 0; r < 2; r++) {
                        const int j = l * 2 + r;
                        double *eta = x + S_ETA * B * 2 + j, *div = x + S_DIV * B * 2 + j, *phi = x + S_PHI * B * 2 + j;
                        const double dstar = o[O_DIV * B * 2 + j], pstar = o[O_PHI * B * 2 + j];
                        double en = o[O_ETA * B * 2 + j], dn, pn;
                        switch (scheme) {
                        case PST_SCHEME_SEMI_IMPLICIT:
                            dn = (dstar + tau * L * pstar) * solve;
                            pn = pstar - tau * phibar * dn;
                            break;
                        case PST_SCHEME_EXPLICIT:
                            dn = dstar + 2.0 * tau * L * *phi;
                            pn = pstar - 2.0 * tau * phibar * *div;
                            break;
                        default:
                            en = *eta;
                            dn = *div;
                            pn = pstar;
                            break;
                        }
                        *eta = en * dz;
                        *div = dn * dz;
                        *phi = pn * dp;
                        x[S_PSI * B * 2 + j] = ia * (*eta - f[r]);
                        x[S_CHI * B * 2 + j] = ia * *div;
                        acc += *eta + *div + *phi;
                    }
            }
        }
    return isfinite(acc);
}

static void add_time(pst_dyn *d, pst_stage stage, double *t)
{
    double now = pst_now_s();
    d->stage_s[stage] += now - *t;
    *t = now;
}

/* Stage 2 (inverse): the chunk's Fourier lines to grid lines, locally or across the row. */
static void fft_inverse(pst_dyn *d)
{
    if (d->pfft_inv) {
        pst_pfft_inverse(d->pfft_inv, d->four_inv, d->grid_inv);
        return;
    }
    /* Wavenumbers above M are zero (c2r may have used them as scratch). */
    const int nc = d->nc;
    for (int line = 0; line < d->fft_inv.nlines; line++)
        memset(d->four_inv + (size_t)line * nc + d->cfg.M + 1, 0, (size_t)(nc - d->cfg.M - 1) * sizeof(fftw_complex));
    pst_fft_inverse(&d->fft_inv, d->four_inv, d->grid_inv);
}

static void fft_forward(pst_dyn *d, double *gchunk)
{
    if (d->pfft_fwd) pst_pfft_forward(d->pfft_fwd, gchunk, d->four_fwd);
    else pst_fft_forward(&d->fft_fwd, gchunk, d->four_fwd);
}

/* One substep of one level block up to its forward sums over the local latitudes: the inverse
 * sums for all pairs, then chunk by chunk of latitude pairs and slice by slice of levels the
 * inverse combination, FFTs and products, then the forward combination and sums.  Between chunks
 * it moves the previous block's sum along (the level pipeline). */
static void compute_block(pst_dyn *d, int b, const substep *s, double *out)
{
    const int pc = d->pair_chunk;
    double t = pst_now_s();
    if (d->legall) {
        inverse_sums(d, d->state[b], d->legall, d->sum_pairs);
        pst_pleg_to_fourier(d->pleg, d->legall, d->legbuf);
    } else {
        inverse_sums(d, d->state[b], d->legbuf, d->npairs);
    }
    add_time(d, PST_STAGE_LEGENDRE, &t);
    for (int p0 = 0; p0 < d->npairs; p0 += pc)
        for (int l0 = 0; l0 < d->B; l0 += d->Bc) {
            double *go = d->grid_old[b];
            if (d->out_next) {
                pst_pleg_sum_progress(d->pleg);
                add_time(d, PST_STAGE_LEGENDRE, &t);
            }
            inverse_combine(d, p0, p0 + pc, l0);
            add_time(d, PST_STAGE_FOURIER, &t);
            fft_inverse(d);
            add_time(d, PST_STAGE_FFT, &t);
            products(d, go, s, p0, p0 + pc, l0);
            add_time(d, PST_STAGE_GRID, &t);
            fft_forward(d, d->grid_fwd);
            add_time(d, PST_STAGE_FFT, &t);
            if (!s->keep_old) store_old(d, go, p0, p0 + pc, l0);
            add_time(d, PST_STAGE_GRID, &t);
            forward_combine(d, s, p0, p0 + pc, l0);
            add_time(d, PST_STAGE_FOURIER, &t);
        }
    if (d->legall) {
        pst_pleg_to_spectral(d->pleg, d->legbuf, d->legall);
        forward_sums(d, d->legall, d->sum_pairs, 0, d->spec.nm, out);
    } else if (!d->sums || d->out_next) { /* else the vector sum computes them just in time (ringpipe, iallreduce) */
        forward_sums(d, d->legbuf, d->npairs, 0, d->spec.nm, out);
    }
    add_time(d, PST_STAGE_LEGENDRE, &t);
}

/* The spectral update of block b from its complete sums. */
static bool update_block(pst_dyn *d, int b, const substep *s, const double *out)
{
    double t = pst_now_s();
    bool ok = update(d, d->state[b], out, s);
    add_time(d, PST_STAGE_SPECTRAL, &t);
    return ok;
}

/* One substep of all level blocks, each block's sums completed by the column before its update. */
static bool substep_blocks(pst_dyn *d, const substep *s)
{
    bool ok = true;
    for (int b = 0; b < d->nblocks; b++) {
        compute_block(d, b, s, d->out);
        double t = pst_now_s();
        if (d->sums) pst_pleg_sum_compute(d->pleg, forward_sums_block, d, d->out); /* ringpipe: just in time */
        else if (d->pleg && !d->legall) pst_pleg_sum(d->pleg, d->out);
        add_time(d, PST_STAGE_LEGENDRE, &t);
        ok &= update_block(d, b, s, d->out);
    }
    return ok;
}

/* The level pipeline: block b's sums run (nonblocking) while block b + 1 is computed, and are
 * completed and applied after it, so the column's communication leaves the critical path as far
 * as the next block's computation covers it.  Levels are independent, so the order of the
 * updates changes nothing in the results. */
static bool substep_pipelined(pst_dyn *d, const substep *s)
{
    bool ok = true;
    double *outs[2] = {d->out, d->out_next};
    for (int b = 0; b < d->nblocks; b++) {
        compute_block(d, b, s, outs[b % 2]);
        double t = pst_now_s();
        if (b > 0) {
            pst_pleg_sum_finish(d->pleg);
            add_time(d, PST_STAGE_LEGENDRE, &t);
            ok &= update_block(d, b - 1, s, outs[(b - 1) % 2]);
            t = pst_now_s();
        }
        pst_pleg_sum_start(d->pleg, outs[b % 2]);
        add_time(d, PST_STAGE_LEGENDRE, &t);
    }
    double t = pst_now_s();
    pst_pleg_sum_finish(d->pleg);
    add_time(d, PST_STAGE_LEGENDRE, &t);
    return ok & update_block(d, d->nblocks - 1, s, outs[(d->nblocks - 1) % 2]);
}

bool pst_dyn_step(pst_dyn *d)
{
    const double dt = d->cfg.dt_s;
    substep first[2] = {{dt / 4, true, true}, {dt / 2, false, true}}, leap = {dt, false, false};
    const substep *subs = d->steps_done ? &leap : first;
    int nsub = d->steps_done ? 1 : 2;
    bool ok = true;
    for (int k = 0; k < nsub; k++) ok &= d->out_next ? substep_pipelined(d, &subs[k]) : substep_blocks(d, &subs[k]);
    if (!subs[nsub - 1].keep_old) d->old_partial = d->cfg.robert != 0;
    d->steps_done++;
    return ok;
}
