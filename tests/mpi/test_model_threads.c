/* Threads change no bit of the model: for a PX x PY grid, the state after STEPS steps of test
 * case CASE with 2 and 3 threads per rank is compared bit for bit with the same configuration on
 * one thread, for each configuration below (the arithmetic order is fixed by the decomposition
 * and the chunks, never by the thread count: dynamics.h).
 *
 *   test_model_threads PXxPY CASE TRUNC LEVELS STEPS [MAX_THREADS]
 *
 * MAX_THREADS (default 3): the largest thread count compared with one.
 * Configurations: the cache-sized chunks and one whole chunk per block; on a row (PX > 1) a
 * transpose and the distributed FFT; on a column (PY > 1) a gathering transpose, a vector sum
 * computing its blocks just in time (ringpipe) and the level pipeline (allreduce, split); and the
 * threads sharing out the level blocks with their messages (--comm-threads), with a transpose on
 * the row and a vector sum or a transpose on the column. */
#include "core/errors.h"
#include "model/model.h"
#include "model/parallel.h"

#include <cblas.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct config {
    const char *fft, *legendre;
    int pair_chunk;
    bool level_pipeline, comm_threads;
} config;

/* The state of every level after the run: [field η, δ, Φ'][level][ncoef][2]. */
static double *run(pst_model_config mc, long steps)
{
    pst_model m;
    pst_model_init(&m, &mc);
    pst_model_run_opts o = {.steps = steps};
    pst_model_run_result r;
    pst_model_run(&m, &o, &r);
    free(r.step_s);
    size_t n = 2 * pst_spec_count(mc.M), per_field = (size_t)mc.levels * n;
    double *state = malloc(3 * per_field * sizeof *state);
    for (int l = 0; l < mc.levels; l++)
        pst_dyn_get_level(&m.dyn, l, state + l * n, state + per_field + l * n, state + 2 * per_field + l * n);
    pst_model_free(&m);
    return state;
}

/* Each thread count against one thread; returns the failures (printed by rank 0). */
static int check(int rank, pst_model_config mc, long steps, int max_threads, const config *c)
{
    size_t bytes = 3 * (size_t)mc.levels * 2 * pst_spec_count(mc.M) * sizeof(double);
    mc.threads = 1;
    double *one = run(mc, steps);
    mc.comm_threads = c->comm_threads;
    int failures = 0;
    for (int threads = 2; threads <= max_threads; threads++) {
        mc.threads = threads;
        double *got = run(mc, steps);
        int same = memcmp(one, got, bytes) == 0;
        MPI_Allreduce(MPI_IN_PLACE, &same, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (!same) failures++;
        if (!rank)
            printf("%s fft %s legendre %s chunks %s%s%s: %d threads %s one\n", same ? "ok  " : "FAIL", c->fft, c->legendre,
                   c->pair_chunk ? "whole" : "cache", c->level_pipeline ? " level pipeline" : "",
                   c->comm_threads ? " comm-threads" : "", threads,
                   same ? "bit-identical to" : "DIFFER from");
        free(got);
    }
    free(one);
    return failures;
}

static pst_fft_planner estimate = {.effort = "estimate", .flags = FFTW_ESTIMATE};

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided < MPI_THREAD_MULTIPLE) pst_fatal(PST_EXIT_FAILED, "the MPI library grants no MPI_THREAD_MULTIPLE (--comm-threads)");
    openblas_set_num_threads(1);
    int rank, size, PX, PY;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 6 || argc > 7 || sscanf(argv[1], "%dx%d", &PX, &PY) != 2 || PX * PY != size) {
        if (!rank) fprintf(stderr, "usage: test_model_threads PXxPY CASE TRUNC LEVELS STEPS [MAX_THREADS] (P = PX*PY ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int M = atoi(argv[3]), levels = atoi(argv[4]), nlat = 2 * ((3 * M + 1 + 3) / 4), nlon = 1;
    while (nlon < 3 * M + 1) nlon *= 2;
    const pst_spectral_grid grid = {M, nlat, nlon, levels};
    pst_model_config mc = {.test_case = atoi(argv[2]), .M = M, .nlat = nlat, .nlon = nlon, .levels = levels,
                           .level_block = levels % 2 ? 1 : 2, .fft = &estimate};
    const config configs[] = {
        {"srtrans", "halfsum", 0, false, false},
        {"srtrans", "halfsum", PST_WHOLE_CHUNK, false, false},
        {"dfft", "ringpipe", 0, false, false},
        {"srtrans", "srtrans", 0, false, false},
        {"srtrans", "allreduce", 0, true, false},
        {"srtrans", "halfsum", 0, false, true},
        {"dfft", "ringpipe", 0, false, true},
        {"logtrans", "srtrans", 0, false, true},
    };
    const pst_protocol *p = pst_protocol_find("mpi", "0,6");
    int failures = 0;
    for (size_t k = 0; k < sizeof configs / sizeof configs[0]; k++) {
        const config *c = &configs[k];
        /* Serially only the chunks differ; the level pipeline needs a column. */
        if ((k > 1 && PX * PY == 1 && !c->comm_threads) || (c->level_pipeline && PY == 1)) continue;
        const pst_algorithm *fft = pst_algorithm_find(c->fft, PST_ALG_STAGE_FFT), *leg = pst_algorithm_find(c->legendre, PST_ALG_STAGE_LEGENDRE);
        if (!fft || !leg || pst_par_check(PX, PY, fft, leg, &grid)) continue; /* not on this grid (dfft: power-of-two rows) */
        pst_par_config pc = {.comm = MPI_COMM_WORLD, .PX = PX, .PY = PY, .fft = fft, .legendre = leg, .fft_protocol = p,
                             .leg_protocol = p, .leg_level_pipeline = c->level_pipeline};
        pst_par par;
        pst_par_init(&par, &pc, &grid);
        pst_model_config pmc = mc;
        pmc.par = &par;
        pmc.pair_chunk = c->pair_chunk;
        if (c->level_pipeline) pmc.level_block = 1;
        failures += check(rank, pmc, atol(argv[5]), argc > 6 ? atoi(argv[6]) : 3, c);
        pst_par_free(&par);
    }
    if (!rank) printf("%dx%d: %s\n", PX, PY, failures ? "FAILED" : "ok");
    MPI_Finalize();
    return failures ? 1 : 0;
}
