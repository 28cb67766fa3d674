/* SHMEM-style message passing on one-sided put/get, shared by the "rma" (MPI-3 RMA) and
 * "shmem" (OpenSHMEM) transports.  Worley (1998, 1999) built PSTSWM's message layer from SHMEM
 * put/get the same way: data moves one-sidedly into a slot of a symmetric buffer and a flag
 * tells the other side.
 *
 * Every rank of a communicator exposes one symmetric area (set up outside timing, collectively
 * over all processes: see onesided.h) laid out as
 *   grant[P][D]  tickets written by receivers: "put your message k to me into slot s"
 *   ready[P][D]  tickets written by senders:   "get my message k from my slot s"
 *   arrived[P]   count of messages a sender has put here (the data is complete before the count moves)
 *   done[P]      count of messages a receiver has got from here (the slot is free again)
 *   data[D]      slots of slot_bytes each (the largest message set up for, 64-byte aligned)
 * D = max transfers in flight per rank.  A ticket is (k+1) << 24 | slot, so ring entries and
 * counters only grow and "wait until the word >= x" recognises message k's entry.
 *
 * put: the receiver takes a free slot and grants it in post (the one-sided receive-ready
 *      handshake), the sender waits for the grant, puts into the slot, completes the put
 *      remotely and adds 1 to `arrived`; the receiver waits for the count, copies the slot
 *      out and frees it.  A sender never overwrites an unconsumed slot: it only puts into
 *      slots granted for its own message k.
 * get: the sender copies into its own slot, publishes it and writes a ready ticket; the
 *      receiver waits for it, gets straight into its buffer, completes the get and adds 1 to
 *      `done`; the sender frees the slot when the count covers the message.
 * Rings are deep enough by construction: at most D transfers are in flight per rank, so entry
 * k mod D was consumed (its message completed) before message k's ticket is written.
 *
 * Slots are sized from the largest message of the set-up (no chunking): one copy per message
 * (out of the slot for put, into it for get) and the area is max_inflight x max_bytes.
 * Transfers between a pair complete in posting order (each pair has its own put and get
 * streams, numbered at post by the receiver and at send by the sender); tags are not used. */
#include "comm/onesided.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum op {
    END = 0,
    GRANT,     /* put, receiver: take a slot, grant it to src as our next message from it */
    PUT,       /* put, sender: wait for dest's grant, put into the granted slot */
    PUT_DONE,  /* put, sender: complete the put at dest, then count it in dest's `arrived` */
    ARRIVE,    /* put, receiver: wait until `arrived` covers the message, copy it out, free the slot */
    EXPECT,    /* get, receiver: number the message we will get from src */
    STAGE,     /* get, sender: copy into our own slot, publish it, write a ready ticket at dest */
    GET,       /* get, receiver: wait for src's ticket, get into the receive buffer */
    GET_DONE,  /* get, receiver: complete the get (data is here), then count it in src's `done` */
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

/* Side B's send phase waits for side A's notice (ARRIVE for A's PUT_DONE, GET for A's STAGE).
 * When A gives it only in its wait phase (put-nb: PUT_DONE), B's send must not run ahead of
 * B's own waits in a batch (pst_xfer_send_early), or ranks can wait on each other in a cycle. */
bool pst_os_send_early(const pst_xfer *x)
{
    if (!x->proto->ordered || x->side == PST_SIDE_A) return true;
    const enum op *a_wait = recipes[1][x->proto->variant][PST_SIDE_A].ops[PH_WAIT];
    for (int i = 0; i < MAXOPS && a_wait[i] != END; i++)
        if (a_wait[i] == PUT_DONE || a_wait[i] == STAGE) return false;
    return true;
}

/* Every recipe spans several phases on side A, so each has an overlap form. */
const pst_variant pst_os_variants[PST_OS_NVARIANTS] = {
    {"put", "put into the receiver's granted slot, complete, notify", true, false, PST_FEAT_NONE},
    {"put-nb", "put in send, complete and notify in wait (nonblocking put)", true, false, PST_FEAT_NONE},
    {"get", "sender stages and notifies, receiver gets in wait", true, false, PST_FEAT_NONE},
    {"get-nb", "receiver issues its get in send, completes it in wait (nonblocking get)", true, false, PST_FEAT_NONE},
};

enum { MAX_STATES = 32 };
static pst_os_state *states[MAX_STATES];
static const uint64_t slot_bits = 24;

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

static pst_os_state **find_state(const pst_os_backend *b, MPI_Comm comm)
{
    for (int i = 0; i < MAX_STATES; i++)
        if (states[i] && states[i]->backend == b && states[i]->comm == comm) return &states[i];
    return NULL;
}

static pst_os_state *state_of(const pst_os_backend *b, const pst_xfer *x)
{
    pst_os_state **s = find_state(b, x->comm);
    if (!s)
        pst_fatal(PST_EXIT_FAILED,
                  "transport %s: not set up on this communicator; call pst_transport_setup(\"%s\", comm, "
                  "max_bytes, max_inflight) on every rank of it first",
                  b->name, b->name);
    return *s;
}

static void free_area(pst_os_state *s)
{
    s->backend->release(s);
    free(s->free_slots);
    free(s->put_posted);
}

/* Area for `depth` transfers in flight of up to `slot` bytes. */
static void alloc_area(pst_os_state *s, size_t depth, size_t slot)
{
    size_t P = (size_t)s->size, word = sizeof(uint64_t);
    if (depth >= (size_t)1 << slot_bits)
        pst_fatal(PST_EXIT_FAILED, "transport %s: %zu transfers in flight is too many", s->backend->name, depth);
    s->depth = depth;
    s->grant_at = 0;
    s->ready_at = P * depth * word;
    s->arrived_at = 2 * P * depth * word;
    s->done_at = s->arrived_at + P * word;
    s->data_at = round_up(s->done_at + P * word, 64);
    s->data_bytes = depth * slot;
    /* Equal on every process, also where communicators of different sizes are set up at once. */
    unsigned long long bytes = s->data_at + s->data_bytes, most;
    MPI_Allreduce(&bytes, &most, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    s->base = s->backend->alloc(s, (size_t)most);
    s->put_posted = pst_calloc(4 * P, sizeof *s->put_posted);
    s->free_slots = pst_malloc(depth * sizeof *s->free_slots);
    s->put_sent = s->put_posted + P;
    s->get_posted = s->put_sent + P;
    s->get_sent = s->get_posted + P;
}

void pst_os_setup(const pst_os_backend *b, MPI_Comm comm, size_t max_bytes, size_t max_inflight, bool grow)
{
    pst_os_state **sp = find_state(b, comm), *s;
    /* Agree on the geometry, so every rank lays out (and keeps or replaces) the same area. */
    unsigned long long want[2] = {max_bytes, max_inflight}, agreed[2];
    if (grow && sp) {
        if ((*sp)->slot_bytes > want[0]) want[0] = (*sp)->slot_bytes;
        if ((*sp)->nslots > want[1]) want[1] = (*sp)->nslots;
    }
    MPI_Allreduce(want, agreed, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    size_t slot = round_up(agreed[0] ? (size_t)agreed[0] : 1, 64), n = agreed[1] ? (size_t)agreed[1] : 1;
    if (sp) {
        s = *sp;
        if (s->nfree != s->nslots)
            pst_fatal(PST_EXIT_FAILED, "transport %s: set-up while %zu transfers are in flight", b->name,
                      s->nslots - s->nfree);
        /* Keep the area when it can be re-cut into n slots of the new size. */
        if (s->depth < n || s->data_bytes / slot < n) free_area(s), alloc_area(s, n, slot);
    } else {
        for (int i = 0; !sp && i < MAX_STATES; i++)
            if (!states[i]) sp = &states[i];
        if (!sp) pst_fatal(PST_EXIT_FAILED, "transport %s: set up on more than %d communicators", b->name, MAX_STATES);
        s = *sp = pst_calloc(1, sizeof *s);
        *s = (pst_os_state){.backend = b, .comm = comm};
        MPI_Comm_rank(comm, &s->rank);
        MPI_Comm_size(comm, &s->size);
        s->world = pst_malloc((size_t)s->size * sizeof *s->world);
        int *ranks = pst_malloc((size_t)s->size * sizeof *ranks);
        for (int r = 0; r < s->size; r++) ranks[r] = r;
        MPI_Group group, world_group;
        MPI_Comm_group(comm, &group);
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        MPI_Group_translate_ranks(group, s->size, ranks, world_group, s->world);
        MPI_Group_free(&group);
        MPI_Group_free(&world_group);
        free(ranks);
        alloc_area(s, n, slot);
    }
    s->slot_bytes = slot;
    s->nslots = s->data_bytes / slot < s->depth ? s->data_bytes / slot : s->depth;
    for (size_t i = 0; i < s->nslots; i++) s->free_slots[i] = (int)(s->nslots - 1 - i);
    s->nfree = s->nslots;
}

void pst_os_release(const pst_os_backend *b, MPI_Comm comm)
{
    pst_os_state **sp = find_state(b, comm);
    if (!sp) return;
    free_area(*sp);
    free((*sp)->world);
    free(*sp);
    *sp = NULL;
}

const char *pst_os_memory_model(const pst_os_backend *b, MPI_Comm comm)
{
    pst_os_state **sp = find_state(b, comm);
    return sp && b->model ? b->model(*sp) : NULL;
}

static int take_slot(pst_os_state *s, const pst_xfer *x)
{
    if ((size_t)x->bytes > s->slot_bytes)
        pst_fatal(PST_EXIT_FAILED, "transport %s: a %d-byte message exceeds the %zu-byte slots set up",
                  s->backend->name, x->bytes, s->slot_bytes);
    if (s->nfree == 0)
        pst_fatal(PST_EXIT_FAILED, "transport %s: more than the %zu transfers set up are in flight", s->backend->name,
                  s->nslots);
    return s->free_slots[--s->nfree];
}

static void give_slot(pst_os_state *s, int slot) { s->free_slots[s->nfree++] = slot; }

static uint64_t ticket(uint64_t k, int slot) { return (k + 1) << slot_bits | (uint64_t)slot; }
static int ticket_slot(uint64_t t) { return (int)(t & (((uint64_t)1 << slot_bits) - 1)); }
static size_t word_at(size_t region, size_t row, size_t col, size_t depth)
{
    return region + (row * depth + col) * sizeof(uint64_t);
}
static size_t slot_at(const pst_os_state *s, int slot) { return s->data_at + (size_t)slot * s->slot_bytes; }

void pst_os_phase(const pst_os_backend *b, pst_xfer *x, int phase)
{
    int ordered = x->proto->ordered, side = ordered ? x->side : PST_SIDE_A;
    const enum op *ops = recipes[ordered][x->proto->variant][side].ops[phase];
    if (phase == PH_POST) x->state = state_of(b, x);
    pst_os_state *s = x->state;
    size_t me = (size_t)s->rank, D = s->depth, dest = (size_t)x->dest, src = (size_t)x->src;
    int to = s->world[x->dest], from = s->world[x->src]; /* the backends' ranks */
    for (int i = 0; i < MAXOPS && ops[i] != END; i++) {
        switch (ops[i]) {
        case GRANT:
            x->seq_recv = s->put_posted[src]++;
            x->slot = take_slot(s, x);
            b->fence(s); /* our loads of the slot's last message precede the grant */
            b->store(s, from, word_at(s->grant_at, me, x->seq_recv % D, D), ticket(x->seq_recv, x->slot));
            break;
        case PUT: {
            x->seq_send = s->put_sent[dest]++;
            uint64_t t = b->await(s, word_at(s->grant_at, dest, x->seq_send % D, D), ticket(x->seq_send, 0));
            b->put(s, x->sendbuf, (size_t)x->bytes, to, slot_at(s, ticket_slot(t)));
            break;
        }
        case PUT_DONE:
            b->complete(s, to);
            b->add(s, to, word_at(s->arrived_at, me, 0, 1));
            break;
        case ARRIVE:
            b->await(s, word_at(s->arrived_at, src, 0, 1), x->seq_recv + 1);
            memcpy(x->recvbuf, s->base + slot_at(s, x->slot), (size_t)x->recv_bytes);
            give_slot(s, x->slot);
            break;
        case EXPECT: x->seq_recv = s->get_posted[src]++; break;
        case STAGE:
            x->seq_send = s->get_sent[dest]++;
            x->slot = take_slot(s, x);
            memcpy(s->base + slot_at(s, x->slot), x->sendbuf, (size_t)x->bytes);
            b->fence(s); /* the copy is visible to gets before the ticket */
            b->store(s, to, word_at(s->ready_at, me, x->seq_send % D, D), ticket(x->seq_send, x->slot));
            break;
        case GET: {
            uint64_t t = b->await(s, word_at(s->ready_at, src, x->seq_recv % D, D), ticket(x->seq_recv, 0));
            b->get(s, x->recvbuf, (size_t)x->recv_bytes, from, slot_at(s, ticket_slot(t)));
            break;
        }
        case GET_DONE:
            b->complete(s, from);
            b->add(s, from, word_at(s->done_at, me, 0, 1));
            break;
        case RELEASE:
            b->await(s, word_at(s->done_at, dest, 0, 1), x->seq_send + 1);
            give_slot(s, x->slot);
            break;
        case END: break;
        }
    }
}
