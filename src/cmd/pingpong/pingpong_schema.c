/* The records of `pstswm pingpong` (docs/pingpong-coll.md). */
#include "cmd/common/records.h"
#include "runtime/run_schema.h"
#include "stats/stats_schema.h"

const pst_schema pst_schema_pingpong_header = PST_HEADER_SCHEMA("pingpong", &pst_fields_rounds_header);

#define MODE_FIELDS                                                                                                    \
    {"mode", PST_F_STR, NULL, "send mode (send, ssend, isend, bsend) or ordered protocol code", false, NULL},          \
    {"protocol", PST_F_STR, NULL,                                                                                      \
     "catalogue code with the same message pattern (1,0 for send, 1,10 for ssend, the code itself for protocol "       \
     "modes), else null", false, NULL},                                                                                \
    {"slug", PST_F_STR, NULL, "that protocol's slug in the record's transport; null for send modes", false, NULL},   \
    PST_FIELD_WIN_MODEL,                                                                                               \
    {"direction", PST_F_STR, NULL, "uni (ping-pong) or bi (both sides send at once)", false, NULL}

static const pst_field point[] = {
    MODE_FIELDS,
    {"bytes", PST_F_INT, "bytes", "message size", false, NULL},
    PST_FIELD_PAIR,
    PST_FIELD_LOCALITY,
    PST_FIELD_NPAIRS,
    {"t_is", PST_F_STR, NULL,
     "what the times measure: half round trip (uni) or time per exchange, both directions at once (bi); with "
     "--threads, that over the streams: time per message",
     false, NULL},
    {"threads", PST_F_INT, NULL,
     "--threads T > 1: streams per pair, one per thread, stream s on tag s (absent at one thread)", true, NULL},
    {"thread_mode", PST_F_STR, NULL,
     "with threads: multiple (every thread calls MPI) or funneled (the master drives every stream)", true, NULL},
    {"msgs_per_s", PST_F_NUM, "1/s",
     "with threads: messages per second over the streams and directions of a pair, from t_med", true, NULL},
    {"iters", PST_F_INT, NULL, "round trips per timed sample; times are per round trip / 2 or per exchange", false,
     NULL},
    PST_FIELD_WARMUP,
    {"mbytes_per_s", PST_F_NUM, "MB/s", "bytes / t_min, per pair and direction (MB = 1e6 bytes)", false, NULL},
    {"mbytes_per_s_med", PST_F_NUM, "MB/s", "bytes / t_med", false, NULL},
    {"mbytes_per_s_aggregate", PST_F_NUM, "MB/s", "pairs x directions x bytes / t_min", false, NULL},
    {"pair_t_min", PST_F_NUMS, "s", "each pair's own t_min (several pairs)", true, NULL},
    {"pair_mbytes_per_s", PST_F_NUMS, "MB/s", "each pair's own bandwidth from it (several pairs)", true, NULL},
    {"fit_residual_s", PST_F_NUM, "s", "observed t_min minus the window fit, for sizes in the fit window", true, NULL},
    PST_FIELD_VERIFIED,
    PST_FIELD_SAMPLES,
};
static const pst_fields point_fields = PST_FIELDS("pingpong point", point);
const pst_schema pst_schema_pingpong_point = {
    "pingpong", "point", NULL, "One mode, direction and message size; the sample is the slowest pair's.",
    {&pst_fields_common, &point_fields, &pst_fields_times, &pst_fields_rounds},
};

static const pst_field modes[] = {
    {"direction", PST_F_STR, NULL, "uni or bi", false, NULL},
    {"bytes", PST_F_INT, "bytes", "message size", false, NULL},
    PST_FIELD_PAIR,
    PST_FIELD_LOCALITY,
};
static const pst_fields modes_fields = PST_FIELDS("pingpong modes", modes);
static const pst_field verdict_median[] = {
    {"median_rel", PST_F_NUM, NULL, "the median mode's relative excess over the best (paired over rounds)", false,
     NULL},
};
static const pst_fields verdict_median_fields = PST_FIELDS("pingpong modes spread", verdict_median);

const pst_schema pst_schema_pingpong_modes = {
    "pingpong", "summary", "modes", "Per direction and size: which modes are fastest, from their interleaved rounds.",
    {&pst_fields_common, &modes_fields, &pst_fields_verdict, &verdict_median_fields},
};

static const pst_field latbw[] = {
    MODE_FIELDS,
    PST_FIELD_PAIR,
    PST_FIELD_LOCALITY,
    PST_FIELD_NPAIRS,
    {"stat", PST_F_STR, NULL, "the statistic fitted: t_min", false, NULL},
    {"latency0_s", PST_F_NUM, "s", "t_min at the smallest size (zero-byte latency when 0 was run)", false, NULL},
    {"latency0_med_s", PST_F_NUM, "s", "t_med there", false, NULL},
    {"peak_mbytes_per_s", PST_F_NUM, "MB/s", "largest bytes / t_min over the sizes", false, NULL},
    {"peak_bytes", PST_F_INT, "bytes", "size where it was reached (0: no positive size)", false, NULL},
    {"peak_t_s", PST_F_NUM, "s", "t_min there", false, NULL},
    {"fit_from_bytes", PST_F_INT, "bytes", "start of the fit window (--fit-from)", false, NULL},
    {"fit_to_bytes", PST_F_INT, "bytes", "end of the fit window (--fit-to)", false, NULL},
    {"fit_npoints", PST_F_INT, NULL, "sizes in the window", false, NULL},
    {"t_l_s", PST_F_NUM, "s",
     "the window fit T(N) = t_l + N t_s by least squares on t_min: t_l (null when the window holds fewer than two "
     "sizes)",
     false, NULL},
    {"t_l_ci95", PST_F_NUMS, "s", "its 95 % interval", false, NULL},
    {"t_s_s_per_byte", PST_F_NUM, "s/byte", "t_s", false, NULL},
    {"t_s_ci95", PST_F_NUMS, "s/byte", "its 95 % interval", false, NULL},
    {"fit_mbytes_per_s", PST_F_NUM, "MB/s", "1 / t_s", false, NULL},
    {"r2", PST_F_NUM, NULL, "r squared of the window fit", false, NULL},
    {"fit_bytes", PST_F_NUMS, "bytes", "the sizes fitted", false, NULL},
    {"fit_residuals_s", PST_F_NUMS, "s", "observed minus model at each", false, NULL},
    {"fit_max_rel_residual", PST_F_NUM, NULL, "largest |residual| / observed", false, NULL},
    {"window_fit_ok", PST_F_BOOL, NULL, "the window fit describes its sizes (r2 and residuals within tolerance)", false,
     NULL},
};
static const pst_fields latbw_fields = PST_FIELDS("pingpong latbw", latbw);
const pst_schema pst_schema_pingpong_latbw = {
    "pingpong",
    "summary",
    "latbw",
    "Per mode and direction: zero-byte latency, peak bandwidth, the window fit and the piecewise fit.",
    {&pst_fields_common, &latbw_fields, &pst_fields_segfit},
};

static const pst_field loggp[] = {
    {"method", PST_F_STR, NULL, "prtt: parametrised round trips (Hoefler et al. 2009)", false, NULL},
    {"n", PST_F_INT, NULL, "messages per PRTT train (--loggp-n)", false, NULL},
    {"reps", PST_F_INT, NULL, "repetitions the medians are over", false, NULL},
    {"bytes_range", PST_F_INTS, "bytes", "smallest and largest size used", false, NULL},
    {"L_s", PST_F_NUM, "s", "LogGP latency L, median over repetitions", false, NULL},
    {"L_s_ci", PST_F_NUMS, "s", "its interval at --confidence", false, NULL},
    {"o_s_s", PST_F_NUM, "s", "send overhead o_s", false, NULL},
    {"o_s_s_ci", PST_F_NUMS, "s", "its interval", false, NULL},
    {"o_r_s", PST_F_NUM, "s", "receive overhead o_r", false, NULL},
    {"o_r_s_ci", PST_F_NUMS, "s", "its interval", false, NULL},
    {"g_s", PST_F_NUM, "s", "gap per message g", false, NULL},
    {"g_s_ci", PST_F_NUMS, "s", "its interval", false, NULL},
    {"G_s_per_byte", PST_F_NUM, "s/byte", "gap per byte G", false, NULL},
    {"G_s_per_byte_ci", PST_F_NUMS, "s/byte", "its interval", false, NULL},
    {"fit_ok", PST_F_BOOL, NULL, "no parameter is negative (else L drowned in the overheads)", false, NULL},
};
static const pst_fields loggp_fields = PST_FIELDS("pingpong loggp", loggp);
const pst_schema pst_schema_pingpong_loggp = {
    "pingpong", "summary", "loggp", "With --loggp: the LogGP parameters of the first pair.",
    {&pst_fields_common, &loggp_fields},
};
