/* exchsum, halfsum, ringsum, ringpipe and coll (see vsum.h). */
#include "algo/vsum.h"

#include "algo/exchange.h"
#include "algo/partition.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const alg_names[PST_VSUM_NALGS] = {"exchsum", "halfsum", "ringsum", "ringpipe", "coll"};

const char *pst_vsum_alg_name(pst_vsum_alg alg) { return alg_names[alg]; }

void pst_vsum_block(size_t n, size_t unit, int Q, int q, size_t *lo, size_t *count)
{
    pst_block(n / unit, Q, q, lo, count);
    *lo *= unit;
    *count *= unit;
}

struct pst_vsum {
    pst_vsum_alg alg;
    const pst_protocol *p;
    bool overlapped, replicated;
    MPI_Comm comm;
    int rank, size;
    size_t n, unit;
    size_t *lo, *count;   /* the partition */
    int ring_chunks;      /* agreed by all ranks: from the mean block size */
    double *scratch, *stream, *work[2];
};

/* Up to two element ranges (halfsum's rank sets with folded excess ranks). */
typedef struct rangeset { size_t lo[2], n[2]; int k; size_t total; } rangeset;

static void rs_add(rangeset *rs, size_t lo, size_t n)
{
    if (n == 0) return;
    rs->lo[rs->k] = lo;
    rs->n[rs->k++] = n;
    rs->total += n;
}

/* The elements owned by ranks [a, b): one range, empty when a >= b. */
static void rs_add_ranks(const pst_vsum *v, rangeset *rs, int a, int b)
{
    if (b > v->size) b = v->size;
    if (a >= b) return;
    rs_add(rs, v->lo[a], v->lo[b - 1] + v->count[b - 1] - v->lo[a]);
}

/* The elements of cube nodes [a, b) of Q' = q2: their ranks and the excess ranks folded in. */
static rangeset node_set(const pst_vsum *v, int q2, int a, int b)
{
    rangeset rs = {0};
    rs_add_ranks(v, &rs, a, b);
    rs_add_ranks(v, &rs, a + q2, b + q2);
    return rs;
}

enum stream_op { GATHER, SCATTER, ADD };

/* Bytes [off, off + bytes) of the concatenation of rs's ranges of vec <-> stream (element
 * offsets: every chunk boundary is a multiple of 8 bytes). */
static void stream_apply(const rangeset *rs, double *vec, double *stream, size_t off, size_t bytes, enum stream_op op)
{
    size_t first = off / 8, last = (off + bytes) / 8, base = 0;
    for (int k = 0; k < rs->k; k++) {
        size_t lo = first > base ? first : base, hi = last < base + rs->n[k] ? last : base + rs->n[k];
        for (size_t e = lo; e < hi; e++) {
            double *x = &vec[rs->lo[k] + (e - base)];
            switch (op) {
            case GATHER: stream[e] = *x; break;
            case SCATTER: *x = stream[e]; break;
            case ADD: *x += stream[e]; break;
            }
        }
        base += rs->n[k];
    }
}

/* Callback state for one exchange. */
typedef struct xs {
    const rangeset *send_set, *recv_set; /* send_set: gathered into stream (NULL: sent directly) */
    double *vec, *stream, *recv;
    enum stream_op recv_op;
    pst_vsum_compute_fn compute; /* ringpipe: the next block, while this one is in flight */
    void *compute_arg;
    size_t compute_lo, compute_n;
    double *compute_out;
} xs;

static void xs_fill(void *arg, size_t off, size_t bytes)
{
    xs *s = arg;
    if (s->send_set) stream_apply(s->send_set, s->vec, s->stream, off, bytes, GATHER);
}

static void xs_middle(void *arg)
{
    xs *s = arg;
    if (s->compute) s->compute(s->compute_arg, s->compute_lo, s->compute_n, s->compute_out);
}

static void xs_arrived(void *arg, size_t off, size_t bytes)
{
    xs *s = arg;
    if (s->recv_set) stream_apply(s->recv_set, s->vec, s->recv, off, bytes, s->recv_op);
}

/* One exchange: send send_set (gathered, or `direct` bytes from `direct`), receive recv_set's
 * size into the scratch buffer and apply op into vec (or straight into `into` when recv_set is
 * NULL). */
static void exchange(pst_vsum *v, int dest, int src, int side, int tag, int nchunks, xs *s, const void *direct,
                     size_t send_bytes, void *into, size_t recv_bytes)
{
    pst_exchange_ops ops = {.fill = xs_fill, .middle = xs_middle, .arrived = xs_arrived, .arg = s};
    const void *sendbuf = s->send_set ? (const void *)s->stream : direct;
    void *recvbuf = s->recv_set ? (void *)s->recv : into;
    pst_exchange(v->p, v->overlapped, v->comm, dest, src, side, sendbuf, send_bytes, recvbuf, recv_bytes, tag, nchunks, &ops);
}

static int swap_side(int me, int partner) { return me < partner ? PST_SIDE_A : PST_SIDE_B; }

static int swap_chunks(const pst_vsum *v, size_t a_bytes, size_t b_bytes)
{
    return pst_exchange_chunks(v->overlapped, a_bytes > b_bytes ? a_bytes : b_bytes);
}

/* ---- exchsum and halfsum: hypercube over Q' ranks with excess ranks folded in ---- */

enum { TAG_FOLD = 0, TAG_UNFOLD = 1, TAG_STAGE = 2 }; /* x PST_MAX_CHUNKS */

static void fold(pst_vsum *v, double *out, int q2)
{
    int r = v->rank;
    size_t bytes = v->n * sizeof(double);
    rangeset all = {0};
    rs_add(&all, 0, v->n);
    if (r >= q2) {
        xs s = {0};
        exchange(v, r - q2, r - q2, PST_SIDE_B, TAG_FOLD * PST_MAX_CHUNKS, swap_chunks(v, bytes, 0), &s, out, bytes, NULL, 0);
    } else if (r + q2 < v->size) {
        xs s = {.recv_set = &all, .vec = out, .recv = v->scratch, .recv_op = ADD};
        exchange(v, r + q2, r + q2, PST_SIDE_A, TAG_FOLD * PST_MAX_CHUNKS, swap_chunks(v, bytes, 0), &s, NULL, 0, NULL, bytes);
    }
}

/* Give each excess rank its result: the whole vector (replicated) or its block. */
static void unfold(pst_vsum *v, double *out, int q2)
{
    int r = v->rank;
    int e = r >= q2 ? r : r + q2;
    if (e >= v->size) return;
    size_t lo = v->replicated ? 0 : v->lo[e], bytes = (v->replicated ? v->n : v->count[e]) * sizeof(double);
    xs s = {0};
    if (r >= q2) exchange(v, r - q2, r - q2, PST_SIDE_B, TAG_UNFOLD * PST_MAX_CHUNKS, swap_chunks(v, bytes, 0), &s, NULL, 0, out + lo, bytes);
    else exchange(v, e, e, PST_SIDE_A, TAG_UNFOLD * PST_MAX_CHUNKS, swap_chunks(v, bytes, 0), &s, out + lo, bytes, NULL, 0);
}

static void exchsum(pst_vsum *v, double *out)
{
    int d, q2 = pst_pow2_floor(v->size, &d), r = v->rank;
    fold(v, out, q2);
    if (r < q2) {
        rangeset all = {0};
        rs_add(&all, 0, v->n);
        size_t bytes = v->n * sizeof(double);
        for (int s = d - 1; s >= 0; s--) {
            int partner = r ^ (1 << s);
            xs st = {.recv_set = &all, .vec = out, .recv = v->scratch, .recv_op = ADD};
            exchange(v, partner, partner, swap_side(r, partner), (TAG_STAGE + s) * PST_MAX_CHUNKS,
                     swap_chunks(v, bytes, bytes), &st, out, bytes, NULL, bytes);
        }
    }
    unfold(v, out, q2);
}

static void halfsum(pst_vsum *v, double *out)
{
    int d, q2 = pst_pow2_floor(v->size, &d), r = v->rank;
    fold(v, out, q2);
    if (r < q2) {
        int a = 0, b = q2; /* the cube nodes whose elements this rank is still summing */
        for (int s = d - 1; s >= 0; s--) {
            int partner = r ^ (1 << s), mid = a + (b - a) / 2;
            int ka = r < mid ? a : mid, kb = r < mid ? mid : b, pa = r < mid ? mid : a, pb = r < mid ? b : mid;
            rangeset keep = node_set(v, q2, ka, kb), give = node_set(v, q2, pa, pb);
            xs st = {.send_set = &give, .recv_set = &keep, .vec = out, .stream = v->stream, .recv = v->scratch, .recv_op = ADD};
            size_t sb = give.total * sizeof(double), rb = keep.total * sizeof(double);
            exchange(v, partner, partner, swap_side(r, partner), (TAG_STAGE + s) * PST_MAX_CHUNKS, swap_chunks(v, sb, rb),
                     &st, NULL, sb, NULL, rb);
            a = ka;
            b = kb;
        }
        if (v->replicated) /* recursive doubling gather, lowest bit first */
            for (int s = 0; s < d; s++) {
                int partner = r ^ (1 << s), size = 1 << s, base = r & ~(2 * size - 1);
                int ma = base + (r & size), pa = base + (partner & size);
                rangeset mine = node_set(v, q2, ma, ma + size), theirs = node_set(v, q2, pa, pa + size);
                xs st = {.send_set = &mine, .recv_set = &theirs, .vec = out, .stream = v->stream, .recv = v->scratch, .recv_op = SCATTER};
                size_t sb = mine.total * sizeof(double), rb = theirs.total * sizeof(double);
                exchange(v, partner, partner, swap_side(r, partner), (TAG_STAGE + d + s) * PST_MAX_CHUNKS,
                         swap_chunks(v, sb, rb), &st, NULL, sb, NULL, rb);
            }
    }
    unfold(v, out, q2);
}

/* ---- ringsum and ringpipe ---- */

static int mod(int a, int m) { return ((a % m) + m) % m; }

static void ring_allgather(pst_vsum *v, double *out)
{
    int Q = v->size, r = v->rank, side = pst_shift_side(r, Q, 1);
    for (int k = 0; k < Q - 1; k++) {
        int sb = mod(r - k, Q), rb = mod(r - k - 1, Q);
        xs s = {0};
        exchange(v, mod(r + 1, Q), mod(r - 1, Q), side, (Q + k) * PST_MAX_CHUNKS % 16384, v->ring_chunks, &s,
                 out + v->lo[sb], v->count[sb] * sizeof(double), out + v->lo[rb], v->count[rb] * sizeof(double));
    }
}

static void ringsum(pst_vsum *v, double *out)
{
    int Q = v->size, r = v->rank, side = pst_shift_side(r, Q, 1);
    for (int k = 0; k < Q - 1; k++) {
        int sb = mod(r - k - 1, Q), rb = mod(r - k - 2, Q);
        rangeset in = {0};
        rs_add(&in, v->lo[rb], v->count[rb]);
        xs s = {.recv_set = &in, .vec = out, .recv = v->scratch, .recv_op = ADD};
        exchange(v, mod(r + 1, Q), mod(r - 1, Q), side, k * PST_MAX_CHUNKS % 16384, v->ring_chunks, &s,
                 out + v->lo[sb], v->count[sb] * sizeof(double), NULL, v->count[rb] * sizeof(double));
    }
    if (v->replicated) ring_allgather(v, out);
}

static void ringpipe(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
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
        rangeset in = {0};
        rs_add(&in, 0, v->count[rb]);
        xs s = {.recv_set = &in, .vec = acc, .recv = v->scratch, .recv_op = ADD, .compute = compute,
                .compute_arg = arg, .compute_lo = v->lo[rb], .compute_n = v->count[rb], .compute_out = acc};
        exchange(v, mod(r + 1, Q), mod(r - 1, Q), side, k * PST_MAX_CHUNKS % 16384, v->ring_chunks, &s,
                 cur, v->count[sb] * sizeof(double), NULL, v->count[rb] * sizeof(double));
        double *t = cur; cur = next; next = t;
    }
    if (v->replicated) ring_allgather(v, out);
}

/* ---- coll ---- */

static void coll(pst_vsum *v, double *out)
{
    if (v->replicated) {
        MPI_Allreduce(MPI_IN_PLACE, out, (int)v->n, MPI_DOUBLE, MPI_SUM, v->comm);
        return;
    }
    int *counts = pst_malloc((size_t)v->size * sizeof *counts);
    for (int q = 0; q < v->size; q++) counts[q] = (int)v->count[q];
    MPI_Reduce_scatter(out, v->scratch, counts, MPI_DOUBLE, MPI_SUM, v->comm);
    memcpy(out + v->lo[v->rank], v->scratch, v->count[v->rank] * sizeof(double));
    free(counts);
}

/* ---- plan and run ---- */

pst_vsum *pst_vsum_create(pst_vsum_alg alg, const pst_protocol *p, bool overlap, MPI_Comm comm, size_t n, size_t unit,
                          pst_vsum_result result)
{
    if (unit == 0 || n % unit) pst_fatal(PST_EXIT_FAILED, "vector sum: unit %zu does not divide n = %zu", unit, n);
    if (n > INT_MAX / sizeof(double)) pst_fatal(PST_EXIT_FAILED, "vector sum: n = %zu doubles exceeds the int byte limit", n);
    if (alg != PST_VSUM_COLL && !p) pst_fatal(PST_EXIT_FAILED, "vector sum %s needs a protocol", alg_names[alg]);
    pst_vsum *v = pst_calloc(1, sizeof *v);
    *v = (pst_vsum){.alg = alg, .p = p, .overlapped = pst_overlapped(p, overlap), .replicated = result == PST_VSUM_REPLICATED,
                    .comm = comm, .n = n, .unit = unit};
    MPI_Comm_rank(comm, &v->rank);
    MPI_Comm_size(comm, &v->size);
    if (v->size > 2048) pst_fatal(PST_EXIT_FAILED, "vector sum over %d ranks: at most 2048 supported (message tags)", v->size);
    v->lo = pst_malloc((size_t)v->size * sizeof *v->lo);
    v->count = pst_malloc((size_t)v->size * sizeof *v->count);
    for (int q = 0; q < v->size; q++) pst_vsum_block(n, unit, v->size, q, &v->lo[q], &v->count[q]);
    v->ring_chunks = pst_exchange_chunks(v->overlapped, n / (size_t)v->size * sizeof(double));
    size_t cap = n ? n : 1;
    v->scratch = pst_malloc(cap * sizeof(double));
    v->stream = pst_malloc(cap * sizeof(double));
    for (int k = 0; k < 2; k++) v->work[k] = pst_malloc((v->count[0] ? v->count[0] : 1) * sizeof(double));
    /* Exchanges per run: fold, stages (and gather), unfold; or the two ring passes. */
    int d;
    pst_pow2_floor(v->size, &d);
    bool ring = alg == PST_RINGSUM || alg == PST_RINGPIPE;
    size_t exchanges = ring ? 2 * (size_t)v->size : 2 * (size_t)d + 2;
    pst_exchange_reserve_run(p, comm, (ring ? v->count[0] : n) * sizeof(double), exchanges);
    return v;
}

static void compute_all(const pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    for (int q = 0; q < v->size; q++) compute(arg, v->lo[q], v->count[q], out + v->lo[q]);
}

void pst_vsum_run_compute(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out)
{
    if (v->alg == PST_RINGPIPE) {
        ringpipe(v, compute, arg, out);
        return;
    }
    compute_all(v, compute, arg, out);
    switch (v->alg) {
    case PST_EXCHSUM: exchsum(v, out); break;
    case PST_HALFSUM: halfsum(v, out); break;
    case PST_RINGSUM: ringsum(v, out); break;
    case PST_VSUM_COLL: coll(v, out); break;
    default: break;
    }
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
    free(v->lo);
    free(v->count);
    free(v->scratch);
    free(v->stream);
    free(v->work[0]);
    free(v->work[1]);
    free(v);
}
