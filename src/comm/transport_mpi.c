/* The two-sided MPI transport: every protocol is a row of a recipe table interpreted by one
 * small loop, so a protocol is data, not a copy of a code path.  The persistent forms (4,x /
 * 5,x) run the same rows: a nonblocking call becomes MPI_Start of the request its _init twin
 * made when the transfer was prepared (prepare_ops). */
#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/errors.h"
#include "runtime/fault.h"
#include "runtime/wait.h"

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
    ISENDRECV,   /* MPI-4.0: both directions as one request, in the send slot */
    PSEND,       /* MPI-4.0 partitioned: start the send and mark every partition ready */
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
        [7] = {{{{END}, {ISENDRECV}, {WAIT_SEND}}}},
        [8] = {{{{IRECV}, {PSEND}, {WAIT_ALL}}}}, /* IRECV starts the prepared partitioned receive */
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

/* Names follow Worley 2000's wording.  `splits`: side A's recipe spans several phases, so an
 * algorithm can compute between them; only these get overlap codes (2,x / 3,x).  The
 * handshake of 1,6 is a synchronisation, not an overlap opportunity. */
/* Persistent forms: the split recipes, whose nonblocking calls all have _init twins
 * (MPI_Isendrecv has none). */
static const pst_variant unordered_variants[] = {
    {"simple", "unordered simple swap (buffered send)", false, false, PST_FEAT_NONE},
    {"isend", "unordered swap using nonblocking send", true, true, PST_FEAT_NONE},
    {"irecv", "unordered swap using nonblocking receive", true, true, PST_FEAT_NONE},
    {"isend-irecv", "unordered swap using nonblocking send and receive", true, true, PST_FEAT_NONE},
    {"rsend", "unordered swap using ready send", true, true, PST_FEAT_NONE},
    {"irsend", "unordered swap using nonblocking ready send", true, true, PST_FEAT_NONE},
    {"sendrecv", "unordered swap using native sendrecv", false, false, PST_FEAT_NONE},
    {"isendrecv", "unordered swap using nonblocking native sendrecv", true, false, PST_FEAT_ISENDRECV},
    {"partitioned", "unordered swap using partitioned send and receive", true, false, PST_FEAT_PARTITIONED},
};
static const pst_variant ordered_variants[] = {
    {"simple", "ordered simple swap", false, false, PST_FEAT_NONE},
    {"isend", "ordered swap using nonblocking send", true, true, PST_FEAT_NONE},
    {"irecv", "ordered swap using nonblocking receive", true, true, PST_FEAT_NONE},
    {"isend-irecv", "ordered swap using nonblocking send and receive", true, true, PST_FEAT_NONE},
    {"rsend", "ordered swap using ready send", true, true, PST_FEAT_NONE},
    {"irsend", "ordered swap using nonblocking ready send", true, true, PST_FEAT_NONE},
    {"sync", "synchronous (receiver-ready handshake)", false, false, PST_FEAT_NONE},
    {"issend", "ordered swap using nonblocking sync. send", true, true, PST_FEAT_NONE},
    {"irecv-ssend", "ordered swap using nonblocking receive with sync. send", true, true, PST_FEAT_NONE},
    {"issend-irecv", "ordered swap using nonblocking sync. send and receive", true, true, PST_FEAT_NONE},
    {"ssend", "ordered simple swap using sync. send", false, false, PST_FEAT_NONE},
};
_Static_assert(sizeof unordered_variants / sizeof unordered_variants[0] == 9, "one row per unordered recipe");
_Static_assert(sizeof ordered_variants / sizeof ordered_variants[0] == 11, "one row per ordered recipe");

static char token; /* handshakes carry no data */

static int data_tag(const pst_xfer *x) { return 2 * x->tag; }
static int hs_tag(const pst_xfer *x) { return 2 * x->tag + 1; }

static void drain_bsend_space(void);
static size_t bsend_attached, bsend_pending; /* bytes attached; bytes sent buffered since the last drain */
static size_t bsend_held;                    /* bytes the living plans hold (mpi_hold) */

static size_t bsend_need(const pst_xfer *x) { return (size_t)x->bytes + MPI_BSEND_OVERHEAD + 64; }

/* Make room before the send, never retry after it: Open MPI's ob1 can put a message's first
 * fragment on the wire before it finds the buffered space short and returns MPI_ERR_BUFFER, so a
 * retried send leaves the receiver matched to a message that never completes (a hang seen when
 * 0,0 ran in rounds).  MPI cannot say how much space is free, so count what was sent since the
 * space was last drained. */
static void bsend(const pst_xfer *x)
{
    if (bsend_pending + bsend_need(x) > bsend_attached) drain_bsend_space();
    PST_MPI_CHECK(MPI_Bsend(x->sendbuf, x->bytes, MPI_BYTE, x->dest, data_tag(x), x->comm));
    bsend_pending += bsend_need(x);
}

typedef int (*send_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

/* The nonblocking send call of an op, and its persistent twin. */
static send_fn isend_call(enum op op) { return op == ISSEND ? MPI_Issend : op == IRSEND ? MPI_Irsend : MPI_Isend; }
static send_fn send_init_call(enum op op)
{
    return op == ISSEND ? MPI_Ssend_init : op == IRSEND ? MPI_Rsend_init : MPI_Send_init;
}

/* Start the prepared request in slot k of a persistent transfer. */
static void start(pst_xfer *x, int k)
{
    if (x->req[k] == MPI_REQUEST_NULL)
        pst_fatal(PST_EXIT_FAILED,
                  "protocol %s: transfer run without being prepared (pst_xfer_prepare or a pst_xfer_set)",
                  x->proto->code);
    PST_MPI_CHECK(MPI_Start(&x->req[k]));
}

static void isendrecv(pst_xfer *x)
{
#if defined(PST_HAVE_MPI_ISENDRECV)
    PST_MPI_CHECK(MPI_Isendrecv(x->sendbuf, x->bytes, MPI_BYTE, x->dest, data_tag(x), x->recvbuf, x->recv_bytes,
                                MPI_BYTE, x->src, data_tag(x), x->comm, &x->req[S_DATA]));
#else
    /* Lists leave it out or refuse it (pst_protocol_parse_list); this guards a caller taking it from the catalogue. */
    pst_fatal(PST_EXIT_FAILED, "protocol %s %s", x->proto->code, pst_protocol_unavailable(x->proto));
#endif
}

/* Partitioned communication: compiled only where the library has it; elsewhere the protocols are
 * refused by name before a transfer exists (pst_protocol_unavailable). */
static void mpi_send_part(pst_xfer *x, int part)
{
#if defined(PST_HAVE_MPI_PARTITIONED)
    if (part == 0) start(x, S_DATA);
    PST_MPI_CHECK(MPI_Pready(part, x->req[S_DATA]));
#else
    (void)part;
    pst_fatal(PST_EXIT_FAILED, "protocol %s %s", x->proto->code, pst_protocol_unavailable(x->proto));
#endif
}

/* MPI completes a partitioned send only as a whole, and a consumer may overwrite the send buffer
 * (the distributed FFT's butterflies work in place): the send completes before any partition is
 * consumed; waiting again on the then inactive request returns at once. */
static void mpi_wait_part(pst_xfer *x, int part)
{
#if defined(PST_HAVE_MPI_PARTITIONED)
    PST_MPI_CHECK(MPI_Wait(&x->req[S_DATA], MPI_STATUS_IGNORE));
    for (int in = 0; !in;) PST_MPI_CHECK(MPI_Parrived(x->req[R_DATA], part, &in));
#else
    (void)part;
    pst_fatal(PST_EXIT_FAILED, "protocol %s %s", x->proto->code, pst_protocol_unavailable(x->proto));
#endif
}

static void partitioned_init(pst_xfer *x)
{
#if defined(PST_HAVE_MPI_PARTITIONED)
    PST_MPI_CHECK(MPI_Precv_init(x->recvbuf, x->recv_parts, x->recv_bytes / x->recv_parts, MPI_BYTE, x->src,
                                 data_tag(x), x->comm, MPI_INFO_NULL, &x->req[R_DATA]));
    PST_MPI_CHECK(MPI_Psend_init(x->sendbuf, x->send_parts, x->bytes / x->send_parts, MPI_BYTE, x->dest, data_tag(x),
                                 x->comm, MPI_INFO_NULL, &x->req[S_DATA]));
#else
    pst_fatal(PST_EXIT_FAILED, "protocol %s %s", x->proto->code, pst_protocol_unavailable(x->proto));
#endif
}

static void run_phase(pst_xfer *x, int phase)
{
    int ordered = x->proto->ordered, side = ordered ? x->side : PST_SIDE_A;
    bool persistent = x->proto->persistent || x->proto->partitioned;
    const enum op *ops = recipes[ordered][x->proto->variant][side].ops[phase];
    void *rbuf = x->recvbuf;
    const void *sbuf = x->sendbuf;
    int n = x->bytes, rn = x->recv_bytes, dt = data_tag(x);
    for (int i = 0; i < MAXOPS && ops[i] != END; i++) {
        switch (ops[i]) {
        case IRECV:
            if (persistent) start(x, R_DATA);
            else PST_MPI_CHECK(MPI_Irecv(rbuf, rn, MPI_BYTE, x->src, dt, x->comm, &x->req[R_DATA]));
            break;
        case WAIT_RECV: PST_MPI_CHECK(MPI_Wait(&x->req[R_DATA], MPI_STATUS_IGNORE)); break;
        case RECV: PST_MPI_CHECK(MPI_Recv(rbuf, rn, MPI_BYTE, x->src, dt, x->comm, MPI_STATUS_IGNORE)); break;
        case HS_POST:
            if (x->waits_handshake) {
                if (persistent) start(x, R_HS);
                else PST_MPI_CHECK(MPI_Irecv(&token, 0, MPI_BYTE, x->dest, hs_tag(x), x->comm, &x->req[R_HS]));
            }
            if (x->sends_handshake) {
                if (persistent) start(x, S_HS);
                else PST_MPI_CHECK(MPI_Isend(&token, 0, MPI_BYTE, x->src, hs_tag(x), x->comm, &x->req[S_HS]));
            }
            break;
        case HS_WAIT: PST_MPI_CHECK(MPI_Wait(&x->req[R_HS], MPI_STATUS_IGNORE)); break;
        case SEND: PST_MPI_CHECK(MPI_Send(sbuf, n, MPI_BYTE, x->dest, dt, x->comm)); break;
        case SSEND: PST_MPI_CHECK(MPI_Ssend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm)); break;
        case RSEND: PST_MPI_CHECK(MPI_Rsend(sbuf, n, MPI_BYTE, x->dest, dt, x->comm)); break;
        case BSEND: bsend(x); break;
        case ISEND:
        case ISSEND:
        case IRSEND:
            if (persistent) start(x, S_DATA);
            else PST_MPI_CHECK(isend_call(ops[i])(sbuf, n, MPI_BYTE, x->dest, dt, x->comm, &x->req[S_DATA]));
            break;
        case WAIT_SEND: PST_MPI_CHECK(MPI_Wait(&x->req[S_DATA], MPI_STATUS_IGNORE)); break;
        case WAIT_ALL: PST_MPI_CHECK(pst_waitall(2, &x->req[R_DATA])); break; /* R_DATA, S_DATA adjacent */
        case SENDRECV:
            PST_MPI_CHECK(MPI_Sendrecv(sbuf, n, MPI_BYTE, x->dest, dt, rbuf, rn, MPI_BYTE, x->src, dt, x->comm,
                               MPI_STATUS_IGNORE));
            break;
        case ISENDRECV: isendrecv(x); break;
        case PSEND:
            for (int part = 0; part < x->send_parts; part++) mpi_send_part(x, part);
            break;
        case END: break;
        }
    }
    /* The handshake token's send completes with the transfer (an inactive persistent one at once). */
    if (phase == PH_WAIT && x->req[S_HS] != MPI_REQUEST_NULL) PST_MPI_CHECK(MPI_Wait(&x->req[S_HS], MPI_STATUS_IGNORE));
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

/* The plan-time phase of a persistent transfer: one _init call per nonblocking call of its
 * side's recipe, into the slot that call would fill. */
static void mpi_prepare(pst_xfer *x)
{
    if (x->proto->partitioned) {
        partitioned_init(x);
        return;
    }
    int side = x->proto->ordered ? x->side : PST_SIDE_A;
    for (int phase = 0; phase < NPHASES; phase++) {
        const enum op *ops = recipes[x->proto->ordered][x->proto->variant][side].ops[phase];
        for (int i = 0; i < MAXOPS && ops[i] != END; i++) {
            switch (ops[i]) {
            case IRECV:
                PST_MPI_CHECK(
                    MPI_Recv_init(x->recvbuf, x->recv_bytes, MPI_BYTE, x->src, data_tag(x), x->comm, &x->req[R_DATA]));
                break;
            case ISEND:
            case ISSEND:
            case IRSEND:
                PST_MPI_CHECK(send_init_call(ops[i])(x->sendbuf, x->bytes, MPI_BYTE, x->dest, data_tag(x), x->comm,
                                                     &x->req[S_DATA]));
                break;
            case HS_POST:
                if (x->waits_handshake)
                    PST_MPI_CHECK(MPI_Recv_init(&token, 0, MPI_BYTE, x->dest, hs_tag(x), x->comm, &x->req[R_HS]));
                if (x->sends_handshake)
                    PST_MPI_CHECK(MPI_Send_init(&token, 0, MPI_BYTE, x->src, hs_tag(x), x->comm, &x->req[S_HS]));
                break;
            default: break; /* blocking calls stay blocking */
            }
        }
    }
}

static void mpi_unprepare(pst_xfer *x)
{
    for (int k = 0; k < 4; k++)
        if (x->req[k] != MPI_REQUEST_NULL) PST_MPI_CHECK(MPI_Request_free(&x->req[k]));
}

static void mpi_post(pst_xfer *x) { run_phase(x, PH_POST); }
static void mpi_send(pst_xfer *x)
{
    pst_fault_delay(); /* a planted slowdown, when asked for (runtime/fault.h) */
    run_phase(x, PH_SEND);
}
static void mpi_wait(pst_xfer *x) { run_phase(x, PH_WAIT); }

static void *bsend_buffer;

static void drain_bsend_space(void)
{
    if (!bsend_pending) return;
    void *buffer;
    int size;
    MPI_Buffer_detach(&buffer, &size); /* returns once every buffered message has left */
    MPI_Buffer_attach(buffer, size);
    bsend_pending = 0;
}

void pst_transport_settle(void) { drain_bsend_space(); }

static bool buffered(const pst_xfer *x) { return !x->proto->ordered && x->proto->variant == 0; }

/* Grow the attached space (outside timing) to at least `need` bytes. */
static void attach_at_least(size_t need)
{
    if (need <= bsend_attached) return;
    if (bsend_buffer) {
        void *old;
        int size;
        MPI_Buffer_detach(&old, &size); /* blocks until buffered messages are delivered */
        free(old);
        bsend_pending = 0;
    }
    if (need > INT32_MAX) pst_fatal(PST_EXIT_FAILED, "buffered-send space of %zu bytes exceeds MPI's int limit", need);
    bsend_buffer = pst_malloc(need);
    MPI_Buffer_attach(bsend_buffer, (int)need);
    bsend_attached = need;
}

/* Buffered sends (0,0) need attached space. */
static void mpi_reserve(const pst_xfer *x, size_t n)
{
    /* Twice the messages of one exchange: a turn's re-warm and timed exchange fit, and
     * pst_transport_settle empties the space between turns, so no drain falls into a timing. */
    if (buffered(x)) attach_at_least(2 * n * bsend_need(x));
}

/* Holds add up (the space stays attached when one is given back: plans are freed at the end). */
static void mpi_hold(const pst_xfer *x, long n)
{
    if (!buffered(x)) return;
    size_t bytes = (n < 0 ? (size_t)-n : (size_t)n) * bsend_need(x);
    bsend_held = n < 0 ? bsend_held - (bytes < bsend_held ? bytes : bsend_held) : bsend_held + bytes;
    attach_at_least(bsend_held);
}

const pst_transport pst_transport_mpi = {
    .name = "mpi",
    .variants = {unordered_variants, ordered_variants},
    .nvariants = {9, 11},
    .post = mpi_post,
    .send = mpi_send,
    .wait = mpi_wait,
    .send_early = mpi_send_early,
    .reserve = mpi_reserve,
    .hold = mpi_hold,
    .prepare = mpi_prepare,
    .unprepare = mpi_unprepare,
    .send_part = mpi_send_part,
    .wait_part = mpi_wait_part,
};
