/* pstswm swap's measurement: every protocol at one (size, cache state) in interleaved rounds,
 * payloads written before and checked after every sample, and each point's record as its set
 * ends. */
#include "cmd/swap/swap_impl.h"

#include "cmd/common/buffer.h"
#include "cmd/swap/cache.h"
#include "cmd/common/pairing.h"
#include "cmd/common/records.h"
#include "cmd/common/streams.h"
#include "core/alloc.h"
#include "core/errors.h"
#include "runtime/emit.h"
#include "runtime/payload.h"
#include "runtime/timer.h"
#include "runtime/watchdog.h"
#include "stats/stats.h"

#include <mpi.h>
#include <stdlib.h>

/* One comparison: every protocol at one (size, cache state), sharing the buffers, each with its
 * own transfers, measured in rounds.  A turn re-warms the protocol with one untimed exchange
 * (the previous turn ran another protocol), refills and poisons the payloads, flushes the
 * caches when asked, then times one sample. */
typedef struct swap_set {
    swap_cfg *cfg;
    long long bytes, nmsg;
    const cache_mode *cm;
    unsigned char *sendbuf, *recvbuf; /* [stream * stride + message * bytes] */
    size_t stride;           /* bytes from one stream's messages to the next's */
    pst_xfer **x;            /* [protocol][stream * nmsg + message] */
    long long *corrupted;    /* [protocol] words that failed verification */
} swap_set;

/* Message i of the streams' nmsg each, in a buffer of the set. */
static unsigned char *message(const swap_set *S, unsigned char *buf, size_t i)
{
    return buf + i / (size_t)S->nmsg * S->stride + i % (size_t)S->nmsg * (size_t)S->bytes;
}

/* One multiple-mode thread's exchanges: its stream's transfers only. */
typedef struct stream_run {
    pst_xfer *x;
    size_t nmsg;
    int iters;
} stream_run;

static void run_stream(void *arg, int s)
{
    const stream_run *a = arg;
    for (int it = 0; it < a->iters; it++) pst_xfer_run(a->x + (size_t)s * a->nmsg, a->nmsg);
}

/* `iters` exchanges of every stream; returns the elapsed seconds.  One stream, or funneled: the
 * master runs the streams' transfers as one batch of the protocol (an overlap form posts all,
 * sends all, waits for all); multiple: each thread runs its own stream at once. */
static double run_exchanges(const swap_set *S, pst_xfer *x, int iters)
{
    const swap_cfg *cfg = S->cfg;
    size_t nmsg = (size_t)S->nmsg;
    if (cfg->streams > 1 && cfg->multiple)
        return pst_streams_parallel(cfg->streams, run_stream, &(stream_run){.x = x, .nmsg = nmsg, .iters = iters});
    double t0 = pst_now_s();
    for (int it = 0; it < iters; it++) pst_xfer_run(x, nmsg * (size_t)cfg->streams);
    return pst_now_s() - t0;
}

static double swap_turn(void *arg, size_t pi, size_t round)
{
    swap_set *S = arg;
    swap_cfg *cfg = S->cfg;
    if (cfg->partner < 0) return 0;
    size_t nmsg = (size_t)S->nmsg * (size_t)cfg->streams, bytes = (size_t)S->bytes;
    pst_xfer *x = S->x[pi];
    run_exchanges(S, x, (int)(round == 0 ? cfg->warmup : 0) + 1);
    pst_transport_settle();
    bool verify = !cfg->ctx.no_verify;
    long long tag = (long long)(round * cfg->nprotocols + pi);
    if (verify) {
        /* Message i's seed names its stream too (i counts over the streams). */
        for (size_t i = 0; i < nmsg; i++) {
            pst_payload_fill(message(S, S->sendbuf, i), bytes, pst_payload_seed(cfg->ctx.rank, (long long)i, tag));
            pst_payload_poison(message(S, S->recvbuf, i), bytes);
        }
    }
    if (S->cm->flush) pst_cache_flush();
    MPI_Barrier(cfg->active);
    /* With T streams: the wall time of all their exchanges over T. */
    double t = run_exchanges(S, x, S->cm->iters) / S->cm->iters / cfg->streams;
    if (verify)
        for (size_t i = 0; i < nmsg; i++) {
            size_t first;
            S->corrupted[pi] += (long long)pst_payload_check(message(S, S->recvbuf, i), bytes,
                                                             pst_payload_seed(cfg->partner, (long long)i, tag), &first);
        }
    return t;
}

/* Time every protocol at one point, in rounds.  Collective over MPI_COMM_WORLD. */
static void measure_set(swap_cfg *cfg, long long bytes, long long nmsg, const cache_mode *cm, pst_rounds *R)
{
    swap_set S = {.cfg = cfg, .bytes = bytes, .nmsg = nmsg, .cm = cm,
                  .corrupted = pst_calloc(cfg->nprotocols, sizeof *S.corrupted)};
    /* Collective, idle ranks included: a one-sided transport sizes its window here. */
    pst_transport_setup(cfg->transport, MPI_COMM_WORLD, (size_t)bytes, (size_t)nmsg);
    size_t all = (size_t)nmsg * (size_t)cfg->streams; /* transfers per protocol */
    if (cfg->partner >= 0) {
        size_t total = (size_t)bytes * (size_t)nmsg;
        /* Streams' messages a page apart: no cache line is shared between threads. */
        S.stride = cfg->streams > 1 ? (total + 4095) / 4096 * 4096 : total;
        S.sendbuf = pst_buffer_alloc(S.stride * (size_t)cfg->streams);
        S.recvbuf = pst_buffer_alloc(S.stride * (size_t)cfg->streams);
        S.x = pst_malloc(cfg->nprotocols * sizeof *S.x);
        for (size_t pi = 0; pi < cfg->nprotocols; pi++) {
            S.x[pi] = pst_malloc(all * sizeof **S.x);
            for (size_t i = 0; i < all; i++) {
                pst_xfer_init(&S.x[pi][i], cfg->protocols[pi], MPI_COMM_WORLD, cfg->partner, cfg->partner, cfg->side,
                              message(&S, S.sendbuf, i), message(&S, S.recvbuf, i), (size_t)bytes,
                              (int)(i / (size_t)nmsg));
                pst_xfer_prepare(&S.x[pi][i]); /* persistent protocols: their _init calls, outside every timing */
            }
            pst_xfer_reserve(&S.x[pi][0], all);
        }
    }
    pst_rounds_run(R, &cfg->rounds, cfg->nprotocols, cfg->reps, swap_turn, &S);
    MPI_Allreduce(MPI_IN_PLACE, S.corrupted, (int)cfg->nprotocols, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (size_t pi = 0; pi < cfg->nprotocols; pi++)
        if (S.corrupted[pi])
            pst_collective_exit(PST_EXIT_FAILED,
                                "payload verification failed: protocol %s (%s), %lld bytes x %lld msgs, cache %s: "
                                "%lld corrupted words", cfg->protocols[pi]->code, cfg->protocols[pi]->slug, bytes, nmsg,
                                cm->name, S.corrupted[pi]);
    free(S.corrupted);
    if (S.x)
        for (size_t pi = 0; pi < cfg->nprotocols; pi++) {
            for (size_t i = 0; i < all; i++) pst_xfer_free(&S.x[pi][i]);
            free(S.x[pi]);
        }
    free(S.x);
    free(S.sendbuf);
    free(S.recvbuf);
}

static void emit_point(swap_cfg *cfg, size_t pi, long long bytes, long long nmsg, const cache_mode *cm,
                       const pst_rounds *R)
{
    const pst_protocol *p = cfg->protocols[pi];
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_swap_point);
    pst_rec_str(&r, "protocol", p->code);
    pst_rec_str(&r, "slug", p->slug);
    pst_rec_str(&r, "win_model", pst_transport_memory_model(cfg->transport, MPI_COMM_WORLD));
    pst_rec_bool(&r, "ordered", p->ordered);
    pst_rec_bool(&r, "overlap", p->overlap);
    pst_rec_int(&r, "bytes", bytes);
    pst_rec_int(&r, "nmsg", nmsg);
    pst_rec_int(&r, "volume", bytes * nmsg);
    pst_rec_str(&r, "cache", cm->name);
    pst_rec_int(&r, "iters", cm->iters);
    if (cfg->streams > 1) {
        pst_rec_int(&r, "threads", cfg->streams);
        pst_rec_str(&r, "thread_mode", pst_streams_mode_name(cfg->multiple));
    }
    pst_rec_str(&r, "pair", cfg->pairs_spec);
    pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
    pst_rec_int(&r, "npairs", cfg->npairs);
    pst_summary t = pst_rec_rounds(&r, R, pi, &cfg->rounds);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_num(&r, "mbytes_per_s", mbytes_per_s(bytes, nmsg, t.min));
    pst_rec_num(&r, "mbytes_per_s_med", mbytes_per_s(bytes, nmsg, t.median));
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    if (cfg->samples) pst_rec_nums(&r, "samples", R->t[pi], R->n);
    pst_rec_emit(&r, &cfg->ctx);
}

/* Every size at one cache state, each a set of the protocols in rounds.  Each set's points are
 * written as it ends, so a run that fails later keeps them.  Collective over MPI_COMM_WORLD. */
void pst_swap_measure_cache(swap_cfg *cfg, const cache_mode *cm, const long long *nmsg, pst_rounds *R)
{
    for (size_t s = 0; s < cfg->sizes.n; s++) {
        long long bytes = cfg->sizes.v[s];
        pst_watchdog_phase("swap bytes %lld x %lld msgs cache %s (%zu protocols in rounds)", bytes, nmsg[s], cm->name,
                           cfg->nprotocols);
        measure_set(cfg, bytes, nmsg[s], cm, &R[s]);
        if (cfg->ctx.rank == 0)
            for (size_t pi = 0; pi < cfg->nprotocols; pi++) emit_point(cfg, pi, bytes, nmsg[s], cm, &R[s]);
    }
}
