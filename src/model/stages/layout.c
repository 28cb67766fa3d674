#include "model/stages/layout.h"

#include "runtime/memory.h"
#include "core/alloc.h"
#include "model/stages/skeleton.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of a chunk's Fourier and grid lines (13 fields, both hemispheres) per pair and level. */
static size_t chunk_bytes_per_pair_level(int nlon)
{
    return (size_t)2 * (PST_DYN_NINV + PST_DYN_NFWD) * ((size_t)(nlon / 2 + 1) * 16 + (size_t)nlon * 8);
}

/* Levels of a block taken through FFT, products and FFT together: the largest divisor of B
 * whose lines for one pair fit in `budget` bytes (at least 1).  The Legendre dgemms run over
 * the whole block (wide products, each table read once per block); the chain runs on a slice of
 * it small enough to stay in a core's L2 cache. */
static int default_chain_levels(int B, int nlon, size_t budget)
{
    int best = 1;
    for (int c = 1; c <= B; c++)
        if (B % c == 0 && (size_t)c * chunk_bytes_per_pair_level(nlon) <= budget) best = c;
    return best;
}

/* Latitude pairs taken through the chain together: the largest divisor of npairs whose lines
 * (Bc levels) fit in `budget` bytes, so the chain does not stream whole-grid arrays through
 * memory. */
static int default_pair_chunk(int npairs, int Bc, int nlon, size_t budget)
{
    size_t per_pair = (size_t)Bc * chunk_bytes_per_pair_level(nlon);
    int best = 1;
    for (int c = 1; c <= npairs; c++)
        if (npairs % c == 0 && (size_t)c * per_pair <= budget) best = c;
    return best;
}

void pst_layout_shape(pst_dyn *d)
{
    const pst_dyn_config *cfg = &d->cfg;
    const pst_par *par = d->par;
    d->B = cfg->level_block;
    d->nblocks = cfg->grid->levels / cfg->level_block;
    d->npairs = (int)par->npairs;
    d->nlon_local = (int)par->nlon;
    d->nc = cfg->grid->nlon / 2 + 1;
    d->fstride = par->cfg.PX > 1 ? par->nmx : d->nc;
    pst_spec_layout_init(&d->spec, cfg->grid->M, par->leg_mx + par->own_lo, par->nown);
    /* The sums run over the local pairs, or over all of them after a Legendre transpose. */
    d->sum_pairs = par->cfg.PY > 1 && pst_par_leg_is_transpose(par->cfg.legendre) ? (int)par->pairs_all : d->npairs;
    d->sums_in_vsum = par->cfg.PY > 1 && par->cfg.legendre->pipelined;
    d->spectral_partitioned = par->cfg.PY > 1 && par->cfg.spectral_partitioned && pst_vsum_gathers(par->cfg.legendre);
    const int threads = cfg->threads > 1 ? cfg->threads : 1;
    d->block_threads = cfg->comm_threads ? threads : 1;
    d->nthreads = cfg->comm_threads ? 1 : threads;
    d->chunks_in_threads = d->nthreads > 1 && par->cfg.PX == 1;
    /* Across a row every chunk is a round of transposes: 4x the serial budget keeps the chunk
     * mostly cache-resident with a quarter of the messages (T85L16 on 2x1: 31 ms per step with
     * all pairs in one chunk, 22 with 2, 4, 8 or 16 pairs; serial 25.6). */
    size_t budget = (size_t)(par->cfg.PX > 1 ? 4 : 1) * 512 * 1024;
    if (cfg->pair_chunk == PST_WHOLE_CHUNK) {
        d->Bc = d->B;
        d->pair_chunk = d->npairs;
        return;
    }
    d->Bc = default_chain_levels(d->B, cfg->grid->nlon, budget);
    d->pair_chunk = cfg->pair_chunk ? cfg->pair_chunk : default_pair_chunk(d->npairs, d->Bc, cfg->grid->nlon, budget);
}

/* Who allocates a row: the table (FFTW-aligned for the buffers the stages stream through, else
 * plain), or the module named in the row (its size mirrored here, checked by the layout test). */
typedef enum alloc_kind { ALIGNED, PLAIN, HELD } alloc_kind;

/* How many arrays a row has: one, or one per level block, per thread or per other view (comm_threads)
 * behind an array of pointers. */
typedef enum copies { ONE, PER_BLOCK, PER_THREAD, PER_VIEW } copies;

typedef struct buffer_row {
    const char *name;
    size_t field;                          /* offsetof the pointer in pst_dyn (PER_BLOCK, PER_THREAD: double **) */
    alloc_kind kind;
    size_t element_bytes;
    copies copies;
    size_t (*elements)(const pst_dyn *d);  /* per array; 0: not in this configuration */
} buffer_row;



static size_t lat_count(const pst_dyn *d) { return (size_t)d->cfg.grid->nlat; }
static size_t chunk_lines(const pst_dyn *d) { return (size_t)d->pair_chunk * 2 * d->Bc; }
static size_t ncoef(const pst_dyn *d) { return d->spec.ncoef; }
static size_t block_outputs(const pst_dyn *d) { return ncoef(d) * OUT_N * d->B * 2 + 1; }
static bool column_sums(const pst_dyn *d) { return d->par->cfg.PY > 1; }
static bool gathers_column(const pst_dyn *d)
{
    return column_sums(d) && pst_par_leg_is_transpose(d->par->cfg.legendre);
}

/* Per thread: the inverse's [P̄ coefficients | H combination] of both parities, the forward's sums of
 * both parities' [P̄ inputs | H inputs] (legendre.h: pst_leg_synth_ph, pst_leg_analysis_ext). */
static size_t leg_scratch(const pst_dyn *d)
{
    return 2 * ((size_t)d->cfg.grid->M / 2 + 2) * (PST_DYN_NSPEC + 2) * d->B * 2;
}
static size_t sum_scratch(const pst_dyn *d) { return 2 * ((size_t)d->cfg.grid->M / 2 + 2) * (O_N + H_N) * d->B * 2; }
static size_t state(const pst_dyn *d) { return ncoef(d) * PST_DYN_NSTATE * d->B * 2 + 1; }
static size_t grid_old(const pst_dyn *d) { return (size_t)d->npairs * 2 * N_OLD * d->B * d->nlon_local; }
static size_t four_inv(const pst_dyn *d) { return chunk_lines(d) * PST_DYN_NINV * d->fstride; }
static size_t four_fwd(const pst_dyn *d) { return chunk_lines(d) * PST_DYN_NFWD * d->fstride; }
static size_t grid_inv(const pst_dyn *d) { return chunk_lines(d) * PST_DYN_NINV * d->nlon_local; }
static size_t grid_fwd(const pst_dyn *d) { return chunk_lines(d) * PST_DYN_NFWD * d->nlon_local; }
static size_t legbuf(const pst_dyn *d) { return (size_t)d->par->nmx * d->npairs * leg_width(d) + 1; }
static size_t legall(const pst_dyn *d)
{
    return !gathers_column(d) ? 0 : ncoef(d) ? (size_t)d->spec.nm * d->sum_pairs * leg_width(d) : 1;
}
static size_t out(const pst_dyn *d) { return block_outputs(d); }
static size_t out_next(const pst_dyn *d)
{
    return column_sums(d) && d->par->cfg.leg_level_pipeline ? block_outputs(d) : 0;
}
static size_t view_legbuf(const pst_dyn *d) { return d->block_threads > 1 ? legbuf(d) : 0; }
static size_t view_legall(const pst_dyn *d) { return d->block_threads > 1 ? legall(d) : 0; }
static size_t view_out(const pst_dyn *d) { return d->block_threads > 1 ? out(d) : 0; }
static size_t coriolis(const pst_dyn *d) { return 2 * ncoef(d) + 1; }
static size_t phis(const pst_dyn *d) { return (size_t)d->npairs * 2 * d->nlon_local; }
/* pst_spec_layout_init: m, nk[0], nk[1] ints and nm + 1 offsets; for d->spec and for the
 * Legendre tables' own layout of the same wavenumbers. */
static size_t spec_index_bytes(const pst_dyn *d)
{
    size_t nm = (size_t)d->spec.nm;
    return 3 * (nm ? nm : 1) * sizeof(int) + (nm + 1) * sizeof(size_t);
}
/* pst_legendre_init_p: the P̄ table of degrees m..M+1 over the summed pairs (the dgemm kernel, and
 * auto until its choice), or the recurrence's α, β per degree, P̄_m^m and its underflow steps per
 * wavenumber and pair, and a work area per thread (the recurrence, and auto until its choice);
 * a_n and b_n always. */
static bool tables(const pst_dyn *d) { return d->cfg.legendre_auto || pst_leg_method_tables(d->cfg.legendre); }
static bool recurrence(const pst_dyn *d) { return d->cfg.legendre_auto || pst_leg_method_generates(d->cfg.legendre); }
static size_t at_least_1(size_t n) { return n ? n : 1; }
static size_t nwork(const pst_dyn *d) { return (size_t)(d->block_threads > 1 ? d->block_threads : d->nthreads); }
static size_t legendre_table(const pst_dyn *d)
{
    return tables(d) ? at_least_1((size_t)d->sum_pairs * (ncoef(d) + (size_t)d->spec.nm)) : 0;
}
static size_t legendre_h_coefficients(const pst_dyn *d) { return 2 * at_least_1(ncoef(d)); }
static size_t legendre_recurrence(const pst_dyn *d)
{
    return recurrence(d) ? pst_legendre_recurrence_doubles(d->cfg.grid->M, ncoef(d), d->spec.nm, d->sum_pairs,
                                                           (int)nwork(d), false)
                         : 0;
}
static size_t legendre_work_areas(const pst_dyn *d) { return nwork(d) * sizeof(pst_leg_work); }

/* The arrays of a row: a thread needs its own scratch for the Legendre sums always, and its own
 * chunk buffers when the chunks are shared out among the threads. */
static int ncopies(const pst_dyn *d, const buffer_row *r)
{
    if (r->copies == PER_BLOCK) return d->nblocks;
    if (r->copies == PER_VIEW) return d->block_threads - 1;
    if (r->copies != PER_THREAD) return 1;
    if (d->block_threads > 1) return d->block_threads;
    bool chunk_buffer = r->elements != leg_scratch && r->elements != sum_scratch;
    return chunk_buffer && !d->chunks_in_threads ? 1 : d->nthreads;
}

#define ROW(f, kind, type, copies) {#f, offsetof(pst_dyn, f), kind, sizeof(type), copies, f}
static const buffer_row rows[] = {
    {"mu", offsetof(pst_dyn, mu), PLAIN, sizeof(double), ONE, lat_count},
    {"coslat", offsetof(pst_dyn, coslat), PLAIN, sizeof(double), ONE, lat_count},
    {"w", offsetof(pst_dyn, w), PLAIN, sizeof(double), ONE, lat_count},
    ROW(leg_scratch, PLAIN, double, PER_THREAD),
    ROW(sum_scratch, PLAIN, double, PER_THREAD),
    ROW(state, ALIGNED, double, PER_BLOCK),
    ROW(grid_old, ALIGNED, double, PER_BLOCK),
    ROW(four_inv, ALIGNED, fftw_complex, PER_THREAD),
    ROW(four_fwd, ALIGNED, fftw_complex, PER_THREAD),
    ROW(grid_inv, ALIGNED, double, PER_THREAD),
    ROW(grid_fwd, ALIGNED, double, PER_THREAD),
    ROW(legbuf, ALIGNED, double, ONE),
    ROW(legall, ALIGNED, double, ONE),
    ROW(out, ALIGNED, double, ONE),
    ROW(out_next, ALIGNED, double, ONE),
    ROW(view_legbuf, ALIGNED, double, PER_VIEW),
    ROW(view_legall, ALIGNED, double, PER_VIEW),
    ROW(view_out, ALIGNED, double, PER_VIEW),
    ROW(coriolis, PLAIN, double, ONE),
    ROW(phis, PLAIN, double, ONE),
    {"spectral layout (spectral.c)", 0, HELD, 1, ONE, spec_index_bytes},
    {"Legendre tables' layout (legendre.c)", 0, HELD, 1, ONE, spec_index_bytes},
    {"Legendre P table (legendre.c)", 0, HELD, sizeof(double), ONE, legendre_table},
    {"Legendre H sums' a_n, b_n (legendre.c)", 0, HELD, sizeof(double), ONE, legendre_h_coefficients},
    {"Legendre recurrence (legendre.c)", 0, HELD, sizeof(double), ONE, legendre_recurrence},
    {"Legendre work areas (legendre.c)", 0, HELD, 1, ONE, legendre_work_areas},
};
#undef ROW
enum { NROWS = sizeof rows / sizeof rows[0] };

static void **slot(pst_dyn *d, const buffer_row *r) { return (void **)((char *)d + r->field); }

/* Skeleton runs read no values: the large buffers are folded (pst_shared_alloc). */
static void *alloc_zeroed(const buffer_row *r, size_t n)
{
    if (r->kind == PLAIN) return pst_calloc(n, r->element_bytes);
    if (pst_skeleton()) return memset(pst_shared_alloc(n * r->element_bytes), 0, n * r->element_bytes);
    void *p =
        r->element_bytes == sizeof(fftw_complex) ? (void *)pst_fft_alloc_complex(n) : (void *)pst_fft_alloc_real(n);
    return memset(p, 0, n * r->element_bytes);
}

void pst_layout_alloc(pst_dyn *d)
{
    for (const buffer_row *r = rows; r < rows + NROWS; r++) {
        size_t n = r->kind == HELD ? 0 : r->elements(d);
        if (n == 0) continue;
        if (r->copies == ONE) {
            *slot(d, r) = alloc_zeroed(r, n);
            continue;
        }
        const int k = ncopies(d, r);
        void **arrays = pst_malloc((size_t)k * sizeof *arrays);
        for (int b = 0; b < k; b++) arrays[b] = alloc_zeroed(r, n);
        *slot(d, r) = arrays;
    }
}

static void release(const buffer_row *r, const pst_dyn *d, void *p)
{
    if (r->kind == PLAIN) free(p);
    else if (pst_skeleton()) pst_shared_free(p, r->elements(d) * r->element_bytes);
    else fftw_free(p);
}

void pst_layout_free(pst_dyn *d)
{
    for (const buffer_row *r = rows; r < rows + NROWS; r++) {
        void **p = r->kind == HELD ? NULL : slot(d, r);
        if (!p || !*p) continue;
        if (r->copies != ONE) {
            for (int b = 0; b < ncopies(d, r); b++) release(r, d, ((void **)*p)[b]);
            free(*p);
        } else {
            release(r, d, *p);
        }
        *p = NULL;
    }
    pst_spec_layout_free(&d->spec);
}

double pst_layout_bytes(const pst_dyn *d)
{
    double bytes = 0;
    for (const buffer_row *r = rows; r < rows + NROWS; r++) {
        size_t n = r->elements(d);
        if (n == 0) continue;
        bytes += r->copies != ONE ? (double)ncopies(d, r) * ((double)n * r->element_bytes + sizeof(void *))
                                  : (double)n * r->element_bytes;
    }
    return bytes;
}

double pst_dyn_memory_bytes(const pst_dyn_config *cfg)
{
    pst_dyn d = {.cfg = *cfg};
    if (!cfg->par) pst_par_serial(&d.serial_par, cfg->grid);
    d.par = cfg->par ? cfg->par : &d.serial_par;
    pst_layout_shape(&d);
    double bytes = pst_layout_bytes(&d);
    pst_spec_layout_free(&d.spec);
    if (!cfg->par) pst_par_free(&d.serial_par);
    return bytes;
}

/* The estimate of one level on one rank at truncation M on the rule's grid, with the Legendre
 * kernel that holds least (the recurrence: a run with tables is checked whole later). */
static double one_level_bytes(int M)
{
    pst_spectral_grid g;
    pst_spectral_grid_init(&g, M, 1, 0, 0, NULL, 0); /* the rule's grid: no error to word */
    return pst_dyn_memory_bytes(&(pst_dyn_config){.grid = &g, .level_block = 1, .legendre = PST_LEG_RECURRENCE});
}

int pst_dyn_max_trunc(double memory_bytes)
{
    /* The estimate grows with M (its terms in M^3 and M^2 outweigh the chunk's choice): bisect. */
    int fits = 0, over = PST_SPECTRAL_GRID_MAX_TRUNC + 1;
    while (over - fits > 1) {
        int M = fits + (over - fits) / 2;
        if (one_level_bytes(M) <= memory_bytes) fits = M;
        else over = M;
    }
    return fits;
}

const char *pst_dyn_trunc_problem(long long M, char *err, size_t len)
{
    double ceiling_bytes = pst_memory_ceiling_bytes();
    int limit = pst_dyn_max_trunc(ceiling_bytes);
    if (M <= limit) return NULL;
    snprintf(
        err, len,
        "T%lld is over T%d, the largest truncation whose memory estimate fits this node: the time step's "
        "buffers of T%dL1 on one rank alone need %.2f GB, more than the %.2f GB a process may have here (the least of "
        "physical memory, cgroup memory.max, ulimit -v / -d)",
        M, limit, limit + 1, one_level_bytes(limit + 1) / 1e9, ceiling_bytes / 1e9);
    return err;
}
