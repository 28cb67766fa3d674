/* logtrans (see transpose.h): a hypercube exchange in ceil(log2 P) SWAP stages, each
 * forwarding about half of the data, with excess ranks folded onto the cube. */
#include "algo/exchange.h"
#include "algo/partition.h"
#include "algo/transpose_impl.h"
#include "core/alloc.h"

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

static void plan_logtrans(pst_trans *t)
{
    logplan *L = pst_calloc(1, sizeof *L);
    t->state = L;
    int P = t->size, r = t->rank, d, Q = pst_pow2_floor(P, &d);
    int *C = pst_malloc((size_t)P * (size_t)P * sizeof *C); /* C[i*P+j]: bytes i -> j */
    MPI_Allgather(t->sendcounts, P, MPI_INT, C, P, MPI_INT, t->comm);
#define BYTES(i, j) ((size_t)C[(size_t)(i) * (size_t)P + (size_t)(j)])
    loc *at = pst_malloc((size_t)P * (size_t)P * sizeof *at), *next = pst_malloc((size_t)P * (size_t)P * sizeof *next);
    L->stages = pst_calloc((size_t)d + 2, sizeof *L->stages);
    L->nstages = 0;
    size_t work_max = 0, stream_max = 0;
    int node = r < Q ? r : r - Q, excess = node + Q < P ? node + Q : -1;
#define NODE(x) ((x) < Q ? (x) : (x) - Q)

    if (r >= Q) {
        /* An excess rank: hand every block to the node, get the node's delivery back. */
        ltstage *pre = &L->stages[L->nstages++];
        *pre = (ltstage){.partner = node, .side = PST_SIDE_B};
        for (int j = 0; j < P; j++) {
            push(&pre->pack, (size_t)t->sdispls[j], pre->send_bytes, BYTES(r, j), true);
            pre->send_bytes += BYTES(r, j);
        }
        ltstage *post = &L->stages[L->nstages++];
        *post = (ltstage){.partner = node, .side = PST_SIDE_B, .tag = d + 1};
        for (int i = 0; i < P; i++) {
            push(&L->unpack, post->recv_bytes, (size_t)t->rdispls[i], BYTES(i, r), false);
            post->recv_bytes += BYTES(i, r);
        }
        work_max = post->recv_bytes;
        stream_max = pre->send_bytes;
        L->unpack_after = true;
    } else {
        for (int j = 0; j < P; j++) at[(size_t)r * P + j] = (loc){(size_t)t->sdispls[j], true};
        if (excess >= 0) {
            ltstage *pre = &L->stages[L->nstages++];
            *pre = (ltstage){.partner = excess, .side = PST_SIDE_A};
            for (int j = 0; j < P; j++) {
                at[(size_t)excess * P + j] = (loc){pre->recv_bytes, false};
                pre->recv_bytes += BYTES(excess, j);
            }
            work_max = pre->recv_bytes;
        }
        for (int s = 0; s < d; s++) {
            int bit = 1 << s, partner = node ^ bit;
            ltstage *st = &L->stages[L->nstages++];
            *st = (ltstage){.partner = partner, .side = node < partner ? PST_SIDE_A : PST_SIDE_B, .tag = 1 + s, .flip = true};
            /* Held by node c before stage s: origin's node agrees with c on bits >= s, the
             * destination's node on bits < s.  Sent: destination's bit s differs from c's. */
#define HELD(c, i, j) ((((NODE(i) ^ (c)) >> s) == 0) && (((NODE(j) ^ (c)) & (bit - 1)) == 0))
            for (int j = 0; j < P; j++)
                for (int i = 0; i < P; i++) {
                    if (!HELD(node, i, j)) continue;
                    loc a = at[(size_t)i * P + j];
                    if ((NODE(j) & bit) != (node & bit)) {
                        push(&st->pack, a.off, st->send_bytes, BYTES(i, j), a.user);
                        st->send_bytes += BYTES(i, j);
                    } else {
                        push(&st->keep, a.off, st->recv_at, BYTES(i, j), a.user);
                        next[(size_t)i * P + j] = (loc){st->recv_at, false};
                        st->recv_at += BYTES(i, j);
                    }
                }
            for (int j = 0; j < P; j++)
                for (int i = 0; i < P; i++)
                    if (HELD(partner, i, j) && (NODE(j) & bit) == (node & bit)) {
                        next[(size_t)i * P + j] = (loc){st->recv_at + st->recv_bytes, false};
                        st->recv_bytes += BYTES(i, j);
                    }
#undef HELD
            loc *tmp = at; at = next; next = tmp;
            if (st->recv_at + st->recv_bytes > work_max) work_max = st->recv_at + st->recv_bytes;
            if (st->send_bytes > stream_max) stream_max = st->send_bytes;
        }
        for (int i = 0; i < P; i++) {
            loc a = at[(size_t)i * P + r];
            push(&L->unpack, a.off, (size_t)t->rdispls[i], BYTES(i, r), a.user);
        }
        L->unpack_after = true;
        if (excess >= 0) {
            ltstage *post = &L->stages[L->nstages++];
            *post = (ltstage){.partner = excess, .side = PST_SIDE_A, .tag = d + 1, .unpack_here = true};
            for (int i = 0; i < P; i++) {
                loc a = at[(size_t)i * P + excess];
                push(&post->pack, a.off, post->send_bytes, BYTES(i, excess), a.user);
                post->send_bytes += BYTES(i, excess);
            }
            if (post->send_bytes > stream_max) stream_max = post->send_bytes;
            L->unpack_after = false;
        }
    }
#undef NODE
#undef BYTES
    for (int k = 0; k < 2; k++) L->work[k] = pst_malloc(work_max ? work_max : 1);
    L->stream = pst_malloc(stream_max ? stream_max : 1);
    pst_exchange_reserve_run(t->p, t->comm, stream_max, (size_t)L->nstages);
    free(C);
    free(at);
    free(next);
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
        if (lo < hi) memcpy(run->L->stream + lo, source(run, c) + (lo - c->to), hi - lo);
    }
}

static void run_copies(const lt_run *run, const copylist *l, char *dest)
{
    for (int k = 0; k < l->n; k++) memcpy(dest + l->v[k].to, source(run, &l->v[k]), l->v[k].len);
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
    for (int q = 0; q < t->size; q++) pst_trans_pack_peer(h, q);
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
        pst_exchange(t->xfers, t->p, t->overlapped, t->comm, st->partner, st->partner, st->side, L->stream, st->send_bytes,
                     target, st->recv_bytes, PST_MAX_CHUNKS * st->tag, pst_exchange_chunks(t->overlapped, big), &ops);
        if (st->flip) ci = 1 - ci;
    }
    run.cur = L->work[ci];
    if (L->unpack_after) run_copies(&run, &L->unpack, recvbuf);
    for (int q = 0; q < t->size; q++) pst_trans_unpack_peer(h, q);
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
