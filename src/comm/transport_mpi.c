/* The two-sided MPI transport: every protocol is a row of a recipe table interpreted by one
 * small loop, so a protocol is data, not a copy of a code path. */
#include "comm/protocol.h"
#include "core/errors.h"

#include <stdint.h>
#include <stdlib.h>

enum op {
    END = 0,
    IRECV,       /* post the data receive */
    WAIT_RECV,   /* complete it */
    RECV,        /* blocking receive */
    HS_POST,     /* receive-ready handshake: irecv token from dest, isend token to src (as needed) */
    HS_WAIT,     /* wait for dest's token before a send that needs the receive posted */
    SEND, SSEND, RSEND, BSEND,
    ISEND, ISSEND, IRSEND,
    WAIT_SEND,
    WAIT_ALL,    /* data receive and data send together */
    SENDRECV,
};

enum { R_DATA = 0, S_DATA = 1, R_HS = 2, S_HS = 3 };
enum { PH_POST, PH_SEND, PH_WAIT, NPHASES };
#define MAXOPS 4

typedef struct recipe { enum op ops[NPHASES][MAXOPS]; } recipe;

/* [ordered][variant][side]; unordered protocols use side A's recipe on both sides. */
static const recipe recipes[2][11][2] = {
    [0] = {
        [0] = {{{{END}, {BSEND, RECV}, {END}}}},
        [1] = {{{{END}, {ISEND}, {RECV, WAIT_SEND}}}},
        [2] = {{{{IRECV}, {SEND}, {WAIT_RECV}}}},
        [3] = {{{{IRECV}, {ISEND}, {WAIT_ALL}}}},
        [4] = {{{{IRECV, HS_POST}, {HS_WAIT, RSEND}, {WAIT_RECV}}}},
        [5] = {{{{IRECV, HS_POST}, {HS_WAIT, IRSEND}, {WAIT_ALL}}}},
        [6] = {{{{END}, {SENDRECV}, {END}}}},
    },
    [1] = {
        [0] = {{{{END}, {SEND, RECV}, {END}}}, {{{IRECV}, {WAIT_RECV, SEND}, {END}}}},
        [1] = {{{{END}, {ISEND}, {RECV, WAIT_SEND}}}, {{{IRECV}, {WAIT_RECV, SEND}, {END}}}},
        [2] = {{{{IRECV}, {SEND}, {WAIT_RECV}}}, {{{IRECV}, {WAIT_RECV, SEND}, {END}}}},
        [3] = {{{{IRECV}, {ISEND}, {WAIT_ALL}}}, {{{IRECV}, {WAIT_RECV, SEND}, {END}}}},
        [4] = {{{{IRECV, HS_POST}, {HS_WAIT, RSEND}, {WAIT_RECV}}},
               {{{IRECV, HS_POST}, {WAIT_RECV, HS_WAIT, RSEND}, {END}}}},
        [5] = {{{{IRECV, HS_POST}, {HS_WAIT, IRSEND}, {WAIT_ALL}}},
               {{{IRECV, HS_POST}, {WAIT_RECV, HS_WAIT, RSEND}, {END}}}},
        [6] = {{{{HS_POST}, {HS_WAIT, SEND, RECV}, {END}}},
               {{{IRECV, HS_POST}, {WAIT_RECV, HS_WAIT, SEND}, {END}}}},
        [7] = {{{{END}, {ISSEND}, {RECV, WAIT_SEND}}}, {{{IRECV}, {WAIT_RECV, SSEND}, {END}}}},
        [8] = {{{{IRECV}, {SSEND}, {WAIT_RECV}}}, {{{IRECV}, {WAIT_RECV, SSEND}, {END}}}},
        [9] = {{{{IRECV}, {ISSEND}, {WAIT_ALL}}}, {{{IRECV}, {WAIT_RECV, SSEND}, {END}}}},
        [10] = {{{{END}, {SSEND, RECV}, {END}}}, {{{IRECV}, {WAIT_RECV, SSEND}, {END}}}},
    },
};

const char *const pst_mpi_variant_names[2][11] = {
    {"unordered simple swap (buffered send)", "unordered swap using nonblocking send",
     "unordered swap using nonblocking receive", "unordered swap using nonblocking send and receive",
     "unordered swap using ready send", "unordered swap using nonblocking ready send",
     "unordered swap using native sendrecv"},
    {"ordered simple swap", "ordered swap using nonblocking send", "ordered swap using nonblocking receive",
     "ordered swap using nonblocking send and receive", "ordered swap using ready send",
     "ordered swap using nonblocking ready send", "synchronous (receiver-ready handshake)",
     "ordered swap using nonblocking sync. send", "ordered swap using nonblocking receive with sync. send",
     "ordered swap using nonblocking sync. send and receive", "ordered simple swap using sync. send"},
};

const char *const pst_mpi_variant_slugs[2][11] = {
    {"simple", "isend", "irecv", "isend-irecv", "rsend", "irsend", "sendrecv"},
    {"simple", "isend", "irecv", "isend-irecv", "rsend", "irsend", "sync", "issend", "irecv-ssend",
     "issend-irecv", "ssend"},
};

/* Variants whose side-A recipe spans several phases, so an algorithm can compute between
 * them; only these get overlap codes (2,x / 3,x).  The handshake of 1,6 is a
 * synchronisation, not an overlap opportunity. */
const bool pst_mpi_variant_splits[2][11] = {
    {false, true, true, true, true, true, false},
    {false, true, true, true, true, true, false, true, true, true, false},
};

static int data_tag(const pst_xfer *x) { return 2 * x->tag; }
static int hs_tag(const pst_xfer *x) { return 2 * x->tag + 1; }

static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) pst_fatal(3, "MPI call %s failed (error %d)", what, rc);
}

static void run_phase(pst_xfer *x, int phase)
{
    int ordered = x->proto->ordered, side = ordered ? x->side : PST_SIDE_A;
    const enum op *ops = recipes[ordered][x->proto->variant][side].ops[phase];
    static char token; /* handshakes carry no data */
    void *rbuf = x->recvbuf;
    const void *sbuf = x->sendbuf;
    int n = x->bytes, rn = x->recv_bytes, dt = data_tag(x);
    for (int i = 0; i < MAXOPS && ops[i] != END; i++) {
        switch (ops[i]) {
        case IRECV: check(MPI_Irecv(rbuf, rn, MPI_BYTE, x->src, dt, x->comm, &x->req[R_DATA]), "Irecv"); break;
        case WAIT_RECV: check(MPI_Wait(&x->req[R_DATA], MPI_STATUS_IGNORE), "Wait"); break;
        case RECV: check(MPI_Recv(rbuf, rn, MPI_BYTE, x->src, dt, x->comm, MPI_STATUS_IGNORE), "Recv"); break;
        case HS_POST:
            if (x->waits_handshake)
                check(MPI_Irecv(&token, 0, MPI_BYTE, x->dest, hs_tag(x), x->comm, &x->req[R_HS]), "Irecv(handshake)");
            if (x->sends_handshake)
                check(MPI_Isend(&token, 0, MPI_BYTE, x->src, hs_tag(x), x->comm, &x->req[S_HS]), "Isend(handshake)");
            break;
        case HS_WAIT: check(MPI_Wait(&x->req[R_HS], MPI_STATUS_IGNORE), "Wait(handshake)"); break;
        case SEND: check(MPI_Send(sbuf, n, MPI_BYTE, x->dest, dt, x->comm), "Send"); break;
        case SSEND: check(MPI_Ssend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm), "Ssend"); break;
        case RSEND: check(MPI_Rsend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm), "Rsend"); break;
        case BSEND: check(MPI_Bsend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm), "Bsend"); break;
        case ISEND: check(MPI_Isend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm, &x->req[S_DATA]), "Isend"); break;
        case ISSEND: check(MPI_Issend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm, &x->req[S_DATA]), "Issend"); break;
        case IRSEND: check(MPI_Irsend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm, &x->req[S_DATA]), "Irsend"); break;
        case WAIT_SEND: check(MPI_Wait(&x->req[S_DATA], MPI_STATUS_IGNORE), "Wait"); break;
        case WAIT_ALL: {
            MPI_Status status[2]; /* not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's sentinel */
            check(MPI_Waitall(2, &x->req[R_DATA], status), "Waitall"); /* R_DATA, S_DATA adjacent */
            break;
        }
        case SENDRECV:
            check(MPI_Sendrecv(sbuf, n, MPI_BYTE, x->dest, dt, rbuf, rn, MPI_BYTE, x->src, dt, x->comm,
                               MPI_STATUS_IGNORE), "Sendrecv");
            break;
        case END: break;
        }
    }
    /* The handshake token's send completes with the transfer. */
    if (phase == PH_WAIT && x->req[S_HS] != MPI_REQUEST_NULL) check(MPI_Wait(&x->req[S_HS], MPI_STATUS_IGNORE), "Wait(handshake)");
}

/* Side B's send phase begins with WAIT_RECV and may then block until the partner receives;
 * that is only safe ahead of our own waits when side A receives before its wait phase. */
static bool mpi_send_early(const pst_xfer *x)
{
    if (!x->proto->ordered || x->side == PST_SIDE_A) return true;
    const enum op *a_wait = recipes[1][x->proto->variant][PST_SIDE_A].ops[PH_WAIT];
    for (int i = 0; i < MAXOPS && a_wait[i] != END; i++)
        if (a_wait[i] == RECV) return false; /* not yet posted: A receives only when it waits */
    return true;
}

static void mpi_post(pst_xfer *x) { run_phase(x, PH_POST); }
static void mpi_send(pst_xfer *x) { run_phase(x, PH_SEND); }
static void mpi_wait(pst_xfer *x) { run_phase(x, PH_WAIT); }

/* Buffered sends (0,0) need attached space; grow it (outside timing) when asked. */
static void mpi_reserve(const pst_xfer *x, size_t n)
{
    static void *buffer;
    static size_t attached;
    if (x->proto->ordered || x->proto->variant != 0) return;
    /* Twice the messages in flight: a delivered message's space is only reclaimed when the
     * sender next makes progress, so back-to-back exchanges can briefly overlap. */
    size_t need = 2 * n * ((size_t)x->bytes + MPI_BSEND_OVERHEAD + 64);
    if (need <= attached) return;
    if (buffer) {
        void *old;
        int size;
        MPI_Buffer_detach(&old, &size); /* blocks until buffered messages are delivered */
        free(old);
    }
    if (need > INT32_MAX) pst_fatal(3, "buffered-send space of %zu bytes exceeds MPI's int limit", need);
    buffer = malloc(need);
    if (!buffer) pst_fatal(3, "cannot allocate %zu bytes of buffered-send space", need);
    MPI_Buffer_attach(buffer, (int)need);
    attached = need;
}

const pst_transport pst_transport_mpi = {
    .name = "mpi", .post = mpi_post, .send = mpi_send, .wait = mpi_wait, .send_early = mpi_send_early, .reserve = mpi_reserve,
};
