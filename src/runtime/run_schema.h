/* The field groups the run's machinery writes: the fields every record has (pst_rec_begin), the
 * run header and footer (the context, noise probe, binding, allocator, locality), the settings of
 * a comparison and its rounds (rounds.h). */
#ifndef PST_RUN_SCHEMA_H
#define PST_RUN_SCHEMA_H

#include "core/schema.h"

extern const pst_fields pst_fields_common;    /* every record: bench, type, run_id, ranks, transport, summary */
extern const pst_fields pst_fields_header;    /* every run header */
extern const pst_fields pst_fields_footer;    /* every footer */
extern const pst_fields pst_fields_rounds;    /* pst_rec_rounds: times and the median's interval over rounds */
extern const pst_fields pst_fields_rounds_header; /* pst_rounds_setup's header fields */

/* Every run's header carries common + run header + the bench's own groups; every footer is the same. */
#define PST_HEADER_SCHEMA(bench_name, ...)                                                          \
    {.bench = bench_name, .type = "header", .doc = "The run header: the first line of the file.",   \
     .part = {&pst_fields_common, &pst_fields_header, __VA_ARGS__}}
#define PST_FOOTER_SCHEMA(bench_name)                                                                \
    {.bench = bench_name, .type = "footer",                                                                            \
     .doc = "The last line of a completed run; a file without one was interrupted.",                                   \
     .part = {&pst_fields_common, &pst_fields_footer}}

#endif
