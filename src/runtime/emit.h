/* A run's records: begun with the fields every record has, taken from the run context, and
 * written to the run's file by rank 0.  The rest of the record API (core/record.h) needs no run. */
#ifndef PST_EMIT_H
#define PST_EMIT_H

#include "core/record.h"
#include "runtime/context.h"

/* Start a record of schema s with the fields common to all: bench, type, run_id, ranks, transport
 * (and summary: a summary record's kind).  Every field written after it must be one of s's, of its
 * type, written once; pst_rec_emit checks that the required ones were. */
void pst_rec_begin(pst_rec *r, const pst_ctx *c, const pst_schema *s);
/* Finish and write (rank 0, if a file is open); always releases the buffer. */
void pst_rec_emit(pst_rec *r, pst_ctx *c);

#endif
