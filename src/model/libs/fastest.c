#include "model/libs/fastest.h"

#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>

int pst_fastest(int n, const bool *usable, int configured, pst_fastest_pass_fn *pass, void *arg, MPI_Comm comm,
                double *trial_s)
{
    for (int k = 0; k < n; k++) trial_s[k] = INFINITY;
    for (int round = -1; round < 3; round++)
        for (int k = 0; k < n; k++) {
            if (!usable[k]) continue;
            double t = pass(arg, k);
            if (round >= 0 && t < trial_s[k]) trial_s[k] = t;
        }
    if (comm != MPI_COMM_NULL) MPI_Allreduce(MPI_IN_PLACE, trial_s, n, MPI_DOUBLE, MPI_MAX, comm);
    for (int k = 0; k < n; k++)
        if (isinf(trial_s[k])) trial_s[k] = NAN;
    int fastest = configured;
    for (int k = 0; k < n; k++)
        if (!isnan(trial_s[k]) && trial_s[k] < trial_s[fastest]) fastest = k;
    return trial_s[fastest] < 0.95 * trial_s[configured] ? fastest : configured;
}
