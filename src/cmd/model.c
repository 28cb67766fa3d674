/* pstswm model: the spectral transform shallow water model (docs/model.md, Worley 1998 §2, §4, §7).
 *
 * Runs a Williamson et al. (1992) test case with NCAR STSWM numerics, serially or on a PX x PY
 * processor grid with the chosen parallel algorithms and protocols (model_algos.h), and reports
 * the time per step (median over the steps after warm-up of the slowest rank's step), the
 * per-stage split with each stage's time in its parallel algorithm, the analytic flop count and
 * the MFlop/s it implies, error norms (analytic solution or --reference run) and conservation
 * of mass, energy and potential enstrophy. */
#include "algo/exchange.h"
#include "cmd/frame.h"
#include "run/threads.h"
#include "run/memory.h"
#include "cmd/model_algos.h"
#include "cmd/records.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "model/constants.h"
#include "model/fields_io.h"
#include "model/flops.h"
#include "run/context.h"
#include "run/emit.h"
#include "run/locality.h"
#include "run/run_schema.h"
#include "run/timer.h"
#include "run/watchdog.h"
#include "stats/stats.h"
#include "model/mathlibs.h"
#include "model/model.h"
#include "model/skeleton.h"
#include "model/spectral_grid.h"
#include "model/testcases.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_LEVELS = 4096 };

/* The frame's phases, each its own function: options -> validate -> plan -> measure -> analyse
 * -> print and emit -> finish (--write-fields). */

/* What the run needs beyond the options: the model, its step count and the reference grids. */
typedef struct model_plan {
    pst_par par;
    pst_model m;
    long long steps, warmup;
    double t_end_s, setup_s, memory_estimate_bytes;
    pst_ref_grids ref;
} model_plan;

/* What one run measured, reduced over steps and ranks. */
typedef struct model_result {
    pst_model_run_result run;
    pst_model_diag final;
    double diag_s;            /* diagnostics during the run, outside the step times */
    double max_rss_bytes;
    long long *rss_bytes_per_rank;
    int nranks;
} model_result;

/* The run's figures, ready to emit and print. */
typedef struct model_summary {
    pst_summary step;         /* over the timed steps */
    double wall_s, stage_sum_s, flops_per_step, flops_per_step_level, mflops, stage_flops_per_step[PST_NSTAGES];
    double recurrence_flops_per_step; /* the Legendre recurrence's generation (0 with the tables) */
} model_summary;


typedef struct model_cfg {
    pst_ctx ctx;
    long long test_case, trunc, nlat, nlon, levels, level_block, steps, diag_every, warmup, threads;
    double dt_s, days, robert, hdiff;
    const char *alpha_spec, *fftw_plan, *fftw_wisdom, *write_fields, *reference, *blas_name, *compute, *chunks, *legendre_kernel;
    bool explicit_scheme, level_pipeline, comm_threads;
    model_algos algos;
    /* derived */
    double alpha;
    pst_fft_planner fft;      /* --fftw-plan: every FFTW plan of the run, and their counts */
    pst_blas blas;            /* --blas: the library, or with blas_auto the default */
    bool blas_auto;
    pst_leg_method legendre;  /* --legendre-kernel: the kernel, or with legendre_auto the one kept on a tie */
    bool legendre_auto;
    bool wisdom_loaded;       /* rank 0 read --fftw-wisdom before planning */
    pst_reference ref;
    pst_spectral_grid grid;   /* --trunc, --levels, --nlat, --nlon */
    pst_par_config par;       /* grid, algorithms and protocols (1x1: serial) */
    const char *fft_locality, *legendre_locality; /* do the rows and the columns stay inside a node? */
    model_plan plan;
} model_cfg;

/* The longest run --steps or --days may ask for. */
static const double MAX_STEPS = 1e9;

/* A number, or [A*]pi[/B] (e.g. pi/4, 2*pi/3). */
static int parse_angle(const char *s, double *out)
{
    char err[128];
    const char *pi = strstr(s, "pi");
    if (!pi) return pst_parse_double(s, out, err, sizeof err);
    double num = 1, den = 1;
    if (pi != s) {
        char head[64];
        size_t len = (size_t)(pi - s);
        if (len >= sizeof head || s[len - 1] != '*') return -1;
        snprintf(head, sizeof head, "%.*s", (int)(len - 1), s);
        if (pst_parse_double(head, &num, err, sizeof err)) return -1;
    }
    if (pi[2] == '/') {
        if (pst_parse_double(pi + 3, &den, err, sizeof err) || den == 0) return -1;
    } else if (pi[2]) {
        return -1;
    }
    *out = num * PST_PI / den;
    /* A rotation angle is meaningful within one turn either way; 1e308*pi is not an angle. */
    return isfinite(*out) && fabs(*out) <= 2 * PST_PI ? 0 : -1;
}

/* Why rank 0, which writes the fields, cannot write them to --write-fields (NULL: it can).
 * NetCDF needs a real file; and the records and the fields must not share one. */
static const char *write_fields_problem(const model_cfg *c, char *err, size_t len)
{
    const char *path = c->write_fields;
    struct stat wf, of;
    bool exists = stat(path, &wf) == 0;
    if (exists && !S_ISREG(wf.st_mode))
        return snprintf(err, len, "--write-fields: '%s' is not a regular file (NetCDF needs one)", path), err;
    if (c->ctx.out_path && (!strcmp(c->ctx.out_path, path) ||
                            (exists && stat(c->ctx.out_path, &of) == 0 && of.st_dev == wf.st_dev && of.st_ino == wf.st_ino)))
        return snprintf(err, len, "--write-fields and --out name the same file '%s': the records would overwrite the fields",
                        path), err;
    FILE *f = fopen(path, "a");
    if (!f) return snprintf(err, len, "--write-fields: cannot write '%s'", path), err;
    fclose(f);
    if (!exists) remove(path);
    return NULL;
}

/* --fftw-wisdom on rank 0, which plans first (pst_fft_plan_agreed) and saves the wisdom after:
 * load the file if there is one, and make sure it can be replaced.  NULL: fine. */
static const char *wisdom_problem(model_cfg *c, char *err, size_t len)
{
    char why[480];
    if (pst_fft_wisdom_load(c->fftw_wisdom, &c->wisdom_loaded, why, sizeof why))
        return snprintf(err, len, "--fftw-wisdom: %s", why), err;
    char *dir = strdup(c->fftw_wisdom);
    bool writable = access(dirname(dir), W_OK) == 0;
    free(dir);
    if (!writable) return snprintf(err, len, "--fftw-wisdom: cannot write in the directory of '%s'", c->fftw_wisdom), err;
    return NULL;
}

/* --level-pipeline: a column to sum over and a vector sum with a nonblocking twin. */
static void resolve_level_pipeline(model_cfg *c)
{
    if (!c->level_pipeline) return;
    char why[256];
    if (c->par.PY < 2)
        pst_usage_error("--level-pipeline: the grid %dx%d has no Legendre stage across ranks (needs PY > 1)", c->par.PX, c->par.PY);
    if (pst_mpi_feature_missing(PST_FEAT_NBC, why, sizeof why)) pst_usage_error("--level-pipeline: %s", why);
    if (!pst_pleg_sum_splits(c->par.legendre))
        pst_usage_error("--level-pipeline: needs a nonblocking vector sum as the Legendre algorithm (--legendre allreduce or "
                        "iallreduce), not %s", c->par.legendre->name);
    c->par.leg_level_pipeline = true;
}

/* --comm-threads: each thread takes whole level blocks with their messages, over the two-sided
 * transport (the one-sided ones set up one area per communicator, not per thread). */
static void check_comm_threads(const model_cfg *c)
{
    if (!c->comm_threads) return;
    const long long threads = pst_threads(), blocks = c->levels / c->level_block;
    if (threads < 2) pst_usage_error("--comm-threads shares the level blocks among the threads: give --threads 2 or more");
    if (blocks < threads)
        pst_usage_error("--comm-threads with %lld threads needs %lld level blocks or more: --levels %lld in blocks of %lld "
                        "makes %lld (lower --level-block)", threads, threads, c->levels, c->level_block, blocks);
    if (c->level_pipeline)
        pst_usage_error("--comm-threads and --level-pipeline both overlap the column's sums with computation: give one of them");
    if (strcmp(c->algos.transport, "mpi"))
        pst_usage_error("--comm-threads runs on the two-sided transport mpi, not %s", c->algos.transport);
}

static void validate(model_cfg *c)
{
    char err[512];
    if (c->test_case < 1 || c->test_case > 6 || !pst_case_known((int)c->test_case))
        pst_usage_error("--case: %lld is not a supported test case (allowed: 1, 2, 5, 6)", c->test_case);
    if (parse_angle(c->alpha_spec, &c->alpha))
        pst_usage_error("--alpha: '%s' is not an angle in radians within one turn (e.g. 0.05, pi/4, 2*pi/3; |alpha| <= 2*pi)",
                        c->alpha_spec);
    if (c->alpha != 0 && !pst_case_rotated((int)c->test_case))
        pst_usage_error("--alpha: the rotation angle applies to cases 1 and 2 only (case %lld)", c->test_case);
    c->threads = pst_threads_resolve((int)c->threads, true, c->comm_threads, "--comm-threads");
    pst_usage_check_all(pst_dyn_trunc_problem(c->trunc, err, sizeof err));
    if (pst_spectral_grid_init(&c->grid, (int)c->trunc, (int)c->levels, (int)c->nlat, (int)c->nlon, err, sizeof err))
        pst_usage_error("%s", err);
    c->nlat = c->grid.nlat;
    c->nlon = c->grid.nlon;
    /* 4 levels per block: the Legendre dgemms get 40 columns (OpenBLAS's small-matrix kernels are
     * fastest from about 20 to 80) and each table is streamed a quarter as often as level by
     * level (T85L16: Legendre stage 7.5-8.1 ms against 8.3-8.9 with 2, bench/model.sh). */
    if (!c->level_block) c->level_block = c->levels % 4 == 0 ? 4 : c->levels % 2 == 0 ? 2 : 1;
    if (c->levels % c->level_block)
        pst_usage_error("--level-block: %lld does not divide --levels %lld", c->level_block, c->levels);
    if (!isnan(c->dt_s) && c->dt_s <= 0) pst_usage_error("--dt: %g s is not a positive time step", c->dt_s);
    if (c->steps && !isnan(c->days)) pst_usage_error("--steps and --days are exclusive: give one of them");
    if (!isnan(c->days) && c->days <= 0) pst_usage_error("--days: %g is not a positive simulated time", c->days);
    pst_compute_setup(&c->ctx, c->compute);
    pst_math_libraries_setup(&c->ctx);
    /* A skeleton run computes no state: what would read it is refused rather than fed garbage. */
    if (pst_skeleton() && (c->diag_every || c->write_fields || c->reference))
        pst_usage_error("--compute skeleton computes no state: --diag-every, --write-fields and --reference need --compute real");
    if (!pst_fft_planner_init(&c->fft, c->fftw_plan)) pst_usage_error("--fftw-plan: unknown '%s'", c->fftw_plan);
    pst_blas_backend blas = pst_blas_backend_resolve(c->blas_name);
    c->blas = blas.lib;
    c->blas_auto = blas.auto_choose;
    c->legendre_auto = strcmp(c->legendre_kernel, "auto") == 0;
    c->legendre = strcmp(c->legendre_kernel, "recurrence") == 0 ? PST_LEG_RECURRENCE : PST_LEG_DGEMM;
    model_algos_resolve(&c->algos, c->ctx.size, &c->grid, &c->par);
    c->ctx.transport = c->algos.transport; /* the header and every record carry it (record.c) */
    resolve_level_pipeline(c);
    check_comm_threads(c);
    if (c->reference) {
        /* Every rank reads it: the path may be node-local. */
        char message[600];
        bool failed = pst_reference_read(c->reference, &c->ref, err, sizeof err);
        if (failed) snprintf(message, sizeof message, "--reference: %s", err);
        pst_usage_check_all(failed ? message : NULL);
        if (c->ref.test_case != c->test_case || c->ref.alpha != c->alpha)
            pst_usage_error("--reference: %s is a run of case %d (alpha %g), this is case %lld (alpha %g)", c->reference,
                            c->ref.test_case, c->ref.alpha, c->test_case, c->alpha);
    }
    if (c->write_fields) pst_usage_check_root(c->ctx.rank == 0 ? write_fields_problem(c, err, sizeof err) : NULL);
    if (c->fftw_wisdom) pst_usage_check_root(c->ctx.rank == 0 ? wisdom_problem(c, err, sizeof err) : NULL);
}

/* Steps from --steps, --days or the case's standard length; the simulated time must be a
 * whole number of steps. */
static long long resolve_steps(const model_cfg *c, double dt_s)
{
    if (c->steps) return c->steps;
    double days = isnan(c->days) ? pst_case_default_days((int)c->test_case) : c->days;
    double exact = days * PST_DAY_S / dt_s;
    if (!(exact <= MAX_STEPS))
        pst_usage_error("--days: %g days are %.3g time steps of %g s (allowed: up to %.0e steps)", days, exact, dt_s, MAX_STEPS);
    long long n = llround(exact);
    if (n < 1 || fabs(exact - (double)n) > 1e-6 * fmax(1.0, exact))
        pst_usage_error("--days: %g days is not a whole number of %g s time steps (%.4f); use --steps or another --dt",
                        days, dt_s, exact);
    return n;
}

static bool root;  /* rank 0 prints */

static void print_diag_header(void)
{
    if (root) printf("  %6s %7s %10s %10s %10s %10s %11s %11s %11s %7s\n", "step", "day", "h_l1", "h_l2", "h_linf", "v_l2",
           "mass_rel", "energy_rel", "enstr_rel", "max_v");
}

static void print_diag(long long step, const pst_model_diag *d)
{
    if (!root) return;
    if (d->has_norms)
        printf("  %6lld %7.3f %10.3e %10.3e %10.3e %10.3e %11.3e %11.3e %11.3e %7.2f\n", step, d->t_s / PST_DAY_S,
               d->norms.h_l1, d->norms.h_l2, d->norms.h_linf, d->norms.v_l2, d->mass_rel, d->energy_rel,
               d->enstrophy_rel, d->max_speed);
    else
        printf("  %6lld %7.3f %10s %10s %10s %10s %11.3e %11.3e %11.3e %7.2f\n", step, d->t_s / PST_DAY_S, "-", "-", "-",
               "-", d->mass_rel, d->energy_rel, d->enstrophy_rel, d->max_speed);
}

static bool is_parallel(const model_cfg *c) { return c->par.PX * c->par.PY > 1; }

/* What a stage ran: "serial" on one rank of that dimension, else the algorithm. */
static const char *stage_alg(const model_cfg *c, bool fft)
{
    if (fft) return c->par.PX > 1 ? c->par.fft->name : "serial";
    return c->par.PY > 1 ? c->par.legendre->name : "serial";
}

static const char *stage_protocol(const model_cfg *c, bool fft)
{
    if (!strcmp(stage_alg(c, fft), "serial")) return "local";
    if ((fft ? c->par.fft : c->par.legendre)->collective) return "coll";
    return (fft ? c->par.fft_protocol : c->par.leg_protocol)->code;
}

/* The preset named, or gen when no algorithm option changed the default; NULL otherwise. */
static const char *preset_label(const model_cfg *c)
{
    const model_algos *a = &c->algos;
    if (a->preset) return a->preset;
    bool custom = a->fft || a->legendre || a->protocol || a->fft_protocol || a->leg_protocol || a->overlap;
    return custom ? NULL : "gen";
}

static void rec_identity(pst_rec *r, const model_cfg *c, const pst_model *m, long long steps)
{
    char grid[32];
    snprintf(grid, sizeof grid, "%dx%d", c->par.PX, c->par.PY);
    pst_rec_int(r, "case", c->test_case);
    pst_rec_num(r, "alpha", c->alpha);
    pst_rec_int(r, "trunc", c->trunc);
    pst_rec_int(r, "levels", c->levels);
    pst_rec_str(r, "grid", grid);
    pst_rec_int(r, "px", c->par.PX);
    pst_rec_int(r, "py", c->par.PY);
    pst_rec_str(r, "fft_locality", c->fft_locality);
    pst_rec_str(r, "legendre_locality", c->legendre_locality);
    pst_rec_str(r, "preset", is_parallel(c) ? preset_label(c) : NULL);
    pst_rec_str(r, "fft", stage_alg(c, true));
    pst_rec_str(r, "legendre", stage_alg(c, false));
    pst_rec_str(r, "fft_protocol", stage_protocol(c, true));
    pst_rec_str(r, "legendre_protocol", stage_protocol(c, false));
    pst_rec_bool(r, "fft_overlap", c->par.PX > 1 && pst_overlapped(c->par.fft_protocol, c->par.fft_overlap) && !c->par.fft->collective);
    pst_rec_bool(r, "legendre_overlap", c->par.PY > 1 && pst_overlapped(c->par.leg_protocol, c->par.leg_overlap) && !c->par.legendre->collective);
    pst_rec_bool(r, "level_pipeline", c->par.leg_level_pipeline);
    pst_rec_int(r, "nlat", c->nlat);
    pst_rec_int(r, "nlon", c->nlon);
    pst_rec_int(r, "level_block", c->level_block);
    pst_rec_str(r, "chunks", c->chunks);
    pst_rec_int(r, "pair_chunk", m->dyn.pair_chunk);
    pst_rec_int(r, "chain_levels", m->dyn.Bc);
    pst_rec_str(r, "blas", pst_blas_names[m->dyn.leg.blas]);
    pst_rec_str(r, "legendre_kernel", pst_leg_method_names[m->dyn.leg.method]);
    pst_rec_str(r, "scheme", m->cfg.test_case == 1 ? "advection" : c->explicit_scheme ? "explicit" : "semi-implicit");
    pst_rec_num(r, "dt_s", m->cfg.dt_s);
    pst_rec_int(r, "steps", steps);
}

static void rec_diag(pst_rec *r, const pst_model_diag *d)
{
    pst_rec_num(r, "t_s", d->t_s);
    pst_rec_num(r, "days", d->t_s / PST_DAY_S);
    if (d->has_norms) {
        pst_rec_num(r, "h_l1", d->norms.h_l1);
        pst_rec_num(r, "h_l2", d->norms.h_l2);
        pst_rec_num(r, "h_linf", d->norms.h_linf);
        pst_rec_num(r, "v_l1", d->norms.v_l1);
        pst_rec_num(r, "v_l2", d->norms.v_l2);
        pst_rec_num(r, "v_linf", d->norms.v_linf);
    }
    pst_rec_num(r, "mass_rel", d->mass_rel);
    pst_rec_num(r, "energy_rel", d->energy_rel);
    pst_rec_num(r, "enstrophy_rel", d->enstrophy_rel);
    pst_rec_num(r, "max_speed", d->max_speed);
    pst_rec_num(r, "courant", d->courant);
}

static void courant_warning(const pst_model *m, double courant, double t_s, bool *warned)
{
    if (courant < 1.0 || *warned || !root) return;
    fprintf(stderr, "%s: warning: Courant number %.2f >= 1 at day %.2f (dt %g s, T%d): the run may become unstable\n",
            pst_progname(), courant, t_s / PST_DAY_S, m->cfg.dt_s, m->cfg.M);
    *warned = true;
}

/* Diagnostics every --diag-every steps, during the run but outside the step timing. */
typedef struct diag_ctx {
    model_cfg *c;
    long long steps;
    bool *warned;
    double diag_s;
} diag_ctx;

static void diagnose_during(void *arg, pst_model *m, long long step)
{
    diag_ctx *dc = arg;
    double t0 = pst_now_s();
    pst_model_diag d;
    pst_model_diagnose(m, (double)step * m->cfg.dt_s, NULL, &d);
    dc->diag_s += pst_now_s() - t0;
    print_diag(step, &d);
    fflush(stdout);
    courant_warning(m, d.courant, d.t_s, dc->warned);
    pst_rec r;
    pst_rec_begin(&r, &dc->c->ctx, &pst_schema_model_diag);
    rec_identity(&r, dc->c, m, dc->steps);
    pst_rec_int(&r, "step", step);
    rec_diag(&r, &d);
    pst_rec_int(&r, "max_rss_bytes", (long long)pst_peak_rss_bytes(NULL)); /* collective, outside the timing */
    pst_rec_emit(&r, &dc->c->ctx);
}

static pst_model_config model_config(model_cfg *c)
{
    return (pst_model_config){
        .test_case = (int)c->test_case, .alpha = c->alpha, .M = (int)c->trunc, .nlat = (int)c->nlat, .nlon = (int)c->nlon,
        .levels = (int)c->levels, .level_block = (int)c->level_block, .dt_s = isnan(c->dt_s) ? 0 : c->dt_s,
        .explicit_scheme = c->explicit_scheme, .robert = c->robert, .hdiff = c->hdiff, .fft = &c->fft,
        .par = is_parallel(c) ? &c->plan.par : NULL, .blas = c->blas, .blas_auto = c->blas_auto,
        .legendre = c->legendre, .legendre_auto = c->legendre_auto,
        .pair_chunk = strcmp(c->chunks, "whole") ? 0 : PST_WHOLE_CHUNK, .threads = pst_threads(),
        .comm_threads = c->comm_threads,
    };
}

/* The options, then the processor grid and the memory the run needs: a run too large for the
 * node is bad input, refused before validation ends. */
static void validate_run(void *p)
{
    model_cfg *c = p;
    validate(c);
    root = c->ctx.rank == 0;
    if (is_parallel(c)) {
        c->par.comm = MPI_COMM_WORLD;
        pst_par_init(&c->plan.par, &c->par, &c->grid);
    }
    pst_model_config mc = model_config(c);
    char what[96];
    snprintf(what, sizeof what, "model T%lldL%lld on %lld x %lld points", c->trunc, c->levels, c->nlat, c->nlon);
    c->plan.memory_estimate_bytes = pst_require_memory(pst_model_memory_bytes(&mc), what);
}

/* The model (tables, FFT plans, BLAS choice), its step count and the reference grids. */
static void plan(void *arg)
{
    model_cfg *c = arg;
    model_plan *p = &c->plan;
    pst_model_config mc = model_config(c);
    char what[96];
    double setup_t0 = pst_now_s();
    pst_model_init(&p->m, &mc);
    p->setup_s = pst_now_s() - setup_t0;
    if (c->fftw_wisdom) {
        char err[600];
        int failed = c->ctx.rank == 0 && pst_fft_wisdom_save(c->fftw_wisdom, err, sizeof err);
        MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (failed) pst_collective_exit(PST_EXIT_FAILED, "--fftw-wisdom: %s", c->ctx.rank == 0 ? err : "");
    }
    p->steps = resolve_steps(c, p->m.cfg.dt_s);
    p->warmup = c->warmup < p->steps ? c->warmup : 0;
    snprintf(what, sizeof what, "model T%lldL%lld over %lld steps", c->trunc, c->levels, p->steps);
    double step_times_bytes = (double)p->steps * sizeof(double);
    pst_require_memory(step_times_bytes, what);
    p->memory_estimate_bytes += step_times_bytes;
    p->t_end_s = (double)p->steps * p->m.cfg.dt_s;
    p->ref = (pst_ref_grids){0};
    if (c->reference) {
        if (fabs(c->ref.time_s - p->t_end_s) > 1e-6 * fmax(1.0, p->t_end_s))
            pst_usage_error("--reference: %s is at day %g, this run ends at day %g", c->reference, c->ref.time_s / PST_DAY_S,
                            p->t_end_s / PST_DAY_S);
        pst_model_reference(&p->m, c->ref.M, c->ref.zeta, c->ref.div, c->ref.phi, c->ref.phibar, &p->ref);
    }
}

static void print_banner(const model_cfg *c, const model_plan *p)
{
    const pst_model *m = &p->m;
    printf("# model: case %lld%s%s, T%lld on %lld x %lld Gaussian grid, %lld level%s (blocks of %lld), %s\n", c->test_case,
           pst_case_rotated((int)c->test_case) ? ", alpha " : "", pst_case_rotated((int)c->test_case) ? c->alpha_spec : "",
           c->trunc, c->nlat, c->nlon, c->levels, c->levels == 1 ? "" : "s", c->level_block,
           m->dyn.cfg.scheme == PST_SCHEME_ADVECTION ? "advection (winds fixed)" : c->explicit_scheme ? "explicit" : "semi-implicit");
    printf("#   dt %g s (%s; Courant number %.2f at max speed %.1f m/s, 2*Omega*dt %.2f), %lld steps = %.4g days, "
           "phibar %.1f m^2/s^2\n", m->cfg.dt_s, isnan(c->dt_s) ? "default" : "--dt", m->courant, m->speed0, m->inertial,
           p->steps, p->t_end_s / PST_DAY_S, m->phibar);
    if (is_parallel(c))
        printf("#   grid %dx%d (preset %s): FFT %s (protocol %s%s), Legendre %s (protocol %s%s)\n", c->par.PX, c->par.PY,
               preset_label(c) ? preset_label(c) : "none", stage_alg(c, true), stage_protocol(c, true),
               c->par.fft_overlap ? ", overlap" : "", stage_alg(c, false), stage_protocol(c, false),
               c->par.leg_overlap ? ", overlap" : c->par.leg_level_pipeline ? ", level pipeline" : "");
}

/* The diagnostics, or in a skeleton run, whose state is not computed, none: every norm and
 * invariant NaN, which the records write as null. */
static void diagnose(pst_model *m, double t_s, const pst_ref_grids *ref, pst_model_diag *out)
{
    if (!pst_skeleton()) {
        pst_model_diagnose(m, t_s, ref, out);
        return;
    }
    const double none = NAN;
    *out = (pst_model_diag){.t_s = t_s, .has_norms = true, .mass_rel = none, .energy_rel = none, .enstrophy_rel = none,
                            .max_speed = none, .courant = none};
    out->norms.h_l1 = out->norms.h_l2 = out->norms.h_linf = none;
    out->norms.v_l1 = out->norms.v_l2 = out->norms.v_linf = none;
}

/* Initial diagnostics, the timed steps (diagnostics between them, outside the timing) and the
 * final diagnostics. */
static void run_steps(model_cfg *c, model_plan *p, model_result *out)
{
    pst_model *m = &p->m;
    bool warned = false;
    if (root) print_banner(c, p);
    courant_warning(m, m->courant, 0, &warned);
    if (m->inertial >= 1.0 && root)
        fprintf(stderr, "%s: warning: 2*Omega*dt = %.2f >= 1 (dt %g s): the explicit Coriolis term is unstable\n",
                pst_progname(), m->inertial, m->cfg.dt_s);

    pst_model_diag d;
    pst_watchdog_phase("model case %lld T%lld initial diagnostics", c->test_case, c->trunc);
    diagnose(m, 0.0, NULL, &d);
    print_diag_header();
    print_diag(0, &d);
    fflush(stdout);

    diag_ctx during = {.c = c, .steps = p->steps, .warned = &warned};
    pst_model_run_opts run = {.steps = p->steps, .warmup = p->warmup, .keep_going = c->ctx.no_verify,
                              .diag_every = c->diag_every, .on_diag = diagnose_during, .arg = &during};
    pst_watchdog_phase("model case %lld T%lldL%lld time stepping (%lld steps)", c->test_case, c->trunc, c->levels, p->steps);
    pst_model_run(m, &run, &out->run);
    if (out->run.blowup_step && !c->ctx.no_verify)
        pst_collective_exit(PST_EXIT_FAILED,
                            "numerical blow-up at step %lld (day %.3f): non-finite spectral coefficients; "
                            "try a smaller --dt (now %g s, Courant number %.2f at the initial max speed)",
                            out->run.blowup_step, (double)out->run.blowup_step * m->cfg.dt_s / PST_DAY_S, m->cfg.dt_s,
                            m->courant);
    pst_watchdog_phase("model case %lld T%lld final diagnostics", c->test_case, c->trunc);
    diagnose(m, p->t_end_s, c->reference ? &p->ref : NULL, &out->final);
    print_diag(p->steps, &out->final);
    out->diag_s = during.diag_s;
}

/* The one set: the run, then every rank's peak memory (collective). */
static void *measure(void *arg, size_t set)
{
    model_cfg *c = arg;
    model_plan *p = &c->plan;
    model_result *res = pst_calloc(1, sizeof *res);
    c->fft_locality = pst_locality_of_comms(is_parallel(c) ? p->par.row : MPI_COMM_NULL);
    c->legendre_locality = pst_locality_of_comms(is_parallel(c) ? p->par.col : MPI_COMM_NULL);
    run_steps(c, p, res);
    MPI_Comm_size(MPI_COMM_WORLD, &res->nranks);
    double *rss_per_rank = pst_malloc((size_t)res->nranks * sizeof *rss_per_rank);
    res->max_rss_bytes = pst_peak_rss_bytes(rss_per_rank);
    res->rss_bytes_per_rank = pst_malloc((size_t)res->nranks * sizeof *res->rss_bytes_per_rank);
    for (int k = 0; k < res->nranks; k++) res->rss_bytes_per_rank[k] = (long long)rss_per_rank[k];
    free(rss_per_rank);
    return res;
}

static size_t one_run(const void *c) { return 1; }

static void free_summary(const void *c, void *summary) { free(summary); }

/* Step statistics and the flop rate. */
static void *analyse(const void *arg, const void *data)
{
    const model_cfg *c = arg;
    const model_plan *p = &c->plan;
    const model_result *res = data;
    model_summary *s = pst_calloc(1, sizeof *s);
    const double *step_s = res->run.step_s;
    s->step = pst_summarize(step_s + p->warmup, (size_t)(p->steps - p->warmup));
    s->wall_s = s->stage_sum_s = 0;
    for (long long k = 0; k < p->steps; k++) s->wall_s += step_s[k];
    for (int k = 0; k < PST_NSTAGES; k++) s->stage_sum_s += res->run.stage_s[k];
    pst_flops fl = pst_flops_per_level(&p->m.dyn.cfg);
    s->flops_per_step_level = fl.total;
    s->flops_per_step = fl.total * (double)c->levels;
    s->mflops = s->flops_per_step / s->step.median / 1e6;
    for (int k = 0; k < PST_NSTAGES; k++) s->stage_flops_per_step[k] = pst_flops_of_stage(&fl, (pst_stage)k) * (double)c->levels;
    s->recurrence_flops_per_step = p->m.dyn.leg.method == PST_LEG_RECURRENCE ? pst_flops_recurrence_per_step(&p->m.dyn.cfg) : 0;
    return s;
}

static void emit_point(void *arg, const void *data, const void *summary)
{
    model_cfg *c = arg;
    const model_plan *p = &c->plan;
    const model_result *res = data;
    const model_summary *s = summary;
    pst_rec r;
    pst_rec_begin(&r, &c->ctx, &pst_schema_model_point);
    rec_identity(&r, c, &p->m, p->steps);
    pst_rec_num(&r, "wall_s", s->wall_s);
    pst_rec_num(&r, "step_s", s->step.median);
    pst_rec_times(&r, &s->step);
    pst_rec_int(&r, "warmup", p->warmup);
    for (int k = 0; k < PST_NSTAGES; k++) {
        char key[32];
        snprintf(key, sizeof key, "%s_s", pst_stage_names[k]);
        pst_rec_num(&r, key, res->run.stage_s[k]);
        snprintf(key, sizeof key, "%s_flops", pst_stage_names[k]);
        pst_rec_num(&r, key, s->stage_flops_per_step[k]);
    }
    pst_rec_num(&r, "legendre_recurrence_flops", s->recurrence_flops_per_step);
    pst_rec_num(&r, "fft_comm_s", res->run.comm_s[0]);
    pst_rec_int(&r, "threads", pst_threads());
    pst_rec_bool(&r, "comm_threads", p->m.dyn.block_threads > 1);
    pst_rec_num(&r, "thread_wait_s", res->run.thread_wait_s);
    pst_rec_num(&r, "legendre_comm_s", res->run.comm_s[1]);
    pst_rec_num(&r, "comm_s", res->run.comm_s[0] + res->run.comm_s[1]);
    pst_rec_events(&r, "events", res->run.events, res->run.nevents);
    pst_rec_num(&r, "diag_s", res->diag_s);
    pst_rec_num(&r, "setup_s", p->setup_s);
    pst_rec_num(&r, "fft_plan_s", p->m.dyn.fft_plan_s);
    pst_rec_str(&r, "fftw_wisdom", c->fftw_wisdom);
    pst_rec_bool(&r, "fftw_wisdom_loaded", c->wisdom_loaded);
    pst_rec_int(&r, "fftw_plans", c->fft.plans);
    pst_rec_int(&r, "fftw_plans_from_wisdom", c->fft.plans_from_wisdom);
    pst_rec_str(&r, "blas_choice", c->blas_auto ? "auto" : "fixed");
    pst_rec_str(&r, "blas_version", pst_blas_version(p->m.dyn.leg.blas));
    pst_rec_num(&r, "blas_openblas_s", p->m.dyn.blas_trial_s[PST_BLAS_OPENBLAS]);
    pst_rec_num(&r, "blas_blis_s", p->m.dyn.blas_trial_s[PST_BLAS_BLIS]);
    pst_rec_num(&r, "blas_blis_sup_s", p->m.dyn.blas_trial_s[PST_BLAS_BLIS_SUP]);
    pst_rec_str(&r, "legendre_kernel_choice", c->legendre_auto ? "auto" : "fixed");
    pst_rec_num(&r, "legendre_kernel_dgemm_s", p->m.dyn.legendre_trial_s[PST_LEG_DGEMM]);
    pst_rec_num(&r, "legendre_kernel_recurrence_s", p->m.dyn.legendre_trial_s[PST_LEG_RECURRENCE]);
    pst_rec_num(&r, "flops_per_step", s->flops_per_step);
    pst_rec_num(&r, "flops_per_step_level", s->flops_per_step_level);
    pst_rec_num(&r, "mflops", s->mflops);
    pst_rec_str(&r, "error_ref", res->final.has_norms && !pst_skeleton() ? (c->reference ? "reference" : "analytic") : NULL);
    rec_diag(&r, &res->final);
    pst_rec_num(&r, "courant_initial", p->m.courant);
    pst_rec_num(&r, "inertial", p->m.inertial);
    pst_rec_num(&r, "memory_estimate_bytes", p->memory_estimate_bytes);
    pst_rec_int(&r, "max_rss_bytes", (long long)res->max_rss_bytes);
    pst_rec_ints(&r, "rss_bytes_per_rank", res->rss_bytes_per_rank, (size_t)res->nranks);
    pst_rec_emit(&r, &c->ctx);
}

/* Which library ran the Legendre dgemms and, with --blas auto, what each took at set-up. */
static void print_blas(const model_cfg *c, const pst_dyn *d)
{
    printf("  Legendre dgemms %s (%s)", pst_blas_names[d->leg.blas], pst_blas_version(d->leg.blas));
    if (c->blas_auto) {
        printf("; --blas auto, best of 3 set-up passes:");
        for (int k = 0; k < PST_NBLAS; k++)
            if (!isnan(d->blas_trial_s[k])) printf(" %s %.3g ms", pst_blas_names[k], d->blas_trial_s[k] * 1e3);
        if (d->blas_skipped) printf(" (%s)", d->blas_skipped);
    }
    printf("\n  Legendre kernel %s", pst_leg_method_names[d->leg.method]);
    if (c->legendre_auto) {
        printf("; --legendre-kernel auto, best of 3 set-up passes:");
        for (int k = 0; k < PST_NLEG_METHODS; k++) printf(" %s %.3g ms", pst_leg_method_names[k], d->legendre_trial_s[k] * 1e3);
    }
    printf("\n");
}

static void print_summary(const void *arg, const void *data, const void *summary)
{
    const model_cfg *c = arg;
    const model_plan *p = &c->plan;
    const model_result *res = data;
    const model_summary *s = summary;
    const double *stage = res->run.stage_s, *comm = res->run.comm_s;
    const pst_model_diag *d = &res->final;
    printf("\n== model T%lldL%lld case %lld on %dx%d: %lld steps of %g s, statistic: median over %lld steps after %lld "
           "warm-up%s ==\n", c->trunc, c->levels, c->test_case, c->par.PX, c->par.PY, p->steps, p->m.cfg.dt_s,
           p->steps - p->warmup, p->warmup, is_parallel(c) ? " (slowest rank per step)" : "");
    printf("  time per step   %.4g ms (min %.4g, mean %.4g, max %.4g); wall %.3f s for all steps\n", s->step.median * 1e3,
           s->step.min * 1e3, s->step.mean * 1e3, s->step.max * 1e3, s->wall_s);
    printf("  per step (mean) ");
    for (int k = 0; k < PST_NSTAGES; k++)
        printf("%s %.4g ms (%.0f%%)%s", pst_stage_names[k], stage[k] * 1e3, 100 * stage[k] / s->stage_sum_s,
               k + 1 < PST_NSTAGES ? ", " : "\n");
    if (is_parallel(c))
        printf("  communication   fft %s %.4g ms, legendre %s %.4g ms per step (inside the stages above, max over ranks)\n",
               stage_alg(c, true), comm[0] * 1e3, stage_alg(c, false), comm[1] * 1e3);
    printf("  flops per step  %.0f (%.0f per level, analytic) -> %.1f MFlop/s\n", s->flops_per_step,
           s->flops_per_step_level, s->mflops);
    printf("  set-up          %.3f s, of which FFTW planning (--fftw-plan %s) %.3f s; not in the step times\n", p->setup_s,
           c->fftw_plan, p->m.dyn.fft_plan_s);
    if (c->fftw_wisdom)
        printf("  FFTW wisdom     %s: %s; %d of rank 0's %d plans from wisdom\n", c->fftw_wisdom,
               c->wisdom_loaded ? "loaded, then saved" : "none yet, saved", c->fft.plans_from_wisdom, c->fft.plans);
    print_blas(c, &p->m.dyn);
    if (d->has_norms)
        printf("  errors (%s)  h: l1 %.3e  l2 %.3e  linf %.3e | v: l1 %.3e  l2 %.3e  linf %.3e\n",
               c->reference ? "vs reference" : "vs analytic", d->norms.h_l1, d->norms.h_l2, d->norms.h_linf, d->norms.v_l1,
               d->norms.v_l2, d->norms.v_linf);
    printf("  conservation    relative change since t=0: mass %.3e, energy %.3e, potential enstrophy %.3e\n", d->mass_rel,
           d->energy_rel, d->enstrophy_rel);
    fflush(stdout);
}

/* --write-fields: collective (every rank gathers level 0), rank 0 writes. */
static void write_fields(void *arg)
{
    model_cfg *c = arg;
    model_plan *p = &c->plan;
    if (!c->write_fields) return;
    char err[512] = "";
    pst_model_level_grids(&p->m, 0);
    int rc = root ? pst_fields_write(c->write_fields, &p->m, p->t_end_s, p->steps, err, sizeof err) : 0;
    if (is_parallel(c)) {
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Bcast(err, sizeof err, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    if (rc) pst_collective_exit(PST_EXIT_FAILED, "--write-fields: %s", err);
    if (root) printf("  fields          written to %s (level 0, day %g)\n", c->write_fields, p->t_end_s / PST_DAY_S);
}

static void free_result(void *c, void *data)
{
    model_result *res = data;
    free(res->run.step_s);
    free(res->rss_bytes_per_rank);
    free(res);
}

static void release(void *arg)
{
    model_cfg *c = arg;
    pst_ref_grids_free(&c->plan.ref);
    pst_reference_free(&c->ref);
    pst_model_free(&c->plan.m);
    if (is_parallel(c)) pst_par_free(&c->plan.par);
}

/* ---- the row ---- */

/* --fft's and --legendre's help: the registry's algorithms of each stage. */
static char fft_help[256], legendre_help[256];

static void prepare(void *c)
{
    char names[160];
    snprintf(fft_help, sizeof fft_help, "FFT across PX: %s (coll: the MPI collective)",
             pst_algorithm_names(PST_ALG_STAGE_FFT, names, sizeof names));
    snprintf(legendre_help, sizeof legendre_help, "Legendre across PY: %s (coll: the MPI collective)",
             pst_algorithm_names(PST_ALG_STAGE_LEGENDRE, names, sizeof names));
}

static const char *const blas_choices[] = {"auto", "openblas", "blis", "blis-sup", NULL};
static const char *const chunk_choices[] = {"cache", "whole", NULL};
static const char *const legendre_kernel_choices[] = {"auto", "dgemm", "recurrence", NULL};
static const model_cfg default_cfg = {.test_case = 2, .trunc = 42, .levels = 1, .warmup = 2, .dt_s = NAN, .days = NAN,
                                      .alpha_spec = "0", .fftw_plan = "measure", .blas_name = "auto", .legendre_kernel = "auto", .compute = "real", .chunks = "cache",
                                      .algos.transport = "mpi"};
static model_cfg run_cfg;
static const pst_opt opts[] = {
    {"case", PST_OPT_INT, &run_cfg.test_case, "N", "Williamson test case: 1 cosine bell, 2 zonal flow, 5 mountain, 6 Rossby-Haurwitz", 1, 0, NULL, NULL},
    {"alpha", PST_OPT_STRING, &run_cfg.alpha_spec, "RAD", "rotation angle of cases 1 and 2 in radians: 0.05, pi/4, pi/2", 1, 0, NULL, NULL},
    {"trunc", PST_OPT_INT, &run_cfg.trunc, "M", "triangular truncation TM", 1, PST_SPECTRAL_GRID_MAX_TRUNC, NULL, NULL},
    {"nlat", PST_OPT_INT, &run_cfg.nlat, "N", "Gaussian latitudes; without it, the smallest even >= (3M+1)/2 (T42: 64)", 2, 1 << 16, NULL, NULL},
    {"nlon", PST_OPT_INT, &run_cfg.nlon, "N", "longitudes; without it, the smallest 2,3,5-smooth >= 3M+1 (T42: 128)", 4, 1 << 17, NULL, NULL},
    {"levels", PST_OPT_INT, &run_cfg.levels, "K", "independent vertical levels (work is linear in K)", 1, MAX_LEVELS, NULL, NULL},
    {"level-block", PST_OPT_INT, &run_cfg.level_block, "B", "levels transformed together, dividing K; without it, 4, else 2, else 1: the largest that divides K", 1, MAX_LEVELS, NULL, NULL},
    {"dt", PST_OPT_DOUBLE, &run_cfg.dt_s, "SEC", "time step in seconds; without it, from the Courant number (printed)", 1, 0, NULL, NULL},
    {"steps", PST_OPT_INT, &run_cfg.steps, "N", "time steps to run; without it, from --days", 1, MAX_STEPS, NULL, NULL},
    {"days", PST_OPT_DOUBLE, &run_cfg.days, "D", "simulated days; without it, the case's standard 12, 5, 15, 14", 1, 0, NULL, NULL},
    {"diag-every", PST_OPT_INT, &run_cfg.diag_every, "N", "print and record diagnostics every N steps; 0 = at the start and end only", 0, 1e9, NULL, NULL},
    {"warmup", PST_OPT_INT, &run_cfg.warmup, "N", "steps left out of the timing statistics", 0, 1e9, NULL, NULL},
    {"explicit", PST_OPT_FLAG, &run_cfg.explicit_scheme, NULL, "explicit leapfrog instead of semi-implicit gravity-wave terms", 1, 0, NULL, NULL},
    {"robert", PST_OPT_DOUBLE, &run_cfg.robert, "EPS", "Robert-Asselin filter coefficient; 0 = off, as in STSWM", 0, 0.5, NULL, NULL},
    {"hdiff", PST_OPT_DOUBLE, &run_cfg.hdiff, "K", "implicit del^4 diffusion coefficient in m^4/s; 0 = off", 0, 1e30, NULL, NULL},
    {"write-fields", PST_OPT_STRING, &run_cfg.write_fields, "FILE", "write the final fields (level 0) as NetCDF", 1, 0, NULL, NULL},
    {"reference", PST_OPT_STRING, &run_cfg.reference, "FILE", "error norms against this --write-fields run of the same case and end time", 1, 0, NULL, NULL},
    {"fftw-plan", PST_OPT_STRING, &run_cfg.fftw_plan, "MODE", "FFTW planner effort", 1, 0, pst_fft_efforts, NULL},
    {"fftw-wisdom", PST_OPT_STRING, &run_cfg.fftw_wisdom, "FILE", "FFTW wisdom: rank 0 loads FILE (if it exists) before planning and saves its wisdom to it after, so a later run on this machine gets the same plans without timing them", 1, 0, NULL, NULL},
    {"blas", PST_OPT_STRING, &run_cfg.blas_name, "LIB", "library of the Legendre dgemms: openblas, blis, blis-sup (BLIS's small-matrix kernels called directly), or auto (time each at set-up, keep the fastest)", 1, 0, blas_choices, NULL},
    {"legendre-kernel", PST_OPT_STRING, &run_cfg.legendre_kernel, "K", "the Legendre products' P-bar: dgemm (from tables held in memory), recurrence (generated on the fly for each block of latitudes, no tables), or auto (time both at set-up, keep the faster)", 1, 0, legendre_kernel_choices, NULL},
    {"grid", PST_OPT_STRING, &run_cfg.algos.grid, "PXxPY", "processor grid: longitudes over PX, latitude pairs over PY; without it, near-square for the ranks", 1, 0, NULL, NULL},
    {"preset", PST_OPT_STRING, &run_cfg.algos.preset, "NAME", "algorithms and protocols: gen, coll, opt (--tuned), DTH, DR", 1, 0, pst_model_presets, "gen"},
    {"tuned", PST_OPT_STRING, &run_cfg.algos.tuned, "FILE", "the opt preset's per-stage algorithm, protocol and overlap (pstlab tune writes it)", 1, 0, NULL, NULL},
    {"fft", PST_OPT_STRING, &run_cfg.algos.fft, "ALG", fft_help, 1, 0, NULL, NULL},
    {"legendre", PST_OPT_STRING, &run_cfg.algos.legendre, "ALG", legendre_help, 1, 0, NULL, NULL},
    {"protocol", PST_OPT_STRING, &run_cfg.algos.protocol, "CODE", "protocol of both stages (e.g. 3,1; see pstswm swap --help)", 1, 0, NULL, NULL},
    {"fft-protocol", PST_OPT_STRING, &run_cfg.algos.fft_protocol, "CODE", "protocol of the FFT stage", 1, 0, NULL, NULL},
    {"legendre-protocol", PST_OPT_STRING, &run_cfg.algos.leg_protocol, "CODE", "protocol of the Legendre stage", 1, 0, NULL, NULL},
    PST_TRANSPORT_OPT(&run_cfg.algos.transport, "; both stages use it"),
    {"overlap", PST_OPT_FLAG, &run_cfg.algos.overlap, NULL, "overlap communication with computation in both stages", 1, 0, NULL, NULL},
    {"chunks", PST_OPT_STRING, &run_cfg.chunks, "SIZE", "latitude pairs and levels taken through the FFT stage together: cache (sized for a core's L2 cache) or whole (all of a rank's pairs and a level block's levels: one round of the row's transposes per level block, the fewest messages)", 1, 0, chunk_choices, NULL},
    {"level-pipeline", PST_OPT_FLAG, &run_cfg.level_pipeline, NULL, "sum each level block's Legendre sums (nonblocking allreduce) while the next block is computed", 1, 0, NULL, NULL},
    PST_THREADS_OPT(&run_cfg.threads, ": every stage of the step runs on them, MPI on the master thread (funneled)"),
    {"comm-threads", PST_OPT_FLAG, &run_cfg.comm_threads, NULL, "each thread runs the transposes and sums of its own level block (needs MPI_THREAD_MULTIPLE)", 1, 0, NULL, NULL},
    PST_COMPUTE_OPT(&run_cfg.compute),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "model",
    .summary = "Spectral transform shallow water model (NCAR STSWM numerics) on Williamson's test cases:\n"
               "time per step, per-stage split, analytic MFlop/s, error norms and conservation.",
    .description =
        "Time per step is the median over the steps after --warmup (the first step is a forward half step\n"
        "plus a centred step); stage times are means per step.  MFlop/s = analytic flops per step (see\n"
        "docs/model.md; T42: 3,849,704 per level, Worley 1998: 4,129,859) / median step time.  Errors are\n"
        "Williamson's normalised l1, l2, linf of the height and the wind, against the analytic solution\n"
        "(cases 1, 2) or a --reference run.  A non-finite state ends the run with exit 3 naming the step\n"
        "(--no-verify skips that check).  OpenBLAS and BLIS are limited to 1 thread per rank.\n"
        "On P ranks the model runs on a PX x PY grid (docs/model.md#parallel-runs): the FFT stage across each\n"
        "row by --fft, the Legendre stage down each column by --legendre, each with its protocol and\n"
        "overlap.  The step time is the slowest rank's; stage and communication times are the largest\n"
        "over ranks; fft_comm_s / legendre_comm_s are the time inside the stage's parallel algorithm.",
    .examples = "  pstswm model --case 2 --trunc 42 --levels 16 --days 5 --out model.jsonl\n"
                "  pstswm model --case 2 --alpha pi/4 --trunc 85 --diag-every 120\n"
                "  pstswm model --case 6 --trunc 213 --dt 120 --days 5 --write-fields ref.nc\n"
                "  pstswm model --case 6 --trunc 42 --days 5 --reference ref.nc\n"
                "  mpiexec -n 2 pstswm model --grid 2x1 --fft dfft --legendre ringpipe --protocol 3,1 --trunc 85 --levels 16\n"
                "  mpiexec -n 8 pstswm model --grid 4x2 --preset DTH --fft logtrans --steps 20\n"
                "  mpiexec -n 4 pstswm model --grid 2x2 --preset opt --tuned opt-T42L16-2x2.toml",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("model");
static const pst_schema *const schemas[] = {&pst_schema_model_header, &pst_schema_model_point, &pst_schema_model_diag, &footer,
                                            NULL};

const pst_subcommand pst_subcommand_model = {
    .name = "model",
    .summary = "spectral transform shallow water model: time per step, MFlop/s, errors, conservation",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .prepare = prepare,
    .validate = validate_run,
    .plan = plan,
    .nsets = one_run,
    .measure = measure,
    .analyse = analyse,
    .print = print_summary,
    .emit = emit_point,
    .analysis_free = free_summary,
    .set_free = free_result,
    .finish = write_fields,
    .release = release,
};
