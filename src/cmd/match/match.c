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
#include "cmd/common/frame.h"
#include "cmd/match/match_impl.h"
#include "cmd/common/records.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "runtime/context.h"
#include "runtime/wait.h"
#include "runtime/mpi_features.h"
#include "runtime/payload.h"
#include "runtime/run_schema.h"
#include "runtime/timer.h"
#include "runtime/watchdog.h"
#include "stats/stats.h"

#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_COUNT = 1000000 };
#define MAX_BUFFER_BYTES (1LL << 30) /* per send or receive buffer */

enum { ROLE_IDLE, ROLE_A, ROLE_B };

static const char *const stat_names[] = {"min", "median", NULL};
/* MPI-4.0's communicator info assertions (§7.4.4): the option's names and their info keys. */
static const char *const assert_names[] = {"no_any_tag", "no_any_source", "allow_overtaking", NULL};
static const char *const assert_keys[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                          "mpi_assert_allow_overtaking"};

/* One (algorithm, queue, wildcard, n, length) point on one rank of the pair. */
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
    for (MPI_Test(req, &done, MPI_STATUS_IGNORE); !done; MPI_Test(req, &done, MPI_STATUS_IGNORE))
        nanosleep(&pause, NULL);
}

static long long agree_sum(long long local)
{
    long long total = 0;
    MPI_Request req;
    MPI_Iallreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD, &req);
    sleepy_wait(&req);
    return total;
}

/* --mpi-t: one more round trip, untimed, in which B reads its queue's length at the moment the
 * mode means it to hold n entries; rank 0 gets the value.  On the plain data communicator only
 * (the one the variables are bound to). */
static long long check_depth(const match_cfg *cfg, batch *b)
{
    long long seen = -1;
    if (!cfg->mpi_t || cfg->asserted || pst_match_depth_intended(b->alg, b->queue, b->n) < 0) return -1;
    b->depth_seen = &seen;
    MPI_Barrier(cfg->pair);
    round_trip(b, false);
    b->depth_seen = NULL;
    MPI_Allreduce(MPI_IN_PLACE, &seen, 1, MPI_LONG_LONG, MPI_MAX, cfg->pair);
    return seen;
}

/* Collective over MPI_COMM_WORLD. */
static void measure(const match_cfg *cfg, config_key key, long long n, point *pt)
{
    int length = key.length;
    size_t nreps = (size_t)cfg->reps;
    long long corrupted = 0;
    if (cfg->role != ROLE_IDLE) {
        size_t bytes = (size_t)n * (size_t)length * sizeof(double);
        batch b = {.cfg = cfg, .alg = key.alg, .queue = key.queue, .any_source = key.wild == WILD_SOURCE,
                   .any_tag = key.wild == WILD_TAG, .n = n, .length = length};
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
                    pst_payload_fill(b.sbuf + i * length, (size_t)length * sizeof(double),
                                     pst_payload_seed(0, i, (long long)rep));
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
                used += (size_t)snprintf(cfg->acknowledged + used,
                                         used < sizeof cfg->acknowledged ? sizeof cfg->acknowledged - used : 0, "%s%s",
                                         used ? "," : "", cfg->asserts.v[i]);
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

static void validate(void *p)
{
    match_cfg *cfg = p;
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
        pst_usage_error(
            "--assert no_any_source: --wildcard source receives with MPI_ANY_SOURCE, which the assertion forbids");
    flags_from(&cfg->algorithms, pst_match_alg_names, cfg->alg_on);
    flags_from(&cfg->orders, pst_match_order_names, cfg->order_on);
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
        pst_usage_error(
            "--counts/--lengths: %lld messages of %lld doubles need %lld bytes per buffer (allowed: up to %lld)", max_n,
            max_len, max_n * max_len * 8, MAX_BUFFER_BYTES);
    int *tag_ub, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    if (cfg->alg_on[ALG_TAG] && flag && max_n - 1 > *tag_ub)
        pst_usage_error(
            "--counts: the tag algorithm needs tags up to %lld but this MPI library allows up to %d (MPI_TAG_UB)",
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

static void release(void *p)
{
    match_cfg *cfg = p;
    free(cfg->plan.configs);
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

/* ---- the plan ----------------------------------------------------------------------------- */

/* The configurations of one queue, wildcard and length: one per algorithm run, tag before comm
 * so a comm configuration finds its reference beside it.  `run` 1 is the asserted run of
 * --assert, whose configurations follow the plain run's `per_run` configurations. */
static void plan_algorithms(const match_cfg *cfg, match_plan *plan, config_key key, size_t run, size_t per_run)
{
    for (key.alg = 0; key.alg < NALG; key.alg++) {
        if (!cfg->alg_on[key.alg]) continue;
        match_config *c = &plan->configs[plan->nconfigs++];
        *c = (match_config){.key = key, .asserted = run == 1};
        if (key.alg == ALG_COMM && cfg->alg_on[ALG_TAG]) c->tag = c - 1;
        if (run == 1) c->plain = c - per_run;
    }
}

/* Every configuration, once: the asserted run (--assert) after the plain one, then queue,
 * wildcard, length and algorithm, the order of the tables and records. */
static void plan(void *p)
{
    match_cfg *cfg = p;
    size_t nalgs = (size_t)cfg->alg_on[ALG_TAG] + (size_t)cfg->alg_on[ALG_COMM];
    size_t per_run = cfg->queues.n * cfg->wildcards.n * cfg->lengths.n * nalgs, runs = cfg->asserts.n ? 2 : 1;
    cfg->plan = (match_plan){.configs = pst_calloc(runs * per_run, sizeof *cfg->plan.configs)};
    for (size_t run = 0; run < runs; run++)
        for (size_t qi = 0; qi < cfg->queues.n; qi++)
            for (size_t wi = 0; wi < cfg->wildcards.n; wi++)
                for (size_t li = 0; li < cfg->lengths.n; li++) {
                    config_key key = {.queue = name_index(pst_match_queue_names, cfg->queues.v[qi]),
                                      .wild = name_index(pst_match_wild_names, cfg->wildcards.v[wi]),
                                      .length = (int)cfg->lengths.v[li]};
                    plan_algorithms(cfg, &cfg->plan, key, run, per_run);
                }
}

/* ---- the frame's phases: a set is one configuration of the plan --------------------------- */

static size_t nconfigs(const void *p) { return ((const match_cfg *)p)->plan.nconfigs; }

/* One configuration's points, n by n (collective); rank 0 keeps each point's times. */
static void *measure_config(void *p, size_t set)
{
    match_cfg *cfg = p;
    const match_config *c = &cfg->plan.configs[set];
    config_key key = c->key;
    const char *alg = pst_match_alg_names[key.alg], *queue = pst_match_queue_names[key.queue],
               *wild = pst_match_wild_names[key.wild];
    config_run *run = pst_malloc(sizeof *run);
    *run = (config_run){.c = c, .points = pst_calloc(cfg->counts.n, sizeof *run->points)};
    use_asserted(cfg, c->asserted);
    for (size_t i = 0; i < cfg->counts.n; i++) {
        long long n = cfg->counts.v[i];
        point *pt = &run->points[i];
        for (int o = 0; o < NORDER; o++) pt->t[o] = pst_calloc((size_t)cfg->reps, sizeof(double));
        pst_watchdog_phase("match %s algorithm, queue %s, wildcard %s, n %lld, length %d", alg, queue, wild, n,
                           key.length);
        measure(cfg, key, n, pt);
        if (pt->corrupted)
            pst_collective_exit(PST_EXIT_FAILED,
                                "payload verification failed: %s algorithm, queue %s, wildcard %s, n %lld, "
                                "length %d: %lld corrupted words came back",
                                alg, queue, wild, n, key.length, pt->corrupted);
    }
    return run;
}

static void free_run(void *p, void *data)
{
    const match_cfg *cfg = p;
    config_run *run = data;
    for (size_t i = 0; i < cfg->counts.n; i++)
        for (int o = 0; o < NORDER; o++) free(run->points[i].t[o]);
    free(run->points);
    free(run);
}

/* ---- the row --------------------------------------------------------------------------------- */

static const match_cfg default_cfg = {.iters = 10, .reps = 40, .warmup = 2, .stat = "min"};
static match_cfg run_cfg;
static const pst_opt opts[] = {
    {"algorithms", PST_OPT_STRINGS, &run_cfg.algorithms, "LIST",
     "how the match order is forced: tag (one tag per message), comm (one communicator per message)",
     1, 0, pst_match_alg_names, "tag,comm"},
    {"orders", PST_OPT_STRINGS, &run_cfg.orders, "LIST", "receive posting order on rank 1: in, reverse",
     1, 0, pst_match_order_names, "in,reverse"},
    {"queue", PST_OPT_STRINGS, &run_cfg.queues, "LIST",
     "queue searched: posted (receives first), unexpected (messages first), any (Song 2013: uncontrolled)",
     1, 0, pst_match_queue_names, "any"},
    {"wildcard", PST_OPT_STRINGS, &run_cfg.wildcards, "LIST",
     "receive wildcards: none, source (MPI_ANY_SOURCE), tag (MPI_ANY_TAG)", 1, 0, pst_match_wild_names, "none"},
    {"counts", PST_OPT_INTS, &run_cfg.counts, "LIST",
     "messages per batch n, e.g. 1,10:90:+10 or 10000", 1, MAX_COUNT, NULL, "1,10,20,30,40,45,50,60,70,80,90"},
    {"lengths", PST_OPT_INTS, &run_cfg.lengths, "LIST",
     "message length in doubles (8 B each), e.g. 10:10000:x10", 0, MAX_BUFFER_BYTES / 8, NULL, "10,100,1000,10000"},
    {"iters", PST_OPT_INT, &run_cfg.iters, "N", "round trips timed together per repetition", 1, 1e7, NULL, NULL},
    {"reps", PST_OPT_INT, &run_cfg.reps, "N", "timed repetitions per point, each after a barrier", 1, 1e6, NULL, NULL},
    {"warmup", PST_OPT_INT, &run_cfg.warmup, "N", "untimed round trips per point and order", 0, 1e6, NULL, NULL},
    {"stat", PST_OPT_STRING, &run_cfg.stat, "NAME", "statistic over repetitions used for IOT/ROT and the fit",
     1, 0, stat_names, NULL},
    PST_SAMPLES_OPT(&run_cfg.samples, "repetition"),
    {"mpi-t", PST_OPT_FLAG, &run_cfg.mpi_t, NULL,
     "list the library's MPI_T performance variables and, where it exposes the match queues' lengths, read them in an "
     "untimed round trip per point to check the depth each mode means to build", 1, 0, NULL, NULL},
    {"assert", PST_OPT_STRINGS, &run_cfg.asserts, "LIST",
     "MPI-4 communicator info assertions (mpi_assert_*): no_any_tag, no_any_source, allow_overtaking; every "
     "configuration runs without and with them, and M is compared", 1, 0, assert_names, NULL},
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
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
    .examples =
        "  mpiexec -n 2 pstswm match --out match.jsonl                       # Song 2013's sweep, scaled\n"
        "  mpiexec -n 2 pstswm match --queue posted,unexpected --lengths 10 --reps 30\n"
        "  mpiexec -n 2 pstswm match --algorithms tag --counts 1000:10000:+3000 --lengths 1 --iters 1\n"
        "  mpiexec -n 2 pstswm match --algorithms tag --wildcard none,source,tag --lengths 10\n"
        "  mpiexec -n 2 pstswm match --algorithms tag --lengths 1 --assert no_any_tag,no_any_source,allow_overtaking\n"
        "  mpiexec -n 2 pstswm match --algorithms tag --queue posted,unexpected --mpi-t",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("match");
static const pst_schema *const schemas[] = {&pst_schema_match_header, &pst_schema_match_point, &pst_schema_match_fit,
                                            &pst_schema_match_queues, &pst_schema_match_asserts, &pst_schema_match_mpit,
                                            &footer, NULL};

const pst_subcommand pst_subcommand_match = {
    .name = "match",
    .summary = "cost of MPI message matching: tag/comm algorithms, in/reverse posting, fitted M",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .validate = validate,
    .plan = plan,
    .nsets = nconfigs,
    .measure = measure_config,
    .analyse = pst_match_analyse,
    .print = pst_match_print,
    .emit = pst_match_emit,
    .analysis_free = pst_match_analysis_free,
    .set_free = free_run,
    .finish = pst_match_compare_asserts,
    .release = release,
};
