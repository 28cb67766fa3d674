/* What a run will need against what the node allows: a problem too large is refused up front
 * with exit 2 and the estimate, instead of failing halfway through its allocations. */
#ifndef PST_MEMORY_H
#define PST_MEMORY_H

/* Collective over MPI_COMM_WORLD.  Exit 2 (rank 0 prints, naming `what`) when some rank needs
 * more than its process may map (RLIMIT_AS, RLIMIT_DATA) or the ranks of one node together need
 * more than the node's physical memory. */
double pst_require_memory(double bytes_per_rank, const char *what); /* the largest rank's need */

/* The largest resident set of any rank so far (getrusage), in bytes.  Collective. */
double pst_peak_rss_bytes(void);

#endif
