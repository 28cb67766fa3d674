#include "runtime/noise.h"

#include "core/alloc.h"
#include "stats/stats.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

void pst_noise_step(pst_noise_acc *a, double step_s)
{
    a->spun_s += step_s;
    if (step_s <= a->threshold_s) return;
    a->gaps++;
    a->lost_s += step_s;
    if (step_s > a->max_gap_s) a->max_gap_s = step_s;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

pst_noise pst_noise_probe(double probe_s, double timer_resolution_s)
{
    pst_noise_acc a = {.threshold_s = fmax(20e-6, 10 * timer_resolution_s)};
    MPI_Barrier(MPI_COMM_WORLD);
    double start = now_s(), last = start;
    while (last - start < probe_s) {
        double t = now_s();
        pst_noise_step(&a, t - last);
        last = t;
    }
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double mine[3] = {a.spun_s > 0 ? a.lost_s / a.spun_s : 0, a.max_gap_s, (double)a.gaps};
    double *all = rank == 0 ? pst_malloc((size_t)size * 3 * sizeof *all) : NULL;
    MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    pst_noise n = {.probe_s = probe_s, .threshold_s = a.threshold_s};
    if (rank == 0) {
        double *frac = pst_malloc((size_t)size * sizeof *frac);
        for (int i = 0; i < size; i++) {
            frac[i] = all[3 * i];
            n.max_gap_s = fmax(n.max_gap_s, all[3 * i + 1]);
            n.gaps += (long long)all[3 * i + 2];
        }
        pst_summary s = pst_summarize(frac, (size_t)size);
        n.lost_frac_max = s.max;
        n.lost_frac_median = s.median;
        free(frac);
    }
    free(all);
    return n;
}

void pst_rec_noise(pst_rec *r, const char *k, const pst_noise *n)
{
    pst_rec_obj_begin(r, k);
    pst_rec_num(r, "lost_frac_max", n->lost_frac_max);
    pst_rec_num(r, "lost_frac_median", n->lost_frac_median);
    pst_rec_num(r, "max_gap_s", n->max_gap_s);
    pst_rec_int(r, "gaps", n->gaps);
    pst_rec_obj_end(r);
}
