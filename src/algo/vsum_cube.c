/* exchsum and halfsum (see vsum.h): a hypercube over the largest power of two Q' <= Q ranks,
 * each excess rank Q'+i folding its vector into rank i first and getting its result back last. */
#include "algo/exchange.h"
#include "algo/partition.h"
#include "algo/vsum_impl.h"

/* The elements owned by ranks [a, b): one range, empty when a >= b. */
static void rs_add_ranks(const pst_vsum *v, pst_rangeset *rs, int a, int b)
{
    if (b > v->size) b = v->size;
    if (a >= b) return;
    pst_rangeset_add(rs, v->lo[a], v->lo[b - 1] + v->count[b - 1] - v->lo[a]);
}

/* The elements of cube nodes [a, b) of Q' = q2: their ranks and the excess ranks folded in. */
static pst_rangeset node_set(const pst_vsum *v, int q2, int a, int b)
{
    pst_rangeset rs = {0};
    rs_add_ranks(v, &rs, a, b);
    rs_add_ranks(v, &rs, a + q2, b + q2);
    return rs;
}

static int swap_side(int me, int partner) { return me < partner ? PST_SIDE_A : PST_SIDE_B; }

enum { TAG_FOLD = 0, TAG_UNFOLD = 1, TAG_STAGE = 2 }; /* x PST_MAX_CHUNKS */

static void fold(pst_vsum *v, double *out, int q2)
{
    int r = v->rank;
    size_t bytes = v->n * sizeof(double);
    pst_rangeset all = {0};
    pst_rangeset_add(&all, 0, v->n);
    int nchunks = pst_vsum_swap_chunks(v, bytes, 0);
    if (r >= q2) {
        pst_vsum_xs s = {0};
        pst_vsum_exchange(v, r - q2, r - q2, PST_SIDE_B, TAG_FOLD * PST_MAX_CHUNKS, nchunks, &s, out, bytes, NULL, 0);
    } else if (r + q2 < v->size) {
        pst_vsum_xs s = {.recv_set = &all, .vec = out, .recv = v->scratch, .recv_op = PST_ADD};
        pst_vsum_exchange(v, r + q2, r + q2, PST_SIDE_A, TAG_FOLD * PST_MAX_CHUNKS, nchunks, &s, NULL, 0, NULL, bytes);
    }
}

/* Give each excess rank its result: the whole vector (replicated) or its block. */
static void unfold(pst_vsum *v, double *out, int q2)
{
    int r = v->rank;
    int e = r >= q2 ? r : r + q2;
    if (e >= v->size) return;
    size_t lo = v->replicated ? 0 : v->lo[e], bytes = (v->replicated ? v->n : v->count[e]) * sizeof(double);
    pst_vsum_xs s = {0};
    int nchunks = pst_vsum_swap_chunks(v, bytes, 0);
    if (r >= q2)
        pst_vsum_exchange(v, r - q2, r - q2, PST_SIDE_B, TAG_UNFOLD * PST_MAX_CHUNKS, nchunks, &s, NULL, 0, out + lo,
                          bytes);
    else pst_vsum_exchange(v, e, e, PST_SIDE_A, TAG_UNFOLD * PST_MAX_CHUNKS, nchunks, &s, out + lo, bytes, NULL, 0);
}

/* Each excess rank's block (alone) into the cube node it folds into. */
static void fold_block(pst_vsum *v, double *out, int q2)
{
    int r = v->rank, e = r >= q2 ? r : r + q2;
    if (e >= v->size) return;
    size_t bytes = v->count[e] * sizeof(double);
    pst_vsum_xs s = {0};
    int nchunks = pst_vsum_swap_chunks(v, bytes, 0);
    if (r >= q2)
        pst_vsum_exchange(v, r - q2, r - q2, PST_SIDE_B, TAG_FOLD * PST_MAX_CHUNKS, nchunks, &s, out + v->lo[e], bytes,
                          NULL, 0);
    else pst_vsum_exchange(v, e, e, PST_SIDE_A, TAG_FOLD * PST_MAX_CHUNKS, nchunks, &s, NULL, 0, out + v->lo[e], bytes);
}

/* Recursive doubling among the cube's nodes, lowest bit first: each ends with every node's
 * elements (with the excess ranks' folded in). */
static void doubling_gather(pst_vsum *v, double *out, int q2, int d)
{
    int r = v->rank;
    for (int s = 0; s < d; s++) {
        int partner = r ^ (1 << s), size = 1 << s, base = r & ~(2 * size - 1);
        int ma = base + (r & size), pa = base + (partner & size);
        pst_rangeset mine = node_set(v, q2, ma, ma + size), theirs = node_set(v, q2, pa, pa + size);
        pst_vsum_xs st = {.send_set = &mine, .recv_set = &theirs, .vec = out, .stream = v->stream, .recv = v->scratch,
                          .recv_op = PST_SCATTER};
        size_t sb = mine.total * sizeof(double), rb = theirs.total * sizeof(double);
        pst_vsum_exchange(v, partner, partner, swap_side(r, partner), (TAG_STAGE + d + s) * PST_MAX_CHUNKS,
                          pst_vsum_swap_chunks(v, sb, rb), &st, NULL, sb, NULL, rb);
    }
}

/* halfsum's gather alone: the excess ranks' blocks folded in, the doubling, the whole vector
 * back to the excess ranks. */
static void gather_cube(pst_vsum *v, double *out)
{
    int d, q2 = pst_pow2_floor(v->size, &d);
    fold_block(v, out, q2);
    if (v->rank < q2) doubling_gather(v, out, q2, d);
    unfold(v, out, q2);
}

static void run_exchsum(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    pst_vsum_compute_all(v, compute, arg, out);
    int d, q2 = pst_pow2_floor(v->size, &d), r = v->rank;
    fold(v, out, q2);
    if (r < q2) {
        pst_rangeset all = {0};
        pst_rangeset_add(&all, 0, v->n);
        size_t bytes = v->n * sizeof(double);
        for (int s = d - 1; s >= 0; s--) {
            int partner = r ^ (1 << s);
            pst_vsum_xs st = {.recv_set = &all, .vec = out, .recv = v->scratch, .recv_op = PST_ADD};
            pst_vsum_exchange(v, partner, partner, swap_side(r, partner), (TAG_STAGE + s) * PST_MAX_CHUNKS,
                              pst_vsum_swap_chunks(v, bytes, bytes), &st, out, bytes, NULL, bytes);
        }
    }
    unfold(v, out, q2);
}

static void run_halfsum(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    pst_vsum_compute_all(v, compute, arg, out);
    int d, q2 = pst_pow2_floor(v->size, &d), r = v->rank;
    fold(v, out, q2);
    if (r < q2) {
        int a = 0, b = q2; /* the cube nodes whose elements this rank is still summing */
        for (int s = d - 1; s >= 0; s--) {
            int partner = r ^ (1 << s), mid = a + (b - a) / 2;
            int ka = r < mid ? a : mid, kb = r < mid ? mid : b, pa = r < mid ? mid : a, pb = r < mid ? b : mid;
            pst_rangeset keep = node_set(v, q2, ka, kb), give = node_set(v, q2, pa, pb);
            pst_vsum_xs st = {.send_set = &give, .recv_set = &keep, .vec = out, .stream = v->stream, .recv = v->scratch,
                              .recv_op = PST_ADD};
            size_t sb = give.total * sizeof(double), rb = keep.total * sizeof(double);
            pst_vsum_exchange(v, partner, partner, swap_side(r, partner), (TAG_STAGE + s) * PST_MAX_CHUNKS,
                              pst_vsum_swap_chunks(v, sb, rb), &st, NULL, sb, NULL, rb);
            a = ka;
            b = kb;
        }
        if (v->replicated) doubling_gather(v, out, q2, d);
    }
    unfold(v, out, q2);
}

/* Exchanges per run: fold, the stages (and the gather), unfold. */
static void plan_cube(pst_vsum *v)
{
    int d;
    pst_pow2_floor(v->size, &d);
    pst_exchange_reserve_run(v->p, v->comm, v->n * sizeof(double), 2 * (size_t)d + 2);
}

const pst_vsum_ops pst_exchsum_ops = {plan_cube, run_exchsum, NULL, NULL};
const pst_vsum_ops pst_halfsum_ops = {plan_cube, run_halfsum, NULL, gather_cube};
