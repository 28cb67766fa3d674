/* The time step's buffers: their shapes (the sizes of a run and the index functions into each
 * buffer), their allocation and the memory estimate, all from one table (layout.c), so the
 * estimate cannot drift from what is allocated: tests/unit/test_model_layout.c compares it with
 * the bytes pst_dyn_init leaves allocated.  Private to the time step's files (dynamics.c, step*.c). */
#ifndef PST_MODEL_LAYOUT_H
#define PST_MODEL_LAYOUT_H

#include "model/stages/dynamics.h"

#include <stddef.h>

enum { S_ETA, S_DIV, S_PHI, S_PSI, S_CHI };       /* spectral state fields */
enum { G_U, G_V, G_ETA, G_DIV, G_PHI };           /* inverse Fourier / grid fields */
enum { Q_UETA, Q_VETA, Q_UPHI, Q_VPHI, Q_ENERGY, Q_ETA_OLD, Q_DIV_OLD, Q_PHI_OLD }; /* forward fields */
enum { N_OLD = 3 };                               /* previous-level grid fields: η, δ, Φ' */
enum { O_ETA, O_DIV, O_PHI, O_KAPPA, O_N };       /* forward Legendre sums; H sums feed the first 3 */
enum { OUT_N = 3 };                               /* ... with κ folded into δ: η, δ*, Φ* (d->out) */
enum { H_N = 3 };

/* The sizes of a run from d->cfg and d->par (B, nblocks, npairs, the chunk, the owned
 * wavenumbers' d->spec, ...), allocating none of the table's buffers. */
void pst_layout_shape(pst_dyn *d);
/* Every buffer of the table, zeroed, into d (after pst_layout_shape). */
void pst_layout_alloc(pst_dyn *d);
void pst_layout_free(pst_dyn *d);
/* Bytes of every row of the table for d's shape: the buffers pst_layout_alloc makes and the
 * arrays that the spectral layout and the Legendre tables allocate for d. */
double pst_layout_bytes(const pst_dyn *d);

/* Lines of a chunk: [pair][field][level][hemisphere], Bc levels.  The hemispheres of one field
 * and level are neighbours because the distributed FFT transforms two real lines as one complex
 * line, which is only accurate for lines of similar magnitude.  The kept previous level has the
 * same order over the block's B levels.  (static inline: the stages' inner loops call them from
 * other files.) */
static inline size_t inv_line(const pst_dyn *d, int p, int h, int f, int l)
{
    return (((size_t)p * PST_DYN_NINV + f) * d->Bc + l) * 2 + h;
}
static inline size_t fwd_line(const pst_dyn *d, int p, int h, int f, int l)
{
    return (((size_t)p * PST_DYN_NFWD + f) * d->Bc + l) * 2 + h;
}
static inline size_t old_line(const pst_dyn *d, int p, int h, int f, int l)
{
    return (((size_t)p * N_OLD + f) * d->B + l) * 2 + h;
}
/* Lines between one field and the next of the same pair, hemisphere and level in a chunk. */
static inline size_t field_lines(const pst_dyn *d) { return 2 * (size_t)d->Bc; }
/* Doubles per (wavenumber, pair) in the Legendre buffer: inverse P̄ sums of 5 fields and H sums
 * of 2, both parities; forward P̄ inputs of 4 fields and H inputs of 3, symmetric and
 * antisymmetric: 28 per level either way. */
static inline size_t leg_width(const pst_dyn *d) { return 28 * (size_t)d->B; }
/* Where a piece's parts are (doubles from its start): each parity's table block meets its P̄
 * sums and the H sums it makes side by side, so one dgemm serves both (pst_leg_synth_ph,
 * pst_leg_analysis_ext).  Inverse [xe | yo | xo | ye]: x the 5 P̄ sums of parity par, y the 2 H
 * sums; forward [sP | sH | aP | aH]: the 4 P̄ inputs and 3 H inputs, symmetric and antisymmetric. */
static inline size_t inv_x(const pst_dyn *d, int par) { return (size_t)par * (PST_DYN_NSPEC + 2) * d->B * 2; }
static inline size_t inv_y(const pst_dyn *d, int par) { return inv_x(d, 1 - par) + (size_t)PST_DYN_NSPEC * d->B * 2; }
static inline size_t fwd_p(const pst_dyn *d, int par) { return (size_t)par * (O_N + H_N) * d->B * 2; }
static inline size_t fwd_h(const pst_dyn *d, int par) { return fwd_p(d, par) + (size_t)O_N * d->B * 2; }
/* Slot i's piece of pair p in a Legendre buffer of `pairs` pairs ([m][pair][28 B]). */
static inline size_t leg_piece(const pst_dyn *d, size_t i, size_t p, size_t pairs)
{
    return (i * pairs + p) * leg_width(d);
}
/* Coefficient `coef`'s field of one level in the spectral state ([ncoef][field][B][2] per block). */
static inline double *state_at(const pst_dyn *d, int level, size_t coef, int field)
{
    return d->state[level / d->B] + coef * PST_DYN_NSTATE * d->B * 2 + ((size_t)field * d->B + level % d->B) * 2;
}

#endif
