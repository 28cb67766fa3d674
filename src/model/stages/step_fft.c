/* Stages 2 and 4 of the time step (step.h): a chunk's FFTs, locally (one processor column) or
 * across the row (pfft.h). */
#include "model/stages/step.h"

#include "model/stages/skeleton.h"

/* The chunk's Fourier lines to grid lines. */
void pst_step_fft_inverse(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (pst_skeleton()) { /* 5 of the 13 FFTs; the row's transposes still run, their FFTW calls untimed */
        pst_skeleton_inject(PST_STAGE_FFT,
                            pst_skeleton_chain_flops(
                                d, PST_STAGE_FFT, (double)PST_DYN_NINV / (PST_DYN_NINV + PST_DYN_NFWD), c->p1 - c->p0));
        if (d->pfft_inv) pst_pfft_inverse(d->pfft_inv, d->four_inv[c->t], d->grid_inv[c->t]);
        return;
    }
    if (d->pfft_inv) {
        pst_pfft_inverse(d->pfft_inv, d->four_inv[c->t], d->grid_inv[c->t]);
        return;
    }
    /* Wavenumbers above M are zero (c2r may have used them as scratch). */
    const int nc = d->nc;
    for (int line = 0; line < d->fft_inv.nlines; line++)
        memset(d->four_inv[c->t] + (size_t)line * nc + d->cfg.grid->M + 1, 0,
               (size_t)(nc - d->cfg.grid->M - 1) * sizeof(fftw_complex));
    pst_fft_inverse(&d->fft_inv, d->four_inv[c->t], d->grid_inv[c->t]);
}

/* The chunk's forward grid lines (products and previous level) to Fourier lines; the grid lines
 * stay intact. */
void pst_step_fft_forward(pst_dyn *d, const pst_substep *s, const pst_chunk *c)
{
    if (pst_skeleton()) { /* the other 8 */
        pst_skeleton_inject(PST_STAGE_FFT,
                            pst_skeleton_chain_flops(
                                d, PST_STAGE_FFT, (double)PST_DYN_NFWD / (PST_DYN_NINV + PST_DYN_NFWD), c->p1 - c->p0));
        if (d->pfft_fwd) pst_pfft_forward(d->pfft_fwd, d->grid_fwd[c->t], d->four_fwd[c->t]);
        return;
    }
    if (d->pfft_fwd) pst_pfft_forward(d->pfft_fwd, d->grid_fwd[c->t], d->four_fwd[c->t]);
    else pst_fft_forward(&d->fft_fwd, d->grid_fwd[c->t], d->four_fwd[c->t]);
}
