/* Message streams between the same two ranks, one per OpenMP thread (pstswm pingpong and swap
 * --threads T), as OSU's multithreaded latency test runs them.  Stream s uses tag s, its own
 * buffers and its own payload seeds, so no stream can match or accept another's message.
 * Mode "multiple": every thread calls MPI itself, at once (MPI_THREAD_MULTIPLE).  Mode
 * "funneled": the master thread alone calls MPI and drives all T streams per round (post T
 * receives and T sends, wait for all), so the same messages move without MPI_THREAD_MULTIPLE. */
#ifndef PST_STREAMS_H
#define PST_STREAMS_H

#include "runtime/wait.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* The MPI send modes of a ping-pong loop. */
typedef enum pst_send_kind { PST_KIND_SEND, PST_KIND_SSEND, PST_KIND_ISEND, PST_KIND_BSEND } pst_send_kind;

static inline void pst_send_blocking(pst_send_kind k, const void *buf, int n, int peer, int tag, MPI_Comm comm)
{
    switch (k) {
    case PST_KIND_SEND: MPI_Send(buf, n, MPI_BYTE, peer, tag, comm); break;
    case PST_KIND_SSEND: MPI_Ssend(buf, n, MPI_BYTE, peer, tag, comm); break;
    case PST_KIND_BSEND: MPI_Bsend(buf, n, MPI_BYTE, peer, tag, comm); break;
    case PST_KIND_ISEND: break;
    }
}

/* One stream's loop of `iters` round trips (uni: side A sends first) or exchanges (bi: receive
 * posted, send, wait).  Only MPI calls inside; always inlined with a constant k, so each send
 * mode gets its own loop with no dispatch. */
static inline __attribute__((always_inline)) void pst_stream_loop(const pst_send_kind k, bool side_a, bool bidir,
                                                                  const void *s, void *r, int n, int peer, int tag,
                                                                  MPI_Comm comm, long long iters)
{
    MPI_Request req[2];
    if (bidir) {
        for (long long i = 0; i < iters; i++) {
            MPI_Irecv(r, n, MPI_BYTE, peer, tag, comm, &req[0]);
            if (k == PST_KIND_ISEND) {
                MPI_Isend(s, n, MPI_BYTE, peer, tag, comm, &req[1]);
                pst_waitall(2, req);
            } else {
                pst_send_blocking(k, s, n, peer, tag, comm);
                MPI_Wait(&req[0], MPI_STATUS_IGNORE);
            }
        }
    } else if (side_a) {
        for (long long i = 0; i < iters; i++) {
            if (k == PST_KIND_ISEND) MPI_Isend(s, n, MPI_BYTE, peer, tag, comm, &req[1]);
            else pst_send_blocking(k, s, n, peer, tag, comm);
            MPI_Recv(r, n, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
            if (k == PST_KIND_ISEND) MPI_Wait(&req[1], MPI_STATUS_IGNORE);
        }
    } else {
        for (long long i = 0; i < iters; i++) {
            MPI_Recv(r, n, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
            if (k == PST_KIND_ISEND) {
                MPI_Isend(s, n, MPI_BYTE, peer, tag, comm, &req[1]);
                MPI_Wait(&req[1], MPI_STATUS_IGNORE);
            } else {
                pst_send_blocking(k, s, n, peer, tag, comm);
            }
        }
    }
}

/* T streams' buffers (each its own page-aligned pair) and, funneled, the master's requests. */
typedef struct pst_streams {
    int n;                     /* streams = threads per rank; 0: not set up */
    bool multiple;             /* every thread calls MPI (else the master drives all) */
    unsigned char **sbuf, **rbuf; /* [stream] */
    MPI_Request *req;          /* [2n] */
} pst_streams;

/* Mode from the thread level asked for: multiple when MPI_THREAD_MULTIPLE was, else funneled. */
bool pst_streams_multiple(void);
const char *pst_streams_mode_name(bool multiple); /* "multiple" or "funneled" */

/* Outside every timing: n streams' buffers of max_bytes each, touched by the thread that uses them. */
void pst_streams_alloc(pst_streams *st, int n, bool multiple, size_t max_bytes);
void pst_streams_free(pst_streams *st);

/* Ping-pong (pst_stream_loop) on every stream at once; returns the elapsed seconds from the
 * streams' common start to the last one's end. */
double pst_streams_pingpong(const pst_streams *st, pst_send_kind k, bool side_a, bool bidir, int n, int peer,
                            MPI_Comm comm, long long iters);

/* Payloads: stream s's message of repetition rep from sender, distinct from every other stream's. */
void pst_streams_fill(const pst_streams *st, size_t bytes, int rank, long long point, long long rep);
/* Corrupted words over every stream's receive buffer. */
long long pst_streams_check(const pst_streams *st, size_t bytes, int partner, long long point, long long rep);

/* body(arg, stream) on `n` threads at once, the threads released together; returns the seconds
 * from the first start to the last end.  The caller's MPI level must allow it (multiple). */
double pst_streams_parallel(int n, void (*body)(void *arg, int stream), void *arg);

#endif
