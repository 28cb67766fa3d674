#include "cmd/pingpong/loggp.h"

#include "cmd/common/records.h"
#include "core/alloc.h"
#include "core/errors.h"
#include "runtime/emit.h"
#include "runtime/wait.h"
#include "runtime/payload.h"
#include "runtime/timer.h"
#include "stats/fit.h"
#include "stats/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG = 11 };
enum { P_L, P_OS, P_OR, P_G, P_GB, NPARAM };
static const char *const param_key[NPARAM] = {"L_s", "o_s_s", "o_r_s", "g_s", "G_s_per_byte"};
/* A PRTT sample lasts about this long (several round trips when they are short). */
static const double TARGET_SAMPLE_S = 1e-3;

static void spin_s(double s)
{
    double until = pst_now_s() + s;
    while (pst_now_s() < until) {
    }
}

typedef struct prtt {
    const pst_loggp_run *run;
    int bytes;
    long long corrupted;
    uint64_t seed_mine, seed_partner;
} prtt;

/* k PRTT(n, d, s) on side A's clock, per PRTT; *send_s receives the mean time of one MPI_Send.
 * Side B mirrors it and returns 0.  Receive buffers are poisoned before and checked after. */
static double measure_prtt(prtt *p, long long n, double d, long long k, double *send_s)
{
    const pst_loggp_run *r = p->run;
    pst_payload_poison(r->rbuf, (size_t)p->bytes);
    MPI_Barrier(r->comm);
    double in_send = 0, t0 = pst_now_s();
    for (long long j = 0; j < k; j++) {
        if (r->side == 0) {
            for (long long m = 0; m < n; m++) {
                double s0 = pst_now_s();
                MPI_Send(r->sbuf, p->bytes, MPI_BYTE, r->partner, TAG, r->comm);
                in_send += pst_now_s() - s0;
                if (d > 0 && m + 1 < n) spin_s(d);
            }
            MPI_Recv(r->rbuf, p->bytes, MPI_BYTE, r->partner, TAG, r->comm, MPI_STATUS_IGNORE);
        } else {
            for (long long m = 0; m < n; m++)
                MPI_Recv(r->rbuf, p->bytes, MPI_BYTE, r->partner, TAG, r->comm, MPI_STATUS_IGNORE);
            MPI_Send(r->sbuf, p->bytes, MPI_BYTE, r->partner, TAG, r->comm);
        }
    }
    double t = (pst_now_s() - t0) / (double)k;
    size_t first;
    p->corrupted += (long long)pst_payload_check(r->rbuf, (size_t)p->bytes, p->seed_partner, &first);
    if (send_s) *send_s = in_send / (double)(n * k);
    return r->side == 0 ? t : 0;
}

/* Side B's time in MPI_Recv of a message that arrived while it waited `wait_s`; k of them
 * (side A returns 0). */
static double measure_recv_overhead(prtt *p, double wait_s, long long k)
{
    const pst_loggp_run *r = p->run;
    double in_recv = 0;
    MPI_Barrier(r->comm);
    for (long long j = 0; j < k; j++) {
        if (r->side == 0) {
            MPI_Send(r->sbuf, p->bytes, MPI_BYTE, r->partner, TAG, r->comm);
            MPI_Recv(NULL, 0, MPI_BYTE, r->partner, TAG, r->comm, MPI_STATUS_IGNORE);
        } else {
            spin_s(wait_s);
            double t0 = pst_now_s();
            MPI_Recv(r->rbuf, p->bytes, MPI_BYTE, r->partner, TAG, r->comm, MPI_STATUS_IGNORE);
            in_recv += pst_now_s() - t0;
            MPI_Send(NULL, 0, MPI_BYTE, r->partner, TAG, r->comm);
        }
    }
    return in_recv / (double)k;
}

/* The value side `from` measured, on both ranks of the pair. */
static double from_side(const pst_loggp_run *r, double v, int from)
{
    double theirs;
    MPI_Sendrecv(&v, 1, MPI_DOUBLE, r->partner, TAG + 1, &theirs, 1, MPI_DOUBLE, r->partner, TAG + 1, r->comm,
                 MPI_STATUS_IGNORE);
    return r->side == from ? v : theirs;
}

/* One repetition: every parameter, on side A (side B sends it its o_r). */
static void one_repetition(const pst_loggp_run *r, double *param, long long *corrupted)
{
    size_t ns = r->nsizes;
    double *gap = pst_malloc(ns * sizeof *gap), *x = pst_malloc(ns * sizeof *x), prtt1_first = 0, os_first = 0,
           or_first = 0;
    for (size_t i = 0; i < ns; i++) {
        prtt p = {r, (int)r->sizes[i], 0, pst_payload_seed(0, (long long)i, 0), pst_payload_seed(0, (long long)i, 0)};
        pst_payload_fill(r->sbuf, (size_t)p.bytes, p.seed_mine);
        /* Size the samples from one PRTT(n,0,s), agreed by both sides. */
        double per = from_side(r, measure_prtt(&p, r->n, 0, 1, NULL), 0);
        long long k = (long long)fmin(50, fmax(1, TARGET_SAMPLE_S / fmax(per, 1e-9)));
        double prtt1 = measure_prtt(&p, 1, 0, k * r->n, NULL);
        double prttn = measure_prtt(&p, r->n, 0, k, NULL);
        /* The delay must exceed the gap so that the sends are spaced: both sides agree on it. */
        double g_s = from_side(r, (prttn - prtt1) / (double)(r->n - 1), 0);
        double d = fmax(2 * g_s, 1e-6);
        double os;
        measure_prtt(&p, r->n, d, k, &os);
        double orr = from_side(r, measure_recv_overhead(&p, 2 * from_side(r, prtt1, 0) + 10e-6, k * r->n), 1);
        gap[i] = g_s;
        x[i] = (double)(r->sizes[i] - 1);
        if (i == 0) {
            prtt1_first = prtt1;
            os_first = os;
            or_first = orr;
        }
        *corrupted += p.corrupted;
    }
    /* g + (s−1)G over the sizes: intercept g, slope G. */
    pst_fit f;
    bool fitted = ns >= 2 && pst_linfit(ns, x, gap, NULL, &f) == 0;
    /* G from the slope over all sizes; g at the smallest size, where the per-byte part is least. */
    double G = fitted ? f.coef[1] : 0, g = gap[0] - x[0] * G;
    param[P_L] = prtt1_first / 2 - os_first - or_first - (double)(r->sizes[0] - 1) * G;
    param[P_OS] = os_first;
    param[P_OR] = or_first;
    param[P_G] = g;
    param[P_GB] = G;
    free(gap);
    free(x);
}

void pst_loggp(pst_ctx *ctx, const pst_loggp_run *run)
{
    size_t reps = (size_t)run->reps;
    double *samples = pst_calloc(NPARAM * reps, sizeof *samples); /* [param][rep] */
    long long corrupted = 0, total = 0;
    if (run->partner >= 0)
        for (size_t rep = 0; rep < reps; rep++) {
            double param[NPARAM];
            one_repetition(run, param, &corrupted);
            for (int j = 0; j < NPARAM; j++) samples[(size_t)j * reps + rep] = param[j];
        }
    /* Side A of the pair holds the figures; it broadcasts them. */
    int holder = run->partner >= 0 && run->side == 0 ? ctx->rank : -1, root;
    MPI_Allreduce(&holder, &root, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Request req[2];
    MPI_Ibcast(samples, (int)(NPARAM * reps), MPI_DOUBLE, root, MPI_COMM_WORLD, &req[0]);
    MPI_Iallreduce(&corrupted, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    pst_wait_sleeping(2, req);
    if (total)
        pst_collective_exit(PST_EXIT_FAILED,
                            "payload verification failed in the LogGP round trips: %lld corrupted words", total);
    if (ctx->rank == 0) {
        pst_rec r;
        pst_rec_begin(&r, ctx, &pst_schema_pingpong_loggp);
        pst_rec_str(&r, "method", "prtt");
        pst_rec_int(&r, "n", run->n);
        pst_rec_int(&r, "reps", run->reps);
        pst_rec_ints(&r, "bytes_range", (long long[]){run->sizes[0], run->sizes[run->nsizes - 1]}, 2);
        printf("\n== LogGP parameters (PRTT method, n = %lld, %lld repetitions, %lld ... %lld bytes): median [%.0f %% "
               "CI] ==\n",
               run->n, run->reps, run->sizes[0], run->sizes[run->nsizes - 1], run->confidence * 100);
        static const char *const label[NPARAM] = {"L   latency", "o_s send overhead", "o_r receive overhead",
                                                  "g   gap per message", "G   gap per byte"};
        for (int j = 0; j < NPARAM; j++) {
            double lo, hi, med = pst_median_ci(&samples[(size_t)j * reps], reps, run->confidence, &lo, &hi);
            char key[32];
            snprintf(key, sizeof key, "%s_ci", param_key[j]);
            pst_rec_num(&r, param_key[j], med);
            pst_rec_nums(&r, key, (double[]){lo, hi}, 2);
            if (j == P_GB)
                printf("  %-22s %10.4f ns/byte [%.4f, %.4f]  (%.0f MB/s)\n", label[j], med * 1e9, lo * 1e9, hi * 1e9,
                       med > 0 ? 1e-6 / med : NAN);
            else
                printf("  %-22s %10.3f us      [%.3f, %.3f]\n", label[j], med * 1e6, lo * 1e6, hi * 1e6);
        }
        /* A negative parameter is no LogGP model (on shared memory L can drown in the overheads). */
        bool ok = true;
        for (int j = 0; j < NPARAM; j++) {
            double lo, hi;
            ok &= pst_median_ci(&samples[(size_t)j * reps], reps, run->confidence, &lo, &hi) >= 0;
        }
        pst_rec_bool(&r, "fit_ok", ok);
        if (!ok)
            printf("  FIT NOT OK: a parameter is negative (the overheads exceed half the round trip: L is below "
                   "resolution)\n");
        printf("  (LogGOPSim takes L, o = (o_s + o_r)/2, g and G; CODES' LogGP model the same)\n");
        pst_rec_emit(&r, ctx);
        fflush(stdout);
    }
    free(samples);
}
