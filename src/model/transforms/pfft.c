#include <complex.h> /* before fftw3.h: fftw_complex is then double complex, dfft's type */

#include "model/transforms/pfft.h"

#include "algo/dfft.h"
#include "algo/exchange.h"
#include "algo/partition.h"
#include "algo/transpose.h"
#include "core/alloc.h"
#include "core/errors.h"
#include "model/transforms/fft.h"
#include "runtime/timer.h"

#include <stdlib.h>
#include <string.h>

/* Transposes: A moves Fourier lines split by wavenumber to whole lines split by line block;
 * B moves whole grid lines split by line block to lines split by longitude.  The inverse
 * transform runs A then B, the forward one B⁻¹ then A⁻¹. */
struct pst_pfft {
    const pst_algorithm *alg;
    int P, me, M, nlon, nc, nmx;
    size_t nlon_local, lines;
    size_t *line_lo, *line_n, *lon_lo, *lon_n; /* per rank of the row */
    int **ms, *nms;                            /* per rank: its wavenumbers */
    pst_fft group, rest;                       /* FFTW on my line block, in groups of GROUP_LINES and the rest */
    int threads;                               /* share the groups (pst_pfft_create) */
    fftw_complex *whole_four;                  /* my line block, all wavenumbers [line_n[me]][nc] */
    double *whole_grid;                        /* my line block, all longitudes [line_n[me]][nlon] */
    fftw_complex *stage_a;                     /* A's receive (A⁻¹'s send) layout: [q][line_n[me]][nms[q]] */
    double *stage_b;                           /* B's send (B⁻¹'s receive) layout: [q][line_n[me]][lon_n[q]] */
    pst_trans *a, *b, *a_inv, *b_inv;
    pst_dfft *dfft;
    const pst_protocol *protocol;
    MPI_Comm row;
    pst_event_table *events;
    int comm_event;                            /* "fft_comm" in events */
    int wait_event;                            /* "fft_wait" (sync_wait), else -1 */
};


/* The line block's FFTs run in groups of this many lines, shared among the threads; the groups do
 * not depend on the thread count, so neither do the results. */
enum { GROUP_LINES = 16 };

static size_t stage_a_offset(const pst_pfft *f, int q)
{
    size_t off = 0;
    for (int k = 0; k < q; k++) off += f->line_n[f->me] * (size_t)f->nms[k];
    return off;
}

/* After A delivers q's wavenumbers of my lines: scatter them into whole lines. */
static void unpack_a(void *arg, int q)
{
    pst_pfft *f = arg;
    const fftw_complex *src = f->stage_a + stage_a_offset(f, q);
    for (size_t l = 0; l < f->line_n[f->me]; l++)
        for (int i = 0; i < f->nms[q]; i++) f->whole_four[l * f->nc + f->ms[q][i]] = src[l * f->nms[q] + i];
}

/* Before A⁻¹ sends q its wavenumbers of my lines: gather them from whole lines. */
static void pack_a(void *arg, int q)
{
    pst_pfft *f = arg;
    fftw_complex *dst = f->stage_a + stage_a_offset(f, q);
    for (size_t l = 0; l < f->line_n[f->me]; l++)
        for (int i = 0; i < f->nms[q]; i++) dst[l * f->nms[q] + i] = f->whole_four[l * f->nc + f->ms[q][i]];
}

/* Before B sends q its longitudes of my lines. */
static void pack_b(void *arg, int q)
{
    pst_pfft *f = arg;
    size_t n = f->line_n[f->me], w = f->lon_n[q];
    double *dst = f->stage_b + n * f->lon_lo[q];
    for (size_t l = 0; l < n; l++) memcpy(dst + l * w, f->whole_grid + l * f->nlon + f->lon_lo[q], w * sizeof *dst);
}

/* After B⁻¹ delivers q's longitudes of my lines. */
static void unpack_b(void *arg, int q)
{
    pst_pfft *f = arg;
    size_t n = f->line_n[f->me], w = f->lon_n[q];
    const double *src = f->stage_b + n * f->lon_lo[q];
    for (size_t l = 0; l < n; l++) memcpy(f->whole_grid + l * f->nlon + f->lon_lo[q], src + l * w, w * sizeof *src);
}

static int byte_count(size_t n, size_t elem)
{
    size_t b = n * elem;
    if (b > (size_t)0x7fffffff)
        pst_fatal(PST_EXIT_FAILED, "FFT stage transpose block of %zu bytes exceeds MPI's int counts", b);
    return (int)b;
}

static void make_transposes(pst_pfft *f, const pst_par *par)
{
    const int P = f->P, me = f->me;
    const size_t mine = f->line_n[me];
    int *sc = pst_calloc((size_t)P * 4, sizeof *sc), *sd = sc + P, *rc = sd + P, *rd = rc + P;
    for (int q = 0; q < P; q++) {                       /* A: Fourier lines → whole lines */
        sc[q] = byte_count(f->line_n[q] * (size_t)f->nmx, sizeof(fftw_complex));
        sd[q] = byte_count(f->line_lo[q] * (size_t)f->nmx, sizeof(fftw_complex));
        rc[q] = byte_count(mine * (size_t)f->nms[q], sizeof(fftw_complex));
        rd[q] = byte_count(stage_a_offset(f, q), sizeof(fftw_complex));
    }
    f->a = pst_trans_create(f->alg, par->cfg.fft_protocol, par->cfg.fft_overlap, par->row, sc, sd, rc, rd);
    for (int q = 0; q < P; q++) {                       /* B: whole grid lines → longitude blocks */
        sc[q] = byte_count(mine * f->lon_n[q], sizeof(double));
        sd[q] = byte_count(mine * f->lon_lo[q], sizeof(double));
        rc[q] = byte_count(f->line_n[q] * f->nlon_local, sizeof(double));
        rd[q] = byte_count(f->line_lo[q] * f->nlon_local, sizeof(double));
    }
    f->b = pst_trans_create(f->alg, par->cfg.fft_protocol, par->cfg.fft_overlap, par->row, sc, sd, rc, rd);
    f->a_inv = pst_trans_create_inverse(f->a);
    f->b_inv = pst_trans_create_inverse(f->b);
    free(sc);
}

/* Bytes this rank sends in one inverse plus one forward transform. */
static size_t send_bytes(const pst_pfft *f)
{
    /* dfft: log2 P stages and the conjugate SWAP, each the whole block of lines/2 complex lines. */
    if (f->dfft) {
        int stages;
        pst_pow2_floor(f->P, &stages);
        return 2 * ((size_t)stages + 1) * f->lines * f->nlon_local * sizeof(double);
    }
    return 2 * (f->lines * (size_t)f->nmx * sizeof(fftw_complex) + f->line_n[f->me] * (size_t)f->nlon * sizeof(double));
}

/* Buffered sends (0,0) keep a message's space until MPI reclaims it after delivery, which can
 * lag a whole substep behind: the stage holds room for twice its traffic while it lives, beside
 * the other stages' (pst_exchange_hold). */
static void hold_space(const pst_pfft *f, long messages)
{
    pst_exchange_hold(f->protocol, f->row, send_bytes(f), messages);
}

/* My line block's FFTs (forward: grid to Fourier), group by group. */
static void fft_block(const pst_pfft *f, bool forward)
{
    const size_t mine = f->line_n[f->me];
    const long groups = (long)((mine + GROUP_LINES - 1) / GROUP_LINES);
#pragma omp parallel for num_threads(f->threads) if (f->threads > 1)
    for (long g = 0; g < groups; g++) {
        const size_t l0 = (size_t)g * GROUP_LINES;
        const pst_fft *plan = l0 + GROUP_LINES <= mine ? &f->group : &f->rest;
        if (forward) pst_fft_forward(plan, f->whole_grid + l0 * f->nlon, f->whole_four + l0 * f->nc);
        else pst_fft_inverse(plan, f->whole_four + l0 * f->nc, f->whole_grid + l0 * f->nlon);
    }
}

pst_pfft *pst_pfft_create(const pst_par *par, int lines, int threads, pst_fft_planner *planner, pst_event_table *events)
{
    const int M = par->grid.M, nlon = par->grid.nlon;
    pst_pfft *f = pst_calloc(1, sizeof *f);
    f->alg = par->cfg.fft;
    f->P = par->cfg.PX;
    f->me = par->px;
    f->M = M;
    f->nlon = nlon;
    f->nc = nlon / 2 + 1;
    f->nmx = par->nmx;
    f->nlon_local = par->nlon;
    f->lines = (size_t)lines;
    f->protocol = par->cfg.fft_protocol;
    f->row = par->row;
    f->events = events;
    f->threads = threads > 1 ? threads : 1;
    f->comm_event = pst_event_register(events, "fft_comm");
    f->wait_event = par->cfg.sync_wait ? pst_event_register(events, "fft_wait") : -1;
    if (f->alg->family == PST_FAMILY_DFFT) {
        f->dfft = pst_dfft_create(par->cfg.fft_protocol, par->cfg.fft_overlap, par->row, nlon, lines, M, planner);
        if (pst_dfft_nm(f->dfft) != par->nmx)
            pst_fatal(PST_EXIT_FAILED, "dfft wavenumbers disagree with the decomposition");
        for (int i = 0; i < par->nmx; i++)
            if (pst_dfft_m(f->dfft, i) != par->mx[i])
                pst_fatal(PST_EXIT_FAILED, "dfft wavenumbers disagree with the decomposition");
        hold_space(f, 2);
        return f;
    }
    const int P = f->P;
    f->line_lo = pst_calloc((size_t)P * 4, sizeof *f->line_lo);
    f->line_n = f->line_lo + P;
    f->lon_lo = f->line_n + P;
    f->lon_n = f->lon_lo + P;
    f->ms = pst_calloc((size_t)P, sizeof *f->ms);
    f->nms = pst_calloc((size_t)P, sizeof *f->nms);
    for (int q = 0; q < P; q++) {
        pst_block((size_t)lines, P, q, &f->line_lo[q], &f->line_n[q]);
        pst_block((size_t)nlon, P, q, &f->lon_lo[q], &f->lon_n[q]);
        f->ms[q] = pst_calloc((size_t)M + 1, sizeof *f->ms[q]);
        f->nms[q] = pst_spectral_grid_wavenumbers(&par->grid, P, q, f->ms[q]);
    }
    size_t mine = f->line_n[f->me];
    pst_fft_init_agreed(&f->group, planner, nlon, mine >= GROUP_LINES ? GROUP_LINES : 0, par->cfg.comm);
    pst_fft_init_agreed(&f->rest, planner, nlon, (int)(mine % GROUP_LINES), par->cfg.comm);
    f->whole_four = pst_fft_alloc_complex(mine * (size_t)f->nc + 1);
    f->whole_grid = pst_fft_alloc_real(mine * (size_t)nlon + 1);
    f->stage_a = pst_fft_alloc_complex(mine * (size_t)(M + 1) + 1);
    f->stage_b = pst_fft_alloc_real(mine * (size_t)nlon + 1);
    make_transposes(f, par);
    hold_space(f, 2);
    return f;
}

void pst_pfft_inverse(pst_pfft *f, const fftw_complex *four, double *grid)
{
    double since_s;
    pst_par_comm_begin(f->events, f->wait_event, f->row, &since_s);
    if (f->dfft) {
        pst_dfft_c2r(f->dfft, four, grid);
        pst_event_end(f->events, f->comm_event, &since_s);
        return;
    }
    size_t mine = f->line_n[f->me];
    /* Wavenumbers above M are zero (FFTW's c2r uses its input as scratch). */
    for (size_t l = 0; l < mine; l++)
        memset(f->whole_four + l * f->nc + f->M + 1, 0, (size_t)(f->nc - f->M - 1) * sizeof(fftw_complex));
    pst_trans_run(f->a, four, f->stage_a, &(pst_trans_hooks){.unpack = unpack_a, .arg = f});
    pst_event_end(f->events, f->comm_event, &since_s);
    fft_block(f, false); /* the FFT itself: not the algorithm's */
    pst_par_comm_begin(f->events, f->wait_event, f->row, &since_s);
    pst_trans_run(f->b, f->stage_b, grid, &(pst_trans_hooks){.pack = pack_b, .arg = f});
    pst_event_end(f->events, f->comm_event, &since_s);
}

void pst_pfft_forward(pst_pfft *f, const double *grid, fftw_complex *four)
{
    double since_s;
    pst_par_comm_begin(f->events, f->wait_event, f->row, &since_s);
    if (f->dfft) {
        pst_dfft_r2c(f->dfft, grid, four);
        pst_event_end(f->events, f->comm_event, &since_s);
        return;
    }
    pst_trans_run(f->b_inv, grid, f->stage_b, &(pst_trans_hooks){.unpack = unpack_b, .arg = f});
    pst_event_end(f->events, f->comm_event, &since_s);
    fft_block(f, true);
    pst_par_comm_begin(f->events, f->wait_event, f->row, &since_s);
    pst_trans_run(f->a_inv, f->stage_a, four, &(pst_trans_hooks){.pack = pack_a, .arg = f});
    pst_event_end(f->events, f->comm_event, &since_s);
}

void pst_pfft_free(pst_pfft *f)
{
    if (!f) return;
    hold_space(f, -2);
    if (f->dfft) {
        pst_dfft_free(f->dfft);
    } else {
        pst_trans_free(f->a);
        pst_trans_free(f->b);
        pst_trans_free(f->a_inv);
        pst_trans_free(f->b_inv);
        if (f->line_n[f->me] >= GROUP_LINES) pst_fft_free(&f->group);
        if (f->line_n[f->me] % GROUP_LINES) pst_fft_free(&f->rest);
        for (int q = 0; q < f->P; q++) free(f->ms[q]);
        free(f->ms);
        free(f->nms);
        free(f->line_lo);
        fftw_free(f->whole_four);
        fftw_free(f->whole_grid);
        fftw_free(f->stage_a);
        fftw_free(f->stage_b);
    }
    free(f);
}
