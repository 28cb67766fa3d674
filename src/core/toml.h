/* A strict reader for the TOML that pstswm's input files use (TOML 1.0: comments, [table]
 * headers, key = value with strings, integers, floats, booleans and inline tables).  Anything
 * else — arrays, dotted keys, multi-line strings, dates — is refused with file:line and the
 * reason, never guessed at; so are duplicate keys, invalid UTF-8 and control characters. */
#ifndef PST_TOML_H
#define PST_TOML_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { PST_TOML_STRING, PST_TOML_INT, PST_TOML_FLOAT, PST_TOML_BOOL, PST_TOML_TABLE } pst_toml_kind;

typedef struct pst_toml pst_toml;
struct pst_toml {
    pst_toml_kind kind;
    char *key; /* NULL for the root */
    int line;
    char *str;
    long long i;
    double f;
    bool b;
    pst_toml *items; /* a table's members, in file order */
    size_t n;
};

/* Parse text (len bytes; need not be NUL-terminated).  Returns the root table, or NULL with
 * "NAME:LINE: reason" in err. */
pst_toml *pst_toml_parse(const char *text, size_t len, const char *name, char *err, size_t errlen);

/* Read and parse a regular file (a directory or device is refused). */
pst_toml *pst_toml_read(const char *path, char *err, size_t errlen);

/* The member `key` of a table, or NULL. */
const pst_toml *pst_toml_get(const pst_toml *table, const char *key);

const char *pst_toml_kind_name(pst_toml_kind kind);

void pst_toml_free(pst_toml *root);

#endif
