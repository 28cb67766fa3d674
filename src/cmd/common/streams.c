#include "cmd/common/streams.h"

#include "cmd/common/buffer.h"
#include "core/alloc.h"
#include "runtime/payload.h"
#include "runtime/thread_level.h"
#include "runtime/threads.h"
#include "runtime/timer.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

bool pst_streams_multiple(void) { return !strcmp(pst_thread_level_requested(), "multiple"); }

const char *pst_streams_mode_name(bool multiple) { return multiple ? "multiple" : "funneled"; }

void pst_streams_alloc(pst_streams *st, int n, bool multiple, size_t max_bytes)
{
    st->n = n;
    st->multiple = multiple;
    st->sbuf = pst_malloc((size_t)n * sizeof *st->sbuf);
    st->rbuf = pst_malloc((size_t)n * sizeof *st->rbuf);
    st->req = pst_malloc(2 * (size_t)n * sizeof *st->req);
    /* First touch on the thread that will send from and receive into them. */
#pragma omp parallel for num_threads(multiple ? n : 1) schedule(static, 1)
    for (int s = 0; s < n; s++) {
        st->sbuf[s] = pst_buffer_alloc(max_bytes);
        st->rbuf[s] = pst_buffer_alloc(max_bytes);
    }
}

void pst_streams_free(pst_streams *st)
{
    for (int s = 0; s < st->n; s++) {
        free(st->sbuf[s]);
        free(st->rbuf[s]);
    }
    free(st->sbuf);
    free(st->rbuf);
    free(st->req);
    *st = (pst_streams){0};
}

double pst_streams_parallel(int n, void (*body)(void *arg, int stream), void *arg)
{
    double *start_s = pst_malloc((size_t)n * sizeof *start_s), *end_s = pst_malloc((size_t)n * sizeof *end_s);
#pragma omp parallel num_threads(n)
    {
        int s = omp_get_thread_num();
#pragma omp barrier
        start_s[s] = pst_now_s();
        body(arg, s);
        end_s[s] = pst_now_s();
    }
    double first = INFINITY, last = -INFINITY;
    for (int s = 0; s < n; s++) {
        first = fmin(first, start_s[s]);
        last = fmax(last, end_s[s]);
    }
    free(start_s);
    free(end_s);
    return last - first;
}

/* One multiple-mode thread's ping-pong. */
typedef struct pingpong_arg {
    const pst_streams *st;
    pst_send_kind k;
    bool side_a, bidir;
    int n, peer;
    MPI_Comm comm;
    long long iters;
} pingpong_arg;

static void pingpong_stream(void *arg, int s)
{
    const pingpong_arg *a = arg;
    const void *sb = a->st->sbuf[s];
    void *rb = a->st->rbuf[s];
    switch (a->k) {
    case PST_KIND_SEND:
        pst_stream_loop(PST_KIND_SEND, a->side_a, a->bidir, sb, rb, a->n, a->peer, s, a->comm, a->iters);
        break;
    case PST_KIND_SSEND:
        pst_stream_loop(PST_KIND_SSEND, a->side_a, a->bidir, sb, rb, a->n, a->peer, s, a->comm, a->iters);
        break;
    case PST_KIND_ISEND:
        pst_stream_loop(PST_KIND_ISEND, a->side_a, a->bidir, sb, rb, a->n, a->peer, s, a->comm, a->iters);
        break;
    case PST_KIND_BSEND:
        pst_stream_loop(PST_KIND_BSEND, a->side_a, a->bidir, sb, rb, a->n, a->peer, s, a->comm, a->iters);
        break;
    }
}

typedef int (*isend_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

/* The nonblocking call the master uses for a send mode when it drives every stream. */
static isend_fn nonblocking(pst_send_kind k)
{
    return k == PST_KIND_SSEND ? MPI_Issend : k == PST_KIND_BSEND ? MPI_Ibsend : MPI_Isend;
}

static void post(const pst_streams *st, bool recv, isend_fn isend, int n, int peer, MPI_Comm comm, MPI_Request *req)
{
    for (int s = 0; s < st->n; s++) {
        if (recv) MPI_Irecv(st->rbuf[s], n, MPI_BYTE, peer, s, comm, &req[s]);
        else isend(st->sbuf[s], n, MPI_BYTE, peer, s, comm, &req[s]);
    }
}

/* Funneled: per round the master posts every stream's receive, then (side A, or both sides
 * bi) every stream's send, and waits for all; side B of a ping-pong answers once all arrived. */
static double funneled_pingpong(const pst_streams *st, pst_send_kind k, bool side_a, bool bidir, int n, int peer,
                                MPI_Comm comm, long long iters)
{
    const int T = st->n;
    MPI_Request *req = st->req;
    const isend_fn isend = nonblocking(k);
    double t0 = pst_now_s();
    for (long long i = 0; i < iters; i++) {
        post(st, true, isend, n, peer, comm, req);
        if (bidir || side_a) {
            post(st, false, isend, n, peer, comm, req + T);
            pst_waitall(2 * T, req);
        } else {
            pst_waitall(T, req);
            post(st, false, isend, n, peer, comm, req + T);
            pst_waitall(T, req + T);
        }
    }
    return pst_now_s() - t0;
}

double pst_streams_pingpong(const pst_streams *st, pst_send_kind k, bool side_a, bool bidir, int n, int peer,
                            MPI_Comm comm, long long iters)
{
    if (!st->multiple) return funneled_pingpong(st, k, side_a, bidir, n, peer, comm, iters);
    pingpong_arg a = {
        .st = st, .k = k, .side_a = side_a, .bidir = bidir, .n = n, .peer = peer, .comm = comm, .iters = iters};
    return pst_streams_parallel(st->n, pingpong_stream, &a);
}

/* Stream s's message: its own seed, so a message of another stream fails the check. */
static uint64_t stream_seed(int sender, long long point, long long rep, int s)
{
    return pst_payload_seed(sender, point * PST_THREADS_MAX + s, rep);
}

void pst_streams_fill(const pst_streams *st, size_t bytes, int rank, long long point, long long rep)
{
    for (int s = 0; s < st->n; s++) {
        pst_payload_fill(st->sbuf[s], bytes, stream_seed(rank, point, rep, s));
        pst_payload_poison(st->rbuf[s], bytes);
    }
}

long long pst_streams_check(const pst_streams *st, size_t bytes, int partner, long long point, long long rep)
{
    long long bad = 0;
    for (int s = 0; s < st->n; s++) {
        size_t first;
        bad += (long long)pst_payload_check(st->rbuf[s], bytes, stream_seed(partner, point, rep, s), &first);
    }
    return bad;
}
