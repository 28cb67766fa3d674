/* pstswm coll: collective operations against message size and communicator size (Frese & Knipp 1998 §5.2).
 *
 * For each communicator size n (the first n ranks, as a sub-communicator) and each operation and
 * size, two measurements:
 *  - Frese & Knipp 1998's loop: barrier, then each rank times a loop of `iters` back-to-back calls; the
 *    loop's time is the max over ranks of (end − start) / iters (each rank's own start after the
 *    barrier, so no global clock is needed).  --reps loops give t_min/t_med/t_mean/t_max.
 *  - per call: `iters` more calls, each after a barrier and timed alone on every rank; each rank's
 *    min/median/max over its calls show who waits (root vs leaves, imbalance).
 * Inputs are written before and results checked after every loop and every single call (a reduce
 * really sums, every alltoallv block lands where it belongs), never inside the timed region.
 * Bandwidths follow nccl-tests (cmd/busbw.h). */
#include "cmd/buffer.h"
#include "cmd/busbw.h"
#include "cmd/coll_impl.h"
#include "cmd/frame.h"
#include "cmd/records.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "run/alloc_state.h"
#include "run/compare.h"
#include "run/context.h"
#include "run/emit.h"
#include "run/idle.h"
#include "run/mpi_features.h"
#include "run/payload.h"
#include "run/run_schema.h"
#include "run/timer.h"
#include "run/watchdog.h"
#include "stats/stats.h"
#include "stats/verdict.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest buffer of one rank (bytes · comm size for allgather/alltoall). */
enum { MAX_TOTAL = 1 << 30 };
/* Auto iteration count: one timed loop lasts about this long, with 10 ... 1000 calls. */
static const double TARGET_LOOP_S = 2e-3;



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
static double alltoallv_moved_fraction(long long bytes, int n)
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
static void icall_bcast(coll_run *r, int root, MPI_Request *q) { MPI_Ibcast(r->sbuf, (int)r->bytes, MPI_BYTE, root, r->comm, q); }
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

static const coll_op ops[] = {
    {"barrier", PST_BW_NONE, false, false, setup_none, fill_none, call_barrier, check_none, icall_barrier, pinit_barrier},
    {"bcast", PST_BW_ROOTED, true, false, setup_bcast, fill_bcast, call_bcast, check_bcast, icall_bcast, pinit_bcast},
    {"reduce", PST_BW_ROOTED, true, true, setup_sum, fill_sum, call_reduce, check_reduce, icall_reduce, pinit_reduce},
    {"allreduce", PST_BW_ALLREDUCE, false, true, setup_sum, fill_sum, call_allreduce, check_allreduce, icall_allreduce,
     pinit_allreduce},
    {"alltoall", PST_BW_ALLTOALL, false, false, setup_alltoall, fill_alltoall, call_alltoall, check_alltoall, icall_alltoall,
     pinit_alltoall},
    {"alltoallv", PST_BW_ALLTOALL, false, false, setup_alltoallv, fill_alltoallv, call_alltoallv, check_alltoallv,
     icall_alltoallv, pinit_alltoallv},
    {"allgather", PST_BW_ALLTOALL, false, false, setup_allgather, fill_allgather, call_allgather, check_allgather,
     icall_allgather, pinit_allgather},
};
enum { NOPS = sizeof ops / sizeof ops[0] };

static void run_free(coll_run *r)
{
    free(r->sbuf);
    free(r->rbuf);
    free(r->scounts);
    r->sbuf = r->rbuf = NULL;
    r->scounts = NULL;
}

static const coll_op *find_op(const char *name)
{
    for (size_t i = 0; i < NOPS; i++)
        if (!strcmp(ops[i].name, name)) return &ops[i];
    return NULL;
}

/* ---- measurement ---------------------------------------------------------------------------- */





/* One comparison: the ops of one (comm size, size), each with its own buffers, their Frese & Knipp (1998)
 * loops in interleaved rounds.  An op's first turn warms it up and sizes its loop; later turns
 * re-warm it with one call.  Inputs are written before and results checked after each loop. */
typedef struct coll_set {
    const coll_cfg *cfg;
    const coll_op **ops;
    coll_run *runs;          /* [op]; comm MPI_COMM_NULL on ranks outside */
    long long *iters, *corrupted;
} coll_set;

static double coll_turn(void *arg, size_t oi, size_t round)
{
    coll_set *S = arg;
    const coll_cfg *cfg = S->cfg;
    coll_run *r = &S->runs[oi];
    const coll_op *op = S->ops[oi];
    if (r->comm == MPI_COMM_NULL) return 0;
    const bool verify = !cfg->ctx.no_verify;
    if (round == 0) {
        long long w = cfg->warmup > 0 || S->iters[oi] > 0 ? cfg->warmup : 1;
        op->fill(r, -1, root_of(cfg, 0, r->n));
        MPI_Barrier(r->comm);
        double t0 = pst_now_s();
        for (long long i = 0; i < w; i++) op->call(r, root_of(cfg, i, r->n));
        double warm_s = pst_now_s() - t0, per_s;
        if (S->iters[oi] == 0) {
            MPI_Allreduce(&warm_s, &per_s, 1, MPI_DOUBLE, MPI_MAX, r->comm);
            S->iters[oi] = pst_iters_for(per_s / (double)w, TARGET_LOOP_S, 10, 1000);
        }
    } else {
        op->call(r, root_of(cfg, 0, r->n));
    }
    long long iters = S->iters[oi], k = (long long)round;
    bool was_root = cfg->rotate ? r->me < iters : r->me == cfg->root;
    if (verify) op->fill(r, k, root_of(cfg, 0, r->n));
    MPI_Barrier(r->comm);
    double t0 = pst_now_s();
    for (long long i = 0; i < iters; i++) op->call(r, root_of(cfg, i, r->n));
    double t = (pst_now_s() - t0) / (double)iters;
    if (verify) S->corrupted[oi] += op->check(r, k, root_of(cfg, 0, r->n), was_root);
    return t;
}

/* Per call: `iters` more calls, each after a barrier and timed alone on every rank; each rank's
 * min/median/max land on the communicator's rank 0. */
static long long single_calls(const coll_cfg *cfg, const coll_op *op, coll_run *r, long long iters, long long k0,
                              double *rank_stats)
{
    const bool verify = !cfg->ctx.no_verify;
    long long corrupted = 0;
    double *one = pst_malloc((size_t)iters * sizeof *one);
    for (long long i = 0; i < iters; i++) {
        int root = root_of(cfg, i, r->n);
        long long k = k0 + i;
        if (verify) op->fill(r, k, root);
        MPI_Barrier(r->comm);
        double t0 = pst_now_s();
        op->call(r, root);
        one[i] = pst_now_s() - t0;
        if (verify) corrupted += op->check(r, k, root, r->me == root);
    }
    pst_summary s = pst_summarize(one, (size_t)iters);
    double mine[3] = {s.min, s.median, s.max};
    MPI_Gather(mine, 3, MPI_DOUBLE, rank_stats, 3, MPI_DOUBLE, 0, r->comm);
    free(one);
    return corrupted;
}

/* The ops of comparison s: every op that takes a size, and the size-less barrier with the first. */
static size_t ops_of_set(const coll_cfg *cfg, size_t s, const coll_op **set_ops)
{
    size_t nops = 0;
    for (size_t oi = 0; oi < cfg->ops.n; oi++) {
        const coll_op *op = find_op(cfg->ops.v[oi]);
        if (op->bw != PST_BW_NONE || s == 0) set_ops[nops++] = op;
    }
    return nops;
}

/* One comparison's plan: each op's buffers (none on ranks outside comm) and its point, which
 * will read R->t[op] and receive its single calls' statistics at rank_stats + 3·n·op. */
static coll_set plan_set(const coll_cfg *cfg, MPI_Comm comm, int n, long long bytes, const coll_op **set_ops, size_t nops,
                         const pst_rounds *R, coll_point *pts, double *rank_stats, coll_forms *forms)
{
    coll_set S = {cfg, set_ops, pst_calloc(nops, sizeof *S.runs), pst_malloc(nops * sizeof *S.iters),
                  pst_calloc(nops, sizeof *S.corrupted)};
    for (size_t oi = 0; oi < nops; oi++) {
        const coll_op *op = set_ops[oi];
        S.iters[oi] = cfg->iters;
        S.runs[oi] = (coll_run){.comm = comm, .n = n, .me = cfg->ctx.rank, .bytes = op->bw == PST_BW_NONE ? 0 : bytes};
        pts[oi] = (coll_point){.op = op, .n = n, .bytes = S.runs[oi].bytes, .R = R, .alt = oi,
                               .rank_stats = rank_stats + 3 * (size_t)n * oi, .forms = &forms[oi]};
        pts[oi].size_bytes = comm != MPI_COMM_NULL ? op->setup(&S.runs[oi]) : 0;
    }
    return S;
}

/* The ops' loops in interleaved rounds, then each op's single calls; a wrong result ends the run.
 * An op's buffers go once its single calls are done.  Collective over MPI_COMM_WORLD. */
static void measure(coll_cfg *cfg, coll_set *S, size_t nops, pst_rounds *R, coll_point *pts)
{
    pst_rounds_run(R, &cfg->compare, nops, cfg->reps, coll_turn, S);
    for (size_t oi = 0; oi < nops; oi++) {
        coll_run *r = &S->runs[oi];
        if (r->comm != MPI_COMM_NULL) {
            S->corrupted[oi] += single_calls(cfg, S->ops[oi], r, S->iters[oi], (long long)R->n, pts[oi].rank_stats);
            if (cfg->nonblocking) S->corrupted[oi] += pst_coll_nonblocking_form(cfg, S->ops[oi], r, S->iters[oi], pts[oi].forms);
            if (cfg->persistent) S->corrupted[oi] += pst_coll_persistent_form(cfg, S->ops[oi], r, S->iters[oi], pts[oi].forms);
        }
        MPI_Request req[2];
        MPI_Iallreduce(MPI_IN_PLACE, &S->corrupted[oi], 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req[0]);
        MPI_Ireduce(&S->iters[oi], &pts[oi].iters, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD, &req[1]);
        pst_wait_sleeping(2, req);
        if (S->corrupted[oi])
            pst_collective_exit(PST_EXIT_FAILED, "result check failed: %s, %lld bytes, comm size %d: %lld wrong words or elements",
                                S->ops[oi]->name, r->bytes, r->n, S->corrupted[oi]);
        run_free(r);
    }
}

static void set_free(coll_set *S)
{
    free(S->runs);
    free(S->iters);
    free(S->corrupted);
}

/* ---- analysis and output -------------------------------------------------------------------- */

/* What one point says: nccl-tests' bandwidths from the loops (NaN for the barrier), and from the
 * single calls who waits (each rank's min/median/max, the spread of the medians). */
typedef struct coll_analysis {
    pst_summary t;                          /* the loops: seconds per call */
    double busbw_factor;
    double algbw_gbytes_per_s, busbw_gbytes_per_s;         /* from t_min */
    double algbw_med_gbytes_per_s, busbw_med_gbytes_per_s; /* from t_med */
    double *rank_min_s, *rank_med_s, *rank_max_s;          /* [n] */
    pst_summary across;                     /* of the ranks' medians */
    int slowest_rank;                       /* the largest median */
    double imbalance;                       /* (max - min) / max of the medians */
} coll_analysis;

static coll_analysis analyse(const coll_point *pt)
{
    const coll_op *op = pt->op;
    int n = pt->n;
    coll_analysis an = {.t = pst_summarize(pt->R->t[pt->alt], pt->R->n),
                        .rank_min_s = pst_malloc((size_t)n * sizeof *an.rank_min_s),
                        .rank_med_s = pst_malloc((size_t)n * sizeof *an.rank_med_s),
                        .rank_max_s = pst_malloc((size_t)n * sizeof *an.rank_max_s)};
    an.busbw_factor = op->bw == PST_BW_NONE ? NAN
                      : !strcmp(op->name, "alltoallv") ? alltoallv_moved_fraction(pt->bytes, n)
                                                        : pst_busbw_factor(op->bw, n);
    an.algbw_gbytes_per_s = op->bw == PST_BW_NONE ? NAN : pt->size_bytes / an.t.min / 1e9;
    an.algbw_med_gbytes_per_s = op->bw == PST_BW_NONE ? NAN : pt->size_bytes / an.t.median / 1e9;
    an.busbw_gbytes_per_s = an.algbw_gbytes_per_s * an.busbw_factor;
    an.busbw_med_gbytes_per_s = an.algbw_med_gbytes_per_s * an.busbw_factor;
    for (int i = 0; i < n; i++) {
        an.rank_min_s[i] = pt->rank_stats[3 * i];
        an.rank_med_s[i] = pt->rank_stats[3 * i + 1];
        an.rank_max_s[i] = pt->rank_stats[3 * i + 2];
        if (an.rank_med_s[i] > an.rank_med_s[an.slowest_rank]) an.slowest_rank = i;
    }
    an.across = pst_summarize(an.rank_med_s, (size_t)n);
    an.imbalance = an.across.max > 0 ? (an.across.max - an.across.min) / an.across.max : 0;
    return an;
}

static void analysis_free(coll_analysis *an)
{
    free(an->rank_min_s);
    free(an->rank_med_s);
    free(an->rank_max_s);
}

/* A communicator size's table head. */
static void print_header(const coll_cfg *cfg, int n)
{
    printf("\n== coll, comm size %d (ranks 0...%d), root %s, %lld+ rounds per size, ops interleaved (%s) ==\n", n, n - 1,
           cfg->rotate ? "rotating" : cfg->root_spec, cfg->reps, cfg->compare.schedule);
    printf("  %-10s %10s %6s %10s %10s %9s %9s | %32s %5s %7s\n", "", "", "", "Frese & Knipp 1998 loop", "", "", "",
           "single call: rank median us", "", "");
    printf("  %-10s %10s %6s %10s %10s %9s %9s | %10s %10s %10s %5s %7s\n", "op", "bytes", "iters", "t_min us", "t_med us",
           "algbw", "busbw", "min", "median", "max", "slow", "imbal");
}

static void print_point(const coll_point *pt, const coll_analysis *an)
{
    char bw[2][16];
    for (int k = 0; k < 2; k++) {
        double v = k ? an->busbw_gbytes_per_s : an->algbw_gbytes_per_s;
        if (isfinite(v)) snprintf(bw[k], sizeof bw[k], "%9.3f", v);
        else snprintf(bw[k], sizeof bw[k], "%9s", "-");
    }
    printf("  %-10s %10lld %6lld %10.3f %10.3f %s %s | %10.3f %10.3f %10.3f %5d %6.1f%%\n", pt->op->name, pt->bytes, pt->iters,
           an->t.min * 1e6, an->t.median * 1e6, bw[0], bw[1], an->across.min * 1e6, an->across.median * 1e6,
           an->across.max * 1e6, an->slowest_rank, an->imbalance * 100);
}

static void print_legend(const coll_cfg *cfg)
{
    printf("\n  t: Frese & Knipp 1998 loop, seconds per call (min / median over loops); algbw, busbw: GB/s from t_min (nccl-tests);\n"
           "  single call: each rank's median over its calls, min/median/max over ranks; slow = rank with the largest.\n");
    if (cfg->nonblocking)
        printf("  nonblocking (IMB-NBC): medians over rounds of the call alone (start + wait), a compute loop of the same length\n"
               "  alone, and both (compute between start and wait; then with an MPI_Test every %lld of %d chunks);\n"
               "  overlap = (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu), in [0, 100] %%.\n", cfg->test_every, PST_COLL_CPU_CHUNKS);
    if (cfg->persistent)
        printf("  persistent (MPI-4.0 6.13): set-up once (max over ranks), then MPI_Start + MPI_Wait per call against the\n"
               "  blocking call in paired rounds; ratio persistent / blocking [%.0f %% CI], n.s. = within the %.0f %% margin.\n",
               cfg->compare.confidence * 100, cfg->compare.margin * 100);
}




static void emit_point(coll_cfg *cfg, const coll_point *pt, const coll_analysis *an)
{
    const coll_op *op = pt->op;
    size_t n = (size_t)pt->n;
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_coll_point);
    pst_rec_str(&r, "op", op->name);
    pst_rec_int(&r, "bytes", pt->bytes);
    pst_rec_num(&r, "size_bytes", pt->size_bytes);
    pst_rec_int(&r, "comm_size", pt->n);
    if (op->rooted && !cfg->rotate) pst_rec_int(&r, "root", cfg->root);
    else pst_rec_str(&r, "root", NULL);
    pst_rec_bool(&r, "root_rotate", op->rooted && cfg->rotate);
    pst_rec_str(&r, "method", "frese-knipp-loop");
    pst_rec_str(&r, "alloc_state", cfg->alloc_state);
    pst_rec_rounds(&r, pt->R, pt->alt, &cfg->compare);
    pst_rec_int(&r, "iters", pt->iters);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_num(&r, "algbw", an->algbw_gbytes_per_s);
    pst_rec_num(&r, "busbw", an->busbw_gbytes_per_s);
    pst_rec_num(&r, "algbw_med", an->algbw_med_gbytes_per_s);
    pst_rec_num(&r, "busbw_med", an->busbw_med_gbytes_per_s);
    pst_rec_num(&r, "busbw_factor", an->busbw_factor);
    pst_rec_num(&r, "rank_med_min", an->across.min);
    pst_rec_num(&r, "rank_med_median", an->across.median);
    pst_rec_num(&r, "rank_med_max", an->across.max);
    pst_rec_int(&r, "slowest_rank", an->slowest_rank);
    pst_rec_num(&r, "imbalance", an->imbalance);
    pst_rec_nums(&r, "rank_t_min", an->rank_min_s, n);
    pst_rec_nums(&r, "rank_t_med", an->rank_med_s, n);
    pst_rec_nums(&r, "rank_t_max", an->rank_max_s, n);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify && op->bw != PST_BW_NONE);
    if (cfg->samples) pst_rec_nums(&r, "samples", pt->R->t[pt->alt], pt->R->n);
    pst_rec_emit(&r, &cfg->ctx);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static void sort_unique(pst_int_list *l)
{
    qsort(l->v, l->n, sizeof *l->v, cmp_ll);
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        if (n == 0 || l->v[i] != l->v[n - 1]) l->v[n++] = l->v[i];
    l->n = n;
}

static void validate(void *arg)
{
    coll_cfg *cfg = arg;
    pst_ctx *c = &cfg->ctx;
    char err[256];
    if (c->size < 2) pst_usage_error("coll needs at least 2 ranks (running on 1); start it with mpiexec -n 2 or more");
    if (cfg->ops.n == 0) {
        cfg->ops.v = pst_malloc(NOPS * sizeof *cfg->ops.v);
        for (size_t i = 0; i < NOPS; i++) cfg->ops.v[i] = pst_strdup(ops[i].name);
        cfg->ops.n = NOPS;
    }
    if (cfg->sizes.n == 0) {
        long long v[32];
        size_t n = 0;
        for (long long b = 8; b <= 1 << 20; b *= 2) v[n++] = b;
        pst_int_list_set(&cfg->sizes, n, v);
    }
    sort_unique(&cfg->sizes);
    if (cfg->comm_sizes.n == 0) {
        long long v[32];
        size_t n = 0;
        for (long long p = 2; p < c->size; p *= 2) v[n++] = p;
        v[n++] = c->size;
        pst_int_list_set(&cfg->comm_sizes, n, v);
    }
    sort_unique(&cfg->comm_sizes);
    for (size_t i = 0; i < cfg->comm_sizes.n; i++)
        if (cfg->comm_sizes.v[i] > c->size)
            pst_usage_error("--comm-sizes: %lld is out of range (allowed: 2 ... %d, the rank count)", cfg->comm_sizes.v[i], c->size);
    long long nmax = cfg->comm_sizes.v[cfg->comm_sizes.n - 1], nmin = cfg->comm_sizes.v[0];
    for (size_t i = 0; i < cfg->ops.n; i++) {
        const coll_op *op = find_op(cfg->ops.v[i]);
        for (size_t s = 0; s < cfg->sizes.n && op->bw != PST_BW_NONE; s++) {
            long long b = cfg->sizes.v[s];
            if (op->sums_doubles && b % 8)
                pst_usage_error("--sizes: %lld is not a multiple of 8 (%s sums doubles)", b, op->name);
            if (b * nmax > MAX_TOTAL)
                pst_usage_error("--sizes: %lld bytes x comm size %lld exceeds the %d-byte buffer limit", b, nmax, MAX_TOTAL);
        }
    }
    char missing[512];
    if (cfg->nonblocking && pst_mpi_feature_missing(PST_FEAT_NBC, missing, sizeof missing))
        pst_usage_error("--nonblocking %s", missing);
    if (cfg->persistent && pst_mpi_feature_missing(PST_FEAT_PCOLL, missing, sizeof missing))
        pst_usage_error("--persistent %s", missing);
    cfg->rotate = !strcmp(cfg->root_spec, "rotate");
    if (!cfg->rotate) {
        long long root;
        if (pst_parse_int(cfg->root_spec, &root, err, sizeof err) || root < 0 || root >= nmin)
            pst_usage_error("--root: '%s' is not rotate or a rank of the smallest communicator (allowed: 0 ... %lld)",
                            cfg->root_spec, nmin - 1);
        cfg->root = (int)root;
    }
    /* The allocator state, before any buffer exists: the largest message sizes it. */
    long long largest = cfg->sizes.v[cfg->sizes.n - 1];
    cfg->ctx.alloc_probe_bytes = (size_t)largest;
    const char *why = pst_alloc_state_set(cfg->alloc_state, (size_t)largest);
    if (why) pst_usage_error("--alloc-state %s: %s (largest --sizes: %lld bytes)", cfg->alloc_state, why, largest);
    pst_compare_setup(&cfg->compare, c, cfg->reps, cfg->comm_sizes.n * cfg->sizes.n);
}

/* The sweep: one comparison per (communicator size, size), set = ci * nsizes + s.  The buffers
 * are sized for the largest comparison, every op on every rank. */
typedef struct coll_sweep {
    MPI_Comm comm;           /* the first n ranks, for every size of one communicator size */
    int n;
    size_t s, nops;          /* the size's index and the ops it compares (0: none) */
    const coll_op **set_ops; /* [op] */
    coll_point *pts;         /* [op] */
    double *rank_stats;      /* [op][n][3] */
    coll_forms *forms;       /* [op] */
    pst_rounds R;
    coll_set S;
} coll_sweep;

static void plan(void *p)
{
    coll_cfg *cfg = p;
    coll_sweep *w = pst_calloc(1, sizeof *w);
    w->set_ops = pst_malloc(cfg->ops.n * sizeof *w->set_ops);
    w->pts = pst_malloc(cfg->ops.n * sizeof *w->pts);
    w->rank_stats = pst_calloc(cfg->ops.n * 3 * (size_t)cfg->ctx.size, sizeof *w->rank_stats);
    w->forms = pst_calloc(cfg->ops.n, sizeof *w->forms);
    cfg->now = w;
}

static size_t comparisons(const void *p)
{
    const coll_cfg *cfg = p;
    return cfg->comm_sizes.n * cfg->sizes.n;
}

static bool last_size(const coll_cfg *cfg, const coll_sweep *w) { return w->s == cfg->sizes.n - 1; }

static void *measure_comparison(void *p, size_t set)
{
    coll_cfg *cfg = p;
    coll_sweep *w = cfg->now;
    w->s = set % cfg->sizes.n;
    if (w->s == 0) {
        w->n = (int)cfg->comm_sizes.v[set / cfg->sizes.n];
        MPI_Comm_split(MPI_COMM_WORLD, cfg->ctx.rank < w->n ? 0 : MPI_UNDEFINED, cfg->ctx.rank, &w->comm);
    }
    w->nops = ops_of_set(cfg, w->s, w->set_ops);
    if (w->nops) {
        long long bytes = cfg->sizes.v[w->s];
        pst_watchdog_phase("coll bytes %lld comm size %d (%zu ops in rounds)", bytes, w->n, w->nops);
        w->S = plan_set(cfg, w->comm, w->n, bytes, w->set_ops, w->nops, &w->R, w->pts, w->rank_stats, w->forms);
        measure(cfg, &w->S, w->nops, &w->R, w->pts);
    }
    return w;
}

static void *analyse_comparison(const void *p, const void *data)
{
    const coll_sweep *w = data;
    coll_analysis *an = pst_malloc((w->nops ? w->nops : 1) * sizeof *an);
    for (size_t oi = 0; oi < w->nops; oi++) an[oi] = analyse(&w->pts[oi]);
    return an;
}

static void print_comparison(const void *p, const void *data, const void *analysis)
{
    const coll_cfg *cfg = p;
    const coll_sweep *w = data;
    const coll_analysis *an = analysis;
    if (w->s == 0) print_header(cfg, w->n);
    for (size_t oi = 0; oi < w->nops; oi++) {
        print_point(&w->pts[oi], &an[oi]);
        pst_coll_print_forms(cfg, &w->pts[oi]);
    }
    if (last_size(cfg, w)) fflush(stdout);
}

static void emit_comparison(void *p, const void *data, const void *analysis)
{
    const coll_sweep *w = data;
    const coll_analysis *an = analysis;
    for (size_t oi = 0; oi < w->nops; oi++) {
        emit_point(p, &w->pts[oi], &an[oi]);
        pst_coll_emit_forms(p, &w->pts[oi]);
    }
}

static void free_analyses(const void *p, void *analysis)
{
    const coll_sweep *w = ((const coll_cfg *)p)->now;
    coll_analysis *an = analysis;
    for (size_t oi = 0; oi < w->nops; oi++) analysis_free(&an[oi]);
    free(an);
}

static void free_comparison(void *p, void *data)
{
    coll_sweep *w = data;
    pst_rounds_free(&w->R);
    set_free(&w->S);
    w->S = (coll_set){0};
    if (last_size(p, w) && w->comm != MPI_COMM_NULL) MPI_Comm_free(&w->comm);
}

static void finish(void *p)
{
    const coll_cfg *cfg = p;
    if (cfg->ctx.rank == 0) print_legend(cfg);
}

static void release(void *p)
{
    coll_cfg *cfg = p;
    coll_sweep *w = cfg->now;
    free(w->set_ops);
    free(w->pts);
    free(w->rank_stats);
    for (size_t oi = 0; oi < cfg->ops.n; oi++) pst_coll_forms_free(&w->forms[oi]);
    free(w->forms);
    free(w);
}

static const char *op_names[NOPS + 1];

static void prepare(void *p)
{
    for (size_t i = 0; i < NOPS; i++) op_names[i] = ops[i].name;
}

static const coll_cfg default_cfg = {.root_spec = "0", .alloc_state = "default", .reps = 10, .warmup = 5, .test_every = 10,
                                     .compare = PST_COMPARE_DEFAULTS};
static coll_cfg run_cfg;
static const pst_opt opts[] = {
    {"ops", PST_OPT_STRINGS, &run_cfg.ops, "LIST", "operations", 1, 0, op_names, "barrier,bcast,reduce,allreduce,alltoall,alltoallv,allgather"},
    {"sizes", PST_OPT_SIZES, &run_cfg.sizes, "LIST",
     "bytes per rank (bcast, reduce, allreduce; multiples of 8 for the sums) or per block (allgather, "
     "alltoall, alltoallv), e.g. 8,1K,1M or 8:1M; barrier ignores it", 1, MAX_TOTAL, NULL, "8:1M"},
    {"comm-sizes", PST_OPT_INTS, &run_cfg.comm_sizes, "LIST",
     "communicator sizes: the first n ranks; without it, 2, 4, 8, ... and the rank count", 2, 1e9, NULL, NULL},
    {"root", PST_OPT_STRING, &run_cfg.root_spec, "R|rotate",
     "root of bcast and reduce, or rotate: call i uses root i mod n", 1, 0, NULL, NULL},
    {"reps", PST_OPT_INT, &run_cfg.reps, "N", "timed rounds (one loop per op each) per size; the minimum with --adaptive", 1, 1e6, NULL, NULL},
    {"iters", PST_OPT_INT, &run_cfg.iters, "N",
     "calls per loop and single-call timings per point; 0 = auto: about 2 ms per loop, 10 ... 1000",
     0, 1e7, NULL, NULL},
    {"warmup", PST_OPT_INT, &run_cfg.warmup, "N", "untimed calls before an op's first loop at a size; later turns re-warm "
     "with one", 0, 1e6, NULL, NULL},
    PST_SAMPLES_OPT(&run_cfg.samples, "loop"),
    {"nonblocking", PST_OPT_FLAG, &run_cfg.nonblocking, NULL,
     "also time each op's nonblocking form with IMB-NBC's method: alone, beside a compute loop of the same length, "
     "and overlapped with it (overlap_pct), with and without MPI_Test calls in the loop", 1, 0, NULL, NULL},
    {"test-every", PST_OPT_INT, &run_cfg.test_every, "N",
     "with --nonblocking: the second overlapped loop calls MPI_Test every N of its 100 compute chunks", 1, 100, NULL, NULL},
    {"persistent", PST_OPT_FLAG, &run_cfg.persistent, NULL,
     "also time each op's persistent form (MPI-4.0 *_init, MPI_Start) against the blocking call, its set-up apart",
     1, 0, NULL, NULL},
    {"alloc-state", PST_OPT_STRING, &run_cfg.alloc_state, "STATE",
     "glibc allocator state for the library's temporary buffers: default (untouched), warm (large blocks from a warm "
     "heap, as in a long-running application) or fresh (mapped afresh each call, as in a cold micro-benchmark)", 1, 0, pst_alloc_states, NULL},
    PST_COMPARE_OPTS(&run_cfg.compare),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "coll",
    .summary = "Collective operations against message size and communicator size (Frese & Knipp 1998), timed two ways:\n"
               "Frese & Knipp 1998's loop and single calls with per-rank statistics, results checked.",
    .description =
        "t (Frese & Knipp 1998): barrier, each rank times `iters` back-to-back calls; t = max over ranks of the loop time /\n"
        "iters; t_min/t_med over --reps loops.  Per call: each call after a barrier, timed alone on every rank;\n"
        "'rank median' = each rank's median over its calls, shown as min/median/max over ranks, 'slowest' = the\n"
        "rank with the largest median, imbal = (max - min) / max of those medians.\n"
        "algbw = S / t_min and busbw = algbw * factor as nccl-tests defines them (GB/s = 10^9 bytes/s):\n"
        "S = bytes (bcast, reduce, allreduce), bytes * n (allgather, alltoall), the mean bytes a rank sends\n"
        "(alltoallv); factor = 1 (bcast, reduce), 2(n-1)/n (allreduce), (n-1)/n (allgather, alltoall), the\n"
        "fraction leaving the rank (alltoallv: block s->d = round(2 * bytes * ((s+d) mod 4) / 3)).\n"
        "Ranks outside a sub-communicator wait sleeping, so they do not compete for cores.",
    .examples = "  mpiexec -n 8 pstswm coll --out coll.jsonl\n"
                "  mpiexec -n 8 pstswm coll --ops bcast,reduce --sizes 1K --comm-sizes 2:8:+1 --root rotate\n"
                "  mpiexec -n 4 pstswm coll --ops allreduce --sizes 8,1M --reps 20 --samples\n"
                "  mpiexec -n 4 pstswm coll --ops allreduce,alltoallv --sizes 64K,1M --nonblocking --persistent",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("coll");
static const pst_schema *const schemas[] = {&pst_schema_coll_header, &pst_schema_coll_point, &pst_schema_coll_overlap,
                                            &pst_schema_coll_persistent, &footer, NULL};

const pst_subcommand pst_subcommand_coll = {
    .name = "coll",
    .summary = "collective timing vs message and communicator size, with per-rank imbalance",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .prepare = prepare,
    .validate = validate,
    .plan = plan,
    .nsets = comparisons,
    .measure = measure_comparison,
    .analyse = analyse_comparison,
    .print = print_comparison,
    .emit = emit_comparison,
    .analysis_free = free_analyses,
    .set_free = free_comparison,
    .finish = finish,
    .release = release,
};
