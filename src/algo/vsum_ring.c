/* ringsum and ringpipe (see vsum.h): a ring reduce-scatter in Q-1 SENDRECV steps (and a ring
 * allgather to replicate); ringpipe computes each block just in time. */
#include "algo/exchange.h"
#include "algo/vsum_impl.h"

static int mod(int a, int m) { return ((a % m) + m) % m; }

static void ring_allgather(pst_vsum *v, double *out)
{
    int Q = v->size, r = v->rank, side = pst_shift_side(r, Q, 1);
    for (int k = 0; k < Q - 1; k++) {
        int sb = mod(r - k, Q), rb = mod(r - k - 1, Q);
        pst_vsum_xs s = {0};
        pst_vsum_exchange(v, mod(r + 1, Q), mod(r - 1, Q), side, (Q + k) * PST_MAX_CHUNKS % PST_TAG_LIMIT,
                          v->ring_chunks, &s, out + v->lo[sb], v->count[sb] * sizeof(double), out + v->lo[rb],
                          v->count[rb] * sizeof(double));
    }
}

static void run_ringsum(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    pst_vsum_compute_all(v, compute, arg, out);
    int Q = v->size, r = v->rank, side = pst_shift_side(r, Q, 1);
    for (int k = 0; k < Q - 1; k++) {
        int sb = mod(r - k - 1, Q), rb = mod(r - k - 2, Q);
        pst_rangeset in = {0};
        pst_rangeset_add(&in, v->lo[rb], v->count[rb]);
        pst_vsum_xs s = {.recv_set = &in, .vec = out, .recv = v->scratch, .recv_op = PST_ADD};
        pst_vsum_exchange(v, mod(r + 1, Q), mod(r - 1, Q), side, k * PST_MAX_CHUNKS % PST_TAG_LIMIT, v->ring_chunks, &s,
                          out + v->lo[sb], v->count[sb] * sizeof(double), NULL, v->count[rb] * sizeof(double));
    }
    if (v->replicated) ring_allgather(v, out);
}

static void run_ringpipe(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    int Q = v->size, r = v->rank, side = pst_shift_side(r, Q, 1);
    if (Q == 1) {
        compute(arg, 0, v->n, out);
        return;
    }
    double *cur = v->work[0], *next = v->work[1];
    int b0 = mod(r - 1, Q);
    compute(arg, v->lo[b0], v->count[b0], cur);
    for (int k = 0; k < Q - 1; k++) {
        int sb = mod(r - k - 1, Q), rb = mod(r - k - 2, Q);
        double *acc = k == Q - 2 ? out + v->lo[rb] : next; /* the last block received is ours */
        pst_rangeset in = {0};
        pst_rangeset_add(&in, 0, v->count[rb]);
        pst_vsum_xs s = {.recv_set = &in, .vec = acc, .recv = v->scratch, .recv_op = PST_ADD, .compute = compute,
                .compute_arg = arg, .compute_lo = v->lo[rb], .compute_n = v->count[rb], .compute_out = acc};
        pst_vsum_exchange(v, mod(r + 1, Q), mod(r - 1, Q), side, k * PST_MAX_CHUNKS % PST_TAG_LIMIT, v->ring_chunks, &s,
                          cur, v->count[sb] * sizeof(double), NULL, v->count[rb] * sizeof(double));
        double *t = cur; cur = next; next = t;
    }
    if (v->replicated) ring_allgather(v, out);
}

/* Exchanges per run: the two ring passes, a block each. */
static void plan_ring(pst_vsum *v)
{
    pst_exchange_reserve_run(v->p, v->comm, v->count[0] * sizeof(double), 2 * (size_t)v->size);
}

const pst_vsum_ops pst_ringsum_ops = {plan_ring, run_ringsum, NULL, ring_allgather};
const pst_vsum_ops pst_ringpipe_ops = {plan_ring, run_ringpipe, NULL, ring_allgather};
