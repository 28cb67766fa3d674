/* Piecewise latency/bandwidth fits (stats/segfit.c) against known answers. */
#include "check.h"
#include "stats/segfit.h"

#include <math.h>
#include <stdlib.h>

enum { N = 21 };
static double X[2 * N], y[N];
static long long bytes[N];

/* Sizes 1 B ... 1 MiB by doubling; T = a + N·b below and at `knee`, c + N·d above it. */
static void make(double a, double b, double c, double d, long long knee, double noise, unsigned seed)
{
    srand(seed);
    for (int i = 0; i < N; i++) {
        bytes[i] = 1LL << i;
        X[2 * i] = 1;
        X[2 * i + 1] = (double)bytes[i];
        double t = bytes[i] <= knee ? a + b * (double)bytes[i] : c + d * (double)bytes[i];
        y[i] = t * (1 + noise * (2.0 * rand() / RAND_MAX - 1));
    }
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    /* Eager below 64 KiB, rendezvous above: the break and both lines exactly. */
    make(1e-6, 1 / 5e9, 10e-6, 1 / 10e9, 65536, 0, 1);
    pst_segfit f = pst_segfit_run(N, X, y, bytes, 0.95);
    CHECK(f.nseg == 2 && f.ok);
    CHECK(bytes[f.seg[1].from] == 131072);
    CHECK_CLOSE(f.seg[0].fit.coef[0], 1e-6, 0, 1e-9);
    CHECK_CLOSE(f.seg[1].fit.coef[1], 1 / 10e9, 0, 1e-9);
    CHECK(f.max_rel_err < 1e-9);

    /* One regime: no breakpoint. */
    make(2e-6, 1 / 8e9, 2e-6, 1 / 8e9, 0, 0, 1);
    f = pst_segfit_run(N, X, y, bytes, 0.95);
    CHECK(f.nseg == 1 && f.ok);

    /* With 1 % noise the break is still found and the intervals hold the truth. */
    make(1e-6, 1 / 5e9, 10e-6, 1 / 10e9, 65536, 0.01, 7);
    f = pst_segfit_run(N, X, y, bytes, 0.95);
    CHECK(f.nseg >= 2 && f.ok && f.max_rel_err < 0.05);
    CHECK(f.seg[f.nseg - 1].ci[1][0] <= 1 / 10e9 && 1 / 10e9 <= f.seg[f.nseg - 1].ci[1][1]);

    /* A negative latency is not a valid model. */
    for (int i = 0; i < N; i++) {
        bytes[i] = 4096LL << i / 2;
        X[2 * i] = 1;
        X[2 * i + 1] = (double)bytes[i];
        y[i] = -1e-6 + (double)bytes[i] / 1e9;
    }
    f = pst_segfit_run(N, X, y, bytes, 0.95);
    CHECK(f.nseg >= 1 && !f.ok);

    /* Scatter no line follows: the error flags it. */
    make(1e-6, 1 / 5e9, 1e-6, 1 / 5e9, 0, 0, 1);
    for (int i = 0; i < N; i++) y[i] *= i % 2 ? 1.6 : 0.6;
    f = pst_segfit_run(N, X, y, bytes, 0.95);
    CHECK(f.max_rel_err > PST_SEGFIT_MAX_ERR && !f.ok);

    /* Two points: one line, no interval of error. */
    make(1e-6, 1 / 5e9, 1e-6, 1 / 5e9, 0, 0, 1);
    f = pst_segfit_run(2, X, y, bytes, 0.95);
    CHECK(f.nseg == 1 && f.ok);
    CHECK_MAIN_END();
}
