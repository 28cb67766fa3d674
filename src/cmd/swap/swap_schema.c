/* The records of `pstswm swap` (docs/swap.md). */
#include "cmd/common/records.h"
#include "runtime/run_schema.h"
#include "stats/stats_schema.h"

const pst_schema pst_schema_swap_header = PST_HEADER_SCHEMA("swap", &pst_fields_rounds_header);

static const pst_field point[] = {
    PST_FIELD_PROTOCOL,
    PST_FIELD_SLUG,
    PST_FIELD_WIN_MODEL,
    {"ordered", PST_F_BOOL, NULL, "an ordered protocol: side A sends first, side B receives first (classes 1 and 3)",
     false, NULL},
    {"overlap", PST_F_BOOL, NULL, "an overlap form (classes 2 and 3): a batch posts all, sends all, then waits for all",
     false, NULL},
    {"bytes", PST_F_INT, "bytes", "size of each message", false, NULL},
    {"nmsg", PST_F_INT, NULL, "messages each way per exchange: 1, or volume/bytes with --volume", false, NULL},
    {"volume", PST_F_INT, "bytes", "bytes each way per exchange: bytes x nmsg", false, NULL},
    {"cache", PST_F_STR, NULL,
     "cache state: cold (flushed before each exchange), 1 (one warm exchange) or 10 (mean of ten)", false, NULL},
    {"iters", PST_F_INT, NULL, "exchanges per timed sample (10 for cache 10); times are per exchange", false, NULL},
    {"threads", PST_F_INT, NULL,
     "--threads T > 1: streams per pair, one per thread, stream s on tag s; times are the streams' wall time / T "
     "(absent at one thread)",
     true, NULL},
    {"thread_mode", PST_F_STR, NULL,
     "with threads: multiple (every thread calls MPI) or funneled (the master runs every stream's transfers as one "
     "batch)",
     true, NULL},
    PST_FIELD_PAIR,
    PST_FIELD_LOCALITY,
    PST_FIELD_NPAIRS,
    PST_FIELD_WARMUP,
    {"mbytes_per_s", PST_F_NUM, "MB/s", "unidirectional bandwidth from t_min: volume / t_min (MB = 1e6 bytes)", false,
     NULL},
    {"mbytes_per_s_med", PST_F_NUM, "MB/s", "the same from t_med", false, NULL},
    PST_FIELD_VERIFIED,
    PST_FIELD_SAMPLES,
};
static const pst_fields point_fields = PST_FIELDS("swap point", point);
const pst_schema pst_schema_swap_point = {
    "swap",
    "point",
    NULL,
    "One protocol at one message size and cache state; times are per exchange, the max over ranks of each round.",
    {&pst_fields_common, &point_fields, &pst_fields_times, &pst_fields_rounds},
};

static const pst_field protocol[] = {
    PST_FIELD_PROTOCOL,
    PST_FIELD_SLUG,
    {"cache", PST_F_STR, NULL, "cache state (as in the points)", false, NULL},
    PST_FIELD_PAIR,
    PST_FIELD_LOCALITY,
    {"stat", PST_F_STR, NULL, "the statistic fitted and compared: t_med", false, NULL},
    {"peak_mbytes_per_s", PST_F_NUM, "MB/s", "largest unidirectional bandwidth over the sizes run", false, NULL},
    {"peak_bytes", PST_F_INT, "bytes", "message size where it was reached", false, NULL},
    {"alpha_s", PST_F_NUM, "s", "latency: the first segment's intercept of T = nmsg alpha + volume / beta", false,
     NULL},
    {"beta_mbytes_per_s", PST_F_NUM, "MB/s", "bandwidth: the last segment's beta", false, NULL},
    {"range_min_bytes", PST_F_INT, "bytes", "smallest message size fitted", false, NULL},
    {"range_max_bytes", PST_F_INT, "bytes", "largest message size fitted", false, NULL},
};
static const pst_fields protocol_fields = PST_FIELDS("swap protocol", protocol);
const pst_schema pst_schema_swap_protocol = {
    "swap",
    "summary",
    "protocol",
    "Per protocol and cache state: peak bandwidth and the piecewise latency-bandwidth fit over sizes.",
    {&pst_fields_common, &protocol_fields, &pst_fields_segfit},
};

static const pst_field sensitivity[] = {
    {"cache", PST_F_STR, NULL, "cache state (as in the points)", false, NULL},
    PST_FIELD_PAIR,
    PST_FIELD_LOCALITY,
    {"bytes", PST_F_INT, "bytes", "size of each message", false, NULL},
    {"nmsg", PST_F_INT, NULL, "messages each way per exchange", false, NULL},
    {"nprotocols", PST_F_INT, NULL, "protocols compared", false, NULL},
    {"min_s", PST_F_NUM, "s", "the best protocol's median time per exchange", false, NULL},
    {"min_s_per_msg", PST_F_NUM, "s", "min_s / nmsg", false, NULL},
    {"max_mbytes_per_s", PST_F_NUM, "MB/s", "bandwidth at min_s", false, NULL},
};
static const pst_fields sensitivity_fields = PST_FIELDS("swap sensitivity", sensitivity);
const pst_schema pst_schema_swap_sensitivity = {
    "swap",
    "summary",
    "sensitivity",
    "Per size and cache state: how much the choice of protocol matters, and which are best (Worley 2000).",
    {&pst_fields_common, &sensitivity_fields, &pst_fields_verdict, &pst_fields_sensitivity},
};
