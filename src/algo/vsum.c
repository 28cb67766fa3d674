/* The frame every vector sum shares (see vsum.h), the exchange helpers of the message-passing
 * ones and the collective, allreduce.  Each other algorithm lives in its own file behind its
 * registry row (algorithm.h). */
#include "algo/vsum_impl.h"

#include "algo/exchange.h"
#include "algo/partition.h"
#include "core/alloc.h"
#include "core/copy_charge.h"
#include "core/errors.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The ring schedules' message tags, 2 x ranks x PST_MAX_CHUNKS, stay below the transfers' limit. */
enum { MAX_RANKS = PST_TAG_LIMIT / (2 * PST_MAX_CHUNKS) };

void pst_vsum_block(size_t n, size_t unit, int Q, int q, size_t *lo, size_t *count)
{
    pst_block(n / unit, Q, q, lo, count);
    *lo *= unit;
    *count *= unit;
}

void pst_rangeset_add(pst_rangeset *rs, size_t lo, size_t n)
{
    if (n == 0) return;
    rs->lo[rs->k] = lo;
    rs->n[rs->k++] = n;
    rs->total += n;
}

/* Bytes [off, off + bytes) of the concatenation of rs's ranges of vec <-> stream (element
 * offsets: every chunk boundary is a multiple of 8 bytes).  The op is chosen once per range, so
 * each range is one memcpy or one loop the compiler vectorizes. */
static void stream_apply(const pst_rangeset *rs, double *vec, double *stream, size_t off, size_t bytes,
                         enum pst_stream_op op)
{
    pst_copy_charge(bytes); /* a gather, scatter or sum of received partial sums: memory-bound, a copy's cost */
    size_t first = off / 8, last = (off + bytes) / 8, base = 0;
    for (int k = 0; k < rs->k; k++) {
        size_t lo = first > base ? first : base, hi = last < base + rs->n[k] ? last : base + rs->n[k];
        if (lo < hi) {
            double *restrict x = vec + rs->lo[k] + (lo - base), *restrict y = stream + lo;
            size_t n = hi - lo;
            switch (op) {
            case PST_GATHER: memcpy(y, x, n * sizeof(double)); break;
            case PST_SCATTER: memcpy(x, y, n * sizeof(double)); break;
            case PST_ADD:
                for (size_t e = 0; e < n; e++) x[e] += y[e];
                break;
            }
        }
        base += rs->n[k];
    }
}

static void xs_fill(void *arg, size_t off, size_t bytes)
{
    pst_vsum_xs *s = arg;
    if (s->send_set) stream_apply(s->send_set, s->vec, s->stream, off, bytes, PST_GATHER);
}

static void xs_middle(void *arg)
{
    pst_vsum_xs *s = arg;
    if (s->compute) s->compute(s->compute_arg, s->compute_lo, s->compute_n, s->compute_out);
}

static void xs_arrived(void *arg, size_t off, size_t bytes)
{
    pst_vsum_xs *s = arg;
    if (s->recv_set) stream_apply(s->recv_set, s->vec, s->recv, off, bytes, s->recv_op);
}

/* The transfers of one exchange, the callbacks above working on the vector meanwhile. */
void pst_vsum_exchange(pst_vsum *v, int dest, int src, int side, int tag, int nchunks, pst_vsum_xs *s,
                       const void *direct, size_t send_bytes, void *into, size_t recv_bytes)
{
    /* A set that is one range needs no stream: it goes out of, or (replacing, not adding) comes
     * straight into, the vector itself. */
    if (s->send_set && s->send_set->k == 1) {
        direct = s->vec + s->send_set->lo[0];
        s->send_set = NULL;
    }
    if (s->recv_set && s->recv_set->k == 1 && s->recv_op == PST_SCATTER) {
        into = s->vec + s->recv_set->lo[0];
        s->recv_set = NULL;
    }
    pst_exchange_ops ops = {.fill = xs_fill, .middle = xs_middle, .arrived = xs_arrived, .arg = s};
    const void *sendbuf = s->send_set ? (const void *)s->stream : direct;
    void *recvbuf = s->recv_set ? (void *)s->recv : into;
    pst_exchange(v->xfers, v->p, v->overlapped, v->comm, dest, src, side, sendbuf, send_bytes, recvbuf, recv_bytes, tag,
                 nchunks, &ops);
}

int pst_vsum_swap_chunks(const pst_vsum *v, size_t a_bytes, size_t b_bytes)
{
    return pst_exchange_chunks(v->overlapped, a_bytes > b_bytes ? a_bytes : b_bytes);
}

void pst_vsum_compute_all(const pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    for (int q = 0; q < v->size; q++) compute(arg, v->lo[q], v->count[q], out + v->lo[q]);
}

/* ---- allreduce ---- */

static void run_allreduce(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    pst_vsum_compute_all(v, compute, arg, out);
    if (v->replicated) {
        MPI_Allreduce(MPI_IN_PLACE, out, (int)v->n, MPI_DOUBLE, MPI_SUM, v->comm);
        return;
    }
    int *counts = pst_malloc((size_t)v->size * sizeof *counts);
    for (int q = 0; q < v->size; q++) counts[q] = (int)v->count[q];
    MPI_Reduce_scatter(out, v->scratch, counts, MPI_DOUBLE, MPI_SUM, v->comm);
    memcpy(out + v->lo[v->rank], v->scratch, v->count[v->rank] * sizeof(double));
    pst_copy_charge(v->count[v->rank] * sizeof(double));
    free(counts);
}

static void plan_allreduce(pst_vsum *v) { (void)v; }

const pst_vsum_ops pst_allreduce_ops = {plan_allreduce, run_allreduce, NULL, NULL};

/* ---- the frame ---- */

/* The buffers' lengths in doubles (at least one: an empty sum still gets a buffer). */
static size_t vector_doubles(const pst_vsum *v) { return v->n ? v->n : 1; }
static size_t work_doubles(const pst_vsum *v) { return v->count[0] ? v->count[0] : 1; }

pst_vsum *pst_vsum_create(const pst_algorithm *alg, const pst_protocol *p, bool overlap, MPI_Comm comm, size_t n,
                          size_t unit, pst_vsum_result result)
{
    if (alg->family != PST_FAMILY_VSUM) pst_fatal(PST_EXIT_FAILED, "%s is not a vector sum", alg->name);
    if (unit == 0 || n % unit) pst_fatal(PST_EXIT_FAILED, "vector sum: unit %zu does not divide n = %zu", unit, n);
    if (n > INT_MAX / sizeof(double))
        pst_fatal(PST_EXIT_FAILED, "vector sum: n = %zu doubles exceeds the int byte limit", n);
    if (!alg->collective && !p) pst_fatal(PST_EXIT_FAILED, "vector sum %s needs a protocol", alg->name);
    if (pst_algorithm_unavailable(alg))
        pst_fatal(PST_EXIT_FAILED, "vector sum %s %s", alg->name, pst_algorithm_unavailable(alg));
    pst_vsum *v = pst_calloc(1, sizeof *v);
    *v = (pst_vsum){.alg = alg,
                    .p = p,
                    .overlapped = pst_overlapped(p, overlap),
                    .replicated = result == PST_VSUM_REPLICATED,
                    .comm = comm,
                    .n = n,
                    .unit = unit,
                    .xfers = pst_xfer_set_new()};
    MPI_Comm_rank(comm, &v->rank);
    MPI_Comm_size(comm, &v->size);
    if (v->size > MAX_RANKS)
        pst_fatal(PST_EXIT_FAILED, "vector sum over %d ranks: at most %d supported (message tags)", v->size, MAX_RANKS);
    v->lo = pst_malloc((size_t)v->size * sizeof *v->lo);
    v->count = pst_malloc((size_t)v->size * sizeof *v->count);
    for (int q = 0; q < v->size; q++) pst_vsum_block(n, unit, v->size, q, &v->lo[q], &v->count[q]);
    v->ring_chunks = pst_exchange_chunks(v->overlapped, n / (size_t)v->size * sizeof(double));
    v->scratch = pst_work_alloc(vector_doubles(v) * sizeof(double));
    v->stream = pst_work_alloc(vector_doubles(v) * sizeof(double));
    for (int k = 0; k < 2; k++) v->work[k] = pst_work_alloc(work_doubles(v) * sizeof(double));
    alg->vsum->plan(v);
    return v;
}

bool pst_vsum_gathers(const pst_algorithm *alg) { return alg->vsum && alg->vsum->gather; }

void pst_vsum_gather(pst_vsum *v, double *out)
{
    if (!v->alg->vsum->gather) pst_fatal(PST_EXIT_FAILED, "vector sum %s has no gather of its own", v->alg->name);
    v->alg->vsum->gather(v, out);
}

void pst_vsum_run_compute(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    v->alg->vsum->run(v, compute, arg, out);
}

static void copy_in(void *arg, size_t lo, size_t count, double *out)
{
    const double *in = arg;
    if (in + lo != out) memcpy(out, in + lo, count * sizeof(double));
}

void pst_vsum_run(pst_vsum *v, const double *in, double *out)
{
    pst_vsum_run_compute(v, copy_in, (void *)in, out);
}

void pst_vsum_free(pst_vsum *v)
{
    if (!v) return;
    if (v->alg->vsum->free) v->alg->vsum->free(v->state);
    pst_xfer_set_free(v->xfers);
    pst_work_free(v->scratch, vector_doubles(v) * sizeof(double));
    pst_work_free(v->stream, vector_doubles(v) * sizeof(double));
    for (int k = 0; k < 2; k++) pst_work_free(v->work[k], work_doubles(v) * sizeof(double)); /* reads count */
    free(v->lo);
    free(v->count);
    free(v);
}
