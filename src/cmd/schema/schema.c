/* `pstswm schema`: the record schema of every subcommand, as a table, JSON or Markdown. */
#include "cmd/commands.h"
#include "cmd/common/records.h"
#include "cmd/schema/schema_print.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* Every subcommand's schemas, in the registry's order: header, records, footer. */
static const pst_schema **all_schemas(size_t *n)
{
    *n = 0;
    for (size_t b = 0; b < pst_nsubcommands; b++)
        for (const pst_schema *const *s = pst_subcommands[b]->schemas; s && *s; s++) ++*n;
    const pst_schema **all = pst_malloc(*n * sizeof *all);
    size_t k = 0;
    for (size_t b = 0; b < pst_nsubcommands; b++)
        for (const pst_schema *const *s = pst_subcommands[b]->schemas; s && *s; s++) all[k++] = *s;
    return all;
}

static void print_table(const pst_schema *const *schemas, size_t n, FILE *f)
{
    for (size_t i = 0; i < n; i++) {
        const pst_schema *s = schemas[i];
        fprintf(f, "%s / %s%s%s:", s->bench, s->type, s->summary ? " " : "", s->summary ? s->summary : "");
        for (size_t p = 0; p < PST_SCHEMA_PARTS && s->part[p]; p++) {
            const pst_fields *g = s->part[p];
            fprintf(f, "\n  [%s]", g->name);
            for (size_t k = 0; k < g->n; k++) fprintf(f, " %s%s", g->field[k].name, g->field[k].optional ? "?" : "");
        }
        fputs("\n", f);
    }
    fputs("(? = not always present; `pstswm schema --markdown` has types, units and meanings)\n", f);
}

typedef struct schema_cfg {
    bool json, markdown;
} schema_cfg;

static const schema_cfg default_cfg = {0};
static schema_cfg run_cfg;

static const pst_opt opts[] = {
    {"json", PST_OPT_FLAG, &run_cfg.json, NULL, "as one JSON document (pstlab's copy: python/pstlab/io/schema.json)", 1,
     0, NULL, NULL},
    {"markdown", PST_OPT_FLAG, &run_cfg.markdown, NULL, "as Markdown (docs/records.md)", 1, 0, NULL, NULL},
    {0},
};
static const pst_command command = {
    .name = "schema",
    .summary = "The fields of every record each subcommand writes: name, JSON type, unit and meaning.",
    .description = "Every record is checked against this schema as it is written, so a record file always matches it.\n"
                   "It also checks itself first (names unique within a record, every field documented): exit 3 if not.",
    .examples = "  pstswm schema                 # the fields of every record, briefly\n"
                "  pstswm schema --markdown      # the reference page, docs/records.md\n"
                "  pstswm schema --json > schema.json",
    .opts = opts,
};

static void validate(void *p)
{
    const schema_cfg *cfg = p;
    if (cfg->json && cfg->markdown) pst_usage_error("--json and --markdown: choose one");
}

/* Rank 0 checks the schemas, then prints them. */
static void print_schemas(void *p)
{
    const schema_cfg *cfg = p;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0) return;
    size_t n;
    const pst_schema **schemas = all_schemas(&n);
    if (pst_schema_check(schemas, n, stderr)) pst_fatal(PST_EXIT_FAILED, "the record schema is inconsistent (above)");
    if (cfg->json) pst_schema_print_json(schemas, n, stdout);
    else if (cfg->markdown) pst_schema_print_markdown(schemas, n, stdout);
    else print_table(schemas, n, stdout);
    fflush(stdout);
    free(schemas);
}

const pst_subcommand pst_subcommand_schema = {
    .name = "schema",
    .summary = "the fields of every record the subcommands write: type, unit, meaning",
    .command = &command,
    .cfg = &run_cfg,
    .defaults = &default_cfg,
    .cfg_bytes = sizeof run_cfg,
    .validate = validate,
    .finish = print_schemas,
};
