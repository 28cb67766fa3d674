/* The one list of subcommands: main.c dispatches and prints its usage from it, `pstswm schema`
 * takes every record's schema from it, in this order.  A new subcommand is its row here and its file. */
#include "bench/commands.h"
#include "bench/records.h"

#include <string.h>

extern const pst_bench pst_bench_swap, pst_bench_pingpong, pst_bench_coll, pst_bench_schema;

/* match, model and kernel still run their own drivers. */
int pst_cmd_match(int argc, char **argv);
int pst_cmd_model(int argc, char **argv);
int pst_cmd_kernel(int argc, char **argv);

static const pst_schema match_footer = PST_FOOTER_SCHEMA("match"), model_footer = PST_FOOTER_SCHEMA("model"),
                        kernel_footer = PST_FOOTER_SCHEMA("kernel");
static const pst_schema *const match_schemas[] = {&pst_schema_match_header, &pst_schema_match_point, &pst_schema_match_fit,
                                                  &pst_schema_match_queues, &pst_schema_match_asserts,
                                                  &pst_schema_match_mpit, &match_footer, NULL};
static const pst_schema *const model_schemas[] = {&pst_schema_model_header, &pst_schema_model_point,
                                                  &pst_schema_model_diag, &model_footer, NULL};
static const pst_schema *const kernel_schemas[] = {&pst_schema_kernel_header, &pst_schema_kernel_point,
                                                   &pst_schema_kernel_sensitivity, &pst_schema_kernel_generic,
                                                   &pst_schema_kernel_family, &kernel_footer, NULL};
static const pst_bench match = {
    .name = "match",
    .summary = "cost of MPI message matching: tag/comm algorithms, in/reverse posting, fitted M",
    .schemas = match_schemas,
    .own_driver = pst_cmd_match,
};
static const pst_bench model = {
    .name = "model",
    .summary = "spectral transform shallow water model: time per step, MFlop/s, errors, conservation",
    .schemas = model_schemas,
    .own_driver = pst_cmd_model,
};
static const pst_bench kernel = {
    .name = "kernel",
    .summary = "each parallel algorithm alone, every protocol, checked against MPI collectives",
    .schemas = kernel_schemas,
    .own_driver = pst_cmd_kernel,
};

const pst_bench *const pst_benches[] = {
    &pst_bench_swap, &pst_bench_pingpong, &pst_bench_coll, &kernel, &match, &model, &pst_bench_schema,
};
const size_t pst_nbenches = sizeof pst_benches / sizeof pst_benches[0];

const pst_bench *pst_bench_find(const char *name)
{
    for (size_t i = 0; i < pst_nbenches; i++)
        if (!strcmp(pst_benches[i]->name, name)) return pst_benches[i];
    return NULL;
}
