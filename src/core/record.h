/* JSON Lines records (the record format: docs/running.md, Output format).  A record is built in memory and written by
 * rank 0 with a single write + flush, so a line in the file is either complete or absent. */
#ifndef PST_RECORD_H
#define PST_RECORD_H

#include "core/schema.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The record schema's version, in every run header (`schema_version`).  Raise it when a field is
 * renamed or removed or changes meaning (adding a field does not need it), and say in
 * docs/records.md what changed: pstlab reads every older version and refuses newer ones.
 *   1  records before the header carried a version
 *   2  the model names its collectives alltoallv / allreduce (was "coll"); kernel headers carry
 *      the algorithm registry; match's quadratic fit is song_m_ns (was seed_m_ns) */
#define PST_SCHEMA_VERSION 2

enum { PST_REC_DEPTH = 8 };

typedef struct pst_rec {
    char *buf;
    size_t len, cap;
    bool empty;
    /* Checking against the schema (core/schema.h); a bare object (pst_rec_open) has none. */
    const pst_schema *schema;
    const pst_field *open[PST_REC_DEPTH]; /* the objects and lists being written, innermost last */
    int depth;
    const pst_field *last;                 /* the field of the key just written */
    uint64_t seen[PST_SCHEMA_PARTS];       /* top-level fields written, a bit per field of each part */
} pst_rec;

/* Start a record of schema s (a run's records start with runtime/emit.h's pst_rec_begin).  Every
 * field written after it must be one of s's, of its type, written once; pst_rec_write checks that
 * the required ones were. */
void pst_rec_open_schema(pst_rec *r, const pst_schema *s);
void pst_rec_str(pst_rec *r, const char *key, const char *value); /* NULL → null */
void pst_rec_int(pst_rec *r, const char *key, long long value);
void pst_rec_num(pst_rec *r, const char *key, double value);      /* non-finite → null */
void pst_rec_bool(pst_rec *r, const char *key, bool value);
void pst_rec_nums(pst_rec *r, const char *key, const double *v, size_t n);
/* The same with 5 significant digits: per-round samples, where full precision would triple the line. */
void pst_rec_nums_compact(pst_rec *r, const char *key, const double *v, size_t n);
void pst_rec_ints(pst_rec *r, const char *key, const long long *v, size_t n);
void pst_rec_strs(pst_rec *r, const char *key, const char *const *v, size_t n);
/* Nested values: an object under key k (k NULL: the next element of the enclosing list), a
 * list of objects under key k, and null. */
void pst_rec_obj_begin(pst_rec *r, const char *k);
void pst_rec_obj_end(pst_rec *r);
void pst_rec_list_begin(pst_rec *r, const char *k);
void pst_rec_list_end(pst_rec *r);
void pst_rec_null(pst_rec *r, const char *k);
/* Finish, write to the record file if to_file and one is open, and release the buffer. */
void pst_rec_write(pst_rec *r, bool to_file);
/* A bare JSON object, not a record (no common fields), finished and printed as one line to f
 * (e.g. a registry listed on stdout); print releases the buffer. */
void pst_rec_open(pst_rec *r);
void pst_rec_print(pst_rec *r, FILE *f);

/* JSON string escaping into a growing buffer; exposed for tests. */
void pst_json_escape(pst_rec *r, const char *s);

#endif
