#include "runtime/memory.h"

#include "core/errors.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>
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

/* MemAvailable (the kernel's estimate of what can be allocated without swapping), or the
 * physical memory when /proc/meminfo does not say. */
static double available_bytes(void)
{
    double kib = -1;
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "MemAvailable: %lf kB", &kib) == 1) break;
        fclose(f);
    }
    if (kib >= 0) return kib * 1024.0;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (double)pages * (double)page : 1.0 / 0.0;
}

/* The cgroup v2 memory.max of this process's group; infinity when unlimited or unknown. */
static double cgroup_limit_bytes(void)
{
    char group[600] = "", path[700], value[64] = "";
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (f) {
        char line[600];
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "0::", 3)) {
                line[strcspn(line, "\n")] = '\0';
                snprintf(group, sizeof group, "%s", line + 3);
            }
        fclose(f);
    }
    snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", strcmp(group, "/") ? group : "");
    f = fopen(path, "r");
    if (!f) return 1.0 / 0.0;
    double bytes = 1.0 / 0.0;
    if (fgets(value, sizeof value, f) && strncmp(value, "max", 3)) sscanf(value, "%lf", &bytes);
    fclose(f);
    return bytes;
}

/* This process's resident set now (/proc/self/statm), in bytes; 0 when unknown. */
static double resident_bytes(void)
{
    long size, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = 0;
        fclose(f);
    }
    return (double)resident * (double)sysconf(_SC_PAGESIZE);
}

double pst_memory_ceiling_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double physical = pages > 0 && page > 0 ? (double)pages * (double)page : 1.0 / 0.0;
    double cgroup = cgroup_limit_bytes(), process = process_limit_bytes(),
           least = physical < cgroup ? physical : cgroup;
    return process < least ? process : least;
}

double pst_require_memory(double new_bytes_per_rank, const char *what)
{
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int node_ranks;
    MPI_Comm_size(node, &node_ranks);
    double held = resident_bytes(), bytes_per_rank = held + new_bytes_per_rank, mine[2] = {bytes_per_rank, held},
           node_sum[2];
    MPI_Allreduce(mine, node_sum, 2, MPI_DOUBLE, MPI_SUM, node);
    MPI_Comm_free(&node);
    double node_need = node_sum[0], available = available_bytes() + node_sum[1], cgroup = cgroup_limit_bytes();
    /* Over all ranks: the largest needs beyond a limit, the largest needs, the smallest limits. */
    double process = process_limit_bytes(), node_limit = available < cgroup ? available : cgroup;
    double excess[2] = {bytes_per_rank - process, node_need - node_limit}, need[2] = {bytes_per_rank, node_need};
    double limit[2] = {process, node_limit}, worst[2], most[2], least[2];
    MPI_Allreduce(excess, worst, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(need, most, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(limit, least, 2, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (worst[0] > 0)
        pst_usage_error("%s needs about %.2f GB per rank, more than a process may map here (ulimit -v / -d: %.2f GB); "
                        "raise the limit or run a smaller problem", what, gb(most[0]), gb(least[0]));
    if (worst[1] > 0)
        pst_usage_error("%s needs about %.2f GB per rank, %.2f GB on a node (%d rank%s here), more than the %.2f GB "
                        "the node can give (MemAvailable, cgroup memory.max); use more nodes or a smaller problem",
                        what, gb(most[0]), gb(most[1]), node_ranks, node_ranks == 1 ? "" : "s", gb(least[1]));
    return most[0];
}

double pst_peak_rss_bytes(double *per_rank)
{
    struct rusage ru;
    double rss = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss * 1024.0 : 0.0; /* Linux: KiB */
    if (per_rank) MPI_Allgather(&rss, 1, MPI_DOUBLE, per_rank, 1, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &rss, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return rss;
}
