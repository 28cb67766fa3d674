/* The parallel decomposition of the model (Worley 1998 §6; Foster & Worley 1997): a logical
 * PX x PY processor grid, rank = py * PX + px.
 *
 *   physical domain   longitudes block-split over PX (pst_block of nlon), latitudes over PY in
 *                     north/south pairs (pst_block of nlat/2 pairs; pair p is latitude p and its
 *                     mirror nlat-1-p, so the even/odd Legendre symmetry stays local), all
 *                     levels and fields.
 *   Fourier domain    wavenumbers over PX, latitude pairs over PY: column px owns the
 *                     grid's wavenumbers of column px (pst_spectral_grid_wavenumbers: cyclic,
 *                     bit-reversed on a power-of-two row).
 *   spectral domain   vector-sum Legendre algorithms: all of the column's wavenumbers,
 *                     replicated over its PY ranks (each updates them redundantly, no
 *                     communication before the inverse transform); transpose algorithms: the
 *                     column's wavenumbers split over PY in blocks of pst_block's sizes, dealt
 *                     to the blocks in serpentine order (leg_mx), all latitudes local.
 *
 * The FFT stage runs across a processor row (the PX ranks sharing latitudes), the Legendre
 * stage down a processor column (the PY ranks sharing wavenumbers). */
#ifndef PST_MODEL_PARALLEL_H
#define PST_MODEL_PARALLEL_H

#include "algo/algorithm.h"
#include "comm/protocol.h"
#include "model/setup/spectral_grid.h"
#include "runtime/events.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* Whether the Legendre stage transposes (all latitudes local, wavenumbers split) rather than sums. */
static inline bool pst_par_leg_is_transpose(const pst_algorithm *a) { return a->family == PST_FAMILY_TRANSPOSE; }

typedef struct pst_par_config {
    MPI_Comm comm;                    /* PX * PY ranks */
    int PX, PY;
    const pst_algorithm *fft;         /* a transpose (around serial FFTs) or dfft (PST_ALG_STAGE_FFT) */
    const pst_algorithm *legendre;    /* a transpose or a vector sum (PST_ALG_STAGE_LEGENDRE) */
    const pst_protocol *fft_protocol, *leg_protocol;  /* ignored by coll */
    bool fft_overlap, leg_overlap;                    /* the overlap schedules (also implied by 2,x / 3,x) */
    bool leg_level_pipeline;          /* each level block's vector sum runs while the next block is
                                       * computed (pst_pleg_sum_start; pst_pleg_sum_splits) */
    bool spectral_partitioned;        /* with a vector sum that gathers: each rank updates its block of the
                                       * coefficients before the gather (else every rank updates them all) */
    bool sync_wait;                   /* a timed barrier on the row (column) before each of the stage's
                                       * communications: the wait for its slowest rank, apart from the
                                       * transfer (events fft_wait, legendre_wait) */
} pst_par_config;

/* The start of one of a stage's communications on comm: with sync_wait (wait_event >= 0), first a
 * barrier timed into wait_event, the wait for comm's slowest rank, so what the caller then times
 * from *since_s is the transfer alone. */
static inline void pst_par_comm_begin(pst_event_table *t, int wait_event, MPI_Comm comm, double *since_s)
{
    pst_event_begin(since_s);
    if (wait_event < 0) return;
    MPI_Barrier(comm);
    pst_event_end(t, wait_event, since_s);
}

/* One rank's share of the domains. */
typedef struct pst_par {
    pst_par_config cfg;
    pst_spectral_grid grid;           /* the grid it decomposes */
    int px, py;
    MPI_Comm row, col;                /* MPI_COMM_NULL when PX (PY) is 1 */
    size_t pair_lo, npairs, pairs_all; /* local latitude pairs; all of them */
    size_t lon_lo, nlon;              /* local longitudes */
    int nmx, *mx;                     /* the column's wavenumbers (Fourier domain) */
    int *leg_mx, *leg_slot;           /* the Legendre stage's order of them: mx[i] is leg_mx[leg_slot[i]] */
    int own_lo, nown;                 /* spectral wavenumbers: leg_mx[own_lo .. own_lo + nown) */
} pst_par;

/* Why a PX x PY grid with these algorithms cannot run grid g (NULL: it can).  Checked before any
 * collective so every rank refuses the same way. */
const char *pst_par_check(int PX, int PY, const pst_algorithm *fft, const pst_algorithm *leg,
                          const pst_spectral_grid *g);

/* Collective over cfg->comm (whose size must be PX * PY; checked by the caller). */
void pst_par_init(pst_par *p, const pst_par_config *cfg, const pst_spectral_grid *g);
/* The serial decomposition (1 x 1, no communicators, no MPI calls). */
void pst_par_serial(pst_par *p, const pst_spectral_grid *g);
void pst_par_free(pst_par *p);

#endif
