/* --comm-threads (dynamics.h): the level blocks are shared out among the threads, and each runs
 * its blocks' whole substep, the row's transposes and the column's sums included, so that several
 * of a rank's messages are in flight at once.  Thread t > 0 works through its view: a copy of
 * the state's description whose Legendre and chunk buffers are its own (the layout's PER_VIEW and
 * PER_THREAD rows), on duplicates of the row and column communicators (so no message of one
 * thread can match another's), with its own parallel stages and timer events.  The spectral
 * state, the kept grid level, the tables and the serial FFT plans stay shared: a block belongs
 * to one thread, and the rest is only read. */
#include "model/stages/step.h"

#include "comm/protocol.h"
#include "core/alloc.h"

#include <mpi.h>
#include <stdlib.h>

static pst_par *own_communicators(const pst_par *par)
{
    pst_par *p = pst_malloc(sizeof *p);
    *p = *par;
    if (par->row != MPI_COMM_NULL) MPI_Comm_dup(par->row, &p->row);
    if (par->col != MPI_COMM_NULL) MPI_Comm_dup(par->col, &p->col);
    return p;
}

static pst_dyn *make_view(pst_dyn *d, int t)
{
    pst_dyn *v = pst_malloc(sizeof *v);
    *v = *d;
    pst_par *par = own_communicators(d->par);
    v->par = v->cfg.par = par;
    v->views = NULL;
    v->legbuf = d->view_legbuf[t - 1];
    v->legall = d->legall ? d->view_legall[t - 1] : NULL;
    v->out = d->view_out[t - 1];
    v->four_inv = d->four_inv + t;
    v->four_fwd = d->four_fwd + t;
    v->grid_inv = d->grid_inv + t;
    v->grid_fwd = d->grid_fwd + t;
    v->leg_scratch = d->leg_scratch + t;
    v->leg_work = d->leg_work + t;
    v->sum_scratch = d->sum_scratch + t;
    v->pfft_inv = v->pfft_fwd = NULL;
    v->pleg = NULL;
    if (par->cfg.PX > 1) pst_dyn_row_stage(v);
    if (par->cfg.PY > 1) pst_dyn_column_stage(v);
    return v;
}

void pst_dyn_views_create(pst_dyn *d)
{
    d->views = pst_calloc((size_t)d->block_threads - 1, sizeof *d->views);
    for (int t = 1; t < d->block_threads; t++) d->views[t - 1] = make_view(d, t);
}

/* What changes after set-up (the time step, Φ̄) and from step to step. */
void pst_dyn_views_sync(pst_dyn *d)
{
    for (int t = 1; t < d->block_threads; t++) {
        pst_dyn *v = d->views[t - 1];
        v->cfg = d->cfg;
        v->cfg.par = v->par;
        v->old_partial = d->old_partial;
        v->steps_done = d->steps_done;
    }
}

void pst_dyn_views_free(pst_dyn *d)
{
    if (!d->views) return;
    for (int t = 1; t < d->block_threads; t++) {
        pst_dyn *v = d->views[t - 1];
        pst_pfft_free(v->pfft_inv);
        pst_pfft_free(v->pfft_fwd);
        pst_pleg_free(v->pleg);
        pst_par *par = (pst_par *)v->par;
        if (par->row != MPI_COMM_NULL) {
            pst_transport_release(par->cfg.fft_protocol->transport->name, par->row);
            MPI_Comm_free(&par->row);
        }
        if (par->col != MPI_COMM_NULL) {
            pst_transport_release(par->cfg.leg_protocol->transport->name, par->col);
            MPI_Comm_free(&par->col);
        }
        free(par);
        free(v);
    }
    free(d->views);
    d->views = NULL;
}
