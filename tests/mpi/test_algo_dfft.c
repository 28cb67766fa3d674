/* dfft against serial FFTW, every protocol x overlap off/on: complex forward (cyclic
 * bit-reversed output), backward (= N x after forward), real r2c (coefficients m <= mmax) and
 * c2r, an odd number of real lines (one unpaired), a size that chunks each stage.  Tolerance:
 * max |error| <= 1e-12 max |reference| per case (round-off of a length-N FFT is ~eps log2 N).
 * On a rank count that is not a power of two, the largest power-of-two subset runs.  Its four
 * local plans go through the run's FFTW planner (counted there). */
#include "algo/dfft.h"
#include "algo_test.h"

#include <fftw3.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
static double worst;
static pst_fft_planner planner = {.effort = "estimate", .flags = FFTW_ESTIMATE};

static double value(int line, int g, int part)
{
    unsigned h = (unsigned)(line * 7919 + g * 104729 + part * 15485863);
    h ^= h >> 11;
    h *= 0x9e3779b1u;
    h ^= h >> 16;
    return (double)(h % 2000003) / 2000003.0 - 0.5;
}

static void compare(const char *what, double err, double scale, const pst_protocol *p, int ov, int n)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double rel = err / (scale > 0 ? scale : 1);
    if (rel > worst) worst = rel;
    if (!(rel <= 1e-12)) {
        failures++;
        fprintf(stderr, "rank %d: %s: protocol %s overlap %d N %d: relative error %.3g\n", rank, what, p->code, ov, n, rel);
    }
}

static void run_case(MPI_Comm comm, const pst_protocol *p, int ov, int n, int lines, int mmax)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    const int plans_before = planner.plans;
    pst_dfft *f = pst_dfft_create(p, ov, comm, n, lines, mmax, &planner);
    if (planner.plans - plans_before != 4) {
        failures++;
        fprintf(stderr, "rank %d: N %d: %d local plans through the planner, not 4\n", rank, n, planner.plans - plans_before);
    }
    int nl = pst_dfft_local_n(f), nm = pst_dfft_nm(f);
    double complex *line = fftw_malloc(n * sizeof *line), *ref = fftw_malloc(n * sizeof *ref);
    double complex *data = malloc((size_t)lines * nl * sizeof *data), *keep = malloc((size_t)lines * nl * sizeof *keep);
    fftw_plan fwd = fftw_plan_dft_1d(n, (fftw_complex *)line, (fftw_complex *)ref, FFTW_FORWARD, FFTW_ESTIMATE);

    /* Complex forward and backward. */
    double err = 0, scale = 0, err_rt = 0, scale_rt = 0;
    for (int l = 0; l < lines; l++)
        for (int j = 0; j < nl; j++) data[l * nl + j] = value(l, rank * nl + j, 0) + I * value(l, rank * nl + j, 1);
    memcpy(keep, data, (size_t)lines * nl * sizeof *data);
    pst_dfft_forward(f, data);
    for (int l = 0; l < lines; l++) {
        for (int g = 0; g < n; g++) line[g] = value(l, g, 0) + I * value(l, g, 1);
        fftw_execute(fwd);
        for (int g = 0; g < n; g++) scale = fmax(scale, cabs(ref[g]));
        for (int j = 0; j < nl; j++) err = fmax(err, cabs(data[l * nl + j] - ref[pst_dfft_freq(f, j)]));
    }
    compare("complex forward", err, scale, p, ov, n);
    pst_dfft_backward(f, data);
    for (int e = 0; e < lines * nl; e++) {
        err_rt = fmax(err_rt, cabs(data[e] / n - keep[e]));
        scale_rt = fmax(scale_rt, cabs(keep[e]));
    }
    compare("complex backward(forward(x)) / N", err_rt, scale_rt, p, ov, n);

    /* Real r2c against FFTW r2c. */
    double *rin = malloc((size_t)lines * nl * sizeof *rin), *rline = fftw_malloc(n * sizeof *rline);
    double complex *coef = malloc((size_t)lines * (nm ? nm : 1) * sizeof *coef), *half = fftw_malloc((n / 2 + 1) * sizeof *half);
    fftw_plan r2c = fftw_plan_dft_r2c_1d(n, rline, (fftw_complex *)half, FFTW_ESTIMATE);
    fftw_plan c2r = fftw_plan_dft_c2r_1d(n, (fftw_complex *)half, rline, FFTW_ESTIMATE);
    for (int l = 0; l < lines; l++)
        for (int j = 0; j < nl; j++) rin[l * nl + j] = value(l, rank * nl + j, 2);
    pst_dfft_r2c(f, rin, coef);
    err = scale = 0;
    for (int l = 0; l < lines; l++) {
        for (int g = 0; g < n; g++) rline[g] = value(l, g, 2);
        fftw_execute(r2c);
        for (int m = 0; m <= n / 2; m++) scale = fmax(scale, cabs(half[m]));
        for (int i = 0; i < nm; i++) err = fmax(err, cabs(coef[l * nm + i] - half[pst_dfft_m(f, i)]));
    }
    compare("real r2c", err, scale, p, ov, n);

    /* Real c2r against FFTW c2r of coefficients 0..mmax (imaginary part of m = 0 ignored). */
    for (int l = 0; l < lines; l++)
        for (int i = 0; i < nm; i++) {
            int m = pst_dfft_m(f, i);
            coef[l * nm + i] = value(l, m, 3) + I * value(l, m, 4);
        }
    pst_dfft_c2r(f, coef, rin);
    err = scale = 0;
    for (int l = 0; l < lines; l++) {
        for (int m = 0; m <= n / 2; m++) half[m] = m <= mmax ? value(l, m, 3) + I * (m ? value(l, m, 4) : 0) : 0;
        fftw_execute(c2r);
        for (int g = 0; g < n; g++) scale = fmax(scale, fabs(rline[g]));
        for (int j = 0; j < nl; j++) err = fmax(err, fabs(rin[l * nl + j] - rline[rank * nl + j]));
    }
    compare("real c2r", err, scale, p, ov, n);

    fftw_destroy_plan(fwd); fftw_destroy_plan(r2c); fftw_destroy_plan(c2r);
    fftw_free(line); fftw_free(ref); fftw_free(rline); fftw_free(half);
    free(data); free(keep); free(rin); free(coef);
    pst_dfft_free(f);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, d = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    parse_mode(argc, argv);
    int P = 1;
    while (2 * P <= size) { P *= 2; d++; }
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, rank < P ? 0 : MPI_UNDEFINED, rank, &comm);
    const char *why = pst_dfft_check(size, 64, 10);
    if ((why != NULL) == (P == size)) { failures++; fprintf(stderr, "pst_dfft_check wrong for %d ranks\n", size); }
    size_t nprot = pst_protocol_count("mpi");
    int runs = 0;
    if (comm != MPI_COMM_NULL) {
        for (size_t pi = 0; pi < nprot; pi++)
            for (int ov = 0; ov < 2; ov++) {
                const pst_protocol *p = pst_protocol_at("mpi", pi);
                if ((p->overlap && !ov) || !protocol_selected(p)) continue;
                run_case(comm, p, ov, 64, 5, 21);           /* T21-like: N = 64, M = 21 */
                runs++;
                if (extra_protocol(p)) { run_case(comm, p, ov, 1024, 6, 340); runs++; } /* chunked stages */
            }
        MPI_Comm_free(&comm);
    }
    int total = 0;
    double worst_all = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&worst, &worst_all, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) printf("dfft on %d of %d ranks: %d runs, worst relative error %.2e, %d failures\n", P, size, runs, worst_all, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
