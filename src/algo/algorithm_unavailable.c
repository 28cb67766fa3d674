/* Whether this build's MPI library can run an algorithm: asked by the registry (algorithm.c) and
 * by the family frames (transpose.c, vsum.c) that the registry's rows point into, so it sits in a
 * file of its own, below both, rather than close a circle between them. */
#include "algo/algorithm.h"

const char *pst_algorithm_unavailable(const pst_algorithm *alg)
{
    static char why[512];
    return pst_mpi_feature_missing(alg->requires, why, sizeof why);
}
