/* The records of `pstswm coll` (docs/pingpong-coll.md). */
#include "bench/records.h"

const pst_schema pst_schema_coll_header = PST_HEADER_SCHEMA("coll", &pst_fields_compare_header);

static const pst_field point[] = {
    {"op", PST_F_STR, NULL, "the collective: barrier, bcast, reduce, allreduce, allgather, alltoall or alltoallv", false, NULL},
    {"bytes", PST_F_INT, "bytes", "message size as given to --sizes", false, NULL},
    {"size_bytes", PST_F_NUM, "bytes", "S, the size bandwidths are computed from (nccl-tests): bytes, bytes x n, or alltoallv's mean per rank", false, NULL},
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
    {"busbw_factor", PST_F_NUM, NULL, "1 (bcast, reduce), 2(n-1)/n (allreduce), (n-1)/n (allgather, alltoall), alltoallv's moved fraction", false, NULL},
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
    "coll", "point", NULL, "One collective at one message and communicator size; times are per call, from the timed loops.",
    {&pst_fields_common, &point_fields, &pst_fields_times, &pst_fields_rounds},
};
