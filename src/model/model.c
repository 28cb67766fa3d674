#include "model/model.h"

#include "model/checksum.h"
#include "model/setup/constants.h"
#include "model/stages/skeleton.h"
#include "model/setup/testcases.h"
#include "core/alloc.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static size_t npts(const pst_model *m) { return (size_t)m->cfg.grid.nlat * m->cfg.grid.nlon; }

static void ref_alloc(pst_ref_grids *r, size_t n)
{
    r->h = pst_malloc(n * sizeof *r->h);
    r->u = pst_malloc(n * sizeof *r->u);
    r->v = pst_malloc(n * sizeof *r->v);
}

double pst_model_courant(const pst_model *m, double dt_s, double c)
{
    return dt_s * c * m->cfg.grid.M / PST_EARTH_RADIUS_M;
}

/* Largest divisor of a day in whole seconds not above dt_max (at least 1 s). */
static double day_divisor_below(double dt_max)
{
    for (long k = (long)ceil(PST_DAY_S / dt_max); k < (long)PST_DAY_S; k++)
        if ((long)PST_DAY_S % k == 0) return PST_DAY_S / k;
    return 1.0;
}

/* Initial state from the test case: grid u, v, h → ζ, δ (vector transform), η = ζ + f, Φ'. */
static void initial_state(pst_model *m)
{
    const pst_model_config *c = &m->cfg;
    int nlat = c->grid.nlat, nlon = c->grid.nlon;
    double *U = m->grid[0], *V = m->grid[1], *phi = m->grid[2], *u = m->grid[3], *v = m->grid[4];
    double sum = 0, phimax = 0;
    for (int j = 0; j < nlat; j++)
        for (int i = 0; i < nlon; i++) {
            size_t k = (size_t)j * nlon + i;
            pst_case_point p = pst_case_eval(c->test_case, c->alpha, m->lon[i], m->lat[j], 0.0);
            double cl = m->sht.coslat[j];
            U[k] = p.u * cl;
            V[k] = p.v * cl;
            u[k] = p.u;
            v[k] = p.v;
            m->hs[k] = p.hs;
            phi[k] = PST_GRAVITY * (p.h - p.hs);
            m->f[k] = pst_case_coriolis(c->test_case, c->alpha, m->lon[i], m->lat[j]);
            sum += 0.5 * m->sht.w[j] / nlon * phi[k];
            phimax = fmax(phimax, phi[k]);
        }
    /* Φ̄: the global mean geopotential (case 1 advects the full gh, Φ̄ = 0). */
    m->phibar = c->test_case == 1 ? 0.0 : sum;
    for (size_t k = 0; k < npts(m); k++) phi[k] -= m->phibar;
    m->speed0 = pst_max_speed((int)npts(m), u, v) + (c->explicit_scheme ? sqrt(phimax) : 0.0);

    double *zeta = m->spec[0], *div = m->spec[1], *phis = m->spec[2];
    pst_sht_vordiv(&m->sht, U, V, zeta, div);
    pst_sht_analysis(&m->sht, m->f, m->f_spec);
    for (size_t k = 0; k < 2 * m->sht.spec.ncoef; k++) zeta[k] += m->f_spec[k];
    pst_sht_analysis(&m->sht, phi, phis);
    for (int l = 0; l < c->grid.levels; l++) pst_dyn_set_level(&m->dyn, l, zeta, div, phis);
    double *phis_grid = m->grid[5];
    for (size_t k = 0; k < npts(m); k++) phis_grid[k] = PST_GRAVITY * m->hs[k];
    pst_dyn_set_forcing(&m->dyn, m->f_spec, phis_grid);
}

/* A skeleton run (skeleton.h) computes no state, so it needs neither the serial transform nor the
 * grids every rank holds for the initial state and the diagnostics (at T170 about 40 MB a rank):
 * only Φ̄ and the initial largest speed, which set the default time step, taken as initial_state
 * takes them over the points each rank owns and reduced over the grid. */
static void skeleton_scalars(pst_model *m)
{
    const pst_model_config *c = &m->cfg;
    const pst_dyn *d = &m->dyn;
    const pst_par *par = d->par;
    double sum = 0, max[2] = {0, 0}; /* the largest speed and Φ */
    for (size_t p = par->pair_lo; p < par->pair_lo + par->npairs; p++)
        for (int h = 0; h < 2; h++) {
            int j = h ? c->grid.nlat - 1 - (int)p : (int)p;
            double lat = atan2(d->mu[j], d->coslat[j]);
            for (size_t i = par->lon_lo; i < par->lon_lo + par->nlon; i++) {
                double lon = 2 * PST_PI * (double)i / c->grid.nlon;
                pst_case_point q = pst_case_eval(c->test_case, c->alpha, lon, lat, 0.0);
                double phi = PST_GRAVITY * (q.h - q.hs);
                sum += 0.5 * d->w[j] / c->grid.nlon * phi;
                max[0] = fmax(max[0], sqrt(q.u * q.u + q.v * q.v));
                max[1] = fmax(max[1], phi);
            }
        }
    if (par->cfg.comm != MPI_COMM_NULL) {
        MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_DOUBLE, MPI_SUM, par->cfg.comm);
        MPI_Allreduce(MPI_IN_PLACE, max, 2, MPI_DOUBLE, MPI_MAX, par->cfg.comm);
    }
    m->phibar = c->test_case == 1 ? 0.0 : sum;
    m->speed0 = max[0] + (c->explicit_scheme ? sqrt(max[1]) : 0.0);
}

static pst_dyn_config dyn_config(const pst_model_config *cfg)
{
    return (pst_dyn_config){
        .grid = &cfg->grid,
        .level_block = cfg->level_block,
        .dt_s = cfg->dt_s,
        .robert = cfg->robert,
        .hdiff = cfg->hdiff,
        .fft = cfg->fft,
        .par = cfg->par,
        .pair_chunk = cfg->pair_chunk,
        .blas = cfg->blas,
        .blas_auto = cfg->blas_auto,
        .legendre = cfg->legendre,
        .legendre_auto = cfg->legendre_auto,
        .legendre_isa_forced = cfg->legendre_isa_forced,
        .legendre_isa = cfg->legendre_isa,
        .threads = cfg->threads,
        .comm_threads = cfg->comm_threads,
        .scheme = cfg->test_case == 1    ? PST_SCHEME_ADVECTION
                  : cfg->explicit_scheme ? PST_SCHEME_EXPLICIT
                                         : PST_SCHEME_SEMI_IMPLICIT,
    };
}

double pst_model_memory_bytes(const pst_model_config *cfg)
{
    /* Every rank holds the serial transform (its Legendre recurrence and two grids) for the
     * initial state and the diagnostics, and eight grid fields of its own; a skeleton run none. */
    const pst_spectral_grid *g = &cfg->grid;
    double ncoef = ((double)g->M + 1) * (g->M + 2) / 2, npts = (double)g->nlat * g->nlon;
    double serial_doubles =
        (double)pst_legendre_recurrence_doubles(g->M, pst_spec_count(g->M), g->M + 1, g->nlat / 2, 1, true) + 2 * npts +
        2 * g->nlat * (g->nlon / 2 + 1) * 2 + 8 * npts + 4 * 2 * ncoef;
    pst_dyn_config dc = dyn_config(cfg);
    return (pst_skeleton() ? 0 : serial_doubles * sizeof(double)) + pst_dyn_memory_bytes(&dc);
}

/* The serial transform every rank holds for the initial state and the diagnostics, the grids,
 * the time step's state (dynamics.h) and the initial state in it. */
static void serial_init(pst_model *m, const pst_dyn_config *dc)
{
    const pst_model_config *cfg = &m->cfg;
    int nlat = cfg->grid.nlat, nlon = cfg->grid.nlon;
    pst_sht_init(&m->sht, &cfg->grid, cfg->fft);
    m->lon = pst_malloc((size_t)nlon * sizeof *m->lon);
    m->lat = pst_malloc((size_t)nlat * sizeof *m->lat);
    for (int i = 0; i < nlon; i++) m->lon[i] = 2 * PST_PI * i / nlon;
    for (int j = 0; j < nlat; j++) m->lat[j] = atan2(m->sht.mu[j], m->sht.coslat[j]);
    m->hs = pst_calloc(npts(m), sizeof *m->hs);
    m->f = pst_calloc(npts(m), sizeof *m->f);
    m->f_spec = pst_calloc(2 * m->sht.spec.ncoef, sizeof *m->f_spec);
    for (int k = 0; k < 3; k++) m->spec[k] = pst_calloc(2 * m->sht.spec.ncoef, sizeof *m->spec[k]);
    for (int k = 0; k < 6; k++) m->grid[k] = pst_calloc(npts(m), sizeof *m->grid[k]);
    pst_dyn_init(&m->dyn, dc);
    initial_state(m);
}

void pst_model_init(pst_model *m, const pst_model_config *cfg)
{
    memset(m, 0, sizeof *m);
    m->cfg = *cfg;
    pst_dyn_config dc = dyn_config(&m->cfg); /* pointing at the model's grid, not the caller's */
    if (pst_skeleton()) {
        pst_dyn_init(&m->dyn, &dc);
        skeleton_scalars(m);
    } else {
        serial_init(m, &dc);
    }
    m->dyn.cfg.phibar = m->phibar;
    if (m->cfg.dt_s <= 0) {
        double advective = PST_COURANT_TARGET * PST_EARTH_RADIUS_M / (cfg->grid.M * m->speed0);
        double inertial = PST_COURANT_TARGET / (2 * PST_EARTH_OMEGA);
        m->cfg.dt_s = day_divisor_below(fmin(fmin(advective, inertial), PST_DT_T42_S * 42.0 / cfg->grid.M));
    }
    m->dyn.cfg.dt_s = m->cfg.dt_s;
    m->courant = pst_model_courant(m, m->cfg.dt_s, m->speed0);
    m->inertial = 2 * PST_EARTH_OMEGA * m->cfg.dt_s;
    if (pst_skeleton()) return;
    pst_model_diag d0;
    pst_model_diagnose(m, 0.0, NULL, &d0);
    m->inv0 = d0.inv;
}

void pst_model_free(pst_model *m)
{
    pst_dyn_free(&m->dyn);
    pst_sht_free(&m->sht);
    free(m->lon);
    free(m->lat);
    free(m->hs);
    free(m->f);
    free(m->f_spec);
    for (int k = 0; k < 3; k++) free(m->spec[k]);
    for (int k = 0; k < 6; k++) free(m->grid[k]);
}

/* h, u, v, η on the grid from coefficients of η (or ζ when eta_is_abs is false), δ, Φ'. */
static void grids_from_spec(pst_model *m, double *eta, const double *div, const double *phi, double phibar,
                            bool eta_is_abs, double *h, double *u, double *v, double *etag)
{
    size_t nc2 = 2 * m->sht.spec.ncoef;
    double *zeta = pst_malloc(nc2 * sizeof *zeta);
    for (size_t k = 0; k < nc2; k++) zeta[k] = eta[k] - (eta_is_abs ? m->f_spec[k] : 0.0);
    pst_sht_wind(&m->sht, zeta, div, u, v);
    if (etag) pst_sht_synthesis(&m->sht, eta, etag);
    pst_sht_synthesis(&m->sht, phi, h);
    free(zeta);
    for (int j = 0; j < m->cfg.grid.nlat; j++) {
        double cl = m->sht.coslat[j];
        for (int i = 0; i < m->cfg.grid.nlon; i++) {
            size_t k = (size_t)j * m->cfg.grid.nlon + i;
            u[k] /= cl;
            v[k] /= cl;
            h[k] = (h[k] + phibar) / PST_GRAVITY + m->hs[k];
        }
    }
}

void pst_model_level_grids(pst_model *m, int level)
{
    pst_dyn_get_level(&m->dyn, level, m->spec[0], m->spec[1], m->spec[2]);
    grids_from_spec(m, m->spec[0], m->spec[1], m->spec[2], m->phibar, true, m->grid[0], m->grid[1], m->grid[2],
                    m->grid[3]);
}

/* The state's fields as the checksums name them: absolute vorticity, divergence, geopotential deviation. */
const char *const pst_model_checksum_names[PST_MODEL_NCHECKSUMS] = {"eta", "div", "phi"};

void pst_model_diagnose(pst_model *m, double t_s, const pst_ref_grids *ref, pst_model_diag *out)
{
    const pst_model_config *c = &m->cfg;
    memset(out, 0, sizeof *out);
    out->t_s = t_s;
    pst_ref_grids analytic = {0};
    if (!ref && pst_case_analytic(c->test_case)) {
        ref_alloc(&analytic, npts(m));
        for (int j = 0; j < c->grid.nlat; j++)
            for (int i = 0; i < c->grid.nlon; i++) {
                size_t k = (size_t)j * c->grid.nlon + i;
                pst_case_point p = pst_case_eval(c->test_case, c->alpha, m->lon[i], m->lat[j], t_s);
                analytic.h[k] = p.h;
                analytic.u[k] = p.u;
                analytic.v[k] = p.v;
            }
        ref = &analytic;
    }
    pst_norm_acc acc = {0};
    out->has_checksums = true;
    for (int f = 0; f < PST_MODEL_NCHECKSUMS; f++) out->checksum[f] = PST_FNV1A64_OFFSET;
    for (int l = 0; l < c->grid.levels; l++) {
        pst_model_level_grids(m, l);
        for (int f = 0; f < PST_MODEL_NCHECKSUMS; f++)
            out->checksum[f] = pst_spec_digest(out->checksum[f], c->grid.M, m->spec[f]);
        pst_grid_fields x = {m->grid[0], m->grid[1], m->grid[2]};
        if (ref) pst_norm_add(&acc, m->sht.w, c->grid.nlat, c->grid.nlon, x, (pst_grid_fields){ref->h, ref->u, ref->v});
        pst_invariants_add(&out->inv, m->sht.w, c->grid.nlat, c->grid.nlon, x, m->hs, m->grid[3]);
        out->max_speed = fmax(out->max_speed, pst_max_speed((int)npts(m), m->grid[1], m->grid[2]));
    }
    if (ref) {
        out->has_norms = true;
        out->norms = pst_norm_finish(&acc);
    }
    pst_ref_grids_free(&analytic);
    if (c->test_case == 1) {
        /* A tracer bell with h = 0 outside: only its mass is an invariant. */
        out->inv.energy = out->inv.enstrophy = NAN;
    }
    if (m->inv0.mass != 0) {
        out->mass_rel = (out->inv.mass - m->inv0.mass) / m->inv0.mass;
        out->energy_rel = (out->inv.energy - m->inv0.energy) / m->inv0.energy;
        out->enstrophy_rel = (out->inv.enstrophy - m->inv0.enstrophy) / m->inv0.enstrophy;
    }
    out->courant = pst_model_courant(m, c->dt_s, out->max_speed);
}

void pst_model_reference(pst_model *m, int M_ref, const double *zeta, const double *div, const double *phi,
                         double phibar, pst_ref_grids *out)
{
    size_t nc2 = 2 * m->sht.spec.ncoef;
    double *s[3];
    const double *src[3] = {zeta, div, phi};
    for (int f = 0; f < 3; f++) s[f] = pst_calloc(nc2, sizeof *s[f]);
    int Mc = M_ref < m->cfg.grid.M ? M_ref : m->cfg.grid.M;
    for (int mm = 0; mm <= Mc; mm++)
        for (int n = mm; n <= Mc; n++) {
            size_t to = pst_spec_full_index(m->cfg.grid.M, mm, n), from = pst_spec_full_index(M_ref, mm, n);
            for (int f = 0; f < 3; f++) memcpy(s[f] + 2 * to, src[f] + 2 * from, 2 * sizeof(double));
        }
    ref_alloc(out, npts(m));
    grids_from_spec(m, s[0], s[1], s[2], phibar, false, out->h, out->u, out->v, NULL);
    for (int f = 0; f < 3; f++) free(s[f]);
}

void pst_ref_grids_free(pst_ref_grids *r)
{
    free(r->h);
    free(r->u);
    free(r->v);
    r->h = r->u = r->v = NULL;
}

/* Event `name`'s slowest rank's time per timed step (0 where the run has no such event, and
 * without timed steps). */
static double event_s(const pst_event_table *t, const pst_event_stats *stats, long long timed, const char *name)
{
    int e = pst_event_find(t, name);
    return e >= 0 && timed > 0 ? stats[e].slowest_s : 0;
}

/* r->local_stages: each rank's time per timed step in the stages without communication, the
 * slowest and the fastest over comm (named by their world ranks). */
static void local_stages_spread(const pst_event_table *t, const pst_event_table *base, long long timed, MPI_Comm comm,
                                pst_model_integration *r)
{
    static const pst_stage local[] = {PST_STAGE_FOURIER, PST_STAGE_GRID, PST_STAGE_SPECTRAL};
    struct { double s; int rank; } mine = {0, 0}, slowest, fastest;
    MPI_Comm_rank(MPI_COMM_WORLD, &mine.rank);
    for (size_t k = 0; k < sizeof local / sizeof local[0]; k++)
        mine.s += (t->total_s[local[k]] - base->total_s[local[k]]) / (double)timed;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    MPI_Allreduce(&mine, &fastest, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
    r->local_stages.slowest_s = slowest.s;
    r->local_stages.slowest_rank = slowest.rank;
    r->local_stages.fastest_s = fastest.s;
    r->local_stages.fastest_rank = fastest.rank;
}

void pst_model_integrate(pst_model *m, const pst_model_integrate_opts *o, pst_model_integration *r)
{
    const pst_par *par = m->cfg.par;
    MPI_Comm comm = par && par->cfg.PX * par->cfg.PY > 1 ? par->cfg.comm : MPI_COMM_NULL;
    long long warmup = o->warmup < o->steps ? o->warmup : 0;
    *r = (pst_model_integration){.step_s = pst_calloc((size_t)(o->steps ? o->steps : 1), sizeof *r->step_s)};
    const int step_event = pst_event_register(&m->dyn.events, "step");
    pst_event_table base = m->dyn.events; /* the timed steps' start */
    if (comm != MPI_COMM_NULL) MPI_Barrier(comm);
    for (long long s = 1; s <= o->steps; s++) {
        if (s == warmup + 1) base = m->dyn.events;
        double since_s;
        pst_event_begin(&since_s);
        int ok = pst_dyn_step(&m->dyn);
        r->step_s[s - 1] = pst_event_end(&m->dyn.events, step_event, &since_s);
        r->steps_run = s;
        if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, comm);
        if (!ok && !r->blowup_step) r->blowup_step = s;
        if (!ok && !o->keep_going) break;
        if (o->on_diag && o->diag_every && s % o->diag_every == 0 && s < o->steps) o->on_diag(o->arg, m, s);
    }
    long long timed = r->steps_run - warmup;
    pst_event_stats stats[PST_EVENTS_MAX];
    pst_event_stats_of(&m->dyn.events, &base, timed > 0 ? (double)timed : 1, comm, stats);
    for (int k = 0; k < PST_NSTAGES; k++) r->stage_s[k] = timed > 0 ? stats[k].slowest_s : 0;
    r->comm_s[0] = event_s(&m->dyn.events, stats, timed, "fft_comm");
    r->comm_s[1] = event_s(&m->dyn.events, stats, timed, "legendre_comm");
    r->wait_s[0] = event_s(&m->dyn.events, stats, timed, "fft_wait");
    r->wait_s[1] = event_s(&m->dyn.events, stats, timed, "legendre_wait");
    r->thread_wait_s = event_s(&m->dyn.events, stats, timed, "thread_wait");
    r->nevents = PST_NSTAGES; /* the records' events: the stages (event k: stage k) */
    memcpy(r->events, stats, PST_NSTAGES * sizeof *stats);
    if (comm != MPI_COMM_NULL && timed > 0) local_stages_spread(&m->dyn.events, &base, timed, comm, r);
    if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, r->step_s, (int)r->steps_run, MPI_DOUBLE, MPI_MAX, comm);
}
