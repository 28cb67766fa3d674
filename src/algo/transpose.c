/* The frame every transpose shares (see transpose.h) and the collective, alltoallv.  Each
 * other algorithm lives in its own file behind its registry row (algorithm.h). */
#include "algo/transpose_impl.h"

#include "algo/exchange.h"
#include "core/alloc.h"
#include "core/copy_charge.h"
#include "core/errors.h"

#include <stdlib.h>
#include <string.h>

/* The schedules' message tags (a step's round) stay below the transfers' limit with room to spare. */
enum { MAX_RANKS = PST_TAG_LIMIT / 2 };

/* The hook is the copy into or out of the block, so its bytes are charged only when it is given. */
void pst_trans_pack_peer(const pst_trans *t, const pst_trans_hooks *h, int q)
{
    if (!h || !h->pack) return;
    h->pack(h->arg, q);
    pst_copy_charge((size_t)t->sendcounts[q]);
}

void pst_trans_unpack_peer(const pst_trans *t, const pst_trans_hooks *h, int q)
{
    if (!h || !h->unpack) return;
    h->unpack(h->arg, q);
    pst_copy_charge((size_t)t->recvcounts[q]);
}

void pst_trans_run_self(const pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    int r = t->rank;
    pst_trans_pack_peer(t, h, r);
    memcpy(recvbuf + t->rdispls[r], sendbuf + t->sdispls[r], (size_t)t->sendcounts[r]);
    pst_copy_charge((size_t)t->sendcounts[r]);
    pst_trans_unpack_peer(t, h, r);
}

/* ---- alltoallv ---- */

static void plan_alltoallv(pst_trans *t) { (void)t; }

static void run_alltoallv(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    for (int q = 0; q < t->size; q++) pst_trans_pack_peer(t, h, q);
    MPI_Alltoallv(sendbuf, t->sendcounts, t->sdispls, MPI_BYTE, recvbuf, t->recvcounts, t->rdispls, MPI_BYTE, t->comm);
    for (int q = 0; q < t->size; q++) pst_trans_unpack_peer(t, h, q);
}

static void free_nothing(void *state) { (void)state; }

const pst_trans_ops pst_alltoallv_ops = {plan_alltoallv, run_alltoallv, free_nothing};

/* ---- the frame ---- */

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
        if (expect[q] != t->recvcounts[q] || t->sendcounts[q] < 0 || t->sdispls[q] < 0 || t->rdispls[q] < 0)
            bad = q + 1;
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, t->comm);
    if (any) {
        if (bad)
            pst_fatal(PST_EXIT_FAILED, "transpose plan: rank %d expects %d bytes from rank %d, which sends %d", t->rank,
                      t->recvcounts[bad - 1], bad - 1, expect[bad - 1]);
        pst_fatal(PST_EXIT_FAILED, "transpose plan: inconsistent counts on another rank");
    }
    free(expect);
}

pst_trans *pst_trans_create(const pst_algorithm *alg, const pst_protocol *p, bool overlap, MPI_Comm comm,
                            const int *sendcounts, const int *sdispls, const int *recvcounts, const int *rdispls)
{
    if (alg->family != PST_FAMILY_TRANSPOSE) pst_fatal(PST_EXIT_FAILED, "%s is not a transpose", alg->name);
    if (!alg->collective && !p) pst_fatal(PST_EXIT_FAILED, "transpose %s needs a protocol", alg->name);
    if (pst_algorithm_unavailable(alg))
        pst_fatal(PST_EXIT_FAILED, "transpose %s %s", alg->name, pst_algorithm_unavailable(alg));
    pst_trans *t = pst_calloc(1, sizeof *t);
    t->alg = alg;
    t->p = p;
    t->overlap_flag = overlap;
    t->overlapped = pst_overlapped(p, overlap);
    t->comm = comm;
    t->xfers = pst_xfer_set_new();
    MPI_Comm_rank(comm, &t->rank);
    MPI_Comm_size(comm, &t->size);
    if (t->size > MAX_RANKS)
        pst_fatal(PST_EXIT_FAILED, "transpose over %d ranks: at most %d supported (message tags)", t->size, MAX_RANKS);
    t->sendcounts = copy_ints(sendcounts, t->size);
    t->sdispls = copy_ints(sdispls, t->size);
    t->recvcounts = copy_ints(recvcounts, t->size);
    t->rdispls = copy_ints(rdispls, t->size);
    check_counts(t);
    alg->trans->plan(t);
    return t;
}

pst_trans *pst_trans_create_inverse(const pst_trans *t)
{
    return pst_trans_create(t->alg, t->p, t->overlap_flag, t->comm, t->recvcounts, t->rdispls, t->sendcounts,
                            t->sdispls);
}

void pst_trans_run(pst_trans *t, const void *sendbuf, void *recvbuf, const pst_trans_hooks *hooks)
{
    t->alg->trans->run(t, sendbuf, recvbuf, hooks);
}

void pst_trans_free(pst_trans *t)
{
    if (!t) return;
    t->alg->trans->free(t->state);
    pst_xfer_set_free(t->xfers);
    free(t->sendcounts);
    free(t->sdispls);
    free(t->recvcounts);
    free(t->rdispls);
    free(t);
}
