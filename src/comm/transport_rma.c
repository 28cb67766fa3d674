/* The one-sided transport "rma": SHMEM-style message passing on MPI-3 RMA.  Seeds 000/001
 * built PSTSWM's message layer from SHMEM put/get the same way: data moves one-sidedly into a
 * slot of a symmetric buffer and a flag tells the other side.
 *
 * Every rank of a communicator exposes one window (MPI_Win_allocate, passive target,
 * MPI_Win_lock_all from set-up to release) laid out as
 *   grant[P][D]  tickets written by receivers: "put your message k to me into slot s"
 *   ready[P][D]  tickets written by senders:   "get my message k from my slot s"
 *   arrived[P]   count of messages a sender has put here (the data is complete before the count moves)
 *   done[P]      count of messages a receiver has got from here (the slot is free again)
 *   data[D]      slots of slot_bytes each (the largest message set up for, 64-byte aligned)
 * D = max transfers in flight per rank.  A ticket holds (k+1 mod 2^32) << 32 | slot, so a ring
 * entry is recognisably the one for message k; counters only grow.
 *
 * put: the receiver takes a free slot and grants it in post (the one-sided receive-ready
 *      handshake), the sender waits for the grant, MPI_Put's into the slot, MPI_Win_flush'es
 *      (remote completion) and adds 1 to `arrived`; the receiver waits for the count, copies
 *      the slot out and frees it.  A sender can never overwrite an unconsumed slot: it only
 *      puts into slots granted for its own message k.
 * get: the sender copies into its own slot, MPI_Win_sync's and writes a ready ticket; the
 *      receiver waits for it, MPI_Get's straight into its buffer, flushes and adds 1 to `done`;
 *      the sender frees the slot when the count covers the message.
 * Rings are deep enough by construction: at most D transfers are in flight per rank, so entry
 * k mod D was consumed (its message completed) before message k's ticket is written.
 *
 * Memory model: flags and counters are only ever accessed with MPI atomics on MPI_UINT64_T
 * (MPI_Accumulate REPLACE/SUM remotely, MPI_Fetch_and_op NO_OP + MPI_Win_flush to read our
 * own), so they are correct in the unified and the separate model; slot data is read with
 * plain loads only after MPI_Win_sync following the flag, and written with plain stores only
 * before MPI_Win_sync preceding the flag.  Progress: a waiting rank polls with MPI calls, so
 * implementations whose passive-target RMA needs the target's progress engine still advance.
 *
 * Transfers between a pair complete in posting order (each pair has its own put and get
 * streams, numbered at post by the receiver and at send by the sender); tags are not used. */
#include "comm/protocol.h"
#include "core/errors.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum op {
    END = 0,
    GRANT,     /* put, receiver: take a slot, grant it to src as our next message from it */
    PUT,       /* put, sender: wait for dest's grant, MPI_Put into the granted slot */
    PUT_DONE,  /* put, sender: flush (data complete at dest), then count it in dest's `arrived` */
    ARRIVE,    /* put, receiver: wait until `arrived` covers the message, copy it out, free the slot */
    EXPECT,    /* get, receiver: number the message we will get from src */
    STAGE,     /* get, sender: copy into our own slot, sync, write a ready ticket at dest */
    GET,       /* get, receiver: wait for src's ticket, MPI_Get into the receive buffer */
    GET_DONE,  /* get, receiver: flush (data is here), then count it in src's `done` */
    RELEASE,   /* get, sender: wait until dest's `done` covers the message, free the slot */
};

enum { PH_POST, PH_SEND, PH_WAIT, NPHASES };
#define MAXOPS 3

typedef struct recipe { enum op ops[NPHASES][MAXOPS]; } recipe;

/* [ordered][variant][side]; unordered protocols use side A's recipe on both sides.  Side B of
 * an ordered protocol receives before it sends.  Every blocking step waits only for something
 * the partner does in an earlier phase or, in the same phase, before its own blocking step. */
static const recipe recipes[2][4][2] = {
    [0] = {
        [0] = {{{{GRANT}, {PUT, PUT_DONE}, {ARRIVE}}}},
        [1] = {{{{GRANT}, {PUT}, {PUT_DONE, ARRIVE}}}},
        [2] = {{{{EXPECT}, {STAGE}, {GET, GET_DONE, RELEASE}}}},
        [3] = {{{{EXPECT}, {STAGE, GET}, {GET_DONE, RELEASE}}}},
    },
    [1] = {
        [0] = {{{{GRANT}, {PUT, PUT_DONE}, {ARRIVE}}}, {{{GRANT}, {ARRIVE, PUT, PUT_DONE}, {END}}}},
        [1] = {{{{GRANT}, {PUT}, {PUT_DONE, ARRIVE}}}, {{{GRANT}, {ARRIVE, PUT, PUT_DONE}, {END}}}},
        [2] = {{{{EXPECT}, {STAGE}, {GET, GET_DONE, RELEASE}}}, {{{EXPECT}, {GET, GET_DONE, STAGE}, {RELEASE}}}},
        [3] = {{{{EXPECT}, {STAGE, GET}, {GET_DONE, RELEASE}}}, {{{EXPECT}, {GET, GET_DONE, STAGE}, {RELEASE}}}},
    },
};

/* Every recipe spans several phases on side A, so each has an overlap form. */
static const pst_variant variants[] = {
    {"put", "put into the receiver's granted slot, flush, notify", true},
    {"put-nb", "put in send, flush and notify in wait (nonblocking put)", true},
    {"get", "sender stages and notifies, receiver gets in wait", true},
    {"get-nb", "receiver issues its get in send, completes it in wait (nonblocking get)", true},
};

typedef struct rma_state {
    MPI_Comm comm;            /* as given to set-up: transfers find their window by this handle */
    MPI_Win win;
    unsigned char *base;      /* our window memory */
    int rank, size;
    size_t depth;             /* ring entries per peer (transfers in flight the window holds) */
    size_t data_bytes;        /* size of the data area */
    size_t slot_bytes, nslots;
    MPI_Aint grant_at, ready_at, arrived_at, done_at, data_at;
    int *free_slots;          /* stack of free slot numbers */
    size_t nfree;
    uint64_t *put_posted, *put_sent, *get_posted, *get_sent; /* per peer: next message number */
    const char *model;
} rma_state;

enum { MAX_COMMS = 32 };
static rma_state *states[MAX_COMMS];

static void check(int rc, const char *what)
{
    if (rc != MPI_SUCCESS) pst_fatal(3, "transport rma: MPI call %s failed (error %d)", what, rc);
}

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

static rma_state **find_state(MPI_Comm comm)
{
    for (int i = 0; i < MAX_COMMS; i++)
        if (states[i] && states[i]->comm == comm) return &states[i];
    return NULL;
}

static rma_state *state_of(const pst_xfer *x)
{
    rma_state **s = find_state(x->comm);
    if (!s)
        pst_fatal(3, "transport rma: no window on this communicator; call pst_transport_setup(\"rma\", comm, "
                     "max_bytes, max_inflight) on every rank of it first");
    return *s;
}

static void free_window(rma_state *s)
{
    check(MPI_Win_unlock_all(s->win), "Win_unlock_all");
    check(MPI_Win_free(&s->win), "Win_free");
    free(s->free_slots);
    free(s->put_posted);
}

/* Window for `depth` transfers in flight of up to `slot` bytes; zeroed, epoch open. */
static void alloc_window(rma_state *s, size_t depth, size_t slot)
{
    size_t P = (size_t)s->size, word = sizeof(uint64_t);
    s->depth = depth;
    s->grant_at = 0;
    s->ready_at = (MPI_Aint)(P * depth * word);
    s->arrived_at = (MPI_Aint)(2 * P * depth * word);
    s->done_at = s->arrived_at + (MPI_Aint)(P * word);
    s->data_at = (MPI_Aint)round_up((size_t)s->done_at + P * word, 64);
    s->data_bytes = depth * slot;
    size_t total = (size_t)s->data_at + s->data_bytes;
    if (total > (size_t)PTRDIFF_MAX) pst_fatal(3, "transport rma: window of %zu bytes is too large", total);
    /* Each control word is accessed with one accumulate op and MPI_NO_OP only, and no
     * ordering between accumulates is relied on (flushes order what matters). */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    MPI_Info_set(info, "accumulate_ordering", "none");
    check(MPI_Win_allocate((MPI_Aint)total, 1, info, s->comm, &s->base, &s->win), "Win_allocate");
    MPI_Info_free(&info);
    int *model, flag = 0;
    check(MPI_Win_get_attr(s->win, MPI_WIN_MODEL, &model, &flag), "Win_get_attr(MPI_WIN_MODEL)");
    s->model = flag && *model == MPI_WIN_UNIFIED ? "unified" : "separate";
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, s->win), "Win_lock_all");
    memset(s->base, 0, (size_t)s->data_at);
    check(MPI_Win_sync(s->win), "Win_sync"); /* zeroes into the public copy ... */
    check(MPI_Barrier(s->comm), "Barrier");   /* ... before any peer writes a ticket */
    s->put_posted = calloc(4 * P, sizeof *s->put_posted);
    s->free_slots = malloc(depth * sizeof *s->free_slots);
    if (!s->put_posted || !s->free_slots) pst_fatal(3, "transport rma: out of memory");
    s->put_sent = s->put_posted + P;
    s->get_posted = s->put_sent + P;
    s->get_sent = s->get_posted + P;
}

static void rma_setup(MPI_Comm comm, size_t max_bytes, size_t max_inflight)
{
    /* Agree on the geometry, so every rank lays out (and keeps or replaces) the same window. */
    unsigned long long want[2] = {max_bytes, max_inflight}, agreed[2];
    check(MPI_Allreduce(want, agreed, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm), "Allreduce");
    size_t slot = round_up(agreed[0] ? (size_t)agreed[0] : 1, 64), n = agreed[1] ? (size_t)agreed[1] : 1;
    rma_state **sp = find_state(comm), *s;
    if (sp) {
        s = *sp;
        if (s->nfree != s->nslots) pst_fatal(3, "transport rma: set-up while %zu transfers are in flight", s->nslots - s->nfree);
        /* Keep the window when it can be re-cut into n slots of the new size. */
        if (s->depth < n || s->data_bytes / slot < n) free_window(s), alloc_window(s, n, slot);
    } else {
        for (int i = 0; !sp && i < MAX_COMMS; i++)
            if (!states[i]) sp = &states[i];
        if (!sp) pst_fatal(3, "transport rma: windows on more than %d communicators", MAX_COMMS);
        s = *sp = calloc(1, sizeof *s);
        s->comm = comm;
        MPI_Comm_rank(comm, &s->rank);
        MPI_Comm_size(comm, &s->size);
        alloc_window(s, n, slot);
    }
    s->slot_bytes = slot;
    s->nslots = s->data_bytes / slot < s->depth ? s->data_bytes / slot : s->depth;
    for (size_t i = 0; i < s->nslots; i++) s->free_slots[i] = (int)(s->nslots - 1 - i);
    s->nfree = s->nslots;
}

static void rma_release(MPI_Comm comm)
{
    rma_state **sp = find_state(comm);
    if (!sp) return;
    free_window(*sp);
    free(*sp);
    *sp = NULL;
}

static const char *rma_memory_model(MPI_Comm comm)
{
    rma_state **sp = find_state(comm);
    return sp ? (*sp)->model : NULL;
}

static void rma_reserve(const pst_xfer *x, size_t n)
{
    rma_state *s = state_of(x);
    if ((size_t)x->bytes > s->slot_bytes || n > s->nslots)
        pst_fatal(3, "transport rma: %zu transfers of %d bytes in flight do not fit the window set up for %zu of %zu bytes",
                  n, x->bytes, s->nslots, s->slot_bytes);
}

static int take_slot(rma_state *s, const pst_xfer *x)
{
    if ((size_t)x->bytes > s->slot_bytes)
        pst_fatal(3, "transport rma: a %d-byte message exceeds the %zu-byte slots set up", x->bytes, s->slot_bytes);
    if (s->nfree == 0) pst_fatal(3, "transport rma: more than the %zu transfers set up are in flight", s->nslots);
    return s->free_slots[--s->nfree];
}

static void give_slot(rma_state *s, int slot) { s->free_slots[s->nfree++] = slot; }

static uint64_t ticket(uint64_t k, int slot) { return (uint64_t)(uint32_t)(k + 1) << 32 | (uint32_t)slot; }
static MPI_Aint word_at(MPI_Aint region, size_t row, size_t col, size_t depth) { return region + (MPI_Aint)((row * depth + col) * sizeof(uint64_t)); }

static uint64_t load_own(rma_state *s, MPI_Aint disp)
{
    uint64_t v;
    check(MPI_Fetch_and_op(NULL, &v, MPI_UINT64_T, s->rank, disp, MPI_NO_OP, s->win), "Fetch_and_op(NO_OP)");
    check(MPI_Win_flush(s->rank, s->win), "Win_flush");
    return v;
}

/* Poll a word of our own window until it holds message k's ticket (ring) or a count above k;
 * every poll is an MPI call, so the library makes progress while we wait.  The MPI_Win_sync
 * afterwards orders our later loads of slot data after the observation. */
static uint64_t await(rma_state *s, MPI_Aint disp, uint64_t k, bool count)
{
    uint64_t v, want = count ? k + 1 : ticket(k, 0) >> 32;
    while ((v = load_own(s, disp), count ? v < want : v >> 32 != want)) {}
    check(MPI_Win_sync(s->win), "Win_sync");
    return v;
}

static void store_remote(rma_state *s, int target, MPI_Aint disp, uint64_t v, MPI_Op op)
{
    check(MPI_Accumulate(&v, 1, MPI_UINT64_T, target, disp, 1, MPI_UINT64_T, op, s->win), "Accumulate");
    check(MPI_Win_flush(target, s->win), "Win_flush");
}

static unsigned char *slot_mem(rma_state *s, int slot) { return s->base + s->data_at + (size_t)slot * s->slot_bytes; }
static MPI_Aint slot_disp(rma_state *s, int slot) { return s->data_at + (MPI_Aint)((size_t)slot * s->slot_bytes); }

static void run_phase(pst_xfer *x, int phase)
{
    int ordered = x->proto->ordered, side = ordered ? x->side : PST_SIDE_A;
    const enum op *ops = recipes[ordered][x->proto->variant][side].ops[phase];
    if (phase == PH_POST) x->state = state_of(x);
    rma_state *s = x->state;
    size_t me = (size_t)s->rank, D = s->depth, dest = (size_t)x->dest, src = (size_t)x->src;
    for (int i = 0; i < MAXOPS && ops[i] != END; i++) {
        switch (ops[i]) {
        case GRANT:
            x->seq_recv = s->put_posted[src]++;
            x->slot = take_slot(s, x);
            /* Our loads of the slot's previous message are done before anyone may put into it. */
            check(MPI_Win_sync(s->win), "Win_sync");
            store_remote(s, x->src, word_at(s->grant_at, me, x->seq_recv % D, D), ticket(x->seq_recv, x->slot), MPI_REPLACE);
            break;
        case PUT: {
            x->seq_send = s->put_sent[dest]++;
            int slot = (int)(uint32_t)await(s, word_at(s->grant_at, dest, x->seq_send % D, D), x->seq_send, false);
            check(MPI_Put(x->sendbuf, x->bytes, MPI_BYTE, x->dest, slot_disp(s, slot), x->bytes, MPI_BYTE, s->win), "Put");
            break;
        }
        case PUT_DONE:
            check(MPI_Win_flush(x->dest, s->win), "Win_flush");
            store_remote(s, x->dest, word_at(s->arrived_at, me, 0, 1), 1, MPI_SUM);
            break;
        case ARRIVE:
            await(s, word_at(s->arrived_at, src, 0, 1), x->seq_recv, true);
            memcpy(x->recvbuf, slot_mem(s, x->slot), (size_t)x->bytes);
            give_slot(s, x->slot);
            break;
        case EXPECT: x->seq_recv = s->get_posted[src]++; break;
        case STAGE:
            x->seq_send = s->get_sent[dest]++;
            x->slot = take_slot(s, x);
            memcpy(slot_mem(s, x->slot), x->sendbuf, (size_t)x->bytes);
            check(MPI_Win_sync(s->win), "Win_sync"); /* the copy is in the public window before the ticket */
            store_remote(s, x->dest, word_at(s->ready_at, me, x->seq_send % D, D), ticket(x->seq_send, x->slot), MPI_REPLACE);
            break;
        case GET: {
            int slot = (int)(uint32_t)await(s, word_at(s->ready_at, src, x->seq_recv % D, D), x->seq_recv, false);
            check(MPI_Get(x->recvbuf, x->bytes, MPI_BYTE, x->src, slot_disp(s, slot), x->bytes, MPI_BYTE, s->win), "Get");
            break;
        }
        case GET_DONE:
            check(MPI_Win_flush(x->src, s->win), "Win_flush");
            store_remote(s, x->src, word_at(s->done_at, me, 0, 1), 1, MPI_SUM);
            break;
        case RELEASE:
            await(s, word_at(s->done_at, dest, 0, 1), x->seq_send, true);
            give_slot(s, x->slot);
            break;
        case END: break;
        }
    }
}

static void rma_post(pst_xfer *x) { run_phase(x, PH_POST); }
static void rma_send(pst_xfer *x) { run_phase(x, PH_SEND); }
static void rma_wait(pst_xfer *x) { run_phase(x, PH_WAIT); }

const pst_transport pst_transport_rma = {
    .name = "rma",
    .variants = {variants, variants},
    .nvariants = {4, 4},
    .post = rma_post, .send = rma_send, .wait = rma_wait, .reserve = rma_reserve,
    .setup = rma_setup, .release = rma_release, .memory_model = rma_memory_model,
};
