/* Configure-time probe of the SMPI build (cmake/smpi.cmake): run one MPI feature's calls on two
 * simulated ranks and check what they return.  SMPI declares calls it does not implement; those
 * abort the run or print "Not yet implemented", which the caller reads as absent.
 *   smpirun -np 2 -platform P smpi_probe FEATURE   (nonblocking_collectives, neighborhood_collectives,
 *                                                   rma_window_sync, partitioned); exit 0: it works */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* The split-phase sums reduce in place, blocks of hundreds of KB: SimGrid 3.32's MPI_Iallreduce
 * with MPI_IN_PLACE returns wrong sums once a block is past its eager limit (64 KiB), so the probe
 * sums 128 KiB in place too. */
enum { IN_PLACE_DOUBLES = 16384 };

static int nonblocking_collectives(int rank, int peer)
{
    int counts[2] = {1, 1}, displs[2] = {0, 1};
    double send[2] = {rank, rank}, recv[2] = {-1, -1}, sum = 0, one = 1;
    static double block[IN_PLACE_DOUBLES];
    for (int i = 0; i < IN_PLACE_DOUBLES; i++) block[i] = rank + i;
    MPI_Request q[3];
    int rc = MPI_Ialltoallv(send, counts, displs, MPI_DOUBLE, recv, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD, &q[0]);
    if (rc == MPI_SUCCESS) rc = MPI_Iallreduce(&one, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[1]);
    if (rc == MPI_SUCCESS) rc = MPI_Iallreduce(MPI_IN_PLACE, block, IN_PLACE_DOUBLES, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[2]);
    if (rc == MPI_SUCCESS) rc = MPI_Waitall(3, q, MPI_STATUSES_IGNORE);
    int wrong = 0;
    for (int i = 0; i < IN_PLACE_DOUBLES; i++) wrong += block[i] != 1 + 2.0 * i; /* ranks 0 and 1 */
    if (wrong) printf("probe nonblocking_collectives: MPI_Iallreduce in place gave %d wrong sums of %d\n", wrong, IN_PLACE_DOUBLES);
    return rc == MPI_SUCCESS && recv[peer] == peer && sum == 2 && !wrong ? MPI_SUCCESS : MPI_ERR_OTHER;
}

static int neighborhood_collectives(int rank, int peer)
{
    int count = 1, displ = 0;
    double send = rank, recv = -1;
    MPI_Comm graph;
    int rc = MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &peer, MPI_UNWEIGHTED, 1, &peer, MPI_UNWEIGHTED,
                                            MPI_INFO_NULL, 0, &graph);
    if (rc == MPI_SUCCESS) rc = MPI_Neighbor_alltoallv(&send, &count, &displ, MPI_DOUBLE, &recv, &count, &displ, MPI_DOUBLE, graph);
    return rc == MPI_SUCCESS && recv == peer ? MPI_SUCCESS : MPI_ERR_OTHER;
}

static int rma_window_sync(int rank, int peer)
{
    MPI_Win win;
    unsigned char *base;
    int *model, flag = 0;
    int rc = MPI_Win_allocate(8, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    rc = MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    if (rc == MPI_SUCCESS && !flag) rc = MPI_ERR_OTHER;
    if (rc == MPI_SUCCESS) rc = MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    if (rc == MPI_SUCCESS) rc = MPI_Win_sync(win);
    if (rc == MPI_SUCCESS) rc = MPI_Win_unlock_all(win);
    (void)rank, (void)peer;
    return rc;
}

#if defined(PST_HAVE_MPI_PARTITIONED) /* declared (SimGrid 4.1, which aborts in MPI_Psend_init) */
static int partitioned(int rank, int peer)
{
    double buf[2] = {rank, rank}; /* rank 0 sends its zeros to rank 1 in two partitions */
    MPI_Request q;
    int rc = rank == 0 ? MPI_Psend_init(buf, 2, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q)
                       : MPI_Precv_init(buf, 2, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    if (rc == MPI_SUCCESS) rc = MPI_Start(&q);
    for (int part = 0; rank == 0 && part < 2 && rc == MPI_SUCCESS; part++) rc = MPI_Pready(part, q);
    if (rc == MPI_SUCCESS) rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = MPI_Request_free(&q);
    return rc == MPI_SUCCESS && buf[0] == 0 && buf[1] == 0 ? MPI_SUCCESS : MPI_ERR_OTHER;
}
#endif

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    static const struct {
        const char *name;
        int (*probe)(int rank, int peer);
    } probes[] = {{"nonblocking_collectives", nonblocking_collectives},
                  {"neighborhood_collectives", neighborhood_collectives},
                  {"rma_window_sync", rma_window_sync},
#if defined(PST_HAVE_MPI_PARTITIONED)
                  {"partitioned", partitioned},
#endif
    };
    int rc = MPI_ERR_OTHER;
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        if (argc > 1 && !strcmp(argv[1], probes[i].name)) rc = probes[i].probe(rank, 1 - rank);
    if (rc != MPI_SUCCESS) printf("probe %s failed on rank %d (MPI error %d)\n", argc > 1 ? argv[1] : "(none)", rank, rc);
    MPI_Finalize();
    return rc != MPI_SUCCESS;
}
