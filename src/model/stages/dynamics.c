#include "model/stages/dynamics.h"

#include "core/errors.h"
#include "model/libs/fastest.h"
#include "model/transforms/gauss.h"
#include "model/stages/layout.h"
#include "model/stages/step.h"
#include "runtime/timer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One inverse and one forward Legendre pass of a level block with library b, on the buffers the
 * step uses (the zeroed buffers of a new layout): what --blas auto times (pst_blas_choose). */
static double legendre_pass_s(void *arg, pst_blas b)
{
    pst_dyn *d = arg;
    double *lb = d->legall ? d->legall : d->legbuf;
    const int pairs = d->legall ? d->sum_pairs : d->npairs;
    d->leg.blas = b;
    double t0 = pst_now_s();
    pst_step_inverse_sums(d, d->state[0], lb, pairs);
    pst_step_forward_sums(d, lb, pairs, d->out);
    return pst_now_s() - t0;
}

/* The same pass with Legendre kernel k (--legendre-kernel auto). */
static double legendre_kernel_pass_s(void *arg, int k)
{
    pst_dyn *d = arg;
    pst_legendre_use(&d->leg, (pst_leg_method)k);
    return legendre_pass_s(d, d->leg.blas);
}

/* The Legendre products: tables or recurrence, both built and timed with --legendre-kernel auto
 * (after --blas auto, whose choice ran on the tables), then the loser's data freed.  The slowest
 * rank's times decide (the decomposition tests compare ranks' results with the serial run). */
static void init_legendre(pst_dyn *d, const pst_dyn_config *cfg)
{
    const pst_par *par = d->par;
    const MPI_Comm comm = par->cfg.PX * par->cfg.PY > 1 ? par->cfg.comm : MPI_COMM_NULL;
    const size_t first = d->legall ? 0 : par->pair_lo; /* the summed pairs: all of them after a transpose */
    const int nwork = d->block_threads > 1 ? d->block_threads : d->nthreads;
    pst_legendre_init_p(&d->leg, &d->spec, d->mu + first, d->coslat + first, d->sum_pairs,
                        cfg->legendre_auto ? PST_NLEG_METHODS : cfg->legendre, nwork);
    d->leg_work = d->leg.work;
    if (cfg->legendre_isa_forced) pst_legendre_use_isa(&d->leg, cfg->legendre_isa);
    d->leg.blas = cfg->blas;
    for (int k = 0; k < PST_NBLAS; k++) d->blas_trial_s[k] = NAN;
    for (int k = 0; k < PST_NLEG_METHODS; k++) d->legendre_trial_s[k] = NAN;
    if (cfg->blas_auto)
        d->leg.blas = pst_blas_choose(cfg->blas, legendre_pass_s, d, comm, d->blas_trial_s, &d->blas_skipped);
    if (cfg->legendre_auto) {
        bool all[PST_NLEG_METHODS];
        for (int k = 0; k < PST_NLEG_METHODS; k++) all[k] = true;
        pst_legendre_use(&d->leg, (pst_leg_method)pst_fastest(PST_NLEG_METHODS, all, cfg->legendre,
                                                              legendre_kernel_pass_s, d, comm, d->legendre_trial_s));
        pst_legendre_keep(&d->leg);
    }
}

/* The FFT stage: serial plans in one processor column, else the row's (collective over it). */
static void init_fft(pst_dyn *d)
{
    const int plan_event = pst_event_register(&d->events, "fft_plan");
    double since_s;
    pst_event_begin(&since_s);
    if (d->par->cfg.PX == 1) {
        const int lines = d->pair_chunk * 2 * d->Bc;
        pst_fft_init_agreed(&d->fft_inv, d->cfg.fft, d->cfg.grid->nlon, lines * PST_DYN_NINV, d->par->cfg.comm);
        pst_fft_init_agreed(&d->fft_fwd, d->cfg.fft, d->cfg.grid->nlon, lines * PST_DYN_NFWD, d->par->cfg.comm);
    } else {
        pst_dyn_row_stage(d);
    }
    d->fft_plan_s = pst_event_end(&d->events, plan_event, &since_s);
}

void pst_dyn_init(pst_dyn *d, const pst_dyn_config *cfg)
{
    memset(d, 0, sizeof *d);
    d->cfg = *cfg;
    if (!cfg->par) pst_par_serial(&d->serial_par, cfg->grid);
    d->par = cfg->par ? cfg->par : &d->serial_par;
    for (int k = 0; k < PST_NSTAGES; k++) pst_event_register(&d->events, pst_stage_names[k]); /* event k: stage k */
    const pst_par *par = d->par;
    if (par->cfg.PY > 1 && par->cfg.leg_level_pipeline && !pst_pleg_sum_splits(par->cfg.legendre))
        pst_fatal(PST_EXIT_FAILED, "level pipeline: the Legendre algorithm %s has no split-phase sum",
                  par->cfg.legendre->name);
    pst_layout_shape(d);
    if (d->chunks_in_threads || d->block_threads > 1)
        d->thread_wait_event = pst_event_register(&d->events, "thread_wait");
    pst_layout_alloc(d);
    pst_gauss_nodes(cfg->grid->nlat, d->mu, d->coslat, d->w);
    init_legendre(d, cfg);
    init_fft(d);
    if (par->cfg.PY > 1) pst_dyn_column_stage(d);
    if (d->block_threads > 1) pst_dyn_views_create(d);
}

void pst_dyn_free(pst_dyn *d)
{
    pst_dyn_views_free(d);
    pst_pfft_free(d->pfft_inv);
    pst_pfft_free(d->pfft_fwd);
    pst_pleg_free(d->pleg);
    /* The plans set up their communicators' transport areas (collective over all processes). */
    const pst_par *par = d->par;
    if (par->row != MPI_COMM_NULL) pst_transport_release(par->cfg.fft_protocol->transport->name, par->row);
    if (par->col != MPI_COMM_NULL) pst_transport_release(par->cfg.leg_protocol->transport->name, par->col);
    if (par->cfg.PX == 1) {
        pst_fft_free(&d->fft_inv);
        pst_fft_free(&d->fft_fwd);
    }
    pst_legendre_free(&d->leg);
    pst_layout_free(d);
    if (d->par == &d->serial_par) pst_par_free(&d->serial_par);
}

/* Full-layout index of local coefficient (i, n). */
static size_t full_index(const pst_dyn *d, int i, int n)
{
    return pst_spec_full_index(d->cfg.grid->M, d->spec.m[i], n);
}

void pst_dyn_set_level(pst_dyn *d, int level, const double *eta, const double *div, const double *phi)
{
    const double *src[3] = {eta, div, phi};
    for (int i = 0; i < d->spec.nm; i++)
        for (int n = d->spec.m[i]; n <= d->cfg.grid->M; n++) {
            size_t c = pst_spec_index(&d->spec, i, n), g = full_index(d, i, n);
            for (int f = 0; f < 3; f++) memcpy(state_at(d, level, c, f), src[f] + 2 * g, 2 * sizeof(double));
        }
}

void pst_dyn_get_level(const pst_dyn *d, int level, double *eta, double *div, double *phi)
{
    double *dst[3] = {eta, div, phi};
    const pst_par *par = d->par;
    const bool parallel = par->cfg.PX * par->cfg.PY > 1;
    const size_t nfull = 2 * pst_spec_count(d->cfg.grid->M);
    /* Each coefficient once: replicated spectral data (vector sums) comes from the first row. */
    const bool writer = pst_par_leg_is_transpose(par->cfg.legendre) || par->py == 0;
    if (parallel)
        for (int f = 0; f < 3; f++) memset(dst[f], 0, nfull * sizeof *dst[f]);
    if (writer)
        for (int i = 0; i < d->spec.nm; i++)
            for (int n = d->spec.m[i]; n <= d->cfg.grid->M; n++) {
                size_t c = pst_spec_index(&d->spec, i, n), g = full_index(d, i, n);
                for (int f = 0; f < 3; f++) memcpy(dst[f] + 2 * g, state_at(d, level, c, f), 2 * sizeof(double));
            }
    if (parallel) /* zeros plus one value: the sum is exact */
        for (int f = 0; f < 3; f++) MPI_Allreduce(MPI_IN_PLACE, dst[f], (int)nfull, MPI_DOUBLE, MPI_SUM, par->cfg.comm);
}

void pst_dyn_set_forcing(pst_dyn *d, const double *coriolis, const double *phis)
{
    for (int i = 0; i < d->spec.nm; i++)
        for (int n = d->spec.m[i]; n <= d->cfg.grid->M; n++)
            memcpy(d->coriolis + 2 * pst_spec_index(&d->spec, i, n), coriolis + 2 * full_index(d, i, n),
                   2 * sizeof(double));
    /* Only the rank's own points: a global grid on every rank is 4 GiB over 4,096 ranks at T170. */
    const size_t nlon = (size_t)d->nlon_local;
    for (int p = 0; p < d->npairs; p++)
        for (int h = 0; h < 2; h++) {
            double *mine = d->phis + ((size_t)p * 2 + (size_t)h) * nlon;
            if (phis)
                memcpy(mine, phis + (size_t)lat_of(d, p, h) * d->cfg.grid->nlon + d->par->lon_lo, nlon * sizeof *mine);
            else memset(mine, 0, nlon * sizeof *mine);
        }
}
