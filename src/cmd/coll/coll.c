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
 * Bandwidths follow nccl-tests (cmd/coll/busbw.h). */
#include "cmd/coll/busbw.h"
#include "cmd/coll/coll_impl.h"
#include "cmd/common/frame.h"
#include "cmd/common/records.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "runtime/alloc_state.h"
#include "runtime/rounds.h"
#include "runtime/context.h"
#include "runtime/mpi_features.h"
#include "runtime/run_schema.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* Largest buffer of one rank (bytes · comm size for allgather/alltoall). */
enum { MAX_TOTAL = 1 << 30 };

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
        cfg->ops.v = pst_malloc(PST_COLL_NOPS * sizeof *cfg->ops.v);
        for (size_t i = 0; i < PST_COLL_NOPS; i++) cfg->ops.v[i] = pst_strdup(pst_coll_ops[i].name);
        cfg->ops.n = PST_COLL_NOPS;
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
            pst_usage_error("--comm-sizes: %lld is out of range (allowed: 2 ... %d, the rank count)",
                            cfg->comm_sizes.v[i], c->size);
    long long nmax = cfg->comm_sizes.v[cfg->comm_sizes.n - 1], nmin = cfg->comm_sizes.v[0];
    for (size_t i = 0; i < cfg->ops.n; i++) {
        const coll_op *op = pst_coll_find_op(cfg->ops.v[i]);
        for (size_t s = 0; s < cfg->sizes.n && op->bw != PST_BW_NONE; s++) {
            long long b = cfg->sizes.v[s];
            if (op->sums_doubles && b % 8)
                pst_usage_error("--sizes: %lld is not a multiple of 8 (%s sums doubles)", b, op->name);
            if (b * nmax > MAX_TOTAL)
                pst_usage_error("--sizes: %lld bytes x comm size %lld exceeds the %d-byte buffer limit", b, nmax,
                                MAX_TOTAL);
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
    pst_rounds_setup(&cfg->rounds, c, cfg->reps, cfg->comm_sizes.n * cfg->sizes.n);
}

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

static const char *op_names[PST_COLL_NOPS + 1];

static void prepare(void *p)
{
    for (size_t i = 0; i < PST_COLL_NOPS; i++) op_names[i] = pst_coll_ops[i].name;
}

static const coll_cfg default_cfg = {.root_spec = "0",
                                     .alloc_state = "default",
                                     .reps = 10,
                                     .warmup = 5,
                                     .test_every = 10,
                                     .rounds = PST_ROUNDS_DEFAULTS};
static coll_cfg run_cfg;
static const pst_opt opts[] = {
    {"ops", PST_OPT_STRINGS, &run_cfg.ops, "LIST", "operations", 1, 0, op_names,
     "barrier,bcast,reduce,allreduce,alltoall,alltoallv,allgather"},
    {"sizes", PST_OPT_SIZES, &run_cfg.sizes, "LIST",
     "bytes per rank (bcast, reduce, allreduce; multiples of 8 for the sums) or per block (allgather, "
     "alltoall, alltoallv), e.g. 8,1K,1M or 8:1M; barrier ignores it",
     1, MAX_TOTAL, NULL, "8:1M"},
    {"comm-sizes", PST_OPT_INTS, &run_cfg.comm_sizes, "LIST",
     "communicator sizes: the first n ranks; without it, 2, 4, 8, ... and the rank count", 2, 1e9, NULL, NULL},
    {"root", PST_OPT_STRING, &run_cfg.root_spec, "R|rotate",
     "root of bcast and reduce, or rotate: call i uses root i mod n", 1, 0, NULL, NULL},
    {"reps", PST_OPT_INT, &run_cfg.reps, "N",
     "timed rounds (one loop per op each) per size; the minimum with --adaptive", 1, 1e6, NULL, NULL},
    {"iters", PST_OPT_INT, &run_cfg.iters, "N",
     "calls per loop and single-call timings per point; 0 = auto: about 2 ms per loop, 10 ... 1000", 0, 1e7, NULL,
     NULL},
    {"warmup", PST_OPT_INT, &run_cfg.warmup, "N",
     "untimed calls before an op's first loop at a size; later turns re-warm "
     "with one",
     0, 1e6, NULL, NULL},
    PST_SAMPLES_OPT(&run_cfg.samples, "loop"),
    {"nonblocking", PST_OPT_FLAG, &run_cfg.nonblocking, NULL,
     "also time each op's nonblocking form with IMB-NBC's method: alone, beside a compute loop of the same length, "
     "and overlapped with it (overlap_pct), with and without MPI_Test calls in the loop",
     1, 0, NULL, NULL},
    {"test-every", PST_OPT_INT, &run_cfg.test_every, "N",
     "with --nonblocking: the second overlapped loop calls MPI_Test every N of its 100 compute chunks", 1, 100, NULL,
     NULL},
    {"persistent", PST_OPT_FLAG, &run_cfg.persistent, NULL,
     "also time each op's persistent form (MPI-4.0 *_init, MPI_Start) against the blocking call, its set-up apart", 1,
     0, NULL, NULL},
    {"alloc-state", PST_OPT_STRING, &run_cfg.alloc_state, "STATE",
     "glibc allocator state for the library's temporary buffers: default (untouched), warm (large blocks from a warm "
     "heap, as in a long-running application) or fresh (mapped afresh each call, as in a cold micro-benchmark)",
     1, 0, pst_alloc_states, NULL},
    PST_ROUNDS_SCHEDULE_OPTS(&run_cfg.rounds),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "coll",
    .summary =
        "Collective operations against message size and communicator size (Frese & Knipp 1998), timed two ways:\n"
        "Frese & Knipp 1998's loop and single calls with per-rank statistics, results checked.",
    .description =
        "t (Frese & Knipp 1998): barrier, each rank times `iters` back-to-back calls; t = max over ranks of the loop "
        "time /\n"
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
    .measure = pst_coll_measure,
    .analyse = pst_coll_analyse,
    .print = pst_coll_print,
    .emit = pst_coll_emit,
    .analysis_free = pst_coll_analysis_free,
    .set_free = pst_coll_set_free,
    .finish = pst_coll_finish,
    .release = release,
};
