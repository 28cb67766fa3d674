#include "runtime/events.h"

#include "core/errors.h"
#include "core/record.h"
#include "core/schema.h"

#include <string.h>

int pst_event_find(const pst_event_table *t, const char *name)
{
    for (int e = 0; e < t->n; e++)
        if (!strcmp(t->name[e], name)) return e;
    return -1;
}

int pst_event_register(pst_event_table *t, const char *name)
{
    int found = pst_event_find(t, name);
    if (found >= 0) return found;
    if (t->n == PST_EVENTS_MAX)
        pst_fatal(PST_EXIT_FAILED, "more than %d timer events (registering %s)", PST_EVENTS_MAX, name);
    t->name[t->n] = name;
    t->total_s[t->n] = 0;
    t->calls[t->n] = 0;
    return t->n++;
}

void pst_event_stats_of(const pst_event_table *t, const pst_event_table *base, double per, MPI_Comm comm,
                        pst_event_stats *out)
{
    int rank = 0, size = 1;
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
    }
    struct { double s; int rank; } mine[PST_EVENTS_MAX], slowest[PST_EVENTS_MAX], fastest[PST_EVENTS_MAX];
    double sum_s[PST_EVENTS_MAX];
    long long calls[PST_EVENTS_MAX];
    for (int e = 0; e < t->n; e++) {
        mine[e].s = sum_s[e] = (t->total_s[e] - (base ? base->total_s[e] : 0)) / per;
        mine[e].rank = rank;
        calls[e] = t->calls[e] - (base ? base->calls[e] : 0);
    }
    memcpy(slowest, mine, sizeof mine);
    memcpy(fastest, mine, sizeof mine);
    if (comm != MPI_COMM_NULL) {
        MPI_Allreduce(mine, slowest, t->n, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
        MPI_Allreduce(mine, fastest, t->n, MPI_DOUBLE_INT, MPI_MINLOC, comm);
        MPI_Allreduce(MPI_IN_PLACE, sum_s, t->n, MPI_DOUBLE, MPI_SUM, comm);
        MPI_Allreduce(MPI_IN_PLACE, calls, t->n, MPI_LONG_LONG, MPI_MAX, comm);
    }
    for (int e = 0; e < t->n; e++) {
        double mean_s = sum_s[e] / size;
        out[e] = (pst_event_stats){.name = t->name[e],
                                   .slowest_s = slowest[e].s,
                                   .fastest_s = fastest[e].s,
                                   .mean_s = mean_s,
                                   .imbalance = mean_s > 0 ? slowest[e].s / mean_s : 0,
                                   .slowest_rank = slowest[e].rank,
                                   .fastest_rank = fastest[e].rank,
                                   .calls = calls[e]};
    }
}

static const pst_field event_fields[] = {
    {"name", PST_F_STR, NULL, "the timer event (the model: a stage category, fft, legendre, fourier, grid or spectral)",
     false, NULL},
    {"slowest_s", PST_F_NUM, "s", "its time per timed step on the slowest rank", false, NULL},
    {"slowest_rank", PST_F_INT, NULL, "that rank (the lowest of equals)", false, NULL},
    {"fastest_s", PST_F_NUM, "s", "its time per timed step on the fastest rank", false, NULL},
    {"fastest_rank", PST_F_INT, NULL, "that rank (the lowest of equals)", false, NULL},
    {"mean_s", PST_F_NUM, "s", "its time per timed step, the mean over ranks", false, NULL},
    {"imbalance", PST_F_NUM, NULL,
     "slowest_s / mean_s: 1 when balanced, up to the ranks' count when one rank does it all; 0 when no rank spent time "
     "in it",
     false, NULL},
    {"calls", PST_F_INT, NULL, "times it was timed over the timed steps, the most on any rank", false, NULL},
};
const pst_fields pst_event_fields = PST_FIELDS("timer event", event_fields);

void pst_rec_events(pst_rec *r, const char *key, const pst_event_stats *stats, int n)
{
    pst_rec_list_begin(r, key);
    for (int e = 0; e < n; e++) {
        pst_rec_obj_begin(r, NULL);
        pst_rec_str(r, "name", stats[e].name);
        pst_rec_num(r, "slowest_s", stats[e].slowest_s);
        pst_rec_int(r, "slowest_rank", stats[e].slowest_rank);
        pst_rec_num(r, "fastest_s", stats[e].fastest_s);
        pst_rec_int(r, "fastest_rank", stats[e].fastest_rank);
        pst_rec_num(r, "mean_s", stats[e].mean_s);
        pst_rec_num(r, "imbalance", stats[e].imbalance);
        pst_rec_int(r, "calls", stats[e].calls);
        pst_rec_obj_end(r);
    }
    pst_rec_list_end(r);
}
