/* The smallest honest ping-pong: MPI_Send / MPI_Recv between ranks 0 and 1, SAMPLES timed
 * loops of ITERS round trips after a warm-up, printing the best half round trip in seconds.
 * The yardstick bench/pingpong-minimal.sh holds `pstswm pingpong` against: nothing but the MPI
 * calls, plain MPI_Init (or MPI_Init_thread at the level named by argv[3]).
 *   pingpong_minimal BYTES ITERS [single|funneled|serialized|multiple] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 20 };

int main(int argc, char **argv)
{
    const char *level = argc > 3 ? argv[3] : "single";
    static const char *names[] = {"single", "funneled", "serialized", "multiple"};
    static const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
    int want = 0, provided;
    for (int i = 0; i < 4; i++)
        if (!strcmp(level, names[i])) want = i;
    if (want == 0) MPI_Init(&argc, &argv);
    else MPI_Init_thread(&argc, &argv, levels[want], &provided);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int bytes = argc > 1 ? atoi(argv[1]) : 8;
    long iters = argc > 2 ? atol(argv[2]) : 4000;
    /* Separate send and receive buffers, page-aligned and touched, as pstswm's. */
    char *sbuf, *rbuf;
    if (posix_memalign((void **)&sbuf, 4096, (size_t)bytes + 1) || posix_memalign((void **)&rbuf, 4096, (size_t)bytes + 1))
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(sbuf, 1, (size_t)bytes + 1);
    memset(rbuf, 0, (size_t)bytes + 1);
    double best = 1e30;
    for (int s = -1; s < SAMPLES; s++) { /* sample -1 warms up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI_Send(sbuf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(rbuf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(rbuf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(sbuf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        double half = (MPI_Wtime() - t0) / (double)iters / 2;
        if (s >= 0 && half < best) best = half;
    }
    if (rank == 0) printf("%.6e\n", best);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
