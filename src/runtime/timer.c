#include "runtime/timer.h"

#include <math.h>

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

long long pst_iters_for(double per_iter_s, double target_s, long long lo, long long hi)
{
    if (!(per_iter_s > 0) || !isfinite(per_iter_s)) return hi;
    double n = ceil(target_s / per_iter_s * (1 - 1e-12)); /* 2e-3/1e-6 is 2000 plus rounding */
    return n < (double)lo ? lo : n > (double)hi ? hi : (long long)n;
}
