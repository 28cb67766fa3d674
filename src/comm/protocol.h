/* The protocol catalogue (DESIGN §4, seed 000 Table 2, seed 004) and split-phase transfers.
 *
 * A protocol is a recipe for one exchange, written in three phases so algorithms can overlap
 * communication with computation:  post (receives and receive-ready handshakes), send, wait.
 * The same recipe serves SWAP (exchange with one partner: dest == src) and SENDRECV (send to
 * dest, receive from src, as in rings and shifts).  Ordered protocols have two sides: side A
 * sends first, side B receives first.  Codes 2,x / 3,x are 0,x / 1,x with overlap: batches of
 * transfers run post-all, send-all, wait-all, and algorithms compute between the phases.
 *
 * A transport implements the recipes; callers only see pst_xfer.  Deadlock freedom at every
 * size: ready sends (and the "synchronous" 1,6) wait for a zero-byte handshake proving the
 * receive is posted; 0,0 uses buffered sends, so it never relies on eager buffering. */
#ifndef PST_PROTOCOL_H
#define PST_PROTOCOL_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

enum pst_side { PST_SIDE_A = 0, PST_SIDE_B = 1 };

struct pst_xfer;

typedef struct pst_transport {
    const char *name;
    void (*post)(struct pst_xfer *x);
    void (*send)(struct pst_xfer *x);
    void (*wait)(struct pst_xfer *x);
    /* May x's send phase run before the wait phases of other transfers in a batch?  False when
     * it can block until a partner reaches its wait phase (see pst_xfer_send_early). */
    bool (*send_early)(const struct pst_xfer *x);
    /* Make room for n transfers like x in flight (e.g. buffered-send space); outside timing. */
    void (*reserve)(const struct pst_xfer *x, size_t n);
} pst_transport;

typedef struct pst_protocol {
    char code[8];        /* "1,3" */
    char slug[48];       /* "ordered.isend-irecv", overlap: "ordered.isend-irecv.overlap" */
    const char *name;    /* seed 004 wording */
    int cls, variant;    /* code = cls,variant; cls 0 unordered, 1 ordered, 2/3 overlap */
    bool ordered, overlap;
    const pst_transport *transport;
} pst_protocol;

/* A transfer in flight.  Filled by pst_xfer_init; the request slots belong to the transport. */
typedef struct pst_xfer {
    const pst_protocol *proto;
    MPI_Comm comm;
    int dest, src, side, tag;
    const void *sendbuf;
    void *recvbuf;
    int bytes;           /* sent to dest */
    int recv_bytes;      /* received from src (== bytes unless set up by pst_xfer_init_v) */
    bool sends_handshake, waits_handshake;
    MPI_Request req[4];
} pst_xfer;

/* Catalogue of one transport ("mpi"). */
size_t pst_protocol_count(const char *transport);
const pst_protocol *pst_protocol_at(const char *transport, size_t i);
/* By code ("1,3", "3,1") or slug; NULL when unknown. */
const pst_protocol *pst_protocol_find(const char *transport, const char *spec);
/* A list: codes (integer pairs: "1,3,0,6"), slugs, and groups all | unordered | ordered |
 * overlap | no-overlap, comma-separated, duplicates dropped.  Returns 0, or -1 with err set. */
int pst_protocol_parse_list(const char *transport, const char *list, const pst_protocol ***out,
                            size_t *n, char *err, size_t errlen);
bool pst_transport_known(const char *transport);

/* Set up one transfer of `bytes` (≤ INT_MAX) with tag `tag` (0 ≤ tag < 2^14; the transport
 * derives its own tags from it).  dest == src makes it a SWAP. */
void pst_xfer_init(pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                   const void *sendbuf, void *recvbuf, size_t bytes, int tag);
/* The same with different sizes each way (an all-to-all step with uneven blocks); either may
 * be 0.  Both ends of a transfer must agree: one side's send_bytes is the other's recv_bytes. */
void pst_xfer_init_v(pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                     const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag);
void pst_xfer_reserve(const pst_xfer *x, size_t n);
void pst_xfer_post(pst_xfer *x);
void pst_xfer_send(pst_xfer *x);
void pst_xfer_wait(pst_xfer *x);
/* In a batch (transfers with several partners in flight, e.g. an overlapped transpose), a send
 * phase that can block until its partner reaches the partner's wait phase must not run ahead of
 * this rank's own waits, or ranks can wait on each other in a cycle.  That is side B of an
 * ordered protocol whose side A receives only in its wait phase (1,1 and 1,7 and their overlap
 * codes).  Batches therefore run: post all; send every transfer whose send is early; then, in
 * order, each remaining send followed by its wait.  For a single partner this is the plain
 * post-all/send-all/wait-all order (side B's wait phase is empty). */
bool pst_xfer_send_early(const pst_xfer *x);
/* Run n set-up transfers to completion: overlap protocols run them as a batch (above); the
 * others complete each transfer before starting the next. */
void pst_xfer_run(pst_xfer *x, size_t n);

/* Side for position `rank` in the SENDRECV pattern "send to rank+shift, receive from
 * rank-shift" (mod size): alternating along each cycle so ordered protocols never form a
 * cycle of ranks that all send first. */
int pst_shift_side(int rank, int size, int shift);

#endif
