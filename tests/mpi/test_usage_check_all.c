/* pst_usage_check_all: a check that fails on some ranks only (a node-local path) ends every
 * rank with exit 2 and one message naming the first failing rank, instead of leaving the
 * others waiting in a collective.  Usage: test_usage_check_all R...  (the ranks that fail). */
#include "core/errors.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    pst_set_progname("test_usage_check_all");
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *error = NULL;
    char message[64];
    for (int i = 1; i < argc; i++)
        if (atoi(argv[i]) == rank) error = (snprintf(message, sizeof message, "cannot read 'f' here"), message);
    pst_usage_check_all(error);
    /* Reached only when no rank failed: a collective that would hang if a rank had left. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("all ranks passed\n");
    MPI_Finalize();
    return 0;
}
