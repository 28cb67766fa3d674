/* pst_fft_init_agreed: every rank ends with rank 0's plans where the problem is the same, and
 * the planner counts them (algo/fft_planner.h).
 *
 * Rank 0's planner has the effort `patient` and the others' `estimate`: planned apart, the others
 * would get the estimate plan, so equal plan texts (fftw_sprint_plan) on every rank show that rank
 * 0's wisdom reached them.  That only discriminates where the two planners choose differently, so
 * the estimate plans are made first, without wisdom, and at least one shape must differ (checked:
 * a test that cannot fail is a failure).  Also: a rank with no lines takes part without planning,
 * and a rank whose problem rank 0 did not plan makes its own plan.  Prints "fft_agreed: ok". */
#include "model/transforms/fft.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static unsigned long plan_hash(const pst_fft *f)
{
    char *texts[2] = {fftw_sprint_plan(f->forward), fftw_sprint_plan(f->inverse)};
    unsigned long h = 5381;
    for (int t = 0; t < 2; t++) {
        for (const char *c = texts[t]; *c; c++) h = h * 33 + (unsigned char)*c;
        free(texts[t]);
    }
    return h;
}

/* The plan of each shape with FFTW_ESTIMATE and no wisdom. */
static unsigned long estimate_hash(int nlon, int nlines)
{
    pst_fft f;
    pst_fft_planner estimate;
    pst_fft_planner_init(&estimate, "estimate");
    pst_fft_init(&f, &estimate, PST_FFT_TIMED, nlon, nlines);
    unsigned long h = plan_hash(&f);
    pst_fft_free(&f);
    fftw_forget_wisdom();
    return h;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int shapes[][2] = {{256, 40}, {256, 64}, {128, 24}, {96, 10}};
    const int nshapes = (int)(sizeof shapes / sizeof shapes[0]);
    int discriminating = 0;
    pst_fft_planner planner;
    pst_fft_planner_init(&planner, rank == 0 ? "patient" : "estimate");
    for (int s = 0; s < nshapes; s++) {
        const int nlon = shapes[s][0], nlines = shapes[s][1];
        unsigned long estimate = estimate_hash(nlon, nlines);
        pst_fft f;
        const pst_fft_planner before = planner;
        pst_fft_init_agreed(&f, &planner, nlon, nlines, MPI_COMM_WORLD);
        /* Two plans each; rank 0's timed (its wisdom was forgotten), the others' from its wisdom. */
        const int from_wisdom = rank == 0 || size == 1 ? 0 : 2;
        if (planner.plans - before.plans != 2 || planner.plans_from_wisdom - before.plans_from_wisdom != from_wisdom) {
            failures++;
            fprintf(stderr, "rank %d: nlon %d, %d lines: counted %d plans, %d from wisdom (expected 2, %d)\n", rank, nlon,
                    nlines, planner.plans - before.plans, planner.plans_from_wisdom - before.plans_from_wisdom, from_wisdom);
        }
        unsigned long mine = plan_hash(&f), rank0 = mine;
        MPI_Bcast(&rank0, 1, MPI_UNSIGNED_LONG, 0, MPI_COMM_WORLD);
        if (mine != rank0) {
            failures++;
            fprintf(stderr, "rank %d: nlon %d, %d lines: its plan is not rank 0's\n", rank, nlon, nlines);
        }
        if (rank == 0 && mine != estimate) discriminating++;
        pst_fft_free(&f);
        fftw_forget_wisdom();
    }
    MPI_Bcast(&discriminating, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (size > 1 && discriminating == 0) {
        failures++;
        if (rank == 0) fprintf(stderr, "FFTW_PATIENT chose the estimate plan for every shape: the test cannot tell\n");
    }

    /* Rank 1 has no lines; rank 2 (if any) a shape rank 0 did not plan. */
    pst_fft g;
    memset(&g, 0, sizeof g);
    const int lines = rank == 1 ? 0 : rank == 2 ? 44 : 40;
    pst_fft_init_agreed(&g, &planner, 256, lines, MPI_COMM_WORLD);
    if (lines > 0) {
        if (!g.forward || !g.inverse || g.nlines != lines) {
            failures++;
            fprintf(stderr, "rank %d: no plan for %d lines\n", rank, lines);
        }
        pst_fft_free(&g);
    } else if (g.forward || g.inverse) {
        failures++;
        fprintf(stderr, "rank %d: planned although it has no lines\n", rank);
    }

    /* No communicator: plans alone. */
    pst_fft h;
    pst_fft_init_agreed(&h, &planner, 64, 3, MPI_COMM_NULL);
    if (!h.forward || !h.inverse) {
        failures++;
        fprintf(stderr, "rank %d: no plan without a communicator\n", rank);
    }
    pst_fft_free(&h);

    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("fft_agreed: %d of %d shapes told the planners apart\n", discriminating, nshapes);
        printf("fft_agreed: %s\n", total ? "FAILED" : "ok");
    }
    MPI_Finalize();
    return total ? 1 : 0;
}
