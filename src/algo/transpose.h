/* Distributed transposes: each is functionally MPI_Alltoallv on bytes over a communicator of P
 * ranks (Worley 1998 §6; Foster & Worley 1997).
 *
 * Layout (exactly MPI_Alltoallv's with MPI_BYTE): rank r sends sendcounts[q] bytes starting at
 * sendbuf + sdispls[q] to every rank q (itself included) and receives recvcounts[q] bytes from
 * q at recvbuf + rdispls[q].  Counts must agree pairwise (what r sends q is what q expects from
 * r; checked when the plan is built).  Send and receive buffers must not overlap.
 *
 * Algorithms (rows of the registry, algorithm.h; the protocol p drives every message, the
 * collective ignores p and overlap):
 *   srtrans   P-1 SENDRECV steps: step k sends to r+k and receives from r-k (mod P).
 *   swtrans   P-1 SWAP steps with pairwise partners: r XOR k when P is a power of two, else the
 *             round-robin 1-factorization (P even: P-1 rounds; P odd: P rounds, each rank idle
 *             once), so every pair exchanges exactly once.
 *   logtrans  ceil(log2 P) SWAP stages, each forwarding about half the data: hypercube exchange
 *             over Q = 2^floor(log2 P) ranks, bits 0, 1, ... in turn; when P is not a power of two
 *             each excess rank Q+i first hands its blocks to rank i and gets its own back at the
 *             end (two extra SWAPs for those pairs).
 *   alltoallv MPI_Alltoallv.
 * Overlap (pst_overlapped: the flag, or an overlap protocol 2,x / 3,x): srtrans and swtrans post
 * every receive first, then pack and send block after block, copy the local block, and unpack
 * each block as it is waited for; logtrans splits each stage into up to PST_MAX_CHUNKS messages,
 * packing chunk c+1 while chunk c is in flight and moving the kept half meanwhile.
 *
 * Double transpose: the plan with send and receive arguments swapped (pst_trans_create_inverse)
 * undoes the transpose. */
#ifndef PST_TRANSPOSE_H
#define PST_TRANSPOSE_H

#include "algo/algorithm.h"
#include "comm/protocol.h"

#include <mpi.h>
#include <stdbool.h>

/* Optional caller work, so packing and unpacking overlap communication.  pack(arg, q) must
 * fill the send block for rank q; it is called once per run, before that block is sent (for
 * logtrans and alltoallv: all blocks before any message).  unpack(arg, q) is called once per run,
 * as soon as the block from q is in recvbuf. */
typedef struct pst_trans_hooks {
    void (*pack)(void *arg, int peer);
    void (*unpack)(void *arg, int peer);
    void *arg;
} pst_trans_hooks;

typedef struct pst_trans pst_trans;

/* Collective over comm.  alg is a registry row of the transpose family.  Counts and
 * displacements in bytes (MPI_Alltoallv's meaning); they are copied.  p may be NULL for the
 * collective.  Aborts (exit 3) on inconsistent counts. */
pst_trans *pst_trans_create(const pst_algorithm *alg, const pst_protocol *p, bool overlap, MPI_Comm comm,
                            const int *sendcounts, const int *sdispls, const int *recvcounts, const int *rdispls);
/* Collective: the inverse transpose (receive layout becomes the send layout). */
pst_trans *pst_trans_create_inverse(const pst_trans *t);
/* Collective.  hooks may be NULL. */
void pst_trans_run(pst_trans *t, const void *sendbuf, void *recvbuf, const pst_trans_hooks *hooks);
void pst_trans_free(pst_trans *t);

#endif
