/* The record schema: every field a record may carry, with its JSON type, unit and meaning.
 * Records are checked against it as they are written (record.c: an unknown field, a field of the
 * wrong type, one written twice or a required one missing ends the run with exit 3), `pstswm
 * schema` prints it (cmd/schema/schema_print.h), docs/records.md is generated from it and pstlab reads a
 * copy of it.
 *
 * A record's schema is a few field groups ("parts"): the fields every record has, the groups a
 * shared writer adds (the statistics of pst_rec_times, a verdict, ...) and the bench's own.  This
 * file is the machinery; the shared groups sit with their writers' layers (runtime/run_schema.h,
 * stats/stats_schema.h). */
#ifndef PST_SCHEMA_H
#define PST_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum pst_ftype {
    PST_F_STR,
    PST_F_INT,
    PST_F_NUM,  /* a JSON number: also takes an integer */
    PST_F_BOOL,
    PST_F_STRS, /* lists of the above */
    PST_F_INTS,
    PST_F_NUMS,
    PST_F_OBJ,  /* an object with the listed members */
    PST_F_OBJS, /* a list of such objects */
    PST_F_MAP,  /* an object with free keys (environment variables) */
} pst_ftype;

struct pst_fields;

typedef struct pst_field {
    const char *name;
    pst_ftype type;
    const char *unit;                  /* "s", "bytes", "MB/s", ...; NULL: none */
    const char *doc;
    bool optional;                     /* absent from some records of its kind */
    const struct pst_fields *members;  /* PST_F_OBJ and PST_F_OBJS */
} pst_field;

/* Any field may also be null: a number that is not finite, a string that is not known. */
typedef struct pst_fields {
    const char *name; /* the group, for `pstswm schema` and error messages */
    const pst_field *field;
    size_t n;
} pst_fields;

#define PST_FIELDS(group, array) {group, array, sizeof array / sizeof array[0]}

enum { PST_SCHEMA_PARTS = 6, PST_SCHEMA_PART_MAX = 64 };

typedef struct pst_schema {
    const char *bench, *type;
    const char *summary;                          /* a summary record's kind (its "summary" field), else NULL */
    const char *doc;
    const pst_fields *part[PST_SCHEMA_PARTS];     /* NULL-terminated */
} pst_schema;

/* The field named key among the parts (depth 0) or the members of an object; NULL if none. */
const pst_field *pst_schema_field(const pst_schema *s, const char *key, size_t *part, size_t *index);
const pst_field *pst_fields_find(const pst_fields *g, const char *key);

const char *pst_ftype_name(pst_ftype t);

/* Self-check of a list of schemas (unit tests, `pstswm schema`): names unique within a record,
 * parts within PST_SCHEMA_PART_MAX, members where the type needs them.  Returns the number of
 * problems, each described on err. */
int pst_schema_check(const pst_schema *const *s, size_t n, FILE *err);

#endif
