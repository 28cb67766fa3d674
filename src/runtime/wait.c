#include "runtime/wait.h"

#include <time.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
int pst_waitall(int n, MPI_Request *reqs) { return MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE); }
#pragma GCC diagnostic pop

void pst_wait_sleeping(int n, MPI_Request *reqs)
{
    long nap_ns = 20000;
    for (;;) {
        /* MPI_Test one by one: completed requests become MPI_REQUEST_NULL and test true. (Not
         * MPI_Testall with MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's sentinel.) */
        int done = 1;
        for (int i = 0; i < n; i++) {
            int flag;
            MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE);
            done &= flag;
        }
        if (done) return;
        struct timespec ts = {0, nap_ns};
        nanosleep(&ts, NULL);
        if (nap_ns < 1000000) nap_ns *= 2;
    }
}
