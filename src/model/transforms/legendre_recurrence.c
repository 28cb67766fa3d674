/* The recurrence's data and its generation of P̄ per wavenumber and block of latitude pairs into
 * a thread's work area (legendre.h): the recurrence and simd methods' P̄. */
#include "model/transforms/legendre_impl.h"

#include "core/alloc.h"
#include "model/transforms/legendre_generate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A generated block stays within a quarter MiB (L2 on the CPUs of the field): T170's 128 pairs whole. */
enum { BLOCK_DOUBLES = 32768, RESCALE_BITS = PST_LEG_RESCALE_BITS, LANES = PST_LEG_LANES };

static double eps(int n, int m) { return pst_leg_eps(n, m); }
static size_t padded(size_t pairs) { return pst_leg_padded(pairs); }

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
static int block_pairs(int M, int npairs, bool with_h)
{
    return with_h ? (npairs > 0 ? npairs : 1) : pst_legendre_block_pairs(M, npairs);
}
size_t pst_leg_work_area_doubles(int M, int npairs, bool with_h)
{
    return ((size_t)M + 2 + (with_h ? (size_t)M + 1 : 0)) * padded((size_t)block_pairs(M, npairs, with_h));
}
static size_t work_doubles(const pst_legendre *L)
{
    return pst_leg_work_area_doubles(L->spec->M, L->npairs, !L->p_only);
}

static size_t at_least_1(size_t n) { return n ? n : 1; }

size_t pst_legendre_recurrence_doubles(int M, size_t ncoef, int nm, int npairs, int nwork, bool with_h)
{
    const size_t lanes = padded((size_t)npairs);
    return 2 * at_least_1(ncoef + (size_t)nm) + 2 * at_least_1((size_t)nm * lanes) + at_least_1(lanes) +
           (size_t)nwork * pst_leg_work_area_doubles(M, npairs, with_h);
}

/* α_n = 1/ε_n, β_n = ε_{n−1} per degree (P̄_n = (μ P̄_{n−1} − β_n P̄_{n−2}) α_n, the tables' own
 * steps with the division made a product: the two agree to 2e-15 at T1023 where a fused
 * α μ P̄_{n−1} − (ε_{n−1}/ε_n) P̄_{n−2} drifted to 1.5e-12), and each pair's P̄_m^m as a value in
 * [2^−401, 8] and its count of 2^400 underflow steps. */
void pst_leg_recurrence_init(pst_legendre *L, const double *coslat)
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
            pst_leg_sectoral(t->m[i], coslat[j], &mant, &e);
            for (; e <= -RESCALE_BITS; e += RESCALE_BITS) steps++;
            L->start[(size_t)i * np + j] = ldexp(mant, e);
            L->start_j[(size_t)i * np + j] = steps;
        }
    L->block_pairs = block_pairs(L->spec->M, L->npairs, !L->p_only);
    for (int k = 0; k < L->nwork; k++) L->work[k].pbar = pst_malloc(work_doubles(L) * sizeof(double));
}

void pst_leg_recurrence_free(pst_legendre *L)
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
 * loader picks the best the CPU runs (the simd method generates on its own path). */
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
void pst_leg_generate_cloned(const pst_legendre *L, int i, int pair0, int pairs, double *row0, double *row1)
{
    pst_leg_generate_block(L, i, pair0, pairs, row0, row1);
}

void pst_leg_generate(const pst_legendre *L, pst_leg_work *w, int i, int pair0, int pairs)
{
    if (w->i == i && w->pair0 == pair0 && w->pairs == pairs) return;
    const size_t ld = padded((size_t)pairs);
    double *row0 = w->pbar, *row1 = w->pbar + (size_t)L->ext.nk[0][i] * ld;
    pst_leg_methods[L->method].generate(L, i, pair0, pairs, row0, row1);
    if (!L->p_only) derive_h(L, i, row0, row1, row1 + (size_t)L->ext.nk[1][i] * ld, ld);
    w->i = i;
    w->pair0 = pair0;
    w->pairs = pairs;
}

/* The generated block's parity-par matrix of P̄ ([nk_ext(par)][ld]) or H ([nk(par)][ld], after P̄'s). */
const double *pst_leg_generated(const pst_legendre *L, const pst_leg_work *w, pst_leg_function k, int i, int par)
{
    const size_t ld = padded((size_t)w->pairs);
    if (k == PST_LEG_P) return w->pbar + (par ? (size_t)L->ext.nk[0][i] * ld : 0);
    return w->pbar + ((size_t)L->ext.nk[0][i] + (size_t)L->ext.nk[1][i] + (par ? (size_t)L->spec->nk[0][i] : 0)) * ld;
}
