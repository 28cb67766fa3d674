/* The time step's memory estimate against what its set-up allocates (src/model/stages/layout.c).
 *
 * This test is linked with the project's calls to malloc, calloc, realloc, free and FFTW's
 * allocator wrapped (tests/cmake/unit.cmake), so it sees every byte the project's code holds,
 * and none of what the libraries (FFTW's plans, MPI) allocate for themselves.  For several
 * configurations, the bytes pst_dyn_init leaves allocated must equal pst_dyn_memory_bytes
 * exactly (an allocation outside the layout table, or a row sized apart from its allocation,
 * fails it), and pst_dyn_free must return all of them.  Also the --trunc limit drawn from the
 * estimate (pst_dyn_max_trunc). */
#include "check.h"
#include "model/stages/dynamics.h"
#include "model/model.h"

#include <cblas.h>
#include <fftw3.h>
#include <stdbool.h>
#include <stdlib.h>

/* The blocks allocated while tracking, until freed. */
enum { MAX_BLOCKS = 4096 };
static struct {
    void *p;
    size_t bytes;
} blocks[MAX_BLOCKS];
static size_t nblocks;
static double live_bytes;
static bool tracking, overflowed;

static void *remember(void *p, size_t bytes)
{
    if (!tracking || !p) return p;
    if (nblocks == MAX_BLOCKS) {
        overflowed = true;
        return p;
    }
    blocks[nblocks].p = p;
    blocks[nblocks++].bytes = bytes;
    live_bytes += (double)bytes;
    return p;
}

static void forget(void *p)
{
    for (size_t k = 0; k < nblocks; k++)
        if (blocks[k].p == p) {
            live_bytes -= (double)blocks[k].bytes;
            blocks[k] = blocks[--nblocks];
            return;
        }
}

void *__real_malloc(size_t bytes);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t bytes);
void __real_free(void *p);
double *__real_fftw_alloc_real(size_t n);
fftw_complex *__real_fftw_alloc_complex(size_t n);
void *__real_fftw_malloc(size_t bytes);
void __real_fftw_free(void *p);

void *__wrap_malloc(size_t bytes) { return remember(__real_malloc(bytes), bytes); }
void *__wrap_calloc(size_t n, size_t size) { return remember(__real_calloc(n, size), n * size); }
void *__wrap_realloc(void *p, size_t bytes)
{
    forget(p);
    return remember(__real_realloc(p, bytes), bytes);
}
void __wrap_free(void *p)
{
    forget(p);
    __real_free(p);
}
double *__wrap_fftw_alloc_real(size_t n) { return remember(__real_fftw_alloc_real(n), n * sizeof(double)); }
fftw_complex *__wrap_fftw_alloc_complex(size_t n)
{
    return remember(__real_fftw_alloc_complex(n), n * sizeof(fftw_complex));
}
void *__wrap_fftw_malloc(size_t bytes) { return remember(__real_fftw_malloc(bytes), bytes); }
void __wrap_fftw_free(void *p)
{
    forget(p);
    __real_fftw_free(p);
}

typedef struct layout_case {
    const char *name;
    pst_dyn_config cfg;
} layout_case;

static void check_case(const layout_case *c)
{
    pst_par par;
    /* An explicit decomposition, as parallel runs pass theirs: with none, pst_dyn_init makes the
     * serial one itself, which belongs to parallel.c and not to the layout. */
    pst_par_serial(&par, c->cfg.grid);
    pst_dyn_config cfg = c->cfg;
    cfg.par = &par;
    const double estimate_bytes = pst_dyn_memory_bytes(&cfg);
    pst_dyn d;
    live_bytes = 0;
    nblocks = 0;
    tracking = true;
    pst_dyn_init(&d, &cfg);
    const double allocated_bytes = live_bytes;
    pst_dyn_free(&d);
    tracking = false;
    CHECK(!overflowed);
    CHECK_CLOSE(allocated_bytes, estimate_bytes, 0, 0);
    CHECK_CLOSE(live_bytes, 0, 0, 0);
    printf("%-36s estimate %10.0f bytes, allocated %10.0f, left after free %.0f\n", c->name, estimate_bytes,
           allocated_bytes, live_bytes);
    pst_par_free(&par);
}

/* One level on one rank at truncation M on the rule's grid: what the --trunc limit weighs. */
static double one_level_bytes(int M)
{
    pst_spectral_grid g;
    CHECK(pst_spectral_grid_init(&g, M, 1, 0, 0, NULL, 0) == NULL);
    return pst_dyn_memory_bytes(&(pst_dyn_config){.grid = &g, .level_block = 1, .legendre = PST_LEG_RECURRENCE});
}

/* The limit is the largest truncation whose estimate fits (the next one's does not), the grid's
 * int bound when memory is unbounded, 0 when not even T1 fits; and its premise holds: a model
 * run's every rank also holds the serial transform and its grids, at least as large as the
 * one-rank buffers of the step with the Legendre recurrence from T85 up. */
static void check_trunc_limit(void)
{
    const double budgets_bytes[] = {1e8, 1e9, 6e9};
    for (size_t k = 0; k < sizeof budgets_bytes / sizeof budgets_bytes[0]; k++) {
        int limit = pst_dyn_max_trunc(budgets_bytes[k]);
        CHECK(limit > 0 && one_level_bytes(limit) <= budgets_bytes[k] && one_level_bytes(limit + 1) > budgets_bytes[k]);
    }
    CHECK(pst_dyn_max_trunc(1.0 / 0.0) == PST_SPECTRAL_GRID_MAX_TRUNC);
    CHECK(pst_dyn_max_trunc(1.0) == 0);
    const int truncations[] = {85, 341, 1000, pst_dyn_max_trunc(6e9)}; /* T42: 1.33 MB against the chunk's 1.41 */
    for (size_t k = 0; k < sizeof truncations / sizeof truncations[0]; k++) {
        pst_spectral_grid g;
        CHECK(pst_spectral_grid_init(&g, truncations[k], 1, 0, 0, NULL, 0) == NULL);
        pst_model_config mc = {.test_case = 2, .grid = g, .level_block = 1, .legendre = PST_LEG_RECURRENCE};
        double layout_bytes = one_level_bytes(g.M);
        CHECK(pst_model_memory_bytes(&mc) - layout_bytes >= layout_bytes);
    }
}

/* The step's FFTs planned as the set-up's (FFTW_ESTIMATE): quick, and the same plans every run. */
static pst_fft_planner estimate = {.effort = "estimate", .flags = FFTW_ESTIMATE};

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    openblas_set_num_threads(1);
    const layout_case cases[] = {
        {"T42L4 (one block, default chunk)", {.grid = &(pst_spectral_grid){42, 64, 128, 4}, .level_block = 4}},
        {"T42L16 (one block, 1-pair chunks)",
         {.grid = &(pst_spectral_grid){42, 64, 128, 16}, .level_block = 16, .pair_chunk = 1}},
        {"T21L6 (3 blocks, explicit, diffusion)",
         {.grid = &(pst_spectral_grid){21, 32, 64, 6},
          .level_block = 2,
          .pair_chunk = 2,
          .scheme = PST_SCHEME_EXPLICIT,
          .hdiff = 1e16}},
        {"T85L8 (2 blocks)", {.grid = &(pst_spectral_grid){85, 128, 256, 8}, .level_block = 4}},
        {"T21L2 (--blas auto)", {.grid = &(pst_spectral_grid){21, 32, 64, 2}, .level_block = 2, .blas_auto = true}},
        {"T85L8 (recurrence)",
         {.grid = &(pst_spectral_grid){85, 128, 256, 8}, .level_block = 4, .legendre = PST_LEG_RECURRENCE}},
        {"T341L1 (recurrence, blocks of pairs)",
         {.grid = &(pst_spectral_grid){341, 512, 1024, 1}, .level_block = 1, .legendre = PST_LEG_RECURRENCE}},
        {"T42L4 (recurrence, 3 threads)",
         {.grid = &(pst_spectral_grid){42, 64, 128, 4},
          .level_block = 4,
          .legendre = PST_LEG_RECURRENCE,
          .threads = 3}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        layout_case c = cases[k];
        c.cfg.dt_s = 600;
        c.cfg.fft = &estimate;
        check_case(&c);
    }
    check_trunc_limit();
    CHECK_MAIN_END();
}
