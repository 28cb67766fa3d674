/* pst_subcommand_run: the one driver every subcommand's row runs through (cmd/common/frame.h). */
#include "cmd/common/frame.h"

#include "core/errors.h"
#include "runtime/fault.h"

#include <stdio.h>
#include <string.h>

/* Every set: measured on every rank, reported by rank 0, freed on every rank. */
static void run_sets(const pst_subcommand *b)
{
    size_t nsets = b->nsets ? b->nsets(b->cfg) : 0;
    for (size_t s = 0; s < nsets; s++) {
        void *data = b->measure(b->cfg, s);
        if (b->ctx->rank == 0 && b->analyse) {
            void *an = b->analyse(b->cfg, data);
            if (b->print) b->print(b->cfg, data, an);
            if (b->emit) b->emit(b->cfg, data, an);
            if (b->analysis_free) b->analysis_free(b->cfg, an);
        }
        if (b->set_free) b->set_free(b->cfg, data);
    }
}

int pst_subcommand_run(const pst_subcommand *b, int argc, char **argv)
{
    /* Fresh options each run: the fuzzers run a subcommand many times in one process. */
    memcpy(b->cfg, b->defaults, b->cfg_bytes);
    if (b->ctx) pst_ctx_init(b->ctx, b->schemas[0], argc, argv);
    else {
        static char progname[64]; /* the run context names error messages; without it, the frame does */
        snprintf(progname, sizeof progname, "pstswm %s", b->name);
        pst_set_progname(progname);
    }
    if (b->prepare) b->prepare(b->cfg);
    pst_cli_parse(b->command, argc, argv);
    if (b->validate) b->validate(b->cfg);
    if (!b->ctx) {
        if (b->finish) b->finish(b->cfg);
        pst_exit_trap_point(PST_EXIT_OK, b->name); /* like --help: the fuzzer's stop */
        return PST_EXIT_OK;
    }
    pst_fault_check();
    pst_ctx_validated(b->ctx);
    if (b->plan) b->plan(b->cfg);
    pst_ctx_start(b->ctx);
    run_sets(b);
    if (b->finish) b->finish(b->cfg);
    if (b->release) b->release(b->cfg);
    pst_ctx_finish(b->ctx);
    return PST_EXIT_OK;
}
