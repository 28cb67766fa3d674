/* pstswm pingpong: half round-trip time and bandwidth against message size (Frese & Knipp 1998 §5.1).
 *
 * Side A of a pair sends a message, side B receives it and sends one of the same size back;
 * the half round trip is the time of a loop of round trips on side A divided by twice their
 * number.  One sample = one timed loop; --reps samples per point give t_min/t_med/t_mean/t_max.
 * The timed loop holds nothing but the MPI calls: payloads are written before and checked after
 * each loop, never inside it.  Modes are the MPI send modes (send, ssend, isend, bsend) or any
 * ordered SWAP protocol of the catalogue (an ordered exchange is a round trip).  --transport
 * picks the catalogue: under a one-sided transport (rma, shmem) the modes are its ordered
 * protocols only (the MPI send modes are refused: they are calls of two-sided MPI), its area is
 * set up once for the largest size before any timing, and bidirectional runs are refused.
 * Bidirectional runs (--direction bi) have both sides send at once: receive posted, send,
 * wait.  With --pairs all, every pair runs at once and a sample is the slowest pair's.
 * Per mode: zero-byte latency, peak bandwidth and the fit T(N) = t_l + N·t_s over a window of
 * large messages (Frese & Knipp 1998: 1-2 MB) with its residuals. */
#include "cmd/buffer.h"
#include "cmd/frame.h"
#include "cmd/latbw.h"
#include "cmd/loggp.h"
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
#include "run/idle.h"
#include "run/payload.h"
#include "run/run_schema.h"
#include "run/threads.h"
#include "run/timer.h"
#include "run/watchdog.h"
#include "stats/segfit.h"
#include "stats/stats.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bsend needs room for two messages in flight: 2·(MAX_BYTES + overhead) must fit in an int. */
enum { MAX_BYTES = 1 << 29, TAG = 7 };
/* Auto iteration count: one sample lasts about this long. */
static const double TARGET_SAMPLE_S = 2e-3;

typedef enum send_kind { K_SEND = PST_KIND_SEND, K_SSEND = PST_KIND_SSEND, K_ISEND = PST_KIND_ISEND, K_BSEND = PST_KIND_BSEND, K_PROTOCOL } send_kind;

typedef struct pp_mode {
    char name[48];             /* record field `mode`: send, ssend, isend, bsend or a protocol code */
    send_kind kind;
    const pst_protocol *proto; /* K_PROTOCOL: the ordered catalogue protocol */
    const char *protocol;      /* catalogue code with the same message pattern, or NULL */
    const char *recipe;
} pp_mode;

static const pp_mode native_modes[] = {
    {"send", K_SEND, NULL, "1,0", "A: MPI_Send, MPI_Recv / B: MPI_Recv, MPI_Send"},
    {"ssend", K_SSEND, NULL, "1,10", "A: MPI_Ssend, MPI_Recv / B: MPI_Recv, MPI_Ssend"},
    {"isend", K_ISEND, NULL, NULL, "A: MPI_Isend, MPI_Recv, MPI_Wait / B: MPI_Recv, MPI_Isend, MPI_Wait"},
    {"bsend", K_BSEND, NULL, NULL, "A: MPI_Bsend, MPI_Recv / B: MPI_Recv, MPI_Bsend (attached buffer)"},
};
enum { NNATIVE = sizeof native_modes / sizeof native_modes[0] };

typedef struct pp_cfg {
    pst_ctx ctx;
    const char *modes_spec, *pairs_spec, *transport;
    pst_int_list sizes;
    pst_str_list directions;
    long long reps, warmup, iters, fit_from, fit_to, loggp_n, threads;
    bool samples, loggp;
    pst_compare_opts compare;
    /* derived */
    pp_mode *modes;
    size_t nmodes;
    pst_pairing pairing;
    MPI_Comm comm;   /* duplicate of MPI_COMM_WORLD for the measured traffic */
    MPI_Comm active; /* the ranks in a pair (barriers, agreement on iteration counts) */
    unsigned char *sbuf, *rbuf;
    void *bsend_space;
    const char *win_model; /* memory model of a one-sided transport's window, NULL if none */
    pst_streams streams;      /* --threads T > 1: T streams between the pair, n = 0 otherwise */
    struct pp_direction *now; /* the set being measured: one direction at every size */
    long long point_id;       /* of the next (direction, size) measured */
} pp_cfg;

/* The MPI send modes are calls of the two-sided transport. */
static bool two_sided(const pp_cfg *cfg) { return !strcmp(cfg->transport, "mpi"); }

typedef struct pp_point {
    pst_summary t;      /* seconds: half round trip (uni) or time per exchange (bi); slowest pair */
    double *samples;    /* [rounds] per-round value of the slowest pair */
    size_t nsamples;
    double ci[2];       /* the median's interval */
    bool precise;
    double *pair_tmin;  /* [npairs] each pair's min over rounds */
    long long iters;
} pp_point;

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
    if (cfg->streams.n > 1) return pst_streams_check(&cfg->streams, (size_t)S->bytes, cfg->pairing.partner, S->point_id, rep);
    size_t first;
    return (long long)pst_payload_check(cfg->rbuf, (size_t)S->bytes, pst_payload_seed(cfg->pairing.partner, S->point_id, rep),
                                        &first);
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
static void measure_set(pp_cfg *cfg, bool bidir, long long bytes, long long point_id, pp_point **pts, size_t s, pst_rounds *R)
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
    pst_rounds_run(R, &cfg->compare, nm, cfg->reps, pp_turn, &S);
    MPI_Allreduce(MPI_IN_PLACE, S.corrupted, (int)nm, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (size_t mi = 0; mi < nm; mi++)
        if (S.corrupted[mi])
            pst_collective_exit(PST_EXIT_FAILED, "payload verification failed: mode %s, %s, %lld bytes: %lld corrupted words",
                                cfg->modes[mi].name, bidir ? "bi" : "uni", bytes, S.corrupted[mi]);
    for (size_t mi = 0; mi < nm; mi++) {
        pp_point *pt = &pts[mi][s];
        pair_minima(&S, mi, R->n, pt);
        free(pt->samples);
        pt->samples = pst_malloc(R->n * sizeof *pt->samples);
        memcpy(pt->samples, R->t[mi], R->n * sizeof *pt->samples);
        pt->nsamples = R->n;
        pt->t = pst_summarize(pt->samples, R->n);
        double lo, hi, med = pst_median_ci(pt->samples, R->n, cfg->compare.confidence, &lo, &hi);
        pt->ci[0] = lo;
        pt->ci[1] = hi;
        pt->precise = isfinite(lo) && (hi - lo) / 2 <= cfg->compare.precision * med;
        free(S.local[mi]);
    }
    for (size_t mi = 0; mi < nm; mi++)
        if (S.x[mi].proto) pst_xfer_free(&S.x[mi]);
    free(S.x);
    free(S.iters);
    free(S.local);
    free(S.corrupted);
}

/* One direction at every size: each mode's points and every size's rounds. */
typedef struct pp_direction {
    bool bidir;
    pp_point **pts;          /* [mode][size] */
    pst_rounds *R;           /* [size] */
} pp_direction;

/* The modes at one (direction, size) as a verdict: which send mode is fastest. */
typedef struct pp_modes_verdict {
    pst_verdict v;
    bool *in_set;            /* [mode] */
    double *med_s;           /* [mode] */
} pp_modes_verdict;

static pp_modes_verdict modes_verdict(const pp_cfg *cfg, const pst_rounds *R)
{
    size_t k = cfg->nmodes;
    pp_modes_verdict mv = {.in_set = pst_malloc(k * sizeof *mv.in_set), .med_s = pst_malloc(k * sizeof *mv.med_s)};
    mv.v = pst_rounds_verdict(R, k, &cfg->compare, mv.in_set, mv.med_s);
    return mv;
}

static void emit_modes_verdict(pp_cfg *cfg, bool bidir, long long bytes, const pst_rounds *R, const pp_modes_verdict *mv,
                               const char *const *labels)
{
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_pingpong_modes);
    pst_rec_str(&r, "direction", bidir ? "bi" : "uni");
    pst_rec_int(&r, "bytes", bytes);
    pst_rec_str(&r, "pair", cfg->pairs_spec);
    pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
    pst_rec_verdict(&r, &mv->v, mv->in_set, labels, R, &cfg->compare, &cfg->ctx);
    pst_rec_num(&r, "median_rel", mv->v.median_rel);
    pst_rec_emit(&r, &cfg->ctx);
}

static void print_modes_verdict(bool bidir, long long bytes, const pp_modes_verdict *mv, const char *const *labels)
{
    char ties[512];
    printf("  %10lld %-4s %12.3f  %-12s %s\n", bytes, bidir ? "bi" : "uni", mv->v.best_median * 1e6, mv->v.level,
           pst_tie_set(&mv->v, mv->in_set, labels, mv->med_s, ties, sizeof ties));
}

static double mbytes_per_s(long long bytes, double t_s) { return (double)bytes / t_s / 1e6; }

static const char *t_is(const pp_cfg *cfg, bool bidir)
{
    if (cfg->streams.n > 1)
        return bidir ? "time per message: an exchange's time over the streams (all streams at once, both directions)"
                     : "time per message: half a round trip's time over the streams (all streams at once)";
    return bidir ? "time per exchange (both directions at once)" : "half round trip";
}

static void emit_point(pp_cfg *cfg, const pp_mode *m, bool bidir, long long bytes, const pp_point *pt, double resid)
{
    int np = cfg->pairing.npairs, dirs = bidir ? 2 : 1;
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_pingpong_point);
    pst_rec_str(&r, "mode", m->name);
    pst_rec_str(&r, "protocol", m->protocol);
    pst_rec_str(&r, "slug", m->proto ? m->proto->slug : NULL);
    pst_rec_str(&r, "win_model", cfg->win_model);
    pst_rec_str(&r, "direction", bidir ? "bi" : "uni");
    pst_rec_int(&r, "bytes", bytes);
    pst_rec_str(&r, "pair", cfg->pairs_spec);
    pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
    pst_rec_int(&r, "npairs", np);
    pst_rec_times(&r, &pt->t);
    pst_rec_str(&r, "stat", "t_med");
    pst_rec_num(&r, "ci_low", pt->ci[0]);
    pst_rec_num(&r, "ci_high", pt->ci[1]);
    pst_rec_int(&r, "rounds", (long long)pt->nsamples);
    pst_rec_bool(&r, "precision_reached", pt->precise);
    pst_rec_nums_compact(&r, "round_s", pt->samples, pt->nsamples);
    pst_rec_str(&r, "t_is", t_is(cfg, bidir));
    if (cfg->streams.n > 1) {
        pst_rec_int(&r, "threads", cfg->streams.n);
        pst_rec_str(&r, "thread_mode", pst_streams_mode_name(cfg->streams.multiple));
        pst_rec_num(&r, "msgs_per_s", dirs / pt->t.median);
    }
    pst_rec_int(&r, "iters", pt->iters);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_num(&r, "mbytes_per_s", mbytes_per_s(bytes, pt->t.min));
    pst_rec_num(&r, "mbytes_per_s_med", mbytes_per_s(bytes, pt->t.median));
    pst_rec_num(&r, "mbytes_per_s_aggregate", mbytes_per_s(bytes * np * dirs, pt->t.min));
    if (np > 1) {
        double *bw = pst_malloc((size_t)np * sizeof *bw);
        for (int p = 0; p < np; p++) bw[p] = mbytes_per_s(bytes, pt->pair_tmin[p]);
        pst_rec_nums(&r, "pair_t_min", pt->pair_tmin, (size_t)np);
        pst_rec_nums(&r, "pair_mbytes_per_s", bw, (size_t)np);
        free(bw);
    }
    if (isfinite(resid)) pst_rec_num(&r, "fit_residual_s", resid);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    if (cfg->samples) pst_rec_nums(&r, "samples", pt->samples, pt->nsamples);
    pst_rec_emit(&r, &cfg->ctx);
}

/* Per mode and direction: the table, the zero-byte latency, the peak and the large-message fit. */
/* What one mode's sizes say: the window fit of t_min (Frese & Knipp's t_l + N t_s) with its
 * residuals, and the piecewise fit of t_med over all sizes by protocol regime. */
typedef struct pp_analysis {
    double *tmin, *resid;    /* [nsizes]; resid NaN outside the window */
    pst_latbw a;
    bool window_ok;          /* a positive latency and bandwidth and a small error */
    double bw_fit;           /* bytes/s, NaN without a fit */
    pst_segfit pw;
} pp_analysis;

static pp_analysis analyse(const pp_cfg *cfg, size_t nsizes, const long long *bytes, const pp_point *pts)
{
    pp_analysis an = {.tmin = pst_malloc(nsizes * sizeof *an.tmin), .resid = pst_malloc(nsizes * sizeof *an.resid)};
    for (size_t i = 0; i < nsizes; i++) an.tmin[i] = pts[i].t.min;
    an.a = pst_latbw_analyse(nsizes, bytes, an.tmin, cfg->fit_from, cfg->fit_to, an.resid);
    const pst_latbw *a = &an.a;
    an.bw_fit = a->fitted && a->fit.coef[1] > 0 ? 1.0 / a->fit.coef[1] : NAN;
    an.window_ok = a->fitted && a->fit.coef[0] >= 0 && a->fit.coef[1] > 0 && a->max_rel_resid <= PST_SEGFIT_MAX_ERR;
    double *X = pst_malloc(2 * nsizes * sizeof *X), *tmed = pst_malloc(nsizes * sizeof *tmed);
    for (size_t i = 0; i < nsizes; i++) {
        X[2 * i] = 1;
        X[2 * i + 1] = (double)bytes[i];
        tmed[i] = pts[i].t.median;
    }
    an.pw = pst_segfit_run(nsizes, X, tmed, bytes, cfg->compare.confidence);
    free(X);
    free(tmed);
    return an;
}

static void emit_mode(pp_cfg *cfg, const pp_mode *m, bool bidir, size_t nsizes, const long long *bytes, const pp_point *pts,
                      const pp_analysis *an)
{
    const pst_latbw *a = &an->a;
    for (size_t i = 0; i < nsizes; i++) emit_point(cfg, m, bidir, bytes[i], &pts[i], an->resid[i]);
    double *fit_bytes = pst_malloc(nsizes * sizeof *fit_bytes), *fit_resid = pst_malloc(nsizes * sizeof *fit_resid);
    size_t nf = 0;
    for (size_t i = 0; i < nsizes; i++)
        if (isfinite(an->resid[i])) { fit_bytes[nf] = (double)bytes[i]; fit_resid[nf++] = an->resid[i]; }
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_pingpong_latbw);
    pst_rec_str(&r, "mode", m->name);
    pst_rec_str(&r, "protocol", m->protocol);
    pst_rec_str(&r, "slug", m->proto ? m->proto->slug : NULL);
    pst_rec_str(&r, "win_model", cfg->win_model);
    pst_rec_str(&r, "direction", bidir ? "bi" : "uni");
    pst_rec_str(&r, "pair", cfg->pairs_spec);
    pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
    pst_rec_int(&r, "npairs", cfg->pairing.npairs);
    pst_rec_str(&r, "stat", "t_min");
    pst_rec_num(&r, "latency0_s", pts[0].t.min);
    pst_rec_num(&r, "latency0_med_s", pts[0].t.median);
    pst_rec_num(&r, "peak_mbytes_per_s", a->peak_bytes_per_s / 1e6);
    pst_rec_int(&r, "peak_bytes", a->peak_bytes_per_s > 0 ? bytes[a->peak] : 0);
    pst_rec_num(&r, "peak_t_s", a->peak_bytes_per_s > 0 ? an->tmin[a->peak] : NAN);
    pst_rec_int(&r, "fit_from_bytes", cfg->fit_from);
    pst_rec_int(&r, "fit_to_bytes", cfg->fit_to);
    pst_rec_int(&r, "fit_npoints", (long long)a->npoints);
    pst_rec_num(&r, "t_l_s", a->fitted ? a->fit.coef[0] : NAN);
    pst_rec_nums(&r, "t_l_ci95", a->fitted ? a->t_l_ci95 : (double[]){NAN, NAN}, 2);
    pst_rec_num(&r, "t_s_s_per_byte", a->fitted ? a->fit.coef[1] : NAN);
    pst_rec_nums(&r, "t_s_ci95", a->fitted ? a->t_s_ci95 : (double[]){NAN, NAN}, 2);
    pst_rec_num(&r, "fit_mbytes_per_s", an->bw_fit / 1e6);
    pst_rec_num(&r, "r2", a->fitted ? a->fit.r2 : NAN);
    pst_rec_nums(&r, "fit_bytes", fit_bytes, nf);
    pst_rec_nums(&r, "fit_residuals_s", fit_resid, nf);
    pst_rec_num(&r, "fit_max_rel_residual", a->fitted ? a->max_rel_resid : NAN);
    pst_rec_bool(&r, "window_fit_ok", an->window_ok);
    pst_rec_segfit(&r, &an->pw, bytes);
    pst_rec_emit(&r, &cfg->ctx);
    free(fit_bytes);
    free(fit_resid);
}

static void print_mode(const pp_cfg *cfg, const pp_mode *m, bool bidir, size_t nsizes, const long long *bytes,
                       const pp_point *pts, const pp_analysis *an)
{
    const pst_latbw *a = &an->a;
    int np = cfg->pairing.npairs;
    printf("\n== pingpong %s (%s), transport %s, %s, pairs %s (%d pair%s), %lld+ rounds per size ==\n", m->name,
           m->recipe, cfg->transport, bidir ? "bidirectional: t = time per simultaneous exchange" : "unidirectional: t = half round trip",
           cfg->pairs_spec, np, np == 1 ? "" : "s", cfg->reps);
    if (cfg->streams.n > 1)
        printf("  %d streams per pair (tags 0-%d), %s: t = time per message = the streams' wall time / %d\n", cfg->streams.n,
               cfg->streams.n - 1, cfg->streams.multiple ? "multiple: every thread calls MPI" : "funneled: the master drives all",
               cfg->streams.n);
    printf("  %10s %8s %10s %10s %10s %10s", "bytes", "iters", "t_min us", "t_med us", "MB/s min", "MB/s med");
    if (np > 1 || bidir) printf(" %11s", "aggr MB/s");
    printf(" %10s\n", "fit resid");
    for (size_t i = 0; i < nsizes; i++) {
        printf("  %10lld %8lld %10.3f %10.3f %10.1f %10.1f", bytes[i], pts[i].iters, pts[i].t.min * 1e6,
               pts[i].t.median * 1e6, mbytes_per_s(bytes[i], pts[i].t.min), mbytes_per_s(bytes[i], pts[i].t.median));
        if (np > 1 || bidir) printf(" %11.1f", mbytes_per_s(bytes[i] * np * (bidir ? 2 : 1), pts[i].t.min));
        if (isfinite(an->resid[i])) printf(" %+9.2f%%\n", 100 * an->resid[i] / an->tmin[i]);
        else printf(" %10s\n", "");
    }
    /* 0 B is always the first size (validate() adds it). */
    printf("  zero-byte latency: %.3f us (min over samples), %.3f us (median)\n", pts[0].t.min * 1e6, pts[0].t.median * 1e6);
    if (a->peak_bytes_per_s > 0)
        printf("  peak bandwidth: %.1f MB/s at %lld bytes, where t = %.3f us (min over samples)\n", a->peak_bytes_per_s / 1e6,
               bytes[a->peak], an->tmin[a->peak] * 1e6);
    if (a->fitted)
        printf("  fit T(N) = t_l + N*t_s over %lld ... %lld bytes (%zu sizes, t_min): %st_l = %.3f us [95%% CI %.3f, %.3f], "
               "1/t_s = %.1f MB/s, r2 = %.6f, max |residual| = %.3f us (%.2f%%)\n",
               cfg->fit_from, cfg->fit_to, a->npoints, an->window_ok ? "" : "FIT NOT OK: ", a->fit.coef[0] * 1e6,
               a->t_l_ci95[0] * 1e6, a->t_l_ci95[1] * 1e6, an->bw_fit / 1e6, a->fit.r2, a->max_abs_resid_s * 1e6,
               a->max_rel_resid * 100);
    else
        printf("  fit T(N) = t_l + N*t_s: not done, %zu size%s in the window %lld ... %lld bytes (needs 2)\n", a->npoints,
               a->npoints == 1 ? "" : "s", cfg->fit_from, cfg->fit_to);
    char pw_text[160];
    printf("  piecewise T(N) = t_l + N*t_s over all sizes (t_med): t_l us, 1/t_s MB/s, max err: %s\n",
           pst_segfit_text(&an->pw, bytes, pw_text, sizeof pw_text));
    fflush(stdout);
}

/* One direction's analysis: each mode's fits, and with two modes or more the verdict per size. */
typedef struct pp_direction_analysis {
    pp_analysis *modes;          /* [mode] */
    pp_modes_verdict *verdicts;  /* [size]; NULL with one mode: nothing to compare */
    const char **labels;         /* [mode] */
} pp_direction_analysis;

static void *analyse_direction(const void *p, const void *data)
{
    const pp_cfg *cfg = p;
    const pp_direction *d = data;
    size_t nsizes = cfg->sizes.n, nm = cfg->nmodes;
    pp_direction_analysis *an = pst_calloc(1, sizeof *an);
    an->modes = pst_malloc(nm * sizeof *an->modes);
    an->labels = pst_malloc(nm * sizeof *an->labels);
    for (size_t mi = 0; mi < nm; mi++) {
        an->modes[mi] = analyse(cfg, nsizes, cfg->sizes.v, d->pts[mi]);
        an->labels[mi] = cfg->modes[mi].name;
    }
    if (nm >= 2) {
        an->verdicts = pst_malloc(nsizes * sizeof *an->verdicts);
        for (size_t s = 0; s < nsizes; s++) an->verdicts[s] = modes_verdict(cfg, &d->R[s]);
    }
    return an;
}

static void print_direction(const void *p, const void *data, const void *analysis)
{
    const pp_cfg *cfg = p;
    const pp_direction *d = data;
    const pp_direction_analysis *an = analysis;
    for (size_t mi = 0; mi < cfg->nmodes; mi++)
        print_mode(cfg, &cfg->modes[mi], d->bidir, cfg->sizes.n, cfg->sizes.v, d->pts[mi], &an->modes[mi]);
    if (!an->verdicts) return;
    printf("\n== fastest mode per size (%s): medians over rounds; best set = modes not slower than the best beyond "
           "%.0f %% at %.0f %% confidence ==\n", d->bidir ? "bi" : "uni", cfg->compare.margin * 100,
           cfg->compare.confidence * 100);
    printf("  %10s %-4s %12s  %-12s %s\n", "bytes", "dir", "best t us", "level", "best set");
    for (size_t s = 0; s < cfg->sizes.n; s++) print_modes_verdict(d->bidir, cfg->sizes.v[s], &an->verdicts[s], an->labels);
    fflush(stdout);
}

static void emit_direction(void *p, const void *data, const void *analysis)
{
    pp_cfg *cfg = p;
    const pp_direction *d = data;
    const pp_direction_analysis *an = analysis;
    for (size_t mi = 0; mi < cfg->nmodes; mi++)
        emit_mode(cfg, &cfg->modes[mi], d->bidir, cfg->sizes.n, cfg->sizes.v, d->pts[mi], &an->modes[mi]);
    if (an->verdicts)
        for (size_t s = 0; s < cfg->sizes.n; s++)
            emit_modes_verdict(cfg, d->bidir, cfg->sizes.v[s], &d->R[s], &an->verdicts[s], an->labels);
}

static void free_direction_analysis(const void *p, void *analysis)
{
    const pp_cfg *cfg = p;
    pp_direction_analysis *an = analysis;
    for (size_t mi = 0; mi < cfg->nmodes; mi++) {
        free(an->modes[mi].tmin);
        free(an->modes[mi].resid);
    }
    if (an->verdicts)
        for (size_t s = 0; s < cfg->sizes.n; s++) {
            free(an->verdicts[s].in_set);
            free(an->verdicts[s].med_s);
        }
    free(an->verdicts);
    free(an->modes);
    free(an->labels);
    free(an);
}

/* The transport's ping-pongs for messages: "1,0 (ordered.put), 1,1 (ordered.put-nb), ...". */
static void ordered_list(const char *transport, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; i < pst_protocol_count(transport); i++) {
        const pst_protocol *p = pst_protocol_at(transport, i);
        size_t used = strlen(buf);
        if (p->cls == 1) snprintf(buf + used, len - used, "%s%s (%s)", used ? ", " : "", p->code, p->slug);
    }
}

static void add_mode(pp_cfg *cfg, const pp_mode *m)
{
    for (size_t i = 0; i < cfg->nmodes; i++)
        if (!strcmp(cfg->modes[i].name, m->name)) return;
    cfg->modes = pst_realloc(cfg->modes, (cfg->nmodes + 1) * sizeof *cfg->modes);
    cfg->modes[cfg->nmodes++] = *m;
}

static void add_protocol_mode(pp_cfg *cfg, const pst_protocol *p)
{
    pp_mode m = {.kind = K_PROTOCOL, .proto = p, .protocol = p->code, .recipe = p->name};
    snprintf(m.name, sizeof m.name, "%s", p->code);
    add_mode(cfg, &m);
}

/* --modes: send, ssend, isend, bsend (transport mpi), ordered protocols of the transport by code
 * (1,3, or persistent 5,3) or slug, or "ordered" for all the 1,x. */
static void parse_modes(pp_cfg *cfg)
{
    const char *transport = cfg->transport;
    char *copy = pst_strdup(cfg->modes_spec), *save = NULL;
    cfg->modes = NULL;
    cfg->nmodes = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char spec[64];
        snprintf(spec, sizeof spec, "%s", tok);
        if (strspn(tok, "0123456789") == strlen(tok)) { /* a code is two integers: consume the second */
            char *second = strtok_r(NULL, ",", &save);
            if (!second) pst_usage_error("--modes: '%s' is not a protocol code (codes have two numbers, e.g. 1,3)", tok);
            snprintf(spec, sizeof spec, "%s,%s", tok, second);
        }
        size_t k = 0;
        while (k < NNATIVE && strcmp(native_modes[k].name, spec)) k++;
        if (k < NNATIVE) {
            if (!two_sided(cfg)) {
                char list[512];
                ordered_list(transport, list, sizeof list);
                pst_usage_error("--modes: '%s' is an MPI send mode, measured with --transport mpi; --transport %s offers "
                                "its ordered protocols as modes: %s ('ordered': all of them)", spec, transport, list);
            }
            add_mode(cfg, &native_modes[k]);
            continue;
        }
        if (!strcmp(spec, "ordered")) {
            for (size_t i = 0; i < pst_protocol_count(transport); i++)
                if (pst_protocol_at(transport, i)->cls == 1) add_protocol_mode(cfg, pst_protocol_at(transport, i));
            continue;
        }
        const pst_protocol *p = pst_protocol_find(transport, spec);
        if (!p) {
            size_t last = 0;
            for (size_t i = 0; i < pst_protocol_count(transport); i++)
                if (pst_protocol_at(transport, i)->cls == 1) last = i;
            const pst_protocol *example = pst_protocol_at(transport, last);
            pst_usage_error("--modes: unknown mode '%s' (allowed: %sordered, or an ordered protocol of transport %s by "
                            "code 1,0-%s or slug, e.g. %s)", spec, two_sided(cfg) ? "send, ssend, isend, bsend, " : "",
                            transport, example->code, example->slug);
        }
        if (!p->ordered || p->overlap)
            pst_usage_error("--modes: protocol %s (%s) is not a ping-pong: only ordered protocols 1,x (and their "
                            "persistent forms 5,x) are (side A sends first, side B answers)%s", p->code, p->slug,
                            p->ordered ? "; the overlap variant 3,x runs a single round trip exactly as 1,x"
                                       : "; unordered exchanges are measured by pstswm swap");
        add_protocol_mode(cfg, p);
    }
    free(copy);
    if (cfg->nmodes == 0) pst_usage_error("--modes: empty list");
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Sorted, without duplicates, always starting with 0 B (the zero-byte latency). */
static void normalise_sizes(pst_int_list *l)
{
    long long *v = pst_malloc((l->n + 1) * sizeof *v);
    memcpy(v, l->v, l->n * sizeof *v);
    v[l->n] = 0;
    qsort(v, l->n + 1, sizeof *v, cmp_ll);
    size_t n = 0;
    for (size_t i = 0; i <= l->n; i++)
        if (n == 0 || v[i] != v[n - 1]) v[n++] = v[i];
    pst_int_list_free(l);
    pst_int_list_set(l, n, v);
    free(v);
}

/* --threads T > 1: T streams of the MPI send modes but bsend (its attached space is one per
 * process), on the two-sided transport. */
static void validate_streams(pp_cfg *cfg, int threads, bool multiple)
{
    if (!two_sided(cfg))
        pst_usage_error("--threads %d: the streams are two-sided MPI messages; --transport %s is not (use --transport mpi)", threads,
                        cfg->transport);
    for (size_t i = 0; i < cfg->nmodes; i++)
        if (cfg->modes[i].kind == K_BSEND || cfg->modes[i].kind == K_PROTOCOL)
            pst_usage_error("--threads %d: mode %s cannot run as streams (allowed: send, ssend, isend)", threads, cfg->modes[i].name);
    cfg->streams = (pst_streams){.n = threads, .multiple = multiple};
}

static void validate(void *p)
{
    pp_cfg *cfg = p;
    pst_ctx *c = &cfg->ctx;
    char err[512];
    pst_transport_require(cfg->transport);
    c->transport = cfg->transport;
    bool multiple = cfg->threads > 1 && pst_streams_multiple();
    int threads = pst_threads_resolve((int)cfg->threads, false, multiple, "--threads (mode multiple)");
    cfg->threads = threads;
    if (!cfg->modes_spec) cfg->modes_spec = !two_sided(cfg) ? "ordered" : threads > 1 ? "send,ssend,isend" : "send,ssend,isend,bsend";
    parse_modes(cfg);
    if (threads > 1) validate_streams(cfg, threads, multiple);
    if (c->size < 2) pst_usage_error("pingpong needs at least 2 ranks (running on 1); start it with mpiexec -n 2 or more");
    if (pst_pairing_parse(cfg->pairs_spec, c->rank, c->size, &cfg->pairing, err, sizeof err)) pst_usage_error("%s", err);
    if (cfg->directions.n == 0) pst_parse_strings("uni", &cfg->directions, err, sizeof err);
    if (pst_str_list_has(&cfg->directions, "bi") && !two_sided(cfg))
        pst_usage_error("--direction bi: bidirectional runs use the MPI send modes of --transport mpi; the modes of "
                        "--transport %s are ordered protocols, ping-pongs by construction (simultaneous one-sided "
                        "exchanges: pstswm swap --transport %s)", cfg->transport, cfg->transport);
    if (pst_str_list_has(&cfg->directions, "bi"))
        for (size_t i = 0; i < cfg->nmodes; i++)
            if (cfg->modes[i].kind == K_PROTOCOL)
                pst_usage_error("--direction bi: mode %s is an ordered protocol (a ping-pong by construction); "
                                "bidirectional runs take send, ssend, isend, bsend", cfg->modes[i].name);
    if (cfg->loggp && (!two_sided(cfg) || !strcmp(cfg->pairs_spec, "all")))
        pst_usage_error("--loggp measures one pair with MPI_Send/MPI_Recv: it needs --transport mpi and one pair (--pairs I,J)");
    if (cfg->fit_from > cfg->fit_to)
        pst_usage_error("--fit-from %lld is above --fit-to %lld", cfg->fit_from, cfg->fit_to);
    if (cfg->sizes.n == 0) {
        /* 1 B ... 4 MiB by doubling, plus 1 ... 2 MiB in steps of 128 KiB for the Frese & Knipp (1998) fit. */
        long long v[40];
        size_t n = 0;
        for (long long b = 1; b <= 4 << 20; b *= 2) v[n++] = b;
        for (long long b = (1 << 20) + (128 << 10); b < 2 << 20; b += 128 << 10) v[n++] = b;
        pst_int_list_set(&cfg->sizes, n, v);
    }
    normalise_sizes(&cfg->sizes);
    c->alloc_probe_bytes = (size_t)cfg->sizes.v[cfg->sizes.n - 1];

    int color = cfg->pairing.partner >= 0 ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, c->rank, &cfg->active);
    MPI_Comm_dup(MPI_COMM_WORLD, &cfg->comm);
    pst_compare_setup(&cfg->compare, c, cfg->reps, cfg->directions.n * cfg->sizes.n);
}

/* The transport's area and buffers for the largest size, and buffered-send space when a bsend
 * mode runs. */
static void setup_buffers(pp_cfg *cfg)
{
    size_t max = (size_t)cfg->sizes.v[cfg->sizes.n - 1];
    /* Collective, idle ranks included; one transfer in flight per rank. */
    pst_transport_setup(cfg->transport, cfg->comm, max, 1);
    cfg->win_model = pst_transport_memory_model(cfg->transport, cfg->comm);
    if (cfg->pairing.partner < 0) return;
    if (cfg->streams.n > 1) pst_streams_alloc(&cfg->streams, cfg->streams.n, cfg->streams.multiple, max);
    cfg->sbuf = pst_buffer_alloc(max);
    cfg->rbuf = pst_buffer_alloc(max);
    for (size_t i = 0; i < cfg->nmodes; i++) {
        if (cfg->modes[i].kind != K_BSEND) continue;
        /* Two messages: a bidirectional peer may send again before our last one is delivered. */
        size_t space = 2 * (max + MPI_BSEND_OVERHEAD + 64);
        cfg->bsend_space = pst_buffer_alloc(space);
        MPI_Buffer_attach(cfg->bsend_space, (int)space);
        break;
    }
}

static void teardown(pp_cfg *cfg)
{
    if (cfg->bsend_space) {
        void *p;
        int size;
        MPI_Buffer_detach(&p, &size);
        free(cfg->bsend_space);
    }
    if (cfg->streams.sbuf) pst_streams_free(&cfg->streams);
    free(cfg->sbuf);
    free(cfg->rbuf);
    free(cfg->modes);
    if (cfg->active != MPI_COMM_NULL) MPI_Comm_free(&cfg->active);
    pst_transport_release(cfg->transport, cfg->comm);
    MPI_Comm_free(&cfg->comm);
}

/* Buffers, points and rounds for every direction, outside every timing. */
static void plan(void *p)
{
    pp_cfg *cfg = p;
    setup_buffers(cfg);
    size_t nsizes = cfg->sizes.n, nm = cfg->nmodes;
    pp_direction *d = pst_calloc(1, sizeof *d);
    d->pts = pst_malloc(nm * sizeof *d->pts);
    for (size_t mi = 0; mi < nm; mi++) {
        d->pts[mi] = pst_calloc(nsizes, sizeof **d->pts);
        for (size_t i = 0; i < nsizes; i++)
            d->pts[mi][i].pair_tmin = pst_calloc((size_t)cfg->pairing.npairs, sizeof *d->pts[mi][i].pair_tmin);
    }
    d->R = pst_calloc(nsizes, sizeof *d->R);
    cfg->now = d;
}

static size_t directions(const void *p) { return ((const pp_cfg *)p)->directions.n; }

static void *measure_direction(void *p, size_t set)
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

static void free_direction(void *p, void *data)
{
    const pp_cfg *cfg = p;
    pp_direction *d = data;
    for (size_t s = 0; s < cfg->sizes.n; s++) pst_rounds_free(&d->R[s]);
}

/* --loggp: the LogGP parameters over the sizes but 0 B, after the modes. */
static void measure_loggp(void *p)
{
    pp_cfg *cfg = p;
    size_t nsizes = cfg->sizes.n;
    if (!cfg->loggp) return;
    pst_watchdog_phase("pingpong --loggp (PRTT round trips)");
    pst_loggp_run run = {.comm = cfg->active, .partner = cfg->pairing.partner, .side = cfg->pairing.side, .n = cfg->loggp_n,
                         .reps = cfg->reps, .sizes = cfg->sizes.v + 1, .nsizes = nsizes - 1, .sbuf = cfg->sbuf,
                         .rbuf = cfg->rbuf, .confidence = cfg->compare.confidence};
    if (run.nsizes) pst_loggp(&cfg->ctx, &run);
}

static void release(void *p)
{
    pp_cfg *cfg = p;
    pp_direction *d = cfg->now;
    for (size_t mi = 0; mi < cfg->nmodes; mi++) {
        for (size_t i = 0; i < cfg->sizes.n; i++) {
            free(d->pts[mi][i].samples);
            free(d->pts[mi][i].pair_tmin);
        }
        free(d->pts[mi]);
    }
    free(d->pts);
    free(d->R);
    free(d);
    teardown(cfg);
}

static const char *const directions_allowed[] = {"uni", "bi", NULL};
static const pp_cfg default_cfg = {.pairs_spec = "0,1", .transport = "mpi", .reps = 20, .warmup = 10,
                                   .fit_from = 1 << 20, .fit_to = 2 << 20, .loggp_n = 16, .compare = PST_COMPARE_DEFAULTS};
static pp_cfg run_cfg;
static const pst_opt opts[] = {
    {"modes", PST_OPT_STRING, &run_cfg.modes_spec, "LIST",
     "send, ssend, isend, bsend (transport mpi), ordered protocols of the transport by code or slug "
     "(1,3 / ordered.isend-irecv), ordered = all of them", 1, 0, NULL, "send,ssend,isend,bsend; one-sided transports: ordered"},
    {"sizes", PST_OPT_SIZES, &run_cfg.sizes, "LIST",
     "message sizes in bytes, e.g. 8,1K,1M or 1:4M (doubling); 0 B is always added", 0, MAX_BYTES, NULL, "1:4M,1M:2M:+128K"},
    {"direction", PST_OPT_STRINGS, &run_cfg.directions, "LIST",
     "uni (ping-pong) and/or bi (both sides send at once)", 1, 0, directions_allowed, "uni"},
    {"pairs", PST_OPT_STRING, &run_cfg.pairs_spec, "I,J|all",
     "the pair I,J or all: rank i with i+P/2, all pairs at once", 1, 0, NULL, NULL},
    {"reps", PST_OPT_INT, &run_cfg.reps, "N", "timed rounds (one loop per mode each) per size; the minimum with --adaptive", 1, 1e6, NULL, NULL},
    {"iters", PST_OPT_INT, &run_cfg.iters, "N",
     "round trips per sample; 0 = auto: about 2 ms per sample, from the second half of the warm-up", 0, 1e9, NULL, NULL},
    {"warmup", PST_OPT_INT, &run_cfg.warmup, "N", "untimed round trips before a mode's first loop at a size; later turns "
     "re-warm with one; auto --iters uses at least 2", 0, 1e6, NULL, NULL},
    {"fit-from", PST_OPT_SIZE, &run_cfg.fit_from, "BYTES", "lower end of the linear-fit window", 0, MAX_BYTES, NULL, NULL},
    {"fit-to", PST_OPT_SIZE, &run_cfg.fit_to, "BYTES", "upper end of the linear-fit window", 0, MAX_BYTES, NULL, NULL},
    PST_TRANSPORT_OPT(&run_cfg.transport, "; one-sided transports run their ordered protocols"),
    PST_SAMPLES_OPT(&run_cfg.samples, "sample"),
    {"loggp", PST_OPT_FLAG, &run_cfg.loggp, NULL,
     "also measure the LogGP parameters L, o_s, o_r, g, G over the sizes (PRTT method, MPI_Send/MPI_Recv)", 1, 0, NULL, NULL},
    {"loggp-n", PST_OPT_INT, &run_cfg.loggp_n, "N", "messages per parametrised round trip of --loggp", 2, 1e6, NULL, NULL},
    PST_COMPARE_OPTS(&run_cfg.compare),
    PST_THREADS_OPT(&run_cfg.threads, ": each its own stream (tag = thread) between the pair, modes send, ssend, isend; "
                    "every thread calls MPI (MPI_THREAD_MULTIPLE), or with --thread-level funneled the master drives "
                    "all streams; OMP_NUM_THREADS is not read"),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "pingpong",
    .summary = "Ping-pong latency and bandwidth against message size for the MPI send modes and the ordered\n"
               "protocols of a transport (Frese & Knipp 1998): zero-byte latency, peak bandwidth and the fit T(N) = t_l + N*t_s\n"
               "over large messages.",
    .description =
        "uni: t = half round trip = (time of a loop of round trips on side A) / (2 * round trips).\n"
        "bi: both sides post the receive, send and wait; t = time per exchange (the slower side).\n"
        "A sample is one timed loop; the modes of one size run in interleaved rounds (--schedule), and\n"
        "t_min/t_med/t_mean/t_max are over the rounds.  With --pairs all, a\n"
        "sample is the slowest pair's; 'aggr MB/s' = pairs * directions * bytes / t_min.  MB = 10^6 bytes.\n"
        "The fit uses each size's t_min inside [--fit-from, --fit-to] (ordinary least squares); residuals are\n"
        "observed - model.  Payloads are written before and checked after every loop, never inside it.\n"
        "--threads T > 1: T streams per pair, stream s on tag s with its own buffers and payloads; t = time\n"
        "per message (the streams' wall time / T), as OSU's multithreaded latency test in mode multiple.",
    .examples = "  mpiexec -n 2 pstswm pingpong --out pp.jsonl\n"
                "  mpiexec -n 2 pstswm pingpong --modes send,1,3,ordered.rsend --sizes 0:64K --direction uni,bi\n"
                "  mpiexec -n 8 pstswm pingpong --pairs all --modes send --sizes 8,64K,1M,4M\n"
                "  mpiexec -n 2 pstswm pingpong --transport rma --sizes 8,1M          # ordered.put ... ordered.get-nb\n"
                "  mpiexec -n 2 pstswm pingpong --threads 4 --modes send --sizes 8,64K --thread-level funneled",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("pingpong");
static const pst_schema *const schemas[] = {&pst_schema_pingpong_header, &pst_schema_pingpong_point,
                                            &pst_schema_pingpong_latbw, &pst_schema_pingpong_modes,
                                            &pst_schema_pingpong_loggp, &footer, NULL};

const pst_subcommand pst_subcommand_pingpong = {
    .name = "pingpong",
    .summary = "ping-pong latency/bandwidth vs message size, send modes, large-message fit",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .validate = validate,
    .plan = plan,
    .nsets = directions,
    .measure = measure_direction,
    .analyse = analyse_direction,
    .print = print_direction,
    .emit = emit_direction,
    .analysis_free = free_direction_analysis,
    .set_free = free_direction,
    .finish = measure_loggp,
    .release = release,
};
