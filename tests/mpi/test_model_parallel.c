/* The parallel model reproduces the serial one: for a PX x PY grid, every FFT algorithm x every
 * Legendre algorithm x overlap off/on, with the protocols rotating through the catalogue (or a
 * subset) so that every protocol also runs, the state after STEPS steps of test case CASE is
 * compared with the serial run of the same configuration on every rank.
 *
 *   test_model_parallel PXxPY CASE TRUNC LEVELS STEPS [all|subset|once [TRANSPORT [KERNEL]]]
 *
 * subset: the representative protocols of algo_test.h; once: each protocol (of the subset, when
 * two-sided) in one run, the runs cycling through the FFT and Legendre algorithms and both overlap
 * settings, no library or level-pipeline runs (oversubscribed MPICH, where every blocking call or
 * flag poll busy-waits for a rank that is not scheduled).
 * TRANSPORT (default mpi): the protocols of that transport's catalogue (rma, shmem: all of them).
 * KERNEL (default dgemm): the Legendre products' P̄ from tables (dgemm) or the recurrence; every run
 * and the serial one use it, and a recurrence's serial run is also compared with the tables'.
 *
 * Tolerance: max |parallel - serial| / scale per field and level <= TOL (1e-12; the scale of
 * vorticity and divergence is their common maximum, of Φ' its own).  The
 * arithmetic differs from the serial run only in summation order (Legendre sums split over
 * latitudes and added by the vector sums, FFTW plans of other batch sizes, the distributed
 * FFT's butterflies), so the difference is round-off; bitwise equality is reported, not
 * required.  Configurations the grid cannot run (dfft on a non-power-of-two row, a Legendre
 * transpose with fewer wavenumbers than rows) must be refused by pst_par_check, and are.  Runs
 * alternate the spectral update partitioned over the column (where the vector sum gathers) and
 * replicated. */
#include "algo_test.h"
#include "core/errors.h"
#include "model/model.h"
#include "model/setup/parallel.h"
#include "model_test.h"

#include <cblas.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double TOL = 1e-12;

typedef struct spectra {
    double *f[3]; /* [levels][ncoef][2] each: η, δ, Φ' */
} spectra;

static void snapshot(pst_model *m, int levels, spectra *out)
{
    size_t n = 2 * pst_spec_count(m->cfg.grid.M);
    for (int f = 0; f < 3; f++) out->f[f] = malloc((size_t)levels * n * sizeof(double));
    for (int l = 0; l < levels; l++)
        pst_dyn_get_level(&m->dyn, l, out->f[0] + l * n, out->f[1] + l * n, out->f[2] + l * n);
}

static void spectra_free(spectra *s)
{
    for (int f = 0; f < 3; f++) free(s->f[f]);
}

static void run(pst_model_config mc, long steps, spectra *out)
{
    pst_model m;
    pst_model_init(&m, &mc);
    pst_model_integrate_opts o = {.steps = steps};
    pst_model_integration r;
    pst_model_integrate(&m, &o, &r); /* the driver's loop; the comparison with the serial run finds a blow-up */
    free(r.step_s);
    require_leg_method(&m);
    snapshot(&m, mc.grid.levels, out);
    pst_model_free(&m);
}

/* Largest difference over levels relative to each field's scale; *bitwise when all equal.
 * Vorticity and divergence share units and a scale (max |η|, |δ|): in the steady flow of case
 * 2 the divergence is round-off noise, which only its own maximum would magnify. */
static double compare(const spectra *a, const spectra *b, int levels, int M, bool *bitwise)
{
    size_t n = 2 * pst_spec_count(M);
    double worst = 0;
    *bitwise = true;
    for (int l = 0; l < levels; l++) {
        double scale[3] = {0}, diff[3] = {0};
        for (int f = 0; f < 3; f++) {
            const double *x = a->f[f] + l * n, *y = b->f[f] + l * n;
            for (size_t k = 0; k < n; k++) {
                scale[f] = fmax(scale[f], fabs(x[k]));
                diff[f] = fmax(diff[f], fabs(x[k] - y[k]));
                if (x[k] != y[k]) *bitwise = false;
            }
        }
        scale[0] = scale[1] = fmax(scale[0], scale[1]);
        for (int f = 0; f < 3; f++)
            if (scale[f] > 0) worst = fmax(worst, diff[f] / scale[f]);
    }
    return worst;
}

/* A Legendre transpose splits the column's wavenumbers over its rows; wavenumber m carries
 * M + 1 - m coefficients.  Dealt in serpentine order the rows' totals differ by at most one
 * wavenumber's (M + 1); contiguous blocks of m would not (T10 on 1x2: 51 vs 15). */
static bool balanced(const pst_par *par, int M)
{
    if (par->col == MPI_COMM_NULL || !pst_par_leg_is_transpose(par->cfg.legendre)) return true;
    int work[2] = {0, 0};
    for (int i = 0; i < par->nown; i++) work[0] += M + 1 - par->leg_mx[par->own_lo + i];
    work[1] = -work[0];
    MPI_Allreduce(MPI_IN_PLACE, work, 2, MPI_INT, MPI_MAX, par->col);
    return work[0] + work[1] <= M + 1; /* max - min */
}

/* What the runs found. */
typedef struct tally { int failures, refused, ran, bitwise_runs; double worst; } tally;

typedef struct grid_run {
    int rank, PX, PY;
    long steps;
    pst_model_config mc; /* its grid is the run's */
    const spectra *serial;
} grid_run;

/* A configuration of the parallel stages. */
typedef struct run_choice {
    const pst_algorithm *fft, *leg;
    const pst_protocol *p;
    bool overlap;
    int pair_chunk;
    bool level_pipeline, partitioned;
} run_choice;

/* Runs c on the grid into *got (a failure if the column's spectral work is unbalanced). */
static void run_config(const grid_run *g, const run_choice *c, spectra *got, tally *t)
{
    pst_par_config pc = {.comm = MPI_COMM_WORLD, .PX = g->PX, .PY = g->PY, .fft = c->fft, .legendre = c->leg,
                         .fft_protocol = c->p, .leg_protocol = c->p, .fft_overlap = c->overlap,
                         .leg_overlap = c->overlap, .leg_level_pipeline = c->level_pipeline,
                         .spectral_partitioned = c->partitioned};
    pst_par par;
    pst_par_init(&par, &pc, &g->mc.grid);
    if (!balanced(&par, g->mc.grid.M)) {
        t->failures++;
        if (!g->rank)
            printf("FAIL grid %dx%d legendre %s: the column's spectral work is unbalanced\n", g->PX, g->PY, c->leg->name);
    }
    pst_model_config pmc = g->mc;
    pmc.par = &par;
    pmc.pair_chunk = c->pair_chunk;
    if (c->level_pipeline) pmc.level_block = 1; /* blocks to pipeline: one level each */
    run(pmc, g->steps, got);
    pst_par_free(&par);
}

/* One configuration on the grid against the serial run. */
static void check_config(const grid_run *g, const pst_algorithm *fft, const pst_algorithm *leg, const pst_protocol *p,
                         bool overlap, int pair_chunk, bool level_pipeline, bool partitioned, tally *t)
{
    if (pst_par_check(g->PX, g->PY, fft, leg, &g->mc.grid)) {
        t->refused++;
        return;
    }
    if (getenv("PST_TEST_VERBOSE") && !g->rank) {
        printf("fft %s legendre %s protocol %s overlap %d partitioned %d\n", fft->name, leg->name, p->code, overlap,
               partitioned);
        fflush(stdout);
    }
    const run_choice c = {fft, leg, p, overlap, pair_chunk, level_pipeline, partitioned};
    spectra got;
    run_config(g, &c, &got, t);
    bool bitwise;
    double diff = compare(g->serial, &got, g->mc.grid.levels, g->mc.grid.M, &bitwise);
    spectra_free(&got);
    t->ran++;
    t->bitwise_runs += bitwise;
    t->worst = fmax(t->worst, diff);
    if (!(diff <= TOL)) {
        t->failures++;
        if (!g->rank)
            printf("FAIL grid %dx%d fft %s legendre %s protocol %s overlap %d%s%s: max relative difference %.3e > %.0e\n",
                   g->PX, g->PY, fft->name, leg->name, p->code, overlap, level_pipeline ? " level pipeline" : "",
                   partitioned ? " partitioned update" : "", diff, TOL);
    }
}

/* The MPI library's alternatives (ialltoallv, neighbor, allreduce_init, ...): collectives, but not
 * the stage's comparator. */
static bool library(const pst_algorithm *a) { return a->collective && !a->coll_for; }

/* The step's FFTs planned as the set-up's (FFTW_ESTIMATE): quick, and the same plans every run. */
static pst_fft_planner estimate = {.effort = "estimate", .flags = FFTW_ESTIMATE};

/* The generated kernels' serial run against the tables' (the same model to round-off, TOL as any grid). */
static int kernels_agree(int rank, pst_model_config mc, long steps, const spectra *serial)
{
    if (mc.legendre == PST_LEG_DGEMM) return 0;
    const pst_leg_method kernel = mc.legendre;
    mc.legendre = PST_LEG_DGEMM;
    spectra tables;
    run(mc, steps, &tables);
    bool bitwise;
    double diff = compare(&tables, serial, mc.grid.levels, mc.grid.M, &bitwise);
    spectra_free(&tables);
    if (!rank)
        printf("serial %s against dgemm: max relative difference %.3e%s: %s\n", pst_leg_method_name(kernel),
               diff, bitwise ? " (bitwise)" : "", diff <= TOL ? "ok" : "FAIL");
    return !(diff <= TOL);
}

/* The protocols a run rotates through: the selected two-sided ones (or every one-sided one of
 * TRANSPORT), or only $PST_TEST_PROTOCOL when set (debugging one protocol). */
static const pst_protocol **selected_protocols(const char *transport, bool two_sided, size_t *nprotos)
{
    const pst_protocol **protos = NULL;
    for (size_t i = 0; i < pst_protocol_count(transport); i++) {
        const pst_protocol *p = pst_protocol_at(transport, i);
        const char *only = getenv("PST_TEST_PROTOCOL");
        if ((two_sided && !protocol_selected(p)) || (only && strcmp(only, p->code))) continue;
        protos = realloc(protos, (*nprotos + 1) * sizeof *protos);
        protos[(*nprotos)++] = p;
    }
    return protos;
}

/* The hand-written algorithms and the stages' collectives, in the stages they serve. */
typedef struct {
    const pst_algorithm *ffts[32], *legs[32], *lib_ffts[32], *lib_legs[32];
    int nfft, nleg, nlib_fft, nlib_leg;
} stage_algorithms;

static void split_algorithms(stage_algorithms *sa)
{
    *sa = (stage_algorithms){0};
    for (size_t a = 0; a < pst_nalgorithms && sa->nfft < 32 && sa->nleg < 32; a++) {
        const pst_algorithm *alg = &pst_algorithms[a];
        if (pst_algorithm_unavailable(alg)) continue;
        if (alg->stages & PST_ALG_STAGE_FFT) {
            if (library(alg)) sa->lib_ffts[sa->nlib_fft++] = alg;
            else sa->ffts[sa->nfft++] = alg;
        }
        if (alg->stages & PST_ALG_STAGE_LEGENDRE) {
            if (library(alg)) sa->lib_legs[sa->nlib_leg++] = alg;
            else sa->legs[sa->nleg++] = alg;
        }
    }
}

/* Two-sided runs beyond the pairs (not once: oversubscribed MPICH grids cost 2-10 s a run). The
 * library alternatives take no protocol: each runs once, paired in turn with those of the other
 * stage.  The level pipeline: each vector sum with a nonblocking twin, one level per block, every
 * level block's sum in flight while the next is computed (on a column). */
/* The partitioned update changes no bit: each coefficient is updated by the same arithmetic on
 * one rank instead of on all of them (every vector sum that gathers, on a column). */
static void check_partitioned_bitwise(const grid_run *g, const stage_algorithms *sa, const pst_protocol *proto,
                                      tally *t)
{
    if (g->PY < 2) return;
    for (int li = 0; li < sa->nleg; li++) {
        if (!pst_vsum_gathers(sa->legs[li]) || pst_par_check(g->PX, g->PY, sa->ffts[0], sa->legs[li], &g->mc.grid))
            continue;
        spectra got[2];
        for (int k = 0; k < 2; k++)
            run_config(g, &(run_choice){sa->ffts[0], sa->legs[li], proto, false, 0, false, k == 0}, &got[k], t);
        bool bitwise;
        compare(&got[0], &got[1], g->mc.grid.levels, g->mc.grid.M, &bitwise);
        t->ran++;
        if (!bitwise) {
            t->failures++;
            if (!g->rank)
                printf("FAIL grid %dx%d legendre %s: the partitioned update differs from the replicated one\n", g->PX,
                       g->PY, sa->legs[li]->name);
        }
        for (int k = 0; k < 2; k++) spectra_free(&got[k]);
    }
}

/* Beside the pairs: the MPI library's algorithms, the level pipeline and the partitioned update. */
static void check_variants(const grid_run *g, const stage_algorithms *sa, const pst_protocol *proto, tally *t)
{
    if (sa->nlib_fft && sa->nlib_leg) {
        int nlib = sa->nlib_fft > sa->nlib_leg ? sa->nlib_fft : sa->nlib_leg;
        for (int i = 0; i < nlib; i++)
            check_config(g, sa->lib_ffts[i % sa->nlib_fft], sa->lib_legs[i % sa->nlib_leg], proto, false, i % 2, false,
                         i % 2 == 0, t);
    }
    if (g->PY > 1 && g->mc.grid.levels > 1)
        for (int li = 0; li < sa->nleg + sa->nlib_leg; li++) {
            const pst_algorithm *leg = li < sa->nleg ? sa->legs[li] : sa->lib_legs[li - sa->nleg];
            if (pst_pleg_sum_splits(leg)) check_config(g, sa->ffts[li % sa->nfft], leg, proto, false, 0, true, false, t);
        }
    check_partitioned_bitwise(g, sa, proto, t);
}

int main(int argc, char **argv)
{
    char *as_option[] = {argv[0], "--transport", argc > 7 ? argv[7] : "mpi"};
    pst_transport_before_mpi_init(3, as_option);
    MPI_Init(&argc, &argv);
    openblas_set_num_threads(1);
    int rank, size, PX, PY;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int kernel = leg_method_arg(argc > 8 ? argv[8] : "dgemm");
    if (argc < 6 || sscanf(argv[1], "%dx%d", &PX, &PY) != 2 || PX * PY != size || kernel < 0) {
        if (!rank)
            fprintf(stderr, "usage: test_model_parallel PXxPY CASE TRUNC LEVELS STEPS [all|subset|once [TRANSPORT [dgemm|recurrence]]]"
                            " (P = PX*PY ranks)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int test_case = atoi(argv[2]), M = atoi(argv[3]), levels = atoi(argv[4]);
    long steps = atol(argv[5]);
    bool once = argc > 6 && !strcmp(argv[6], "once");
    parse_mode(2, (char *[]){argv[0], once ? "subset" : argc > 6 ? argv[6] : "all"});
    int nlat = 2 * ((3 * M + 1 + 3) / 4), nlon = 1;
    while (nlon < 3 * M + 1) nlon *= 2;
    pst_model_config mc = {.test_case = test_case, .grid = {M, nlat, nlon, levels},
                           .level_block = levels % 2 ? 1 : 2, .fft = &estimate, .legendre = (pst_leg_method)kernel};
    spectra serial;
    run(mc, steps, &serial);
    int kernel_failures = kernels_agree(rank, mc, steps, &serial);

    size_t nprotos = 0;
    const char *transport = argc > 7 ? argv[7] : "mpi";
    bool two_sided = !strcmp(transport, "mpi");
    const pst_protocol **protos = selected_protocols(transport, two_sided, &nprotos);
    stage_algorithms sa;
    split_algorithms(&sa);
    const pst_algorithm **ffts = sa.ffts, **legs = sa.legs;
    const int nfft = sa.nfft, nleg = sa.nleg;
    grid_run g = {.rank = rank, .PX = PX, .PY = PY, .steps = steps, .mc = mc, .serial = &serial};
    tally t = {0};
    const int ncombos = nfft * nleg * 2;
    const long least = once ? (nfft > nleg ? nfft : nleg) : ncombos; /* every algorithm, or every pair */
    const long nruns = (long)nprotos > least ? (long)nprotos : least;
    for (long r = 0; r < nruns; r++) {
        int combo = (int)(r % ncombos);
        int fi = combo % nfft, li = combo / nfft % nleg;
        bool overlap = combo / (nfft * nleg) != 0;
        if (once) { /* both indices cycle, so every algorithm of each stage runs */
            fi = (int)(r % nfft);
            li = (int)(r % nleg);
            overlap = r / nleg % 2 != 0;
        }
        /* chunks in turn sized for the cache, of one latitude pair (a transpose round each) and
         * whole (one round per level block) */
        static const int chunkings[] = {0, 1, PST_WHOLE_CHUNK};
        /* the spectral update partitioned (a gathering vector sum's) or replicated, in turn */
        check_config(&g, ffts[fi], legs[li], protos[r % (long)nprotos], overlap, chunkings[r % 3], false, r % 2 == 0,
                     &t);
    }
    if (two_sided && !once) check_variants(&g, &sa, protos[0], &t);
    int failures = t.failures + kernel_failures, refused = t.refused, ran = t.ran, bitwise_runs = t.bitwise_runs;
    double worst = t.worst;
    if (ran == 0) {
        failures++;
        if (!rank) printf("FAIL no configuration ran on grid %dx%d\n", PX, PY);
    }
    /* A 1 x 1 grid must be the serial run bit for bit. */
    if (PX * PY == 1 && bitwise_runs != ran) {
        failures++;
        if (!rank) printf("FAIL 1x1 runs differ from the serial model (%d of %d bitwise)\n", bitwise_runs, ran);
    }
    if (!rank)
        printf("grid %dx%d case %d T%dL%d %ld steps, transport %s, Legendre kernel %s: %d runs (%zu protocols), %d refused by pst_par_check, %d bitwise, "
               "max relative difference %.3e (tolerance %.0e): %s\n",
               PX, PY, test_case, M, levels, steps, transport, pst_leg_method_name(kernel), ran, nprotos, refused, bitwise_runs, worst, TOL,
               failures ? "FAIL" : "ok");
    spectra_free(&serial);
    free(protos);
    pst_finalize(); /* shuts OpenSHMEM down first when a shmem run started it */
    return failures ? 1 : 0;
}
