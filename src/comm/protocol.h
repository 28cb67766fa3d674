/* The protocol catalogue (docs/protocols.md; Worley 1998 Table 2, Worley 2000) and split-phase transfers.
 *
 * A protocol is a recipe for one exchange, written in three phases so algorithms can overlap
 * communication with computation:  post (receives and receive-ready handshakes), send, wait.
 * The same recipe serves SWAP (exchange with one partner: dest == src) and SENDRECV (send to
 * dest, receive from src, as in rings and shifts).  Ordered protocols have two sides: side A
 * sends first, side B receives first.  Codes 2,x / 3,x are 0,x / 1,x with overlap: batches of
 * transfers run post-all, send-all, wait-all, and algorithms compute between the phases.
 * Codes 4,x / 5,x are the persistent forms of 0,x / 1,x (MPI-3.1 §3.9): every nonblocking call
 * of the recipe is made once with its _init twin (MPI_Recv_init, MPI_Send_init, MPI_Ssend_init,
 * MPI_Rsend_init; the handshakes too) when the transfer is prepared, and started with MPI_Start
 * on each exchange; the blocking calls stay blocking.  Buffered sends are not among them (0,0
 * has no nonblocking call).  A persistent transfer is prepared (pst_xfer_prepare, or through a
 * pst_xfer_set that a plan owns) and freed (pst_xfer_free); the other protocols ignore both.
 * A partitioned protocol (a recipe needing MPI-4.0's partitioned communication) is prepared the
 * same way, with MPI_Psend_init / MPI_Precv_init: a transfer may then be split into equal
 * partitions, each marked ready (pst_xfer_send_part) and awaited (pst_xfer_wait_part) on its
 * own, so an algorithm sends a chunk as soon as it is filled and consumes one as soon as it is in.
 *
 * A transport implements the recipes; callers only see pst_xfer.  Each transport has its own
 * catalogue: "mpi" (two-sided, transport_mpi.c), "rma" (MPI-3 one-sided put/get message
 * passing, transport_rma.c).  Deadlock freedom at every size: ready sends (and the
 * "synchronous" 1,6) wait for a zero-byte handshake proving the receive is posted; 0,0 uses
 * buffered sends, so it never relies on eager buffering; one-sided senders wait for a slot the
 * receiver granted (put) or own the slot they send from (get).  Transfers between a pair
 * complete in the order posted, as two-sided messages with one tag do. */
#ifndef PST_PROTOCOL_H
#define PST_PROTOCOL_H

#include "runtime/mpi_features.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

enum pst_side { PST_SIDE_A = 0, PST_SIDE_B = 1 };

struct pst_xfer;

/* One recipe family of a transport: its slug and name, whether side A's recipe spans several
 * phases (only those get overlap codes 2,x / 3,x), whether every nonblocking call in it has a
 * persistent twin (only those get persistent codes 4,x / 5,x, on transports that prepare), and
 * the MPI feature it needs beyond MPI-3.1 (PST_FEAT_NONE: none). */
typedef struct pst_variant {
    const char *slug, *name;
    bool splits, persists;
    pst_mpi_feature requires;
} pst_variant;

typedef struct pst_transport {
    const char *name;
    const pst_variant *variants[2];   /* [unordered, ordered], indexed by the code's variant */
    int nvariants[2];
    void (*post)(struct pst_xfer *x);
    void (*send)(struct pst_xfer *x);
    void (*wait)(struct pst_xfer *x);
    /* May x's send phase run before the wait phases of other transfers in a batch?  False when
     * it can block until a partner reaches its wait phase (see pst_xfer_send_early).  NULL:
     * always early. */
    bool (*send_early)(const struct pst_xfer *x);
    /* Local room for n messages like x that may be outstanding at once (buffered-send space);
     * outside timing.  NULL: nothing to reserve (one-sided transports size their area in setup). */
    void (*reserve)(const struct pst_xfer *x, size_t n);
    /* The same kept for as long as a plan lives, on top of every other plan's (n < 0 gives it
     * back); see pst_xfer_hold.  NULL: nothing to hold. */
    void (*hold)(const struct pst_xfer *x, long n);
    /* Collective over comm, outside timing; grow: keep what comm's area already covers (see
     * pst_transport_grow).  NULL when the transport needs no set-up. */
    void (*setup)(MPI_Comm comm, size_t max_bytes, size_t max_inflight, bool grow);
    void (*release)(MPI_Comm comm);
    /* MPI_WIN_MODEL of the transport's window on comm ("unified"/"separate"), NULL if none. */
    const char *(*memory_model)(MPI_Comm comm);
    /* Called before MPI_Init when the command line selects this transport; NULL: nothing. */
    void (*before_mpi_init)(void);
    /* Persistent and partitioned protocols: make x's persistent requests / free them (local).
     * NULL: the transport has neither. */
    void (*prepare)(struct pst_xfer *x);
    void (*unprepare)(struct pst_xfer *x);
    /* Partitioned protocols: partition `part` of the send is filled / wait until partition `part`
     * of the receive is in.  NULL: the transport has none. */
    void (*send_part)(struct pst_xfer *x, int part);
    void (*wait_part)(struct pst_xfer *x, int part);
    pst_mpi_feature requires; /* what every protocol of the transport needs (PST_FEAT_NONE: nothing) */
} pst_transport;

typedef struct pst_protocol {
    char code[24];       /* "1,3" */
    char slug[64];       /* "ordered.isend-irecv", ".overlap" or ".persistent" appended for the forms */
    char name[96];       /* Worley 2000 wording ("persistent " before it for 4,x / 5,x) */
    int cls, variant;    /* code = cls,variant; cls 0 unordered, 1 ordered, 2/3 overlap, 4/5 persistent */
    bool ordered, overlap, persistent;
    bool partitioned;    /* its recipe needs PST_FEAT_PARTITIONED: prepared, split into partitions */
    pst_mpi_feature requires; /* PST_FEAT_NONE, or what the library must have (pst_protocol_unavailable) */
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
    int send_parts, recv_parts; /* partitions of a partitioned protocol's messages (1 otherwise) */
    bool sends_handshake, waits_handshake;
    MPI_Request req[4];
    /* One-sided transports: per-communicator state, this transfer's place in the pair's send
     * and receive streams, and the window slot holding its data. */
    void *state;
    unsigned long long seq_send, seq_recv;
    int slot;
} pst_xfer;

/* Catalogue of one transport ("mpi", "rma", and "shmem" where built). */
size_t pst_protocol_count(const char *transport);
const pst_protocol *pst_protocol_at(const char *transport, size_t i);
/* By code ("1,3", "3,1") or slug; NULL when unknown. */
const pst_protocol *pst_protocol_find(const char *transport, const char *spec);
/* Why p cannot run with this build's MPI library (NULL: it can), e.g. "needs MPI_Isendrecv
 * (MPI-4.0 §3.10), which this MPI library, ... does not have". */
const char *pst_protocol_unavailable(const pst_protocol *p);
/* A list: codes (integer pairs: "1,3,0,6"), slugs, and groups all | unordered | ordered |
 * overlap | no-overlap | persistent, comma-separated, duplicates dropped.  Groups leave out the
 * protocols this MPI library cannot run; naming one of those is an error saying what it needs.
 * Returns 0, or -1 with err set. */
int pst_protocol_parse_list(const char *transport, const char *list, const pst_protocol ***out,
                            size_t *n, char *err, size_t errlen);
bool pst_transport_known(const char *transport);
/* The value of a --transport option: returns when this build has it, else a usage error (exit 2)
 * naming the transports it has. */
void pst_transport_require(const char *transport);
/* The transports of this build, comma-separated ("mpi, rma"), for messages. */
const char *pst_transport_names(void);

/* The --transport option row of a subcommand's pst_opt table (core/cli.h); `more` adds to the
 * help what the choice means there (a string literal, "" for nothing). */
#define PST_TRANSPORT_OPT(field, more)                                                                            \
    {"transport", PST_OPT_STRING, (field), "NAME", "mpi (two-sided), rma (MPI-3 one-sided put/get), shmem where built" \
     more, 1, 0, NULL, NULL}

/* Prepare `transport` for transfers on comm of at most max_bytes each with at most
 * max_inflight transfers in flight per rank (posted or sent, not yet waited).  Collective over
 * comm (every rank, also those that will not transfer), outside timing, with no transfer in
 * flight; call again to resize.  The one-sided transports allocate their window here; the
 * two-sided transport needs nothing.  pst_transport_release (collective) frees it; call it
 * before freeing comm (transfers find their window by the communicator handle).  Each
 * communicator has its own area: set up every communicator transfers run on (a row or column
 * of a processor grid too).  One-sided areas are symmetric memory over all processes (a window
 * on MPI_COMM_WORLD, the SHMEM heap), so for "rma" and "shmem" set-up and release are
 * collective over all processes, each passing the communicator it will use (its row, say, or
 * MPI_COMM_WORLD); the geometry is agreed over all of them. */
void pst_transport_setup(const char *transport, MPI_Comm comm, size_t max_bytes, size_t max_inflight);
/* As pst_transport_setup, but keeping what comm is already set up for: the area grows to cover
 * both (created when comm has none) and never shrinks.  For plans built one after another on
 * one communicator (a transpose and its inverse: src/algo sets up through this). */
void pst_transport_grow(const char *transport, MPI_Comm comm, size_t max_bytes, size_t max_inflight);
void pst_transport_release(const char *transport, MPI_Comm comm);
/* Before MPI_Init: let the transport named by "--transport NAME" (or --transport=NAME) in
 * argv prepare the MPI environment (the shmem transport needs this with Open MPI 4.1). */
void pst_transport_before_mpi_init(int argc, char **argv);
/* "unified" / "separate" (MPI_WIN_MODEL of a one-sided transport's window on comm), or NULL. */
const char *pst_transport_memory_model(const char *transport, MPI_Comm comm);

/* Set up one transfer of `bytes` (≤ INT_MAX) with tag `tag` (0 ≤ tag < 2^14; the two-sided
 * transport derives its own tags from it; one-sided transports match each pair's transfers
 * in posting order and ignore it).  dest == src makes it a SWAP. */
void pst_xfer_init(pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                   const void *sendbuf, void *recvbuf, size_t bytes, int tag);
/* The same with different sizes each way (an all-to-all step with uneven blocks); either may
 * be 0.  Both ends of a transfer must agree: one side's send_bytes is the other's recv_bytes. */
void pst_xfer_init_v(pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                     const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag);
/* The plan-time phase: make an initialised transfer's persistent requests (a persistent protocol;
 * nothing for the others), so that it can then run any number of times; its buffers, sizes and
 * peers are fixed from here on.  Local, outside timing.  pst_xfer_free gives the requests back
 * (with no exchange of x in flight).  A persistent transfer run unprepared is a fatal error. */
void pst_xfer_prepare(pst_xfer *x);
void pst_xfer_free(pst_xfer *x);

/* The persistent transfers of a plan whose exchanges are set up afresh on every run (the
 * algorithms' transposes, sums and butterflies): pst_xfer_set_init sets up x as pst_xfer_init_v
 * does, and for a persistent protocol gives it the requests the set keeps for the same transfer
 * (protocol, communicator, peers, side, tag and buffers), prepared the first time it is asked
 * for.  A transfer whose buffers change is prepared again: each (tag, peers, side) keeps its
 * last few bindings, so the set stays bounded.  Local; pst_xfer_set_free frees every request
 * (with none in flight). */
typedef struct pst_xfer_set pst_xfer_set;
pst_xfer_set *pst_xfer_set_new(void);
void pst_xfer_set_init(pst_xfer_set *s, pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src, int side,
                       const void *sendbuf, size_t send_bytes, void *recvbuf, size_t recv_bytes, int tag);
void pst_xfer_set_free(pst_xfer_set *s);
/* A partitioned protocol's transfer whose send is send_parts equal partitions and whose receive
 * recv_parts (each dividing its byte count; the other end must split the same message alike),
 * prepared in s as pst_xfer_set_init does.  Run it as post, then pst_xfer_send_part for every
 * send partition in order (the first also starts the send), then pst_xfer_wait_part for any
 * receive partition, then pst_xfer_wait.  pst_xfer_wait_part returns with that partition in and
 * the whole send complete (MPI completes partitioned sends only as a whole), so the caller may
 * then write the send buffer, as after pst_xfer_wait. */
void pst_xfer_set_init_parts(pst_xfer_set *s, pst_xfer *x, const pst_protocol *p, MPI_Comm comm, int dest, int src,
                             int side, const void *sendbuf, size_t send_bytes, int send_parts, void *recvbuf,
                             size_t recv_bytes, int recv_parts, int tag);
void pst_xfer_send_part(pst_xfer *x, int part);
void pst_xfer_wait_part(pst_xfer *x, int part);
/* Buffered-send space for n messages like x outstanding at once (0,0 of "mpi"); local.
 * Nothing for the one-sided transports: their set-up bounds the transfers in flight. */
void pst_xfer_reserve(const pst_xfer *x, size_t n);
/* Buffered-send space for n messages like x that a plan keeps while it lives, added to what
 * every other plan holds (n < 0 returns it).  For plans that run back to back with no settle
 * between them, so one plan's buffered messages may still await delivery when the next sends. */
void pst_xfer_hold(const pst_xfer *x, long n);
/* Outside timing, between turns: wait until this rank's buffered sends have left, so that none
 * outlives the turn that sent it and the space reserved for one exchange suffices. */
void pst_transport_settle(void);
void pst_xfer_post(pst_xfer *x);
void pst_xfer_send(pst_xfer *x);
void pst_xfer_wait(pst_xfer *x);
/* In a batch (transfers with several partners in flight, e.g. an overlapped transpose), a send
 * phase that can block until its partner reaches the partner's wait phase must not run ahead of
 * this rank's own waits, or ranks can wait on each other in a cycle.  That is side B of an
 * ordered protocol whose side A receives (mpi: 1,1 and 1,7) or announces its data (rma, shmem:
 * 1,1, put-nb) only in its wait phase, and their overlap codes.  Batches therefore run: post all; send every transfer
 * whose send is early; then, in order, each remaining send followed by its wait.  For a single partner this is the
 * plain post-all/send-all/wait-all order (side B's wait phase is empty). */
bool pst_xfer_send_early(const pst_xfer *x);
/* Run n set-up transfers to completion: overlap protocols run them as a batch (above); the
 * others complete each transfer before starting the next. */
void pst_xfer_run(pst_xfer *x, size_t n);

/* Side for position `rank` in the SENDRECV pattern "send to rank+shift, receive from
 * rank-shift" (mod size): alternating along each cycle so ordered protocols never form a
 * cycle of ranks that all send first. */
int pst_shift_side(int rank, int size, int shift);

#endif
