/* What a transpose algorithm's own file sees: the plan every transpose shares and the
 * operations table its registry row points to (algorithm.h).  Not for callers: they use
 * transpose.h. */
#ifndef PST_TRANSPOSE_IMPL_H
#define PST_TRANSPOSE_IMPL_H

#include "algo/algorithm.h"
#include "algo/transpose.h"

struct pst_trans {
    const pst_algorithm *alg;
    const pst_protocol *p;     /* NULL for the collective */
    bool overlap_flag, overlapped;
    MPI_Comm comm;
    int rank, size;
    int *sendcounts, *sdispls, *recvcounts, *rdispls; /* checked consistent over comm */
    void *state;               /* the algorithm's schedule */
    pst_xfer_set *xfers;       /* persistent protocols' prepared transfers */
};

typedef struct pst_trans_ops {
    /* Collective over t->comm: build the schedule into t->state and reserve the transport's
     * room for its messages (pst_exchange_reserve*). */
    void (*plan)(pst_trans *t);
    /* Collective: the transpose, calling the hooks' pack before a block leaves and unpack once
     * it is in (pst_trans_pack_peer / pst_trans_unpack_peer). */
    void (*run)(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h);
    void (*free)(void *state);
} pst_trans_ops;

/* The hooks for block q, each charged as a copy of the block's bytes (core/copy_charge.h). */
void pst_trans_pack_peer(const pst_trans *t, const pst_trans_hooks *h, int q);
void pst_trans_unpack_peer(const pst_trans *t, const pst_trans_hooks *h, int q);
/* This rank's own block: pack, copy, unpack. */
void pst_trans_run_self(const pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h);

#endif
