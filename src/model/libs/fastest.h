/* Choosing among interchangeable implementations by timing them at set-up, on the run's own
 * data: what --blas auto and --legendre-kernel auto share. */
#ifndef PST_MODEL_FASTEST_H
#define PST_MODEL_FASTEST_H

#include <mpi.h>
#include <stdbool.h>

/* One timed pass of alternative k, in seconds. */
typedef double pst_fastest_pass_fn(void *arg, int k);

/* Time pass(arg, k) for each usable k of n in three interleaved rounds after one untimed call
 * each (first calls set libraries up), and return the one with the smallest best time;
 * `configured` stays unless another is at least 5 % faster, so a tie on a noisy host changes
 * nothing.  On a communicator (collective; MPI_COMM_NULL: this process alone) the slowest rank's
 * times decide, so every rank makes the same choice, and an alternative one rank cannot use is
 * out everywhere.  trial_s[k]: k's best time (NaN: not timed). */
int pst_fastest(int n, const bool *usable, int configured, pst_fastest_pass_fn *pass, void *arg, MPI_Comm comm,
                double *trial_s);

#endif
