/* Waiting for requests.  pst_waitall is MPI_Waitall without statuses, in one place because gcc 12
 * misreads MPICH's MPI_STATUSES_IGNORE sentinel as an empty array (-Wstringop-overflow).
 *
 * Waiting without spinning.  Ranks that sit out an experiment (the ranks outside a
 * sub-communicator, the ranks not in the measured pair) wait here instead of in a blocking MPI
 * call: MPI libraries busy-poll, and on shared or oversubscribed cores a polling rank steals
 * time from the ranks being measured. */
#ifndef PST_WAIT_H
#define PST_WAIT_H

#include <mpi.h>

/* MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE); returns the MPI error code. */
int pst_waitall(int n, MPI_Request *reqs);

/* Complete n requests: test them, then sleep with a backoff from 20 us up to 1 ms. */
void pst_wait_sleeping(int n, MPI_Request *reqs);

#endif
