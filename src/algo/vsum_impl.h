/* What a vector-sum algorithm's own file sees: the plan every vector sum shares, the
 * exchange helpers the message-passing ones build on, and the operations table its registry
 * row points to (algorithm.h).  Not for callers: they use vsum.h. */
#ifndef PST_VSUM_IMPL_H
#define PST_VSUM_IMPL_H

#include "algo/algorithm.h"
#include "algo/vsum.h"

struct pst_vsum {
    const pst_algorithm *alg;
    const pst_protocol *p;  /* NULL for the collective */
    bool overlapped, replicated;
    MPI_Comm comm;
    int rank, size;
    size_t n, unit;
    size_t *lo, *count;     /* the partition */
    int ring_chunks;        /* agreed by all ranks: from the mean block size */
    double *scratch, *stream, *work[2];
    void *state;            /* the algorithm's own (plan sets it, free frees it) */
    pst_xfer_set *xfers;    /* persistent protocols' prepared transfers */
};

typedef struct pst_vsum_ops {
    /* Collective over v->comm: reserve the transport's room for one run (pst_exchange_reserve_run). */
    void (*plan)(pst_vsum *v);
    /* Collective: the sum of the contributions compute gives into out (see pst_vsum_run_compute).
     * An algorithm that is not pipelined starts with pst_vsum_compute_all. */
    void (*run)(pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out);
    void (*free)(void *state); /* NULL: no state */
    /* Collective: the gather a replicated run ends with, alone (pst_vsum_gather); NULL: none. */
    void (*gather)(pst_vsum *v, double *out);
} pst_vsum_ops;

/* Every block of this rank's contribution into out. */
void pst_vsum_compute_all(const pst_vsum *v, pst_vsum_compute_fn compute, void *arg, double *out);

/* Up to two element ranges (halfsum's rank sets with folded excess ranks). */
typedef struct pst_rangeset { size_t lo[2], n[2]; int k; size_t total; } pst_rangeset;
void pst_rangeset_add(pst_rangeset *rs, size_t lo, size_t n);

enum pst_stream_op { PST_GATHER, PST_SCATTER, PST_ADD };

/* One exchange's work on the vector while data is in flight. */
typedef struct pst_vsum_xs {
    const pst_rangeset *send_set, *recv_set; /* send_set: gathered into stream (NULL: sent directly) */
    double *vec, *stream, *recv;
    enum pst_stream_op recv_op;
    pst_vsum_compute_fn compute; /* ringpipe: the next block, while this one is in flight */
    void *compute_arg;
    size_t compute_lo, compute_n;
    double *compute_out;
} pst_vsum_xs;

/* One exchange: send send_set (gathered, or `send_bytes` from `direct`), receive recv_set's
 * size into the scratch buffer and apply its op into vec (or straight into `into` when recv_set
 * is NULL).  A set of one range is sent from vec itself, and a scatter into one range received
 * into vec itself: no copy through the stream or the scratch buffer. */
void pst_vsum_exchange(pst_vsum *v, int dest, int src, int side, int tag, int nchunks, pst_vsum_xs *s,
                       const void *direct, size_t send_bytes, void *into, size_t recv_bytes);
/* Chunks for a SWAP carrying a_bytes one way and b_bytes the other. */
int pst_vsum_swap_chunks(const pst_vsum *v, size_t a_bytes, size_t b_bytes);

#endif
