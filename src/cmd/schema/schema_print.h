/* The record schema (core/schema.h) printed: as one JSON document (pstlab's copy) and as the
 * Markdown of docs/records.md. */
#ifndef PST_SCHEMA_PRINT_H
#define PST_SCHEMA_PRINT_H

#include "core/schema.h"

#include <stdio.h>

void pst_schema_print_json(const pst_schema *const *s, size_t n, FILE *f);
void pst_schema_print_markdown(const pst_schema *const *s, size_t n, FILE *f);

#endif
