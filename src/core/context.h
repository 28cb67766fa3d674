/* Run context: who we are in MPI_COMM_WORLD, the run id, the common options every
 * subcommand takes (--out, --timeout, --no-verify), the output file and the run header. */
#ifndef PST_CONTEXT_H
#define PST_CONTEXT_H

#include "core/thread_level.h"

#include <stdbool.h>
#include <stdio.h>

struct pst_rec;

typedef struct pst_ctx {
    int rank, size;
    char run_id[24];
    const char *subcommand;
    char *cmdline;             /* the whole command line, shell-quoted */
    /* common options */
    const char *out_path;      /* NULL: no record file */
    double timeout_s;          /* per-experiment watchdog; 0 disables */
    bool no_verify;
    const char *thread_level;  /* checked here; MPI was initialised at it before parsing */
    /* state */
    FILE *out;
    const char *transport;     /* written into every record */
    double timer_resolution_s;
    /* Subcommand fields for the run header (e.g. the comparison schedule); NULL: none. */
    void (*header_extra)(struct pst_rec *r, const struct pst_ctx *c, void *arg);
    void *header_extra_arg;
} pst_ctx;

/* Common options, for a subcommand's pst_opt table. */
#define PST_COMMON_OPTS(ctx)                                                                      \
    {"out", PST_OPT_STRING, &(ctx)->out_path, "FILE", "write JSON Lines records to FILE (rank 0; replaced)", 1, 0, NULL}, \
    {"timeout", PST_OPT_DOUBLE, &(ctx)->timeout_s, "SEC",                                         \
     "abort (exit 4) if any one experiment runs longer than SEC s; 0 = never (default 600)", 0, 1e9, NULL}, \
    {"no-verify", PST_OPT_FLAG, &(ctx)->no_verify, NULL, "skip payload/result verification", 1, 0, NULL}, \
    {"thread-level", PST_OPT_STRING, &(ctx)->thread_level, "LEVEL",                                   \
     "MPI thread support to ask for: single|funneled|serialized|multiple, to measure what it costs (default single)", \
     1, 0, pst_thread_levels}

/* Before parsing: defaults, rank/size, run id (agreed by broadcast), command line. */
void pst_ctx_init(pst_ctx *c, const char *subcommand, int argc, char **argv);

/* After all validation: open --out (collective usage error if it cannot be written), write the
 * run header record, print the header line on stdout, start the watchdog. */
void pst_ctx_start(pst_ctx *c);

/* Stop the watchdog, close the record file. */
void pst_ctx_finish(pst_ctx *c);

#endif
