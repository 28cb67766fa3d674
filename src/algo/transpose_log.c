/* logtrans (see transpose.h): a hypercube exchange in ceil(log2 P) SWAP stages, each
 * forwarding about half of the data, with excess ranks folded onto the cube. */
#include "algo/exchange.h"
#include "algo/partition.h"
#include "algo/transpose_impl.h"
#include "core/alloc.h"
#include "core/copy_charge.h"

#include <stdlib.h>
#include <string.h>

/* A byte copy; `user` reads the caller's send buffer, otherwise the current work buffer. */
typedef struct copy { size_t from, to, len; bool user; } copy;
typedef struct copylist { copy *v; int n, cap; } copylist;

/* One logtrans SWAP: pack the send stream, exchange, move the kept blocks (flip: into the
 * other work buffer, which then becomes current). */
typedef struct ltstage {
    int partner, side, tag; /* tag: 0 fold, 1 + s cube stage s, d + 1 unfold (equal at both ends) */
    size_t send_bytes, recv_bytes, recv_at;
    bool flip, unpack_here; /* unpack_here: deliver the final blocks while this stage is in flight */
    copylist pack, keep;
} ltstage;

typedef struct logplan {
    ltstage *stages;
    int nstages;
    bool unpack_after;
    copylist unpack; /* to = offset in the caller's receive buffer */
    char *work[2], *stream;
} logplan;

static void push(copylist *l, size_t from, size_t to, size_t len, bool user)
{
    if (len == 0) return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = pst_realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (copy){from, to, len, user};
}


/* Where block (i -> j) currently is. */
typedef struct loc { size_t off; bool user; } loc;

/* What the pieces of the plan share: every pair's byte count, where each block is held before
 * and after the stage being planned, and the largest buffers the stages need. */
typedef struct logbuild {
    const pst_trans *t;
    logplan *L;
    const int *C;       /* C[i*P+j]: bytes i -> j */
    int P, Q, d, node;  /* Q = 2^d ranks form the cube; rank x >= Q folds onto node x - Q */
    loc *at, *next;     /* [i*P+j]: where block i -> j is held before / after the stage */
    size_t work_max, stream_max;
} logbuild;

static size_t pair_bytes(const logbuild *b, int i, int j) { return (size_t)b->C[(size_t)i * (size_t)b->P + (size_t)j]; }
static int node_of(const logbuild *b, int x) { return x < b->Q ? x : x - b->Q; }
static loc *block(loc *where, const logbuild *b, int i, int j) { return &where[(size_t)i * (size_t)b->P + (size_t)j]; }

/* Held by node c before stage s: the origin's node agrees with c on bits >= s, the
 * destination's node on bits < s. */
static bool held(const logbuild *b, int c, int i, int j, int s)
{
    return ((node_of(b, i) ^ c) >> s) == 0 && ((node_of(b, j) ^ c) & ((1 << s) - 1)) == 0;
}

/* An excess rank: hand every block to the node, get the node's delivery back. */
static void plan_excess(logbuild *b)
{
    const pst_trans *t = b->t;
    logplan *L = b->L;
    int r = t->rank;
    ltstage *pre = &L->stages[L->nstages++];
    *pre = (ltstage){.partner = b->node, .side = PST_SIDE_B};
    for (int j = 0; j < b->P; j++) {
        push(&pre->pack, (size_t)t->sdispls[j], pre->send_bytes, pair_bytes(b, r, j), true);
        pre->send_bytes += pair_bytes(b, r, j);
    }
    ltstage *post = &L->stages[L->nstages++];
    *post = (ltstage){.partner = b->node, .side = PST_SIDE_B, .tag = b->d + 1};
    for (int i = 0; i < b->P; i++) {
        push(&L->unpack, post->recv_bytes, (size_t)t->rdispls[i], pair_bytes(b, i, r), false);
        post->recv_bytes += pair_bytes(b, i, r);
    }
    b->work_max = post->recv_bytes;
    b->stream_max = pre->send_bytes;
    L->unpack_after = true;
}

/* A node with an excess rank first receives that rank's blocks. */
static void plan_fold(logbuild *b, int excess)
{
    ltstage *pre = &b->L->stages[b->L->nstages++];
    *pre = (ltstage){.partner = excess, .side = PST_SIDE_A};
    for (int j = 0; j < b->P; j++) {
        *block(b->at, b, excess, j) = (loc){pre->recv_bytes, false};
        pre->recv_bytes += pair_bytes(b, excess, j);
    }
    b->work_max = pre->recv_bytes;
}

/* Cube stage s: send the held blocks whose destination's bit s differs from this node's, keep
 * the others, and receive the partner's blocks for this half. */
static void plan_cube_stage(logbuild *b, int s)
{
    int node = b->node, bit = 1 << s, partner = node ^ bit;
    ltstage *st = &b->L->stages[b->L->nstages++];
    *st = (ltstage){.partner = partner, .side = node < partner ? PST_SIDE_A : PST_SIDE_B, .tag = 1 + s, .flip = true};
    for (int j = 0; j < b->P; j++)
        for (int i = 0; i < b->P; i++) {
            if (!held(b, node, i, j, s)) continue;
            loc a = *block(b->at, b, i, j);
            size_t bytes = pair_bytes(b, i, j);
            if ((node_of(b, j) & bit) != (node & bit)) {
                push(&st->pack, a.off, st->send_bytes, bytes, a.user);
                st->send_bytes += bytes;
            } else {
                push(&st->keep, a.off, st->recv_at, bytes, a.user);
                *block(b->next, b, i, j) = (loc){st->recv_at, false};
                st->recv_at += bytes;
            }
        }
    for (int j = 0; j < b->P; j++)
        for (int i = 0; i < b->P; i++)
            if (held(b, partner, i, j, s) && (node_of(b, j) & bit) == (node & bit)) {
                *block(b->next, b, i, j) = (loc){st->recv_at + st->recv_bytes, false};
                st->recv_bytes += pair_bytes(b, i, j);
            }
    loc *tmp = b->at;
    b->at = b->next;
    b->next = tmp;
    if (st->recv_at + st->recv_bytes > b->work_max) b->work_max = st->recv_at + st->recv_bytes;
    if (st->send_bytes > b->stream_max) b->stream_max = st->send_bytes;
}

/* After the cube: deliver this rank's blocks, and send the excess rank its own (delivering
 * while that stage is in flight). */
static void plan_unfold(logbuild *b, int excess)
{
    const pst_trans *t = b->t;
    logplan *L = b->L;
    for (int i = 0; i < b->P; i++) {
        loc a = *block(b->at, b, i, t->rank);
        push(&L->unpack, a.off, (size_t)t->rdispls[i], pair_bytes(b, i, t->rank), a.user);
    }
    L->unpack_after = true;
    if (excess < 0) return;
    ltstage *post = &L->stages[L->nstages++];
    *post = (ltstage){.partner = excess, .side = PST_SIDE_A, .tag = b->d + 1, .unpack_here = true};
    for (int i = 0; i < b->P; i++) {
        loc a = *block(b->at, b, i, excess);
        push(&post->pack, a.off, post->send_bytes, pair_bytes(b, i, excess), a.user);
        post->send_bytes += pair_bytes(b, i, excess);
    }
    if (post->send_bytes > b->stream_max) b->stream_max = post->send_bytes;
    L->unpack_after = false;
}

static void plan_logtrans(pst_trans *t)
{
    logplan *L = pst_calloc(1, sizeof *L);
    t->state = L;
    int P = t->size, r = t->rank, d, Q = pst_pow2_floor(P, &d);
    int *C = pst_malloc((size_t)P * (size_t)P * sizeof *C);
    MPI_Allgather(t->sendcounts, P, MPI_INT, C, P, MPI_INT, t->comm);
    logbuild b = {.t = t,
                  .L = L,
                  .C = C,
                  .P = P,
                  .Q = Q,
                  .d = d,
                  .node = r < Q ? r : r - Q,
                  .at = pst_malloc((size_t)P * (size_t)P * sizeof *b.at),
                  .next = pst_malloc((size_t)P * (size_t)P * sizeof *b.next)};
    L->stages = pst_calloc((size_t)d + 2, sizeof *L->stages);
    if (r >= Q) {
        plan_excess(&b);
    } else {
        int excess = b.node + Q < P ? b.node + Q : -1;
        for (int j = 0; j < P; j++) *block(b.at, &b, r, j) = (loc){(size_t)t->sdispls[j], true};
        if (excess >= 0) plan_fold(&b, excess);
        for (int s = 0; s < d; s++) plan_cube_stage(&b, s);
        plan_unfold(&b, excess);
    }
    for (int k = 0; k < 2; k++) L->work[k] = pst_malloc(b.work_max ? b.work_max : 1);
    L->stream = pst_malloc(b.stream_max ? b.stream_max : 1);
    pst_exchange_reserve_run(t->p, t->comm, b.stream_max, (size_t)L->nstages);
    free(C);
    free(b.at);
    free(b.next);
}

typedef struct lt_run {
    const pst_trans *t;
    logplan *L;
    const ltstage *st;
    const char *user;  /* caller's send buffer */
    char *cur, *next, *recvbuf;
} lt_run;

static const char *source(const lt_run *run, const copy *c) { return (c->user ? run->user : run->cur) + c->from; }

static void lt_fill(void *arg, size_t off, size_t bytes)
{
    lt_run *run = arg;
    const copylist *l = &run->st->pack;
    for (int k = 0; k < l->n; k++) { /* pack entries are contiguous in stream order */
        const copy *c = &l->v[k];
        size_t lo = c->to > off ? c->to : off, hi = c->to + c->len < off + bytes ? c->to + c->len : off + bytes;
        if (lo >= hi) continue;
        memcpy(run->L->stream + lo, source(run, c) + (lo - c->to), hi - lo);
        pst_copy_charge(hi - lo);
    }
}

static void run_copies(const lt_run *run, const copylist *l, char *dest)
{
    for (int k = 0; k < l->n; k++) {
        memcpy(dest + l->v[k].to, source(run, &l->v[k]), l->v[k].len);
        pst_copy_charge(l->v[k].len);
    }
}

static void lt_middle(void *arg)
{
    lt_run *run = arg;
    run_copies(run, &run->st->keep, run->next);
    if (run->st->unpack_here) run_copies(run, &run->L->unpack, run->recvbuf);
}

static void run_logtrans(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    logplan *L = t->state;
    for (int q = 0; q < t->size; q++) pst_trans_pack_peer(t, h, q);
    int ci = 0;
    lt_run run = {.t = t, .L = L, .user = sendbuf, .recvbuf = recvbuf};
    pst_exchange_ops ops = {.fill = lt_fill, .middle = lt_middle, .arg = &run};
    for (int k = 0; k < L->nstages; k++) {
        const ltstage *st = &L->stages[k];
        run.st = st;
        run.cur = L->work[ci];
        run.next = L->work[1 - ci];
        char *target = (st->flip ? run.next : run.cur) + st->recv_at;
        size_t big = st->send_bytes > st->recv_bytes ? st->send_bytes : st->recv_bytes;
        pst_exchange(t->xfers, t->p, t->overlapped, t->comm, st->partner, st->partner, st->side, L->stream,
                     st->send_bytes, target, st->recv_bytes, PST_MAX_CHUNKS * st->tag,
                     pst_exchange_chunks(t->overlapped, big), &ops);
        if (st->flip) ci = 1 - ci;
    }
    run.cur = L->work[ci];
    if (L->unpack_after) run_copies(&run, &L->unpack, recvbuf);
    for (int q = 0; q < t->size; q++) pst_trans_unpack_peer(t, h, q);
}

static void free_logplan(void *state)
{
    logplan *L = state;
    for (int k = 0; k < L->nstages; k++) {
        free(L->stages[k].pack.v);
        free(L->stages[k].keep.v);
    }
    free(L->stages);
    free(L->unpack.v);
    free(L->work[0]);
    free(L->work[1]);
    free(L->stream);
    free(L);
}

const pst_trans_ops pst_logtrans_ops = {plan_logtrans, run_logtrans, free_logplan};
