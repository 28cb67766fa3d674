/* Host-noise probe: every rank spins on the clock at once and counts the time it lost in gaps,
 * the stalls a shared or oversubscribed machine inflicts on a benchmark (hypervisor steal,
 * other jobs, interrupts).  Run before the first experiment and after the last one, it says
 * whether the machine could support a verdict.  With more ranks than CPUs the probe measures
 * the ranks themselves taking turns. */
#ifndef PST_NOISE_H
#define PST_NOISE_H

#include "core/record.h"

#include <stdbool.h>

/* Gap accounting over successive clock readings; a pure function of the steps, for tests. */
typedef struct pst_noise_acc {
    double threshold_s;  /* a step longer than this is a gap: max(20 us, 10 x timer resolution) */
    double lost_s, max_gap_s, spun_s;
    long long gaps;
} pst_noise_acc;

void pst_noise_step(pst_noise_acc *a, double step_s);

/* What the probe found over all ranks. */
typedef struct pst_noise {
    double probe_s, threshold_s;
    double lost_frac_max, lost_frac_median, max_gap_s;
    long long gaps;
} pst_noise;

/* Above this lost fraction on any rank the machine is noisy. */
#define PST_NOISE_LIMIT 0.02

/* Collective over MPI_COMM_WORLD: spin for probe_s seconds after a barrier. */
pst_noise pst_noise_probe(double probe_s, double timer_resolution_s);

/* {"lost_frac_max":..., "lost_frac_median":..., "max_gap_s":..., "gaps":...} under key k. */
void pst_rec_noise(pst_rec *r, const char *k, const pst_noise *n);

#endif
