/* `pstswm schema`: the record schema of every subcommand, as a table, JSON or Markdown. */
#include "bench/commands.h"
#include "bench/records.h"
#include "bench/schema_print.h"
#include "core/cli.h"
#include "core/errors.h"
#include "run/run_schema.h"

#include <mpi.h>
#include <stdio.h>

static const pst_schema swap_footer = PST_FOOTER_SCHEMA("swap"), pingpong_footer = PST_FOOTER_SCHEMA("pingpong"),
                        coll_footer = PST_FOOTER_SCHEMA("coll"), kernel_footer = PST_FOOTER_SCHEMA("kernel"),
                        match_footer = PST_FOOTER_SCHEMA("match"), model_footer = PST_FOOTER_SCHEMA("model");

const pst_schema *const pst_bench_schemas[] = {
    &pst_schema_swap_header, &pst_schema_swap_point, &pst_schema_swap_protocol, &pst_schema_swap_sensitivity, &swap_footer,
    &pst_schema_pingpong_header, &pst_schema_pingpong_point, &pst_schema_pingpong_latbw, &pst_schema_pingpong_modes,
    &pst_schema_pingpong_loggp, &pingpong_footer,
    &pst_schema_coll_header, &pst_schema_coll_point, &pst_schema_coll_overlap, &pst_schema_coll_persistent, &coll_footer,
    &pst_schema_kernel_header, &pst_schema_kernel_point, &pst_schema_kernel_sensitivity, &pst_schema_kernel_generic, &pst_schema_kernel_family, &kernel_footer,
    &pst_schema_match_header, &pst_schema_match_point, &pst_schema_match_fit, &pst_schema_match_queues, &pst_schema_match_asserts, &pst_schema_match_mpit, &match_footer,
    &pst_schema_model_header, &pst_schema_model_point, &pst_schema_model_diag, &model_footer,
};
const size_t pst_bench_nschemas = sizeof pst_bench_schemas / sizeof pst_bench_schemas[0];

static void print_table(FILE *f)
{
    for (size_t i = 0; i < pst_bench_nschemas; i++) {
        const pst_schema *s = pst_bench_schemas[i];
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

int pst_cmd_schema(int argc, char **argv)
{
    bool json = false, markdown = false;
    pst_set_progname("pstswm schema");
    const pst_opt opts[] = {
        {"json", PST_OPT_FLAG, &json, NULL, "as one JSON document (pstlab's copy: python/pstlab/schema.json)", 1, 0, NULL},
        {"markdown", PST_OPT_FLAG, &markdown, NULL, "as Markdown (docs/records.md)", 1, 0, NULL},
        {0},
    };
    const pst_command cmd = {
        .name = "schema",
        .summary = "The fields of every record each subcommand writes: name, JSON type, unit and meaning.",
        .description = "Every record is checked against this schema as it is written, so a record file always matches it.\n"
                       "It also checks itself first (names unique within a record, every field documented): exit 3 if not.",
        .examples = "  pstswm schema                 # the fields of every record, briefly\n"
                    "  pstswm schema --markdown      # the reference page, docs/records.md\n"
                    "  pstswm schema --json > schema.json",
        .opts = opts,
    };
    pst_cli_parse(&cmd, argc, argv);
    if (json && markdown) pst_usage_error("--json and --markdown: choose one");
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        if (pst_schema_check(pst_bench_schemas, pst_bench_nschemas, stderr))
            pst_fatal(PST_EXIT_FAILED, "the record schema is inconsistent (above)");
        if (json) pst_schema_print_json(pst_bench_schemas, pst_bench_nschemas, stdout);
        else if (markdown) pst_schema_print_markdown(pst_bench_schemas, pst_bench_nschemas, stdout);
        else print_table(stdout);
        fflush(stdout);
    }
    pst_exit_trap_point(PST_EXIT_OK, "schema"); /* like --help: the fuzzer's stop */
    return PST_EXIT_OK;
}
