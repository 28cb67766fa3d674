/* The records of `pstswm match` (docs/match.md). */
#include "cmd/common/records.h"
#include "runtime/run_schema.h"
#include "stats/stats_schema.h"

const pst_schema pst_schema_match_header = PST_HEADER_SCHEMA("match", NULL);

#define ALGORITHM_FIELD                                                                                                \
    {"algorithm", PST_F_STR, NULL,                                                                                     \
     "how the match order is forced: tag (message i carries tag i) or comm (message i travels on its own duplicated "  \
     "communicator)", false, NULL}
#define QUEUE_FIELD                                                                                                    \
    {"queue", PST_F_STR, NULL,                                                                                         \
     "the queue the failed matches search: posted (receives posted first, go-signal), unexpected (messages queued "    \
     "first, fence + probe) or any (no control, as Song 2013)", false, NULL}
#define WILDCARD_FIELD                                                                                                 \
    {"wildcard", PST_F_STR, NULL, "receive wildcard: none, source (MPI_ANY_SOURCE) or tag (MPI_ANY_TAG)", false, NULL}
#define LENGTH_FIELD {"length", PST_F_INT, NULL, "message length in doubles", false, NULL}
#define BYTES_FIELD {"bytes", PST_F_INT, "bytes", "message length in bytes: 8 x length", false, NULL}
#define STAT_FIELD(what)                                                                                               \
    {"stat", PST_F_STR, NULL, "the statistic over repetitions taken as " what ": t_min or t_med (--stat min|median)",  \
     false, NULL}
#define ASSERTS_FIELD                                                                                                  \
    {"asserts", PST_F_STRS, NULL,                                                                                      \
     "with --assert: the MPI-4 info assertions on the data communicators of this record's run, [] for the run "        \
     "without them; absent without --assert", true, NULL}
#define ORDER_FORCED_DOC                                                                                               \
    "false for the tag algorithm with wildcard tags, which forces no order: a control whose M should be 0"

static const pst_field point[] = {
    ALGORITHM_FIELD,
    {"locality", PST_F_STR, NULL,
     "ranks 0 and 1, the pair measured: intra-node or inter-node (header: locality); absent in records of pstswm "
     "before locality",
     true, NULL},
    {"order", PST_F_STR, NULL, "rank 1's posting order: in (as sent) or reverse", false, NULL},
    QUEUE_FIELD,
    WILDCARD_FIELD,
    {"n", PST_F_INT, NULL, "messages each way per round trip (the batch size)", false, NULL},
    LENGTH_FIELD,
    BYTES_FIELD,
    ASSERTS_FIELD,
    {"iot_s", PST_F_NUM, "s", "IOT(n), the in-order round trip: the statistic named in stat (order in only)", true,
     NULL},
    {"rot_s", PST_F_NUM, "s", "ROT(n), the reverse-order round trip: the statistic named in stat (order reverse only)",
     true, NULL},
    STAT_FIELD("iot_s or rot_s"),
    {"failed_matches", PST_F_NUM, NULL,
     "failed match attempts per round trip by construction: n(n-1) in reverse order when the order is forced, else 0",
     false, NULL},
    {"iters", PST_F_INT, NULL, "round trips timed together per repetition; a repetition's time is their mean", false,
     NULL},
    {"warmup", PST_F_INT, NULL, "untimed round trips per point and order before the timed ones (--warmup)", false,
     NULL},
    {"verified", PST_F_BOOL, NULL,
     "rank 0 checked that every echoed message came back into its own slot (false with --no-verify)", false, NULL},
    {"samples", PST_F_NUMS, "s", "every repetition's time per round trip, full precision (with --samples)", true, NULL},
    {"queue_depth_intended", PST_F_INT, NULL,
     "with --mpi-t: n, the depth the posted or unexpected mode of the tag algorithm builds on its one communicator; "
     "null otherwise",
     true, NULL},
    {"queue_depth_seen", PST_F_INT, NULL,
     "with --mpi-t: that queue's length as the library reported it (MPI_T) at that moment of an untimed round trip; "
     "null where not exposed or not meant",
     true, NULL},
};
static const pst_fields point_fields = PST_FIELDS("match point", point);
const pst_schema pst_schema_match_point = {
    "match",
    "point",
    NULL,
    "One algorithm, order, queue mode, wildcard, batch size n and length; times are per round trip (n messages each "
    "way), timed on rank 0 over reps repetitions, each after a barrier of the pair and the mean of iters round trips.",
    {&pst_fields_common, &point_fields, &pst_fields_times},
};

static const pst_field fit[] = {
    ALGORITHM_FIELD,
    QUEUE_FIELD,
    WILDCARD_FIELD,
    LENGTH_FIELD,
    BYTES_FIELD,
    ASSERTS_FIELD,
    STAT_FIELD("IOT and ROT"),
    {"model", PST_F_STR, NULL,
     "the model fitted, with the n^2 Q term (three or more distinct n) or without (Song 2013's)", false, NULL},
    {"counts", PST_F_INTS, NULL, "the batch sizes n, in --counts order; the arrays below follow it", false, NULL},
    {"iot_s", PST_F_NUMS, "s", "IOT per n", false, NULL},
    {"rot_s", PST_F_NUMS, "s", "ROT per n", false, NULL},
    {"diff_s", PST_F_NUMS, "s", "ROT - IOT per n", false, NULL},
    {"m_ns_per_n", PST_F_NUMS, "ns", "Song 2013's per-n estimate (ROT - IOT) / (n(n-1)); null for n = 1", false, NULL},
    {"fitted", PST_F_BOOL, NULL, "the least-squares fit succeeded: it needs at least two distinct n, one of them >= 2",
     false, NULL},
    {"m_ns", PST_F_NUM, "ns",
     "M, the time per failed match, from the joint least-squares fit of IOT and ROT over all n; null when not fitted",
     false, NULL},
    {"m_ns_ci95", PST_F_NUMS, "ns", "its 95 % Student-t interval (when fitted)", true, NULL},
    {"r2", PST_F_NUM, NULL, "R^2 of the joint fit", false, NULL},
    {"l_s", PST_F_NUM, "s", "L, the fixed cost per round trip (control messages included)", false, NULL},
    {"l_s_ci95", PST_F_NUMS, "s", "its 95 % interval (when fitted)", true, NULL},
    {"s_s", PST_F_NUM, "s", "S, the cost per message of a round trip", false, NULL},
    {"s_s_ci95", PST_F_NUMS, "s", "its 95 % interval (when fitted)", true, NULL},
    {"q_s", PST_F_NUM, "s",
     "Q, the cost per message^2 common to both orders (beyond Song 2013; only when fitted, three or more distinct n)",
     true, NULL},
    {"q_s_ci95", PST_F_NUMS, "s", "its 95 % interval (with q_s)", true, NULL},
    {"song_m_ns", PST_F_NUM, "ns",
     "M from Song's model without Q, for comparison (the same as m_ns when Q was not fitted)", false, NULL},
    {"song_m_ns_ci95", PST_F_NUMS, "ns", "its 95 % interval (when that fit ran)", true, NULL},
    {"song_r2", PST_F_NUM, NULL, "R^2 of Song's fit", false, NULL},
    {"nobs", PST_F_INT, NULL, "observations fitted: one IOT and one ROT per n", false, NULL},
    {"order_forced", PST_F_BOOL, NULL, "tags or communicators force the match order; " ORDER_FORCED_DOC, false, NULL},
};
static const pst_fields fit_fields = PST_FIELDS("match fit", fit);
const pst_schema pst_schema_match_fit = {
    "match", "summary", "fit",
    "Per algorithm, queue mode, wildcard and length, when both orders ran: IOT(n) = L + n S (+ n^2 Q) and "
    "ROT(n) = IOT(n) + n(n-1) M fitted to all n at once (Song 2013), and the per-n figures.",
    {&pst_fields_common, &fit_fields},
};

static const pst_field queues[] = {
    QUEUE_FIELD,
    WILDCARD_FIELD,
    LENGTH_FIELD,
    ASSERTS_FIELD,
    {"verdict", PST_F_STR, NULL,
     "per-communicator (tag M's 95 % interval excludes 0; |comm M / tag M| < 0.2 and comm M's interval within +-50 % "
     "of tag M), shared (comm M's interval excludes 0 on tag M's side and comm M >= 50 % of tag M; without a tag "
     "reference: comm M's interval excludes 0) or inconclusive (anything else, e.g. a tag M not significantly "
     "different from 0)",
     false, NULL},
    {"m_comm_ns", PST_F_NUM, "ns", "the comm algorithm's M (its fit's m_ns)", false, NULL},
    {"m_comm_ns_ci95", PST_F_NUMS, "ns", "its 95 % interval", false, NULL},
    {"m_tag_ns", PST_F_NUM, "ns",
     "the tag algorithm's M, the reference (absent when the tag algorithm was not fitted or wildcard is tag)", true,
     NULL},
    {"m_tag_ns_ci95", PST_F_NUMS, "ns", "its 95 % interval (with m_tag_ns)", true, NULL},
    {"comm_over_tag", PST_F_NUM, NULL, "m_comm_ns / m_tag_ns; null without a tag M significantly different from 0",
     false, NULL},
    {"evidence", PST_F_STR, NULL, "both M with their intervals and the ratio, as printed", false, NULL},
};
static const pst_fields queues_fields = PST_FIELDS("match queues", queues);
const pst_schema pst_schema_match_queues = {
    "match",
    "summary",
    "queues",
    "Per queue mode, wildcard and length, when the comm algorithm was fitted: does the library keep one match queue "
    "per communicator? The comm algorithm's M against the tag algorithm's.",
    {&pst_fields_common, &queues_fields},
};

static const pst_field asserts[] = {
    ALGORITHM_FIELD,
    QUEUE_FIELD,
    WILDCARD_FIELD,
    LENGTH_FIELD,
    {"asserts", PST_F_STRS, NULL,
     "the MPI-4 info assertions set on the data communicators (--assert): no_any_tag, no_any_source, allow_overtaking",
     false, NULL},
    {"acknowledged", PST_F_STR, NULL,
     "the assertions MPI_Comm_get_info gave back on the asserted communicator (a library that ignores them gives back "
     "none): null for none",
     false, NULL},
    {"m_plain_ns", PST_F_NUM, "ns", "M without the assertions", false, NULL},
    {"m_plain_ns_ci95", PST_F_NUMS, "ns", "its 95 % interval", false, NULL},
    {"m_asserted_ns", PST_F_NUM, "ns", "M with them", false, NULL},
    {"m_asserted_ns_ci95", PST_F_NUMS, "ns", "its 95 % interval", false, NULL},
    {"asserted_over_plain", PST_F_NUM, NULL, "m_asserted_ns / m_plain_ns", false, NULL},
    {"effect", PST_F_STR, NULL,
     "no matching cost measured without them (M's interval does not exclude 0), else lower or higher when the two "
     "intervals are apart, else no difference at this precision",
     false, NULL},
};
static const pst_fields asserts_fields = PST_FIELDS("match asserts", asserts);
const pst_schema pst_schema_match_asserts = {
    "match", "summary", "asserts",
    "With --assert, per algorithm, queue mode, wildcard and length: M without and with the MPI-4 communicator info "
    "assertions (MPI-4.0 7.4.4), both runs fitted alike.",
    {&pst_fields_common, &asserts_fields},
};

static const pst_field mpit[] = {
    {"mpi_t", PST_F_BOOL, NULL, "MPI_T_init_thread succeeded", false, NULL},
    {"pvars", PST_F_INT, NULL, "performance variables the library exposes", false, NULL},
    {"pvar_names", PST_F_STRS, NULL, "their names, in MPI_T's order (a name may repeat)", false, NULL},
    {"posted_var", PST_F_STR, NULL,
     "the per-communicator posted-receive queue length read (pml_ob1_posted_recvq_length, posted_recvq_length); null: "
     "not exposed",
     false, NULL},
    {"unexpected_var", PST_F_STR, NULL, "the per-communicator unexpected-message queue length read; null: not exposed",
     false, NULL},
    {"queues_exposed", PST_F_BOOL, NULL, "either queue's length is readable", false, NULL},
};
static const pst_fields mpit_fields = PST_FIELDS("match mpit", mpit);
const pst_schema pst_schema_match_mpit = {
    "match", "summary", "mpit",
    "With --mpi-t, once per run: the MPI library's MPI_T performance variables (MPI-3.1 14.3.7) and which match-queue "
    "lengths it exposes.",
    {&pst_fields_common, &mpit_fields},
};
