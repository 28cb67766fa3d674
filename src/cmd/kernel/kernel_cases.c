#include "cmd/kernel/kernel_cases.h"

#include "runtime/threads.h"

#include "algo/dfft.h"
#include "algo/partition.h"
#include "algo/transpose.h"
#include "algo/vsum.h"
#include "core/alloc.h"
#include "core/errors.h"
#include "model/transforms/gauss.h"
#include "model/stages/skeleton.h"

#include <fftw3.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

const char *const pst_kernel_stage_names[2] = {"fft", "legendre"};

struct kcase {
    pst_alg_family fam;
    pst_blas blas;   /* the vector sums' dgemms */
    pst_fft_planner *fft; /* the distributed FFT's local transforms and the reference's */
    kgeom g;
    int rank, size;
    long long bytes;
    /* transposes: A is rows x my cols, split by rows over ranks; B is my rows x all cols */
    struct {
        size_t rows, elem, ncols;          /* elem: bytes per (row, col) */
        size_t *rlo, *rn, *clo, *cn;       /* row and column blocks of each rank */
        int *sc, *sd, *rc, *rd;            /* forward Alltoallv layout (bytes) */
        unsigned char *a, *recv, *b, *send2, *a2, *ref;
    } t;
    /* dfft */
    struct {
        int n, lines, mmax, nl, nm;
        double *in, *back, *ref_back;      /* ref_back: FFTW c2r of the spectrum cut at mmax */
        double complex *coef, *ref;        /* ref: lines x nm from FFTW on gathered lines */
        double scale, scale_back;
    } d;
    /* vector sums */
    struct {
        size_t n, unit, ncoef;
        int lats;
        double *legendre, *fourier, *out, *ref; /* legendre (dgemm kernel): ncoef x lats; fourier: lats x unit */
        size_t lo, count;                        /* this rank's result block */
        bool partitioned;
        pst_leg_method leg;
        /* The recurrence kernel: the rows are the coefficients of spec (the column's wavenumbers),
         * summed over the rank's pairs, Gaussian nodes mu / coslat (L holds mu + its first pair). */
        pst_spec_layout spec;
        pst_legendre L;
        double *mu, *coslat;
        int pairs;
        double scale;                            /* max |ref| compared on this rank (the tolerance's unit) */
    } s;
};

/* The prepared algorithm of one alternative: its plans over the case's communicator. */
struct kplan {
    pst_trans *fwd, *inv;
    pst_dfft *f;
    pst_vsum *v;
};


/* Exactly representable values (multiples of 1/8, |x| <= 125): products and sums stay exact,
 * so every summation order gives the same bits. */
static double dyadic(unsigned long long a, unsigned long long b)
{
    unsigned long long h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    return (double)((long long)(h % 2001) - 1000) / 8.0;
}

/* ---- transposes ---- */

static void trans_unpack(void *arg, int q)
{
    kcase *c = arg;
    size_t me = (size_t)c->rank, row_bytes = c->t.cn[q] * c->t.elem, full = c->t.ncols * c->t.elem;
    for (size_t r = 0; r < c->t.rn[me]; r++)
        memcpy(c->t.b + r * full + c->t.clo[q] * c->t.elem, c->t.recv + c->t.rd[q] + r * row_bytes, row_bytes);
}

/* Inverse: the block for q is my rows x q's columns, gathered from B. */
static void trans_pack(void *arg, int q)
{
    kcase *c = arg;
    size_t me = (size_t)c->rank, row_bytes = c->t.cn[q] * c->t.elem, full = c->t.ncols * c->t.elem;
    for (size_t r = 0; r < c->t.rn[me]; r++)
        memcpy(c->t.send2 + c->t.rd[q] + r * row_bytes, c->t.b + r * full + c->t.clo[q] * c->t.elem, row_bytes);
}

static void trans_create(kcase *c, kstage stage, const kproblem *k)
{
    int P = c->size, me = c->rank;
    const kgeom *g = &c->g;
    c->t.rlo = pst_malloc(P * sizeof(size_t)); c->t.rn = pst_malloc(P * sizeof(size_t));
    c->t.clo = pst_malloc(P * sizeof(size_t)); c->t.cn = pst_malloc(P * sizeof(size_t));
    if (stage == KS_FFT) { /* rows: the row's lines; columns: longitudes */
        c->t.rows = (size_t)kp_fft_lines(k, g->py, g->y);
        c->t.elem = sizeof(double);
        for (int q = 0; q < P; q++) kp_lon_block(k, g->px, q, &c->t.clo[q], &c->t.cn[q]);
    } else { /* rows: the column's wavenumbers; columns: latitudes, each levels x fields complex */
        c->t.rows = (size_t)kp_nm(k, g->px, g->x);
        c->t.elem = 2 * sizeof(double) * (size_t)k->levels * (size_t)k->fields;
        size_t lo = 0;
        for (int q = 0; q < P; q++) { c->t.clo[q] = lo; c->t.cn[q] = (size_t)kp_lats(k, g->py, q); lo += c->t.cn[q]; }
    }
    c->t.ncols = c->t.clo[P - 1] + c->t.cn[P - 1];
    for (int q = 0; q < P; q++) pst_block(c->t.rows, P, q, &c->t.rlo[q], &c->t.rn[q]);
    c->t.sc = pst_malloc(P * sizeof(int)); c->t.sd = pst_malloc(P * sizeof(int));
    c->t.rc = pst_malloc(P * sizeof(int)); c->t.rd = pst_malloc(P * sizeof(int));
    size_t mycols = c->t.cn[me], myrows = c->t.rn[me], roff = 0;
    for (int q = 0; q < P; q++) {
        c->t.sc[q] = (int)(c->t.rn[q] * mycols * c->t.elem);
        c->t.sd[q] = (int)(c->t.rlo[q] * mycols * c->t.elem);
        c->t.rc[q] = (int)(myrows * c->t.cn[q] * c->t.elem);
        c->t.rd[q] = (int)roff;
        roff += (size_t)c->t.rc[q];
    }
    size_t abytes = c->t.rows * mycols * c->t.elem, bbytes = myrows * c->t.ncols * c->t.elem;
    if (abytes > 1u << 30 || bbytes > 1u << 30) pst_fatal(PST_EXIT_FAILED, "transpose data above 1 GiB per rank");
    c->t.a = pst_malloc(abytes); c->t.a2 = pst_malloc(abytes);
    c->t.recv = pst_malloc(bbytes);
    c->t.ref = pst_malloc(bbytes);
    c->t.b = pst_malloc(bbytes);
    c->t.send2 = pst_malloc(bbytes);
    double *a = (double *)c->t.a;
    size_t per_row = mycols * c->t.elem / sizeof(double);
    for (size_t r = 0; r < c->t.rows; r++)
        for (size_t j = 0; j < per_row; j++)
            a[r * per_row + j] = dyadic(r, c->t.clo[me] * c->t.elem / sizeof(double) + j);
    MPI_Alltoallv(c->t.a, c->t.sc, c->t.sd, MPI_BYTE, c->t.ref, c->t.rc, c->t.rd, MPI_BYTE, g->comm);
    c->bytes = (long long)abytes;
}

static void trans_run(kcase *c, const kplan *pl)
{
    pst_trans_hooks fwd = {.unpack = trans_unpack, .arg = c}, inv = {.pack = trans_pack, .arg = c};
    pst_trans_run(pl->fwd, c->t.a, c->t.recv, &fwd);
    pst_trans_run(pl->inv, c->t.send2, c->t.a2, &inv);
}

static long long trans_verify(kcase *c)
{
    size_t abytes = c->t.rows * c->t.cn[c->rank] * c->t.elem, rbytes = c->t.rn[c->rank] * c->t.ncols * c->t.elem;
    long long bad = memcmp(c->t.recv, c->t.ref, rbytes) != 0;
    bad += memcmp(c->t.a2, c->t.a, abytes) != 0;
    memset(c->t.recv, 0, rbytes); /* a stale result must not pass the next check */
    memset(c->t.a2, 0, abytes);
    return bad;
}

/* ---- dfft ---- */

/* The reference's serial line: r2c (forward) or c2r of n points, planned for the set-up. */
typedef struct ref_plan {
    int n;
    double *line;
    double complex *half;
    bool forward;
} ref_plan;

static fftw_plan make_ref(void *arg, unsigned flags)
{
    const ref_plan *r = arg;
    return r->forward ? fftw_plan_dft_r2c_1d(r->n, r->line, (fftw_complex *)r->half, flags)
                      : fftw_plan_dft_c2r_1d(r->n, (fftw_complex *)r->half, r->line, flags);
}

static void dfft_create(kcase *c, const kproblem *k)
{
    const kgeom *g = &c->g;
    c->d.n = kp_fft_nlon(k, g->px);
    c->d.lines = kp_fft_lines(k, g->py, g->y);
    c->d.mmax = kp_mmax(k, g->px);
    c->d.nl = c->d.n / c->size;
    size_t local = (size_t)c->d.lines * c->d.nl;
    c->d.in = pst_malloc(local * sizeof(double));
    c->d.back = pst_malloc(local * sizeof(double));
    c->d.ref_back = pst_malloc(local * sizeof(double));
    for (int l = 0; l < c->d.lines; l++)
        for (int j = 0; j < c->d.nl; j++)
            c->d.in[(size_t)l * c->d.nl + j] = dyadic((unsigned)l, (unsigned)(c->rank * c->d.nl + j));
    /* Reference: the whole lines gathered (MPI_Allgather) and transformed by serial FFTW. */
    double *all = pst_malloc(local * c->size * sizeof(double)),
           *line = pst_alloc_check(fftw_malloc(c->d.n * sizeof(double)), c->d.n * sizeof(double));
    double complex *half =
        pst_alloc_check(fftw_malloc((c->d.n / 2 + 1) * sizeof *half), (c->d.n / 2 + 1) * sizeof *half);
    MPI_Allgather(c->d.in, (int)local, MPI_DOUBLE, all, (int)local, MPI_DOUBLE, g->comm);
    fftw_plan plan =
        pst_fft_plan(c->fft, PST_FFT_SETUP, make_ref, &(ref_plan){c->d.n, line, half, true}, "the reference line");
    fftw_plan back =
        pst_fft_plan(c->fft, PST_FFT_SETUP, make_ref, &(ref_plan){c->d.n, line, half, false}, "the reference line");
    /* This rank's wavenumbers, as the plan will own them (bit-reversed cyclic). */
    pst_dfft *probe = pst_dfft_create(pst_protocol_at("mpi", 0), false, g->comm, c->d.n, 0, c->d.mmax, c->fft);
    c->d.nm = pst_dfft_nm(probe);
    c->d.coef = pst_malloc((size_t)c->d.lines * (c->d.nm ? c->d.nm : 1) * sizeof *c->d.coef);
    c->d.ref = pst_malloc((size_t)c->d.lines * (c->d.nm ? c->d.nm : 1) * sizeof *c->d.ref);
    c->d.scale = 0;
    for (int l = 0; l < c->d.lines; l++) {
        for (int q = 0; q < c->size; q++)
            memcpy(line + (size_t)q * c->d.nl, all + (size_t)q * local + (size_t)l * c->d.nl, c->d.nl * sizeof(double));
        fftw_execute(plan);
        for (int i = 0; i < c->d.nm; i++) {
            c->d.ref[(size_t)l * c->d.nm + i] = half[pst_dfft_m(probe, i)];
            c->d.scale = fmax(c->d.scale, cabs(half[pst_dfft_m(probe, i)]));
        }
        for (int m = c->d.mmax + 1; m <= c->d.n / 2; m++) half[m] = 0;
        fftw_execute(back);
        for (int j = 0; j < c->d.nl; j++) {
            c->d.ref_back[(size_t)l * c->d.nl + j] = line[(size_t)c->rank * c->d.nl + j];
            c->d.scale_back = fmax(c->d.scale_back, fabs(line[(size_t)c->rank * c->d.nl + j]));
        }
    }
    pst_dfft_free(probe);
    fftw_destroy_plan(plan);
    fftw_destroy_plan(back);
    fftw_free(line);
    fftw_free(half);
    free(all);
    c->bytes = (long long)(local * sizeof(double));
}

static void dfft_run(kcase *c, const kplan *pl)
{
    pst_dfft_r2c(pl->f, c->d.in, c->d.coef);
    pst_dfft_c2r(pl->f, c->d.coef, c->d.back);
}

/* Coefficients against FFTW r2c, the round trip against FFTW c2r of the spectrum cut at mmax,
 * both to 1e-12 of the largest reference value on this rank. */
static long long dfft_verify(kcase *c)
{
    long long bad = 0;
    size_t ncoef = (size_t)c->d.lines * c->d.nm, local = (size_t)c->d.lines * c->d.nl;
    for (size_t i = 0; i < ncoef; i++) bad += !(cabs(c->d.coef[i] - c->d.ref[i]) <= 1e-12 * c->d.scale);
    for (size_t i = 0; i < local; i++) bad += !(fabs(c->d.back[i] - c->d.ref_back[i]) <= 1e-12 * c->d.scale_back);
    memset(c->d.back, 0, local * sizeof(double));
    return bad;
}

/* ---- vector sums ---- */

/* The flops of coefficient rows [row0, row0 + rows), a multiply-add counting 2 (--compute
 * skeleton).  The recurrence's dgemms run over pairs (a parity's symmetric or antisymmetric
 * part), not latitudes, and it adds generating P̄ for degrees m..M+1 of every wavenumber, 5 flops
 * per value as the model counts them (model/stages/flops.h: the step's multiply, multiply-add and
 * division, and the underflow scale), each block charged its rows' share. */
static double vsum_flops(const kcase *c, size_t rows)
{
    const double r = (double)rows, unit = (double)c->s.unit;
    if (!pst_leg_method_generates(c->s.leg)) return 2.0 * r * unit * c->s.lats;
    const double generated = (double)(c->s.spec.ncoef + (size_t)c->s.spec.nm) * c->s.pairs;
    return 2.0 * r * unit * c->s.pairs + 5.0 * generated * r / (double)c->s.spec.ncoef;
}

/* The dgemm kernel: legendre rows x fourier over the rank's latitudes (exact in any split of the
 * rows: the values are dyadic).  With threads (--threads), each its share of the rows, as the
 * model shares out its sums' wavenumbers; MPI stays on the master, between blocks. */
static void vsum_dgemm(kcase *c, size_t row0, size_t rows, double *out)
{
    const int threads = pst_threads();
#pragma omp parallel for num_threads(threads) if (threads > 1)
    for (int t = 0; t < threads; t++) {
        size_t r0, nr;
        pst_block(rows, threads, t, &r0, &nr);
        if (nr == 0) continue;
        pst_blas_dgemm(c->blas, false, (int)nr, (int)c->s.unit, c->s.lats, 1.0,
                       c->s.legendre + (row0 + r0) * (size_t)c->s.lats, c->s.lats, c->s.fourier, (int)c->s.unit, 0.0,
                       out + r0 * c->s.unit, (int)c->s.unit);
    }
}

/* The recurrence kernel, as the model's forward sums: per wavenumber with rows in the block
 * (shared among the threads, each with its work area) and parity, the P̄ sums of those degree
 * rows.  The Fourier rows are read as the pairs' symmetric parts (the first `pairs` rows) and
 * antisymmetric parts (the rest). */
static void vsum_recurrence(kcase *c, size_t row0, size_t rows, double *out)
{
    const pst_spec_layout *sp = &c->s.spec;
    const size_t c1 = row0 + rows;
    const int unit = (int)c->s.unit, threads = pst_threads();
    const double *F[2] = {c->s.fourier, c->s.fourier + (size_t)c->s.pairs * c->s.unit};
    int i_first = 0, i_end;
    while (sp->off[i_first + 1] <= row0) i_first++;
    for (i_end = i_first; i_end < sp->nm && sp->off[i_end] < c1; i_end++) continue;
#pragma omp parallel for schedule(dynamic) num_threads(threads) if (threads > 1)
    for (int i = i_first; i < i_end; i++) {
        pst_leg_work *w = c->s.L.work + omp_get_thread_num();
        for (int par = 0; par < 2; par++) {
            const size_t first = pst_spec_block(sp, i, par), end = first + (size_t)sp->nk[par][i];
            const int k0 = (int)((row0 > first ? row0 : first) - first), k1 = (int)((c1 < end ? c1 : end) - first);
            if (k1 > k0)
                pst_leg_analysis_rows(&c->s.L, w, PST_LEG_P, i, par, k0, k1, F[par], unit, unit, 0.0,
                                      out + (first + (size_t)k0 - row0) * c->s.unit, unit);
        }
    }
}

/* Block [lo, lo+count) of this rank's partial Legendre sums: coefficient rows x (levels x
 * fields x complex). */
static void vsum_compute(void *arg, size_t lo, size_t count, double *out)
{
    kcase *c = arg;
    size_t row0 = lo / c->s.unit, rows = count / c->s.unit;
    if (rows == 0) return;
    if (pst_skeleton()) pst_skeleton_inject(PST_STAGE_LEGENDRE, vsum_flops(c, rows));
    else if (!pst_leg_method_generates(c->s.leg)) vsum_dgemm(c, row0, rows, out);
    else vsum_recurrence(c, row0, rows, out);
}

/* The generated kernels' set-up (recurrence, simd on the best path this CPU runs): the column's wavenumbers as the
 * model lays out their coefficients, the grid's Gaussian nodes, and P̄-only recurrence data over the row's pairs with a
 * work area per thread (no tables). */
static void vsum_recurrence_create(kcase *c, const kproblem *k)
{
    const kgeom *g = &c->g;
    int *ms = pst_malloc(((size_t)k->grid.M + 1) * sizeof *ms), nm = kp_wavenumbers(k, g->px, g->x, ms);
    pst_spec_layout_init(&c->s.spec, k->grid.M, ms, nm);
    free(ms);
    if (c->s.spec.ncoef != c->s.ncoef)
        pst_fatal(PST_EXIT_FAILED, "kernel: %zu coefficients laid out, %zu sized", c->s.spec.ncoef, c->s.ncoef);
    size_t pair0, pairs;
    kp_pair_block(k, g->py, g->y, &pair0, &pairs);
    c->s.pairs = (int)pairs;
    c->s.mu = pst_malloc((size_t)k->grid.nlat * sizeof *c->s.mu);
    c->s.coslat = pst_malloc((size_t)k->grid.nlat * sizeof *c->s.coslat);
    double *w = pst_malloc((size_t)k->grid.nlat * sizeof *w);
    pst_gauss_nodes(k->grid.nlat, c->s.mu, c->s.coslat, w);
    free(w);
    pst_legendre_init_p(&c->s.L, &c->s.spec, c->s.mu + pair0, c->s.coslat + pair0, c->s.pairs, c->s.leg,
                        pst_threads());
    c->s.L.blas = c->blas;
}

static void vsum_create(kcase *c, const kproblem *k, bool partitioned, pst_leg_method leg)
{
    const kgeom *g = &c->g;
    c->s.unit = 2 * (size_t)k->levels * (size_t)k->fields;
    c->s.ncoef = (size_t)kp_ncoef(k, g->px, g->x);
    c->s.n = c->s.ncoef * c->s.unit;
    c->s.lats = kp_lats(k, g->py, g->y);
    c->s.partitioned = partitioned;
    c->s.leg = leg;
    if (pst_leg_method_generates(leg)) {
        vsum_recurrence_create(c, k);
    } else {
        c->s.legendre = pst_malloc(c->s.ncoef * (size_t)c->s.lats * sizeof(double));
        for (size_t i = 0; i < c->s.ncoef * (size_t)c->s.lats; i++)
            c->s.legendre[i] = dyadic(i, (unsigned)c->rank) / 16.0;
    }
    c->s.fourier = pst_malloc((size_t)c->s.lats * c->s.unit * sizeof(double));
    for (size_t i = 0; i < (size_t)c->s.lats * c->s.unit; i++) c->s.fourier[i] = dyadic(i + 7, (unsigned)c->rank);
    c->s.out = pst_malloc(c->s.n * sizeof(double));
    c->s.ref = pst_malloc(c->s.n * sizeof(double));
    pst_vsum_block(c->s.n, c->s.unit, c->size, c->rank, &c->s.lo, &c->s.count);
    /* Reference: the same contribution through MPI_Allreduce / MPI_Reduce_scatter. */
    vsum_compute(c, 0, c->s.n, c->s.out);
    if (partitioned) {
        int *counts = pst_malloc(c->size * sizeof(int));
        for (int q = 0; q < c->size; q++) {
            size_t lo, n;
            pst_vsum_block(c->s.n, c->s.unit, c->size, q, &lo, &n);
            counts[q] = (int)n;
        }
        MPI_Reduce_scatter(c->s.out, c->s.ref + c->s.lo, counts, MPI_DOUBLE, MPI_SUM, g->comm);
        free(counts);
    } else {
        MPI_Allreduce(c->s.out, c->s.ref, (int)c->s.n, MPI_DOUBLE, MPI_SUM, g->comm);
    }
    const size_t lo = partitioned ? c->s.lo : 0, n = partitioned ? c->s.count : c->s.n;
    for (size_t i = lo; i < lo + n; i++) c->s.scale = fmax(c->s.scale, fabs(c->s.ref[i]));
    c->bytes = (long long)(c->s.n * sizeof(double));
}

/* Each call generates every P̄ it uses, as a forward sum of the model's step does: a work area
 * keeps its last block, which the previous call left there. */
static void vsum_run(kcase *c, const kplan *pl)
{
    for (int t = 0; pst_leg_method_generates(c->s.leg) && t < c->s.L.nwork; t++) c->s.L.work[t].i = -1;
    pst_vsum_run_compute(pl->v, vsum_compute, c, c->s.out);
}

/* The rank's result (its block when partitioned): bitwise by the dgemm kernel, where every
 * partial sum of the dyadic data is exact; by the recurrence, whose values are not dyadic and
 * whose sums round differently in each split and order, to 1e-12 of the largest reference value
 * (as dfft_verify). */
static long long vsum_verify(kcase *c)
{
    const size_t lo = c->s.partitioned ? c->s.lo : 0, n = c->s.partitioned ? c->s.count : c->s.n;
    const double *out = c->s.out + lo, *ref = c->s.ref + lo;
    long long bad = 0;
    if (!pst_leg_method_generates(c->s.leg)) bad = memcmp(out, ref, n * sizeof(double)) != 0;
    else
        for (size_t i = 0; i < n; i++) bad += !(fabs(out[i] - ref[i]) <= 1e-12 * c->s.scale);
    memset(c->s.out, 0, c->s.n * sizeof(double));
    return bad;
}

/* ---- dispatch ---- */

kcase *kcase_create(pst_alg_family fam, kstage stage, const kproblem *k, const kgeom *g, bool partitioned,
                    pst_blas blas, pst_leg_method leg, pst_fft_planner *fft)
{
    kcase *c = pst_calloc(1, sizeof *c);
    c->fam = fam;
    c->blas = blas;
    c->fft = fft;
    c->g = *g;
    MPI_Comm_rank(g->comm, &c->rank);
    MPI_Comm_size(g->comm, &c->size);
    switch (fam) {
    case PST_FAMILY_TRANSPOSE: trans_create(c, stage, k); break;
    case PST_FAMILY_DFFT: dfft_create(c, k); break;
    case PST_FAMILY_VSUM: vsum_create(c, k, partitioned, leg); break;
    }
    return c;
}

kplan *kcase_plan(kcase *c, const pst_algorithm *alg, const pst_protocol *p, bool overlap)
{
    kplan *pl = pst_calloc(1, sizeof *pl);
    switch (c->fam) {
    case PST_FAMILY_TRANSPOSE:
        pl->fwd = pst_trans_create(alg, p, overlap, c->g.comm, c->t.sc, c->t.sd, c->t.rc, c->t.rd);
        pl->inv = pst_trans_create_inverse(pl->fwd);
        break;
    case PST_FAMILY_DFFT: pl->f = pst_dfft_create(p, overlap, c->g.comm, c->d.n, c->d.lines, c->d.mmax, c->fft); break;
    case PST_FAMILY_VSUM:
        pl->v = pst_vsum_create(alg, p, overlap, c->g.comm, c->s.n, c->s.unit,
                                c->s.partitioned ? PST_VSUM_PARTITIONED : PST_VSUM_REPLICATED);
        break;
    }
    return pl;
}

void kplan_free(kplan *pl)
{
    if (!pl) return;
    pst_trans_free(pl->fwd);
    pst_trans_free(pl->inv);
    pst_dfft_free(pl->f);
    pst_vsum_free(pl->v);
    free(pl);
}

void kcase_run(kcase *c, const kplan *pl)
{
    switch (c->fam) {
    case PST_FAMILY_TRANSPOSE: trans_run(c, pl); break;
    case PST_FAMILY_DFFT: dfft_run(c, pl); break;
    case PST_FAMILY_VSUM: vsum_run(c, pl); break;
    }
}

long long kcase_verify(kcase *c)
{
    switch (c->fam) {
    case PST_FAMILY_TRANSPOSE: return trans_verify(c);
    case PST_FAMILY_DFFT: return dfft_verify(c);
    case PST_FAMILY_VSUM: return vsum_verify(c);
    }
    return 0;
}

long long kcase_bytes(const kcase *c) { return c->bytes; }

void kcase_free(kcase *c)
{
    if (!c) return;
    void *bufs[] = {c->t.rlo, c->t.rn, c->t.clo, c->t.cn, c->t.sc, c->t.sd, c->t.rc, c->t.rd, c->t.a, c->t.recv, c->t.b,
                    c->t.send2, c->t.a2, c->t.ref, c->d.in, c->d.back, c->d.ref_back, c->d.coef, c->d.ref,
                    c->s.legendre, c->s.fourier, c->s.out, c->s.ref};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) free(bufs[i]);
    if (pst_leg_method_generates(c->s.leg)) {
        pst_legendre_free(&c->s.L);
        pst_spec_layout_free(&c->s.spec);
    }
    free(c->s.mu);
    free(c->s.coslat);
    free(c);
}
