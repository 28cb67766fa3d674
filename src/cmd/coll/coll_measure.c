/* pstswm coll's measurement, one comparison per set of the frame: each op's buffers, its
 * Frese & Knipp (1998) loops in interleaved rounds, then its single calls and, as asked, its other
 * forms (coll_forms.c); a wrong result ends the run. */
#include "cmd/coll/coll_impl.h"

#include "core/alloc.h"
#include "core/errors.h"
#include "runtime/wait.h"
#include "runtime/timer.h"
#include "runtime/watchdog.h"
#include "stats/stats.h"

#include <mpi.h>
#include <stdlib.h>

/* Auto iteration count: one timed loop lasts about this long, with 10 ... 1000 calls. */
static const double TARGET_LOOP_S = 2e-3;

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
        const coll_op *op = pst_coll_find_op(cfg->ops.v[oi]);
        if (op->bw != PST_BW_NONE || s == 0) set_ops[nops++] = op;
    }
    return nops;
}

/* One comparison's plan: each op's buffers (none on ranks outside comm) and its point, which
 * will read R->t[op] and receive its single calls' statistics at rank_stats + 3·n·op. */
static coll_set plan_set(const coll_cfg *cfg, MPI_Comm comm, int n, long long bytes, const coll_op **set_ops,
                         size_t nops, const pst_rounds *R, coll_point *pts, double *rank_stats, coll_forms *forms)
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
    pst_rounds_run(R, &cfg->rounds, nops, cfg->reps, coll_turn, S);
    for (size_t oi = 0; oi < nops; oi++) {
        coll_run *r = &S->runs[oi];
        if (r->comm != MPI_COMM_NULL) {
            S->corrupted[oi] += single_calls(cfg, S->ops[oi], r, S->iters[oi], (long long)R->n, pts[oi].rank_stats);
            if (cfg->nonblocking)
                S->corrupted[oi] += pst_coll_nonblocking_form(cfg, S->ops[oi], r, S->iters[oi], pts[oi].forms);
            if (cfg->persistent)
                S->corrupted[oi] += pst_coll_persistent_form(cfg, S->ops[oi], r, S->iters[oi], pts[oi].forms);
        }
        MPI_Request req[2];
        MPI_Iallreduce(MPI_IN_PLACE, &S->corrupted[oi], 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req[0]);
        MPI_Ireduce(&S->iters[oi], &pts[oi].iters, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD, &req[1]);
        pst_wait_sleeping(2, req);
        if (S->corrupted[oi])
            pst_collective_exit(PST_EXIT_FAILED,
                                "result check failed: %s, %lld bytes, comm size %d: %lld wrong words or elements",
                                S->ops[oi]->name, r->bytes, r->n, S->corrupted[oi]);
        pst_coll_run_free(r);
    }
}

static void set_free(coll_set *S)
{
    free(S->runs);
    free(S->iters);
    free(S->corrupted);
}

void *pst_coll_measure(void *p, size_t set)
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

void pst_coll_set_free(void *p, void *data)
{
    coll_sweep *w = data;
    pst_rounds_free(&w->R);
    set_free(&w->S);
    w->S = (coll_set){0};
    if (last_size(p, w) && w->comm != MPI_COMM_NULL) MPI_Comm_free(&w->comm);
}
