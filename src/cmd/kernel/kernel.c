/* pstswm kernel: each parallel algorithm of Worley 1998 §6 alone, on synthetic data sized like a
 * model run, for every protocol and overlap setting (Worley 1998 and 1999).
 *
 * FFT-stage algorithms (srtrans, swtrans, logtrans, alltoallv, dfft) run across the rows of
 * the grid, Legendre-stage ones (the transposes again, exchsum, halfsum, ringsum, ringpipe,
 * allreduce) down its columns; every row (column) runs at once.  Per point: min/median/mean/
 * max over repetitions of the time per call, each the max over all ranks; every result checked
 * against the MPI collective the algorithm is equivalent to.  Per algorithm: the protocol
 * sensitivity summary of Worley 1999 and Worley 1998 Table 4's cost of 0,6 and of the collective
 * instead of the best protocol.  --transport picks the protocols' transport: a one-sided one
 * sets up its area on each stage communicator when the point's plans are built (outside
 * timing) and frees it after the point. */
#include "algo/algorithm.h"
#include "cmd/common/frame.h"
#include "cmd/kernel/kernel_cases.h"
#include "cmd/kernel/kernel_impl.h"
#include "cmd/kernel/kernel_problem.h"
#include "cmd/common/records.h"
#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "model/stages/dynamics.h"
#include "model/libs/mathlibs.h"
#include "model/stages/skeleton.h"
#include "runtime/threads.h"
#include "runtime/rounds.h"
#include "runtime/context.h"
#include "runtime/run_schema.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const kernel_cfg default_cfg = {.protocols_spec = "all",
                                       .grid_spec = "1d",
                                       .transport = "mpi",
                                       .result = "replicated",
                                       .trunc = 42,
                                       .levels = 16,
                                       .fields = 3,
                                       .reps = 10,
                                       .warmup = 1,
                                       .rounds = PST_ROUNDS_DEFAULTS,
                                       .blas_name = "openblas",
                                       .fftw_plan = "measure",
                                       .compute = "real",
                                       .legendre_kernel_name = "dgemm"};

/* --list: the registry as a table, or with --json as one JSON object (rank 0). */
static void list_algorithms(bool json)
{
    if (json) {
        pst_rec r;
        pst_rec_open(&r);
        pst_algorithm_rec(&r, "algorithms");
        pst_rec_print(&r, stdout);
        return;
    }
    printf("%-14s %-9s %-13s %-30s %s\n", "algorithm", "family", "stages", "messages per rank", "how");
    for (size_t a = 0; a < pst_nalgorithms; a++) {
        const pst_algorithm *alg = &pst_algorithms[a];
        const char *stages = serves(alg, 0) && serves(alg, 1) ? "fft,legendre" : serves(alg, 0) ? "fft" : "legendre";
        const char *missing = pst_algorithm_unavailable(alg);
        printf("%-14s %-9s %-13s %-30s %s%s%s%s%s\n", alg->name, pst_alg_family_name(alg->family), stages,
               alg->messages, alg->summary, alg->needs ? "; needs " : "", alg->needs ? alg->needs : "",
               missing ? "; NOT AVAILABLE: " : "", missing ? missing : "");
    }
}

/* The run header names every algorithm, so a report can be read without the binary. */
static void header_algorithms(pst_rec *r, const pst_ctx *c, void *arg)
{
    (void)c;
    (void)arg;
    pst_algorithm_rec(r, "algorithms");
}

/* ---- validation ---- */

/* Each stage's communicator on its gx x gy grid: FFT stage the row (same y), Legendre stage the
 * column (same x). */
static void make_stage_comms(kernel_cfg *cfg, const int gx[2], const int gy[2])
{
    for (int s = 0; s < 2; s++) {
        int x = cfg->ctx.rank % gx[s], y = cfg->ctx.rank / gx[s];
        kgeom *g = &cfg->geom[s];
        *g = (kgeom){.px = gx[s], .py = gy[s], .x = x, .y = y};
        MPI_Comm_split(MPI_COMM_WORLD, s == 0 ? y : x, s == 0 ? x : y, &g->comm);
        cfg->comms[s] = s == 0 ? gy[s] : gx[s];
    }
}

/* Algorithms (names checked by the option's choices): names, coll (both comparators), all. */
static void choose_algorithms(kernel_cfg *cfg)
{
    cfg->run_alg = pst_calloc(pst_nalgorithms, sizeof *cfg->run_alg);
    for (size_t i = 0; i < cfg->algorithms.n; i++) {
        const char *name = cfg->algorithms.v[i];
        for (size_t a = 0; a < pst_nalgorithms; a++)
            cfg->run_alg[a] |= !strcmp(name, "all") || !strcmp(name, pst_algorithms[a].name) ||
                               (!strcmp(name, "coll") && pst_algorithms[a].coll_for);
    }
    if (cfg->algorithms.n == 0)
        for (size_t a = 0; a < pst_nalgorithms; a++) cfg->run_alg[a] = true;
}

/* An algorithm the grid or the MPI library cannot run: refused when asked for by name, skipped
 * (with a note) under all. */
static void skip_algorithm(kernel_cfg *cfg, size_t a, const char *why, const char *grid)
{
    const pst_algorithm *alg = &pst_algorithms[a];
    if (pst_str_list_has(&cfg->algorithms, alg->name)) {
        if (grid) pst_usage_error("--algorithms %s: %s (grid %s)", alg->name, why, grid);
        pst_usage_error("--algorithms %s: %s", alg->name, why);
    }
    cfg->run_alg[a] = false;
    if (cfg->ctx.rank == 0) printf("note: %s skipped: %s\n", alg->name, why);
}

/* --list (with --json): the registry, then exit as --help does. */
static void list_and_exit(const kernel_cfg *cfg)
{
    if (cfg->ctx.rank == 0) list_algorithms(cfg->json);
    fflush(stdout);
    pst_exit_trap_point(PST_EXIT_OK, "list"); /* like --help: the fuzzer's stop */
    pst_finalize();
    exit(PST_EXIT_OK);
}

/* The (algorithm, stage) pairs the run will measure: each is one comparison. */
static size_t comparisons(const kernel_cfg *cfg)
{
    size_t n = 0;
    for (int stage = 0; stage < 2; stage++) {
        int csize = stage == 0 ? cfg->geom[stage].px : cfg->geom[stage].py;
        if (!cfg->run_stage[stage] || csize == 1) continue;
        for (size_t a = 0; a < pst_nalgorithms; a++) n += cfg->run_alg[a] && serves(&pst_algorithms[a], stage);
    }
    return n;
}

static void validate(void *p)
{
    kernel_cfg *cfg = p;
    char err[512];
    pst_ctx *c = &cfg->ctx;
    if (cfg->json && !cfg->list) pst_usage_error("--json goes with --list");
    if (cfg->list) list_and_exit(cfg);
    cfg->threads = pst_threads_resolve((int)cfg->threads, true, false, NULL);
    pst_compute_setup(c, cfg->compute);
    pst_math_libraries_setup(c);
    pst_transport_require(cfg->transport);
    c->transport = cfg->transport;
    if (pst_protocol_parse_list(cfg->transport, cfg->protocols_spec, &cfg->protocols, &cfg->nprotocols, err,
                                sizeof err))
        pst_usage_error("--protocols: %s", err);
    choose_algorithms(cfg);
    for (int s = 0; s < 2; s++)
        cfg->run_stage[s] = cfg->stages.n == 0 || pst_str_list_has(&cfg->stages, pst_kernel_stage_names[s]);
    cfg->overlaps[0] = cfg->overlap.n == 0 || pst_str_list_has(&cfg->overlap, "off");
    cfg->overlaps[1] = cfg->overlap.n == 0 || pst_str_list_has(&cfg->overlap, "on");

    cfg->blas = pst_blas_backend_resolve(cfg->blas_name).lib;
    cfg->legendre_kernel = pst_leg_method_parse(cfg->legendre_kernel_name);
    pst_kernel_reproducible(cfg, &default_cfg);
    if (!pst_fft_planner_init(&cfg->fft, cfg->fftw_plan)) pst_usage_error("--fftw-plan: unknown '%s'", cfg->fftw_plan);
    /* The problem. */
    if (cfg->granularity) {
        /* Options hold their defaults, so one given at its default value passes unnoticed. */
        if (cfg->trunc != default_cfg.trunc || cfg->levels != default_cfg.levels)
            pst_usage_error("--granularity sets the problem size; drop --trunc/--levels");
        if (kproblem_scaled(&cfg->prob, cfg->granularity, (int)cfg->fields, err, sizeof err))
            pst_usage_error("--granularity: %s", err);
    } else {
        kproblem_model(&cfg->prob, (int)cfg->trunc, (int)cfg->levels, (int)cfg->fields);
    }
    pst_usage_check_all(pst_dyn_trunc_problem(cfg->prob.trunc, err, sizeof err));

    /* The grid. */
    cfg->one_d = !strcmp(cfg->grid_spec, "1d");
    if (!cfg->one_d) {
        if (pst_parse_grid(cfg->grid_spec, &cfg->px, &cfg->py, err, sizeof err))
            pst_usage_error("--grid: %s, or 1d", err);
        if (cfg->px * cfg->py != c->size)
            pst_usage_error("--grid %s needs %d ranks (running on %d)", cfg->grid_spec, cfg->px * cfg->py, c->size);
    }
    /* Stage grids: 1d puts every rank in one row (FFT) or one column (Legendre). */
    int gx[2] = {cfg->one_d ? c->size : cfg->px, cfg->one_d ? 1 : cfg->px};
    int gy[2] = {cfg->one_d ? 1 : cfg->py, cfg->one_d ? c->size : cfg->py};
    if (!cfg->prob.scaled)
        for (int s = 0; s < 2; s++) {
            const char *why = cfg->run_stage[s] ? kproblem_grid_check(&cfg->prob, gx[s], gy[s]) : NULL;
            if (why)
                pst_usage_error("--grid %s does not fit %s: %s", cfg->one_d ? "1d" : cfg->grid_spec, cfg->prob.label,
                                why);
        }
    for (size_t a = 0; a < pst_nalgorithms; a++) {
        const char *why = cfg->run_alg[a] ? pst_algorithm_unavailable(&pst_algorithms[a]) : NULL;
        if (why) skip_algorithm(cfg, a, why, NULL);
    }
    /* A constraint (dfft: a power-of-two row) that the FFT stage's rows do not meet. */
    for (size_t a = 0; a < pst_nalgorithms; a++) {
        const pst_algorithm *alg = &pst_algorithms[a];
        if (!cfg->run_alg[a] || !cfg->run_stage[0] || !serves(alg, 0)) continue;
        const char *why = pst_algorithm_check(alg, gx[0], kp_fft_nlon(&cfg->prob, gx[0]), kp_mmax(&cfg->prob, gx[0]));
        if (why) skip_algorithm(cfg, a, why, cfg->one_d ? "1d" : cfg->grid_spec);
    }
    make_stage_comms(cfg, gx, gy);
    pst_ctx_add_header(c, header_algorithms, NULL);
    pst_rounds_setup(&cfg->rounds, c, cfg->reps, comparisons(cfg));
}


static const char *const stages[] = {"fft", "legendre", NULL};
static const char *const onoff[] = {"off", "on", NULL};
static const char *const results[] = {"replicated", "partitioned", NULL};
static const char *const blas_choices[] = {"openblas", "blis", "blis-sup", NULL}; /* the model's, but auto */
static const char *legendre_kernel_choices[PST_NLEG_METHODS + 1]; /* the model's methods (legendre.h), but auto */

/* ---- the frame's phases: a set is one stage ---- */

/* Room for two stages of every algorithm. */
static void plan(void *p)
{
    kernel_cfg *cfg = p;
    cfg->out = pst_calloc(2 * pst_nalgorithms, sizeof *cfg->out);
}

static size_t nstages(const void *p)
{
    return sizeof((const kernel_cfg *)p)->geom / sizeof((const kernel_cfg *)p)->geom[0];
}

static void release(void *p)
{
    kernel_cfg *cfg = p;
    for (size_t i = 0; i < cfg->nout; i++) {
        free(cfg->out[i].alts);
        pst_rounds_free(&cfg->out[i].R);
    }
    free(cfg->out);
    free(cfg->run_alg);
    free(cfg->protocols);
    for (int s = 0; s < 2; s++) MPI_Comm_free(&cfg->geom[s].comm);
}

/* ---- the row ---- */

/* --algorithms' choices: the registry's names, coll, all; built once the registry is known. */
static const char **algorithm_choices;
static char algorithms_help[384];
static pst_opt opts[];

static void prepare(void *p)
{
    if (!algorithm_choices) {
        algorithm_choices = pst_calloc(pst_nalgorithms + 3, sizeof *algorithm_choices);
        for (size_t a = 0; a < pst_nalgorithms; a++) algorithm_choices[a] = pst_algorithms[a].name;
        algorithm_choices[pst_nalgorithms] = "coll";
        algorithm_choices[pst_nalgorithms + 1] = "all";
    }
    opts[0].choices = algorithm_choices;
    for (int k = 0; k < PST_NLEG_METHODS; k++) legendre_kernel_choices[k] = pst_leg_method_name(k);
    char names[256];
    snprintf(algorithms_help, sizeof algorithms_help, "%s; coll = both collectives; all = every algorithm",
             pst_algorithm_names(0, names, sizeof names));
}

static kernel_cfg run_cfg;
/* Not const: prepare sets the choices of --algorithms, the first row. */
static pst_opt opts[] = {
    {"algorithms", PST_OPT_STRINGS, &run_cfg.algorithms, "LIST", algorithms_help, 1, 0, NULL,
     "all"}, /* choices: prepare */
    {"list", PST_OPT_FLAG, &run_cfg.list, NULL, "print the algorithms (the registry) and exit", 1, 0, NULL, NULL},
    {"json", PST_OPT_FLAG, &run_cfg.json, NULL, "with --list: as JSON", 1, 0, NULL, NULL},
    {"stages", PST_OPT_STRINGS, &run_cfg.stages, "LIST", "fft (across grid rows), legendre (down columns)", 1, 0,
     stages, "fft,legendre"},
    {"trunc", PST_OPT_INT, &run_cfg.trunc, "T", "triangular truncation of the model problem", 1,
     PST_SPECTRAL_GRID_MAX_TRUNC, NULL, NULL},
    {"levels", PST_OPT_INT, &run_cfg.levels, "L", "vertical levels", 1, 1000, NULL, NULL},
    {"fields", PST_OPT_INT, &run_cfg.fields, "F", "fields transformed together per level", 1, 64, NULL, NULL},
    {"blas", PST_OPT_STRING, &run_cfg.blas_name, "LIB",
     "library of the vector sums' dgemms: openblas, blis, blis-sup, as for the model", 1, 0, blas_choices, NULL},
    {"legendre-kernel", PST_OPT_STRING, &run_cfg.legendre_kernel_name, "K",
     "the vector sums' Legendre values: dgemm (synthetic dyadic values, a dgemm per block; sums verified bitwise) or "
     "recurrence (the model's P-bar of the column's coefficients (m,n) at the row's Gaussian latitudes, generated per "
     "block as pstswm model --legendre-kernel recurrence; sums verified to 1e-12 of the largest) or simd (the same "
     "P-bar and sums by pstswm's own register-blocked kernels, no BLAS, on the best instruction-set path this CPU "
     "runs, as pstswm model --legendre-kernel simd)",
     1, 0, legendre_kernel_choices, NULL},
    {"reproducible", PST_OPT_FLAG, &run_cfg.reproducible, NULL,
     "fix every choice that can change the rounding: the FFTW plans by estimate (another --fftw-plan refused); the run "
     "header lists the choices",
     1, 0, NULL, NULL},
    {"fftw-plan", PST_OPT_STRING, &run_cfg.fftw_plan, "MODE",
     "FFTW planner effort of the distributed FFT's local transforms, as for the model", 1, 0, pst_fft_efforts, NULL},
    {"grid", PST_OPT_STRING, &run_cfg.grid_spec, "PXxPY|1d",
     "processor grid (PX*PY = ranks), or 1d: FFT stage on P x 1 and Legendre stage on 1 x P", 1, 0, NULL, NULL},
    {"granularity", PST_OPT_STRING, &run_cfg.granularity, "TnLk@AxB",
     "per-rank sizes of that configuration on the grid run (Worley 1998: T42L16@8x8)", 1, 0, NULL, NULL},
    {"protocols", PST_OPT_STRING, &run_cfg.protocols_spec, "LIST",
     "protocols by code or slug, or all|ordered|unordered|overlap|"
     "no-overlap|persistent",
     1, 0, NULL, NULL},
    {"overlap", PST_OPT_STRINGS, &run_cfg.overlap, "LIST", "off,on; 2,x/3,x always overlap", 1, 0, onoff, "off,on"},
    {"result", PST_OPT_STRING, &run_cfg.result, "KIND",
     "vector sums: replicated (MPI_Allreduce) or partitioned "
     "(MPI_Reduce_scatter)",
     1, 0, results, NULL},
    PST_ROUNDS_OPTS(&run_cfg.reps, 1e6, &run_cfg.warmup, "calls", "an alternative"),
    PST_TRANSPORT_OPT(&run_cfg.transport, "; --protocols are that transport's"),
    PST_ROUNDS_SCHEDULE_OPTS(&run_cfg.rounds),
    PST_THREADS_OPT(
        &run_cfg.threads,
        ": the stages' computation (packing, FFTs, dgemms) runs on them as in the model, MPI on the master thread"),
    PST_COMPUTE_OPT(&run_cfg.compute),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "kernel",
    .summary =
        "Each parallel algorithm (transposes, dfft, vector sums) alone on model-sized synthetic data, for every\n"
        "protocol and overlap setting, checked against the MPI collective it is equivalent to.",
    .description =
        "FFT-stage algorithms run across grid rows, Legendre-stage ones down columns, all rows/columns at once.\n"
        "A call is: transposes, forward + inverse transpose; dfft, real r2c + c2r of the row's lines; sums, the\n"
        "forward Legendre sum with a dgemm (or the Legendre recurrence) computing each block.  Times per call\n"
        "are the max over ranks of each round; the alternatives of one algorithm (and the stage's collective,\n"
        "as a comparator) run in interleaved rounds, and summaries use medians with paired comparisons.\n"
        "Results are verified against MPI_Alltoallv / MPI_Allreduce / MPI_Reduce_scatter (bitwise; the\n"
        "recurrence's sums to 1e-12 relative) or serial FFTW (1e-12 relative).",
    .examples = "  mpiexec -n 8 pstswm kernel --granularity T42L16@8x8 --out kernel.jsonl   # Worley 1998 Table 4\n"
                "  mpiexec -n 4 pstswm kernel --grid 2x2 --trunc 85 --protocols 0,6,1,3,3,1 --overlap on\n"
                "  mpiexec -n 8 pstswm kernel --algorithms ringpipe,ringsum,allreduce --result partitioned\n"
                "  mpiexec -n 4 pstswm kernel --transport rma --grid 2x2 --protocols ordered,overlap",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("kernel");
static const pst_schema *const schemas[] = {&pst_schema_kernel_header,
                                            &pst_schema_kernel_point,
                                            &pst_schema_kernel_sensitivity,
                                            &pst_schema_kernel_generic,
                                            &pst_schema_kernel_family,
                                            &footer,
                                            NULL};

const pst_subcommand pst_subcommand_kernel = {
    .name = "kernel",
    .summary = "each parallel algorithm alone, every protocol, checked against MPI collectives",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .prepare = prepare,
    .validate = validate,
    .plan = plan,
    .nsets = nstages,
    .measure = pst_kernel_measure_stage,
    .analyse = pst_kernel_judge_stage,
    .print = pst_kernel_print_stage,
    .emit = pst_kernel_emit_stage,
    .analysis_free = pst_kernel_free_judgement,
    .set_free = pst_kernel_free_stage,
    .finish = pst_kernel_summarise,
    .release = release,
};
