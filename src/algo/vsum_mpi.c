/* The MPI library's other ways to do the vector sum (see vsum.h and the registry rows in
 * algorithm.c): block-pipelined nonblocking (iallreduce), reduce-scatter plus allgather
 * (reduce_scatter) and persistent (allreduce_init).  A row whose MPI feature the library lacks
 * is refused before a plan is made (pst_algorithm_unavailable). */
#include "algo/vsum_impl.h"

#include "core/alloc.h"
#include "core/copy_charge.h"

#include <stdlib.h>
#include <string.h>

static int *int_counts(const pst_vsum *v, const size_t *of)
{
    int *c = pst_malloc((size_t)v->size * sizeof *c);
    for (int q = 0; q < v->size; q++) c[q] = (int)of[q];
    return c;
}

/* ---- iallreduce ---- */

#if defined(PST_HAVE_MPI_NBC)
/* Block q of the partition is computed, then summed by its own nonblocking collective while
 * block q+1 is computed: MPI_Iallreduce (replicated) or MPI_Ireduce to its owner q
 * (partitioned, a reduce-scatter block by block).  Every rank starts them in the same order. */
static void plan_iallreduce(pst_vsum *v) { v->state = pst_malloc((size_t)v->size * sizeof(MPI_Request)); }

static void run_iallreduce(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    MPI_Request *req = v->state;
    for (int q = 0; q < v->size; q++) {
        double *block = out + v->lo[q];
        int n = (int)v->count[q];
        compute(arg, v->lo[q], v->count[q], block);
        if (v->replicated)
            MPI_Iallreduce(MPI_IN_PLACE, block, n, MPI_DOUBLE, MPI_SUM, v->comm, &req[q]);
        else
            MPI_Ireduce(q == v->rank ? MPI_IN_PLACE : (const void *)block, block, n, MPI_DOUBLE, MPI_SUM, q, v->comm,
                        &req[q]);
        /* Progress for the sums in flight before the next block's computation (one MPI_Test
         * each: gcc takes MPICH's MPI_STATUSES_IGNORE for an empty array). */
        for (int k = 0; k <= q; k++) {
            int done;
            MPI_Test(&req[k], &done, MPI_STATUS_IGNORE);
        }
    }
    for (int q = 0; q < v->size; q++) MPI_Wait(&req[q], MPI_STATUS_IGNORE);
}

const pst_vsum_ops pst_iallreduce_ops = {plan_iallreduce, run_iallreduce, free, NULL};
#else
const pst_vsum_ops pst_iallreduce_ops = {NULL, NULL, NULL, NULL};
#endif

/* ---- reduce_scatter ---- */

typedef struct rs_state { int *counts, *displs; } rs_state;

static void plan_reduce_scatter(pst_vsum *v)
{
    rs_state *s = pst_malloc(sizeof *s);
    s->counts = int_counts(v, v->count);
    s->displs = int_counts(v, v->lo);
    v->state = s;
}

static void gather_reduce_scatter(pst_vsum *v, double *out)
{
    rs_state *s = v->state;
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out, s->counts, s->displs, MPI_DOUBLE, v->comm);
}

static void run_reduce_scatter(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    rs_state *s = v->state;
    pst_vsum_compute_all(v, compute, arg, out);
    MPI_Reduce_scatter(out, v->scratch, s->counts, MPI_DOUBLE, MPI_SUM, v->comm);
    memcpy(out + v->lo[v->rank], v->scratch, v->count[v->rank] * sizeof(double));
    pst_copy_charge(v->count[v->rank] * sizeof(double));
    if (v->replicated) gather_reduce_scatter(v, out);
}

static void free_reduce_scatter(void *state)
{
    rs_state *s = state;
    if (!s) return;
    free(s->counts);
    free(s->displs);
    free(s);
}

const pst_vsum_ops pst_reduce_scatter_ops = {plan_reduce_scatter, run_reduce_scatter, free_reduce_scatter,
                                              gather_reduce_scatter};

/* ---- allreduce_init ---- */

#if defined(pst_allreduce_init)
/* A persistent request is bound to its buffer (MPI-4.0 §6.13): made on the first call (which
 * every caller's warm-up covers) and made again when a call passes another buffer.  Making it is
 * collective, so every rank must change buffers at the same call, as the model, the kernel and
 * the tests do (each keeps its buffers for a plan's life). */
typedef struct pa_state {
    MPI_Request req;
    bool made;
    double *out;
    int *counts;
} pa_state;

static void plan_allreduce_init(pst_vsum *v)
{
    pa_state *s = pst_calloc(1, sizeof *s);
    s->counts = int_counts(v, v->count);
    v->state = s;
}

static void run_allreduce_init(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    pa_state *s = v->state;
    if (!s->made || s->out != out) {
        if (s->made) MPI_Request_free(&s->req);
        if (v->replicated)
            pst_allreduce_init(MPI_IN_PLACE, out, (int)v->n, MPI_DOUBLE, MPI_SUM, v->comm, MPI_INFO_NULL, &s->req);
        else
            pst_reduce_scatter_init(out, v->scratch, s->counts, MPI_DOUBLE, MPI_SUM, v->comm, MPI_INFO_NULL, &s->req);
        s->made = true;
        s->out = out;
    }
    pst_vsum_compute_all(v, compute, arg, out);
    MPI_Start(&s->req);
    MPI_Wait(&s->req, MPI_STATUS_IGNORE);
    if (v->replicated) return;
    memcpy(out + v->lo[v->rank], v->scratch, v->count[v->rank] * sizeof(double));
    pst_copy_charge(v->count[v->rank] * sizeof(double));
}

static void free_allreduce_init(void *state)
{
    pa_state *s = state;
    if (!s) return;
    if (s->made) MPI_Request_free(&s->req);
    free(s->counts);
    free(s);
}

const pst_vsum_ops pst_allreduce_init_ops = {plan_allreduce_init, run_allreduce_init, free_allreduce_init, NULL};
#else
const pst_vsum_ops pst_allreduce_init_ops = {NULL, NULL, NULL, NULL};
#endif
