/* The one list of subcommands: main.c dispatches and prints its usage from it, `pstswm schema`
 * takes every record's schema from it, in this order.  A new subcommand is its row here and its file. */
#include "bench/commands.h"

#include <string.h>

extern const pst_bench pst_bench_swap, pst_bench_pingpong, pst_bench_coll, pst_bench_kernel, pst_bench_match, pst_bench_model,
    pst_bench_schema;

const pst_bench *const pst_benches[] = {
    &pst_bench_swap, &pst_bench_pingpong, &pst_bench_coll, &pst_bench_kernel, &pst_bench_match, &pst_bench_model, &pst_bench_schema,
};
const size_t pst_nbenches = sizeof pst_benches / sizeof pst_benches[0];

const pst_bench *pst_bench_find(const char *name)
{
    for (size_t i = 0; i < pst_nbenches; i++)
        if (!strcmp(pst_benches[i]->name, name)) return pst_benches[i];
    return NULL;
}
