/* Known answers for the model's building blocks: Gaussian quadrature, orthonormal Legendre
 * functions, FFT and spherical harmonic round trips, vector transform identities. */
#include "check.h"
#include "model/setup/constants.h"
#include "model/transforms/fft.h"
#include "model/transforms/gauss.h"
#include "model/transforms/legendre.h"
#include "model/transforms/transforms.h"

#include <cblas.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static pst_fft_planner planner = {.effort = "estimate", .flags = FFTW_ESTIMATE};

static double urand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffffff) / (double)0x1000000 * 2.0 - 1.0;
}

/* Σ w μ^k = ∫ μ^k dμ for every k ≤ 2n − 1; weights sum to 2; nodes mirror exactly. */
static void test_quadrature(int n)
{
    double *mu = malloc(n * sizeof *mu), *w = malloc(n * sizeof *w), *cl = malloc(n * sizeof *cl);
    pst_gauss_nodes(n, mu, cl, w);
    double worst = 0;
    for (int k = 0; k <= 2 * n - 1; k++) {
        double s = 0;
        for (int j = 0; j < n; j++) s += w[j] * pow(mu[j], k);
        double exact = k % 2 ? 0.0 : 2.0 / (k + 1);
        worst = fmax(worst, fabs(s - exact));
    }
    CHECK(worst < 1e-14);
    if (worst >= 1e-14) fprintf(stderr, "n=%d quadrature error %.3e\n", n, worst);
    bool mirrored = true, descending = true;
    for (int j = 0; j < n; j++) {
        mirrored &=
            mu[n - 1 - j] == -mu[j] && w[n - 1 - j] == w[j] && fabs(cl[j] - sqrt(1 - mu[j] * mu[j])) < 1e-12 * cl[j];
        if (j) descending &= mu[j] < mu[j - 1];
    }
    CHECK(mirrored && descending);
    free(mu);
    free(w);
    free(cl);
}

/* Exact up to degree 2n − 1 and not beyond: 4 points miss ∫μ⁸ by 2⁹(4!)⁴/(9·(8!)²) = 0.01161. */
static void test_quadrature_degree(void)
{
    double mu[4], cl[4], w[4], s = 0;
    pst_gauss_nodes(4, mu, cl, w);
    for (int j = 0; j < 4; j++) s += w[j] * pow(mu[j], 8);
    CHECK_CLOSE(2.0 / 9 - s, 512.0 * pow(24, 4) / (9 * pow(40320, 2)), 1e-12, 0);
}

/* Σ_j w_j P̄_n^m P̄_n'^m = δ_nn' over the Gaussian grid of truncation M, and H = (1−μ²)dP̄/dμ. */
static void test_orthonormal(int M, int nlat, int mstep)
{
    double *mu = malloc(nlat * sizeof *mu), *w = malloc(nlat * sizeof *w), *cl = malloc(nlat * sizeof *cl);
    pst_gauss_nodes(nlat, mu, cl, w);
    int len = M + 1;
    double *p = malloc((size_t)nlat * len * sizeof *p), *h = malloc((size_t)nlat * len * sizeof *h);
    double worst = 0, worst_h = 0;
    for (int m = 0; m <= M; m += mstep) {
        for (int j = 0; j < nlat; j++)
            pst_legendre_column(M, m, mu[j], cl[j], p + (size_t)j * len, h + (size_t)j * len);
        for (int a = 0; a <= M - m; a++)
            for (int b = a; b <= M - m; b++) {
                double s = 0;
                for (int j = 0; j < nlat; j++) s += w[j] * p[(size_t)j * len + a] * p[(size_t)j * len + b];
                worst = fmax(worst, fabs(s - (a == b)));
            }
        /* ∫ H_n P̄_n' dμ = −∫ (1−μ²) ... check H by a centred difference at one interior node. */
        int j = nlat / 3;
        double d = 1e-6, pp[M + 1], pm[M + 1], hh[M + 1];
        pst_legendre_column(M, m, mu[j] + d, sqrt(1 - (mu[j] + d) * (mu[j] + d)), pp, hh);
        pst_legendre_column(M, m, mu[j] - d, sqrt(1 - (mu[j] - d) * (mu[j] - d)), pm, hh);
        for (int a = 0; a <= M - m; a++) {
            double fd = (1 - mu[j] * mu[j]) * (pp[a] - pm[a]) / (2 * d);
            worst_h = fmax(worst_h, fabs(fd - h[(size_t)j * len + a]) / (1 + fabs(fd)));
        }
    }
    CHECK(worst < 5e-14);
    CHECK(worst_h < 1e-6);
    if (worst >= 5e-14) fprintf(stderr, "T%d orthonormality error %.3e\n", M, worst);
    free(mu);
    free(w);
    free(cl);
    free(p);
    free(h);
}

static void test_known_values(void)
{
    double p[3], h[3], mu = 0.3, s = sqrt(1 - mu * mu);
    pst_legendre_column(2, 0, mu, s, p, h);
    CHECK_CLOSE(p[0], sqrt(0.5), 1e-15, 0);
    CHECK_CLOSE(p[1], sqrt(1.5) * mu, 1e-15, 0);
    CHECK_CLOSE(p[2], sqrt(2.5) * (3 * mu * mu - 1) / 2, 1e-15, 0);
    CHECK_CLOSE(h[1], sqrt(1.5) * (1 - mu * mu), 1e-15, 0);
    pst_legendre_column(2, 1, mu, s, p, h);
    CHECK_CLOSE(p[0], sqrt(0.75) * s, 1e-15, 0);
    /* Deep in the polar evanescent zone at high M the values underflow to 0, never NaN. */
    double big[1001], bh[1001];
    pst_legendre_column(2000, 1000, 0.99999, sqrt(1 - 0.99999 * 0.99999), big, bh);
    bool finite = true;
    for (int k = 0; k <= 1000; k++) finite &= isfinite(big[k]) && isfinite(bh[k]);
    CHECK(finite);
}

static void test_fft_round_trip(void)
{
    int nlon = 128, lines = 6;
    pst_fft f;
    pst_fft_init(&f, &planner, PST_FFT_SETUP, nlon, lines);
    double *g = pst_fft_alloc_real((size_t)nlon * lines), *g0 = malloc((size_t)nlon * lines * sizeof *g0);
    fftw_complex *c = pst_fft_alloc_complex((size_t)f.nc * lines);
    unsigned seed = 7;
    for (int k = 0; k < nlon * lines; k++) g0[k] = g[k] = urand(&seed);
    pst_fft_forward(&f, g, c);
    /* DC of line 0 is the sum. */
    double sum = 0;
    for (int i = 0; i < nlon; i++) sum += g0[i];
    CHECK_CLOSE(c[0][0], sum, 1e-12, 0);
    for (int k = 0; k < f.nc * lines; k++) c[k][0] /= nlon, c[k][1] /= nlon;
    pst_fft_inverse(&f, c, g);
    double worst = 0;
    for (int k = 0; k < nlon * lines; k++) worst = fmax(worst, fabs(g[k] - g0[k]));
    CHECK(worst < 1e-14);
    pst_fft_free(&f);
    fftw_free(g);
    fftw_free(c);
    free(g0);
}

static void random_spec(const pst_sht *t, double *s, unsigned seed)
{
    for (int i = 0; i < t->spec.nm; i++)
        for (int n = t->spec.m[i]; n <= t->grid->M; n++) {
            size_t k = pst_spec_index(&t->spec, i, n);
            s[2 * k] = urand(&seed);
            s[2 * k + 1] = t->spec.m[i] ? urand(&seed) : 0.0;
        }
}

static double max_diff(const double *a, const double *b, size_t n)
{
    double d = 0;
    for (size_t k = 0; k < n; k++) d = fmax(d, fabs(a[k] - b[k]));
    return d;
}

static void test_sht(int M, int nlat, int nlon)
{
    const pst_spectral_grid grid = {M, nlat, nlon, 1};
    pst_sht t;
    pst_sht_init(&t, &grid, &planner);
    size_t nc2 = 2 * t.spec.ncoef, npts = (size_t)nlat * nlon;
    double *s0 = calloc(nc2, sizeof *s0), *s1 = calloc(nc2, sizeof *s1), *s2 = calloc(nc2, sizeof *s2);
    double *s3 = calloc(nc2, sizeof *s3), *g = malloc(npts * sizeof *g), *U = malloc(npts * sizeof *U);
    double *V = malloc(npts * sizeof *V);

    /* spectral → grid → spectral */
    random_spec(&t, s0, 11);
    pst_sht_synthesis(&t, s0, g);
    pst_sht_analysis(&t, g, s1);
    double rt = max_diff(s0, s1, nc2);
    CHECK(rt < 1e-13);
    if (rt >= 1e-13) fprintf(stderr, "T%d round trip %.3e\n", M, rt);

    /* A single harmonic on the grid: P̄_3^2(μ) e^{2iλ} + c.c. = 2 P̄ cos 2λ (coefficient 1). */
    memset(s1, 0, nc2 * sizeof *s1);
    s1[2 * pst_spec_index(&t.spec, 2, 3)] = 1.0;
    pst_sht_synthesis(&t, s1, g);
    double p[M + 1], h[M + 1];
    pst_legendre_column(M, 2, t.mu[5], t.coslat[5], p, h);
    CHECK_CLOSE(g[5 * nlon + 3], 2 * p[1] * cos(2 * 2 * PST_PI * 3 / nlon), 1e-14, 0);

    /* (ζ, δ) → (U, V) → (ζ, δ) up to n = 0, which has no wind. */
    random_spec(&t, s0, 21);
    random_spec(&t, s1, 31);
    s0[0] = s0[1] = s1[0] = s1[1] = 0;
    for (size_t k = 0; k < nc2; k++) s0[k] *= 1e-5, s1[k] *= 1e-5;
    pst_sht_wind(&t, s0, s1, U, V);
    pst_sht_vordiv(&t, U, V, s2, s3);
    double vz = max_diff(s0, s2, nc2) / 1e-5, vd = max_diff(s1, s3, nc2) / 1e-5;
    CHECK(vz < 1e-12 && vd < 1e-12);
    if (vz >= 1e-12 || vd >= 1e-12) fprintf(stderr, "T%d vector round trip %.3e %.3e\n", M, vz, vd);

    /* Solid-body rotation U = u0 cos²θ: ζ = 2 u0 μ / a, δ = 0, i.e. ζ_1^0 = 2 u0/a √(2/3). */
    double u0 = 40.0;
    for (int j = 0; j < nlat; j++)
        for (int i = 0; i < nlon; i++) {
            U[(size_t)j * nlon + i] = u0 * (1 - t.mu[j] * t.mu[j]);
            V[(size_t)j * nlon + i] = 0;
        }
    pst_sht_vordiv(&t, U, V, s2, s3);
    double z10 = 2 * u0 / PST_EARTH_RADIUS_M * sqrt(2.0 / 3.0);
    CHECK_CLOSE(s2[2 * pst_spec_index(&t.spec, 0, 1)], z10, 1e-13 * z10, 0);
    s2[2 * pst_spec_index(&t.spec, 0, 1)] = 0;
    double rest = 0;
    for (size_t k = 0; k < nc2; k++) rest = fmax(rest, fmax(fabs(s2[k]), fabs(s3[k])));
    CHECK(rest < 5e-13 * z10);
    if (rest >= 5e-13 * z10) fprintf(stderr, "T%d solid body: other coefficients up to %.3e of %.3e\n", M, rest, z10);

    pst_sht_free(&t);
    free(s0);
    free(s1);
    free(s2);
    free(s3);
    free(g);
    free(U);
    free(V);
}

/* Every library the model's --blas can name gives a triple loop's product on the Legendre
 * transforms' kinds of shape: rows and columns that are not multiples of any kernel's tile,
 * one degree, padded leading dimensions, op(A) transposed, beta 0 over a C of NaN (not read)
 * and beta 1. */
static void test_blas_libraries(void)
{
    enum { PAD = 5, MAXM = 64, MAXN = 40, MAXK = 43 };
    const int ms[] = {1, 7, MAXM}, ns[] = {1, 13, MAXN}, ks[] = {1, 5, MAXK};
    static double A[(MAXM + PAD) * (MAXK + PAD)], Bm[(MAXK + PAD) * (MAXN + PAD)], C[(MAXM + PAD) * (MAXN + PAD)];
    for (size_t t = 0; t < sizeof A / sizeof *A; t++) A[t] = sin(0.37 * (double)t);
    for (size_t t = 0; t < sizeof Bm / sizeof *Bm; t++) Bm[t] = cos(0.11 * (double)t);
    for (int b = 0; b < PST_NBLAS; b++) {
        const char *why = pst_blas_load((pst_blas)b);
        if (why) fprintf(stderr, "--blas %s: %s\n", pst_blas_names[b], why);
        CHECK(why == NULL);
        if (why) continue;
        double worst = 0;
        for (int trans = 0; trans < 2; trans++)
            for (int beta = 0; beta < 2; beta++)
                for (int a = 0; a < 3; a++)
                    for (int c = 0; c < 3; c++)
                        for (int e = 0; e < 3; e++) {
                            int m = ms[a], n = ns[c], k = ks[e], lda = (trans ? m : k) + PAD, ldc = n + PAD;
                            for (size_t t = 0; t < sizeof C / sizeof *C; t++)
                                C[t] = beta ? 0.25 * (double)(t % 9) : NAN;
                            pst_blas_dgemm((pst_blas)b, trans, m, n, k, 1.5, A, lda, Bm, ldc, beta, C, ldc);
                            for (int i = 0; i < m; i++)
                                for (int j = 0; j < n; j++) {
                                    double want = beta ? 0.25 * (double)((i * ldc + j) % 9) : 0.0;
                                    for (int q = 0; q < k; q++)
                                        want += 1.5 * (trans ? A[q * lda + i] : A[i * lda + q]) * Bm[q * ldc + j];
                                    double err = fabs(C[i * ldc + j] - want);
                                    worst = isnan(err) || err > worst ? (isnan(err) ? INFINITY : err) : worst;
                                }
                        }
        if (worst > 1e-13) fprintf(stderr, "--blas %s: largest error %.3e\n", pst_blas_names[b], worst);
        CHECK(worst <= 1e-13);
    }
}

/* The H sums through P̄ (pst_legendre_init_p: H_n = a_n P̄_{n−1} − b_n P̄_{n+1} in spectral space)
 * against the tabulated H, both directions (the analysis one degree row at a time), on every
 * wavenumber of T(M) and on a column's unordered subset of them: the same sums to round-off,
 * with P̄ from the tables and from the recurrence (one block of pairs, or several above T170). */
static void test_h_through_p(int M, int nlat, const int *ms, int nm, pst_leg_method method)
{
    double *mu = malloc(nlat * sizeof *mu), *w = malloc(nlat * sizeof *w), *cl = malloc(nlat * sizeof *cl);
    pst_gauss_nodes(nlat, mu, cl, w);
    pst_spec_layout spec;
    if (ms) pst_spec_layout_init(&spec, M, ms, nm);
    else pst_spec_layout_full(&spec, M);
    const int np = nlat / 2, ncols = 6;
    pst_legendre full, ponly, generated; /* generated: P̄ and H both by the recurrence (the serial transform's) */
    pst_legendre_init(&full, &spec, mu, cl, np, PST_LEG_DGEMM);
    pst_legendre_init(&generated, &spec, mu, cl, np, PST_LEG_RECURRENCE);
    CHECK(!generated.table[PST_LEG_P] && !generated.table[PST_LEG_H]);
    double gen_err = 0;
    pst_legendre_init_p(&ponly, &spec, mu, cl, np, method, 1);
    CHECK(full.table[PST_LEG_H] && !ponly.table[PST_LEG_H]);
    CHECK((method != PST_LEG_DGEMM) == !ponly.table[PST_LEG_P]);
    pst_leg_work *work = ponly.work;
    double *S = malloc(spec.ncoef * ncols * sizeof *S), *F = malloc((size_t)np * ncols * sizeof *F);
    double *Xt = malloc((size_t)np * ncols * sizeof *Xt), *Xp = malloc((size_t)np * ncols * sizeof *Xp);
    double *Ot = calloc(spec.ncoef * ncols, sizeof *Ot), *Op = calloc(spec.ncoef * ncols, sizeof *Op);
    double *scratch = malloc((size_t)(M / 2 + 2) * ncols * sizeof *scratch);
    unsigned seed = 7;
    for (size_t k = 0; k < spec.ncoef * ncols; k++) S[k] = urand(&seed);
    for (size_t k = 0; k < (size_t)np * ncols; k++) F[k] = urand(&seed);
    double synth_err = 0, synth_scale = 0, anal_err = 0, anal_scale = 0;
    for (int i = 0; i < spec.nm; i++)
        for (int par = 0; par < 2; par++) {
            /* Synthesis: the H sums of parity par's coefficients (the last 4 of their 6 columns, as the
             * model takes ψ', χ' from its state), through P̄ of parity 1 − par. */
            const double *Sb = S + ncols * pst_spec_block(&spec, i, par);
            pst_leg_synth(&full, NULL, PST_LEG_H, i, par, Sb + 2, ncols, 4, Xt, 4);
            pst_leg_synth(&generated, generated.work, PST_LEG_H, i, par, Sb + 2, ncols, 4, Xp, 4);
            for (size_t k = 0; k < (size_t)np * 4; k++) gen_err = fmax(gen_err, fabs(Xt[k] - Xp[k]));
            pst_leg_synth_h(&ponly, work, i, 1 - par, Sb, ncols, 2, 4, scratch, Xp, 4);
            for (size_t k = 0; k < (size_t)np * 4; k++) {
                synth_err = fmax(synth_err, fabs(Xt[k] - Xp[k]));
                synth_scale = fmax(synth_scale, fabs(Xt[k]));
            }
            /* Analysis onto parity par: starting from the same P̄ sums, plus the H sums. */
            double *ot = Ot + ncols * pst_spec_block(&spec, i, par), *op = Op + ncols * pst_spec_block(&spec, i, par);
            pst_leg_analysis(&full, NULL, PST_LEG_P, i, par, F, ncols, ncols, 0.0, ot, ncols);
            pst_leg_analysis(&full, NULL, PST_LEG_H, i, par, F, ncols, ncols, 1.0, ot, ncols);
            /* The P̄-only form one degree row at a time, as the blocks of ringpipe's sum may cut it. */
            for (int k = 0; k < spec.nk[par][i]; k++) {
                double *row = op + (size_t)k * ncols;
                pst_leg_analysis_rows(&ponly, work, PST_LEG_P, i, par, k, k + 1, F, ncols, ncols, 0.0, row, ncols);
                pst_leg_analysis_h(&ponly, work, i, 1 - par, k, k + 1, F, ncols, ncols, scratch, row, ncols);
            }
        }
    for (size_t k = 0; k < spec.ncoef * ncols; k++) {
        anal_err = fmax(anal_err, fabs(Ot[k] - Op[k]));
        anal_scale = fmax(anal_scale, fabs(Ot[k]));
    }
    CHECK(synth_scale > 1 && synth_err < 1e-13 * synth_scale && gen_err < 1e-13 * synth_scale);
    CHECK(anal_scale > 1 && anal_err < 1e-13 * anal_scale);
    printf("H sums through P-bar (%s), T%d%s: synthesis %.2e, analysis %.2e; H generated %.2e (relative to the largest "
           "sum)\n",
           pst_leg_method_name(method), M, ms ? " (a column's wavenumbers)" : "", synth_err / synth_scale,
           anal_err / anal_scale, gen_err / synth_scale);
    pst_legendre_free(&full);
    pst_legendre_free(&ponly);
    pst_legendre_free(&generated);
    pst_spec_layout_free(&spec);
    free(mu), free(w), free(cl), free(S), free(F), free(Xt), free(Xp), free(Ot), free(Op), free(scratch);
}

/* The recurrence's P̄ (pst_leg_generate) against the tables' column (pst_legendre_column) at
 * T42-T1023, every wavenumber (a sample of them above T341) and pair: within 1e-13 of each
 * column's largest |P̄|, or of 1e-100 where even that is smaller (high m near a pole, where the
 * recurrence gives 0 below 2^-400 and the column's values are as negligible beside the O(1)
 * P̄ of the other wavenumbers). */
static void test_recurrence_values(void)
{
    const int truncs[] = {42, 85, 170, 341, 682, 1023};
    for (size_t t = 0; t < sizeof truncs / sizeof truncs[0]; t++) {
        const int M = truncs[t], nlat = 3 * (M + 1) / 2 + 1, np = nlat / 2, stride = M > 341 ? 37 : 1;
        double *mu = malloc(nlat * sizeof *mu), *w = malloc(nlat * sizeof *w), *cl = malloc(nlat * sizeof *cl);
        double *p = malloc((M + 2) * sizeof *p), *h = malloc((M + 2) * sizeof *h);
        pst_gauss_nodes(nlat, mu, cl, w);
        pst_spec_layout spec;
        pst_spec_layout_full(&spec, M);
        pst_legendre L;
        pst_legendre_init_p(&L, &spec, mu, cl, np, PST_LEG_RECURRENCE, 1);
        double worst = 0;
        for (int i = 0; i <= M; i += (i == M - 1 ? 1 : stride)) {
            const int m = spec.m[i];
            for (int j = 0; j < np; j++) {
                const int p0 = j / L.block_pairs * L.block_pairs,
                          bp = np - p0 < L.block_pairs ? np - p0 : L.block_pairs;
                pst_leg_generate(&L, L.work, i, p0, bp); /* the block of pair j (kept while j is in it) */
                pst_legendre_column(M, m, mu[j], cl[j], p, h);
                double largest = 0, err = 0;
                for (int n = m; n <= M; n++) largest = fmax(largest, fabs(p[n - m]));
                largest = fmax(largest, 1e-100);
                for (int n = m; n <= M; n++) {
                    const int par = (n - m) & 1, k = (n - m) >> 1;
                    const size_t ld = (size_t)(bp + 7) / 8 * 8; /* rows padded to groups of 8 pairs */
                    const double got = L.work->pbar[(par ? (size_t)L.ext.nk[0][i] * ld : 0) + (size_t)k * ld + j - p0];
                    err = fmax(err, fabs(got - p[n - m]) / largest);
                }
                worst = isnan(err) ? INFINITY : fmax(worst, err);
            }
        }
        printf("recurrence P-bar vs tables, T%d: largest difference %.2e of the column's largest |P-bar|\n", M, worst);
        CHECK(worst <= 1e-13);
        pst_legendre_free(&L);
        pst_spec_layout_free(&spec);
        free(mu), free(w), free(cl), free(p), free(h);
    }
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    openblas_set_num_threads(1);
    test_quadrature(64);
    test_quadrature(128);
    test_quadrature_degree();
    test_orthonormal(42, 64, 1);
    test_orthonormal(85, 128, 1);
    test_orthonormal(340, 512, 37);
    test_known_values();
    test_fft_round_trip();
    test_sht(42, 64, 128);
    test_sht(85, 128, 256);
    test_sht(21, 32, 64);
    test_blas_libraries();
    const int column[] = {21, 0, 7, 20, 1, 13}, wide_column[] = {341, 0, 97, 340, 1, 250};
    for (int k = 0; k < PST_NLEG_METHODS; k++) {
        test_h_through_p(21, 32, NULL, 0, (pst_leg_method)k);
        test_h_through_p(85, 128, NULL, 0, (pst_leg_method)k);
        test_h_through_p(21, 32, column, 6, (pst_leg_method)k);
        test_h_through_p(341, 512, wide_column, 6, (pst_leg_method)k); /* the recurrence in blocks of pairs */
    }
    test_recurrence_values();
    CHECK_MAIN_END();
}
