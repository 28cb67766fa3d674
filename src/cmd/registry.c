/* The one list of subcommands: main.c dispatches and prints its usage from it, `pstswm schema`
 * takes every record's schema from it, in this order.  A new subcommand is its row here and its file. */
#include "cmd/commands.h"

#include <string.h>

extern const pst_subcommand pst_subcommand_swap, pst_subcommand_pingpong, pst_subcommand_coll, pst_subcommand_kernel,
    pst_subcommand_match, pst_subcommand_model, pst_subcommand_schema;

const pst_subcommand *const pst_subcommands[] = {
    &pst_subcommand_swap,  &pst_subcommand_pingpong, &pst_subcommand_coll,   &pst_subcommand_kernel,
    &pst_subcommand_match, &pst_subcommand_model,    &pst_subcommand_schema,
};
const size_t pst_nsubcommands = sizeof pst_subcommands / sizeof pst_subcommands[0];

const pst_subcommand *pst_subcommand_find(const char *name)
{
    for (size_t i = 0; i < pst_nsubcommands; i++)
        if (!strcmp(pst_subcommands[i]->name, name)) return pst_subcommands[i];
    return NULL;
}
