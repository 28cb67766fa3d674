/* One logical exchange built on the split-phase protocols, the building block of the
 * exchange-, halving- and ring-based algorithms.
 *
 * Send `send_bytes` to dest and receive `recv_bytes` from src (dest == src: a SWAP; else a
 * SENDRECV, side from pst_shift_side), as `nchunks` transfers splitting both streams into
 * pieces on 16-byte boundaries.  Callbacks (each may be NULL) let the caller work while data
 * is in flight:
 *   fill(arg, off, bytes)     produce send bytes [off, off+bytes) just before they go out;
 *   middle(arg)               work independent of this exchange;
 *   arrived(arg, off, bytes)  consume received bytes [off, off+bytes) once they are in.
 * Overlapped: every receive is posted first, then each chunk is filled and sent, middle runs,
 * and each chunk is waited for and consumed in turn, so consuming chunk c overlaps the
 * transfer of chunks > c.  Not overlapped: fill all, one transfer to completion, middle,
 * arrived.  A partitioned protocol sends the message as one transfer with a partition per chunk
 * (middle runs while it is in flight; each partition is consumed once it is in and the whole
 * send has completed).  Both ends of each message must use the same nchunks: for a SWAP, pst_exchange_chunks
 * of the larger direction; for a ring, a count derived from a size every rank knows. */
#ifndef PST_EXCHANGE_H
#define PST_EXCHANGE_H

#include "comm/protocol.h"

#include <stdbool.h>
#include <stddef.h>

enum { PST_MAX_CHUNKS = 4 };
/* Message tags the algorithms use stay below this (MPI guarantees at least 32767). */
enum { PST_TAG_LIMIT = 16384 };
/* Smallest chunk worth its own message. */
#define PST_CHUNK_MIN_BYTES ((size_t)8192)

typedef struct pst_exchange_ops {
    void (*fill)(void *arg, size_t off, size_t bytes);
    void (*middle)(void *arg);
    void (*arrived)(void *arg, size_t off, size_t bytes);
    void *arg;
} pst_exchange_ops;

/* Chunks for an exchange whose larger direction carries `bytes`: 1 unless overlapped. */
int pst_exchange_chunks(bool overlapped, size_t bytes);

/* Chunk c of `bytes` split into n pieces on 16-byte boundaries. */
void pst_chunk_range(size_t bytes, int n, int c, size_t *off, size_t *len);

/* tag: 0 <= tag, tag + nchunks <= PST_TAG_LIMIT.  xfers: the plan's persistent transfers
 * (pst_xfer_set), prepared the first time an exchange is run with given buffers. */
void pst_exchange(pst_xfer_set *xfers, const pst_protocol *p, bool overlapped, MPI_Comm comm, int dest, int src,
                  int side, const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag,
                  int nchunks, const pst_exchange_ops *ops);

/* Room for `n` transfers of up to `bytes` in flight at once: the one-sided transports grow
 * comm's area (pst_transport_grow), the two-sided one its buffered-send space for 0,0.
 * Collective over comm and outside timing: call when building a plan (every rank of comm).
 * Whoever owns comm calls pst_transport_release on it before freeing it. */
void pst_exchange_reserve(const pst_protocol *p, MPI_Comm comm, size_t bytes, size_t n);
/* Room for a run of `exchanges` pst_exchange calls of up to `bytes` each, whole or in chunks
 * (collective, as above).  One exchange is in flight at a time, but buffered sends count for a
 * whole run: with successive partners, a buffered message to one partner may still be
 * undelivered when the next exchange starts. */
void pst_exchange_reserve_run(const pst_protocol *p, MPI_Comm comm, size_t bytes, size_t exchanges);
/* Room for n transfers of up to `bytes` that a plan keeps for as long as it lives, on top of what
 * every other plan keeps (n < 0 gives it back): for plans run back to back with no settle between
 * them, like the model's stages.  Collective over comm as pst_exchange_reserve when n > 0. */
void pst_exchange_hold(const pst_protocol *p, MPI_Comm comm, size_t bytes, long n);

/* The effective schedule: the overlap flag, or an overlap protocol (2,x / 3,x, Worley 1998's
 * designation of the overlap algorithms). */
static inline bool pst_overlapped(const pst_protocol *p, bool overlap) { return overlap || (p && p->overlap); }

#endif
