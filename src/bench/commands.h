/* The registry: every subcommand's row (bench/frame.h), in the order `pstswm --help` lists them. */
#ifndef PST_COMMANDS_H
#define PST_COMMANDS_H

#include "bench/frame.h"

#include <stddef.h>

extern const pst_bench *const pst_benches[];
extern const size_t pst_nbenches;

/* The row named name, or NULL. */
const pst_bench *pst_bench_find(const char *name);

#endif
