/* pstswm match: the cost of MPI message matching (Song 2013).
 *
 * Ranks 0 (A) and 1 (B) play a multi-message ping-pong; other ranks idle.  A sends n messages
 * of `length` doubles, B receives them and echoes them back, A receives and verifies them.
 * The order is forced either by a distinct tag per message (tag algorithm) or by a distinct
 * duplicated communicator per message (comm algorithm).  A always posts and sends in order
 * 0..n-1; B posts its receives and sends in order ("in") or in reverse ("reverse"), so a
 * reverse round trip makes n(n-1)/2 failed match attempts per direction on a queue that holds
 * all n messages.  The queue mode decides which queue is searched:
 *   posted      B posts every receive, then sends A a zero-byte go-signal; A sends only after
 *               it, so all messages meet posted receives (A's own receives are posted before
 *               its sends, hence before B can answer).
 *   unexpected  the sender sends its batch, then a zero-byte fence on a control communicator;
 *               the receiver waits for the fence and probes the last message sent, and only
 *               then posts its receives, so they search a full unexpected-message queue.
 *   any         Song 2013 as written: no control messages; whichever queue the race gives.
 * Control messages travel on their own communicator and are the first receive in any
 * posted queue, so they add a constant per round trip (in L) and no failed matches. */
#include "bench/commands.h"
#include "bench/match_model.h"
#include "bench/match_mpit.h"
#include "bench/records.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "run/context.h"
#include "run/emit.h"
#include "run/idle.h"
#include "run/locality.h"
#include "run/mpi_features.h"
#include "run/payload.h"
#include "run/timer.h"
#include "run/watchdog.h"
#include "stats/stats.h"

#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_COUNT = 1000000 };
#define MAX_BUFFER_BYTES (1LL << 30) /* per send or receive buffer */
#define CONF 0.95

enum { ROLE_IDLE, ROLE_A, ROLE_B };
enum { ALG_TAG, ALG_COMM, NALG };
enum { ORDER_IN, ORDER_REVERSE, NORDER };
enum { QUEUE_POSTED, QUEUE_UNEXPECTED, QUEUE_ANY, NQUEUE };
enum { WILD_NONE, WILD_SOURCE, WILD_TAG, NWILD };

static const char *const alg_names[] = {"tag", "comm", NULL};
static const char *const order_names[] = {"in", "reverse", NULL};
static const char *const queue_names[] = {"posted", "unexpected", "any", NULL};
static const char *const queue_desc[] = {
    "receives posted before the messages arrive (go-signal)",
    "messages queued before the receives are posted (fence + probe)",
    "no control: as Song 2013, whichever queue the race gives",
};
static const char *const wild_names[] = {"none", "source", "tag", NULL};
static const char *const wild_desc[] = {"source and tag named", "receives use MPI_ANY_SOURCE", "receives use MPI_ANY_TAG"};
static const char *const stat_names[] = {"min", "median", NULL};
/* MPI-4.0's communicator info assertions (§7.4.4): the option's names and their info keys. */
static const char *const assert_names[] = {"no_any_tag", "no_any_source", "allow_overtaking", NULL};
static const char *const assert_keys[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source", "mpi_assert_allow_overtaking"};

typedef struct match_cfg {
    pst_ctx ctx;
    pst_str_list algorithms, orders, queues, wildcards, asserts;
    pst_int_list counts, lengths;
    long long iters, reps, warmup;
    const char *stat;
    bool samples, mpi_t;
    pst_mpit mpit;             /* --mpi-t: the library's performance variables */
    /* derived */
    int role, peer;
    MPI_Comm pair, data, ctrl; /* pair: ranks 0,1; data: tag algorithm; ctrl: control messages */
    MPI_Comm *comms;           /* comm algorithm: one per message */
    long long ncomms;
    /* --assert: the data communicators without (plain) and with (asserted) the info assertions;
     * data and comms point at one pair at a time.  `asserted`: the pair in use. */
    MPI_Comm data_plain, data_asserted, *comms_plain, *comms_asserted;
    bool asserted;
    char acknowledged[160];    /* the assertions MPI_Comm_get_info gave back, comma-separated */
    bool alg_on[NALG], order_on[NORDER];
} match_cfg;

/* One (algorithm, queue, wildcard, n, length) configuration on one rank of the pair. */
typedef struct batch {
    const match_cfg *cfg;
    int alg, queue;
    bool any_source, any_tag;
    long long n;
    int length;
    double *sbuf, *rbuf;
    MPI_Request *req; /* 2n+2: receives [0,n), sends [n,2n), control [2n, 2n+2) */
    long long *depth_seen; /* --mpi-t check round trip: B reads its queue's length here (else NULL) */
} batch;

static int name_index(const char *const *names, const char *s)
{
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], s)) return i;
    return -1;
}

/* ---- one round trip ------------------------------------------------------------------- */

static MPI_Comm slot_comm(const batch *b, long long i) { return b->alg == ALG_COMM ? b->cfg->comms[i] : b->cfg->data; }
static int slot_tag(const batch *b, long long i) { return b->alg == ALG_COMM ? 0 : (int)i; }
static long long slot_at(const batch *b, long long k, bool reverse) { return reverse ? b->n - 1 - k : k; }

static void wait_all(long long count, MPI_Request *req) { pst_waitall((int)count, req); }

static void post_recvs(batch *b, bool reverse)
{
    int src = b->any_source ? MPI_ANY_SOURCE : b->cfg->peer;
    for (long long k = 0; k < b->n; k++) {
        long long i = slot_at(b, k, reverse);
        MPI_Irecv(b->rbuf + i * b->length, b->length, MPI_DOUBLE, src, b->any_tag ? MPI_ANY_TAG : slot_tag(b, i),
                  slot_comm(b, i), &b->req[i]);
    }
}

/* A sends its payload; B echoes what it received. */
static void post_sends(batch *b, const double *buf, bool reverse)
{
    for (long long k = 0; k < b->n; k++) {
        long long i = slot_at(b, k, reverse);
        MPI_Isend(buf + i * b->length, b->length, MPI_DOUBLE, b->cfg->peer, slot_tag(b, i), slot_comm(b, i),
                  &b->req[b->n + i]);
    }
}

/* Block until the peer's last-sent message of the batch is queued here (unexpected mode). */
static void probe_last(const batch *b, bool peer_reverse)
{
    long long i = slot_at(b, b->n - 1, peer_reverse);
    MPI_Probe(b->cfg->peer, slot_tag(b, i), slot_comm(b, i), MPI_STATUS_IGNORE);
}

static void round_trip_a(batch *b, bool reverse)
{
    MPI_Request *ctl = &b->req[2 * b->n];
    MPI_Comm ctrl = b->cfg->ctrl;
    int peer = b->cfg->peer;
    switch (b->queue) {
    case QUEUE_ANY:
        post_sends(b, b->sbuf, false);
        wait_all(b->n, b->req + b->n);
        post_recvs(b, false);
        wait_all(b->n, b->req);
        break;
    case QUEUE_POSTED:
        MPI_Irecv(NULL, 0, MPI_BYTE, peer, 0, ctrl, &ctl[0]);
        post_recvs(b, false);
        MPI_Wait(&ctl[0], MPI_STATUS_IGNORE);
        post_sends(b, b->sbuf, false);
        wait_all(2 * b->n, b->req);
        break;
    case QUEUE_UNEXPECTED:
        MPI_Irecv(NULL, 0, MPI_BYTE, peer, 0, ctrl, &ctl[0]);
        post_sends(b, b->sbuf, false);
        MPI_Isend(NULL, 0, MPI_BYTE, peer, 0, ctrl, &ctl[1]);
        MPI_Wait(&ctl[0], MPI_STATUS_IGNORE);
        probe_last(b, reverse);
        post_recvs(b, false);
        wait_all(2 * b->n + 2, b->req);
        break;
    }
}

static void round_trip_b(batch *b, bool reverse)
{
    MPI_Request *ctl = &b->req[2 * b->n];
    MPI_Comm ctrl = b->cfg->ctrl;
    int peer = b->cfg->peer;
    switch (b->queue) {
    case QUEUE_ANY:
        post_recvs(b, reverse);
        wait_all(b->n, b->req);
        post_sends(b, b->rbuf, reverse);
        wait_all(b->n, b->req + b->n);
        break;
    case QUEUE_POSTED:
        post_recvs(b, reverse);
        /* All n receives posted, and A sends nothing before the go-signal below. */
        if (b->depth_seen) *b->depth_seen = pst_mpit_read(&b->cfg->mpit, PST_MPIT_POSTED);
        MPI_Isend(NULL, 0, MPI_BYTE, peer, 0, ctrl, &ctl[0]);
        wait_all(b->n, b->req);
        post_sends(b, b->rbuf, reverse);
        wait_all(b->n + 1, b->req + b->n);
        break;
    case QUEUE_UNEXPECTED:
        MPI_Recv(NULL, 0, MPI_BYTE, peer, 0, ctrl, MPI_STATUS_IGNORE);
        probe_last(b, false);
        /* The last message sent is queued, so (messages not overtaking) all n are. */
        if (b->depth_seen) *b->depth_seen = pst_mpit_read(&b->cfg->mpit, PST_MPIT_UNEXPECTED);
        post_recvs(b, reverse);
        wait_all(b->n, b->req);
        post_sends(b, b->rbuf, reverse);
        MPI_Isend(NULL, 0, MPI_BYTE, peer, 0, ctrl, &ctl[0]);
        wait_all(b->n + 1, b->req + b->n);
        break;
    }
}

static void round_trip(batch *b, bool reverse)
{
    if (b->cfg->role == ROLE_A) round_trip_a(b, reverse);
    else round_trip_b(b, reverse);
}

/* ---- one point: both orders at one n, interleaved per repetition ------------------------- */

/* Wait without spinning, so idle ranks (and the pair between points) leave the cores to the
 * ranks being measured; MPICH would otherwise busy-poll when oversubscribed. */
static void sleepy_wait(MPI_Request *req)
{
    int done = 0;
    const struct timespec pause = {0, 200000};
    for (MPI_Test(req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(req, &done, MPI_STATUS_IGNORE)) nanosleep(&pause, NULL);
}

static long long agree_sum(long long local)
{
    long long total = 0;
    MPI_Request req;
    MPI_Iallreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
    sleepy_wait(&req);
    return total;
}

typedef struct point {
    double *t[NORDER]; /* per-repetition seconds per round trip (rank 0) */
    pst_summary s[NORDER];
    long long corrupted;
    long long depth_seen; /* --mpi-t: the queue length the library reported (-1: not read) */
} point;

/* The queue depth the mode means to build, where one communicator carries the batch: n in the
 * posted and unexpected modes of the tag algorithm (-1: none, e.g. the comm algorithm's one
 * message per communicator or the uncontrolled mode any). */
static long long depth_intended(int alg, int queue, long long n)
{
    return alg == ALG_TAG && queue != QUEUE_ANY ? n : -1;
}

/* --mpi-t: one more round trip, untimed, in which B reads its queue's length at the moment the
 * mode means it to hold n entries; rank 0 gets the value.  On the plain data communicator only
 * (the one the variables are bound to). */
static long long check_depth(const match_cfg *cfg, batch *b)
{
    long long seen = -1;
    if (!cfg->mpi_t || cfg->asserted || depth_intended(b->alg, b->queue, b->n) < 0) return -1;
    b->depth_seen = &seen;
    MPI_Barrier(cfg->pair);
    round_trip(b, false);
    b->depth_seen = NULL;
    MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_LONG_LONG, MPI_MAX, cfg->pair);
    return seen;
}

/* Collective over MPI_COMM_WORLD. */
static void measure(const match_cfg *cfg, int alg, int queue, int wild, long long n, int length, point *pt)
{
    size_t nreps = (size_t)cfg->reps;
    long long corrupted = 0;
    if (cfg->role != ROLE_IDLE) {
        size_t bytes = (size_t)n * (size_t)length * sizeof(double);
        batch b = {.cfg = cfg, .alg = alg, .queue = queue, .any_source = wild == WILD_SOURCE, .any_tag = wild == WILD_TAG,
                   .n = n, .length = length};
        b.sbuf = cfg->role == ROLE_A ? pst_aligned(64, bytes) : NULL; /* B echoes from rbuf */
        b.rbuf = pst_aligned(64, bytes);
        b.req = pst_malloc((size_t)(2 * n + 2) * sizeof *b.req);
        for (long long i = 0; i < 2 * n + 2; i++) b.req[i] = MPI_REQUEST_NULL;
        bool verify = !cfg->ctx.no_verify && cfg->role == ROLE_A;
        for (long long i = 0; b.sbuf && i < n; i++)
            pst_payload_fill(b.sbuf + i * length, (size_t)length * sizeof(double), pst_payload_seed(0, i, -1));
        for (int o = 0; o < NORDER; o++)
            for (long long w = 0; cfg->order_on[o] && w < cfg->warmup; w++) round_trip(&b, o == ORDER_REVERSE);
        for (size_t rep = 0; rep < nreps; rep++) {
            for (int o = 0; o < NORDER; o++) {
                if (!cfg->order_on[o]) continue;
                /* A's payload is new each repetition and both receive buffers are poisoned, so
                 * a stale or misplaced echo is caught.  Whatever B's wildcard-tag reshuffling,
                 * A's slot j gets back A's message j (the two reversals cancel). */
                for (long long i = 0; verify && i < n; i++)
                    pst_payload_fill(b.sbuf + i * length, (size_t)length * sizeof(double), pst_payload_seed(0, i, (long long)rep));
                if (!cfg->ctx.no_verify) pst_payload_poison(b.rbuf, bytes);
                MPI_Barrier(cfg->pair);
                double t0 = pst_now_s();
                for (long long it = 0; it < cfg->iters; it++) round_trip(&b, o == ORDER_REVERSE);
                double dt = (pst_now_s() - t0) / (double)cfg->iters;
                if (cfg->role == ROLE_A) pt->t[o][rep] = dt;
                for (long long i = 0; verify && i < n; i++) {
                    size_t first;
                    corrupted += (long long)pst_payload_check(b.rbuf + i * length, (size_t)length * sizeof(double),
                                                              pst_payload_seed(0, i, (long long)rep), &first);
                }
            }
        }
        pt->depth_seen = check_depth(cfg, &b);
        free(b.sbuf);
        free(b.rbuf);
        free(b.req);
    }
    pt->corrupted = agree_sum(corrupted);
    for (int o = 0; o < NORDER; o++)
        if (cfg->ctx.rank == 0 && cfg->order_on[o]) pt->s[o] = pst_summarize(pt->t[o], nreps);
}

static double stat_of(const match_cfg *cfg, const pst_summary *s) { return strcmp(cfg->stat, "min") ? s->median : s->min; }
static const char *stat_field(const match_cfg *cfg) { return strcmp(cfg->stat, "min") ? "t_med" : "t_min"; }

/* Order is forced by tags or communicators, unless wildcard tags void the tag algorithm's. */
static bool order_forced(int alg, int wild) { return !(alg == ALG_TAG && wild == WILD_TAG); }

/* With --assert, which of the two runs a record belongs to: the assertions in effect (none: []). */
static void rec_asserts(pst_rec *r, const match_cfg *cfg)
{
    if (cfg->asserts.n) pst_rec_strs(r, "asserts", (const char *const *)cfg->asserts.v, cfg->asserted ? cfg->asserts.n : 0);
}

static void emit_point(match_cfg *cfg, int alg, int order, int queue, int wild, long long n, int length, const point *pt)
{
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_point);
    pst_rec_str(&r, "algorithm", alg_names[alg]);
    pst_rec_str(&r, "locality", pst_locality_of_pairs((const int[]){0}, (const int[]){1}, 1));
    pst_rec_str(&r, "order", order_names[order]);
    pst_rec_str(&r, "queue", queue_names[queue]);
    pst_rec_str(&r, "wildcard", wild_names[wild]);
    pst_rec_int(&r, "n", n);
    pst_rec_int(&r, "length", length);
    pst_rec_int(&r, "bytes", 8LL * length);
    rec_asserts(&r, cfg);
    pst_rec_times(&r, &pt->s[order]);
    pst_rec_num(&r, order == ORDER_IN ? "iot_s" : "rot_s", stat_of(cfg, &pt->s[order]));
    pst_rec_str(&r, "stat", stat_field(cfg));
    pst_rec_num(&r, "failed_matches", order == ORDER_REVERSE && order_forced(alg, wild) ? pst_match_failed(n) : 0.0);
    pst_rec_int(&r, "iters", cfg->iters);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    if (cfg->samples) pst_rec_nums(&r, "samples", pt->t[order], (size_t)cfg->reps);
    if (cfg->mpi_t) {
        long long want = depth_intended(alg, queue, n);
        if (want >= 0 && !cfg->asserted) pst_rec_int(&r, "queue_depth_intended", want);
        else pst_rec_null(&r, "queue_depth_intended");
        if (pt->depth_seen >= 0) pst_rec_int(&r, "queue_depth_seen", pt->depth_seen);
        else pst_rec_null(&r, "queue_depth_seen");
    }
    pst_rec_emit(&r, &cfg->ctx);
}

/* ---- per-configuration table and fit -------------------------------------------------- */

typedef struct fit_key { int alg, queue, wild, length; } fit_key;

/* The configuration a fit belongs to. */
static void rec_key(pst_rec *r, fit_key key)
{
    pst_rec_str(r, "algorithm", alg_names[key.alg]);
    pst_rec_str(r, "queue", queue_names[key.queue]);
    pst_rec_str(r, "wildcard", wild_names[key.wild]);
    pst_rec_int(r, "length", key.length);
}

static void emit_ci(pst_rec *r, const char *key, const double ci[2], double scale)
{
    double v[2] = {ci[0] * scale, ci[1] * scale};
    pst_rec_nums(r, key, v, 2);
}

static void print_cell(bool have, double v, int width, int prec)
{
    if (have) printf(" %*.*f", width, prec, v);
    else printf(" %*s", width, "-");
}

/* One configuration's per-n figures and fits: Diff = ROT - IOT and M per n (Song 2013), the
 * joint fit (with the shared n^2 Q term when three distinct n allow it) and Song's linear model
 * beside it.  Fits need both orders. */
typedef struct match_analysis {
    bool both;               /* both --orders ran */
    double *diff, *mper;     /* [k]: s, ns */
    pst_match_fit fit, song;
} match_analysis;

static match_analysis analyse(const match_cfg *cfg, size_t k, const long long *n, const double *iot, const double *rot)
{
    match_analysis an = {.both = cfg->order_on[ORDER_IN] && cfg->order_on[ORDER_REVERSE],
                         .diff = pst_malloc(k * sizeof *an.diff + 1), .mper = pst_malloc(k * sizeof *an.mper + 1)};
    for (size_t i = 0; i < k; i++) {
        an.diff[i] = rot[i] - iot[i];
        an.mper[i] = pst_match_m_per_n(n[i], iot[i], rot[i]) * 1e9;
    }
    an.song = an.both ? pst_match_fit_model(k, n, iot, rot, false, CONF) : (pst_match_fit){.ok = false};
    an.fit = an.both ? pst_match_fit_model(k, n, iot, rot, true, CONF) : (pst_match_fit){.ok = false};
    if (!an.fit.ok) an.fit = an.song;
    return an;
}

/* Song's (2013) per-n table and the fits. */
static void print_config(const match_cfg *cfg, fit_key key, size_t k, const long long *n, const double *iot,
                         const double *rot, const match_analysis *an)
{
    const pst_match_fit *f = &an->fit, *song = &an->song;
    printf("\n== match: %s algorithm, queue %s (%s), wildcard %s (%s), length %d doubles (%lld B)%s ==\n",
           alg_names[key.alg], queue_names[key.queue], queue_desc[key.queue], wild_names[key.wild],
           wild_desc[key.wild], key.length, 8LL * key.length,
           cfg->asserts.n ? (cfg->asserted ? ", with the --assert assertions" : ", without assertions") : "");
    printf("   round trip of n messages each way; %lld reps x %lld iters; statistic: %s over reps of the mean round trip\n",
           cfg->reps, cfg->iters, cfg->stat);
    printf("  %7s  %12s %12s %12s %14s %12s\n", "n", "IOT (us)", "ROT (us)", "Diff (us)", "failed/trip", "M (ns)");
    for (size_t i = 0; i < k; i++) {
        double failed = order_forced(key.alg, key.wild) ? pst_match_failed(n[i]) : 0;
        printf("  %7lld ", n[i]);
        print_cell(cfg->order_on[ORDER_IN], iot[i] * 1e6, 12, 3);
        print_cell(cfg->order_on[ORDER_REVERSE], rot[i] * 1e6, 12, 3);
        print_cell(an->both, an->diff[i] * 1e6, 12, 3);
        print_cell(true, failed, 14, 0);
        print_cell(an->both && isfinite(an->mper[i]), an->mper[i], 12, 3);
        putchar('\n');
    }
    const char *control = order_forced(key.alg, key.wild) ? "" : "   (control: wildcard tags force no order, expect 0)";
    if (!an->both) {
        printf("  (no fit: it needs both --orders in,reverse)\n");
    } else if (!f->ok) {
        printf("  (no fit: it needs at least two distinct n, one of them >= 2)\n");
    } else {
        printf("  fit over all n: IOT = L + n*S%s, ROT = IOT + n(n-1)*M   (R^2 = %.4f, %zu observations)\n",
               f->curved ? " + n^2*Q" : "", f->r2, f->nobs);
        printf("    L = %.3f us [%.3f, %.3f]   S = %.4f us/msg [%.4f, %.4f]", f->l_s * 1e6, f->l_ci[0] * 1e6,
               f->l_ci[1] * 1e6, f->s_s * 1e6, f->s_ci[0] * 1e6, f->s_ci[1] * 1e6);
        if (f->curved) printf("   Q = %.3f ns/msg^2 [%.3f, %.3f]", f->q_s * 1e9, f->q_ci[0] * 1e9, f->q_ci[1] * 1e9);
        printf("\n    M = %.3f ns per failed match, 95 %% CI [%.3f, %.3f]%s\n", f->m_s * 1e9, f->m_ci[0] * 1e9,
               f->m_ci[1] * 1e9, control);
        if (f->curved)
            printf("    (Song's linear model, no Q: M = %.3f ns [%.3f, %.3f], R^2 = %.4f)\n", song->m_s * 1e9,
                   song->m_ci[0] * 1e9, song->m_ci[1] * 1e9, song->r2);
    }
    fflush(stdout);
}

/* The configuration's fit summary record (only when both orders ran). */
static void emit_config(match_cfg *cfg, fit_key key, size_t k, const long long *n, const double *iot, const double *rot,
                        const match_analysis *an)
{
    if (!an->both) return;
    const pst_match_fit *f = &an->fit, *song = &an->song;
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_fit);
    rec_key(&r, key);
    pst_rec_int(&r, "bytes", 8LL * key.length);
    rec_asserts(&r, cfg);
    pst_rec_str(&r, "stat", stat_field(cfg));
    pst_rec_str(&r, "model", f->curved ? "IOT = L + n*S + n^2*Q; ROT = IOT + n(n-1)*M (per round trip)"
                                       : "IOT = L + n*S; ROT = IOT + n(n-1)*M (per round trip)");
    pst_rec_ints(&r, "counts", n, k);
    pst_rec_nums(&r, "iot_s", iot, k);
    pst_rec_nums(&r, "rot_s", rot, k);
    pst_rec_nums(&r, "diff_s", an->diff, k);
    pst_rec_nums(&r, "m_ns_per_n", an->mper, k);
    pst_rec_bool(&r, "fitted", f->ok);
    pst_rec_num(&r, "m_ns", f->m_s * 1e9);
    if (f->ok) emit_ci(&r, "m_ns_ci95", f->m_ci, 1e9);
    pst_rec_num(&r, "r2", f->r2);
    pst_rec_num(&r, "l_s", f->l_s);
    if (f->ok) emit_ci(&r, "l_s_ci95", f->l_ci, 1);
    pst_rec_num(&r, "s_s", f->s_s);
    if (f->ok) emit_ci(&r, "s_s_ci95", f->s_ci, 1);
    if (f->curved) {
        pst_rec_num(&r, "q_s", f->q_s);
        emit_ci(&r, "q_s_ci95", f->q_ci, 1);
    }
    pst_rec_num(&r, "song_m_ns", song->m_s * 1e9);
    if (song->ok) emit_ci(&r, "song_m_ns_ci95", song->m_ci, 1e9);
    pst_rec_num(&r, "song_r2", song->r2);
    pst_rec_int(&r, "nobs", (long long)f->nobs);
    pst_rec_bool(&r, "order_forced", order_forced(key.alg, key.wild));
    pst_rec_emit(&r, &cfg->ctx);
}

/* One configuration (rank 0): analyse, print, emit; returns the joint fit for the verdicts. */
static pst_match_fit report_config(match_cfg *cfg, fit_key key, size_t k, const long long *n, const double *iot,
                                   const double *rot)
{
    match_analysis an = analyse(cfg, k, n, iot, rot);
    print_config(cfg, key, k, n, iot, rot, &an);
    emit_config(cfg, key, k, n, iot, rot, &an);
    free(an.diff);
    free(an.mper);
    return an.fit;
}

static void report_verdict(match_cfg *cfg, fit_key key, const pst_match_fit *comm, const pst_match_fit *tag)
{
    double ratio;
    pst_queue_verdict v = pst_match_verdict(comm, tag, &ratio);
    char evidence[512];
    int len = snprintf(evidence, sizeof evidence, "comm M = %.3f ns [%.3f, %.3f]", comm->m_s * 1e9, comm->m_ci[0] * 1e9,
                       comm->m_ci[1] * 1e9);
    if (tag)
        len += snprintf(evidence + len, sizeof evidence - (size_t)len, "; tag M = %.3f ns [%.3f, %.3f]", tag->m_s * 1e9,
                        tag->m_ci[0] * 1e9, tag->m_ci[1] * 1e9);
    if (tag && isfinite(ratio)) snprintf(evidence + len, sizeof evidence - (size_t)len, "; comm/tag = %.3f", ratio);
    else if (tag) snprintf(evidence + len, sizeof evidence - (size_t)len, "; no comm/tag ratio: tag M not significantly different from 0");
    else snprintf(evidence + len, sizeof evidence - (size_t)len, "; no tag reference (tag algorithm not run, or wildcard tag)");
    const char *meaning = v == PST_QUEUES_PER_COMM ? "one match queue per communicator: reverse posting across "
                                                     "communicators costs (next to) no failed matches"
                          : v == PST_QUEUES_SHARED ? "one queue shared by all communicators: Diff grows like n^2 "
                                                     "as with tags"
                                                   : "neither clearly per-communicator nor shared at this precision";
    printf("\n  verdict (queue %s, wildcard %s, length %d): %s -- %s\n    evidence: %s\n", queue_names[key.queue],
           wild_names[key.wild], key.length, pst_match_verdict_name(v), meaning, evidence);
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_queues);
    pst_rec_str(&r, "queue", queue_names[key.queue]);
    pst_rec_str(&r, "wildcard", wild_names[key.wild]);
    pst_rec_int(&r, "length", key.length);
    rec_asserts(&r, cfg);
    pst_rec_str(&r, "verdict", pst_match_verdict_name(v));
    pst_rec_num(&r, "m_comm_ns", comm->m_s * 1e9);
    emit_ci(&r, "m_comm_ns_ci95", comm->m_ci, 1e9);
    if (tag) {
        pst_rec_num(&r, "m_tag_ns", tag->m_s * 1e9);
        emit_ci(&r, "m_tag_ns_ci95", tag->m_ci, 1e9);
    }
    pst_rec_num(&r, "comm_over_tag", ratio);
    pst_rec_str(&r, "evidence", evidence);
    pst_rec_emit(&r, &cfg->ctx);
    fflush(stdout);
}

/* --assert: does M fall with the assertions?  Only a cost measured without them (an interval
 * above 0) can fall; then lower or higher when the two 95 % intervals are apart, else no
 * difference at this precision. */
static void report_asserts(match_cfg *cfg, fit_key key, const pst_match_fit *plain, const pst_match_fit *asserted)
{
    const char *effect = !(plain->m_ci[0] > 0)                ? "no matching cost measured without them"
                         : asserted->m_ci[1] < plain->m_ci[0] ? "lower"
                         : asserted->m_ci[0] > plain->m_ci[1] ? "higher"
                                                              : "no difference at this precision";
    printf("  %-4s algorithm, queue %s, wildcard %s, length %d: M %.3f ns [%.3f, %.3f] without, %.3f ns [%.3f, %.3f] with: %s\n",
           alg_names[key.alg], queue_names[key.queue], wild_names[key.wild], key.length, plain->m_s * 1e9,
           plain->m_ci[0] * 1e9, plain->m_ci[1] * 1e9, asserted->m_s * 1e9, asserted->m_ci[0] * 1e9, asserted->m_ci[1] * 1e9,
           effect);
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_asserts);
    rec_key(&r, key);
    pst_rec_strs(&r, "asserts", (const char *const *)cfg->asserts.v, cfg->asserts.n);
    pst_rec_str(&r, "acknowledged", cfg->acknowledged[0] ? cfg->acknowledged : NULL);
    pst_rec_num(&r, "m_plain_ns", plain->m_s * 1e9);
    emit_ci(&r, "m_plain_ns_ci95", plain->m_ci, 1e9);
    pst_rec_num(&r, "m_asserted_ns", asserted->m_s * 1e9);
    emit_ci(&r, "m_asserted_ns_ci95", asserted->m_ci, 1e9);
    pst_rec_num(&r, "asserted_over_plain", asserted->m_s / plain->m_s);
    pst_rec_str(&r, "effect", effect);
    pst_rec_emit(&r, &cfg->ctx);
}

/* ---- validation and setup -------------------------------------------------------------- */

static void flags_from(const pst_str_list *l, const char *const *names, bool *on)
{
    for (size_t i = 0; i < l->n; i++) on[name_index(names, l->v[i])] = true;
}

static void default_list(pst_str_list *l, const char *csv)
{
    char err[64];
    if (l->n == 0) pst_parse_strings(csv, l, err, sizeof err);
}

/* Duplicate one communicator per message up front; a library that runs out of context ids
 * is reported as a usage error naming how many it could make. */
/* One duplicate of the pair per message (comm algorithm), with `info` (MPI_INFO_NULL: none). */
static MPI_Comm *create_comms(match_cfg *cfg, long long needed, MPI_Info info)
{
    long long made = LLONG_MAX;
    char why[MPI_MAX_ERROR_STRING] = "";
    MPI_Comm *comms = NULL;
    if (cfg->role != ROLE_IDLE) {
        comms = pst_malloc((size_t)needed * sizeof *comms);
        MPI_Comm_set_errhandler(cfg->pair, MPI_ERRORS_RETURN);
        for (made = 0; made < needed; made++) {
            int rc = MPI_Comm_dup_with_info(cfg->pair, info, &comms[made]);
            if (rc != MPI_SUCCESS) {
                int len;
                MPI_Error_string(rc, why, &len);
                break;
            }
            MPI_Comm_set_errhandler(comms[made], MPI_ERRORS_ARE_FATAL);
        }
        MPI_Comm_set_errhandler(cfg->pair, MPI_ERRORS_ARE_FATAL);
    }
    long long least;
    MPI_Allreduce(&made, &least, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    cfg->ncomms = cfg->role == ROLE_IDLE ? 0 : made;
    if (least >= needed) return comms;
    for (long long i = 0; i < cfg->ncomms; i++) MPI_Comm_free(&comms[i]);
    /* MPICH's error string is a call stack; its last frame says what ran out. */
    const char *reason = why;
    for (const char *p = strstr(why, "): "); p; p = strstr(p + 1, "): ")) reason = p + 3;
    pst_usage_error("--counts: the comm algorithm needs %lld communicators (one per message%s) but this MPI library "
                    "could create only %lld (MPI_Comm_dup: %s); lower --counts or use --algorithms tag",
                    needed, info == MPI_INFO_NULL ? "" : ", with and without --assert", least, reason);
}

/* The info assertions of --assert, and which of them the library gives back from the asserted
 * communicator (MPI-4.0: MPI_Comm_get_info returns the hints it uses; a library that ignores
 * them returns none). */
static MPI_Info assert_info(const match_cfg *cfg)
{
    MPI_Info info;
    MPI_Info_create(&info);
    for (size_t i = 0; i < cfg->asserts.n; i++)
        MPI_Info_set(info, assert_keys[name_index(assert_names, cfg->asserts.v[i])], "true");
    return info;
}

static void find_acknowledged(match_cfg *cfg)
{
    cfg->acknowledged[0] = '\0';
    if (cfg->data_asserted == MPI_COMM_NULL) return;
    MPI_Info got;
    int nkeys;
    MPI_Comm_get_info(cfg->data_asserted, &got);
    MPI_Info_get_nkeys(got, &nkeys);
    size_t used = 0;
    for (int k = 0; k < nkeys; k++) {
        char key[MPI_MAX_INFO_KEY + 1];
        MPI_Info_get_nthkey(got, k, key);
        for (size_t i = 0; i < cfg->asserts.n; i++)
            if (!strcmp(key, assert_keys[name_index(assert_names, cfg->asserts.v[i])]))
                used += (size_t)snprintf(cfg->acknowledged + used, used < sizeof cfg->acknowledged ? sizeof cfg->acknowledged - used : 0,
                                         "%s%s", used ? "," : "", cfg->asserts.v[i]);
    }
    MPI_Info_free(&got);
}

/* The communicators the next measurements use: plain or asserted. */
static void use_asserted(match_cfg *cfg, bool asserted)
{
    cfg->asserted = asserted;
    cfg->data = asserted ? cfg->data_asserted : cfg->data_plain;
    cfg->comms = asserted ? cfg->comms_asserted : cfg->comms_plain;
}

static void validate(match_cfg *cfg)
{
    pst_ctx *c = &cfg->ctx;
    if (c->size < 2) pst_usage_error("match needs at least 2 ranks (running on 1); start it with mpiexec -n 2 or more");
    char why[512];
    if (cfg->mpi_t && pst_mpi_feature_missing(PST_FEAT_MPI_T, why, sizeof why)) pst_usage_error("--mpi-t: %s", why);
    default_list(&cfg->algorithms, "tag,comm");
    default_list(&cfg->orders, "in,reverse");
    default_list(&cfg->queues, "any");
    default_list(&cfg->wildcards, "none");
    /* An assertion the measurement would break is refused: the library may rely on it. */
    if (pst_str_list_has(&cfg->asserts, "no_any_tag") && pst_str_list_has(&cfg->wildcards, "tag"))
        pst_usage_error("--assert no_any_tag: --wildcard tag receives with MPI_ANY_TAG, which the assertion forbids");
    if (pst_str_list_has(&cfg->asserts, "no_any_source") && pst_str_list_has(&cfg->wildcards, "source"))
        pst_usage_error("--assert no_any_source: --wildcard source receives with MPI_ANY_SOURCE, which the assertion forbids");
    flags_from(&cfg->algorithms, alg_names, cfg->alg_on);
    flags_from(&cfg->orders, order_names, cfg->order_on);
    if (cfg->counts.n == 0) {
        static const long long seed_counts[] = {1, 10, 20, 30, 40, 45, 50, 60, 70, 80, 90};
        pst_int_list_set(&cfg->counts, sizeof seed_counts / sizeof *seed_counts, seed_counts);
    }
    if (cfg->lengths.n == 0) {
        static const long long seed_lengths[] = {10, 100, 1000, 10000};
        pst_int_list_set(&cfg->lengths, sizeof seed_lengths / sizeof *seed_lengths, seed_lengths);
    }
    long long max_n = 0, max_len = 0;
    for (size_t i = 0; i < cfg->counts.n; i++) max_n = cfg->counts.v[i] > max_n ? cfg->counts.v[i] : max_n;
    for (size_t i = 0; i < cfg->lengths.n; i++) max_len = cfg->lengths.v[i] > max_len ? cfg->lengths.v[i] : max_len;
    if (max_len > 0 && max_n > MAX_BUFFER_BYTES / 8 / max_len)
        pst_usage_error("--counts/--lengths: %lld messages of %lld doubles need %lld bytes per buffer (allowed: up to %lld)",
                        max_n, max_len, max_n * max_len * 8, MAX_BUFFER_BYTES);
    int *tag_ub, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    if (cfg->alg_on[ALG_TAG] && flag && max_n - 1 > *tag_ub)
        pst_usage_error("--counts: the tag algorithm needs tags up to %lld but this MPI library allows up to %d (MPI_TAG_UB)",
                        max_n - 1, *tag_ub);

    cfg->role = c->rank == 0 ? ROLE_A : c->rank == 1 ? ROLE_B : ROLE_IDLE;
    cfg->peer = c->rank == 0 ? 1 : 0;
    MPI_Comm_split(MPI_COMM_WORLD, cfg->role == ROLE_IDLE ? MPI_UNDEFINED : 0, c->rank, &cfg->pair);
    cfg->data_plain = cfg->data_asserted = MPI_COMM_NULL;
    MPI_Info info = cfg->asserts.n ? assert_info(cfg) : MPI_INFO_NULL;
    if (cfg->pair != MPI_COMM_NULL) {
        MPI_Comm_dup(cfg->pair, &cfg->data_plain);
        MPI_Comm_dup(cfg->pair, &cfg->ctrl);
        if (cfg->asserts.n) MPI_Comm_dup_with_info(cfg->pair, info, &cfg->data_asserted);
    }
    if (cfg->alg_on[ALG_COMM]) {
        cfg->comms_plain = create_comms(cfg, max_n, MPI_INFO_NULL);
        if (cfg->asserts.n) cfg->comms_asserted = create_comms(cfg, max_n, info);
    }
    if (cfg->asserts.n) {
        find_acknowledged(cfg);
        MPI_Info_free(&info);
    }
    use_asserted(cfg, false);
    if (cfg->mpi_t && cfg->role != ROLE_IDLE) {
        pst_mpit_open(&cfg->mpit);
        pst_mpit_bind(&cfg->mpit, cfg->data_plain);
    }
}

/* --mpi-t (rank 0): what the library exposes, once. */
static void report_mpit(match_cfg *cfg)
{
    const pst_mpit *t = &cfg->mpit;
    const char *posted = pst_mpit_queue_var(t, PST_MPIT_POSTED), *unexpected = pst_mpit_queue_var(t, PST_MPIT_UNEXPECTED);
    bool exposed = posted || unexpected;
    printf("# MPI_T: %d performance variables; match queue lengths: %s%s%s%s\n", t->npvars,
           exposed ? "posted " : "not exposed by this library", exposed ? (posted ? posted : "-") : "",
           exposed ? ", unexpected " : "", exposed ? (unexpected ? unexpected : "-") : "");
    if (!exposed)
        printf("#   (MPICH exposes posted_recvq_length and unexpected_recvq_length when built with --enable-mpit-pvars=all;\n"
               "#    Open MPI's ob1 PML exposes them per communicator: docs/match.md)\n");
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_mpit);
    pst_rec_bool(&r, "mpi_t", t->started);
    pst_rec_int(&r, "pvars", t->npvars);
    pst_rec_strs(&r, "pvar_names", (const char *const *)t->names, (size_t)t->npvars);
    pst_rec_str(&r, "posted_var", posted);
    pst_rec_str(&r, "unexpected_var", unexpected);
    pst_rec_bool(&r, "queues_exposed", exposed);
    pst_rec_emit(&r, &cfg->ctx);
    fflush(stdout);
}

static void release(match_cfg *cfg)
{
    pst_mpit_close(&cfg->mpit);
    for (long long i = 0; i < cfg->ncomms; i++) {
        MPI_Comm_free(&cfg->comms_plain[i]);
        if (cfg->comms_asserted) MPI_Comm_free(&cfg->comms_asserted[i]);
    }
    free(cfg->comms_plain);
    free(cfg->comms_asserted);
    if (cfg->pair != MPI_COMM_NULL) {
        MPI_Comm_free(&cfg->data_plain);
        if (cfg->data_asserted != MPI_COMM_NULL) MPI_Comm_free(&cfg->data_asserted);
        MPI_Comm_free(&cfg->ctrl);
        MPI_Comm_free(&cfg->pair);
    }
}

int pst_cmd_match(int argc, char **argv)
{
    match_cfg cfg = {.iters = 10, .reps = 40, .warmup = 2, .stat = "min"};
    pst_ctx_init(&cfg.ctx, &pst_schema_match_header, argc, argv);
    const pst_opt opts[] = {
        {"algorithms", PST_OPT_STRINGS, &cfg.algorithms, "LIST",
         "how the match order is forced: tag (one tag per message), comm (one communicator per message) (default tag,comm)",
         1, 0, alg_names},
        {"orders", PST_OPT_STRINGS, &cfg.orders, "LIST", "receive posting order on rank 1: in, reverse (default in,reverse)",
         1, 0, order_names},
        {"queue", PST_OPT_STRINGS, &cfg.queues, "LIST",
         "queue searched: posted (receives first), unexpected (messages first), any (Song 2013: uncontrolled) (default any)",
         1, 0, queue_names},
        {"wildcard", PST_OPT_STRINGS, &cfg.wildcards, "LIST",
         "receive wildcards: none, source (MPI_ANY_SOURCE), tag (MPI_ANY_TAG) (default none)", 1, 0, wild_names},
        {"counts", PST_OPT_INTS, &cfg.counts, "LIST",
         "messages per batch n, e.g. 1,10:90:+10 or 10000 (default 1,10,20,30,40,45,50,60,70,80,90)", 1, MAX_COUNT, NULL},
        {"lengths", PST_OPT_INTS, &cfg.lengths, "LIST",
         "message length in doubles (8 B each), e.g. 10:10000:x10 (default 10,100,1000,10000)", 0, MAX_BUFFER_BYTES / 8, NULL},
        {"iters", PST_OPT_INT, &cfg.iters, "N", "round trips timed together per repetition", 1, 1e7, NULL},
        {"reps", PST_OPT_INT, &cfg.reps, "N", "timed repetitions per point, each after a barrier", 1, 1e6, NULL},
        {"warmup", PST_OPT_INT, &cfg.warmup, "N", "untimed round trips per point and order", 0, 1e6, NULL},
        {"stat", PST_OPT_STRING, &cfg.stat, "NAME", "statistic over repetitions used for IOT/ROT and the fit",
         1, 0, stat_names},
        PST_SAMPLES_OPT(&cfg.samples, "repetition"),
        {"mpi-t", PST_OPT_FLAG, &cfg.mpi_t, NULL,
         "list the library's MPI_T performance variables and, where it exposes the match queues' lengths, read them in an "
         "untimed round trip per point to check the depth each mode means to build", 1, 0, NULL},
        {"assert", PST_OPT_STRINGS, &cfg.asserts, "LIST",
         "MPI-4 communicator info assertions (mpi_assert_*): no_any_tag, no_any_source, allow_overtaking; every "
         "configuration runs without and with them, and M is compared (default none)", 1, 0, assert_names},
        PST_COMMON_OPTS(&cfg.ctx),
        {0},
    };
    const pst_command cmd = {
        .name = "match",
        .summary = "Cost of MPI message matching (Song 2013): multi-message ping-pong between ranks 0 and 1 with\n"
                   "receives posted in order or in reverse; fits M, the time per failed match, over all n.",
        .description =
            "Rank 0 sends n messages, rank 1 receives them (in order or in reverse) and echoes them back in the\n"
            "same order; rank 0 verifies what comes back.  Other ranks idle.  IOT(n) and ROT(n) are the round-trip\n"
            "times for in-order and reverse-order posting; in and reverse are interleaved in every repetition.\n"
            "Model: IOT = L + n*S + n^2*Q, ROT = IOT + n(n-1)*M (n(n-1)/2 failed matches per direction), fitted by\n"
            "least squares to both curves at once; M is reported in ns per failed match with a 95 % t interval.\n"
            "Q (not in Song 2013) takes up curvature common to both orders; Song's Q = 0 fit is shown beside it.\n"
            "With both algorithms, the comm algorithm's M against the tag algorithm's says whether the library\n"
            "keeps one match queue per communicator.  Wildcard tag with the tag algorithm forces no order: a\n"
            "control whose M should be 0.",
        .examples = "  mpiexec -n 2 pstswm match --out match.jsonl                       # Song 2013's sweep, scaled\n"
                    "  mpiexec -n 2 pstswm match --queue posted,unexpected --lengths 10 --reps 30\n"
                    "  mpiexec -n 2 pstswm match --algorithms tag --counts 1000:10000:+3000 --lengths 1 --iters 1\n"
                    "  mpiexec -n 2 pstswm match --algorithms tag --wildcard none,source,tag --lengths 10\n"
                    "  mpiexec -n 2 pstswm match --algorithms tag --lengths 1 --assert no_any_tag,no_any_source,allow_overtaking\n"
                    "  mpiexec -n 2 pstswm match --algorithms tag --queue posted,unexpected --mpi-t",
        .opts = opts,
    };
    pst_cli_parse(&cmd, argc, argv);
    validate(&cfg);
    pst_ctx_validated(&cfg.ctx);
    pst_ctx_start(&cfg.ctx);
    if (cfg.mpi_t && cfg.ctx.rank == 0) report_mpit(&cfg);

    size_t k = cfg.counts.n, nreps = (size_t)cfg.reps;
    point pt = {0};
    for (int o = 0; o < NORDER; o++) pt.t[o] = pst_calloc(nreps, sizeof(double));
    double *curve[NORDER];
    for (int o = 0; o < NORDER; o++) curve[o] = pst_calloc(k, sizeof(double));

    /* With --assert every configuration runs twice: on the plain communicators, then on the
     * asserted ones; each run's fits are kept for the comparison of M. */
    size_t nkeys = cfg.queues.n * cfg.wildcards.n * cfg.lengths.n * NALG;
    pst_match_fit *assert_fits = pst_calloc(2 * nkeys, sizeof *assert_fits);
    for (int am = 0; am < (cfg.asserts.n ? 2 : 1); am++) {
    use_asserted(&cfg, am == 1);
    for (size_t qi = 0; qi < cfg.queues.n; qi++) {
        int queue = name_index(queue_names, cfg.queues.v[qi]);
        for (size_t wi = 0; wi < cfg.wildcards.n; wi++) {
            int wild = name_index(wild_names, cfg.wildcards.v[wi]);
            for (size_t li = 0; li < cfg.lengths.n; li++) {
                int length = (int)cfg.lengths.v[li];
                pst_match_fit fits[NALG];
                bool fitted[NALG] = {false};
                for (int alg = 0; alg < NALG; alg++) {
                    if (!cfg.alg_on[alg]) continue;
                    for (size_t i = 0; i < k; i++) {
                        long long n = cfg.counts.v[i];
                        pst_watchdog_phase("match %s algorithm, queue %s, wildcard %s, n %lld, length %d", alg_names[alg],
                                           queue_names[queue], wild_names[wild], n, length);
                        measure(&cfg, alg, queue, wild, n, length, &pt);
                        if (pt.corrupted)
                            pst_collective_exit(PST_EXIT_FAILED,
                                                "payload verification failed: %s algorithm, queue %s, wildcard %s, n %lld, "
                                                "length %d: %lld corrupted words came back",
                                                alg_names[alg], queue_names[queue], wild_names[wild], n, length, pt.corrupted);
                        if (cfg.ctx.rank != 0) continue;
                        for (int o = 0; o < NORDER; o++) {
                            if (!cfg.order_on[o]) continue;
                            curve[o][i] = stat_of(&cfg, &pt.s[o]);
                            emit_point(&cfg, alg, o, queue, wild, n, length, &pt);
                        }
                        if (pt.depth_seen >= 0 && pt.depth_seen != n)
                            printf("  note: %s queue held %lld entries (MPI_T) where the %s mode means %lld\n",
                                   queue_names[queue], pt.depth_seen, queue_names[queue], n);
                    }
                    if (cfg.ctx.rank != 0) continue;
                    fit_key key = {alg, queue, wild, length};
                    fits[alg] = report_config(&cfg, key, k, cfg.counts.v, curve[ORDER_IN], curve[ORDER_REVERSE]);
                    fitted[alg] = fits[alg].ok;
                    assert_fits[2 * (((qi * cfg.wildcards.n + wi) * cfg.lengths.n + li) * NALG + (size_t)alg) + (size_t)am] =
                        fits[alg];
                }
                /* Under wildcard tags the tag algorithm is a control, not a reference. */
                bool tag_ref = fitted[ALG_TAG] && order_forced(ALG_TAG, wild);
                if (cfg.ctx.rank == 0 && fitted[ALG_COMM])
                    report_verdict(&cfg, (fit_key){ALG_COMM, queue, wild, length}, &fits[ALG_COMM], tag_ref ? &fits[ALG_TAG] : NULL);
            }
        }
    }
    }
    if (cfg.asserts.n && cfg.ctx.rank == 0) {
        printf("\n== M without and with the assertions; MPI_Comm_get_info gave back: %s ==\n",
               cfg.acknowledged[0] ? cfg.acknowledged : "none (the library does not say it uses them)");
        for (size_t qi = 0; qi < cfg.queues.n; qi++)
            for (size_t wi = 0; wi < cfg.wildcards.n; wi++)
                for (size_t li = 0; li < cfg.lengths.n; li++)
                    for (int alg = 0; alg < NALG; alg++) {
                        const pst_match_fit *f = &assert_fits[2 * (((qi * cfg.wildcards.n + wi) * cfg.lengths.n + li) * NALG + (size_t)alg)];
                        fit_key key = {alg, name_index(queue_names, cfg.queues.v[qi]), name_index(wild_names, cfg.wildcards.v[wi]),
                                       (int)cfg.lengths.v[li]};
                        if (f[0].ok && f[1].ok) report_asserts(&cfg, key, &f[0], &f[1]);
                    }
    }
    free(assert_fits);

    for (int o = 0; o < NORDER; o++) {
        free(pt.t[o]);
        free(curve[o]);
    }
    release(&cfg);
    pst_ctx_finish(&cfg.ctx);
    return PST_EXIT_OK;
}
