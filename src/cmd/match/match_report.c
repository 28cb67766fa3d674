/* pstswm match, the report of each configuration (rank 0): Song's (2013) per-n table, the joint
 * fit of M and its record, the points' records, the per-communicator queue verdict of a comm
 * configuration, --mpi-t's account of the library's variables and the --assert comparison. */
#include "cmd/match/match_impl.h"
#include "cmd/common/records.h"
#include "core/alloc.h"
#include "runtime/emit.h"
#include "runtime/locality.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONF 0.95

const char *const pst_match_alg_names[] = {"tag", "comm", NULL};
const char *const pst_match_order_names[] = {"in", "reverse", NULL};
const char *const pst_match_queue_names[] = {"posted", "unexpected", "any", NULL};
static const char *const queue_desc[] = {
    "receives posted before the messages arrive (go-signal)",
    "messages queued before the receives are posted (fence + probe)",
    "no control: as Song 2013, whichever queue the race gives",
};
const char *const pst_match_wild_names[] = {"none", "source", "tag", NULL};
static const char *const wild_desc[] = {"source and tag named", "receives use MPI_ANY_SOURCE",
                                        "receives use MPI_ANY_TAG"};

static double stat_of(const match_cfg *cfg, const pst_summary *s)
{
    return strcmp(cfg->stat, "min") ? s->median : s->min;
}
static const char *stat_field(const match_cfg *cfg) { return strcmp(cfg->stat, "min") ? "t_med" : "t_min"; }

/* Order is forced by tags or communicators, unless wildcard tags void the tag algorithm's. */
static bool order_forced(int alg, int wild) { return !(alg == ALG_TAG && wild == WILD_TAG); }

/* With --assert, which of the two runs a record belongs to: the assertions in effect (none: []). */
static void rec_asserts(pst_rec *r, const match_cfg *cfg)
{
    if (cfg->asserts.n)
        pst_rec_strs(r, "asserts", (const char *const *)cfg->asserts.v, cfg->asserted ? cfg->asserts.n : 0);
}

/* A point's record for one order. */
static void emit_point(match_cfg *cfg, config_key key, int order, long long n, const point *pt)
{
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_point);
    pst_rec_str(&r, "algorithm", pst_match_alg_names[key.alg]);
    pst_rec_str(&r, "locality", pst_locality_of_pairs((const int[]){0}, (const int[]){1}, 1));
    pst_rec_str(&r, "order", pst_match_order_names[order]);
    pst_rec_str(&r, "queue", pst_match_queue_names[key.queue]);
    pst_rec_str(&r, "wildcard", pst_match_wild_names[key.wild]);
    pst_rec_int(&r, "n", n);
    pst_rec_int(&r, "length", key.length);
    pst_rec_int(&r, "bytes", 8LL * key.length);
    rec_asserts(&r, cfg);
    pst_rec_times(&r, &pt->s[order]);
    pst_rec_num(&r, order == ORDER_IN ? "iot_s" : "rot_s", stat_of(cfg, &pt->s[order]));
    pst_rec_str(&r, "stat", stat_field(cfg));
    pst_rec_num(&r, "failed_matches",
                order == ORDER_REVERSE && order_forced(key.alg, key.wild) ? pst_match_failed(n) : 0.0);
    pst_rec_int(&r, "iters", cfg->iters);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    if (cfg->samples) pst_rec_nums(&r, "samples", pt->t[order], (size_t)cfg->reps);
    if (cfg->mpi_t) {
        long long want = pst_match_depth_intended(key.alg, key.queue, n);
        if (want >= 0 && !cfg->asserted) pst_rec_int(&r, "queue_depth_intended", want);
        else pst_rec_null(&r, "queue_depth_intended");
        if (pt->depth_seen >= 0) pst_rec_int(&r, "queue_depth_seen", pt->depth_seen);
        else pst_rec_null(&r, "queue_depth_seen");
    }
    pst_rec_emit(&r, &cfg->ctx);
}

/* ---- per-configuration table and fit -------------------------------------------------- */

/* The configuration a fit belongs to. */
static void rec_key(pst_rec *r, config_key key)
{
    pst_rec_str(r, "algorithm", pst_match_alg_names[key.alg]);
    pst_rec_str(r, "queue", pst_match_queue_names[key.queue]);
    pst_rec_str(r, "wildcard", pst_match_wild_names[key.wild]);
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

/* A fitted comm configuration against the tag one beside it: one queue per communicator or not. */
typedef struct queue_verdict {
    bool made;                /* a fitted comm configuration */
    const pst_match_fit *tag; /* the reference (NULL: none) */
    pst_queue_verdict v;
    double ratio;
    char evidence[512];
} queue_verdict;

static queue_verdict find_verdict(const match_config *c, const pst_match_fit *comm)
{
    queue_verdict q = {.made = c->key.alg == ALG_COMM && comm->ok};
    if (!q.made) return q;
    /* Under wildcard tags the tag algorithm is a control, not a reference. */
    const pst_match_fit *tag = c->tag && c->tag->fit.ok && order_forced(ALG_TAG, c->key.wild) ? &c->tag->fit : NULL;
    q.tag = tag;
    q.v = pst_match_verdict(comm, tag, &q.ratio);
    size_t room = sizeof q.evidence;
    int len = snprintf(q.evidence, room, "comm M = %.3f ns [%.3f, %.3f]", comm->m_s * 1e9, comm->m_ci[0] * 1e9,
                       comm->m_ci[1] * 1e9);
    if (tag)
        len += snprintf(q.evidence + len, room - (size_t)len, "; tag M = %.3f ns [%.3f, %.3f]", tag->m_s * 1e9,
                        tag->m_ci[0] * 1e9, tag->m_ci[1] * 1e9);
    if (tag && isfinite(q.ratio)) snprintf(q.evidence + len, room - (size_t)len, "; comm/tag = %.3f", q.ratio);
    else if (tag)
        snprintf(q.evidence + len, room - (size_t)len, "; no comm/tag ratio: tag M not significantly different from 0");
    else snprintf(q.evidence + len, room - (size_t)len, "; no tag reference (tag algorithm not run, or wildcard tag)");
    return q;
}

static void print_verdict(config_key key, const queue_verdict *q)
{
    const char *meaning = q->v == PST_QUEUES_PER_COMM ? "one match queue per communicator: reverse posting across "
                                                        "communicators costs (next to) no failed matches"
                          : q->v == PST_QUEUES_SHARED ? "one queue shared by all communicators: Diff grows like n^2 "
                                                        "as with tags"
                                                      : "neither clearly per-communicator nor shared at this precision";
    printf("\n  verdict (queue %s, wildcard %s, length %d): %s -- %s\n    evidence: %s\n",
           pst_match_queue_names[key.queue], pst_match_wild_names[key.wild], key.length, pst_match_verdict_name(q->v),
           meaning, q->evidence);
    fflush(stdout);
}

static void emit_verdict(match_cfg *cfg, config_key key, const pst_match_fit *comm, const queue_verdict *q)
{
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_queues);
    pst_rec_str(&r, "queue", pst_match_queue_names[key.queue]);
    pst_rec_str(&r, "wildcard", pst_match_wild_names[key.wild]);
    pst_rec_int(&r, "length", key.length);
    rec_asserts(&r, cfg);
    pst_rec_str(&r, "verdict", pst_match_verdict_name(q->v));
    pst_rec_num(&r, "m_comm_ns", comm->m_s * 1e9);
    emit_ci(&r, "m_comm_ns_ci95", comm->m_ci, 1e9);
    if (q->tag) {
        pst_rec_num(&r, "m_tag_ns", q->tag->m_s * 1e9);
        emit_ci(&r, "m_tag_ns_ci95", q->tag->m_ci, 1e9);
    }
    pst_rec_num(&r, "comm_over_tag", q->ratio);
    pst_rec_str(&r, "evidence", q->evidence);
    pst_rec_emit(&r, &cfg->ctx);
}

/* One configuration's per-n figures and fits: Diff = ROT - IOT and M per n (Song 2013), the
 * joint fit (with the shared n^2 Q term when three distinct n allow it) and Song's linear model
 * beside it.  Fits need both orders. */
typedef struct match_analysis {
    bool both;               /* both --orders ran */
    double *curve[NORDER];   /* [k] the statistic per n: IOT, ROT (s) */
    double *diff, *mper;     /* [k]: s, ns */
    pst_match_fit fit, song;
    queue_verdict verdict;
} match_analysis;

void *pst_match_analyse(const void *p, const void *data)
{
    const match_cfg *cfg = p;
    const config_run *run = data;
    size_t k = cfg->counts.n;
    const long long *n = cfg->counts.v;
    match_analysis *an = pst_calloc(1, sizeof *an);
    an->both = cfg->order_on[ORDER_IN] && cfg->order_on[ORDER_REVERSE];
    for (int o = 0; o < NORDER; o++) {
        an->curve[o] = pst_calloc(k, sizeof(double));
        for (size_t i = 0; i < k && cfg->order_on[o]; i++) an->curve[o][i] = stat_of(cfg, &run->points[i].s[o]);
    }
    const double *iot = an->curve[ORDER_IN], *rot = an->curve[ORDER_REVERSE];
    an->diff = pst_malloc(k * sizeof *an->diff);
    an->mper = pst_malloc(k * sizeof *an->mper);
    for (size_t i = 0; i < k; i++) {
        an->diff[i] = rot[i] - iot[i];
        an->mper[i] = pst_match_m_per_n(n[i], iot[i], rot[i]) * 1e9;
    }
    an->song = an->both ? pst_match_fit_model(k, n, iot, rot, false, CONF) : (pst_match_fit){.ok = false};
    an->fit = an->both ? pst_match_fit_model(k, n, iot, rot, true, CONF) : (pst_match_fit){.ok = false};
    if (!an->fit.ok) an->fit = an->song;
    an->verdict = find_verdict(run->c, &an->fit);
    return an;
}

void pst_match_analysis_free(const void *p, void *analysis)
{
    match_analysis *an = analysis;
    for (int o = 0; o < NORDER; o++) free(an->curve[o]);
    free(an->diff);
    free(an->mper);
    free(an);
}

/* Song's (2013) per-n table and the fits. */
static void print_config(const match_cfg *cfg, config_key key, const match_analysis *an)
{
    const pst_match_fit *f = &an->fit, *song = &an->song;
    printf("\n== match: %s algorithm, queue %s (%s), wildcard %s (%s), length %d doubles (%lld B)%s ==\n",
           pst_match_alg_names[key.alg], pst_match_queue_names[key.queue], queue_desc[key.queue],
           pst_match_wild_names[key.wild], wild_desc[key.wild], key.length, 8LL * key.length,
           cfg->asserts.n ? (cfg->asserted ? ", with the --assert assertions" : ", without assertions") : "");
    printf("   round trip of n messages each way; %lld reps x %lld iters; statistic: %s over reps of the mean round "
           "trip\n",
           cfg->reps, cfg->iters, cfg->stat);
    printf("  %7s  %12s %12s %12s %14s %12s\n", "n", "IOT (us)", "ROT (us)", "Diff (us)", "failed/trip", "M (ns)");
    for (size_t i = 0; i < cfg->counts.n; i++) {
        long long n = cfg->counts.v[i];
        double failed = order_forced(key.alg, key.wild) ? pst_match_failed(n) : 0;
        printf("  %7lld ", n);
        print_cell(cfg->order_on[ORDER_IN], an->curve[ORDER_IN][i] * 1e6, 12, 3);
        print_cell(cfg->order_on[ORDER_REVERSE], an->curve[ORDER_REVERSE][i] * 1e6, 12, 3);
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
static void emit_config(match_cfg *cfg, config_key key, const match_analysis *an)
{
    if (!an->both) return;
    const pst_match_fit *f = &an->fit, *song = &an->song;
    size_t k = cfg->counts.n;
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_fit);
    rec_key(&r, key);
    pst_rec_int(&r, "bytes", 8LL * key.length);
    rec_asserts(&r, cfg);
    pst_rec_str(&r, "stat", stat_field(cfg));
    pst_rec_str(&r, "model", f->curved ? "IOT = L + n*S + n^2*Q; ROT = IOT + n(n-1)*M (per round trip)"
                                       : "IOT = L + n*S; ROT = IOT + n(n-1)*M (per round trip)");
    pst_rec_ints(&r, "counts", cfg->counts.v, k);
    pst_rec_nums(&r, "iot_s", an->curve[ORDER_IN], k);
    pst_rec_nums(&r, "rot_s", an->curve[ORDER_REVERSE], k);
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

/* --assert: does M fall with the assertions?  Only a cost measured without them (an interval
 * above 0) can fall; then lower or higher when the two 95 % intervals are apart, else no
 * difference at this precision. */
static void report_asserts(match_cfg *cfg, config_key key, const pst_match_fit *plain, const pst_match_fit *asserted)
{
    const char *effect = !(plain->m_ci[0] > 0)                ? "no matching cost measured without them"
                         : asserted->m_ci[1] < plain->m_ci[0] ? "lower"
                         : asserted->m_ci[0] > plain->m_ci[1] ? "higher"
                                                              : "no difference at this precision";
    printf("  %-4s algorithm, queue %s, wildcard %s, length %d: M %.3f ns [%.3f, %.3f] without, %.3f ns [%.3f, %.3f] "
           "with: %s\n",
           pst_match_alg_names[key.alg], pst_match_queue_names[key.queue], pst_match_wild_names[key.wild], key.length,
           plain->m_s * 1e9, plain->m_ci[0] * 1e9, plain->m_ci[1] * 1e9, asserted->m_s * 1e9, asserted->m_ci[0] * 1e9,
           asserted->m_ci[1] * 1e9, effect);
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

/* --mpi-t (rank 0): what the library exposes, once, before the first configuration's report. */
static void print_mpit(const match_cfg *cfg)
{
    const pst_mpit *t = &cfg->mpit;
    const char *posted = pst_mpit_queue_var(t, PST_MPIT_POSTED),
               *unexpected = pst_mpit_queue_var(t, PST_MPIT_UNEXPECTED);
    bool exposed = posted || unexpected;
    printf("# MPI_T: %d performance variables; match queue lengths: %s%s%s%s\n", t->npvars,
           exposed ? "posted " : "not exposed by this library", exposed ? (posted ? posted : "-") : "",
           exposed ? ", unexpected " : "", exposed ? (unexpected ? unexpected : "-") : "");
    if (!exposed)
        printf("#   (MPICH exposes posted_recvq_length and unexpected_recvq_length when built with "
               "--enable-mpit-pvars=all;\n"
               "#    Open MPI's ob1 PML exposes them per communicator: docs/match.md)\n");
    fflush(stdout);
}

static void emit_mpit(match_cfg *cfg)
{
    const pst_mpit *t = &cfg->mpit;
    const char *posted = pst_mpit_queue_var(t, PST_MPIT_POSTED),
               *unexpected = pst_mpit_queue_var(t, PST_MPIT_UNEXPECTED);
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_match_mpit);
    pst_rec_bool(&r, "mpi_t", t->started);
    pst_rec_int(&r, "pvars", t->npvars);
    pst_rec_strs(&r, "pvar_names", (const char *const *)t->names, (size_t)t->npvars);
    pst_rec_str(&r, "posted_var", posted);
    pst_rec_str(&r, "unexpected_var", unexpected);
    pst_rec_bool(&r, "queues_exposed", posted || unexpected);
    pst_rec_emit(&r, &cfg->ctx);
}

static bool first_config(const match_cfg *cfg, const config_run *run) { return run->c == cfg->plan.configs; }

void pst_match_print(const void *p, const void *data, const void *analysis)
{
    const match_cfg *cfg = p;
    const config_run *run = data;
    const match_analysis *an = analysis;
    if (cfg->mpi_t && first_config(cfg, run)) print_mpit(cfg);
    for (size_t i = 0; i < cfg->counts.n; i++) {
        long long n = cfg->counts.v[i], seen = run->points[i].depth_seen;
        const char *queue = pst_match_queue_names[run->c->key.queue];
        if (seen >= 0 && seen != n)
            printf("  note: %s queue held %lld entries (MPI_T) where the %s mode means %lld\n", queue, seen, queue, n);
    }
    print_config(cfg, run->c->key, an);
    if (an->verdict.made) print_verdict(run->c->key, &an->verdict);
}

/* Records in the order a run measures: the points, the fit, the verdict; the fit is kept in the
 * plan for the comm configuration after it and the --assert comparison. */
void pst_match_emit(void *p, const void *data, const void *analysis)
{
    match_cfg *cfg = p;
    const config_run *run = data;
    const match_analysis *an = analysis;
    config_key key = run->c->key;
    if (cfg->mpi_t && first_config(cfg, run)) emit_mpit(cfg);
    for (size_t i = 0; i < cfg->counts.n; i++)
        for (int o = 0; o < NORDER; o++)
            if (cfg->order_on[o]) emit_point(cfg, key, o, cfg->counts.v[i], &run->points[i]);
    emit_config(cfg, key, an);
    if (an->verdict.made) emit_verdict(cfg, key, &an->fit, &an->verdict);
    cfg->plan.configs[run->c - cfg->plan.configs].fit = an->fit;
}

/* --assert (rank 0): M of each configuration fitted in both runs, without and with the assertions. */
void pst_match_compare_asserts(void *p)
{
    match_cfg *cfg = p;
    if (!cfg->asserts.n || cfg->ctx.rank != 0) return;
    printf("\n== M without and with the assertions; MPI_Comm_get_info gave back: %s ==\n",
           cfg->acknowledged[0] ? cfg->acknowledged : "none (the library does not say it uses them)");
    for (size_t i = 0; i < cfg->plan.nconfigs; i++) {
        const match_config *c = &cfg->plan.configs[i];
        if (c->plain && c->plain->fit.ok && c->fit.ok) report_asserts(cfg, c->key, &c->plain->fit, &c->fit);
    }
}
