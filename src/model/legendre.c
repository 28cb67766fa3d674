#include "model/legendre.h"
#include "core/alloc.h"
#include "model/legendre_generate.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A generated block stays within a quarter MiB (L2 on the CPUs of the field): T170's 128 pairs whole. */
enum { BLOCK_DOUBLES = 32768, RESCALE_BITS = PST_LEG_RESCALE_BITS, LANES = PST_LEG_LANES };

const char *const pst_leg_method_names[PST_NLEG_METHODS] = {"dgemm", "recurrence", "simd"};

static double eps(int n, int m) { return pst_leg_eps(n, m); }
static size_t padded(size_t pairs) { return pst_leg_padded(pairs); }

/* P̄_m^m(μ) as mant * 2^e. */
static void sectoral(int m, double s, double *mant, int *e)
{
    double v = sqrt(0.5);
    int ex = 0;
    for (int k = 1; k <= m; k++) {
        int de;
        v = frexp(v * sqrt((2.0 * k + 1.0) / (2.0 * k)) * s, &de);
        ex += de;
    }
    *mant = v;
    *e = ex;
}

void pst_legendre_column(int M, int m, double mu, double coslat, double *p, double *h)
{
    /* P̄ for n = m..M+1 (the extra degree feeds H_M). */
    int len = M - m + 2;
    double *pv = pst_malloc((size_t)len * sizeof *pv);
    double v0, v1;
    int e;
    sectoral(m, coslat, &v0, &e);
    pv[0] = ldexp(v0, e);
    v1 = mu * v0 / eps(m + 1, m);
    pv[1] = ldexp(v1, e);
    for (int n = m + 2; n <= M + 1; n++) {
        double v2 = (mu * v1 - eps(n - 1, m) * v0) / eps(n, m);
        v0 = v1;
        v1 = v2;
        if (fabs(v1) > 0x1p400) {
            v0 = ldexp(v0, -RESCALE_BITS);
            v1 = ldexp(v1, -RESCALE_BITS);
            e += RESCALE_BITS;
        }
        pv[n - m] = ldexp(v1, e);
    }
    for (int n = m; n <= M; n++) {
        p[n - m] = pv[n - m];
        double below = n > m ? (n + 1.0) * eps(n, m) * pv[n - m - 1] : 0.0;
        h[n - m] = below - n * eps(n + 1, m) * pv[n - m + 1];
    }
    free(pv);
}

/* Tables of the degrees of pst_leg_table_layout(L): P̄ and, unless p_only, H. */
static void fill_tables(pst_legendre *L, const double *mu_north, const double *coslat)
{
    const pst_spec_layout *t = pst_leg_table_layout(L);
    size_t n = (size_t)L->npairs * t->ncoef;
    L->table[PST_LEG_P] = pst_malloc((n ? n : 1) * sizeof *L->table[PST_LEG_P]);
    L->table[PST_LEG_H] = L->p_only ? NULL : pst_malloc((n ? n : 1) * sizeof *L->table[PST_LEG_H]);
    double *p = pst_malloc((size_t)(t->M + 2) * sizeof *p), *h = pst_malloc((size_t)(t->M + 2) * sizeof *h);
    for (int i = 0; i < t->nm; i++) {
        int m = t->m[i];
        for (int j = 0; j < L->npairs; j++) {
            pst_legendre_column(t->M, m, mu_north[j], coslat[j], p, h);
            for (int par = 0; par < 2; par++) {
                int nk = t->nk[par][i];
                double *tp = (double *)pst_leg_matrix(L, PST_LEG_P, i, par) + (size_t)j * nk;
                for (int k = 0; k < nk; k++) tp[k] = p[par + 2 * k];
                if (L->p_only) continue;
                double *th = (double *)pst_leg_matrix(L, PST_LEG_H, i, par) + (size_t)j * nk;
                for (int k = 0; k < nk; k++) th[k] = h[par + 2 * k];
            }
        }
    }
    free(p);
    free(h);
}


int pst_legendre_block_pairs(int M, int npairs)
{
    int fit = BLOCK_DOUBLES / (M + 2) / LANES * LANES;
    if (fit < LANES) fit = LANES;
    return npairs < fit ? (npairs > 0 ? npairs : 1) : fit;
}

size_t pst_legendre_work_doubles(int M, int npairs)
{
    return ((size_t)M + 2) * padded((size_t)pst_legendre_block_pairs(M, npairs));
}

/* With H (pst_legendre_init, the serial transform): one block of all pairs, P̄'s M + 2 rows and
 * H's M + 1 after them.  Its products come one parity and one of P̄ or H at a time, with a few
 * columns each: blocks of pairs would be generated again for every one of them (T341L16's
 * diagnostics spent 3 s so). */
static int block_pairs(int M, int npairs, bool with_h) { return with_h ? (npairs > 0 ? npairs : 1) : pst_legendre_block_pairs(M, npairs); }
static size_t work_area_doubles(int M, int npairs, bool with_h)
{
    return ((size_t)M + 2 + (with_h ? (size_t)M + 1 : 0)) * padded((size_t)block_pairs(M, npairs, with_h));
}
static size_t work_doubles(const pst_legendre *L) { return work_area_doubles(L->spec->M, L->npairs, !L->p_only); }

static size_t at_least_1(size_t n) { return n ? n : 1; }

size_t pst_legendre_recurrence_doubles(int M, size_t ncoef, int nm, int npairs, int nwork, bool with_h)
{
    const size_t lanes = padded((size_t)npairs);
    return 2 * at_least_1(ncoef + (size_t)nm) + 2 * at_least_1((size_t)nm * lanes) + at_least_1(lanes) +
           (size_t)nwork * work_area_doubles(M, npairs, with_h);
}

/* α_n = 1/ε_n, β_n = ε_{n−1} per degree (P̄_n = (μ P̄_{n−1} − β_n P̄_{n−2}) α_n, the tables' own
 * steps with the division made a product: the two agree to 2e-15 at T1023 where a fused
 * α μ P̄_{n−1} − (ε_{n−1}/ε_n) P̄_{n−2} drifted to 1.5e-12), and each pair's P̄_m^m as a value in
 * [2^−401, 8] and its count of 2^400 underflow steps. */
static void init_recurrence(pst_legendre *L, const double *coslat)
{
    const pst_spec_layout *t = &L->ext;
    L->alpha = pst_malloc((t->ncoef ? t->ncoef : 1) * sizeof *L->alpha);
    L->beta = pst_malloc((t->ncoef ? t->ncoef : 1) * sizeof *L->beta);
    for (int i = 0; i < t->nm; i++)
        for (int n = t->m[i] + 2; n <= t->M; n++) {
            L->alpha[t->off[i] + n - t->m[i]] = eps(n, t->m[i]);
            L->beta[t->off[i] + n - t->m[i]] = eps(n - 1, t->m[i]);
        }
    /* Per wavenumber the pairs padded to whole lane groups (the padding runs a harmless recurrence from 0). */
    const size_t np = padded((size_t)L->npairs), starts = (size_t)t->nm * np;
    L->start = pst_calloc(starts ? starts : 1, sizeof *L->start);
    L->start_j = pst_calloc(starts ? starts : 1, sizeof *L->start_j);
    L->mu_lanes = pst_calloc(np ? np : 1, sizeof *L->mu_lanes);
    memcpy(L->mu_lanes, L->mu, (size_t)L->npairs * sizeof *L->mu_lanes);
    for (int i = 0; i < t->nm; i++)
        for (int j = 0; j < L->npairs; j++) {
            double mant;
            int e, steps = 0;
            sectoral(t->m[i], coslat[j], &mant, &e);
            for (; e <= -RESCALE_BITS; e += RESCALE_BITS) steps++;
            L->start[(size_t)i * np + j] = ldexp(mant, e);
            L->start_j[(size_t)i * np + j] = steps;
        }
    L->block_pairs = block_pairs(L->spec->M, L->npairs, !L->p_only);
    for (int k = 0; k < L->nwork; k++) L->work[k].pbar = pst_malloc(work_doubles(L) * sizeof(double));
}

static void free_recurrence(pst_legendre *L)
{
    for (int k = 0; k < L->nwork && L->work; k++) {
        free(L->work[k].pbar);
        L->work[k] = (pst_leg_work){.i = -1};
    }
    free(L->alpha);
    free(L->beta);
    free(L->start);
    free(L->start_j);
    free(L->mu_lanes);
    L->alpha = L->beta = L->start = L->start_j = L->mu_lanes = NULL;
}

/* What both kinds share: the recurrence's degrees m..M+1, the work areas, the tables or the
 * recurrence's data (both for auto: PST_NLEG_METHODS), a_n and b_n. */
static void init_common(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                        int npairs, pst_leg_method method, int nwork, bool p_only)
{
    *L = (pst_legendre){.spec = spec, .p_only = p_only, .npairs = npairs, .blas = PST_BLAS_OPENBLAS, .method = method,
                        .isa = pst_leg_isa_best(), .mu = mu_north, .nwork = nwork > 0 ? nwork : 1};
    pst_spec_layout_init(&L->ext, spec->M + 1, spec->m, spec->nm);
    L->work = pst_malloc((size_t)L->nwork * sizeof *L->work);
    for (int k = 0; k < L->nwork; k++) L->work[k] = (pst_leg_work){.i = -1};
    if (method == PST_LEG_DGEMM || method == PST_NLEG_METHODS) fill_tables(L, mu_north, coslat);
    if (method != PST_LEG_DGEMM) init_recurrence(L, coslat);
    if (method == PST_NLEG_METHODS) L->method = PST_LEG_DGEMM;
    L->rec_a = pst_malloc((spec->ncoef ? spec->ncoef : 1) * sizeof *L->rec_a);
    L->rec_b = pst_malloc((spec->ncoef ? spec->ncoef : 1) * sizeof *L->rec_b);
    for (int i = 0; i < spec->nm; i++)
        for (int n = spec->m[i]; n <= spec->M; n++) {
            size_t c = pst_spec_index(spec, i, n);
            L->rec_a[c] = (n + 1.0) * eps(n, spec->m[i]);
            L->rec_b[c] = n * eps(n + 1, spec->m[i]);
        }
}

void pst_legendre_init(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                       int npairs, pst_leg_method method)
{
    init_common(L, spec, mu_north, coslat, npairs, method, 1, false);
}

void pst_legendre_init_p(pst_legendre *L, const pst_spec_layout *spec, const double *mu_north, const double *coslat,
                         int npairs, pst_leg_method method, int nwork)
{
    init_common(L, spec, mu_north, coslat, npairs, method, nwork, true);
}

void pst_legendre_use(pst_legendre *L, pst_leg_method method)
{
    L->method = method;
    for (int k = 0; k < L->nwork; k++) L->work[k].i = -1; /* a block generated by the other method's path */
}

void pst_legendre_use_isa(pst_legendre *L, pst_leg_isa isa)
{
    L->isa = isa;
    for (int k = 0; k < L->nwork; k++) L->work[k].i = -1;
}

void pst_legendre_keep(pst_legendre *L)
{
    if (L->method != PST_LEG_DGEMM) {
        free(L->table[PST_LEG_P]);
        free(L->table[PST_LEG_H]);
        L->table[PST_LEG_P] = L->table[PST_LEG_H] = NULL;
    } else {
        free_recurrence(L);
    }
}

void pst_legendre_free(pst_legendre *L)
{
    free(L->table[0]);
    free(L->table[1]);
    free(L->rec_a);
    free(L->rec_b);
    free_recurrence(L);
    free(L->work);
    pst_spec_layout_free(&L->ext);
    *L = (pst_legendre){0};
}

/* H_n = a_n P̄_{n−1} − b_n P̄_{n+1} for degrees m..M from a generated block (rows of ld), parity
 * by parity into H ([nk(0)][ld] then [nk(1)][ld]): P̄_{n±1} are in the other parity's rows. */
static inline __attribute__((always_inline)) void derive_h(const pst_legendre *L, int i, const double *row0,
                                                           const double *row1, double *H, size_t ld)
{
    const int m = L->spec->m[i];
    const double *prow[2] = {row0, row1};
    for (int par = 0; par < 2; par++)
        for (int k = 0; k < L->spec->nk[par][i]; k++) {
            const int n = m + par + 2 * k;
            const size_t c = pst_spec_block(L->spec, i, par) + (size_t)k;
            const double a = L->rec_a[c], b = L->rec_b[c], *above = prow[1 - par] + (size_t)((n + 1 - m) >> 1) * ld;
            const double *below = n > m ? prow[1 - par] + (size_t)((n - 1 - m) >> 1) * ld : above;
            double *h = H + ((par ? (size_t)L->spec->nk[0][i] : 0) + (size_t)k) * ld;
#pragma omp simd
            for (size_t l = 0; l < ld; l++) h[l] = (n > m ? a * below[l] : 0.0) - b * above[l];
        }
}

/* The recurrence method's generation, compiled for AVX-512, AVX2 + FMA and baseline x86-64; the
 * loader picks the best the CPU runs.  The simd method generates through its forced path. */
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
static void generate_cloned(const pst_legendre *L, int i, int pair0, int pairs, double *row0, double *row1)
{
    pst_leg_generate_block(L, i, pair0, pairs, row0, row1);
}

void pst_leg_generate(const pst_legendre *L, pst_leg_work *w, int i, int pair0, int pairs)
{
    if (w->i == i && w->pair0 == pair0 && w->pairs == pairs) return;
    const size_t ld = padded((size_t)pairs);
    double *row0 = w->pbar, *row1 = w->pbar + (size_t)L->ext.nk[0][i] * ld;
    if (L->method == PST_LEG_SIMD) pst_leg_isa_ops_of(L->isa)->generate(L, i, pair0, pairs, row0, row1);
    else generate_cloned(L, i, pair0, pairs, row0, row1);
    if (!L->p_only) derive_h(L, i, row0, row1, row1 + (size_t)L->ext.nk[1][i] * ld, ld);
    w->i = i;
    w->pair0 = pair0;
    w->pairs = pairs;
}

/* The generated block's parity-par matrix of P̄ ([nk_ext(par)][ld]) or H ([nk(par)][ld], after P̄'s). */
static const double *generated(const pst_legendre *L, const pst_leg_work *w, pst_leg_kernel k, int i, int par)
{
    const size_t ld = padded((size_t)w->pairs);
    if (k == PST_LEG_P) return w->pbar + (par ? (size_t)L->ext.nk[0][i] * ld : 0);
    return w->pbar + ((size_t)L->ext.nk[0][i] + (size_t)L->ext.nk[1][i] + (par ? (size_t)L->spec->nk[0][i] : 0)) * ld;
}

/* One parity's product through a table block: a synthesis out = K[:, :k1] · in (k0 = 0), or an
 * analysis out = K[:, k0:k1]ᵀ · in + beta out (out's first row k0's). */
typedef struct leg_product {
    int par, k0, k1;
    const double *in;
    int ldin, ncols;
    double beta;
    double *out;
    int ldout;
} leg_product;

/* The products of wavenumber i through kernel k's blocks: from the tables over all pairs, or by
 * the recurrence block by block of pairs, each block generated once for all the products. */
static void run_products(const pst_legendre *L, pst_leg_work *w, pst_leg_kernel k, int i, bool synthesis,
                         const leg_product *prod, int nprod)
{
    if (L->method == PST_LEG_DGEMM) {
        for (const leg_product *q = prod; q < prod + nprod; q++) {
            const int lda = pst_leg_table_layout(L)->nk[q->par][i];
            const double *A = pst_leg_matrix(L, k, i, q->par) + q->k0;
            if (synthesis) pst_blas_dgemm(L->blas, false, L->npairs, q->ncols, q->k1, 1.0, A, lda, q->in, q->ldin, 0.0, q->out, q->ldout);
            else pst_blas_dgemm(L->blas, true, q->k1 - q->k0, q->ncols, L->npairs, 1.0, A, lda, q->in, q->ldin, q->beta, q->out, q->ldout);
        }
        return;
    }
    for (int p0 = 0; p0 < L->npairs; p0 += L->block_pairs) {
        const int bp = L->npairs - p0 < L->block_pairs ? L->npairs - p0 : L->block_pairs, ld = (int)padded((size_t)bp);
        pst_leg_generate(L, w, i, p0, bp);
        for (const leg_product *q = prod; q < prod + nprod; q++) {
            const double *A = generated(L, w, k, i, q->par) + (size_t)q->k0 * ld;
            if (L->method == PST_LEG_SIMD) {
                const pst_leg_isa_ops *ops = pst_leg_isa_ops_of(L->isa);
                if (synthesis) ops->synth(bp, q->k1, A, (size_t)ld, q->in, q->ldin, q->ncols, q->out + (size_t)p0 * q->ldout, q->ldout);
                else ops->analysis(q->k1 - q->k0, bp, A, (size_t)ld, q->in + (size_t)p0 * q->ldin, q->ldin, q->ncols, p0 ? 1.0 : q->beta,
                                   q->out, q->ldout);
            } else if (synthesis)
                pst_blas_dgemm(L->blas, true, bp, q->ncols, q->k1, 1.0, A, ld, q->in, q->ldin, 0.0, q->out + (size_t)p0 * q->ldout, q->ldout);
            else
                pst_blas_dgemm(L->blas, false, q->k1 - q->k0, q->ncols, bp, 1.0, A, ld, q->in + (size_t)p0 * q->ldin, q->ldin,
                               p0 ? 1.0 : q->beta, q->out, q->ldout);
        }
    }
}

/* X = K[:, :nk] · S over the first nk degrees of a table block (zero for none). */
static void synth_degrees(const pst_legendre *L, pst_leg_work *w, pst_leg_kernel k, int i, int par, int nk,
                          const double *S, int lds, int ncols, double *X, int ldx)
{
    if (nk == 0) {
        for (int j = 0; j < L->npairs; j++) memset(X + (size_t)j * ldx, 0, (size_t)ncols * sizeof *X);
        return;
    }
    run_products(L, w, k, i, true, &(leg_product){par, 0, nk, S, lds, ncols, 0.0, X, ldx}, 1);
}

/* O = K[:, k0:k1]ᵀ · F + beta O over degrees rows k0..k1 of a table block (O's first row is k0's). */
static void analysis_degrees(const pst_legendre *L, pst_leg_work *w, pst_leg_kernel k, int i, int par, int k0, int k1,
                             const double *F, int ldf, int ncols, double beta, double *O, int ldo)
{
    if (k1 <= k0) return;
    run_products(L, w, k, i, false, &(leg_product){par, k0, k1, F, ldf, ncols, beta, O, ldo}, 1);
}

void pst_leg_synth(const pst_legendre *L, pst_leg_work *w, pst_leg_kernel k, int i, int par, const double *S, int lds,
                   int ncols, double *X, int ldx)
{
    synth_degrees(L, w, k, i, par, L->spec->nk[par][i], S, lds, ncols, X, ldx);
}

void pst_leg_analysis(const pst_legendre *L, pst_leg_work *w, pst_leg_kernel k, int i, int par, const double *F,
                      int ldf, int ncols, double beta, double *O, int ldo)
{
    analysis_degrees(L, w, k, i, par, 0, L->spec->nk[par][i], F, ldf, ncols, beta, O, ldo);
}

void pst_leg_analysis_rows(const pst_legendre *L, pst_leg_work *w, pst_leg_kernel k, int i, int par, int k0, int k1,
                           const double *F, int ldf, int ncols, double beta, double *O, int ldo)
{
    analysis_degrees(L, w, k, i, par, k0, k1, F, ldf, ncols, beta, O, ldo);
}

/* c_k = a_{k+1} s_{k+1} − b_{k−1} s_{k−1}: degree k = m + par + 2j of the table block (i, par) has
 * its neighbours k ± 1 in the parity 1 − par block at rows j + par (k + 1) and j + par − 1
 * (k − 1), where those are degrees m..M.  Rows of C: ldc apart. */
static void h_coefficients(const pst_legendre *L, int i, int par, const double *S_opp, int lds, int col0, int ncols,
                           double *C, int ldc)
{
    const pst_spec_layout *s = L->spec;
    const int next = L->ext.nk[par][i], nopp = s->nk[1 - par][i];
    const size_t opp = pst_spec_block(s, i, 1 - par);
    for (int j = 0; j < next; j++) {
        const int up = j + par, down = j + par - 1; /* degrees k + 1, k − 1 in the other parity */
        double *c = C + (size_t)j * ldc;
        memset(c, 0, (size_t)ncols * sizeof *c);
        if (up < nopp) {
            const double a = L->rec_a[opp + up], *su = S_opp + (size_t)up * lds + col0;
            for (int col = 0; col < ncols; col++) c[col] += a * su[col];
        }
        if (down >= 0 && down < nopp) {
            const double b = L->rec_b[opp + down], *sd = S_opp + (size_t)down * lds + col0;
            for (int col = 0; col < ncols; col++) c[col] -= b * sd[col];
        }
    }
}

void pst_leg_synth_h(const pst_legendre *L, pst_leg_work *w, int i, int par, const double *S_opp, int lds, int col0,
                     int ncols, double *C, double *X, int ldx)
{
    h_coefficients(L, i, par, S_opp, lds, col0, ncols, C, ncols);
    synth_degrees(L, w, PST_LEG_P, i, par, L->ext.nk[par][i], C, ncols, ncols, X, ldx);
}

void pst_leg_synth_ph(const pst_legendre *L, pst_leg_work *w, int i, const double *S[2], int lds, int np, int col0,
                      int nh, double *B, double *X[2], int ldx)
{
    const int ldb = np + nh;
    leg_product prod[2];
    int n = 0;
    for (int par = 0; par < 2; par++) {
        const int next = L->ext.nk[par][i], nk = L->spec->nk[par][i];
        double *Bp = B + (size_t)par * ((size_t)L->spec->M / 2 + 2) * ldb;
        for (int j = 0; j < next; j++) {
            if (j < nk) memcpy(Bp + (size_t)j * ldb, S[par] + (size_t)j * lds, (size_t)np * sizeof *Bp);
            else memset(Bp + (size_t)j * ldb, 0, (size_t)np * sizeof *Bp);
        }
        h_coefficients(L, i, par, S[1 - par], lds, col0, nh, Bp + np, ldb);
        if (next > 0) prod[n++] = (leg_product){par, 0, next, Bp, ldb, ldb, 0.0, X[par], ldx};
        else
            for (int j = 0; j < L->npairs; j++) memset(X[par] + (size_t)j * ldx, 0, (size_t)ldb * sizeof *X[par]);
    }
    run_products(L, w, PST_LEG_P, i, true, prod, n);
}

/* Output degree n = m + (1 − par) + 2j meets the P̄ sums Z of table par at n − 1 (row j − par;
 * none for n = m, where a_n = 0) and n + 1 (row j + 1 − par, at most M + 1): rows [j0, j1) of O
 * from Z's rows z0.. (ldz apart). */
static void h_from_sums(const pst_legendre *L, int i, int par, int j0, int j1, const double *Z, int ldz, int z0,
                        int ncols, double *O_opp, int ldo)
{
    const size_t opp = pst_spec_block(L->spec, i, 1 - par);
    for (int jo = j0; jo < j1; jo++) {
        const double a = L->rec_a[opp + jo], b = L->rec_b[opp + jo], *zu = Z + (size_t)(jo + 1 - par - z0) * ldz;
        double *o = O_opp + (size_t)(jo - j0) * ldo;
        if (jo - par >= 0) {
            const double *zd = Z + (size_t)(jo - par - z0) * ldz;
            for (int col = 0; col < ncols; col++) o[col] += a * zd[col] - b * zu[col];
        } else {
            for (int col = 0; col < ncols; col++) o[col] -= b * zu[col];
        }
    }
}

void pst_leg_analysis_h(const pst_legendre *L, pst_leg_work *w, int i, int par, int j0, int j1, const double *F,
                        int ldf, int ncols, double *Z, double *O_opp, int ldo)
{
    if (j1 <= j0 || L->ext.nk[par][i] == 0) return;
    const int z0 = j0 - par > 0 ? j0 - par : 0;
    analysis_degrees(L, w, PST_LEG_P, i, par, z0, j1 + 1 - par, F, ldf, ncols, 0.0, Z, ncols);
    h_from_sums(L, i, par, j0, j1, Z, ncols, z0, ncols, O_opp, ldo);
}

void pst_leg_analysis_ext(const pst_legendre *L, pst_leg_work *w, int i, const double *F[2], int ldf, int ncols,
                          double *Z[2])
{
    leg_product prod[2];
    int n = 0;
    for (int par = 0; par < 2; par++)
        if (L->ext.nk[par][i] > 0) prod[n++] = (leg_product){par, 0, L->ext.nk[par][i], F[par], ldf, ncols, 0.0, Z[par], ncols};
    run_products(L, w, PST_LEG_P, i, false, prod, n);
}

void pst_leg_h_from_sums(const pst_legendre *L, int i, int par, const double *Z, int ldz, int ncols, double *O_opp,
                         int ldo)
{
    if (L->ext.nk[par][i] == 0) return;
    h_from_sums(L, i, par, 0, L->spec->nk[1 - par][i], Z, ldz, 0, ncols, O_opp, ldo);
}
