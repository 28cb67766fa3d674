/* Run context: who we are in MPI_COMM_WORLD, the run id, the common options every
 * subcommand takes (--out, --timeout, --no-verify), the output file and the run header. */
#ifndef PST_CONTEXT_H
#define PST_CONTEXT_H

#include "runtime/thread_level.h"

#include <stdbool.h>
#include <stdio.h>

struct pst_rec;
struct pst_schema;

typedef struct pst_ctx {
    int rank, size;
    char run_id[24];
    const char *subcommand;
    const struct pst_schema *header_schema; /* the fields the run header may carry */
    char *cmdline;             /* the whole command line, shell-quoted */
    /* common options */
    const char *out_path;      /* NULL: no record file */
    double timeout_s;          /* per-experiment watchdog; 0 disables */
    bool no_verify;
    const char *thread_level;  /* checked here; MPI was initialised at it before parsing */
    double noise_probe_s;      /* host-noise probe before and after the run; 0 disables */
    size_t alloc_probe_bytes;  /* block size of the allocator probe: the run's largest message */
    /* state */
    const char *transport;     /* written into every record */
    double timer_resolution_s;
    double start_s;
    bool oversubscribed;       /* some host runs more ranks than CPUs: timings are not verdicts */
    bool noisy;                /* the noise probe lost more than PST_NOISE_LIMIT on some rank */
    /* Subcommand fields for the run header (e.g. the comparison schedule): pst_ctx_add_header. */
    struct pst_ctx_header {
        void (*fields)(struct pst_rec *r, const struct pst_ctx *c, void *arg);
        void *arg;
    } headers[6];
    int nheaders;
} pst_ctx;

/* Common options, for a subcommand's pst_opt table. */
#define PST_COMMON_OPTS(ctx)                                                                      \
    {"out", PST_OPT_STRING, &(ctx)->out_path, "FILE",                                                                  \
     "write JSON Lines records to FILE (rank 0; written as FILE.partial, renamed on success)", 1, 0, NULL, NULL},      \
    {"timeout", PST_OPT_DOUBLE, &(ctx)->timeout_s, "SEC",                                         \
     "abort (exit 4) if any one experiment runs longer than SEC s; 0 = never", 0, 1e9, NULL, NULL}, \
    {"no-verify", PST_OPT_FLAG, &(ctx)->no_verify, NULL, "skip payload/result verification", 1, 0, NULL, NULL}, \
    {"noise-probe", PST_OPT_DOUBLE, &(ctx)->noise_probe_s, "SEC",                                     \
     "spin on the clock for SEC s on every rank before and after the run to measure host noise; 0 = off", \
     0, 60, NULL, NULL},                                                                                  \
    {"thread-level", PST_OPT_STRING, &(ctx)->thread_level, "LEVEL",                                   \
     "MPI thread support to ask for: single|funneled|serialized|multiple, to measure what it costs", \
     1, 0, pst_thread_levels, NULL}

/* Have fields(r, c, arg) add a subcommand's fields to the run header (before pst_ctx_start);
 * registering the same function again replaces its arg.  The fields must be in the header schema
 * given to pst_ctx_init. */
void pst_ctx_add_header(pst_ctx *c, void (*fields)(struct pst_rec *r, const pst_ctx *c, void *arg), void *arg);

/* The --samples option row: keep every `what`'s time in the records (a string literal). */
#define PST_SAMPLES_OPT(field, what) \
    {"samples", PST_OPT_FLAG, (field), NULL, "keep every " what "'s time in the records", 1, 0, NULL, NULL}

/* After a command validated its input, before any set-up that allocates or communicates. */
void pst_ctx_validated(pst_ctx *c);

/* Before parsing: defaults, rank/size, run id (agreed by broadcast), command line.  header is the
 * subcommand's run-header schema (its bench names the subcommand). */
/* The commit this binary was built from ("-dirty" with local changes, "unknown" outside git). */
const char *pst_git_commit(void);

void pst_ctx_init(pst_ctx *c, const struct pst_schema *header, int argc, char **argv);

/* After all validation: open --out (collective usage error if it cannot be written), survey
 * the machine (binding, oversubscription) and probe its noise, write the run header record,
 * print the header lines on stdout, start the watchdog. */
void pst_ctx_start(pst_ctx *c);

/* Stop the watchdog, probe the noise again into a final footer record, close the record file. */
void pst_ctx_finish(pst_ctx *c);

#endif
