#include "model/setup/parallel.h"

#include "algo/partition.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *pst_par_check(int PX, int PY, const pst_algorithm *fft, const pst_algorithm *leg,
                          const pst_spectral_grid *g)
{
    static char msg[256];
    int fewest_m = (g->M - (PX - 1)) / PX + 1; /* the last column's count */
    if (pst_spectral_grid_misfit(g, PX, PY, false, msg, sizeof msg)) return msg;
    if (PY > 1 && pst_par_leg_is_transpose(leg) && fewest_m < PY)
        snprintf(msg, sizeof msg,
                 "the Legendre transpose %s splits each column's wavenumbers over %d rows, but a column of T%d on %d "
                 "columns has only %d",
                 leg->name, PY, g->M, PX, fewest_m);
    else if (pst_algorithm_check(fft, PX, g->nlon, g->M))
        snprintf(msg, sizeof msg, "%s", pst_algorithm_check(fft, PX, g->nlon, g->M));
    else
        return NULL;
    return msg;
}

/* The Legendre stage's order of the column's nmx wavenumbers (ascending m) for Q ranks: slot_of[k]
 * for the k-th.  Transposes give rank q the slots of pst_block(nmx, Q, q); a wavenumber's work
 * falls with m (M + 1 - m coefficients), so contiguous blocks of m would give the first of two
 * ranks three times the second's sums.  Dealing m = 0, 1, ... to the ranks in serpentine order
 * (0, 1, .., Q-1, Q-1, .., 0, 0, 1, ..; a full rank is passed over) balances them. */
static void deal_serpentine(int nmx, int Q, int *slot_of)
{
    size_t *lo = pst_calloc((size_t)Q * 3, sizeof *lo), *count = lo + Q, *filled = count + Q;
    for (int q = 0; q < Q; q++) pst_block((size_t)nmx, Q, q, &lo[q], &count[q]);
    for (int k = 0, t = 0; k < nmx; t++) {
        int turn = t % Q, q = (t / Q) % 2 ? Q - 1 - turn : turn;
        if (filled[q] < count[q]) slot_of[k++] = (int)(lo[q] + filled[q]++);
    }
    free(lo);
}

static void common_init(pst_par *p, const pst_spectral_grid *g)
{
    int PX = p->cfg.PX, PY = p->cfg.PY;
    p->grid = *g;
    p->pairs_all = (size_t)g->nlat / 2;
    pst_block(p->pairs_all, PY, p->py, &p->pair_lo, &p->npairs);
    pst_block((size_t)g->nlon, PX, p->px, &p->lon_lo, &p->nlon);
    p->mx = pst_malloc((size_t)(g->M + 1) * sizeof *p->mx);
    p->nmx = pst_spectral_grid_wavenumbers(g, PX, p->px, p->mx);
    p->leg_mx = pst_malloc((size_t)(g->M + 1) * sizeof *p->leg_mx);
    p->leg_slot = pst_malloc((size_t)(g->M + 1) * sizeof *p->leg_slot);
    size_t lo = 0, n = (size_t)p->nmx;
    bool split = PY > 1 && pst_par_leg_is_transpose(p->cfg.legendre);
    if (split) {
        pst_block((size_t)p->nmx, PY, p->py, &lo, &n);
        deal_serpentine(p->nmx, PY, p->leg_slot);
    } else
        for (int i = 0; i < p->nmx; i++) p->leg_slot[i] = i;
    for (int i = 0; i < p->nmx; i++) p->leg_mx[p->leg_slot[i]] = p->mx[i];
    p->own_lo = (int)lo;
    p->nown = (int)n;
}

void pst_par_serial(pst_par *p, const pst_spectral_grid *g)
{
    memset(p, 0, sizeof *p);
    p->cfg = (pst_par_config){.comm = MPI_COMM_NULL,
                              .PX = 1,
                              .PY = 1,
                              .fft = pst_algorithm_collective(PST_FAMILY_TRANSPOSE),
                              .legendre = pst_algorithm_collective(PST_FAMILY_VSUM)};
    p->row = p->col = MPI_COMM_NULL;
    common_init(p, g);
}

void pst_par_init(pst_par *p, const pst_par_config *cfg, const pst_spectral_grid *g)
{
    memset(p, 0, sizeof *p);
    p->cfg = *cfg;
    int rank;
    MPI_Comm_rank(cfg->comm, &rank);
    p->px = rank % cfg->PX;
    p->py = rank / cfg->PX;
    p->row = p->col = MPI_COMM_NULL;
    if (cfg->PX > 1) MPI_Comm_split(cfg->comm, p->py, p->px, &p->row);
    if (cfg->PY > 1) MPI_Comm_split(cfg->comm, p->px, p->py, &p->col);
    common_init(p, g);
}

void pst_par_free(pst_par *p)
{
    if (p->row != MPI_COMM_NULL) MPI_Comm_free(&p->row);
    if (p->col != MPI_COMM_NULL) MPI_Comm_free(&p->col);
    free(p->mx);
    free(p->leg_mx);
    free(p->leg_slot);
    p->mx = p->leg_mx = p->leg_slot = NULL;
}
