/* The simd Legendre method on each instruction-set path this CPU runs (legendre_isa.h): its P̄
 * against the tables' column and its sums against the tables' dgemms at T42-T1023.  A path the
 * CPU lacks (or the build left out) is reported as skipped, by name. */
#include "check.h"
#include "model/transforms/gauss.h"
#include "model/transforms/legendre.h"

#include <cblas.h>
#include <stdlib.h>

static double urand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return ((*s >> 8) & 0xffffff) / (double)0x1000000 * 2.0 - 1.0;
}

static const int truncs[] = {42, 85, 170, 341, 682, 1023};
enum { NTRUNCS = sizeof truncs / sizeof truncs[0] };

typedef struct grid {
    int M, nlat, np;
    double *mu, *w, *cl;
    pst_spec_layout spec;
} grid;

/* T(M) on its Gaussian grid; above T170 a column's six wavenumbers (0, 1, the top two and two
 * between), which keeps the tables of the reference small. */
static grid grid_make(int M)
{
    grid g = {.M = M, .nlat = 3 * (M + 1) / 2 + 1};
    g.nlat += g.nlat % 2;
    g.np = g.nlat / 2;
    g.mu = malloc(g.nlat * sizeof *g.mu), g.w = malloc(g.nlat * sizeof *g.w), g.cl = malloc(g.nlat * sizeof *g.cl);
    pst_gauss_nodes(g.nlat, g.mu, g.cl, g.w);
    const int ms[] = {M, 0, M / 3, M - 1, 1, 2 * M / 3};
    if (M > 170) pst_spec_layout_init(&g.spec, M, ms, 6);
    else pst_spec_layout_full(&g.spec, M);
    return g;
}

static void grid_free(grid *g)
{
    pst_spec_layout_free(&g->spec);
    free(g->mu), free(g->w), free(g->cl);
}

/* P̄ of every wavenumber and pair, block by block as the products generate them, within 1e-12
 * of each column's largest |P̄| (or of 1e-100 where that is smaller: high m near a pole, where
 * the recurrence gives 0 below 2^-400). */
static double values_error(const grid *g, pst_leg_isa isa)
{
    pst_legendre L;
    pst_legendre_init_p(&L, &g->spec, g->mu, g->cl, g->np, PST_LEG_SIMD, 1);
    pst_legendre_use_isa(&L, isa);
    double *p = malloc((g->M + 2) * sizeof *p), *h = malloc((g->M + 2) * sizeof *h), worst = 0;
    for (int i = 0; i < g->spec.nm; i++) {
        const int m = g->spec.m[i];
        for (int j = 0; j < g->np; j++) {
            const int p0 = j / L.block_pairs * L.block_pairs,
                      bp = g->np - p0 < L.block_pairs ? g->np - p0 : L.block_pairs;
            const size_t ld = (size_t)(bp + 7) / 8 * 8;
            pst_leg_generate(&L, L.work, i, p0, bp);
            pst_legendre_column(g->M, m, g->mu[j], g->cl[j], p, h);
            double largest = 1e-100, err = 0;
            for (int n = m; n <= g->M; n++) largest = fmax(largest, fabs(p[n - m]));
            for (int n = m; n <= g->M; n++) {
                const int par = (n - m) & 1, k = (n - m) >> 1;
                const double got = L.work->pbar[(par ? (size_t)L.ext.nk[0][i] * ld : 0) + (size_t)k * ld + j - p0];
                err = fmax(err, fabs(got - p[n - m]) / largest);
            }
            worst = isnan(err) ? INFINITY : fmax(worst, err);
        }
    }
    pst_legendre_free(&L);
    free(p), free(h);
    return worst;
}

/* Both sums of every wavenumber and parity, ncols columns (7: a vector and a tail, on every
 * path), against the tables' dgemms: the largest difference relative to the largest sum. */
static double sums_error(const grid *g, pst_leg_isa isa, int ncols)
{
    pst_legendre T, S;
    pst_legendre_init_p(&T, &g->spec, g->mu, g->cl, g->np, PST_LEG_DGEMM, 1);
    pst_legendre_init_p(&S, &g->spec, g->mu, g->cl, g->np, PST_LEG_SIMD, 1);
    pst_legendre_use_isa(&S, isa);
    const int rows = g->M / 2 + 2;
    double *in = malloc((size_t)rows * ncols * sizeof *in), *F = malloc((size_t)g->np * ncols * sizeof *F);
    double *Xt = malloc((size_t)g->np * ncols * sizeof *Xt), *Xs = malloc((size_t)g->np * ncols * sizeof *Xs);
    double *Ot = malloc((size_t)rows * ncols * sizeof *Ot), *Os = malloc((size_t)rows * ncols * sizeof *Os);
    unsigned seed = 11;
    for (size_t k = 0; k < (size_t)rows * ncols; k++) in[k] = urand(&seed);
    for (size_t k = 0; k < (size_t)g->np * ncols; k++) F[k] = urand(&seed);
    double err = 0, scale = 0;
    for (int i = 0; i < g->spec.nm; i++)
        for (int par = 0; par < 2; par++) {
            const size_t nx = (size_t)g->np * ncols, no = (size_t)g->spec.nk[par][i] * ncols;
            pst_leg_synth(&T, NULL, PST_LEG_P, i, par, in, ncols, ncols, Xt, ncols);
            pst_leg_synth(&S, S.work, PST_LEG_P, i, par, in, ncols, ncols, Xs, ncols);
            pst_leg_analysis(&T, NULL, PST_LEG_P, i, par, F, ncols, ncols, 0.0, Ot, ncols);
            pst_leg_analysis(&S, S.work, PST_LEG_P, i, par, F, ncols, ncols, 0.0, Os, ncols);
            for (size_t k = 0; k < nx; k++) err = fmax(err, fabs(Xt[k] - Xs[k])), scale = fmax(scale, fabs(Xt[k]));
            for (size_t k = 0; k < no; k++) err = fmax(err, fabs(Ot[k] - Os[k])), scale = fmax(scale, fabs(Ot[k]));
        }
    pst_legendre_free(&T);
    pst_legendre_free(&S);
    free(in), free(F), free(Xt), free(Xs), free(Ot), free(Os);
    return scale > 1 ? err / scale : INFINITY;
}

static void test_path(pst_leg_isa isa)
{
    const char *refusal = pst_leg_isa_refusal(isa);
    if (refusal) {
        printf("simd path %s: SKIPPED, not run on this host: %s\n", pst_leg_isa_names[isa], refusal);
        return;
    }
    for (int t = 0; t < NTRUNCS; t++) {
        grid g = grid_make(truncs[t]);
        const double values = values_error(&g, isa), sums7 = sums_error(&g, isa, 7), sums16 = sums_error(&g, isa, 16);
        printf(
            "simd path %s, T%d: P-bar %.2e of the column's largest, sums %.2e (7 columns) %.2e (16) of the largest\n",
            pst_leg_isa_names[isa], g.M, values, sums7, sums16);
        CHECK(values <= 1e-12);
        CHECK(sums7 <= 1e-12 && sums16 <= 1e-12);
        grid_free(&g);
    }
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    openblas_set_num_threads(1);
    CHECK(pst_leg_isa_built(PST_LEG_ISA_BASELINE) && pst_leg_isa_cpu_has(PST_LEG_ISA_BASELINE));
    CHECK(pst_leg_isa_refusal(pst_leg_isa_best()) == NULL);
    CHECK(pst_leg_isa_parse("auto") == -1 && pst_leg_isa_parse("avx2") == PST_LEG_ISA_AVX2 &&
          pst_leg_isa_parse("sse") == -2);
    /* The methods' table: every name parses back to its row, a row generates or keeps tables. */
    for (int k = 0; k < PST_NLEG_METHODS; k++)
        CHECK((int)pst_leg_method_parse(pst_leg_method_name(k)) == k &&
              pst_leg_method_generates(k) != pst_leg_method_tables(k));
    CHECK(pst_leg_method_parse("nonsense") == PST_NLEG_METHODS && pst_leg_method_generates(PST_LEG_SIMD));
    for (int isa = 0; isa < PST_NLEG_ISAS; isa++) test_path((pst_leg_isa)isa);
    CHECK_MAIN_END();
}
