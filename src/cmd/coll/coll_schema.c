/* The records of `pstswm coll` (docs/pingpong-coll.md). */
#include "cmd/common/records.h"
#include "runtime/run_schema.h"
#include "stats/stats_schema.h"

const pst_schema pst_schema_coll_header = PST_HEADER_SCHEMA("coll", &pst_fields_rounds_header);

static const pst_field point[] = {
    {"op", PST_F_STR, NULL, "the collective: barrier, bcast, reduce, allreduce, allgather, alltoall or alltoallv",
     false, NULL},
    {"bytes", PST_F_INT, "bytes", "message size as given to --sizes", false, NULL},
    {"size_bytes", PST_F_NUM, "bytes",
     "S, the size bandwidths are computed from (nccl-tests): bytes, bytes x n, or alltoallv's mean per rank", false,
     NULL},
    {"comm_size", PST_F_INT, NULL, "ranks in the communicator", false, NULL},
    {"root", PST_F_INT, NULL, "root of a rooted op; null when rotating or not rooted", false, NULL},
    {"root_rotate", PST_F_BOOL, NULL, "the root moved from call to call (--root rotate)", false, NULL},
    {"method", PST_F_STR, NULL, "frese-knipp-loop: a timed loop of calls per sample, times per call", false, NULL},
    {"alloc_state", PST_F_STR, NULL, "allocator state (--alloc-state): default, warm or fresh", false, NULL},
    {"iters", PST_F_INT, NULL, "calls per timed loop", false, NULL},
    PST_FIELD_WARMUP,
    {"algbw", PST_F_NUM, "GB/s", "S / t_min (GB = 1e9 bytes); null for barrier", false, NULL},
    {"busbw", PST_F_NUM, "GB/s", "algbw x busbw_factor", false, NULL},
    {"algbw_med", PST_F_NUM, "GB/s", "S / t_med", false, NULL},
    {"busbw_med", PST_F_NUM, "GB/s", "algbw_med x busbw_factor", false, NULL},
    {"busbw_factor", PST_F_NUM, NULL,
     "1 (bcast, reduce), 2(n-1)/n (allreduce), (n-1)/n (allgather, alltoall), alltoallv's moved fraction", false, NULL},
    {"rank_med_min", PST_F_NUM, "s", "single calls timed on every rank: the smallest per-rank median", false, NULL},
    {"rank_med_median", PST_F_NUM, "s", "the median of the per-rank medians", false, NULL},
    {"rank_med_max", PST_F_NUM, "s", "the largest per-rank median", false, NULL},
    {"slowest_rank", PST_F_INT, NULL, "the rank with the largest median", false, NULL},
    {"imbalance", PST_F_NUM, NULL, "(max - min) / max of the per-rank medians", false, NULL},
    {"rank_t_min", PST_F_NUMS, "s", "per rank: smallest single-call time", false, NULL},
    {"rank_t_med", PST_F_NUMS, "s", "per rank: median single-call time", false, NULL},
    {"rank_t_max", PST_F_NUMS, "s", "per rank: largest single-call time", false, NULL},
    {"verified", PST_F_BOOL, NULL, "results were checked (false with --no-verify and for barrier)", false, NULL},
    {"samples", PST_F_NUMS, "s", "every loop's time per call (with --samples)", true, NULL},
};
static const pst_fields point_fields = PST_FIELDS("coll point", point);
const pst_schema pst_schema_coll_point = {
    "coll",
    "point",
    NULL,
    "One collective at one message and communicator size; times are per call, from the timed loops.",
    {&pst_fields_common, &point_fields, &pst_fields_times, &pst_fields_rounds},
};

/* The fields of the --nonblocking and --persistent summaries that name what was measured. */
#define FORM_IDENTITY                                                                                                  \
    {"op", PST_F_STR, NULL, "the collective (its nonblocking or persistent form)", false, NULL},                       \
    {"bytes", PST_F_INT, "bytes", "message size as given to --sizes", false, NULL},                                   \
    {"comm_size", PST_F_INT, NULL, "ranks in the communicator", false, NULL},                                          \
    {"iters", PST_F_INT, NULL, "calls per timed loop (the blocking loops' count)", false, NULL},                       \
    {"rounds", PST_F_INT, NULL, "rounds the medians are over (--reps)", false, NULL},                                 \
    {"verified", PST_F_BOOL, NULL,                                                                                     \
     "results were checked after every loop that called MPI (false with --no-verify and for barrier)", false, NULL}

static const pst_field overlap[] = {
    FORM_IDENTITY,
    {"cpu_chunks", PST_F_INT, NULL, "chunks of the compute loop", false, NULL},
    {"test_every", PST_F_INT, NULL,
     "the second overlapped loop calls MPI_Test after every test_every chunks (--test-every)", false, NULL},
    {"t_pure_s", PST_F_NUM, "s",
     "the nonblocking call alone, start then wait, per call: median over rounds of the max over ranks", false, NULL},
    {"t_cpu_s", PST_F_NUM, "s", "the compute loop alone (calibrated once to the call's own time), per call", false,
     NULL},
    {"t_ovrl_s", PST_F_NUM, "s", "start, the compute loop, wait: per call", false, NULL},
    {"t_ovrl_test_s", PST_F_NUM, "s",
     "the same with an MPI_Test every test_every chunks, so a library without a progress thread can progress", false,
     NULL},
    {"overlap_pct", PST_F_NUM, "%",
     "IMB-NBC's overlap (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu) x 100, clamped to [0, 100]", false, NULL},
    {"overlap_test_pct", PST_F_NUM, "%", "the same from t_ovrl_test_s", false, NULL},
    {"round_order", PST_F_STRS, NULL,
     "per round, the four loops (pure, cpu, ovrl, ovrl_test) in the order they ran: shuffled per round as every "
     "comparison's turns (--schedule rounds)",
     false, NULL},
};
static const pst_fields overlap_fields = PST_FIELDS("coll overlap", overlap);
const pst_schema pst_schema_coll_overlap = {
    "coll",
    "summary",
    "overlap",
    "An op's nonblocking form (MPI-3.1 5.12) by IMB-NBC's method (--nonblocking): how much of a compute loop of the "
    "call's length it hides.",
    {&pst_fields_common, &overlap_fields},
};

static const pst_field persistent[] = {
    FORM_IDENTITY,
    {"root", PST_F_INT, NULL,
     "the root a rooted op's persistent form is bound to (--root, or 0 with rotate); null when not rooted", false,
     NULL},
    {"init_s", PST_F_NUM, "s", "the *_init call (set-up), once, the max over ranks; not in the per-call times", false,
     NULL},
    {"t_blocking_s", PST_F_NUM, "s", "the blocking call with the same root, per call: median over rounds", false, NULL},
    {"t_persistent_s", PST_F_NUM, "s",
     "MPI_Start + MPI_Wait, per call: median over rounds (paired with the blocking loop)", false, NULL},
    {"persistent_ratio", PST_F_NUM, NULL, "persistent / blocking: the median of the per-round ratios", false, NULL},
    {"persistent_ratio_ci", PST_F_NUMS, NULL, "its confidence interval (--confidence)", false, NULL},
    {"persistent_significant", PST_F_BOOL, NULL,
     "the interval clears the equivalence margin (--margin): a verdict, not a tie", false, NULL},
    {"round_order", PST_F_STRS, NULL,
     "per round, the blocking and persistent loops in the order they ran: shuffled per round as every comparison's "
     "turns (--schedule rounds)",
     false, NULL},
};
static const pst_fields persistent_fields = PST_FIELDS("coll persistent", persistent);
const pst_schema pst_schema_coll_persistent = {
    "coll",
    "summary",
    "persistent",
    "An op's persistent form (MPI-4.0 6.13; Open MPI 4 as MPIX_) against the blocking call (--persistent), its set-up "
    "apart.",
    {&pst_fields_common, &persistent_fields},
};
