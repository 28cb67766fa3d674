/* pstswm model: the spectral transform shallow water model (docs/model.md, Worley 1998 §2, §4, §7).
 *
 * Runs a Williamson et al. (1992) test case with NCAR STSWM numerics, serially or on a PX x PY
 * processor grid with the chosen parallel algorithms and protocols (model_algos.h), and reports
 * the time per step (median over the steps after warm-up of the slowest rank's step), the
 * per-stage split with each stage's time in its parallel algorithm, the analytic flop count and
 * the MFlop/s it implies, error norms (analytic solution or --reference run) and conservation
 * of mass, energy and potential enstrophy. */
#include "cmd/common/frame.h"
#include "runtime/threads.h"
#include "runtime/memory.h"
#include "cmd/model/model_algos.h"
#include "cmd/model/model_impl.h"
#include "cmd/common/records.h"
#include "core/cli.h"
#include "core/errors.h"
#include "model/setup/constants.h"
#include "model/fields_io.h"
#include "runtime/context.h"
#include "runtime/run_schema.h"
#include "runtime/timer.h"
#include "model/libs/mathlibs.h"
#include "model/model.h"
#include "model/stages/skeleton.h"
#include "model/setup/spectral_grid.h"
#include "model/setup/testcases.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_LEVELS = 4096 };

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
    if (c->ctx.out_path && (!strcmp(c->ctx.out_path, path) || (exists && stat(c->ctx.out_path, &of) == 0 &&
                                                               of.st_dev == wf.st_dev && of.st_ino == wf.st_ino)))
        return snprintf(err, len,
                        "--write-fields and --out name the same file '%s': the records would overwrite the fields",
                        path),
               err;
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
    if (!writable)
        return snprintf(err, len, "--fftw-wisdom: cannot write in the directory of '%s'", c->fftw_wisdom), err;
    return NULL;
}

/* --level-pipeline: a column to sum over and a vector sum with a nonblocking twin. */
static void resolve_level_pipeline(model_cfg *c)
{
    if (!c->level_pipeline) return;
    char why[256];
    if (c->par.PY < 2)
        pst_usage_error("--level-pipeline: the grid %dx%d has no Legendre stage across ranks (needs PY > 1)", c->par.PX,
                        c->par.PY);
    if (pst_mpi_feature_missing(PST_FEAT_NBC, why, sizeof why)) pst_usage_error("--level-pipeline: %s", why);
    if (!pst_pleg_sum_splits(c->par.legendre))
        pst_usage_error(
            "--level-pipeline: needs a nonblocking vector sum as the Legendre algorithm (--legendre allreduce or "
            "iallreduce), not %s",
            c->par.legendre->name);
    c->par.leg_level_pipeline = true;
}

/* --comm-threads: each thread takes whole level blocks with their messages, over the two-sided
 * transport (the one-sided ones set up one area per communicator, not per thread). */
static void check_comm_threads(const model_cfg *c)
{
    if (!c->comm_threads) return;
    const long long threads = pst_threads(), blocks = c->levels / c->level_block;
    if (threads < 2)
        pst_usage_error("--comm-threads shares the level blocks among the threads: give --threads 2 or more");
    if (blocks < threads)
        pst_usage_error(
            "--comm-threads with %lld threads needs %lld level blocks or more: --levels %lld in blocks of %lld "
            "makes %lld (lower --level-block)",
            threads, threads, c->levels, c->level_block, blocks);
    if (c->level_pipeline)
        pst_usage_error(
            "--comm-threads and --level-pipeline both overlap the column's sums with computation: give one of them");
    if (strcmp(c->algos.transport, "mpi"))
        pst_usage_error("--comm-threads runs on the two-sided transport mpi, not %s", c->algos.transport);
}

/* --sync-wait: a barrier before each communication; every one of them is the master's, on the
 * stage's own schedule (the level pipeline's sums and --comm-threads' blocks are not). */
static void resolve_sync_wait(model_cfg *c)
{
    if (!c->sync_wait) return;
    if (c->level_pipeline)
        pst_usage_error(
            "--sync-wait times a wait before each sum, which the level pipeline overlaps: give one of them");
    if (c->comm_threads)
        pst_usage_error("--sync-wait times the master's communication; with --comm-threads every thread communicates: "
                        "give one of them");
    c->par.sync_wait = true;
}

/* --legendre-isa: auto takes the best path the CPU runs (pst_leg_isa_best, at set-up); a forced
 * path must be built and run here. */
static void resolve_legendre_isa(model_cfg *c)
{
    const int isa = pst_leg_isa_parse(c->legendre_isa_name);
    c->legendre_isa_forced = isa >= 0;
    c->legendre_isa = isa >= 0 ? (pst_leg_isa)isa : pst_leg_isa_best();
    const char *refusal = isa >= 0 ? pst_leg_isa_refusal((pst_leg_isa)isa) : NULL;
    if (refusal)
        pst_usage_error("--legendre-isa: %s: %s (this CPU runs: %s)", c->legendre_isa_name, refusal,
                        pst_leg_isa_names[pst_leg_isa_best()]);
}

/* This subcommand's row, at the end of the file: --reproducible reads its defaults and options. */
extern const pst_subcommand pst_subcommand_model;

static void validate(model_cfg *c)
{
    char err[512];
    if (c->test_case < 1 || c->test_case > 6 || !pst_case_known((int)c->test_case))
        pst_usage_error("--case: %lld is not a supported test case (allowed: 1, 2, 5, 6)", c->test_case);
    if (parse_angle(c->alpha_spec, &c->alpha))
        pst_usage_error(
            "--alpha: '%s' is not an angle in radians within one turn (e.g. 0.05, pi/4, 2*pi/3; |alpha| <= 2*pi)",
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
        pst_usage_error(
            "--compute skeleton computes no state: --diag-every, --write-fields and --reference need --compute real");
    pst_model_cmd_reproducible(c, &pst_subcommand_model);
    if (!pst_fft_planner_init(&c->fft, c->fftw_plan)) pst_usage_error("--fftw-plan: unknown '%s'", c->fftw_plan);
    pst_blas_backend blas = pst_blas_backend_resolve(c->blas_name);
    c->blas = blas.lib;
    c->blas_auto = blas.auto_choose;
    c->legendre_auto = strcmp(c->legendre_kernel, "auto") == 0;
    c->legendre =
        c->legendre_auto ? PST_LEG_DGEMM : pst_leg_method_parse(c->legendre_kernel); /* auto: dgemm on a tie */
    resolve_legendre_isa(c);
    model_algos_resolve(&c->algos, c->ctx.size, &c->grid, &c->par);
    c->ctx.transport = c->algos.transport; /* the header and every record carry it (record.c) */
    resolve_level_pipeline(c);
    check_comm_threads(c);
    resolve_sync_wait(c);
    if (c->reference) {
        /* Every rank reads it: the path may be node-local. */
        char message[600];
        bool failed = pst_reference_read(c->reference, &c->ref, err, sizeof err);
        if (failed) snprintf(message, sizeof message, "--reference: %s", err);
        pst_usage_check_all(failed ? message : NULL);
        if (c->ref.test_case != c->test_case || c->ref.alpha != c->alpha)
            pst_usage_error("--reference: %s is a run of case %d (alpha %g), this is case %lld (alpha %g)",
                            c->reference, c->ref.test_case, c->ref.alpha, c->test_case, c->alpha);
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
        pst_usage_error("--days: %g days are %.3g time steps of %g s (allowed: up to %.0e steps)", days, exact, dt_s,
                        MAX_STEPS);
    long long n = llround(exact);
    if (n < 1 || fabs(exact - (double)n) > 1e-6 * fmax(1.0, exact))
        pst_usage_error("--days: %g days is not a whole number of %g s time steps (%.4f); use --steps or another --dt",
                        days, dt_s, exact);
    return n;
}

/* The frame's phases, each its own function: options -> validate -> plan -> measure -> analyse
 * -> print and emit -> finish (--write-fields). */

static pst_model_config model_config(model_cfg *c)
{
    return (pst_model_config){
        .test_case = (int)c->test_case,
        .alpha = c->alpha,
        .grid = c->grid,
        .level_block = (int)c->level_block,
        .dt_s = isnan(c->dt_s) ? 0 : c->dt_s,
        .explicit_scheme = c->explicit_scheme,
        .robert = c->robert,
        .hdiff = c->hdiff,
        .fft = &c->fft,
        .par = is_parallel(c) ? &c->plan.par : NULL,
        .blas = c->blas,
        .blas_auto = c->blas_auto,
        .legendre = c->legendre,
        .legendre_auto = c->legendre_auto,
        .legendre_isa_forced = c->legendre_isa_forced,
        .legendre_isa = c->legendre_isa,
        .pair_chunk = strcmp(c->chunks, "whole") ? 0 : PST_WHOLE_CHUNK,
        .threads = pst_threads(),
        .comm_threads = c->comm_threads,
    };
}

/* The options, then the processor grid and the memory the run needs: a run too large for the
 * node is bad input, refused before validation ends. */
static void validate_run(void *p)
{
    model_cfg *c = p;
    validate(c);
    pst_model_cmd_root = c->ctx.rank == 0;
    if (is_parallel(c)) {
        c->par.comm = MPI_COMM_WORLD;
        pst_par_init(&c->plan.par, &c->par, &c->grid);
    }
    pst_model_config mc = model_config(c);
    char what[96];
    snprintf(what, sizeof what, "model T%lldL%lld on %lld x %lld points", c->trunc, c->levels, c->nlat, c->nlon);
    c->plan.memory_model_bytes = pst_model_memory_bytes(&mc);
    c->plan.memory_estimate_bytes = pst_require_memory(c->plan.memory_model_bytes, what);
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
    p->memory_model_bytes += step_times_bytes;
    p->t_end_s = (double)p->steps * p->m.cfg.dt_s;
    p->ref = (pst_ref_grids){0};
    if (c->reference) {
        if (fabs(c->ref.time_s - p->t_end_s) > 1e-6 * fmax(1.0, p->t_end_s))
            pst_usage_error("--reference: %s is at day %g, this run ends at day %g", c->reference,
                            c->ref.time_s / PST_DAY_S, p->t_end_s / PST_DAY_S);
        pst_model_reference(&p->m, c->ref.M, c->ref.zeta, c->ref.div, c->ref.phi, c->ref.phibar, &p->ref);
    }
}

static size_t one_run(const void *c) { return 1; }

static void release(void *arg)
{
    model_cfg *c = arg;
    pst_ref_grids_free(&c->plan.ref);
    pst_reference_free(&c->ref);
    pst_model_free(&c->plan.m);
    if (is_parallel(c)) pst_par_free(&c->plan.par);
}

/* ---- the row ---- */

/* --fft's and --legendre's help: the registry's algorithms of each stage; --legendre-kernel's
 * names and help: the Legendre methods' table (model/transforms/legendre.h) and auto. */
static char fft_help[256], legendre_help[256], legendre_kernel_help[768];
static const char *legendre_kernel_choices[PST_NLEG_METHODS + 2] = {"auto"};

static void prepare_legendre_kernel(void)
{
    size_t at = (size_t)snprintf(legendre_kernel_help, sizeof legendre_kernel_help, "the Legendre products:");
    for (int k = 0; k < PST_NLEG_METHODS && at < sizeof legendre_kernel_help; k++) {
        legendre_kernel_choices[k + 1] = pst_leg_method_name(k);
        at += (size_t)snprintf(legendre_kernel_help + at, sizeof legendre_kernel_help - at, " %s (%s),",
                               pst_leg_method_name(k), pst_leg_method_summary(k));
    }
    if (at < sizeof legendre_kernel_help)
        snprintf(legendre_kernel_help + at, sizeof legendre_kernel_help - at,
                 " or auto (time them all at set-up, keep the fastest)");
}

static void prepare(void *c)
{
    char names[160];
    snprintf(fft_help, sizeof fft_help, "FFT across PX: %s (coll: the MPI collective)",
             pst_algorithm_names(PST_ALG_STAGE_FFT, names, sizeof names));
    snprintf(legendre_help, sizeof legendre_help, "Legendre across PY: %s (coll: the MPI collective)",
             pst_algorithm_names(PST_ALG_STAGE_LEGENDRE, names, sizeof names));
    prepare_legendre_kernel();
}

static const char *const blas_choices[] = {"auto", "openblas", "blis", "blis-sup", NULL};
static const char *const chunk_choices[] = {"cache", "whole", NULL};
static const char *const legendre_isa_choices[] = {"auto", "baseline", "avx2", "avx512", NULL};
static const model_cfg default_cfg = {.test_case = 2,
                                      .trunc = 42,
                                      .levels = 1,
                                      .warmup = 2,
                                      .dt_s = NAN,
                                      .days = NAN,
                                      .alpha_spec = "0",
                                      .fftw_plan = "measure",
                                      .blas_name = "auto",
                                      .legendre_kernel = "auto",
                                      .legendre_isa_name = "auto",
                                      .compute = "real",
                                      .chunks = "cache",
                                      .algos.transport = "mpi",
                                      .algos.spectral_update = "partitioned"};
static model_cfg run_cfg;
static const pst_opt opts[] = {
    {"case", PST_OPT_INT, &run_cfg.test_case, "N",
     "Williamson test case: 1 cosine bell, 2 zonal flow, 5 mountain, 6 Rossby-Haurwitz", 1, 0, NULL, NULL},
    {"alpha", PST_OPT_STRING, &run_cfg.alpha_spec, "RAD",
     "rotation angle of cases 1 and 2 in radians: 0.05, pi/4, pi/2", 1, 0, NULL, NULL},
    {"trunc", PST_OPT_INT, &run_cfg.trunc, "M", "triangular truncation TM", 1, PST_SPECTRAL_GRID_MAX_TRUNC, NULL, NULL},
    {"nlat", PST_OPT_INT, &run_cfg.nlat, "N", "Gaussian latitudes; without it, the smallest even >= (3M+1)/2 (T42: 64)",
     2, 1 << 16, NULL, NULL},
    {"nlon", PST_OPT_INT, &run_cfg.nlon, "N", "longitudes; without it, the smallest 2,3,5-smooth >= 3M+1 (T42: 128)", 4,
     1 << 17, NULL, NULL},
    {"levels", PST_OPT_INT, &run_cfg.levels, "K", "independent vertical levels (work is linear in K)", 1, MAX_LEVELS,
     NULL, NULL},
    {"level-block", PST_OPT_INT, &run_cfg.level_block, "B",
     "levels transformed together, dividing K; without it, 4, else 2, else 1: the largest that divides K", 1,
     MAX_LEVELS, NULL, NULL},
    {"dt", PST_OPT_DOUBLE, &run_cfg.dt_s, "SEC", "time step in seconds; without it, from the Courant number (printed)",
     1, 0, NULL, NULL},
    {"steps", PST_OPT_INT, &run_cfg.steps, "N", "time steps to run; without it, from --days", 1, MAX_STEPS, NULL, NULL},
    {"days", PST_OPT_DOUBLE, &run_cfg.days, "D", "simulated days; without it, the case's standard 12, 5, 15, 14", 1, 0,
     NULL, NULL},
    {"diag-every", PST_OPT_INT, &run_cfg.diag_every, "N",
     "print and record diagnostics every N steps; 0 = at the start and end only", 0, 1e9, NULL, NULL},
    {"warmup", PST_OPT_INT, &run_cfg.warmup, "N", "steps left out of the timing statistics", 0, 1e9, NULL, NULL},
    {"explicit", PST_OPT_FLAG, &run_cfg.explicit_scheme, NULL,
     "explicit leapfrog instead of semi-implicit gravity-wave terms", 1, 0, NULL, NULL},
    {"robert", PST_OPT_DOUBLE, &run_cfg.robert, "EPS", "Robert-Asselin filter coefficient; 0 = off, as in STSWM", 0,
     0.5, NULL, NULL},
    {"hdiff", PST_OPT_DOUBLE, &run_cfg.hdiff, "K", "implicit del^4 diffusion coefficient in m^4/s; 0 = off", 0, 1e30,
     NULL, NULL},
    {"write-fields", PST_OPT_STRING, &run_cfg.write_fields, "FILE", "write the final fields (level 0) as NetCDF", 1, 0,
     NULL, NULL},
    {"reference", PST_OPT_STRING, &run_cfg.reference, "FILE",
     "error norms against this --write-fields run of the same case and end time", 1, 0, NULL, NULL},
    {"fftw-plan", PST_OPT_STRING, &run_cfg.fftw_plan, "MODE", "FFTW planner effort", 1, 0, pst_fft_efforts, NULL},
    {"fftw-wisdom", PST_OPT_STRING, &run_cfg.fftw_wisdom, "FILE",
     "FFTW wisdom: rank 0 loads FILE (if it exists) before planning and saves its wisdom to it after, so a later run "
     "on this machine gets the same plans without timing them",
     1, 0, NULL, NULL},
    {"blas", PST_OPT_STRING, &run_cfg.blas_name, "LIB",
     "library of the Legendre dgemms: openblas, blis, blis-sup (BLIS's small-matrix kernels called directly), or auto "
     "(time each at set-up, keep the fastest)",
     1, 0, blas_choices, NULL},
    {"legendre-kernel", PST_OPT_STRING, &run_cfg.legendre_kernel, "K", legendre_kernel_help, 1, 0,
     legendre_kernel_choices, NULL},
    {"legendre-isa", PST_OPT_STRING, &run_cfg.legendre_isa_name, "ISA",
     "the simd Legendre kernels' instruction-set path: auto (the best this CPU runs), avx512, avx2 (with FMA) or "
     "baseline (x86-64 SSE2); a path the CPU lacks is refused",
     1, 0, legendre_isa_choices, NULL},
    {"grid", PST_OPT_STRING, &run_cfg.algos.grid, "PXxPY",
     "processor grid: longitudes over PX, latitude pairs over PY; without it, near-square for the ranks", 1, 0, NULL,
     NULL},
    {"preset", PST_OPT_STRING, &run_cfg.algos.preset, "NAME",
     "algorithms and protocols: gen, coll, opt (--tuned), DTH, DR", 1, 0, pst_model_presets, "gen"},
    {"tuned", PST_OPT_STRING, &run_cfg.algos.tuned, "FILE",
     "the opt preset's per-stage algorithm, protocol and overlap (pstlab tune writes it)", 1, 0, NULL, NULL},
    {"fft", PST_OPT_STRING, &run_cfg.algos.fft, "ALG", fft_help, 1, 0, NULL, NULL},
    {"legendre", PST_OPT_STRING, &run_cfg.algos.legendre, "ALG", legendre_help, 1, 0, NULL, NULL},
    {"protocol", PST_OPT_STRING, &run_cfg.algos.protocol, "CODE",
     "protocol of both stages (e.g. 3,1; see pstswm swap --help)", 1, 0, NULL, NULL},
    {"fft-protocol", PST_OPT_STRING, &run_cfg.algos.fft_protocol, "CODE", "protocol of the FFT stage", 1, 0, NULL,
     NULL},
    {"legendre-protocol", PST_OPT_STRING, &run_cfg.algos.leg_protocol, "CODE", "protocol of the Legendre stage", 1, 0,
     NULL, NULL},
    PST_TRANSPORT_OPT(&run_cfg.algos.transport, "; both stages use it"),
    {"spectral-update", PST_OPT_STRING, &run_cfg.algos.spectral_update, "HOW",
     "the spectral update over the column (PY > 1): partitioned (each rank updates the coefficients whose sums it "
     "completes, between a halfsum, ringsum, ringpipe or reduce_scatter's reduce-scatter and its gather) or "
     "replicated (every rank updates them all after the sum; the other vector sums always)",
     1, 0, pst_model_spectral_updates, NULL},
    {"overlap", PST_OPT_FLAG, &run_cfg.algos.overlap, NULL, "overlap communication with computation in both stages", 1,
     0, NULL, NULL},
    {"reproducible", PST_OPT_FLAG, &run_cfg.reproducible, NULL,
     "fix every choice that can change the rounding: FFTW plans by estimate (or from --fftw-wisdom), --blas and "
     "--legendre-kernel named (auto refused; without them, the first named choice); the run header lists the choices "
     "(docs/model.md: Reproducibility)",
     1, 0, NULL, NULL},
    {"chunks", PST_OPT_STRING, &run_cfg.chunks, "SIZE",
     "latitude pairs and levels taken through the FFT stage together: cache (sized for a core's L2 cache) or whole "
     "(all of a rank's pairs and a level block's levels: one round of the row's transposes per level block, the fewest "
     "messages)",
     1, 0, chunk_choices, NULL},
    {"level-pipeline", PST_OPT_FLAG, &run_cfg.level_pipeline, NULL,
     "sum each level block's Legendre sums (nonblocking allreduce) while the next block is computed", 1, 0, NULL, NULL},
    {"sync-wait", PST_OPT_FLAG, &run_cfg.sync_wait, NULL,
     "a timed barrier on the row (column) before each communication of the FFT (Legendre) stage, so the wait for its "
     "slowest rank (imbalance, a stalled core) is timed apart from the transfer: fft_wait_s, legendre_wait_s",
     1, 0, NULL, NULL},
    PST_THREADS_OPT(&run_cfg.threads, ": every stage of the step runs on them, MPI on the master thread (funneled)"),
    {"comm-threads", PST_OPT_FLAG, &run_cfg.comm_threads, NULL,
     "each thread runs the transposes and sums of its own level block (needs MPI_THREAD_MULTIPLE)", 1, 0, NULL, NULL},
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
    .examples =
        "  pstswm model --case 2 --trunc 42 --levels 16 --days 5 --out model.jsonl\n"
        "  pstswm model --case 2 --alpha pi/4 --trunc 85 --diag-every 120\n"
        "  pstswm model --case 6 --trunc 213 --dt 120 --days 5 --write-fields ref.nc\n"
        "  pstswm model --case 6 --trunc 42 --days 5 --reference ref.nc\n"
        "  mpiexec -n 2 pstswm model --grid 2x1 --fft dfft --legendre ringpipe --protocol 3,1 --trunc 85 --levels 16\n"
        "  mpiexec -n 8 pstswm model --grid 4x2 --preset DTH --fft logtrans --steps 20\n"
        "  mpiexec -n 4 pstswm model --grid 2x2 --preset opt --tuned opt-T42L16-2x2.toml",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("model");
static const pst_schema *const schemas[] = {&pst_schema_model_header, &pst_schema_model_point, &pst_schema_model_diag,
                                            &footer, NULL};

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
    .measure = pst_model_cmd_measure,
    .analyse = pst_model_cmd_analyse,
    .print = pst_model_cmd_print_summary,
    .emit = pst_model_cmd_emit_point,
    .analysis_free = pst_model_cmd_free_summary,
    .set_free = pst_model_cmd_free_result,
    .finish = pst_model_cmd_write_fields,
    .release = release,
};
