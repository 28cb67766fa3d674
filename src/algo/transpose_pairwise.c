/* srtrans and swtrans (see transpose.h): P-1 partner steps, one block each way per step. */
#include "algo/exchange.h"
#include "algo/partition.h"
#include "algo/transpose_impl.h"
#include "core/alloc.h"

#include <stdlib.h>

/* One partner step. */
typedef struct step { int dest, src, side, tag; } step; /* tag: the round, equal at both ends */

typedef struct steps {
    step *v;
    int n;
    pst_xfer *x;
} steps;

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

static steps *new_steps(const pst_trans *t)
{
    steps *s = pst_calloc(1, sizeof *s);
    s->v = pst_malloc((size_t)t->size * sizeof *s->v);
    return s;
}

/* Buffers for the transfers, and the transport's room for them all in flight. */
static void finish_plan(pst_trans *t, steps *s)
{
    s->x = pst_malloc((size_t)(s->n ? s->n : 1) * sizeof *s->x);
    int maxsend = 0;
    for (int q = 0; q < t->size; q++) maxsend = t->sendcounts[q] > maxsend ? t->sendcounts[q] : maxsend;
    pst_exchange_reserve(t->p, t->comm, (size_t)maxsend, (size_t)s->n);
    t->state = s;
}

static void plan_srtrans(pst_trans *t)
{
    int P = t->size, r = t->rank;
    steps *s = new_steps(t);
    for (int k = 1; k < P; k++) s->v[s->n++] = (step){(r + k) % P, (r - k + P) % P, pst_shift_side(r, P, k), k};
    finish_plan(t, s);
}

static void plan_swtrans(pst_trans *t)
{
    int P = t->size, r = t->rank, n;
    steps *s = new_steps(t);
    swtrans_partner(r, P, 0, &n);
    for (int k = 0; k < n; k++) {
        int q = swtrans_partner(r, P, k, &n);
        if (q != r) s->v[s->n++] = (step){q, q, r < q ? PST_SIDE_A : PST_SIDE_B, k};
    }
    finish_plan(t, s);
}

static void run_steps(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    steps *s = t->state;
    for (int k = 0; k < s->n; k++) {
        const step *st = &s->v[k];
        pst_xfer_set_init(t->xfers, &s->x[k], t->p, t->comm, st->dest, st->src, st->side,
                          sendbuf + t->sdispls[st->dest], (size_t)t->sendcounts[st->dest],
                          recvbuf + t->rdispls[st->src], (size_t)t->recvcounts[st->src], st->tag);
    }
    if (!t->overlapped) {
        pst_trans_run_self(t, sendbuf, recvbuf, h);
        for (int k = 0; k < s->n; k++) {
            pst_trans_pack_peer(t, h, s->v[k].dest);
            pst_xfer_run(&s->x[k], 1);
            pst_trans_unpack_peer(t, h, s->v[k].src);
        }
        return;
    }
    /* The batch order of pst_xfer_run, with packing just before each send. */
    for (int k = 0; k < s->n; k++) pst_xfer_post(&s->x[k]);
    for (int k = 0; k < s->n; k++)
        if (pst_xfer_send_early(&s->x[k])) {
            pst_trans_pack_peer(t, h, s->v[k].dest);
            pst_xfer_send(&s->x[k]);
        }
    pst_trans_run_self(t, sendbuf, recvbuf, h);
    for (int k = 0; k < s->n; k++) {
        if (!pst_xfer_send_early(&s->x[k])) {
            pst_trans_pack_peer(t, h, s->v[k].dest);
            pst_xfer_send(&s->x[k]);
        }
        pst_xfer_wait(&s->x[k]);
        pst_trans_unpack_peer(t, h, s->v[k].src);
    }
}

static void free_steps(void *state)
{
    steps *s = state;
    free(s->v);
    free(s->x);
    free(s);
}

const pst_trans_ops pst_srtrans_ops = {plan_srtrans, run_steps, free_steps};
const pst_trans_ops pst_swtrans_ops = {plan_swtrans, run_steps, free_steps};
