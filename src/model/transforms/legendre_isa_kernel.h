/* The template of one instruction-set path of the register-blocked Legendre method
 * (legendre_isa.h).  The including file defines PST_LEG_PATH (its name), PST_LEG_VBYTES (its
 * vector width in bytes), PST_LEG_TILE_R and PST_LEG_TILE_CV (rows and vectors of columns of a
 * register tile: 4 x 3 with 16 vector registers, 6 x 4 with 32: the tile, the column vectors and
 * one broadcast P̄ fill them) and is compiled with that set's flags.
 *
 * Both sums are register tiles of TILE_R rows × TILE_CV vectors of columns: synthesis rows are
 * latitude pairs, analysis rows degrees; each P̄ value is broadcast once per tile and meets
 * TILE_CV vectors of columns (levels × fields × re/im), the tile's sums stay in registers over
 * the whole inner dimension and are stored once.  No packing: P̄ comes degree-major from the
 * block the recurrence just generated (in cache), the columns straight from the caller's rows. */
#include "model/transforms/legendre_generate.h"
#include "model/transforms/legendre_isa_paths.h"

#include <immintrin.h>
#include <string.h>

#define PST_LEG_CAT2(a, b) a##_##b
#define PST_LEG_CAT(a, b) PST_LEG_CAT2(a, b)
#define PST_LEG_FN(name) PST_LEG_CAT(name, PST_LEG_PATH)

enum { VL = PST_LEG_VBYTES / 8, TILE_R = PST_LEG_TILE_R, TILE_CV = PST_LEG_TILE_CV };
typedef double vd __attribute__((vector_size(PST_LEG_VBYTES)));

static inline vd vload(const double *p)
{
    vd v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void vstore(double *p, vd v) { memcpy(p, &v, sizeof v); }

/* acc + a b, fused where the path has FMA (the sums' only contraction). */
static inline vd vfma(vd a, vd b, vd acc)
{
#if defined(__AVX512F__) && PST_LEG_VBYTES == 64
    return _mm512_fmadd_pd(a, b, acc);
#elif defined(__FMA__) && PST_LEG_VBYTES == 32
    return _mm256_fmadd_pd(a, b, acc);
#else
    return acc + a * b;
#endif
}
static inline double sfma(double a, double b, double acc)
{
#ifdef __FMA__
    return __builtin_fma(a, b, acc);
#else
    return acc + a * b;
#endif
}

/* One tile of each sum for vectors (T vd, W VL) and for single columns (T double, W 1, the
 * columns past the last whole vector).  R and CV are constants at every call (always_inline in
 * a switch), so acc is registers. */
#define PST_LEG_TILES(tag, T, W, LOAD, STORE, FMA)                                                                     \
    static inline __attribute__((always_inline)) void synth_tile_##tag(                                                \
        int R, int CV, int nk, const double *P, size_t ldp, const double *S, int lds, double *X, int ldx)              \
    {                                                                                                                  \
        T acc[TILE_R][TILE_CV];                                                                                        \
        for (int r = 0; r < R; r++)                                                                                    \
            for (int c = 0; c < CV; c++) acc[r][c] = (T){0};                                                           \
        for (int k = 0; k < nk; k++) {                                                                                 \
            const double *p = P + (size_t)k * ldp, *s = S + (size_t)k * lds;                                           \
            T sv[TILE_CV];                                                                                             \
            for (int c = 0; c < CV; c++) sv[c] = LOAD(s + c * W);                                                      \
            for (int r = 0; r < R; r++) {                                                                              \
                const T pr = (T){0} + p[r];                                                                            \
                for (int c = 0; c < CV; c++) acc[r][c] = FMA(pr, sv[c], acc[r][c]);                                    \
            }                                                                                                          \
        }                                                                                                              \
        for (int r = 0; r < R; r++)                                                                                    \
            for (int c = 0; c < CV; c++) STORE(X + (size_t)r * ldx + c * W, acc[r][c]);                                \
    }                                                                                                                  \
    static inline __attribute__((always_inline)) void analysis_tile_##tag(int R, int CV, int pairs, const double *P,   \
                                                                          size_t ldp, const double *F, int ldf,        \
                                                                          double beta, double *O, int ldo)             \
    {                                                                                                                  \
        T acc[TILE_R][TILE_CV];                                                                                        \
        for (int r = 0; r < R; r++)                                                                                    \
            for (int c = 0; c < CV; c++) acc[r][c] = (T){0};                                                           \
        for (int j = 0; j < pairs; j++) {                                                                              \
            const double *f = F + (size_t)j * ldf;                                                                     \
            T fv[TILE_CV];                                                                                             \
            for (int c = 0; c < CV; c++) fv[c] = LOAD(f + c * W);                                                      \
            for (int r = 0; r < R; r++) {                                                                              \
                const T pr = (T){0} + P[(size_t)r * ldp + j];                                                          \
                for (int c = 0; c < CV; c++) acc[r][c] = FMA(pr, fv[c], acc[r][c]);                                    \
            }                                                                                                          \
        }                                                                                                              \
        for (int r = 0; r < R; r++)                                                                                    \
            for (int c = 0; c < CV; c++) {                                                                             \
                double *o = O + (size_t)r * ldo + c * W;                                                               \
                STORE(o, beta != 0.0 ? acc[r][c] + beta * LOAD(o) : acc[r][c]);                                        \
            }                                                                                                          \
    }

static inline double sload(const double *p) { return *p; }
static inline void sstore(double *p, double v) { *p = v; }
PST_LEG_TILES(v, vd, VL, vload, vstore, vfma)
PST_LEG_TILES(s, double, 1, sload, sstore, sfma)

/* The row tails (R < TILE_R) and column tails (CV < TILE_CV) as constants: rows 5 and 6, and 4
 * vectors of columns, only where the tiles have them. */
#define PST_LEG_CASE(call, r, cv)                                                                                      \
    case (r)*8 + (cv):                                                                                                 \
        call(r, cv);                                                                                                   \
        break;
#if PST_LEG_TILE_CV >= 4
#define PST_LEG_COLUMN_4(call, r) PST_LEG_CASE(call, r, 4)
#else
#define PST_LEG_COLUMN_4(call, r)
#endif
#define PST_LEG_ROW(call, r)                                                                                           \
    PST_LEG_CASE(call, r, 1) PST_LEG_CASE(call, r, 2) PST_LEG_CASE(call, r, 3) PST_LEG_COLUMN_4(call, r)
#if PST_LEG_TILE_R >= 6
#define PST_LEG_ROWS_5_6(call) PST_LEG_ROW(call, 5) PST_LEG_ROW(call, 6)
#else
#define PST_LEG_ROWS_5_6(call)
#endif
#define PST_LEG_DISPATCH(call, R, CV)                                                                                  \
    switch ((R)*8 + (CV)) {                                                                                            \
        PST_LEG_ROW(call, 1) PST_LEG_ROW(call, 2) PST_LEG_ROW(call, 3) PST_LEG_ROW(call, 4) PST_LEG_ROWS_5_6(call)     \
    }

_Static_assert(PST_LEG_TILE_R == 4 || PST_LEG_TILE_R == 6, "the dispatch covers tiles of 4 or 6 rows");
_Static_assert(PST_LEG_TILE_CV == 3 || PST_LEG_TILE_CV == 4, "the dispatch covers tiles of 3 or 4 vectors");

/* GROUP vectors of pairs in flight hide the recurrence's latency (a division after two products
 * per degree); a group is whole groups of PST_LEG_LANES. */
enum { GROUP = 4, GROUP_PAIRS = GROUP * VL };
_Static_assert(GROUP_PAIRS % PST_LEG_LANES == 0, "a group is whole lane groups");

/* A group none of whose pairs starts below 2^−400 (steps 0) cannot underflow or need the
 * rescale: its recurrence is the tables' own steps, (μ P̄_{n−1} − β_n P̄_{n−2}) / α_n, rounded
 * as they are (the translation unit does not contract to FMA: with 1/α_n as a product, or an
 * FMA, T1023's P̄ drifted to 9e-13 and 1.3e-12 of the tables'; as the tables, 4e-21). */
static inline __attribute__((always_inline)) void generate_group(int m, int M1, const double *alpha, const double *beta,
                                                                 const double *mu, const double *s, double *row0,
                                                                 double *row1, size_t ld)
{
    const double e1 = pst_leg_eps(m + 1, m);
    vd x[GROUP], p0[GROUP], p1[GROUP];
    for (int g = 0; g < GROUP; g++) {
        x[g] = vload(mu + g * VL);
        p0[g] = vload(s + g * VL);
        p1[g] = x[g] * p0[g] / e1;
        vstore(row0 + g * VL, p0[g]);
        if (M1 > m) vstore(row1 + g * VL, p1[g]);
    }
    for (int n = m + 2; n <= M1; n++) {
        const double a = alpha[n], b = beta[n];
        double *out = ((n - m) & 1 ? row1 : row0) + (size_t)((n - m) >> 1) * ld;
        for (int g = 0; g < GROUP; g++) {
            const vd p2 = (x[g] * p1[g] - b * p0[g]) / a;
            p0[g] = p1[g];
            p1[g] = p2;
            vstore(out + g * VL, p2);
        }
    }
}

void PST_LEG_FN(pst_leg_generate)(const struct pst_legendre *L, int i, int pair0, int pairs, double *row0, double *row1)
{
    const pst_spec_layout *t = &L->ext;
    const int m = t->m[i];
    const size_t ld = pst_leg_padded((size_t)pairs), np = pst_leg_padded((size_t)L->npairs);
    const double *alpha = L->alpha + t->off[i] - m, *beta = L->beta + t->off[i] - m;
    for (size_t l0 = 0; l0 < (size_t)pairs;) {
        const size_t at = (size_t)i * np + (size_t)pair0 + l0;
        const double *mu = L->mu_lanes + pair0 + l0;
        bool plain = (size_t)pairs - l0 >= GROUP_PAIRS;
        for (int l = 0; plain && l < GROUP_PAIRS; l++) plain = L->start_j[at + l] == 0.0;
        if (plain) {
            generate_group(m, t->M, alpha, beta, mu, L->start + at, row0 + l0, row1 + l0, ld);
            l0 += GROUP_PAIRS;
        } else {
            pst_leg_generate_lanes(PST_LEG_LANES, m, t->M, alpha, beta, mu, L->start + at, L->start_j + at, row0 + l0,
                                   row1 + l0, ld);
            l0 += PST_LEG_LANES;
        }
    }
}

void PST_LEG_FN(pst_leg_synth)(int pairs, int nk, const double *P, size_t ldp, const double *S, int lds, int ncols,
                               double *X, int ldx)
{
    const int nvec = ncols / VL;
    for (int r0 = 0; r0 < pairs; r0 += TILE_R) {
        const int R = pairs - r0 < TILE_R ? pairs - r0 : TILE_R;
        double *x = X + (size_t)r0 * ldx;
        for (int c0 = 0; c0 < nvec; c0 += TILE_CV) {
            const int CV = nvec - c0 < TILE_CV ? nvec - c0 : TILE_CV;
#define SYNTH_V(r, cv) synth_tile_v(r, cv, nk, P + r0, ldp, S + c0 * VL, lds, x + c0 * VL, ldx)
            PST_LEG_DISPATCH(SYNTH_V, R, CV)
#undef SYNTH_V
        }
        for (int c = nvec * VL; c < ncols; c++) {
#define SYNTH_S(r, cv) synth_tile_s(r, cv, nk, P + r0, ldp, S + c, lds, x + c, ldx)
            PST_LEG_DISPATCH(SYNTH_S, R, 1)
#undef SYNTH_S
        }
    }
}

void PST_LEG_FN(pst_leg_analysis)(int nk, int pairs, const double *P, size_t ldp, const double *F, int ldf, int ncols,
                                  double beta, double *O, int ldo)
{
    const int nvec = ncols / VL;
    for (int r0 = 0; r0 < nk; r0 += TILE_R) {
        const int R = nk - r0 < TILE_R ? nk - r0 : TILE_R;
        const double *p = P + (size_t)r0 * ldp;
        double *o = O + (size_t)r0 * ldo;
        for (int c0 = 0; c0 < nvec; c0 += TILE_CV) {
            const int CV = nvec - c0 < TILE_CV ? nvec - c0 : TILE_CV;
#define ANALYSIS_V(r, cv) analysis_tile_v(r, cv, pairs, p, ldp, F + c0 * VL, ldf, beta, o + c0 * VL, ldo)
            PST_LEG_DISPATCH(ANALYSIS_V, R, CV)
#undef ANALYSIS_V
        }
        for (int c = nvec * VL; c < ncols; c++) {
#define ANALYSIS_S(r, cv) analysis_tile_s(r, cv, pairs, p, ldp, F + c, ldf, beta, o + c, ldo)
            PST_LEG_DISPATCH(ANALYSIS_S, R, 1)
#undef ANALYSIS_S
        }
    }
}
