/* pstswm coll's operations: each op's buffers, inputs, call, result check and its nonblocking and
 * persistent forms, one row of the table each (coll_impl.h). */
#include "cmd/coll/coll_impl.h"

#include "cmd/common/buffer.h"
#include "core/alloc.h"
#include "runtime/mpi_features.h"
#include "runtime/payload.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* ---- payloads and checks -------------------------------------------------------------------- */

/* Reductions sum integer-valued doubles: exact in any order, so the check is exact. */
static double summand(long long i, long long k) { return (double)((i + k + 1) % 1021 + 1); }

static void fill_summands(coll_run *r, long long k)
{
    double *x = (double *)r->sbuf;
    size_t count = (size_t)r->bytes / sizeof(double);
    for (size_t i = 0; i < count; i++) x[i] = (r->me + 1) * summand((long long)i, k);
    pst_payload_poison(r->rbuf, (size_t)r->bytes);
}

static long long check_sums(const coll_run *r, long long k)
{
    const double *y = (const double *)r->rbuf, ranks = (double)r->n * (r->n + 1) / 2;
    size_t count = (size_t)r->bytes / sizeof(double);
    long long bad = 0;
    for (size_t i = 0; i < count; i++) bad += y[i] != ranks * summand((long long)i, k);
    return bad;
}

static long long check_block(const void *p, long long bytes, int sender, int msg, long long k)
{
    size_t first;
    return (long long)pst_payload_check(p, (size_t)bytes, pst_payload_seed(sender, msg, k), &first);
}

/* ---- the operations ------------------------------------------------------------------------- */

static double setup_none(coll_run *r) { return 0; }
static void fill_none(coll_run *r, long long k, int root) {}
static void call_barrier(coll_run *r, int root) { MPI_Barrier(r->comm); }
static long long check_none(const coll_run *r, long long k, int root, bool was_root) { return 0; }

static double setup_bcast(coll_run *r)
{
    r->sbuf = pst_buffer_alloc((size_t)r->bytes);
    return (double)r->bytes;
}
static void fill_bcast(coll_run *r, long long k, int root)
{
    if (r->me == root) pst_payload_fill(r->sbuf, (size_t)r->bytes, pst_payload_seed(root, 0, k));
    else pst_payload_poison(r->sbuf, (size_t)r->bytes);
}
static void call_bcast(coll_run *r, int root) { MPI_Bcast(r->sbuf, (int)r->bytes, MPI_BYTE, root, r->comm); }
static long long check_bcast(const coll_run *r, long long k, int root, bool was_root)
{
    return check_block(r->sbuf, r->bytes, root, 0, k);
}

static double setup_sum(coll_run *r)
{
    r->sbuf = pst_buffer_alloc((size_t)r->bytes);
    r->rbuf = pst_buffer_alloc((size_t)r->bytes);
    return (double)r->bytes;
}
static void fill_sum(coll_run *r, long long k, int root) { fill_summands(r, k); }
static void call_reduce(coll_run *r, int root)
{
    MPI_Reduce(r->sbuf, r->rbuf, (int)(r->bytes / 8), MPI_DOUBLE, MPI_SUM, root, r->comm);
}
static long long check_reduce(const coll_run *r, long long k, int root, bool was_root)
{
    return was_root ? check_sums(r, k) : 0;
}
static void call_allreduce(coll_run *r, int root)
{
    MPI_Allreduce(r->sbuf, r->rbuf, (int)(r->bytes / 8), MPI_DOUBLE, MPI_SUM, r->comm);
}
static long long check_allreduce(const coll_run *r, long long k, int root, bool was_root) { return check_sums(r, k); }

static double setup_allgather(coll_run *r)
{
    r->sbuf = pst_buffer_alloc((size_t)r->bytes);
    r->rbuf = pst_buffer_alloc((size_t)r->bytes * (size_t)r->n);
    return (double)r->bytes * r->n;
}
static void fill_allgather(coll_run *r, long long k, int root)
{
    pst_payload_fill(r->sbuf, (size_t)r->bytes, pst_payload_seed(r->me, 0, k));
    pst_payload_poison(r->rbuf, (size_t)r->bytes * (size_t)r->n);
}
static void call_allgather(coll_run *r, int root)
{
    MPI_Allgather(r->sbuf, (int)r->bytes, MPI_BYTE, r->rbuf, (int)r->bytes, MPI_BYTE, r->comm);
}
static long long check_allgather(const coll_run *r, long long k, int root, bool was_root)
{
    long long bad = 0;
    for (int s = 0; s < r->n; s++) bad += check_block(r->rbuf + (size_t)s * (size_t)r->bytes, r->bytes, s, 0, k);
    return bad;
}

static double setup_alltoall(coll_run *r)
{
    r->sbuf = pst_buffer_alloc((size_t)r->bytes * (size_t)r->n);
    r->rbuf = pst_buffer_alloc((size_t)r->bytes * (size_t)r->n);
    return (double)r->bytes * r->n;
}
static void fill_alltoall(coll_run *r, long long k, int root)
{
    for (int d = 0; d < r->n; d++)
        pst_payload_fill(r->sbuf + (size_t)d * (size_t)r->bytes, (size_t)r->bytes, pst_payload_seed(r->me, d, k));
    pst_payload_poison(r->rbuf, (size_t)r->bytes * (size_t)r->n);
}
static void call_alltoall(coll_run *r, int root)
{
    MPI_Alltoall(r->sbuf, (int)r->bytes, MPI_BYTE, r->rbuf, (int)r->bytes, MPI_BYTE, r->comm);
}
static long long check_alltoall(const coll_run *r, long long k, int root, bool was_root)
{
    long long bad = 0;
    for (int s = 0; s < r->n; s++) bad += check_block(r->rbuf + (size_t)s * (size_t)r->bytes, r->bytes, s, r->me, k);
    return bad;
}

/* alltoallv: block s→d holds round(2·bytes·((s+d) mod 4)/3) bytes (0, ⅔, 4/3, 2 × bytes: mean ≈
 * bytes, zero-length blocks included).  Send blocks are stored in reverse destination order, so
 * wrong displacements cannot pass the check. */
static int vblock(long long bytes, int s, int d) { return (int)((2 * bytes * ((s + d) % 4) + 1) / 3); }

static double setup_alltoallv(coll_run *r)
{
    int n = r->n;
    r->scounts = pst_malloc(4 * (size_t)n * sizeof(int));
    r->sdispls = r->scounts + n;
    r->rcounts = r->scounts + 2 * n;
    r->rdispls = r->scounts + 3 * n;
    long long sent = 0, recvd = 0, all = 0;
    for (int d = n - 1; d >= 0; d--) {
        r->scounts[d] = vblock(r->bytes, r->me, d);
        r->sdispls[d] = (int)sent;
        sent += r->scounts[d];
    }
    for (int s = 0; s < n; s++) {
        r->rcounts[s] = vblock(r->bytes, s, r->me);
        r->rdispls[s] = (int)recvd;
        recvd += r->rcounts[s];
        for (int d = 0; d < n; d++) all += vblock(r->bytes, s, d);
    }
    r->sbuf = pst_buffer_alloc((size_t)sent);
    r->rbuf = pst_buffer_alloc((size_t)recvd);
    return (double)all / n; /* S: the mean volume one rank sends */
}
static void fill_alltoallv(coll_run *r, long long k, int root)
{
    long long recvd = 0;
    for (int d = 0; d < r->n; d++) {
        pst_payload_fill(r->sbuf + r->sdispls[d], (size_t)r->scounts[d], pst_payload_seed(r->me, d, k));
        recvd += r->rcounts[d];
    }
    pst_payload_poison(r->rbuf, (size_t)recvd);
}
static void call_alltoallv(coll_run *r, int root)
{
    MPI_Alltoallv(r->sbuf, r->scounts, r->sdispls, MPI_BYTE, r->rbuf, r->rcounts, r->rdispls, MPI_BYTE, r->comm);
}
static long long check_alltoallv(const coll_run *r, long long k, int root, bool was_root)
{
    long long bad = 0;
    for (int s = 0; s < r->n; s++) bad += check_block(r->rbuf + r->rdispls[s], r->rcounts[s], s, r->me, k);
    return bad;
}

/* Fraction of alltoallv's volume that leaves the rank (nccl-tests' (n−1)/n for equal blocks). */
double pst_coll_alltoallv_moved_fraction(long long bytes, int n)
{
    double all = 0, self = 0;
    for (int s = 0; s < n; s++) {
        self += vblock(bytes, s, s);
        for (int d = 0; d < n; d++) all += vblock(bytes, s, d);
    }
    return all > 0 ? (all - self) / all : NAN;
}

/* ---- nonblocking and persistent forms, the same arguments as the calls above ----------------- */

#if defined(PST_HAVE_MPI_NBC)
static void icall_barrier(coll_run *r, int root, MPI_Request *q) { MPI_Ibarrier(r->comm, q); }
static void icall_bcast(coll_run *r, int root, MPI_Request *q)
{
    MPI_Ibcast(r->sbuf, (int)r->bytes, MPI_BYTE, root, r->comm, q);
}
static void icall_reduce(coll_run *r, int root, MPI_Request *q)
{
    MPI_Ireduce(r->sbuf, r->rbuf, (int)(r->bytes / 8), MPI_DOUBLE, MPI_SUM, root, r->comm, q);
}
static void icall_allreduce(coll_run *r, int root, MPI_Request *q)
{
    MPI_Iallreduce(r->sbuf, r->rbuf, (int)(r->bytes / 8), MPI_DOUBLE, MPI_SUM, r->comm, q);
}
static void icall_allgather(coll_run *r, int root, MPI_Request *q)
{
    MPI_Iallgather(r->sbuf, (int)r->bytes, MPI_BYTE, r->rbuf, (int)r->bytes, MPI_BYTE, r->comm, q);
}
static void icall_alltoall(coll_run *r, int root, MPI_Request *q)
{
    MPI_Ialltoall(r->sbuf, (int)r->bytes, MPI_BYTE, r->rbuf, (int)r->bytes, MPI_BYTE, r->comm, q);
}
static void icall_alltoallv(coll_run *r, int root, MPI_Request *q)
{
    MPI_Ialltoallv(r->sbuf, r->scounts, r->sdispls, MPI_BYTE, r->rbuf, r->rcounts, r->rdispls, MPI_BYTE, r->comm, q);
}
#else
#define icall_barrier NULL
#define icall_bcast NULL
#define icall_reduce NULL
#define icall_allreduce NULL
#define icall_allgather NULL
#define icall_alltoall NULL
#define icall_alltoallv NULL
#endif

#if defined(pst_alltoallv_init)
static void pinit_barrier(coll_run *r, int root, MPI_Request *q) { pst_barrier_init(r->comm, MPI_INFO_NULL, q); }
static void pinit_bcast(coll_run *r, int root, MPI_Request *q)
{
    pst_bcast_init(r->sbuf, (int)r->bytes, MPI_BYTE, root, r->comm, MPI_INFO_NULL, q);
}
static void pinit_reduce(coll_run *r, int root, MPI_Request *q)
{
    pst_reduce_init(r->sbuf, r->rbuf, (int)(r->bytes / 8), MPI_DOUBLE, MPI_SUM, root, r->comm, MPI_INFO_NULL, q);
}
static void pinit_allreduce(coll_run *r, int root, MPI_Request *q)
{
    pst_allreduce_init(r->sbuf, r->rbuf, (int)(r->bytes / 8), MPI_DOUBLE, MPI_SUM, r->comm, MPI_INFO_NULL, q);
}
static void pinit_allgather(coll_run *r, int root, MPI_Request *q)
{
    pst_allgather_init(r->sbuf, (int)r->bytes, MPI_BYTE, r->rbuf, (int)r->bytes, MPI_BYTE, r->comm, MPI_INFO_NULL, q);
}
static void pinit_alltoall(coll_run *r, int root, MPI_Request *q)
{
    pst_alltoall_init(r->sbuf, (int)r->bytes, MPI_BYTE, r->rbuf, (int)r->bytes, MPI_BYTE, r->comm, MPI_INFO_NULL, q);
}
static void pinit_alltoallv(coll_run *r, int root, MPI_Request *q)
{
    pst_alltoallv_init(r->sbuf, r->scounts, r->sdispls, MPI_BYTE, r->rbuf, r->rcounts, r->rdispls, MPI_BYTE, r->comm,
                       MPI_INFO_NULL, q);
}
#else
#define pinit_barrier NULL
#define pinit_bcast NULL
#define pinit_reduce NULL
#define pinit_allreduce NULL
#define pinit_allgather NULL
#define pinit_alltoall NULL
#define pinit_alltoallv NULL
#endif

const coll_op pst_coll_ops[] = {
    {"barrier", PST_BW_NONE, false, false, setup_none, fill_none, call_barrier, check_none, icall_barrier,
     pinit_barrier},
    {"bcast", PST_BW_ROOTED, true, false, setup_bcast, fill_bcast, call_bcast, check_bcast, icall_bcast, pinit_bcast},
    {"reduce", PST_BW_ROOTED, true, true, setup_sum, fill_sum, call_reduce, check_reduce, icall_reduce, pinit_reduce},
    {"allreduce", PST_BW_ALLREDUCE, false, true, setup_sum, fill_sum, call_allreduce, check_allreduce, icall_allreduce,
     pinit_allreduce},
    {"alltoall", PST_BW_ALLTOALL, false, false, setup_alltoall, fill_alltoall, call_alltoall, check_alltoall,
     icall_alltoall, pinit_alltoall},
    {"alltoallv", PST_BW_ALLTOALL, false, false, setup_alltoallv, fill_alltoallv, call_alltoallv, check_alltoallv,
     icall_alltoallv, pinit_alltoallv},
    {"allgather", PST_BW_ALLTOALL, false, false, setup_allgather, fill_allgather, call_allgather, check_allgather,
     icall_allgather, pinit_allgather},
};
_Static_assert(sizeof pst_coll_ops / sizeof pst_coll_ops[0] == PST_COLL_NOPS, "PST_COLL_NOPS counts the table's rows");

void pst_coll_run_free(coll_run *r)
{
    free(r->sbuf);
    free(r->rbuf);
    free(r->scounts);
    r->sbuf = r->rbuf = NULL;
    r->scounts = NULL;
}

const coll_op *pst_coll_find_op(const char *name)
{
    for (size_t i = 0; i < PST_COLL_NOPS; i++)
        if (!strcmp(pst_coll_ops[i].name, name)) return &pst_coll_ops[i];
    return NULL;
}
