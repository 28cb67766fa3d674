/* The registry: every subcommand's row (cmd/common/frame.h), in the order `pstswm --help` lists them. */
#ifndef PST_COMMANDS_H
#define PST_COMMANDS_H

#include "cmd/common/frame.h"

#include <stddef.h>

extern const pst_subcommand *const pst_subcommands[];
extern const size_t pst_nsubcommands;

/* The row named name, or NULL. */
const pst_subcommand *pst_subcommand_find(const char *name);

#endif
