/* The MPI library's other ways to do an MPI_Alltoallv (see transpose.h and the registry rows in
 * algorithm.c): nonblocking and pipelined (ialltoallv), on a neighbourhood graph (neighbor) and
 * persistent (alltoallv_init).  A row whose MPI feature the library lacks is refused before a
 * plan is made (pst_algorithm_unavailable), so the calls here only compile where they exist. */
#include "algo/transpose_impl.h"

#include "core/alloc.h"
#include "core/errors.h"

#include <stdlib.h>
#include <string.h>

/* ---- ialltoallv ---- */

#if defined(PST_HAVE_MPI_NBC)
static int mod(int a, int m) { return ((a % m) + m) % m; }

/* Ring distances 1 .. P-1 in up to GROUPS consecutive groups: group g sends to r+k and receives
 * from r-k for its distances k, so every rank's group g is the same set of pairs. */
enum { GROUPS = 4 };

typedef struct ia_state {
    int ngroups, first[GROUPS + 1]; /* group g: distances first[g] .. first[g+1]-1 */
    int *sc, *rc;                   /* [ngroups][P]: counts with every other peer zeroed */
    MPI_Request req[GROUPS];
} ia_state;

static void plan_ialltoallv(pst_trans *t)
{
    int P = t->size, dist = P - 1;
    ia_state *s = pst_calloc(1, sizeof *s);
    s->ngroups = dist < GROUPS ? dist : GROUPS;
    s->sc = pst_calloc((size_t)(s->ngroups ? s->ngroups : 1) * (size_t)P, sizeof *s->sc);
    s->rc = pst_calloc((size_t)(s->ngroups ? s->ngroups : 1) * (size_t)P, sizeof *s->rc);
    for (int g = 0; g <= s->ngroups; g++) s->first[g] = 1 + (int)((long)dist * g / (s->ngroups ? s->ngroups : 1));
    for (int g = 0; g < s->ngroups; g++)
        for (int k = s->first[g]; k < s->first[g + 1]; k++) {
            int to = mod(t->rank + k, P), from = mod(t->rank - k, P);
            s->sc[g * P + to] = t->sendcounts[to];
            s->rc[g * P + from] = t->recvcounts[from];
        }
    t->state = s;
}

/* MPI_Test on every started group that is not complete: the library's progress between blocks. */
static void drive(ia_state *s, int started)
{
    for (int g = 0; g < started; g++) {
        int done;
        if (s->req[g] != MPI_REQUEST_NULL) MPI_Test(&s->req[g], &done, MPI_STATUS_IGNORE);
    }
}

static void run_ialltoallv(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    ia_state *s = t->state;
    int P = t->size, r = t->rank;
    for (int g = 0; g < s->ngroups; g++) {
        for (int k = s->first[g]; k < s->first[g + 1]; k++) {
            pst_trans_pack_peer(t, h, mod(r + k, P));
            drive(s, g);
        }
        MPI_Ialltoallv(sendbuf, s->sc + g * P, t->sdispls, MPI_BYTE, recvbuf, s->rc + g * P, t->rdispls, MPI_BYTE,
                       t->comm, &s->req[g]);
        if (g == 0) pst_trans_run_self(t, sendbuf, recvbuf, h);
        if (g > 0) {
            MPI_Wait(&s->req[g - 1], MPI_STATUS_IGNORE);
            for (int k = s->first[g - 1]; k < s->first[g]; k++) {
                pst_trans_unpack_peer(t, h, mod(r - k, P));
                drive(s, g + 1);
            }
        }
    }
    if (s->ngroups == 0) {
        pst_trans_run_self(t, sendbuf, recvbuf, h);
        return;
    }
    int last = s->ngroups - 1;
    MPI_Wait(&s->req[last], MPI_STATUS_IGNORE);
    for (int k = s->first[last]; k < s->first[last + 1]; k++) pst_trans_unpack_peer(t, h, mod(r - k, P));
}

static void free_ialltoallv(void *state)
{
    ia_state *s = state;
    if (!s) return;
    free(s->sc);
    free(s->rc);
    free(s);
}

const pst_trans_ops pst_ialltoallv_ops = {plan_ialltoallv, run_ialltoallv, free_ialltoallv};
#else
const pst_trans_ops pst_ialltoallv_ops = {NULL, NULL, NULL};
#endif

/* ---- neighbor ---- */

#if defined(PST_HAVE_MPI_NEIGHBOR)
typedef struct nb_state {
    MPI_Comm graph;
    int nsrc, ndst;
    int *src, *dst;                 /* ranks of t->comm (reorder 0: the graph's ranks are the same) */
    int *sc, *sd, *rc, *rd;         /* per edge, in the graph's neighbour order */
} nb_state;

/* Edges only where a block is not empty, so a sparse transpose sends no empty messages; the
 * own block is copied, not sent. */
static void plan_neighbor(pst_trans *t)
{
    int P = t->size;
    nb_state *s = pst_calloc(1, sizeof *s);
    size_t cap = (size_t)(P ? P : 1);
    s->src = pst_malloc(cap * sizeof *s->src);
    s->dst = pst_malloc(cap * sizeof *s->dst);
    s->sc = pst_malloc(cap * sizeof *s->sc);
    s->sd = pst_malloc(cap * sizeof *s->sd);
    s->rc = pst_malloc(cap * sizeof *s->rc);
    s->rd = pst_malloc(cap * sizeof *s->rd);
    for (int q = 0; q < P; q++) {
        if (q == t->rank) continue;
        if (t->recvcounts[q] > 0) {
            s->rc[s->nsrc] = t->recvcounts[q];
            s->rd[s->nsrc] = t->rdispls[q];
            s->src[s->nsrc++] = q;
        }
        if (t->sendcounts[q] > 0) {
            s->sc[s->ndst] = t->sendcounts[q];
            s->sd[s->ndst] = t->sdispls[q];
            s->dst[s->ndst++] = q;
        }
    }
    /* Open MPI's MPI_UNWEIGHTED is a zero-length array: gcc reads the prototype as a read of it. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overread"
    MPI_Dist_graph_create_adjacent(t->comm, s->nsrc, s->src, MPI_UNWEIGHTED, s->ndst, s->dst, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &s->graph);
#pragma GCC diagnostic pop
    /* The neighbour order of the graph is the order given (MPI-3.1 §7.6); check it, since the
     * counts above rely on it. */
    int indeg, outdeg, weighted;
    MPI_Dist_graph_neighbors_count(s->graph, &indeg, &outdeg, &weighted);
    if (indeg != s->nsrc || outdeg != s->ndst)
        pst_fatal(PST_EXIT_FAILED, "neighbor transpose: the graph has %d in / %d out edges, %d / %d were given", indeg,
                  outdeg, s->nsrc, s->ndst);
    t->state = s;
}

static void run_neighbor(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    nb_state *s = t->state;
    /* Peers without an edge (empty blocks) get their hooks too, once, as the frame promises. */
    for (int q = 0; q < t->size; q++)
        if (q != t->rank) pst_trans_pack_peer(t, h, q);
    MPI_Neighbor_alltoallv(sendbuf, s->sc, s->sd, MPI_BYTE, recvbuf, s->rc, s->rd, MPI_BYTE, s->graph);
    pst_trans_run_self(t, sendbuf, recvbuf, h);
    for (int q = 0; q < t->size; q++)
        if (q != t->rank) pst_trans_unpack_peer(t, h, q);
}

static void free_neighbor(void *state)
{
    nb_state *s = state;
    if (!s) return;
    MPI_Comm_free(&s->graph);
    free(s->src);
    free(s->dst);
    free(s->sc);
    free(s->sd);
    free(s->rc);
    free(s->rd);
    free(s);
}

const pst_trans_ops pst_neighbor_ops = {plan_neighbor, run_neighbor, free_neighbor};
#else
const pst_trans_ops pst_neighbor_ops = {NULL, NULL, NULL};
#endif

/* ---- alltoallv_init ---- */

#if defined(pst_alltoallv_init)
/* A persistent request is bound to its buffers (MPI-4.0 §6.13): made on the first call (which
 * every caller's warm-up covers) and made again when a call passes other buffers.  Making it is
 * collective, so every rank must change buffers at the same call, as the model, the kernel and
 * the tests do (each keeps its buffers for a plan's life). */
typedef struct pi_state {
    MPI_Request req;
    bool made;
    const void *sendbuf;
    void *recvbuf;
} pi_state;

static void plan_alltoallv_init(pst_trans *t) { t->state = pst_calloc(1, sizeof(pi_state)); }

static void run_alltoallv_init(pst_trans *t, const char *sendbuf, char *recvbuf, const pst_trans_hooks *h)
{
    pi_state *s = t->state;
    if (!s->made || s->sendbuf != sendbuf || s->recvbuf != recvbuf) {
        if (s->made) MPI_Request_free(&s->req);
        pst_alltoallv_init(sendbuf, t->sendcounts, t->sdispls, MPI_BYTE, recvbuf, t->recvcounts, t->rdispls, MPI_BYTE,
                           t->comm, MPI_INFO_NULL, &s->req);
        s->made = true;
        s->sendbuf = sendbuf;
        s->recvbuf = recvbuf;
    }
    for (int q = 0; q < t->size; q++) pst_trans_pack_peer(t, h, q);
    MPI_Start(&s->req);
    MPI_Wait(&s->req, MPI_STATUS_IGNORE);
    for (int q = 0; q < t->size; q++) pst_trans_unpack_peer(t, h, q);
}

static void free_alltoallv_init(void *state)
{
    pi_state *s = state;
    if (s && s->made) MPI_Request_free(&s->req);
    free(s);
}

const pst_trans_ops pst_alltoallv_init_ops = {plan_alltoallv_init, run_alltoallv_init, free_alltoallv_init};
#else
const pst_trans_ops pst_alltoallv_init_ops = {NULL, NULL, NULL};
#endif
