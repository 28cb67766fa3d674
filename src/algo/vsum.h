/* Distributed vector sums over a communicator of Q ranks (Worley 1998 §6; Foster & Worley 1997):
 * each rank contributes a vector of n doubles and gets the elementwise sum over all ranks,
 * either replicated (MPI_Allreduce with MPI_SUM) or partitioned (a reduce-scatter).
 *
 * Partition (every algorithm, so callers can switch freely): the vector is n/unit units of
 * `unit` consecutive doubles (e.g. one spectral coefficient's levels x fields); rank q owns the
 * block pst_vsum_block(n, unit, Q, q) = units pst_block(n/unit, Q, q), i.e. consecutive blocks
 * in rank order, the first (n/unit) % Q ranks one unit more.
 *
 * Algorithms (rows of the registry, algorithm.h; the protocol p drives every message, the
 * collective ignores p and overlap):
 *   exchsum   recursive doubling: log2 Q' SWAPs of the whole vector (Q' = 2^floor(log2 Q)), the
 *             highest bit first; each excess rank Q'+i first folds its vector into rank i and
 *             gets the result back at the end.  Partitioned: the same, keeping one's block.
 *   halfsum   recursive halving (reduce-scatter): log2 Q' SWAPs of V/2, V/4, ... (highest bit
 *             first, folding excess ranks as exchsum); replicated adds the recursive doubling
 *             gather.  Same additions in the same order as exchsum: results are bitwise equal.
 *   ringsum   ring reduce-scatter in Q-1 SENDRECV steps (send to r+1, receive from r-1) of one
 *             block each; replicated adds the ring allgather (Q-1 more steps).
 *   ringpipe  the ringsum schedule with each block computed just in time by the caller's
 *             compute function, so the transfer of one block overlaps the computation of the
 *             next.  Same additions in the same order as ringsum: results are bitwise equal.
 *   allreduce MPI_Allreduce / MPI_Reduce_scatter.
 * Overlap (pst_overlapped): receives are posted first and each exchange is split into up to
 * PST_MAX_CHUNKS messages so adding chunk c overlaps the transfer of chunk c+1; for ringpipe
 * the next block's computation runs while the current block is in flight (without overlap it
 * runs after the exchange). */
#ifndef PST_VSUM_H
#define PST_VSUM_H

#include "algo/algorithm.h"
#include "comm/protocol.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum pst_vsum_result { PST_VSUM_REPLICATED, PST_VSUM_PARTITIONED } pst_vsum_result;

/* Rank q's block: elements [*lo, *lo + *count). */
void pst_vsum_block(size_t n, size_t unit, int Q, int q, size_t *lo, size_t *count);

/* Write this rank's contribution to elements [lo, lo + count) into out[0 .. count). */
typedef void (*pst_vsum_compute_fn)(void *arg, size_t lo, size_t count, double *out);

typedef struct pst_vsum pst_vsum;

/* Collective over comm.  alg is a registry row of the vector-sum family.  unit >= 1 divides n;
 * n * 8 <= INT_MAX; p may be NULL for the collective. */
pst_vsum *pst_vsum_create(const pst_algorithm *alg, const pst_protocol *p, bool overlap, MPI_Comm comm, size_t n,
                          size_t unit, pst_vsum_result result);
/* Collective.  out has n elements.  On return out holds the sum: all of it (replicated) or this
 * rank's block (partitioned; the rest of out is scratch).  in == out is allowed. */
void pst_vsum_run(pst_vsum *v, const double *in, double *out);
/* Collective: the contribution comes from compute, called once per block of the partition
 * (block by block, just in time, for a pipelined algorithm such as ringpipe; all blocks first for
 * the others). */
void pst_vsum_run_compute(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out);
/* Whether alg (a vector-sum row) ends its replicated sum with a gather (halfsum, ringsum, ringpipe,
 * reduce_scatter: a reduce-scatter, then the gather), so that gather can run alone. */
bool pst_vsum_gathers(const pst_algorithm *alg);
/* Collective, v replicated and its algorithm gathering: that gather alone, on out (n elements):
 * each rank's block (pst_vsum_block) to every rank — e.g. what each computed from its block of a
 * partitioned sum of the same partition (the model's partitioned update: pleg.h). */
void pst_vsum_gather(pst_vsum *v, double *out);
void pst_vsum_free(pst_vsum *v);

#endif
