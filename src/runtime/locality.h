/* Where the ranks run, for the records: the node of every rank (nodes told apart by host name),
 * the ranks on each node, the placement the launcher was asked for, whether a group of ranks
 * stays inside a node or crosses nodes, and the path the library took between nodes: whether
 * a probe exchange between two nodes moved bytes on their network interfaces, or went through
 * shared memory because the "nodes" share one kernel (docs/cluster.md). */
#ifndef PST_LOCALITY_H
#define PST_LOCALITY_H

#include "core/record.h"

#include <mpi.h>
#include <stdbool.h>

/* What a group of ranks spans: every pair inside one node, every pair across nodes, or both;
 * NULL for a group without pairs (one rank). */
#define PST_INTRA_NODE "intra-node"
#define PST_INTER_NODE "inter-node"
#define PST_MIXED_NODE "mixed"

/* Collective over MPI_COMM_WORLD (in pst_ctx_start): every rank's node and kernel, and with more
 * than one node the probe exchange between rank 0 and the first rank on another node. */
void pst_locality_survey(void);

/* The node index (into the header's hosts) of a world rank; any rank, after the survey. */
int pst_locality_node(int world_rank);

/* Locality of the pairs (a[k], b[k]) of world ranks, k < n. */
const char *pst_locality_of_pairs(const int *a, const int *b, int n);

/* Collective over MPI_COMM_WORLD: the locality of the pairs inside every rank's comm together
 * (comm may be MPI_COMM_NULL for ranks outside every communicator of the group). */
const char *pst_locality_of_comms(MPI_Comm comm);

/* Rank 0: the header's locality object. */
void pst_rec_locality(pst_rec *r);

/* Rank 0: a "# locality" line for the run's text output (stdout). */
void pst_locality_print(void);

#endif
