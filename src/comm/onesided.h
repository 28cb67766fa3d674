/* SHMEM-style message passing on one-sided put/get: the recipes, window layout, slot flow
 * control and pair ordering shared by the one-sided transports.  A backend supplies the
 * primitives: "rma" (MPI-3 RMA, transport_rma.c) and "shmem" (OpenSHMEM, transport_shmem.c).
 * See onesided.c for the protocol. */
#ifndef PST_ONESIDED_H
#define PST_ONESIDED_H

#include "comm/protocol.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pst_os_state pst_os_state;

/* Primitives on the symmetric area (offsets in bytes from its start, ranks in MPI_COMM_WORLD).
 * Flags and counters are 64-bit words touched only through `store`, `add` and `await`.
 *
 * Symmetric memory spans every process, as SHMEM's symmetric heap does: an area is allocated
 * over MPI_COMM_WORLD even when its state serves a smaller communicator (a row of a processor
 * grid), so set-up and release are collective over all processes, each passing the
 * communicator it will use, and the state maps that communicator's ranks to world ranks.
 * (Windows over sibling communicators of one MPI_Comm_split also collide in Open MPI 4.1's
 * osc/rdma, open-mpi/ompi#9492; world windows do not.) */
typedef struct pst_os_backend {
    const char *name;
    /* Collective over MPI_COMM_WORLD: symmetric area of `bytes` (equal on every process),
     * zeroed and visible to all peers before any returns; returns the local base.  `release`
     * frees it (collective). */
    unsigned char *(*alloc)(pst_os_state *s, size_t bytes);
    void (*release)(pst_os_state *s);
    /* Start moving data; complete(rank) makes every put to / get from rank complete at both ends. */
    void (*put)(pst_os_state *s, const void *src, size_t bytes, int rank, size_t off);
    void (*get)(pst_os_state *s, void *dst, size_t bytes, int rank, size_t off);
    void (*complete)(pst_os_state *s, int rank);
    /* Atomic replace / +1 of a word at rank, complete at return. */
    void (*store)(pst_os_state *s, int rank, size_t off, uint64_t value);
    void (*add)(pst_os_state *s, int rank, size_t off);
    /* Wait (calling into the library) until our own word at off is >= want; return it.  Later
     * plain loads of our data area see what was complete before the word was updated. */
    uint64_t (*await)(pst_os_state *s, size_t off, uint64_t want);
    /* Order our plain loads and stores of the data area before the flag writes that follow
     * (a store is then visible to remote gets issued after the flag is seen). */
    void (*fence)(pst_os_state *s);
    /* Memory model of the area ("unified"/"separate"); NULL (or no function): none to report. */
    const char *(*model)(pst_os_state *s);
} pst_os_backend;

struct pst_os_state {
    const pst_os_backend *backend;
    MPI_Comm comm;            /* as given to set-up: transfers find their state by this handle */
    int rank, size;           /* in comm */
    int *world;               /* MPI_COMM_WORLD rank of each rank of comm */
    void *impl;               /* the backend's own data (window, PE map) */
    unsigned char *base;      /* our symmetric area */
    size_t depth;             /* ring entries per peer = transfers in flight the area holds */
    size_t data_bytes, slot_bytes, nslots;
    size_t grant_at, ready_at, arrived_at, done_at, data_at;
    int *free_slots;          /* stack of free slot numbers */
    size_t nfree;
    uint64_t *put_posted, *put_sent, *get_posted, *get_sent; /* per peer: next message number */
};

/* The protocols (variant tables) every one-sided transport offers. */
extern const pst_variant pst_os_variants[4];
enum { PST_OS_NVARIANTS = 4 };

/* pst_transport entry points, given the backend. */
void pst_os_setup(const pst_os_backend *b, MPI_Comm comm, size_t max_bytes, size_t max_inflight, bool grow);
void pst_os_release(const pst_os_backend *b, MPI_Comm comm);
const char *pst_os_memory_model(const pst_os_backend *b, MPI_Comm comm);
void pst_os_phase(const pst_os_backend *b, pst_xfer *x, int phase); /* 0 post, 1 send, 2 wait */
bool pst_os_send_early(const pst_xfer *x);

#endif
