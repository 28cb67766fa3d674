/* Named timer events, as PETSc's log events and its -log_view summary: a
 * table of events registered once by name, each timed between a begin and an end and summed
 * with its call count; over a communicator, per event the slowest and the fastest rank, the mean,
 * the imbalance and the calls, which records carry from the table (pst_rec_events).
 *
 * Timing is one clock read per boundary: pst_event_end adds the time since *since_s to the event
 * and moves *since_s on to now, so a run of stages back to back reads the clock once between
 * each two (the model's step, src/model/stages/step.c).
 *
 * Events time the stages of a run: the model's step and its stages, the parallel algorithms'
 * share of the FFT and Legendre stages (model/transforms/pfft.c, model/transforms/pleg.c), FFT planning.  The raw
 * timer (runtime/timer.h) stays where a loop measures one operation again and again to compare it
 * with another: the micro-benchmarks' turns (pingpong, swap, coll, match, loggp), the interleaved
 * rounds of runtime/rounds.c (which time `pstswm kernel`'s cases) and --blas auto's trial Legendre
 * passes (model/stages/dynamics.c, for pst_blas_choose): there a repetition is the measurement, not a
 * stage of it. */
#ifndef PST_CORE_EVENTS_H
#define PST_CORE_EVENTS_H

#include "runtime/timer.h"

#include <mpi.h>

enum { PST_EVENTS_MAX = 16 };

typedef struct pst_event_table {
    int n;
    const char *name[PST_EVENTS_MAX];
    double total_s[PST_EVENTS_MAX];
    long long calls[PST_EVENTS_MAX];
} pst_event_table;

/* The event called name (registered now if new; its index).  Names are not copied.  Every rank
 * of a communicator that gathers the table's statistics registers the same events in the same order. */
int pst_event_register(pst_event_table *t, const char *name);
/* The index of the event called name; -1 when none is registered. */
int pst_event_find(const pst_event_table *t, const char *name);

static inline void pst_event_begin(double *since_s) { *since_s = pst_now_s(); }

/* Returns the time this call added (seconds). */
static inline double pst_event_end(pst_event_table *t, int event, double *since_s)
{
    double now_s = pst_now_s(), elapsed_s = now_s - *since_s;
    t->total_s[event] += elapsed_s;
    t->calls[event]++;
    *since_s = now_s;
    return elapsed_s;
}

/* One event over the ranks: its time per unit (e.g. per timed step) on the slowest and the
 * fastest rank and their ranks, the mean over ranks, imbalance = slowest / mean (1: balanced;
 * 0 when no rank spent time), and calls, the most any rank made (in total, not per unit). */
typedef struct pst_event_stats {
    const char *name;
    double slowest_s, fastest_s, mean_s, imbalance;
    int slowest_rank, fastest_rank;
    long long calls;
} pst_event_stats;

/* Collective over comm (MPI_COMM_NULL: this process alone).  What t gathered since `base` (a
 * copy of t taken earlier; NULL: since registration), divided by `per` (> 0) for the times, into
 * out[t->n]. */
void pst_event_stats_of(const pst_event_table *t, const pst_event_table *base, double per, MPI_Comm comm,
                        pst_event_stats *out);

struct pst_rec;
/* A list of objects under key, one per event (members: pst_event_fields). */
void pst_rec_events(struct pst_rec *r, const char *key, const pst_event_stats *stats, int n);
extern const struct pst_fields pst_event_fields;

#endif
