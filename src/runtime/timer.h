/* Wall-clock timing on MPI_Wtime, with a measured resolution. */
#ifndef PST_TIMER_H
#define PST_TIMER_H

#include <mpi.h>

static inline double pst_now_s(void) { return MPI_Wtime(); }

/* Smallest non-zero difference between successive MPI_Wtime readings (measured, seconds). */
double pst_timer_resolution_s(void);

/* Iterations of an operation taking per_iter_s each so that one timed loop lasts about
 * target_s, clamped to [lo, hi] (a non-positive or non-finite estimate gives hi). */
long long pst_iters_for(double per_iter_s, double target_s, long long lo, long long hi);

#endif
