/* pstswm kernel: each parallel algorithm of Worley 1998 §6 alone, on synthetic data sized like a
 * model run, for every protocol and overlap setting (Worley 1998 and 1999).
 *
 * FFT-stage algorithms (srtrans, swtrans, logtrans, alltoallv, dfft) run across the rows of
 * the grid, Legendre-stage ones (the transposes again, exchsum, halfsum, ringsum, ringpipe,
 * allreduce) down its columns; every row (column) runs at once.  Per point: min/median/mean/
 * max over repetitions of the time per call, each the max over all ranks; every result checked
 * against the MPI collective the algorithm is equivalent to.  Per algorithm: the protocol
 * sensitivity summary of Worley 1999 and Worley 1998 Table 4's cost of 0,6 and of the collective
 * instead of the best protocol.  --transport picks the protocols' transport: a one-sided one
 * sets up its area on each stage communicator when the point's plans are built (outside
 * timing) and frees it after the point. */
#include "algo/algorithm.h"
#include "cmd/frame.h"
#include "cmd/kernel_cases.h"
#include "cmd/kernel_problem.h"
#include "cmd/records.h"
#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "model/dynamics.h"
#include "model/mathlibs.h"
#include "model/skeleton.h"
#include "run/threads.h"
#include "run/compare.h"
#include "run/context.h"
#include "run/emit.h"
#include "run/locality.h"
#include "run/run_schema.h"
#include "run/timer.h"
#include "run/watchdog.h"
#include "stats/sensitivity.h"
#include "stats/stats.h"

#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The algorithms are the registry's rows (algo/algorithm.h); stage s is PST_ALG_STAGE_* bit s. */
static const char *const stage_names[2] = {"fft", "legendre"};

static bool serves(const pst_algorithm *a, int stage) { return (a->stages & (1u << stage)) != 0; }

typedef struct kernel_cfg {
    pst_ctx ctx;
    const char *protocols_spec, *grid_spec, *granularity, *transport, *result, *blas_name, *fftw_plan, *compute, *legendre_kernel_name;
    bool list, json;
    pst_str_list algorithms, stages, overlap;
    long long trunc, levels, fields, reps, warmup, threads;
    /* derived */
    kproblem prob;
    pst_blas blas;            /* --blas */
    pst_leg_method legendre_kernel; /* --legendre-kernel */
    pst_fft_planner fft;      /* --fftw-plan */
    const pst_protocol **protocols;
    size_t nprotocols;
    bool *run_alg, run_stage[2], overlaps[2];  /* run_alg: per registry row */
    bool one_d;               /* FFT stage on P x 1, Legendre stage on 1 x P */
    int px, py;
    kgeom geom[2];            /* per stage */
    const char *stage_locality[2]; /* per stage: do its communicators stay inside a node? */
    pst_compare_opts compare;
    int comms[2];             /* concurrent communicators per stage */
    struct outcome *out;      /* every (algorithm, stage) measured, for the summaries */
    size_t nout;
} kernel_cfg;

static const kernel_cfg default_cfg = {.protocols_spec = "all", .grid_spec = "1d", .transport = "mpi", .result = "replicated",
                                       .trunc = 42, .levels = 16, .fields = 3, .reps = 10, .warmup = 1,
                                       .compare = PST_COMPARE_DEFAULTS, .blas_name = "openblas", .fftw_plan = "measure",
                                       .compute = "real", .legendre_kernel_name = "dgemm"};

/* One alternative measured for an algorithm: a protocol (NULL: the collective) and overlap. */
typedef struct alt {
    const pst_protocol *p;
    bool overlap;
    const pst_algorithm *alg; /* the algorithm's own row, or its family's collective (comparator) */
    char label[32];          /* "2,3+ov", "0,6", "coll" */
} alt;
/* ---- measurement ---- */

/* Results of one (algorithm, stage): its alternatives measured in the same rounds.  The
 * protocol alternatives come first; a transpose or vector sum also runs its stage's MPI
 * collective on the same data in the same rounds (the last alternative, ncomparator = 1), so
 * what the collective costs against the best protocol is a paired comparison. */
typedef struct outcome {
    const pst_algorithm *a;
    int stage;
    size_t nalts, nprotocol_alts;
    alt *alts;
    pst_rounds R;
    long long bytes_max;
    const char *win_model;   /* of the transport's windows (NULL: none, or the collective) */
} outcome;

static void base_fields(pst_rec *r, const kernel_cfg *cfg, const pst_algorithm *a, int stage, const char *win_model)
{
    const kgeom *g = &cfg->geom[stage];
    char grid[32];
    snprintf(grid, sizeof grid, "%dx%d", g->px, g->py);
    pst_rec_str(r, "algorithm", a->name);
    pst_rec_str(r, "stage", stage_names[stage]);
    pst_rec_str(r, "size", cfg->prob.label);
    pst_rec_int(r, "trunc", cfg->prob.trunc);
    pst_rec_int(r, "levels", cfg->prob.levels);
    pst_rec_int(r, "fields", cfg->prob.fields);
    pst_rec_int(r, "nlat", cfg->prob.nlat);
    pst_rec_int(r, "nlon", cfg->prob.nlon);
    pst_rec_str(r, "blas", pst_blas_names[cfg->blas]);
    pst_rec_str(r, "fftw_plan", cfg->fft.effort);
    pst_rec_str(r, "grid", grid);
    pst_rec_str(r, "granularity", cfg->prob.scaled ? cfg->prob.label : NULL);
    pst_rec_int(r, "comm_size", stage == 0 ? g->px : g->py);
    pst_rec_int(r, "comms", cfg->comms[stage]);
    pst_rec_str(r, "locality", cfg->stage_locality[stage]);
    if (a->family == PST_FAMILY_VSUM) {
        pst_rec_str(r, "result", cfg->result);
        pst_rec_str(r, "legendre_kernel", pst_leg_method_names[cfg->legendre_kernel]);
    }
    pst_rec_str(r, "win_model", win_model);
}

typedef struct kturn {
    kernel_cfg *cfg;
    kcase *kc;
    kplan **plans;
    long long *bad;          /* per alternative */
} kturn;

/* One turn: the alternative's warm-up calls before its first round, one untimed call to re-warm
 * it after the previous turn ran another, then one timed call, verified outside the timing. */
static double kernel_turn(void *arg, size_t i, size_t round)
{
    kturn *T = arg;
    for (long long w = 0; w < (round == 0 ? T->cfg->warmup : 0) + 1; w++) kcase_run(T->kc, T->plans[i]);
    pst_transport_settle();
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = pst_now_s();
    kcase_run(T->kc, T->plans[i]);
    double t = pst_now_s() - t0;
    if (!T->cfg->ctx.no_verify) T->bad[i] += kcase_verify(T->kc);
    return t;
}

/* The alternatives of one algorithm: each protocol x overlap setting (an overlap protocol 2,x /
 * 3,x is always overlapped and runs once), or a library collective alone; then the stage's
 * collective as the comparator (unless it is that collective). */
static void alternatives(const kernel_cfg *cfg, outcome *o)
{
    const pst_algorithm *a = o->a, *coll = pst_algorithm_collective(a->family);
    o->alts = pst_malloc((2 * cfg->nprotocols + 2) * sizeof *o->alts);
    size_t n = 0;
    if (a->collective) {
        alt *al = &o->alts[n++];
        *al = (alt){NULL, false, a, ""};
        snprintf(al->label, sizeof al->label, "%s", a == coll ? "coll" : a->name);
    } else {
        for (size_t i = 0; i < cfg->nprotocols; i++) {
            const pst_protocol *p = cfg->protocols[i];
            for (int ov = 0; ov < 2; ov++) {
                if (p->overlap && !ov) continue;
                if (!p->overlap && !cfg->overlaps[ov]) continue;
                alt *al = &o->alts[n++];
                *al = (alt){p, ov == 1, a, ""};
                snprintf(al->label, sizeof al->label, "%s%s", p->code, ov && !p->overlap ? "+ov" : "");
            }
        }
    }
    o->nprotocol_alts = n;
    if (coll && coll != a) o->alts[n++] = (alt){NULL, false, coll, "coll"};
    o->nalts = n;
}

static void emit_point(kernel_cfg *cfg, const outcome *o, size_t i)
{
    const alt *al = &o->alts[i];
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_kernel_point);
    base_fields(&r, cfg, o->a, o->stage, o->win_model);
    pst_rec_str(&r, "protocol", al->p ? al->p->code : "coll");
    pst_rec_str(&r, "slug", al->p ? al->p->slug : "mpi-collective");
    pst_rec_bool(&r, "overlap", al->overlap);
    pst_rec_int(&r, "bytes", o->bytes_max);
    pst_rec_rounds(&r, &o->R, i, &cfg->compare);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    pst_rec_emit(&r, &cfg->ctx);
}

static void run_algorithm(kernel_cfg *cfg, const pst_algorithm *a, int stage, outcome *o)
{
    kgeom *g = &cfg->geom[stage];
    kcase *kc = kcase_create(a->family, stage, &cfg->prob, g, !strcmp(cfg->result, "partitioned"), cfg->blas,
                            cfg->legendre_kernel, &cfg->fft);
    *o = (outcome){.a = a, .stage = stage};
    alternatives(cfg, o);
    long long bytes = kcase_bytes(kc);
    MPI_Allreduce(&bytes, &o->bytes_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (cfg->ctx.rank == 0) {
        printf("\n== %s, %s stage: %d communicator%s of %d ranks, %lld bytes on rank 0, %lld+ rounds (%s); times in ms ==\n",
               a->name, stage_names[stage], cfg->comms[stage], cfg->comms[stage] == 1 ? "" : "s",
               stage == 0 ? g->px : g->py, bytes, cfg->reps, cfg->compare.schedule);
        printf("  %-14s %-36s %-7s %10s %10s %21s %6s\n", "alt", "protocol", "overlap", "min", "median", "median CI", "rounds");
    }
    /* Plans for every alternative (a one-sided transport sets up its area on the stage
     * communicator here, collectively), then the rounds. */
    kturn T = {cfg, kc, pst_malloc(o->nalts * sizeof *T.plans), pst_calloc(o->nalts, sizeof *T.bad)};
    for (size_t i = 0; i < o->nalts; i++) T.plans[i] = kcase_plan(kc, o->alts[i].alg, o->alts[i].p, o->alts[i].overlap);
    o->win_model = pst_transport_memory_model(cfg->transport, g->comm);
    pst_watchdog_phase("kernel %s (%s stage): %zu alternatives in rounds", a->name, stage_names[stage], o->nalts);
    pst_rounds_run(&o->R, &cfg->compare, o->nalts, cfg->reps, kernel_turn, &T);
    for (size_t i = 0; i < o->nalts; i++) kplan_free(T.plans[i]);
    pst_transport_release(cfg->transport, g->comm);
    MPI_Allreduce(MPI_IN_PLACE, T.bad, (int)o->nalts, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (size_t i = 0; i < o->nalts; i++)
        if (T.bad[i])
            pst_collective_exit(PST_EXIT_FAILED, "verification failed: %s (%s stage) protocol %s overlap %s: %lld wrong results "
                                "against the MPI collective", a->name, stage_names[stage], o->alts[i].p ? o->alts[i].p->code : "coll",
                                o->alts[i].overlap ? "on" : "off", T.bad[i]);
    free(T.plans);
    free(T.bad);
    kcase_free(kc);
    if (cfg->ctx.rank != 0) return;
    for (size_t i = 0; i < o->nalts; i++) {
        const alt *al = &o->alts[i];
        /* The comparator's point belongs to the collective's own algorithm run. */
        if (i < o->nprotocol_alts) emit_point(cfg, o, i);
        double lo, hi, med = pst_median_ci(o->R.t[i], o->R.n, cfg->compare.confidence, &lo, &hi);
        pst_summary sm = pst_summarize(o->R.t[i], o->R.n);
        char ci[32];
        snprintf(ci, sizeof ci, "[%.4f, %.4f]", lo * 1e3, hi * 1e3);
        printf("  %-14s %-36s %-7s %10.4f %10.4f %21s %6zu%s\n", al->label, al->p ? al->p->slug : "mpi-collective",
               al->overlap ? "on" : "off", sm.min * 1e3, med * 1e3, ci, o->R.n,
               i >= o->nprotocol_alts ? "  (comparator)" : "");
    }
    fflush(stdout);
}

/* ---- the family comparison: which algorithm to use ---- */

/* Per stage and family (transposes; vector sums): each algorithm's fastest alternative, the
 * library alternatives and the stage's collective again, together in one set of interleaved
 * rounds, so the verdict between algorithms is as paired as the one between protocols.  (dfft's
 * call includes the FFTs: it has no family to be compared in.) */
typedef struct family_outcome {
    int stage;
    pst_alg_family family;
    size_t nalts;
    alt *alts;
    char (*labels)[48];
    pst_rounds R;
    long long bytes_max;
} family_outcome;

/* The alternative of o with the smallest median over rounds (rank 0 decides: it holds the rounds). */
static size_t fastest_alt(const outcome *o)
{
    size_t best = 0;
    double lo, hi, best_s = pst_median_ci(o->R.t[0], o->R.n, 0.5, &lo, &hi);
    for (size_t i = 1; i < o->nprotocol_alts; i++) {
        double t = pst_median_ci(o->R.t[i], o->R.n, 0.5, &lo, &hi);
        if (t < best_s) best = i, best_s = t;
    }
    return best;
}

/* Collective.  out[0 .. n) are this stage's outcomes; false when the family has fewer than two members. */
static bool run_family(kernel_cfg *cfg, int stage, pst_alg_family family, const outcome *out, size_t n, family_outcome *f)
{
    *f = (family_outcome){.stage = stage, .family = family, .alts = pst_malloc((n ? n : 1) * sizeof *f->alts),
                          .labels = pst_malloc((n ? n : 1) * sizeof *f->labels)};
    for (size_t i = 0; i < n; i++) {
        const outcome *o = &out[i];
        if (o->a->family != family || o->nprotocol_alts == 0) continue;
        unsigned long long pick = cfg->ctx.rank == 0 ? fastest_alt(o) : 0;
        MPI_Bcast(&pick, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        const alt *al = &o->alts[pick];
        f->alts[f->nalts] = *al;
        if (o->a->collective) snprintf(f->labels[f->nalts], sizeof f->labels[0], "%s", o->a->name);
        else snprintf(f->labels[f->nalts], sizeof f->labels[0], "%s %s", o->a->name, al->label);
        f->nalts++;
    }
    if (f->nalts < 2) return false;
    kgeom *g = &cfg->geom[stage];
    kcase *kc = kcase_create(family, stage, &cfg->prob, g, !strcmp(cfg->result, "partitioned"), cfg->blas,
                            cfg->legendre_kernel, &cfg->fft);
    long long bytes = kcase_bytes(kc);
    MPI_Allreduce(&bytes, &f->bytes_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    kturn T = {cfg, kc, pst_malloc(f->nalts * sizeof *T.plans), pst_calloc(f->nalts, sizeof *T.bad)};
    for (size_t i = 0; i < f->nalts; i++) T.plans[i] = kcase_plan(kc, f->alts[i].alg, f->alts[i].p, f->alts[i].overlap);
    pst_watchdog_phase("kernel %s stage: %zu %s algorithms in rounds", stage_names[stage], f->nalts, pst_alg_family_name(family));
    pst_rounds_run(&f->R, &cfg->compare, f->nalts, cfg->reps, kernel_turn, &T);
    for (size_t i = 0; i < f->nalts; i++) kplan_free(T.plans[i]);
    pst_transport_release(cfg->transport, g->comm);
    MPI_Allreduce(MPI_IN_PLACE, T.bad, (int)f->nalts, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (size_t i = 0; i < f->nalts; i++)
        if (T.bad[i])
            pst_collective_exit(PST_EXIT_FAILED, "verification failed: %s (%s stage, the algorithms compared): %lld wrong results",
                                f->labels[i], stage_names[stage], T.bad[i]);
    free(T.plans);
    free(T.bad);
    kcase_free(kc);
    return true;
}

/* Rank 0: the verdict between the algorithms of a family. */
typedef struct family_verdict {
    pst_verdict v;
    bool *in_set;
    double *med;
    const char **labels;
} family_verdict;

static family_verdict judge_family(const kernel_cfg *cfg, const family_outcome *f)
{
    size_t k = f->nalts;
    family_verdict fv = {.in_set = pst_malloc(k * sizeof *fv.in_set), .med = pst_malloc(k * sizeof *fv.med),
                         .labels = pst_malloc(k * sizeof *fv.labels)};
    for (size_t i = 0; i < k; i++) fv.labels[i] = f->labels[i];
    fv.v = pst_rounds_verdict(&f->R, k, &cfg->compare, fv.in_set, fv.med);
    return fv;
}

static void free_family_verdict(family_verdict *fv)
{
    free(fv->in_set);
    free(fv->med);
    free(fv->labels);
}

static void stage_grid(const kernel_cfg *cfg, int stage, char *grid, size_t len)
{
    snprintf(grid, len, "%dx%d", cfg->geom[stage].px, cfg->geom[stage].py);
}

static void emit_family(kernel_cfg *cfg, const family_outcome *f, const family_verdict *fv)
{
    const kgeom *g = &cfg->geom[f->stage];
    char grid[32];
    stage_grid(cfg, f->stage, grid, sizeof grid);
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_kernel_family);
    pst_rec_str(&r, "stage", stage_names[f->stage]);
    pst_rec_str(&r, "family", pst_alg_family_name(f->family));
    pst_rec_str(&r, "size", cfg->prob.label);
    pst_rec_str(&r, "grid", grid);
    pst_rec_int(&r, "comm_size", f->stage == 0 ? g->px : g->py);
    pst_rec_str(&r, "locality", cfg->stage_locality[f->stage]);
    if (f->family == PST_FAMILY_VSUM) {
        pst_rec_str(&r, "result", cfg->result);
        pst_rec_str(&r, "legendre_kernel", pst_leg_method_names[cfg->legendre_kernel]);
    }
    pst_rec_strs(&r, "alternatives", fv->labels, f->nalts);
    pst_rec_nums(&r, "alternative_s", fv->med, f->nalts);
    pst_rec_verdict(&r, &fv->v, fv->in_set, fv->labels, &f->R, &cfg->compare, &cfg->ctx);
    pst_rec_emit(&r, &cfg->ctx);
}

static void print_family(const kernel_cfg *cfg, const family_outcome *f, const family_verdict *fv)
{
    const pst_compare_opts *co = &cfg->compare;
    char grid[32], ties[2048];
    stage_grid(cfg, f->stage, grid, sizeof grid);
    printf("\n== which %s to use, %s stage (%s, grid %s): each algorithm's fastest alternative in one set of rounds;\n"
           "   best set: not slower than the best beyond %.0f %% at %.0f %% confidence ==\n",
           f->family == PST_FAMILY_VSUM ? "vector sum" : "transpose", stage_names[f->stage], cfg->prob.label, grid,
           co->margin * 100, co->confidence * 100);
    for (size_t i = 0; i < f->nalts; i++)
        printf("  %-24s %10.4f ms%s\n", fv->labels[i], fv->med[i] * 1e3, fv->in_set[i] ? "  (best set)" : "");
    printf("  best set (%zu rounds): %s\n", f->R.n, pst_tie_set(&fv->v, fv->in_set, fv->labels, fv->med, ties, sizeof ties));
}

/* ---- summaries ---- */

static size_t find_alt(const outcome *o, const char *code, bool overlap)
{
    for (size_t i = 0; i < o->nprotocol_alts; i++)
        if (o->alts[i].p && !strcmp(o->alts[i].p->code, code) && o->alts[i].overlap == overlap) return i;
    return SIZE_MAX;
}

static double median_of_alt(const outcome *o, size_t i)
{
    double lo, hi;
    return i == SIZE_MAX ? NAN : pst_median_ci(o->R.t[i], o->R.n, 0.5, &lo, &hi);
}

/* What the summaries say of one (algorithm, stage) that is not the stage's comparator: its
 * verdict over the protocol alternatives, Worley 1999's sensitivity, and Table 4's paired ratios
 * of 0,6 (without overlap) and of the stage's collective against the best.  A library collective
 * (ialltoallv, ...) has one alternative, itself: no sensitivity, only the paired ratio. */
typedef struct analysis {
    const outcome *o;
    pst_verdict v;
    bool *in_set;
    double *med;
    const char **labels;
    pst_sensitivity s;
    size_t gen, coll;        /* alternatives (SIZE_MAX: not run) */
    pst_ratio gen_q, coll_q;
} analysis;

static pst_ratio ratio_to_best(const outcome *o, size_t i, size_t best, const pst_compare_opts *co)
{
    if (i == SIZE_MAX) return (pst_ratio){NAN, NAN, NAN, false};
    return pst_paired_ratio(o->R.t[i], o->R.t[best], o->R.n, co->confidence, co->margin);
}

static analysis *analyse(const kernel_cfg *cfg, const outcome *out, size_t n, size_t *nout)
{
    const pst_compare_opts *co = &cfg->compare;
    analysis *an = pst_calloc(n ? n : 1, sizeof *an);
    *nout = 0;
    for (size_t i = 0; i < n; i++) {
        const outcome *o = &out[i];
        if (o->a->coll_for) continue;
        analysis *a = &an[(*nout)++];
        size_t k = o->nprotocol_alts;
        a->o = o;
        a->in_set = pst_malloc(k * sizeof *a->in_set);
        a->med = pst_malloc(k * sizeof *a->med);
        a->labels = pst_malloc(k * sizeof *a->labels);
        for (size_t j = 0; j < k; j++) a->labels[j] = o->alts[j].label;
        a->v = pst_rounds_verdict(&o->R, k, co, a->in_set, a->med);
        a->s = pst_sensitivity_of(a->med, k);
        a->gen = find_alt(o, "0,6", false);
        a->coll = o->nalts > o->nprotocol_alts ? o->nprotocol_alts : SIZE_MAX;
        a->gen_q = ratio_to_best(o, a->gen, a->v.best, co);
        a->coll_q = ratio_to_best(o, a->coll, a->v.best, co);
    }
    return an;
}

static void analyses_free(analysis *an, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(an[i].in_set);
        free(an[i].med);
        free(an[i].labels);
    }
    free(an);
}

/* <name>_ratio, _ratio_ci, _significant. */
static void rec_ratio(pst_rec *r, const char *name, const pst_ratio *q)
{
    char key[48];
    snprintf(key, sizeof key, "%s_ratio", name);
    pst_rec_num(r, key, q->ratio);
    snprintf(key, sizeof key, "%s_ratio_ci", name);
    pst_rec_nums(r, key, (double[]){q->lo, q->hi}, 2);
    snprintf(key, sizeof key, "%s_significant", name);
    pst_rec_bool(r, key, q->significant);
}

/* The sensitivity summary records, then the generic (Table 4) ones. */
static void emit_summaries(kernel_cfg *cfg, const analysis *an, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const analysis *a = &an[i];
        const outcome *o = a->o;
        const alt *b = &o->alts[a->v.best];
        if (o->a->collective) continue;
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_kernel_sensitivity);
        base_fields(&r, cfg, o->a, o->stage, o->win_model);
        pst_rec_verdict(&r, &a->v, a->in_set, a->labels, &o->R, &cfg->compare, &cfg->ctx);
        pst_rec_str(&r, "best_protocol", b->p->code);
        pst_rec_bool(&r, "best_overlap", b->overlap);
        pst_rec_num(&r, "best_s", a->s.min);
        pst_rec_sensitivity(&r, &a->s, a->v.median_rel, a->labels);
        pst_rec_emit(&r, &cfg->ctx);
    }
    for (size_t i = 0; i < n; i++) {
        const analysis *a = &an[i];
        const outcome *o = a->o;
        const alt *b = &o->alts[a->v.best];
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_kernel_generic);
        base_fields(&r, cfg, o->a, o->stage, o->win_model);
        pst_rec_str(&r, "stat", "t_med");
        pst_rec_str(&r, "best", b->label);
        pst_rec_str(&r, "best_protocol", b->p ? b->p->code : "coll");
        pst_rec_bool(&r, "best_overlap", b->overlap);
        pst_rec_bool(&r, "decided", a->v.decided);
        pst_rec_num(&r, "best_s", a->v.best_median);
        pst_rec_str(&r, "gen_protocol", a->gen != SIZE_MAX ? "0,6" : NULL);
        pst_rec_num(&r, "gen_s", median_of_alt(o, a->gen));
        rec_ratio(&r, "gen", &a->gen_q);
        pst_rec_num(&r, "gen_loss_rel", a->gen_q.ratio - 1);
        pst_rec_str(&r, "coll_algorithm", a->coll != SIZE_MAX ? pst_algorithm_collective(o->a->family)->name : NULL);
        pst_rec_num(&r, "coll_s", median_of_alt(o, a->coll));
        rec_ratio(&r, "coll", &a->coll_q);
        pst_rec_num(&r, "coll_loss_rel", a->coll_q.ratio - 1);
        /* The comparator's rounds beside this algorithm's, so pairs survive merging launches. */
        if (a->coll != SIZE_MAX) pst_rec_nums_compact(&r, "coll_round_s", o->R.t[a->coll], o->R.n);
        pst_rec_emit(&r, &cfg->ctx);
    }
}

static const char *ratio_text(const pst_ratio *q, bool ran, char *text, size_t len)
{
    if (!ran) snprintf(text, len, "n/a");
    else snprintf(text, len, "%.2f [%.2f,%.2f]%s", q->ratio, q->lo, q->hi, q->significant ? "" : " n.s.");
    return text;
}

static void print_summaries(const kernel_cfg *cfg, const analysis *an, size_t n)
{
    const pst_compare_opts *co = &cfg->compare;
    printf("\n== protocol sensitivity per algorithm (Worley & Foster): protocols x overlap, each its median over rounds;\n"
           "   best set: not slower than the best beyond %.0f %% at %.0f %% confidence ==\n", co->margin * 100, co->confidence * 100);
    printf("  %-10s %-8s %-14s %4s %10s %7s %7s  %-12s %s\n", "algorithm", "stage", "size", "n", "best ms", "median", "max",
           "level", "best set");
    for (size_t i = 0; i < n; i++) {
        const analysis *a = &an[i];
        char ties[1024];
        if (a->o->a->collective) continue;
        printf("  %-10s %-8s %-14s %4zu %10.4f %7.3f %7.3f  %-12s %s\n", a->o->a->name, stage_names[a->o->stage],
               cfg->prob.label, a->o->nprotocol_alts, a->s.min * 1e3, a->v.median_rel, a->s.max_rel, a->v.level,
               pst_tie_set(&a->v, a->in_set, a->labels, a->med, ties, sizeof ties));
    }
    printf("  (median: median over alternatives of the paired ratio to the best, minus 1; max: (slowest-best)/best;\n"
           "   level: low <= 0.05 < moderate < 0.15 <= high, 'undetermined' when the interval spans two classes; +ov = overlap)\n");

    printf("\n== cost of the generic protocol 0,6 and of the MPI collective against the best protocol (Worley & Foster Table 4);\n"
           "   paired ratio over rounds [%.0f %% CI], n.s. = no significant difference beyond the %.0f %% margin ==\n",
           co->confidence * 100, co->margin * 100);
    printf("  %-14s %-8s %10s %-26s %-26s %s\n", "algorithm", "stage", "best ms", "0,6 / best", "collective / best",
           "best set");
    for (size_t i = 0; i < n; i++) {
        const analysis *a = &an[i];
        char gen_text[48], coll_text[48], ties[1024];
        printf("  %-14s %-8s %10.4f %-26s %-26s %s\n", a->o->a->name, stage_names[a->o->stage], a->v.best_median * 1e3,
               ratio_text(&a->gen_q, a->gen != SIZE_MAX, gen_text, sizeof gen_text),
               ratio_text(&a->coll_q, a->coll != SIZE_MAX, coll_text, sizeof coll_text),
               pst_tie_set(&a->v, a->in_set, a->labels, a->med, ties, sizeof ties));
    }
    printf("  (best: the smallest median, first of the best set, which names one protocol only when the verdict is\n"
           "   decided; 0,6 without overlap is the 'gen' preset's choice; the collective ran on the same data in the\n"
           "   same rounds; for a library collective such as ialltoallv, best is that alternative itself)\n");
}

/* --list: the registry as a table, or with --json as one JSON object (rank 0). */
static void list_algorithms(bool json)
{
    if (json) {
        pst_rec r;
        pst_rec_open(&r);
        pst_algorithm_rec(&r, "algorithms");
        pst_rec_print(&r, stdout);
        return;
    }
    printf("%-14s %-9s %-13s %-30s %s\n", "algorithm", "family", "stages", "messages per rank", "how");
    for (size_t a = 0; a < pst_nalgorithms; a++) {
        const pst_algorithm *alg = &pst_algorithms[a];
        const char *stages = serves(alg, 0) && serves(alg, 1) ? "fft,legendre" : serves(alg, 0) ? "fft" : "legendre";
        const char *missing = pst_algorithm_unavailable(alg);
        printf("%-14s %-9s %-13s %-30s %s%s%s%s%s\n", alg->name, pst_alg_family_name(alg->family), stages, alg->messages,
               alg->summary, alg->needs ? "; needs " : "", alg->needs ? alg->needs : "", missing ? "; NOT AVAILABLE: " : "",
               missing ? missing : "");
    }
}

/* The run header names every algorithm, so a report can be read without the binary. */
static void header_algorithms(pst_rec *r, const pst_ctx *c, void *arg)
{
    (void)c;
    (void)arg;
    pst_algorithm_rec(r, "algorithms");
}

/* ---- validation ---- */

/* Each stage's communicator on its gx x gy grid: FFT stage the row (same y), Legendre stage the
 * column (same x). */
static void make_stage_comms(kernel_cfg *cfg, const int gx[2], const int gy[2])
{
    for (int s = 0; s < 2; s++) {
        int x = cfg->ctx.rank % gx[s], y = cfg->ctx.rank / gx[s];
        kgeom *g = &cfg->geom[s];
        *g = (kgeom){.px = gx[s], .py = gy[s], .x = x, .y = y};
        MPI_Comm_split(MPI_COMM_WORLD, s == 0 ? y : x, s == 0 ? x : y, &g->comm);
        cfg->comms[s] = s == 0 ? gy[s] : gx[s];
    }
}

/* Algorithms (names checked by the option's choices): names, coll (both comparators), all. */
static void choose_algorithms(kernel_cfg *cfg)
{
    cfg->run_alg = pst_calloc(pst_nalgorithms, sizeof *cfg->run_alg);
    for (size_t i = 0; i < cfg->algorithms.n; i++) {
        const char *name = cfg->algorithms.v[i];
        for (size_t a = 0; a < pst_nalgorithms; a++)
            cfg->run_alg[a] |= !strcmp(name, "all") || !strcmp(name, pst_algorithms[a].name) ||
                               (!strcmp(name, "coll") && pst_algorithms[a].coll_for);
    }
    if (cfg->algorithms.n == 0)
        for (size_t a = 0; a < pst_nalgorithms; a++) cfg->run_alg[a] = true;
}

/* An algorithm the grid or the MPI library cannot run: refused when asked for by name, skipped
 * (with a note) under all. */
static void skip_algorithm(kernel_cfg *cfg, size_t a, const char *why, const char *grid)
{
    const pst_algorithm *alg = &pst_algorithms[a];
    if (pst_str_list_has(&cfg->algorithms, alg->name)) {
        if (grid) pst_usage_error("--algorithms %s: %s (grid %s)", alg->name, why, grid);
        pst_usage_error("--algorithms %s: %s", alg->name, why);
    }
    cfg->run_alg[a] = false;
    if (cfg->ctx.rank == 0) printf("note: %s skipped: %s\n", alg->name, why);
}

/* --list (with --json): the registry, then exit as --help does. */
static void list_and_exit(const kernel_cfg *cfg)
{
    if (cfg->ctx.rank == 0) list_algorithms(cfg->json);
    fflush(stdout);
    pst_exit_trap_point(PST_EXIT_OK, "list"); /* like --help: the fuzzer's stop */
    pst_finalize();
    exit(PST_EXIT_OK);
}

/* The (algorithm, stage) pairs the run will measure: each is one comparison. */
static size_t comparisons(const kernel_cfg *cfg)
{
    size_t n = 0;
    for (int stage = 0; stage < 2; stage++) {
        int csize = stage == 0 ? cfg->geom[stage].px : cfg->geom[stage].py;
        if (!cfg->run_stage[stage] || csize == 1) continue;
        for (size_t a = 0; a < pst_nalgorithms; a++) n += cfg->run_alg[a] && serves(&pst_algorithms[a], stage);
    }
    return n;
}

static void validate(void *p)
{
    kernel_cfg *cfg = p;
    char err[512];
    pst_ctx *c = &cfg->ctx;
    if (cfg->json && !cfg->list) pst_usage_error("--json goes with --list");
    if (cfg->list) list_and_exit(cfg);
    cfg->threads = pst_threads_resolve((int)cfg->threads, true, false, NULL);
    pst_compute_setup(c, cfg->compute);
    pst_math_libraries_setup(c);
    pst_transport_require(cfg->transport);
    c->transport = cfg->transport;
    if (pst_protocol_parse_list(cfg->transport, cfg->protocols_spec, &cfg->protocols, &cfg->nprotocols, err, sizeof err))
        pst_usage_error("--protocols: %s", err);
    choose_algorithms(cfg);
    for (int s = 0; s < 2; s++) cfg->run_stage[s] = cfg->stages.n == 0 || pst_str_list_has(&cfg->stages, stage_names[s]);
    cfg->overlaps[0] = cfg->overlap.n == 0 || pst_str_list_has(&cfg->overlap, "off");
    cfg->overlaps[1] = cfg->overlap.n == 0 || pst_str_list_has(&cfg->overlap, "on");

    cfg->blas = pst_blas_backend_resolve(cfg->blas_name).lib;
    cfg->legendre_kernel = strcmp(cfg->legendre_kernel_name, "recurrence") == 0 ? PST_LEG_RECURRENCE : PST_LEG_DGEMM;
    if (!pst_fft_planner_init(&cfg->fft, cfg->fftw_plan)) pst_usage_error("--fftw-plan: unknown '%s'", cfg->fftw_plan);
    /* The problem. */
    if (cfg->granularity) {
        /* Options hold their defaults, so one given at its default value passes unnoticed. */
        if (cfg->trunc != default_cfg.trunc || cfg->levels != default_cfg.levels)
            pst_usage_error("--granularity sets the problem size; drop --trunc/--levels");
        if (kproblem_scaled(&cfg->prob, cfg->granularity, (int)cfg->fields, err, sizeof err))
            pst_usage_error("--granularity: %s", err);
    } else {
        kproblem_model(&cfg->prob, (int)cfg->trunc, (int)cfg->levels, (int)cfg->fields);
    }
    pst_usage_check_all(pst_dyn_trunc_problem(cfg->prob.trunc, err, sizeof err));

    /* The grid. */
    cfg->one_d = !strcmp(cfg->grid_spec, "1d");
    if (!cfg->one_d) {
        if (pst_parse_grid(cfg->grid_spec, &cfg->px, &cfg->py, err, sizeof err))
            pst_usage_error("--grid: %s, or 1d", err);
        if (cfg->px * cfg->py != c->size)
            pst_usage_error("--grid %s needs %d ranks (running on %d)", cfg->grid_spec, cfg->px * cfg->py, c->size);
    }
    /* Stage grids: 1d puts every rank in one row (FFT) or one column (Legendre). */
    int gx[2] = {cfg->one_d ? c->size : cfg->px, cfg->one_d ? 1 : cfg->px};
    int gy[2] = {cfg->one_d ? 1 : cfg->py, cfg->one_d ? c->size : cfg->py};
    if (!cfg->prob.scaled)
        for (int s = 0; s < 2; s++) {
            const char *why = cfg->run_stage[s] ? kproblem_grid_check(&cfg->prob, gx[s], gy[s]) : NULL;
            if (why) pst_usage_error("--grid %s does not fit %s: %s", cfg->one_d ? "1d" : cfg->grid_spec, cfg->prob.label, why);
        }
    for (size_t a = 0; a < pst_nalgorithms; a++) {
        const char *why = cfg->run_alg[a] ? pst_algorithm_unavailable(&pst_algorithms[a]) : NULL;
        if (why) skip_algorithm(cfg, a, why, NULL);
    }
    /* A constraint (dfft: a power-of-two row) that the FFT stage's rows do not meet. */
    for (size_t a = 0; a < pst_nalgorithms; a++) {
        const pst_algorithm *alg = &pst_algorithms[a];
        if (!cfg->run_alg[a] || !cfg->run_stage[0] || !serves(alg, 0)) continue;
        const char *why = pst_algorithm_check(alg, gx[0], kp_fft_nlon(&cfg->prob, gx[0]), kp_mmax(&cfg->prob, gx[0]));
        if (why) skip_algorithm(cfg, a, why, cfg->one_d ? "1d" : cfg->grid_spec);
    }
    make_stage_comms(cfg, gx, gy);
    pst_ctx_add_header(c, header_algorithms, NULL);
    pst_compare_setup(&cfg->compare, c, cfg->reps, comparisons(cfg));
}


static const char *const stages[] = {"fft", "legendre", NULL};
static const char *const onoff[] = {"off", "on", NULL};
static const char *const results[] = {"replicated", "partitioned", NULL};
static const char *const blas_choices[] = {"openblas", "blis", "blis-sup", NULL}; /* the model's, but auto */
static const char *const legendre_kernel_choices[] = {"dgemm", "recurrence", NULL}; /* the model's, but auto */

/* ---- the frame's phases: a set is one stage ---- */

/* Room for two stages of every algorithm. */
static void plan(void *p)
{
    kernel_cfg *cfg = p;
    cfg->out = pst_calloc(2 * pst_nalgorithms, sizeof *cfg->out);
}

/* One stage measured: its algorithms, whose outcomes join cfg->out for the summaries, then the
 * comparison within each family (transposes, vector sums; dfft has none). */
enum { NFAMILIES = PST_FAMILY_VSUM + 1 };
typedef struct stage_run {
    family_outcome families[NFAMILIES];
    bool compared[NFAMILIES]; /* the family had two members or more */
} stage_run;

static size_t nstages(const void *p) { return sizeof ((const kernel_cfg *)p)->geom / sizeof ((const kernel_cfg *)p)->geom[0]; }

static void *measure_stage(void *p, size_t set)
{
    kernel_cfg *cfg = p;
    int stage = (int)set;
    const kgeom *g = &cfg->geom[stage];
    int csize = stage == 0 ? g->px : g->py;
    stage_run *run = pst_calloc(1, sizeof *run);
    /* Whether the stages' communicators stay inside a node: known once the run has started. */
    for (int s = 0; stage == 0 && s < 2; s++) cfg->stage_locality[s] = pst_locality_of_comms(cfg->geom[s].comm);
    if (stage == 0 && cfg->ctx.rank == 0)
        printf("kernel %s (%d x %d grid, %d levels, %d fields), grid %s, transport %s, %zu protocols\n", cfg->prob.label,
               cfg->prob.nlat, cfg->prob.nlon, cfg->prob.levels, cfg->prob.fields, cfg->grid_spec, cfg->transport, cfg->nprotocols);
    if (!cfg->run_stage[stage]) return run;
    if (csize == 1) {
        if (cfg->ctx.rank == 0) printf("note: %s stage skipped: its communicators have 1 rank (grid %dx%d)\n", stage_names[stage], g->px, g->py);
        return run;
    }
    size_t first = cfg->nout;
    for (size_t a = 0; a < pst_nalgorithms; a++)
        if (cfg->run_alg[a] && serves(&pst_algorithms[a], stage)) run_algorithm(cfg, &pst_algorithms[a], stage, &cfg->out[cfg->nout++]);
    for (int fam = 0; fam < NFAMILIES; fam++)
        run->compared[fam] = run_family(cfg, stage, (pst_alg_family)fam, cfg->out + first, cfg->nout - first, &run->families[fam]);
    return run;
}

static void *judge_stage(const void *p, const void *data)
{
    const stage_run *run = data;
    family_verdict *fv = pst_calloc(NFAMILIES, sizeof *fv);
    for (int fam = 0; fam < NFAMILIES; fam++)
        if (run->compared[fam]) fv[fam] = judge_family(p, &run->families[fam]);
    return fv;
}

static void print_stage(const void *p, const void *data, const void *judgement)
{
    const stage_run *run = data;
    const family_verdict *fv = judgement;
    for (int fam = 0; fam < NFAMILIES; fam++)
        if (run->compared[fam]) print_family(p, &run->families[fam], &fv[fam]);
}

static void emit_stage(void *p, const void *data, const void *judgement)
{
    const stage_run *run = data;
    const family_verdict *fv = judgement;
    for (int fam = 0; fam < NFAMILIES; fam++)
        if (run->compared[fam]) emit_family(p, &run->families[fam], &fv[fam]);
}

static void free_judgement(const void *p, void *judgement)
{
    family_verdict *fv = judgement;
    for (int fam = 0; fam < NFAMILIES; fam++) free_family_verdict(&fv[fam]);
    free(fv);
}

static void free_stage(void *p, void *data)
{
    stage_run *run = data;
    for (int fam = 0; fam < NFAMILIES; fam++) {
        family_outcome *f = &run->families[fam];
        if (f->nalts >= 2) pst_rounds_free(&f->R);
        free(f->alts);
        free(f->labels);
    }
    free(run);
}

/* Rank 0, after both stages: the summaries over every algorithm measured. */
static void summarise(void *p)
{
    kernel_cfg *cfg = p;
    if (cfg->ctx.rank != 0 || !cfg->nout) return;
    size_t nan;
    analysis *an = analyse(cfg, cfg->out, cfg->nout, &nan);
    emit_summaries(cfg, an, nan);
    print_summaries(cfg, an, nan);
    analyses_free(an, nan);
}

static void release(void *p)
{
    kernel_cfg *cfg = p;
    for (size_t i = 0; i < cfg->nout; i++) {
        free(cfg->out[i].alts);
        pst_rounds_free(&cfg->out[i].R);
    }
    free(cfg->out);
    free(cfg->run_alg);
    free(cfg->protocols);
    for (int s = 0; s < 2; s++) MPI_Comm_free(&cfg->geom[s].comm);
}

/* ---- the row ---- */

/* --algorithms' choices: the registry's names, coll, all; built once the registry is known. */
static const char **algorithm_choices;
static char algorithms_help[384];
static pst_opt opts[];

static void prepare(void *p)
{
    if (!algorithm_choices) {
        algorithm_choices = pst_calloc(pst_nalgorithms + 3, sizeof *algorithm_choices);
        for (size_t a = 0; a < pst_nalgorithms; a++) algorithm_choices[a] = pst_algorithms[a].name;
        algorithm_choices[pst_nalgorithms] = "coll";
        algorithm_choices[pst_nalgorithms + 1] = "all";
    }
    opts[0].choices = algorithm_choices;
    char names[256];
    snprintf(algorithms_help, sizeof algorithms_help, "%s; coll = both collectives; all = every algorithm",
             pst_algorithm_names(0, names, sizeof names));
}

static kernel_cfg run_cfg;
/* Not const: prepare sets the choices of --algorithms, the first row. */
static pst_opt opts[] = {
    {"algorithms", PST_OPT_STRINGS, &run_cfg.algorithms, "LIST", algorithms_help, 1, 0, NULL, "all"}, /* choices: prepare */
    {"list", PST_OPT_FLAG, &run_cfg.list, NULL, "print the algorithms (the registry) and exit", 1, 0, NULL, NULL},
    {"json", PST_OPT_FLAG, &run_cfg.json, NULL, "with --list: as JSON", 1, 0, NULL, NULL},
    {"stages", PST_OPT_STRINGS, &run_cfg.stages, "LIST", "fft (across grid rows), legendre (down columns)", 1, 0, stages, "fft,legendre"},
    {"trunc", PST_OPT_INT, &run_cfg.trunc, "T", "triangular truncation of the model problem", 1, PST_SPECTRAL_GRID_MAX_TRUNC, NULL, NULL},
    {"levels", PST_OPT_INT, &run_cfg.levels, "L", "vertical levels", 1, 1000, NULL, NULL},
    {"fields", PST_OPT_INT, &run_cfg.fields, "F", "fields transformed together per level", 1, 64, NULL, NULL},
    {"blas", PST_OPT_STRING, &run_cfg.blas_name, "LIB", "library of the vector sums' dgemms: openblas, blis, blis-sup, as for the model", 1, 0, blas_choices, NULL},
    {"legendre-kernel", PST_OPT_STRING, &run_cfg.legendre_kernel_name, "K", "the vector sums' Legendre values: dgemm "
     "(synthetic dyadic values, a dgemm per block; sums verified bitwise) or recurrence (the model's P-bar of the column's "
     "coefficients (m,n) at the row's Gaussian latitudes, generated per block as pstswm model --legendre-kernel recurrence; "
     "sums verified to 1e-12 of the largest)", 1, 0, legendre_kernel_choices, NULL},
    {"fftw-plan", PST_OPT_STRING, &run_cfg.fftw_plan, "MODE", "FFTW planner effort of the distributed FFT's local transforms, as for the model", 1, 0, pst_fft_efforts, NULL},
    {"grid", PST_OPT_STRING, &run_cfg.grid_spec, "PXxPY|1d",
     "processor grid (PX*PY = ranks), or 1d: FFT stage on P x 1 and Legendre stage on 1 x P", 1, 0, NULL, NULL},
    {"granularity", PST_OPT_STRING, &run_cfg.granularity, "TnLk@AxB",
     "per-rank sizes of that configuration on the grid run (Worley 1998: T42L16@8x8)", 1, 0, NULL, NULL},
    {"protocols", PST_OPT_STRING, &run_cfg.protocols_spec, "LIST", "protocols by code or slug, or all|ordered|unordered|overlap|"
     "no-overlap|persistent", 1, 0, NULL, NULL},
    {"overlap", PST_OPT_STRINGS, &run_cfg.overlap, "LIST", "off,on; 2,x/3,x always overlap", 1, 0, onoff, "off,on"},
    {"result", PST_OPT_STRING, &run_cfg.result, "KIND", "vector sums: replicated (MPI_Allreduce) or partitioned "
     "(MPI_Reduce_scatter)", 1, 0, results, NULL},
    PST_ROUNDS_OPTS(&run_cfg.reps, 1e6, &run_cfg.warmup, "calls", "an alternative"),
    PST_TRANSPORT_OPT(&run_cfg.transport, "; --protocols are that transport's"),
    PST_COMPARE_OPTS(&run_cfg.compare),
    PST_THREADS_OPT(&run_cfg.threads, ": the stages' computation (packing, FFTs, dgemms) runs on them as in the model, MPI on the master thread"),
    PST_COMPUTE_OPT(&run_cfg.compute),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "kernel",
    .summary = "Each parallel algorithm (transposes, dfft, vector sums) alone on model-sized synthetic data, for every\n"
               "protocol and overlap setting, checked against the MPI collective it is equivalent to.",
    .description =
        "FFT-stage algorithms run across grid rows, Legendre-stage ones down columns, all rows/columns at once.\n"
        "A call is: transposes, forward + inverse transpose; dfft, real r2c + c2r of the row's lines; sums, the\n"
        "forward Legendre sum with a dgemm (or the Legendre recurrence) computing each block.  Times per call\n"
        "are the max over ranks of each round; the alternatives of one algorithm (and the stage's collective,\n"
        "as a comparator) run in interleaved rounds, and summaries use medians with paired comparisons.\n"
        "Results are verified against MPI_Alltoallv / MPI_Allreduce / MPI_Reduce_scatter (bitwise; the\n"
        "recurrence's sums to 1e-12 relative) or serial FFTW (1e-12 relative).",
    .examples = "  mpiexec -n 8 pstswm kernel --granularity T42L16@8x8 --out kernel.jsonl   # Worley 1998 Table 4\n"
                "  mpiexec -n 4 pstswm kernel --grid 2x2 --trunc 85 --protocols 0,6,1,3,3,1 --overlap on\n"
                "  mpiexec -n 8 pstswm kernel --algorithms ringpipe,ringsum,allreduce --result partitioned\n"
                "  mpiexec -n 4 pstswm kernel --transport rma --grid 2x2 --protocols ordered,overlap",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("kernel");
static const pst_schema *const schemas[] = {&pst_schema_kernel_header, &pst_schema_kernel_point, &pst_schema_kernel_sensitivity,
                                            &pst_schema_kernel_generic, &pst_schema_kernel_family, &footer, NULL};

const pst_subcommand pst_subcommand_kernel = {
    .name = "kernel",
    .summary = "each parallel algorithm alone, every protocol, checked against MPI collectives",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .prepare = prepare,
    .validate = validate,
    .plan = plan,
    .nsets = nstages,
    .measure = measure_stage,
    .analyse = judge_stage,
    .print = print_stage,
    .emit = emit_stage,
    .analysis_free = free_judgement,
    .set_free = free_stage,
    .finish = summarise,
    .release = release,
};
