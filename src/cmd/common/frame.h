/* The subcommand frame: a subcommand is one row of phases that one driver, pst_subcommand_run, calls in
 * order.  The driver holds what every subcommand does alike: the run context, option parsing and
 * --help, the end of validation (where the fuzzers stop), the run header and watchdog, the rank-0
 * split between measuring and reporting, the footer and the exit code.
 *
 * A run, as pst_subcommand_run calls it:
 *   cfg = *defaults; pst_ctx_init; prepare; parse (--help exits here); validate; pst_ctx_validated;
 *   plan; pst_ctx_start;
 *   for each set s < nsets(cfg):  data = measure(cfg, s)                      (every rank)
 *                                 an = analyse(cfg, data); print; emit; analysis_free  (rank 0)
 *                                 set_free(cfg, data)                         (every rank)
 *   finish(cfg); release(cfg); pst_ctx_finish; exit 0.
 * A phase a subcommand does not need is NULL.  Without a run context (ctx NULL: the subcommand
 * only prints, like `schema`) there is no header, footer or record file, and finish is its work. */
#ifndef PST_CMD_FRAME_H
#define PST_CMD_FRAME_H

#include "core/cli.h"
#include "core/schema.h"
#include "runtime/context.h"

#include <stddef.h>

typedef struct pst_subcommand {
    const char *name;          /* the subcommand, e.g. "swap" */
    const char *summary;       /* one line for `pstswm --help` */
    /* The options: the table of command (its --help text) points into cfg, which the driver resets
     * from defaults (the initialiser that holds every default) before each run. */
    const pst_command *command;
    void *cfg;
    const void *defaults;
    size_t cfg_bytes;
    pst_ctx *ctx;              /* the run context inside cfg; NULL: no run (no header, records or footer) */
    /* Every record the subcommand writes: its run header first, NULL-ended; `pstswm schema` lists
     * them and adds the footer every run writes. */
    const pst_schema *const *schemas;

    /* Before parsing: option choices or help text built at run time (from another registry). */
    void (*prepare)(void *cfg);
    /* Check the parsed options and complete them (defaults that depend on the rank count, the
     * comparison set-up); bad input ends in a usage error (exit 2). */
    void (*validate)(void *cfg);
    /* Set-up the run header may record, before it is written: communicators, buffers, plans. */
    void (*plan)(void *cfg);
    /* The measurement sets, each measured on every rank, then reported by rank 0. */
    size_t (*nsets)(const void *cfg);
    void *(*measure)(void *cfg, size_t set);                /* collective */
    void *(*analyse)(const void *cfg, const void *data);    /* rank 0 */
    void (*print)(const void *cfg, const void *data, const void *analysis);   /* rank 0: stdout */
    void (*emit)(void *cfg, const void *data, const void *analysis);         /* rank 0: records */
    void (*analysis_free)(const void *cfg, void *analysis);
    void (*set_free)(void *cfg, void *data);
    /* After the last set, on every rank: closing measurements and legends. */
    void (*finish)(void *cfg);
    /* Free what validate and plan made. */
    void (*release)(void *cfg);
} pst_subcommand;

/* A row's options: the run's copy `run` (a file-static options struct holding its run context as
 * `ctx`) and the initialiser `initial` it is reset from. */
#define PST_SUBCOMMAND_OPTIONS(run, initial)                                                                           \
    .cfg = &(run), .defaults = &(initial), .cfg_bytes = sizeof(run), .ctx = &(run).ctx

/* Run the subcommand b with argv[0] its name; returns its exit code (errors exit on their own). */
int pst_subcommand_run(const pst_subcommand *b, int argc, char **argv);

#endif
