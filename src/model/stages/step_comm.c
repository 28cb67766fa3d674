/* The parallel stages' communication on d->par's communicators: the row's distributed FFT
 * (PX > 1) and the column's Legendre sums (PY > 1).  Made for the state (dynamics.c) and for each
 * thread's view (step_views.c); a file of their own so that neither calls back into the other. */
#include "model/stages/step.h"

void pst_dyn_row_stage(pst_dyn *d)
{
    const int lines = d->pair_chunk * 2 * d->Bc;
    d->pfft_inv = pst_pfft_create(d->par, lines * PST_DYN_NINV, d->nthreads, d->cfg.fft, &d->events);
    d->pfft_fwd = pst_pfft_create(d->par, lines * PST_DYN_NFWD, d->nthreads, d->cfg.fft, &d->events);
}

void pst_dyn_column_stage(pst_dyn *d)
{
    const size_t unit = (size_t)OUT_N * d->B * 2, state_unit = (size_t)PST_DYN_NSTATE * d->B * 2;
    d->pleg = pst_pleg_create(d->par, leg_width(d), d->spec.ncoef * unit, unit,
                              d->spectral_partitioned ? state_unit : 0, &d->events);
}
