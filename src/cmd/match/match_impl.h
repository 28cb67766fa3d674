/* What pstswm match's measuring (match.c) and reporting (match_report.c) share: the options and
 * what validation and the plan derive from them, the plan of configurations and what one
 * configuration's measurement holds. */
#ifndef PST_MATCH_IMPL_H
#define PST_MATCH_IMPL_H

#include "cmd/match/match_model.h"
#include "cmd/match/match_mpit.h"
#include "core/cli.h"
#include "runtime/context.h"
#include "stats/stats.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

enum { ALG_TAG, ALG_COMM, NALG };
enum { ORDER_IN, ORDER_REVERSE, NORDER };
enum { QUEUE_POSTED, QUEUE_UNEXPECTED, QUEUE_ANY, NQUEUE };
enum { WILD_NONE, WILD_SOURCE, WILD_TAG, NWILD };

extern const char *const pst_match_alg_names[], *const pst_match_order_names[], *const pst_match_queue_names[],
    *const pst_match_wild_names[];

/* A configuration: its points (one per n of --counts) are measured and fitted together. */
typedef struct config_key { int alg, queue, wild, length; } config_key;

/* The plan: every configuration in the order it runs and reports, built once (plan) and measured
 * one configuration per set of the frame. */
typedef struct match_config {
    config_key key;
    bool asserted;                    /* --assert: run on the asserted communicators */
    pst_match_fit fit;                /* the joint fit over n (rank 0, kept for the verdicts) */
    const struct match_config *tag;   /* comm: the tag configuration beside it (NULL: tags not run) */
    const struct match_config *plain; /* asserted: the same configuration without the assertions */
} match_config;

typedef struct match_plan {
    match_config *configs;
    size_t nconfigs;
} match_plan;

typedef struct match_cfg {
    pst_ctx ctx;
    pst_str_list algorithms, orders, queues, wildcards, asserts;
    pst_int_list counts, lengths;
    long long iters, reps, warmup;
    const char *stat;
    bool samples, mpi_t;
    pst_mpit mpit;             /* --mpi-t: the library's performance variables */
    /* derived */
    int role, peer;
    MPI_Comm pair, data, ctrl; /* pair: ranks 0,1; data: tag algorithm; ctrl: control messages */
    MPI_Comm *comms;           /* comm algorithm: one per message */
    long long ncomms;
    /* --assert: the data communicators without (plain) and with (asserted) the info assertions;
     * data and comms point at one pair at a time.  `asserted`: the pair in use. */
    MPI_Comm data_plain, data_asserted, *comms_plain, *comms_asserted;
    bool asserted;
    char acknowledged[160];    /* the assertions MPI_Comm_get_info gave back, comma-separated */
    bool alg_on[NALG], order_on[NORDER];
    match_plan plan;
} match_cfg;

typedef struct point {
    double *t[NORDER]; /* per-repetition seconds per round trip (rank 0) */
    pst_summary s[NORDER];
    long long corrupted;
    long long depth_seen; /* --mpi-t: the queue length the library reported (-1: not read) */
} point;

/* One configuration measured (a set of the frame): its point at each n of --counts. */
typedef struct config_run {
    const match_config *c;
    point *points;
} config_run;

/* The queue depth the mode means to build, where one communicator carries the batch: n in the
 * posted and unexpected modes of the tag algorithm (-1: none, e.g. the comm algorithm's one
 * message per communicator or the uncontrolled mode any). */
static inline long long pst_match_depth_intended(int alg, int queue, long long n)
{
    return alg == ALG_TAG && queue != QUEUE_ANY ? n : -1;
}

/* The frame's reporting phases (rank 0) and the --assert comparison (its finish). */
void *pst_match_analyse(const void *cfg, const void *run);
void pst_match_analysis_free(const void *cfg, void *analysis);
void pst_match_print(const void *cfg, const void *run, const void *analysis);
void pst_match_emit(void *cfg, const void *run, const void *analysis);
void pst_match_compare_asserts(void *cfg);

#endif
