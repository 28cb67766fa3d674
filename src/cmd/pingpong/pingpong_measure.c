/* pstswm pingpong's measurement, every rank: each mode's timed loops of round trips (or
 * exchanges) at one (direction, size), the modes in interleaved rounds, payloads written before
 * and checked after every loop; each pair's minimum gathered to rank 0; then --loggp. */
#include "cmd/pingpong/pingpong_impl.h"

#include "cmd/pingpong/loggp.h"
#include "core/alloc.h"
#include "core/errors.h"
#include "runtime/wait.h"
#include "runtime/payload.h"
#include "runtime/timer.h"
#include "runtime/watchdog.h"
#include "stats/verdict.h"

#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* Auto iteration count: one sample lasts about this long. */
static const double TARGET_SAMPLE_S = 2e-3;

/* One timed loop of `iters` round trips (uni) or exchanges (bi); returns elapsed seconds.
 * Only MPI calls inside the loop (MPI_COMM_WORLD's error handler aborts on failure).  Always
 * inlined with a constant k (see timed_loop), so each mode gets its own loop with no dispatch. */
static inline __attribute__((always_inline)) double loop_of(const send_kind k, const pp_cfg *cfg, pst_xfer *x,
                                                            bool bidir, int n, long long iters)
{
    double t0 = pst_now_s();
    if (k == K_PROTOCOL) {
        for (long long i = 0; i < iters; i++) pst_xfer_run(x, 1);
    } else {
        pst_stream_loop((pst_send_kind)k, cfg->pairing.side == PST_SIDE_A, bidir, cfg->sbuf, cfg->rbuf, n,
                        cfg->pairing.partner, TAG, cfg->comm, iters);
    }
    return pst_now_s() - t0;
}

static double timed_loop(const pp_cfg *cfg, const pp_mode *m, pst_xfer *x, bool bidir, int n, long long iters)
{
    if (cfg->streams.n > 1)
        return pst_streams_pingpong(&cfg->streams, (pst_send_kind)m->kind, cfg->pairing.side == PST_SIDE_A, bidir, n,
                                    cfg->pairing.partner, cfg->comm, iters);
    switch (m->kind) {
    case K_SEND: return loop_of(K_SEND, cfg, x, bidir, n, iters);
    case K_SSEND: return loop_of(K_SSEND, cfg, x, bidir, n, iters);
    case K_ISEND: return loop_of(K_ISEND, cfg, x, bidir, n, iters);
    case K_BSEND: return loop_of(K_BSEND, cfg, x, bidir, n, iters);
    case K_PROTOCOL: break;
    }
    return loop_of(K_PROTOCOL, cfg, x, bidir, n, iters);
}

/* One comparison: every mode at one (direction, size), in rounds.  A mode's first turn runs
 * its warm-up (whose second half sizes the loop with --iters auto, the same for all pairs);
 * every later turn re-warms it with one untimed round trip, since the turn before ran another
 * mode.  Payloads are written before and checked after each timed loop. */
typedef struct pp_set {
    pp_cfg *cfg;
    bool bidir;
    long long bytes, point_id;
    pst_xfer *x;             /* [mode] (protocol modes) */
    long long *iters;        /* [mode] */
    double **local;          /* [mode][round] this rank's value */
    size_t cap;
    long long *corrupted;    /* [mode] */
} pp_set;

static int nstreams(const pp_cfg *cfg) { return cfg->streams.n > 1 ? cfg->streams.n : 1; }

/* Before a timed loop: this rank's messages written (every stream's own), the receive buffers poisoned. */
static void fill_payloads(const pp_cfg *cfg, const pp_set *S, long long rep)
{
    if (cfg->streams.n > 1) {
        pst_streams_fill(&cfg->streams, (size_t)S->bytes, cfg->ctx.rank, S->point_id, rep);
        return;
    }
    pst_payload_fill(cfg->sbuf, (size_t)S->bytes, pst_payload_seed(cfg->ctx.rank, S->point_id, rep));
    pst_payload_poison(cfg->rbuf, (size_t)S->bytes);
}

/* After it: the corrupted words of what the partner sent. */
static long long check_payloads(const pp_cfg *cfg, const pp_set *S, long long rep)
{
    if (cfg->streams.n > 1)
        return pst_streams_check(&cfg->streams, (size_t)S->bytes, cfg->pairing.partner, S->point_id, rep);
    size_t first;
    return (long long)pst_payload_check(cfg->rbuf, (size_t)S->bytes,
                                        pst_payload_seed(cfg->pairing.partner, S->point_id, rep), &first);
}

static double pp_turn(void *arg, size_t mi, size_t round)
{
    pp_set *S = arg;
    pp_cfg *cfg = S->cfg;
    const pst_ctx *c = &cfg->ctx;
    if (round >= S->cap) {
        S->cap = 2 * round + 16;
        for (size_t i = 0; i < cfg->nmodes; i++) S->local[i] = pst_realloc(S->local[i], S->cap * sizeof **S->local);
    }
    S->local[mi][round] = NAN;
    if (cfg->pairing.partner < 0) return 0;
    const pp_mode *m = &cfg->modes[mi];
    const int n = (int)S->bytes, per_iter = S->bidir ? 1 : 2; /* messages per iteration on one path */
    pst_xfer *x = &S->x[mi];
    if (round == 0) {
        long long w = cfg->warmup > 1 || S->iters[mi] > 0 ? cfg->warmup : 2, w_timed = w / 2;
        MPI_Barrier(cfg->active);
        timed_loop(cfg, m, x, S->bidir, n, w - w_timed);
        double warm_s = timed_loop(cfg, m, x, S->bidir, n, w_timed), per_s;
        if (S->iters[mi] == 0) {
            MPI_Allreduce(&warm_s, &per_s, 1, MPI_DOUBLE, MPI_MAX, cfg->active);
            S->iters[mi] = pst_iters_for(per_s / (double)w_timed, TARGET_SAMPLE_S, 1, 1000000);
        }
    } else {
        timed_loop(cfg, m, x, S->bidir, n, 1);
    }
    const bool verify = !c->no_verify;
    long long rep = (long long)(round * cfg->nmodes + mi);
    if (verify) fill_payloads(cfg, S, rep);
    MPI_Barrier(cfg->active);
    /* Time per message: with T streams, the wall time of all their messages over T. */
    double t = timed_loop(cfg, m, x, S->bidir, n, S->iters[mi]) / (double)S->iters[mi] / per_iter / nstreams(cfg);
    if (verify) S->corrupted[mi] += check_payloads(cfg, S, rep);
    S->local[mi][round] = t;
    /* The slowest pair: uni counts the initiator's clock only (as in Hunold's and Worley's
     * ping-pongs), bi the slower side. */
    return S->bidir || cfg->pairing.side == PST_SIDE_A ? t : 0;
}

/* Each pair's min over rounds (its initiator's clock, or the slower side for bi), gathered to
 * rank 0 without spinning. */
static void pair_minima(pp_set *S, size_t mi, size_t nrounds, pp_point *out)
{
    pp_cfg *cfg = S->cfg;
    const pst_ctx *c = &cfg->ctx;
    double *all = c->rank == 0 ? pst_malloc((size_t)c->size * nrounds * sizeof *all) : NULL;
    long long iters_max = 0;
    MPI_Request req[2];
    MPI_Igather(S->local[mi], (int)nrounds, MPI_DOUBLE, all, (int)nrounds, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Ireduce(&S->iters[mi], &iters_max, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD, &req[1]);
    pst_wait_sleeping(2, req);
    if (c->rank == 0) {
        out->iters = iters_max;
        for (int p = 0; p < cfg->pairing.npairs; p++) {
            out->pair_tmin[p] = INFINITY;
            size_t a = (size_t)pst_pairing_rank(cfg->pairs_spec, c->size, p, PST_SIDE_A);
            size_t b = (size_t)pst_pairing_rank(cfg->pairs_spec, c->size, p, PST_SIDE_B);
            for (size_t r = 0; r < nrounds; r++) {
                double ta = all[a * nrounds + r], tb = all[b * nrounds + r];
                out->pair_tmin[p] = fmin(out->pair_tmin[p], S->bidir ? fmax(ta, tb) : ta);
            }
        }
    }
    free(all);
}

/* Measure every mode at one (direction, size); fills pts[mode] and R.  Collective over
 * MPI_COMM_WORLD; the ranks that sit out only join the gathering (sleeping). */
static void measure_set(pp_cfg *cfg, bool bidir, long long bytes, long long point_id, pp_point **pts, size_t s,
                        pst_rounds *R)
{
    size_t nm = cfg->nmodes;
    pp_set S = {.cfg = cfg, .bidir = bidir, .bytes = bytes, .point_id = point_id, .x = pst_calloc(nm, sizeof *S.x),
                .iters = pst_malloc(nm * sizeof *S.iters), .local = pst_calloc(nm, sizeof *S.local),
                .corrupted = pst_calloc(nm, sizeof *S.corrupted)};
    for (size_t mi = 0; mi < nm; mi++) {
        S.iters[mi] = cfg->iters;
        if (cfg->modes[mi].kind == K_PROTOCOL && cfg->pairing.partner >= 0) {
            pst_xfer_init(&S.x[mi], cfg->modes[mi].proto, cfg->comm, cfg->pairing.partner, cfg->pairing.partner,
                          cfg->pairing.side, cfg->sbuf, cfg->rbuf, (size_t)bytes, 0);
            pst_xfer_prepare(&S.x[mi]); /* persistent protocols: outside every timing */
        }
    }
    pst_rounds_run(R, &cfg->rounds, nm, cfg->reps, pp_turn, &S);
    MPI_Allreduce(MPI_IN_PLACE, S.corrupted, (int)nm, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (size_t mi = 0; mi < nm; mi++)
        if (S.corrupted[mi])
            pst_collective_exit(PST_EXIT_FAILED,
                                "payload verification failed: mode %s, %s, %lld bytes: %lld corrupted words",
                                cfg->modes[mi].name, bidir ? "bi" : "uni", bytes, S.corrupted[mi]);
    for (size_t mi = 0; mi < nm; mi++) {
        pp_point *pt = &pts[mi][s];
        pair_minima(&S, mi, R->n, pt);
        free(pt->samples);
        pt->samples = pst_malloc(R->n * sizeof *pt->samples);
        memcpy(pt->samples, R->t[mi], R->n * sizeof *pt->samples);
        pt->nsamples = R->n;
        pt->t = pst_summarize(pt->samples, R->n);
        double lo, hi, med = pst_median_ci(pt->samples, R->n, cfg->rounds.confidence, &lo, &hi);
        pt->ci[0] = lo;
        pt->ci[1] = hi;
        pt->precise = isfinite(lo) && (hi - lo) / 2 <= cfg->rounds.precision * med;
        free(S.local[mi]);
    }
    for (size_t mi = 0; mi < nm; mi++)
        if (S.x[mi].proto) pst_xfer_free(&S.x[mi]);
    free(S.x);
    free(S.iters);
    free(S.local);
    free(S.corrupted);
}

void *pst_pingpong_measure_direction(void *p, size_t set)
{
    pp_cfg *cfg = p;
    pp_direction *d = cfg->now;
    d->bidir = !strcmp(cfg->directions.v[set], "bi");
    for (size_t s = 0; s < cfg->sizes.n; s++) {
        long long bytes = cfg->sizes.v[s];
        pst_watchdog_phase("pingpong %s bytes %lld pairs %s (%zu modes in rounds)", d->bidir ? "bi" : "uni", bytes,
                           cfg->pairs_spec, cfg->nmodes);
        measure_set(cfg, d->bidir, bytes, cfg->point_id++, d->pts, s, &d->R[s]);
    }
    return d;
}

void pst_pingpong_free_direction(void *p, void *data)
{
    const pp_cfg *cfg = p;
    pp_direction *d = data;
    for (size_t s = 0; s < cfg->sizes.n; s++) pst_rounds_free(&d->R[s]);
}

/* --loggp: the LogGP parameters over the sizes but 0 B, after the modes. */
void pst_pingpong_measure_loggp(void *p)
{
    pp_cfg *cfg = p;
    size_t nsizes = cfg->sizes.n;
    if (!cfg->loggp) return;
    pst_watchdog_phase("pingpong --loggp (PRTT round trips)");
    pst_loggp_run run = {.comm = cfg->active,
                         .partner = cfg->pairing.partner,
                         .side = cfg->pairing.side,
                         .n = cfg->loggp_n,
                         .reps = cfg->reps,
                         .sizes = cfg->sizes.v + 1,
                         .nsizes = nsizes - 1,
                         .sbuf = cfg->sbuf,
                         .rbuf = cfg->rbuf,
                         .confidence = cfg->rounds.confidence};
    if (run.nsizes) pst_loggp(&cfg->ctx, &run);
}
