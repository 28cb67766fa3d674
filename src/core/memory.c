#include "core/memory.h"

#include "core/errors.h"

#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

static double gb(double bytes) { return bytes / 1e9; }

/* The smaller of the address-space and data limits; infinity when neither is set. */
static double process_limit_bytes(void)
{
    double limit = 1.0 / 0.0;
    const int which[] = {RLIMIT_AS, RLIMIT_DATA};
    for (int i = 0; i < 2; i++) {
        struct rlimit rl;
        if (getrlimit(which[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && (double)rl.rlim_cur < limit)
            limit = (double)rl.rlim_cur;
    }
    return limit;
}

static double node_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 1.0 / 0.0;
}

double pst_require_memory(double bytes_per_rank, const char *what)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_ranks;
    MPI_Comm_size(node, &node_ranks);
    double node_need;
    MPI_Allreduce(&bytes_per_rank, &node_need, 1, MPI_DOUBLE, MPI_SUM, node);
    MPI_Comm_free(&node);
    /* Over all ranks: the largest needs beyond a limit, the largest needs, the smallest limits. */
    double process = process_limit_bytes(), node_limit = node_memory_bytes();
    double excess[2] = {bytes_per_rank - process, node_need - node_limit}, need[2] = {bytes_per_rank, node_need};
    double limit[2] = {process, node_limit}, worst[2], most[2], least[2];
    MPI_Allreduce(excess, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(need, most, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(limit, least, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (worst[0] > 0)
        pst_usage_error("%s needs about %.2f GB per rank, more than a process may map here (ulimit -v / -d: %.2f GB); "
                        "raise the limit or run a smaller problem", what, gb(most[0]), gb(least[0]));
    if (worst[1] > 0)
        pst_usage_error("%s needs about %.2f GB per rank, %.2f GB on a node (%d rank%s here), more than the node's "
                        "%.2f GB of memory; use more nodes or a smaller problem",
                        what, gb(most[0]), gb(most[1]), node_ranks, node_ranks == 1 ? "" : "s", gb(least[1]));
    return most[0];
}

double pst_peak_rss_bytes(void)
{
    struct rusage ru;
    double rss = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss * 1024.0 : 0.0; /* Linux: KiB */
    MPI_Allreduce(MPI_IN_PLACE, &rss, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return rss;
}
