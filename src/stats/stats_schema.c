#include "stats/stats_schema.h"

static const pst_field times[] = {
    {"t_min", PST_F_NUM, "s", "smallest time over repetitions", false, NULL},
    {"t_med", PST_F_NUM, "s", "median time", false, NULL},
    {"t_mean", PST_F_NUM, "s", "mean time", false, NULL},
    {"t_max", PST_F_NUM, "s", "largest time", false, NULL},
    {"reps", PST_F_INT, NULL, "repetitions (rounds) the statistics are over", false, NULL},
};
const pst_fields pst_fields_times = PST_FIELDS("times", times);

static const pst_field verdict[] = {
    {"stat", PST_F_STR, NULL, "the statistic compared: t_med", false, NULL},
    {"best", PST_F_STR, NULL, "the alternative with the smallest median", false, NULL},
    {"best_set", PST_F_STRS, NULL, "alternatives not shown slower than the best by more than margin, at confidence",
     false, NULL},
    {"decided", PST_F_BOOL, NULL, "the best set has one member", false, NULL},
    {"nalternatives", PST_F_INT, NULL, "alternatives compared", false, NULL},
    {"margin", PST_F_NUM, NULL, "equivalence margin (fraction): closer alternatives are a tie", false, NULL},
    {"confidence", PST_F_NUM, NULL, "confidence of the intervals and of the best set", false, NULL},
    {"level", PST_F_STR, NULL, "sensitivity: low (median_rel <= 5 %), moderate, high (>= 15 %) or undetermined", false,
     NULL},
    {"level_ci", PST_F_STRS, NULL, "the levels at the two ends of median_rel_ci", false, NULL},
    {"median_rel_ci", PST_F_NUMS, NULL, "interval of the median alternative's relative excess over the best", false,
     NULL},
    {"rounds", PST_F_INT, NULL, "rounds behind the verdict", false, NULL},
    {"precision_reached", PST_F_BOOL, NULL,
     "the median of every alternative compared reached --precision (a comparator measured beside them, like the "
     "kernel's collective, does not count)",
     false, NULL},
    {"verdict_ok", PST_F_BOOL, NULL, "no caveat applies", false, NULL},
    {"verdict_caveats", PST_F_STRS, NULL,
     "why the verdict may not hold: oversubscribed, noisy, fewer than 10 rounds, precision not reached, below 20x "
     "timer resolution",
     false, NULL},
};
const pst_fields pst_fields_verdict = PST_FIELDS("verdict", verdict);

static const pst_field sensitivity[] = {
    {"mean_rel", PST_F_NUM, NULL, "mean over alternatives of (t - min) / min", false, NULL},
    {"median_rel", PST_F_NUM, NULL, "the median alternative's relative excess over the best (paired over rounds)",
     false, NULL},
    {"max_rel", PST_F_NUM, NULL, "the slowest alternative's (t - min) / min", false, NULL},
    {"fastest", PST_F_STRS, NULL, "the (up to) five fastest alternatives, fastest first", false, NULL},
    {"within_1pct", PST_F_INT, NULL, "alternatives within 1 % of the fastest", false, NULL},
    {"within_5pct", PST_F_INT, NULL, "within 5 %", false, NULL},
    {"within_25pct", PST_F_INT, NULL, "within 25 %", false, NULL},
};
const pst_fields pst_fields_sensitivity = PST_FIELDS("sensitivity", sensitivity);

static const pst_field segment[] = {
    {"from_bytes", PST_F_INT, "bytes", "first message size of the segment", false, NULL},
    {"to_bytes", PST_F_INT, "bytes", "last message size of the segment", false, NULL},
    {"npoints", PST_F_INT, NULL, "sizes in the segment", false, NULL},
    {"alpha_s", PST_F_NUM, "s", "start-up time: the fit's intercept", false, NULL},
    {"alpha_ci", PST_F_NUMS, "s", "its 95 % interval", false, NULL},
    {"beta_mbytes_per_s", PST_F_NUM, "MB/s", "bandwidth: the inverse of the fit's slope", false, NULL},
    {"beta_ci", PST_F_NUMS, "MB/s", "its 95 % interval", false, NULL},
    {"t_l_s", PST_F_NUM, "s", "alpha_s in Worley's notation (t_L)", false, NULL},
    {"t_l_ci95", PST_F_NUMS, "s", "its 95 % interval", false, NULL},
    {"t_s_s_per_byte", PST_F_NUM, "s/byte", "the slope (t_S)", false, NULL},
    {"t_s_ci95", PST_F_NUMS, "s/byte", "its 95 % interval", false, NULL},
};
static const pst_fields segment_fields = PST_FIELDS("segment", segment);

static const pst_field segfit[] = {
    {"breakpoints_bytes", PST_F_INTS, "bytes",
     "message sizes where a new segment of the piecewise fit starts (protocol switches)", false, NULL},
    {"segments", PST_F_OBJS, NULL, "the piecewise-linear fit t = alpha + bytes / beta, per segment", false,
     &segment_fields},
    {"model_max_rel_err", PST_F_NUM, NULL, "largest relative error of the piecewise fit at a measured size", false,
     NULL},
    {"fit_ok", PST_F_BOOL, NULL, "the fit describes every size within its tolerance", false, NULL},
};
const pst_fields pst_fields_segfit = PST_FIELDS("piecewise fit", segfit);
