/* Fair comparisons of alternatives (protocols at one size, protocol × overlap for one kernel,
 * send modes, collective ops): the schedule that measures them, enough repetitions, and the
 * record fields that carry the verdict and its confidence.
 *
 * Schedule "rounds" (default): repetition r of every alternative runs before repetition r+1 of
 * any, in an order shuffled per round by --seed, so a slow drift of host load hits every
 * alternative alike (ReproMPI's shuffling, Hunold & Carpen-Amarie 2016).  "sequential" keeps
 * the papers' back-to-back order.  --adaptive adds rounds after the first --reps until every
 * alternative's median is known to --precision, or this comparison's share of --budget is
 * spent.  It never stops because a verdict looks decided: that would be optional stopping. */
#ifndef PST_ROUNDS_H
#define PST_ROUNDS_H

#include "core/record.h"
#include "runtime/context.h"
#include "stats/stats.h"
#include "stats/verdict.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct pst_rounds_opts {
    const char *schedule;     /* "rounds" or "sequential" */
    long long seed;
    double margin, confidence;
    bool adaptive;
    double precision;         /* target CI half-width relative to the median */
    double budget_s;          /* for the adaptive rounds of the whole run; 0: none */
    /* state: the adaptive budget left and the comparisons still to run */
    double budget_start_s;
    size_t sets_left;
    unsigned long long sets_run;
} pst_rounds_opts;

#define PST_ROUNDS_DEFAULTS {.schedule = "rounds", .seed = 1, .margin = 0.02, .confidence = 0.95, .precision = 0.05}

enum { PST_MIN_VERDICT_ROUNDS = 10 };

/* Options for a subcommand's pst_opt table. */
#define PST_ROUNDS_SCHEDULE_OPTS(o)                                                                                    \
    {"schedule", PST_OPT_STRING, &(o)->schedule, "KIND",                                                               \
     "rounds (every alternative's repetition r before any's r+1, shuffled by --seed) or sequential",                   \
     1, 0, pst_round_schedules, NULL},                                                                                 \
    {"seed", PST_OPT_INT, &(o)->seed, "N", "seed of the shuffled order inside each round", 0, 9.0e15, NULL, NULL},     \
    {"margin", PST_OPT_DOUBLE, &(o)->margin, "FRAC",                                                                   \
     "equivalence margin: alternatives closer than this are a tie", 0, 1, NULL, NULL},                                 \
    {"confidence", PST_OPT_DOUBLE, &(o)->confidence, "P", "confidence of intervals and best sets", 0.5, 0.999,         \
     NULL, NULL},                                                                                                      \
    {"adaptive", PST_OPT_FLAG, &(o)->adaptive, NULL,                                                                   \
     "after --reps rounds (at least 10), add rounds until every median is known to --precision or --budget is "        \
     "spent", 1, 0, NULL, NULL},                                                                                       \
    {"precision", PST_OPT_DOUBLE, &(o)->precision, "FRAC",                                                             \
     "adaptive target: CI half-width of each median relative to it", 0.001, 1, NULL, NULL},                            \
    {"budget", PST_OPT_DOUBLE, &(o)->budget_s, "SEC",                                                                  \
     "adaptive rounds stop when the run has spent SEC s on them; 0 = at 10x --reps rounds", 0, 1e6, NULL, NULL}

/* --reps and --warmup of a subcommand that compares alternatives in rounds: `calls` names what
 * is warmed up (a plural noun), `alternative` the thing compared ("a protocol"). */
#define PST_ROUNDS_OPTS(reps, reps_max, warmup, calls, alternative)                                                    \
    {"reps", PST_OPT_INT, (reps), "N", "timed rounds per point; the minimum with --adaptive", 1, (reps_max), NULL,     \
     NULL},                                                                                                            \
    {"warmup", PST_OPT_INT, (warmup), "N",                                                                             \
     "untimed " calls " before " alternative "'s first timed one; each later turn re-warms with one", 0, 1e6, NULL,    \
     NULL}

extern const char *const pst_round_schedules[];

/* After parsing: check the combination (exit 2 on a bad one), register the header fields
 * (schedule, seed, margin, ...) with ctx, and say how many comparisons the run will make so
 * the budget can be shared among them. */
void pst_rounds_setup(pst_rounds_opts *o, pst_ctx *ctx, long long reps, size_t comparisons);

/* One turn of alternative alt in round round: run it once, timed, and return this rank's
 * time in seconds (0 on a rank that takes no part).  Collective as the driver needs. */
typedef double (*pst_turn_fn)(void *arg, size_t alt, size_t round);

/* The order of round `round` of the comparison numbered `stream`: shuffled by --seed under
 * --schedule rounds, 0 ... k-1 under sequential.  Every rank computes the same order.  The
 * comparisons pst_rounds_run makes are streams 0, 1, ...; a measurement that runs its own rounds
 * (coll's nonblocking and persistent forms) takes a stream of its own above them. */
void pst_round_order(const pst_rounds_opts *o, unsigned long long stream, size_t round, size_t *order, size_t k);

typedef struct pst_rounds {
    size_t k, n, cap;
    double **t;               /* t[alt][round]: the max over all ranks of the turn's time */
    bool precision_reached;   /* every alternative's median within --precision */
    double elapsed_s;
} pst_rounds;

/* Run one comparison of k alternatives: at least `reps` rounds, then adaptive ones.  Collective
 * over MPI_COMM_WORLD; every rank ends with the same R. */
void pst_rounds_run(pst_rounds *R, pst_rounds_opts *o, size_t k, long long reps, pst_turn_fn turn, void *arg);
void pst_rounds_free(pst_rounds *R);

/* Alternative alt's point fields: t_min/t_med/t_mean/t_max and reps, stat, ci_low, ci_high,
 * rounds, precision_reached, round_s.  Returns its summary. */
pst_summary pst_rec_rounds(pst_rec *r, const pst_rounds *R, size_t alt, const pst_rounds_opts *o);

/* The verdict over the first k alternatives (those after them, like the kernel's collective, are
 * comparators outside it).  in_set (k entries) receives the best set. */
pst_verdict pst_rounds_verdict(const pst_rounds *R, size_t k, const pst_rounds_opts *o, bool *in_set, double *median);

/* Verdict fields of a summary record: stat, best, best_set, decided, nalternatives, margin,
 * confidence, level, level_ci, median_rel_ci, rounds, precision_reached (of the verdict's
 * alternatives), verdict_ok and verdict_caveats.  labels[i] names alternative i of the verdict. */
void pst_rec_verdict(pst_rec *r, const pst_verdict *v, const bool *in_set, const char *const *labels,
                     const pst_rounds *R, const pst_rounds_opts *o, const pst_ctx *c);

/* "2,3 ≈ 3,1 ≈ 0,6": the best set, best first, for tables (buf of len bytes); a set of more than
 * PST_TIE_SET_INLINE members lists that many, then "+N more" (the records hold every member).
 * A lone name only when the verdict is decided. */
enum { PST_TIE_SET_INLINE = 4 };
const char *pst_tie_set(const pst_verdict *v, const bool *in_set, const char *const *labels, const double *median,
                        char *buf, size_t len);

#endif
