/* srtrans, swtrans, logtrans and coll (see transpose.h). */
#include "algo/transpose.h"

#include "algo/exchange.h"
#include "algo/partition.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const alg_names[PST_TRANS_NALGS] = {"srtrans", "swtrans", "logtrans", "coll"};

const char *pst_trans_alg_name(pst_trans_alg alg) { return alg_names[alg]; }

/* One partner step of srtrans / swtrans. */
typedef struct step { int dest, src, side, tag; } step; /* tag: the round, equal at both ends */

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

struct pst_trans {
    pst_trans_alg alg;
    const pst_protocol *p;
    bool overlap_flag, overlapped;
    MPI_Comm comm;
    int rank, size;
    int *sendcounts, *sdispls, *recvcounts, *rdispls;
    /* srtrans, swtrans */
    step *steps;
    int nsteps;
    pst_xfer *x;
    /* logtrans */
    ltstage *stages;
    int nstages;
    bool unpack_after;
    copylist unpack; /* to = offset in the caller's receive buffer */
    char *work[2], *stream;
};

static void push(copylist *l, size_t from, size_t to, size_t len, bool user)
{
    if (len == 0) return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = pst_realloc(l->v, (size_t)l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (copy){from, to, len, user};
}

/* ---- srtrans / swtrans schedules ---- */

static int swtrans_partner(int r, int P, int k, int *nsteps)
{
    if (pst_is_pow2(P)) { *nsteps = P - 1; return r ^ (k + 1); }
    if (P % 2) { *nsteps = P; return ((k - r) % P + P) % P; } /* self once: the idle round */
    int n = P - 1;                                            /* rank P-1 is the circle's hub */
    *nsteps = n;
    if (r == n) return (int)((long long)k * (n + 1) / 2 % n);
    int q = ((k - r) % n + n) % n;
    return q == r ? n : q;
}

static void plan_steps(pst_trans *t)
{
    int P = t->size, r = t->rank, n;
    t->steps = pst_malloc((size_t)P * sizeof *t->steps);
    t->nsteps = 0;
    if (t->alg == PST_SRTRANS) {
        for (int k = 1; k < P; k++)
            t->steps[t->nsteps++] = (step){(r + k) % P, (r - k + P) % P, pst_shift_side(r, P, k), k};
    } else {
        swtrans_partner(r, P, 0, &n);
        for (int k = 0; k < n; k++) {
            int q = swtrans_partner(r, P, k, &n);
            if (q != r) t->steps[t->nsteps++] = (step){q, q, r < q ? PST_SIDE_A : PST_SIDE_B, k};
        }
    }
    t->x = pst_malloc((size_t)(t->nsteps ? t->nsteps : 1) * sizeof *t->x);
    int maxsend = 0;
    for (int q = 0; q < P; q++) maxsend = t->sendcounts[q] > maxsend ? t->sendcounts[q] : maxsend;
    pst_exchange_reserve(t->p, t->comm, (size_t)maxsend, (size_t)t->nsteps);
}

static void pack_peer(const pst_trans_hooks *h, int q) { if (h && h->pack) h->pack(h->arg, q); }
static void unpack_peer(const pst_trans_hooks *h, int q) { if (h && h->unpack) h->unpack(h->arg, q); }

static void run_self(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    int r = t->rank;
    pack_peer(h, r);
    memcpy(recvbuf + t->rdispls[r], sendbuf + t->sdispls[r], (size_t)t->sendcounts[r]);
    unpack_peer(h, r);
}

static void run_steps(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    for (int k = 0; k < t->nsteps; k++) {
        const step *s = &t->steps[k];
        pst_xfer_init_v(&t->x[k], t->p, t->comm, s->dest, s->src, s->side, sendbuf + t->sdispls[s->dest],
                        (size_t)t->sendcounts[s->dest], recvbuf + t->rdispls[s->src], (size_t)t->recvcounts[s->src], s->tag);
    }
    if (!t->overlapped) {
        run_self(t, sendbuf, recvbuf, h);
        for (int k = 0; k < t->nsteps; k++) {
            pack_peer(h, t->steps[k].dest);
            pst_xfer_run(&t->x[k], 1);
            unpack_peer(h, t->steps[k].src);
        }
        return;
    }
    /* The batch order of pst_xfer_run, with packing just before each send. */
    for (int k = 0; k < t->nsteps; k++) pst_xfer_post(&t->x[k]);
    for (int k = 0; k < t->nsteps; k++)
        if (pst_xfer_send_early(&t->x[k])) {
            pack_peer(h, t->steps[k].dest);
            pst_xfer_send(&t->x[k]);
        }
    run_self(t, sendbuf, recvbuf, h);
    for (int k = 0; k < t->nsteps; k++) {
        if (!pst_xfer_send_early(&t->x[k])) {
            pack_peer(h, t->steps[k].dest);
            pst_xfer_send(&t->x[k]);
        }
        pst_xfer_wait(&t->x[k]);
        unpack_peer(h, t->steps[k].src);
    }
}

/* ---- logtrans ---- */

/* Where block (i -> j) currently is. */
typedef struct loc { size_t off; bool user; } loc;

static void plan_logtrans(pst_trans *t)
{
    int P = t->size, r = t->rank, d, Q = pst_pow2_floor(P, &d);
    int *C = pst_malloc((size_t)P * (size_t)P * sizeof *C); /* C[i*P+j]: bytes i -> j */
    MPI_Allgather(t->sendcounts, P, MPI_INT, C, P, MPI_INT, t->comm);
#define BYTES(i, j) ((size_t)C[(size_t)(i) * (size_t)P + (size_t)(j)])
    loc *at = pst_malloc((size_t)P * (size_t)P * sizeof *at), *next = pst_malloc((size_t)P * (size_t)P * sizeof *next);
    t->stages = pst_calloc((size_t)d + 2, sizeof *t->stages);
    t->nstages = 0;
    size_t work_max = 0, stream_max = 0;
    int node = r < Q ? r : r - Q, excess = node + Q < P ? node + Q : -1;
#define NODE(x) ((x) < Q ? (x) : (x) - Q)

    if (r >= Q) {
        /* An excess rank: hand every block to the node, get the node's delivery back. */
        ltstage *pre = &t->stages[t->nstages++];
        *pre = (ltstage){.partner = node, .side = PST_SIDE_B};
        for (int j = 0; j < P; j++) {
            push(&pre->pack, (size_t)t->sdispls[j], pre->send_bytes, BYTES(r, j), true);
            pre->send_bytes += BYTES(r, j);
        }
        ltstage *post = &t->stages[t->nstages++];
        *post = (ltstage){.partner = node, .side = PST_SIDE_B, .tag = d + 1};
        for (int i = 0; i < P; i++) {
            push(&t->unpack, post->recv_bytes, (size_t)t->rdispls[i], BYTES(i, r), false);
            post->recv_bytes += BYTES(i, r);
        }
        work_max = post->recv_bytes;
        stream_max = pre->send_bytes;
        t->unpack_after = true;
    } else {
        for (int j = 0; j < P; j++) at[(size_t)r * P + j] = (loc){(size_t)t->sdispls[j], true};
        if (excess >= 0) {
            ltstage *pre = &t->stages[t->nstages++];
            *pre = (ltstage){.partner = excess, .side = PST_SIDE_A};
            for (int j = 0; j < P; j++) {
                at[(size_t)excess * P + j] = (loc){pre->recv_bytes, false};
                pre->recv_bytes += BYTES(excess, j);
            }
            work_max = pre->recv_bytes;
        }
        for (int s = 0; s < d; s++) {
            int bit = 1 << s, partner = node ^ bit;
            ltstage *st = &t->stages[t->nstages++];
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
            push(&t->unpack, a.off, (size_t)t->rdispls[i], BYTES(i, r), a.user);
        }
        t->unpack_after = true;
        if (excess >= 0) {
            ltstage *post = &t->stages[t->nstages++];
            *post = (ltstage){.partner = excess, .side = PST_SIDE_A, .tag = d + 1, .unpack_here = true};
            for (int i = 0; i < P; i++) {
                loc a = at[(size_t)i * P + excess];
                push(&post->pack, a.off, post->send_bytes, BYTES(i, excess), a.user);
                post->send_bytes += BYTES(i, excess);
            }
            if (post->send_bytes > stream_max) stream_max = post->send_bytes;
            t->unpack_after = false;
        }
    }
#undef NODE
#undef BYTES
    for (int k = 0; k < 2; k++) t->work[k] = pst_malloc(work_max ? work_max : 1);
    t->stream = pst_malloc(stream_max ? stream_max : 1);
    pst_exchange_reserve_run(t->p, t->comm, stream_max, (size_t)t->nstages);
    free(C);
    free(at);
    free(next);
}

typedef struct lt_run {
    pst_trans *t;
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
        if (lo < hi) memcpy(run->t->stream + lo, source(run, c) + (lo - c->to), hi - lo);
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
    if (run->st->unpack_here) run_copies(run, &run->t->unpack, run->recvbuf);
}

static void run_logtrans(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    for (int q = 0; q < t->size; q++) pack_peer(h, q);
    int ci = 0;
    lt_run run = {.t = t, .user = sendbuf, .recvbuf = recvbuf};
    pst_exchange_ops ops = {.fill = lt_fill, .middle = lt_middle, .arg = &run};
    for (int k = 0; k < t->nstages; k++) {
        const ltstage *st = &t->stages[k];
        run.st = st;
        run.cur = t->work[ci];
        run.next = t->work[1 - ci];
        char *target = (st->flip ? run.next : run.cur) + st->recv_at;
        size_t big = st->send_bytes > st->recv_bytes ? st->send_bytes : st->recv_bytes;
        pst_exchange(t->p, t->overlapped, t->comm, st->partner, st->partner, st->side, t->stream, st->send_bytes,
                     target, st->recv_bytes, PST_MAX_CHUNKS * st->tag, pst_exchange_chunks(t->overlapped, big), &ops);
        if (st->flip) ci = 1 - ci;
    }
    run.cur = t->work[ci];
    if (t->unpack_after) run_copies(&run, &t->unpack, recvbuf);
    for (int q = 0; q < t->size; q++) unpack_peer(h, q);
}

/* ---- plan ---- */

static int *copy_ints(const int *v, int n)
{
    int *c = pst_malloc((size_t)n * sizeof *c);
    memcpy(c, v, (size_t)n * sizeof *c);
    return c;
}

static void check_counts(const pst_trans *t)
{
    int P = t->size, bad = 0;
    int *expect = pst_malloc((size_t)P * sizeof *expect);
    MPI_Alltoall(t->sendcounts, 1, MPI_INT, expect, 1, MPI_INT, t->comm);
    for (int q = 0; q < P; q++)
        if (expect[q] != t->recvcounts[q] || t->sendcounts[q] < 0 || t->sdispls[q] < 0 || t->rdispls[q] < 0) bad = q + 1;
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, t->comm);
    if (any) {
        if (bad) pst_fatal(PST_EXIT_FAILED, "transpose plan: rank %d expects %d bytes from rank %d, which sends %d", t->rank,
                           t->recvcounts[bad - 1], bad - 1, expect[bad - 1]);
        pst_fatal(PST_EXIT_FAILED, "transpose plan: inconsistent counts on another rank");
    }
    free(expect);
}

pst_trans *pst_trans_create(pst_trans_alg alg, const pst_protocol *p, bool overlap, MPI_Comm comm,
                            const int *sendcounts, const int *sdispls, const int *recvcounts, const int *rdispls)
{
    pst_trans *t = pst_calloc(1, sizeof *t);
    t->alg = alg;
    t->p = p;
    t->overlap_flag = overlap;
    t->overlapped = pst_overlapped(p, overlap);
    t->comm = comm;
    MPI_Comm_rank(comm, &t->rank);
    MPI_Comm_size(comm, &t->size);
    if (alg != PST_TRANS_COLL && !p) pst_fatal(PST_EXIT_FAILED, "transpose %s needs a protocol", alg_names[alg]);
    if (t->size > 8192) pst_fatal(PST_EXIT_FAILED, "transpose over %d ranks: at most 8192 supported (message tags)", t->size);
    t->sendcounts = copy_ints(sendcounts, t->size);
    t->sdispls = copy_ints(sdispls, t->size);
    t->recvcounts = copy_ints(recvcounts, t->size);
    t->rdispls = copy_ints(rdispls, t->size);
    check_counts(t);
    if (alg == PST_SRTRANS || alg == PST_SWTRANS) plan_steps(t);
    else if (alg == PST_LOGTRANS) plan_logtrans(t);
    return t;
}

pst_trans *pst_trans_create_inverse(const pst_trans *t)
{
    return pst_trans_create(t->alg, t->p, t->overlap_flag, t->comm, t->recvcounts, t->rdispls, t->sendcounts, t->sdispls);
}

void pst_trans_run(pst_trans *t, const void *sendbuf, void *recvbuf, const pst_trans_hooks *hooks)
{
    switch (t->alg) {
    case PST_SRTRANS:
    case PST_SWTRANS: run_steps(t, sendbuf, recvbuf, hooks); break;
    case PST_LOGTRANS: run_logtrans(t, sendbuf, recvbuf, hooks); break;
    case PST_TRANS_COLL:
        for (int q = 0; q < t->size; q++) pack_peer(hooks, q);
        MPI_Alltoallv(sendbuf, t->sendcounts, t->sdispls, MPI_BYTE, recvbuf, t->recvcounts, t->rdispls, MPI_BYTE, t->comm);
        for (int q = 0; q < t->size; q++) unpack_peer(hooks, q);
        break;
    case PST_TRANS_NALGS: break;
    }
}

void pst_trans_free(pst_trans *t)
{
    if (!t) return;
    for (int k = 0; k < t->nstages; k++) { free(t->stages[k].pack.v); free(t->stages[k].keep.v); }
    free(t->stages);
    free(t->unpack.v);
    free(t->work[0]);
    free(t->work[1]);
    free(t->stream);
    free(t->steps);
    free(t->x);
    free(t->sendcounts);
    free(t->sdispls);
    free(t->recvcounts);
    free(t->rdispls);
    free(t);
}
