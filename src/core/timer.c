#include "core/timer.h"

double pst_timer_resolution_s(void)
{
    double best_s = 1.0;
    for (int trial = 0; trial < 64; trial++) {
        double t0 = MPI_Wtime(), t1;
        do t1 = MPI_Wtime(); while (t1 == t0);
        if (t1 - t0 < best_s) best_s = t1 - t0;
    }
    return best_s;
}
