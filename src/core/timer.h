/* Wall-clock timing on MPI_Wtime, with a measured resolution. */
#ifndef PST_TIMER_H
#define PST_TIMER_H

#include <mpi.h>

static inline double pst_now_s(void) { return MPI_Wtime(); }

/* Smallest non-zero difference between successive MPI_Wtime readings (measured, seconds). */
double pst_timer_resolution_s(void);

#endif
