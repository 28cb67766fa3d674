/* The record schemas of every subcommand (core/schema.h): what each record it writes carries.
 * Each bench's schemas live in <bench>/<bench>_schema.c beside its driver; its registry row lists them
 * (cmd/common/frame.h), and `pstswm schema` prints them all for docs/records.md and pstlab. */
#ifndef PST_CMD_RECORDS_H
#define PST_CMD_RECORDS_H

#include "core/schema.h"

#include <stddef.h>

extern const pst_schema pst_schema_swap_header, pst_schema_swap_point, pst_schema_swap_protocol,
    pst_schema_swap_sensitivity;
extern const pst_schema pst_schema_pingpong_header, pst_schema_pingpong_point, pst_schema_pingpong_modes,
    pst_schema_pingpong_latbw, pst_schema_pingpong_loggp;
extern const pst_schema pst_schema_coll_header, pst_schema_coll_point, pst_schema_coll_overlap,
    pst_schema_coll_persistent;
extern const pst_schema pst_schema_kernel_header, pst_schema_kernel_point, pst_schema_kernel_sensitivity,
    pst_schema_kernel_generic, pst_schema_kernel_family;
extern const pst_schema pst_schema_match_header, pst_schema_match_point, pst_schema_match_fit, pst_schema_match_queues,
    pst_schema_match_asserts, pst_schema_match_mpit;
extern const pst_schema pst_schema_model_header, pst_schema_model_point, pst_schema_model_diag;

/* Fields several benches write with one meaning. */
#define PST_FIELD_PROTOCOL                                                                                             \
    {"protocol", PST_F_STR, NULL, "protocol code of the catalogue, e.g. 0,6 (docs/protocols.md)", false, NULL}
#define PST_FIELD_SLUG {"slug", PST_F_STR, NULL, "the protocol's name, e.g. unordered.sendrecv", false, NULL}
#define PST_FIELD_WIN_MODEL \
    {"win_model", PST_F_STR, NULL,                                                                                     \
     "memory model of the rma transport's window (separate or unified); null for other transports", false, NULL}
#define PST_FIELD_PAIR                                                                                                 \
    {"pair", PST_F_STR, NULL, "the ranks measured: I,J (one pair) or all (i <-> i+P/2 at once), as given to --pairs",  \
     false, NULL}
#define PST_FIELD_LOCALITY                                                                                             \
    {"locality", PST_F_STR, NULL,                                                                                      \
     "where the ranks measured sit: intra-node (every pair inside a node), inter-node (every pair across nodes) or "   \
     "mixed (header: locality); absent in records of pstswm before locality", true, NULL}
#define PST_FIELD_NPAIRS {"npairs", PST_F_INT, NULL, "pairs exchanging at once", false, NULL}
#define PST_FIELD_WARMUP                                                                                               \
    {"warmup", PST_F_INT, NULL, "untimed repetitions before an alternative's first timed one (--warmup)", false, NULL}
#define PST_FIELD_VERIFIED                                                                                             \
    {"verified", PST_F_BOOL, NULL, "every received payload was checked (false with --no-verify)", false, NULL}
#define PST_FIELD_SAMPLES                                                                                              \
    {"samples", PST_F_NUMS, "s", "every repetition's time, full precision (with --samples)", true, NULL}

#endif
