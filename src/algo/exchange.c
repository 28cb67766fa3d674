#include "algo/exchange.h"

#include <limits.h>

int pst_exchange_chunks(bool overlapped, size_t bytes)
{
    if (!overlapped) return 1;
    size_t n = bytes / PST_CHUNK_MIN_BYTES;
    return n < 1 ? 1 : n > PST_MAX_CHUNKS ? PST_MAX_CHUNKS : (int)n;
}

void pst_chunk_range(size_t bytes, int n, int c, size_t *off, size_t *len)
{
    size_t units = bytes / 16, q = units / (size_t)n, r = units % (size_t)n, uc = (size_t)c;
    *off = 16 * (uc * q + (uc < r ? uc : r));
    *len = 16 * (q + (uc < r ? 1 : 0));
    if (c == n - 1) *len = bytes - *off; /* the tail that is not a multiple of 16 */
}

/* Partitions for a partitioned protocol's message: as many of the exchange's chunks as split it
 * into equal multiples of 16 bytes (MPI's partitions are equal; consumers work in 16-byte units),
 * else one.  Each end computes it from the message's size, so both agree. */
static int partitions(size_t bytes, int nchunks)
{
    for (int n = nchunks; n > 1; n--)
        if (bytes && bytes % (16 * (size_t)n) == 0) return n;
    return 1;
}

/* A partitioned protocol: the message is one transfer, its chunks are partitions; each is marked
 * ready once filled and consumed once in.  With one chunk the schedule is the plain one's with
 * the middle work moved while the message is in flight (it never touches the message). */
static void exchange_partitioned(pst_xfer_set *xfers, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                                 const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag,
                                 int nchunks, const pst_exchange_ops *ops)
{
    int ns = partitions(send_bytes, nchunks), nr = partitions(recv_bytes, nchunks);
    size_t slen = send_bytes / (size_t)ns, rlen = recv_bytes / (size_t)nr;
    pst_xfer x;
    pst_xfer_set_init_parts(xfers, &x, p, comm, dest, src, side, sendbuf, send_bytes, ns, recvbuf, recv_bytes, nr, tag);
    pst_xfer_post(&x);
    for (int c = 0; c < ns; c++) {
        if (ops->fill) ops->fill(ops->arg, (size_t)c * slen, slen);
        pst_xfer_send_part(&x, c);
    }
    if (ops->middle) ops->middle(ops->arg);
    for (int c = 0; c < nr; c++) {
        pst_xfer_wait_part(&x, c);
        if (ops->arrived) ops->arrived(ops->arg, (size_t)c * rlen, rlen);
    }
    pst_xfer_wait(&x);
}

void pst_exchange(pst_xfer_set *xfers, const pst_protocol *p, bool overlapped, MPI_Comm comm, int dest, int src,
                  int side, const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag,
                  int nchunks, const pst_exchange_ops *ops)
{
    if (p->partitioned) {
        exchange_partitioned(xfers, p, comm, dest, src, side, sendbuf, send_bytes, recvbuf, recv_bytes, tag, nchunks,
                             ops);
        return;
    }
    pst_xfer x[PST_MAX_CHUNKS];
    size_t soff[PST_MAX_CHUNKS], slen[PST_MAX_CHUNKS], roff[PST_MAX_CHUNKS], rlen[PST_MAX_CHUNKS];
    for (int c = 0; c < nchunks; c++) {
        pst_chunk_range(send_bytes, nchunks, c, &soff[c], &slen[c]);
        pst_chunk_range(recv_bytes, nchunks, c, &roff[c], &rlen[c]);
        pst_xfer_set_init(xfers, &x[c], p, comm, dest, src, side, (const char *)sendbuf + soff[c], slen[c],
                          (char *)recvbuf + roff[c], rlen[c], tag + c);
    }
    if (overlapped) { /* the batch order of pst_xfer_run, with work between the phases */
        for (int c = 0; c < nchunks; c++) pst_xfer_post(&x[c]);
        for (int c = 0; c < nchunks; c++)
            if (pst_xfer_send_early(&x[c])) {
                if (ops->fill) ops->fill(ops->arg, soff[c], slen[c]);
                pst_xfer_send(&x[c]);
            }
        if (ops->middle) ops->middle(ops->arg);
        for (int c = 0; c < nchunks; c++) {
            if (!pst_xfer_send_early(&x[c])) {
                if (ops->fill) ops->fill(ops->arg, soff[c], slen[c]);
                pst_xfer_send(&x[c]);
            }
            pst_xfer_wait(&x[c]);
            if (ops->arrived) ops->arrived(ops->arg, roff[c], rlen[c]);
        }
    } else {
        if (ops->fill) ops->fill(ops->arg, 0, send_bytes);
        pst_xfer_run(x, (size_t)nchunks);
        if (ops->middle) ops->middle(ops->arg);
        if (ops->arrived) ops->arrived(ops->arg, 0, recv_bytes);
    }
}

/* A transfer of `bytes` standing for any, to size buffered-send space by. */
static void sizing_xfer(pst_xfer *x, const pst_protocol *p, MPI_Comm comm, size_t bytes)
{
    static char dummy;
    pst_xfer_init(x, p, comm, 0, 0, PST_SIDE_A, &dummy, &dummy, bytes, 0);
}

/* Buffered-send space for n messages of up to `bytes`. */
static void reserve_buffered(const pst_protocol *p, MPI_Comm comm, size_t bytes, size_t n)
{
    pst_xfer x;
    sizing_xfer(&x, p, comm, bytes);
    pst_xfer_reserve(&x, n);
}

void pst_exchange_reserve(const pst_protocol *p, MPI_Comm comm, size_t bytes, size_t n)
{
    if (!p) return;
    pst_transport_grow(p->transport->name, comm, bytes, n);
    reserve_buffered(p, comm, bytes, n);
}

void pst_exchange_hold(const pst_protocol *p, MPI_Comm comm, size_t bytes, long n)
{
    if (!p) return;
    /* MPI attaches at most INT_MAX bytes: a hold's messages are capped at an eighth of it, so that
     * the model's three stages' holds fit together; beyond it a drain makes room mid-step. */
    if (bytes > INT_MAX / 8) bytes = INT_MAX / 8;
    /* A one-sided area needs the plan's traffic once: its exchanges end before another plan's start. */
    if (n > 0) pst_transport_grow(p->transport->name, comm, bytes, 1);
    pst_xfer x;
    sizing_xfer(&x, p, comm, bytes);
    pst_xfer_hold(&x, n);
}

void pst_exchange_reserve_run(const pst_protocol *p, MPI_Comm comm, size_t bytes, size_t exchanges)
{
    if (!p) return;
    /* In flight at once: one exchange, whole or in up to PST_MAX_CHUNKS chunks. */
    pst_transport_grow(p->transport->name, comm, bytes, PST_MAX_CHUNKS);
    /* Buffered over the run: every chunk (at most a quarter plus the 16-byte rounding; one
     * whole message is covered too) of every exchange. */
    reserve_buffered(p, comm, bytes / PST_MAX_CHUNKS + 16, PST_MAX_CHUNKS * (exchanges ? exchanges : 1));
}
