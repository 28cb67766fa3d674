/* pstswm swap: point-to-point SWAP protocol sweep (Worley 1998 §5 and Worley 2000).
 *
 * Pairs of ranks exchange messages with every selected protocol, message size and cache
 * state.  One "exchange" moves nmsg messages of `bytes` each way (nmsg = volume / bytes with
 * --volume, else 1).  Per point: min/median/mean/max over repetitions of the time per
 * exchange, taken as the max over all participating ranks of each repetition.  Per protocol:
 * peak bandwidth and the model T = nmsg·α + volume/β fitted to the per-point minima with
 * relative (1/T²) weights.  Per size: the protocol sensitivity summary. */
#include "cmd/buffer.h"
#include "cmd/cache.h"
#include "cmd/frame.h"
#include "cmd/pairing.h"
#include "cmd/records.h"
#include "cmd/streams.h"
#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "run/compare.h"
#include "run/context.h"
#include "run/emit.h"
#include "run/payload.h"
#include "run/run_schema.h"
#include "run/threads.h"
#include "run/timer.h"
#include "run/watchdog.h"
#include "stats/segfit.h"
#include "stats/sensitivity.h"
#include "stats/stats.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BYTES = 1 << 30, MAX_MESSAGES = 1 << 20 };
/* Transfer state of one point: every protocol's transfers are alive at once (rounds). */
static const double MAX_XFER_STATE_BYTES = 1 << 30;

typedef struct cache_mode {
    const char *name;
    const char *description;
    int iters;   /* exchanges per timed sample */
    bool flush;  /* evict caches before each sample */
} cache_mode;

static const cache_mode cache_modes[] = {
    {"cold", "caches flushed before each exchange", 1, true},
    {"1", "one exchange per sample, warm", 1, false},
    {"10", "mean of ten back-to-back exchanges per sample", 10, false},
};

/* The set being measured: one cache state at every size. */
typedef struct swap_cache_set {
    const cache_mode *cm;
    long long *nmsg;         /* [size] messages per exchange */
    pst_rounds *R;           /* [size] */
} swap_cache_set;

typedef struct swap_cfg {
    pst_ctx ctx;
    const char *protocols_spec, *pairs_spec, *transport;
    pst_int_list sizes;
    long long volume, reps, warmup, threads;
    pst_str_list cache;
    bool samples;
    pst_compare_opts compare;
    /* derived */
    const pst_protocol **protocols;
    size_t nprotocols;
    int partner, side;       /* partner < 0: this rank sits out */
    int npairs;
    int streams;             /* --threads: streams per pair, stream s on tag s (1: one, on tag 0) */
    bool multiple;           /* streams > 1: every thread calls MPI, else the master runs all */
    MPI_Comm active;         /* the participating ranks */
    swap_cache_set now;
} swap_cfg;

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
                              message(&S, S.sendbuf, i), message(&S, S.recvbuf, i), (size_t)bytes, (int)(i / (size_t)nmsg));
                pst_xfer_prepare(&S.x[pi][i]); /* persistent protocols: their _init calls, outside every timing */
            }
            pst_xfer_reserve(&S.x[pi][0], all);
        }
    }
    pst_rounds_run(R, &cfg->compare, cfg->nprotocols, cfg->reps, swap_turn, &S);
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

static double mbytes_per_s(long long bytes, long long nmsg, double t_s) { return (double)bytes * (double)nmsg / t_s / 1e6; }

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
    pst_summary t = pst_rec_rounds(&r, R, pi, &cfg->compare);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_num(&r, "mbytes_per_s", mbytes_per_s(bytes, nmsg, t.min));
    pst_rec_num(&r, "mbytes_per_s_med", mbytes_per_s(bytes, nmsg, t.median));
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    if (cfg->samples) pst_rec_nums(&r, "samples", R->t[pi], R->n);
    pst_rec_emit(&r, &cfg->ctx);
}

/* One cache state's summaries, from the rounds of every size (rank 0).  Per protocol (Worley
 * 2000): peak bandwidth and the model T = nmsg·α + volume/β piecewise over the protocol regimes
 * (stats/segfit.h), fitted to the per-size medians.  Per size (Worley 1998) as a verdict: the best
 * set at the stated confidence and margin from paired per-round times, and the sensitivity
 * across protocols. */
typedef struct swap_protocol_fit {
    double peak_mbytes_per_s;    /* over sizes, from the medians */
    long long peak_bytes;
    pst_segfit fit;
    double alpha_s;              /* the first segment's latency: the small-message limit */
    double beta_mbytes_per_s;    /* the last segment's bandwidth: the large-message limit */
} swap_protocol_fit;

typedef struct swap_size_verdict {
    pst_verdict v;
    bool *in_set;                /* [protocol] */
    double *med_s;               /* [protocol] */
    pst_sensitivity s;
    double max_mbytes_per_s;     /* the best protocol's bandwidth */
} swap_size_verdict;

typedef struct swap_analysis {
    const long long *bytes, *nmsg; /* [size], in --sizes order */
    const pst_rounds *R;           /* [size] */
    long long *key_bytes;          /* [size] ascending: the order segfit wants */
    swap_protocol_fit *fits;       /* [protocol] */
    swap_size_verdict *verdicts;   /* [size]; NULL with one protocol: nothing to compare */
    const char **labels;           /* [protocol]: the codes */
} swap_analysis;

/* Protocol pi's peak and fit over the sizes taken in ascending order (order[k] indexes --sizes). */
static swap_protocol_fit fit_protocol(const swap_cfg *cfg, const swap_analysis *an, const size_t *order, size_t pi)
{
    size_t nsizes = cfg->sizes.n;
    swap_protocol_fit pf = {0};
    double *X = pst_malloc(2 * nsizes * sizeof *X), *med_s = pst_malloc(nsizes * sizeof *med_s);
    for (size_t k = 0; k < nsizes; k++) {
        size_t i = order[k];
        double lo, hi;
        med_s[k] = pst_median_ci(an->R[i].t[pi], an->R[i].n, cfg->compare.confidence, &lo, &hi);
        double bw = mbytes_per_s(an->bytes[i], an->nmsg[i], med_s[k]);
        if (bw > pf.peak_mbytes_per_s) { pf.peak_mbytes_per_s = bw; pf.peak_bytes = an->bytes[i]; }
        X[2 * k] = (double)an->nmsg[i];
        X[2 * k + 1] = (double)(an->bytes[i] * an->nmsg[i]);
    }
    pf.fit = pst_segfit_run(nsizes, X, med_s, an->key_bytes, cfg->compare.confidence);
    const pst_segfit *f = &pf.fit;
    pf.alpha_s = f->nseg ? f->seg[0].fit.coef[0] : NAN;
    pf.beta_mbytes_per_s = f->nseg && f->seg[f->nseg - 1].fit.coef[1] > 0 ? 1e-6 / f->seg[f->nseg - 1].fit.coef[1] : NAN;
    free(X);
    free(med_s);
    return pf;
}

static swap_size_verdict size_verdict(const swap_cfg *cfg, const swap_analysis *an, size_t s)
{
    size_t k = cfg->nprotocols;
    swap_size_verdict sv = {.in_set = pst_malloc(k * sizeof *sv.in_set), .med_s = pst_malloc(k * sizeof *sv.med_s)};
    sv.v = pst_rounds_verdict(&an->R[s], k, &cfg->compare, sv.in_set, sv.med_s);
    sv.s = pst_sensitivity_of(sv.med_s, k);
    sv.max_mbytes_per_s = mbytes_per_s(an->bytes[s], an->nmsg[s], sv.s.min);
    return sv;
}

static swap_analysis analyse(const swap_cfg *cfg, const long long *nmsg, const pst_rounds *R)
{
    size_t nsizes = cfg->sizes.n, k = cfg->nprotocols;
    swap_analysis an = {.bytes = cfg->sizes.v, .nmsg = nmsg, .R = R, .key_bytes = pst_malloc(nsizes * sizeof *an.key_bytes),
                        .fits = pst_malloc(k * sizeof *an.fits), .labels = pst_malloc(k * sizeof *an.labels)};
    for (size_t pi = 0; pi < k; pi++) an.labels[pi] = cfg->protocols[pi]->code;
    /* segfit wants the points in ascending size order. */
    size_t *order = pst_malloc(nsizes * sizeof *order);
    for (size_t i = 0; i < nsizes; i++) order[i] = i;
    for (size_t i = 1; i < nsizes; i++)
        for (size_t j = i; j > 0 && an.bytes[order[j]] < an.bytes[order[j - 1]]; j--) {
            size_t t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (size_t i = 0; i < nsizes; i++) an.key_bytes[i] = an.bytes[order[i]];
    for (size_t pi = 0; pi < k; pi++) an.fits[pi] = fit_protocol(cfg, &an, order, pi);
    free(order);
    if (k >= 2) {
        an.verdicts = pst_malloc(nsizes * sizeof *an.verdicts);
        for (size_t s = 0; s < nsizes; s++) an.verdicts[s] = size_verdict(cfg, &an, s);
    }
    return an;
}

static void analysis_free(const swap_cfg *cfg, swap_analysis *an)
{
    if (an->verdicts)
        for (size_t s = 0; s < cfg->sizes.n; s++) {
            free(an->verdicts[s].in_set);
            free(an->verdicts[s].med_s);
        }
    free(an->verdicts);
    free(an->fits);
    free(an->labels);
    free(an->key_bytes);
}

static void print_cache(const swap_cfg *cfg, const cache_mode *cm, const swap_analysis *an)
{
    printf("\n== swap, transport %s, cache %s (%s), pairs %s (%d pair%s), %zu+ rounds (%s), statistic: median ==\n",
           cfg->transport, cm->name, cm->description, cfg->pairs_spec, cfg->npairs, cfg->npairs == 1 ? "" : "s",
           (size_t)cfg->reps, cfg->compare.schedule);
    if (cfg->streams > 1)
        printf("  %d streams per pair (tags 0-%d), %s: times = the streams' wall time / %d\n", cfg->streams, cfg->streams - 1,
               cfg->multiple ? "multiple: every thread calls MPI" : "funneled: the master runs all", cfg->streams);
    printf("  %-5s %-32s %10s %9s %8s %10s %10s  (piecewise by regime)\n", "code", "protocol", "peak MB/s", "at bytes",
           "alpha us", "beta MB/s", "max err");
    for (size_t pi = 0; pi < cfg->nprotocols; pi++) {
        const swap_protocol_fit *pf = &an->fits[pi];
        char fit[160];
        printf("  %-5s %-32s %10.1f %9lld %s\n", cfg->protocols[pi]->code, cfg->protocols[pi]->slug, pf->peak_mbytes_per_s,
               pf->peak_bytes, pst_segfit_text(&pf->fit, an->key_bytes, fit, sizeof fit));
    }
    if (an->verdicts) {
        printf("\n  protocol sensitivity summary (cache %s; each protocol's time = its median over rounds;\n"
               "  best set: protocols not slower than the best beyond %.0f %% at %.0f %% confidence)\n", cm->name,
               cfg->compare.margin * 100, cfg->compare.confidence * 100);
        printf("  %9s %6s %11s %9s %6s %6s %6s  %-12s %3s %3s %3s  %s\n", "bytes", "nmsg", "best s", "max MB/s", "mean",
               "median", "max", "level", "1%", "5%", "25%", "best set");
        for (size_t s = 0; s < cfg->sizes.n; s++) {
            const swap_size_verdict *sv = &an->verdicts[s];
            char ties[512];
            printf("  %9lld %6lld %11.4e %9.1f %6.2f %6.2f %6.2f  %-12s %3zu %3zu %3zu  %s\n", an->bytes[s], an->nmsg[s],
                   sv->s.min, sv->max_mbytes_per_s, sv->s.mean_rel, sv->v.median_rel, sv->s.max_rel, sv->v.level,
                   sv->s.within[0], sv->s.within[1], sv->s.within[2],
                   pst_tie_set(&sv->v, sv->in_set, an->labels, sv->med_s, ties, sizeof ties));
        }
        printf("  (mean, max: (x-best)/best over protocols' medians; median: paired; 1%%/5%%/25%%: protocols within that "
               "of the best)\n");
    }
    fflush(stdout);
}

/* The protocol summaries, then the sensitivity ones. */
static void emit_summaries(swap_cfg *cfg, const cache_mode *cm, const swap_analysis *an)
{
    size_t nsizes = cfg->sizes.n;
    for (size_t pi = 0; pi < cfg->nprotocols; pi++) {
        const pst_protocol *p = cfg->protocols[pi];
        const swap_protocol_fit *pf = &an->fits[pi];
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_swap_protocol);
        pst_rec_str(&r, "protocol", p->code);
        pst_rec_str(&r, "slug", p->slug);
        pst_rec_str(&r, "cache", cm->name);
        pst_rec_str(&r, "pair", cfg->pairs_spec);
        pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
        pst_rec_str(&r, "stat", "t_med");
        pst_rec_num(&r, "peak_mbytes_per_s", pf->peak_mbytes_per_s);
        pst_rec_int(&r, "peak_bytes", pf->peak_bytes);
        pst_rec_num(&r, "alpha_s", pf->alpha_s);
        pst_rec_num(&r, "beta_mbytes_per_s", pf->beta_mbytes_per_s);
        pst_rec_segfit(&r, &pf->fit, an->key_bytes);
        pst_rec_int(&r, "range_min_bytes", an->key_bytes[0]);
        pst_rec_int(&r, "range_max_bytes", an->key_bytes[nsizes - 1]);
        pst_rec_emit(&r, &cfg->ctx);
    }
    if (!an->verdicts) return;
    for (size_t s = 0; s < nsizes; s++) {
        const swap_size_verdict *sv = &an->verdicts[s];
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_swap_sensitivity);
        pst_rec_str(&r, "cache", cm->name);
        pst_rec_str(&r, "pair", cfg->pairs_spec);
        pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
        pst_rec_int(&r, "bytes", an->bytes[s]);
        pst_rec_int(&r, "nmsg", an->nmsg[s]);
        pst_rec_verdict(&r, &sv->v, sv->in_set, an->labels, &an->R[s], &cfg->compare, &cfg->ctx);
        pst_rec_int(&r, "nprotocols", (long long)cfg->nprotocols);
        pst_rec_num(&r, "min_s", sv->s.min);
        pst_rec_num(&r, "min_s_per_msg", sv->s.min / (double)an->nmsg[s]);
        pst_rec_num(&r, "max_mbytes_per_s", sv->max_mbytes_per_s);
        pst_rec_sensitivity(&r, &sv->s, sv->v.median_rel, an->labels);
        pst_rec_emit(&r, &cfg->ctx);
    }
}

static const cache_mode *find_cache_mode(const char *name)
{
    for (size_t i = 0; i < sizeof cache_modes / sizeof cache_modes[0]; i++)
        if (!strcmp(cache_modes[i].name, name)) return &cache_modes[i];
    return NULL;
}

/* --threads T: T streams per pair on the two-sided transport.  Buffered sends (0,0) share one
 * attached space per process, which only one thread at a time may use: not in mode multiple. */
static void validate_streams(swap_cfg *cfg)
{
    cfg->multiple = cfg->threads > 1 && pst_streams_multiple();
    cfg->threads = cfg->streams = pst_threads_resolve((int)cfg->threads, false, cfg->multiple, "--threads (mode multiple)");
    if (cfg->streams == 1) return;
    if (strcmp(cfg->transport, "mpi"))
        pst_usage_error("--threads %d: the streams are two-sided MPI messages; --transport %s is not (use --transport mpi)",
                        cfg->streams, cfg->transport);
    for (size_t i = 0; cfg->multiple && i < cfg->nprotocols; i++)
        if (!cfg->protocols[i]->ordered && cfg->protocols[i]->variant == 0)
            pst_usage_error("--threads %d: protocol %s (%s) sends buffered from one attached space per process, which threads "
                            "cannot share in mode multiple; leave it out, or pass --thread-level funneled", cfg->streams,
                            cfg->protocols[i]->code, cfg->protocols[i]->slug);
}

static void validate(void *p)
{
    swap_cfg *cfg = p;
    char err[512];
    pst_ctx *c = &cfg->ctx;
    pst_transport_require(cfg->transport);
    c->transport = cfg->transport;
    if (pst_protocol_parse_list(cfg->transport, cfg->protocols_spec, &cfg->protocols, &cfg->nprotocols, err, sizeof err))
        pst_usage_error("--protocols: %s", err);
    validate_streams(cfg);
    if (c->size < 2) pst_usage_error("swap needs at least 2 ranks (running on 1); start it with mpiexec -n 2 or more");

    pst_pairing pairing;
    if (pst_pairing_parse(cfg->pairs_spec, c->rank, c->size, &pairing, err, sizeof err)) pst_usage_error("%s", err);
    cfg->npairs = pairing.npairs;
    cfg->partner = pairing.partner;
    cfg->side = pairing.side;

    if (cfg->volume > 0) {
        if (cfg->sizes.n == 0) {
            /* Worley 2000: the volume as 1 ... 1024 messages. */
            long long v[11];
            size_t n = 0;
            for (long long k = 1024; k >= 1; k /= 2)
                if (cfg->volume % k == 0) v[n++] = cfg->volume / k;
            pst_int_list_set(&cfg->sizes, n, v);
        }
        for (size_t i = 0; i < cfg->sizes.n; i++)
            if (cfg->sizes.v[i] > cfg->volume || cfg->volume % cfg->sizes.v[i])
                pst_usage_error("--sizes: %lld does not divide --volume %lld", cfg->sizes.v[i], cfg->volume);
        if (cfg->volume > MAX_BYTES) pst_usage_error("--volume: %lld is out of range (allowed: 1 ... %d)", cfg->volume, MAX_BYTES);
        /* Refused before anything is allocated: each message is a transfer per protocol. */
        long long smallest = cfg->sizes.v[0];
        for (size_t i = 1; i < cfg->sizes.n; i++) smallest = cfg->sizes.v[i] < smallest ? cfg->sizes.v[i] : smallest;
        long long nmsg = cfg->volume / smallest;
        double state_bytes = (double)nmsg * (double)cfg->nprotocols * (double)sizeof(pst_xfer);
        if (nmsg > MAX_MESSAGES || state_bytes > MAX_XFER_STATE_BYTES)
            pst_usage_error("--volume %lld as messages of %lld bytes is %lld messages per exchange, %.3g GB of transfer state "
                            "per rank for %zu protocols (allowed: up to %d messages and %.3g GB)", cfg->volume, smallest, nmsg,
                            state_bytes / 1e9, cfg->nprotocols, MAX_MESSAGES, MAX_XFER_STATE_BYTES / 1e9);
    } else if (cfg->sizes.n == 0) {
        long long v[20];
        size_t n = 0;
        for (long long b = 8; b <= 4 << 20; b *= 2) v[n++] = b;
        pst_int_list_set(&cfg->sizes, n, v);
    }
    if (cfg->cache.n == 0) {
        cfg->cache.v = pst_malloc(sizeof *cfg->cache.v);
        cfg->cache.v[0] = pst_strdup("1");
        cfg->cache.n = 1;
    }
    long long largest = cfg->volume;
    for (size_t i = 0; i < cfg->sizes.n; i++) largest = cfg->sizes.v[i] > largest ? cfg->sizes.v[i] : largest;
    c->alloc_probe_bytes = (size_t)largest;
    int color = cfg->partner >= 0 ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, c->rank, &cfg->active);
    pst_compare_setup(&cfg->compare, c, cfg->reps, cfg->cache.n * cfg->sizes.n);
}

/* Messages per exchange at each size: volume / bytes with --volume, else 1. */
static void plan(void *p)
{
    swap_cfg *cfg = p;
    long long *nmsg = pst_malloc(cfg->sizes.n * sizeof *nmsg);
    for (size_t s = 0; s < cfg->sizes.n; s++) nmsg[s] = cfg->volume > 0 ? cfg->volume / cfg->sizes.v[s] : 1;
    cfg->now.nmsg = nmsg;
    cfg->now.R = pst_calloc(cfg->sizes.n, sizeof *cfg->now.R);
}

/* Every size at one cache state, each a set of the protocols in rounds.  Each set's points are
 * written as it ends, so a run that fails later keeps them.  Collective over MPI_COMM_WORLD. */
static void measure_cache(swap_cfg *cfg, const cache_mode *cm, const long long *nmsg, pst_rounds *R)
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

static void release(void *p)
{
    swap_cfg *cfg = p;
    free(cfg->now.R);
    free(cfg->now.nmsg);
    free(cfg->protocols);
    pst_transport_release(cfg->transport, MPI_COMM_WORLD);
    if (cfg->active != MPI_COMM_NULL) MPI_Comm_free(&cfg->active);
}

/* One cache state's measurement: every size's rounds. */
static void *measure_cache_set(void *p, size_t set)
{
    swap_cfg *cfg = p;
    swap_cache_set *cs = &cfg->now;
    cs->cm = find_cache_mode(cfg->cache.v[set]);
    measure_cache(cfg, cs->cm, cs->nmsg, cs->R);
    return cs;
}

static void *analyse_cache_set(const void *p, const void *data)
{
    const swap_cache_set *cs = data;
    swap_analysis *an = pst_malloc(sizeof *an);
    *an = analyse(p, cs->nmsg, cs->R);
    return an;
}

static void print_cache_set(const void *p, const void *data, const void *an)
{
    print_cache(p, ((const swap_cache_set *)data)->cm, an);
}

static void emit_cache_set(void *p, const void *data, const void *an)
{
    emit_summaries(p, ((const swap_cache_set *)data)->cm, an);
}

static void free_analysis(const void *p, void *an)
{
    analysis_free(p, an);
    free(an);
}

static void free_cache_set(void *p, void *data)
{
    const swap_cfg *cfg = p;
    swap_cache_set *cs = data;
    for (size_t s = 0; s < cfg->sizes.n; s++) pst_rounds_free(&cs->R[s]);
}

static size_t cache_states(const void *p) { return ((const swap_cfg *)p)->cache.n; }

static const char *const caches[] = {"cold", "1", "10", NULL};
static const swap_cfg default_cfg = {.protocols_spec = "all", .pairs_spec = "0,1", .transport = "mpi", .reps = 20, .warmup = 2,
                                     .compare = PST_COMPARE_DEFAULTS};
static swap_cfg run_cfg;
static const pst_opt opts[] = {
    {"protocols", PST_OPT_STRING, &run_cfg.protocols_spec, "LIST",
     "protocols by code (1,3) or slug (ordered.isend-irecv), or all|ordered|unordered|overlap|no-overlap|persistent", 1, 0, NULL, NULL},
    {"sizes", PST_OPT_SIZES, &run_cfg.sizes, "LIST",
     "message sizes in bytes: 64,1K or ranges 8:4M (doubling), 1K:64K:x4, 100:1000:+100", 1, MAX_BYTES, NULL, "8:4M; with --volume, volume/1024 ... volume"},
    {"volume", PST_OPT_SIZE, &run_cfg.volume, "BYTES",
     "fixed volume per exchange, split into volume/size messages (Worley 2000: 2M as 1...1024 messages); without it, one message of each size", 1, MAX_BYTES, NULL, NULL},
    {"cache", PST_OPT_STRINGS, &run_cfg.cache, "LIST", "cache states: cold (flushed), 1 (one exchange), 10 (mean of ten)", 1, 0, caches, "1"},
    {"pairs", PST_OPT_STRING, &run_cfg.pairs_spec, "I,J|all", "the pair I,J or all: rank i with i+P/2, all at once", 1, 0, NULL, NULL},
    PST_ROUNDS_OPTS(&run_cfg.reps, 1e7, &run_cfg.warmup, "exchanges", "a protocol"),
    PST_TRANSPORT_OPT(&run_cfg.transport, ""),
    PST_SAMPLES_OPT(&run_cfg.samples, "repetition"),
    PST_COMPARE_OPTS(&run_cfg.compare),
    PST_THREADS_OPT(&run_cfg.threads, ": each its own stream (tag = thread) of the exchanges between the pair; every "
                    "thread calls MPI (MPI_THREAD_MULTIPLE), or with --thread-level funneled the master runs all streams "
                    "as one batch; OMP_NUM_THREADS is not read"),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "swap",
    .summary = "Point-to-point SWAP protocol sweep: every protocol, message size and cache state, with the\n"
               "per-protocol bandwidth/latency model and the per-size protocol-sensitivity summary.",
    .description =
        "Times are per exchange (all messages both ways), the max over participating ranks of each\n"
        "round; the protocols of one size and cache state run in interleaved rounds (--schedule).  Records\n"
        "carry t_min/t_med/t_mean/t_max, the median's confidence interval and every round's time.\n"
        "Bandwidth is unidirectional, MB = 10^6 bytes.  The model T = nmsg*alpha + volume/beta is fitted to\n"
        "the per-size medians with relative weights; 'max err' is its largest relative error.  The best set\n"
        "holds the protocols the data cannot tell from the fastest (docs/statistics.md).  Payloads are verified.\n"
        "--threads T > 1: T streams per pair (stream s on tag s, its own buffers); times are the streams' wall\n"
        "time / T, bandwidths their aggregate.",
    .examples = "  mpiexec -n 2 pstswm swap --protocols 1,0,0,6,ordered.isend-irecv --sizes 8:4M --out swap.jsonl\n"
                "  mpiexec -n 2 pstswm swap --volume 2M --cache cold,1,10          # Worley 2000's split-volume study\n"
                "  mpiexec -n 8 pstswm swap --pairs all --protocols ordered --sizes 1K,64K,1M\n"
                "  mpiexec -n 2 pstswm swap --transport rma --protocols all --sizes 8K,128K,2M",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("swap");
static const pst_schema *const schemas[] = {&pst_schema_swap_header, &pst_schema_swap_point, &pst_schema_swap_protocol,
                                            &pst_schema_swap_sensitivity, &footer, NULL};

const pst_subcommand pst_subcommand_swap = {
    .name = "swap",
    .summary = "point-to-point SWAP protocol sweep with protocol-sensitivity summary",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .validate = validate,
    .plan = plan,
    .nsets = cache_states,
    .measure = measure_cache_set,
    .analyse = analyse_cache_set,
    .print = print_cache_set,
    .emit = emit_cache_set,
    .analysis_free = free_analysis,
    .set_free = free_cache_set,
    .release = release,
};
