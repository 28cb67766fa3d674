/* What a run will need against what the node allows: a problem too large is refused up front
 * with exit 2 and the estimate, instead of failing halfway through its allocations. */
#ifndef PST_MEMORY_H
#define PST_MEMORY_H

/* Collective over MPI_COMM_WORLD.  A rank's need is what it holds now (its resident set: MPI,
 * libraries, the program) plus `new_bytes_per_rank` it is about to allocate.  Exit 2 (rank 0
 * prints, naming `what`) when some rank needs more than its process may map (RLIMIT_AS,
 * RLIMIT_DATA) or the ranks sharing a node (MPI_COMM_TYPE_SHARED) together need more than the
 * node can give them: min(MemAvailable + what they hold already, the cgroup's memory.max).
 * Linux overcommits, so malloc rarely fails: this check is the real guard. */
double pst_require_memory(double new_bytes_per_rank, const char *what); /* the largest rank's need */

/* The most memory this process could have on its node, whatever runs beside it: the least of the
 * node's physical memory, the cgroup's memory.max and the process limits (RLIMIT_AS,
 * RLIMIT_DATA); infinity when none is known.  Not collective. */
double pst_memory_ceiling_bytes(void);

/* Peak resident set of each rank so far (getrusage), in bytes: per_rank[] (size of
 * MPI_COMM_WORLD, may be NULL) and the largest as the result.  Collective. */
double pst_peak_rss_bytes(double *per_rank);

#endif
