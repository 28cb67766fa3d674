/* pstswm kernel: each parallel algorithm of seed 000 §6 alone, on synthetic data sized like a
 * model run, for every protocol and overlap setting (seeds 000 and 001).
 *
 * FFT-stage algorithms (srtrans, swtrans, logtrans, alltoallv, dfft) run across the rows of
 * the grid, Legendre-stage ones (the transposes again, exchsum, halfsum, ringsum, ringpipe,
 * allreduce) down its columns; every row (column) runs at once.  Per point: min/median/mean/
 * max over repetitions of the time per call, each the max over all ranks; every result checked
 * against the MPI collective the algorithm is equivalent to.  Per algorithm: the protocol
 * sensitivity summary of seed 001 and seed 000 Table 4's cost of 0,6 and of the collective
 * instead of the best protocol.  --transport picks the protocols' transport: a one-sided one
 * sets up its area on each stage communicator when the point's plans are built (outside
 * timing) and frees it after the point. */
#include "algo/dfft.h"
#include "algo/transpose.h"
#include "algo/vsum.h"
#include "bench/commands.h"
#include "bench/kernel_cases.h"
#include "bench/kernel_problem.h"
#include "comm/protocol.h"
#include "core/cli.h"
#include "core/context.h"
#include "core/errors.h"
#include "core/record.h"
#include "core/sensitivity.h"
#include "core/stats.h"
#include "core/timer.h"
#include "core/watchdog.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kalg {
    const char *name;
    kfamily fam;
    int alg;
    bool stages[2];        /* runs in the FFT / Legendre stage */
} kalg;

static const kalg kalgs[] = {
    {"srtrans", KF_TRANS, PST_SRTRANS, {true, true}},
    {"swtrans", KF_TRANS, PST_SWTRANS, {true, true}},
    {"logtrans", KF_TRANS, PST_LOGTRANS, {true, true}},
    {"alltoallv", KF_TRANS, PST_TRANS_COLL, {true, true}},
    {"dfft", KF_DFFT, 0, {true, false}},
    {"exchsum", KF_VSUM, PST_EXCHSUM, {false, true}},
    {"halfsum", KF_VSUM, PST_HALFSUM, {false, true}},
    {"ringsum", KF_VSUM, PST_RINGSUM, {false, true}},
    {"ringpipe", KF_VSUM, PST_RINGPIPE, {false, true}},
    {"allreduce", KF_VSUM, PST_VSUM_COLL, {false, true}},
};
enum { NKALGS = sizeof kalgs / sizeof kalgs[0] };
static const char *const stage_names[2] = {"fft", "legendre"};

static bool is_collective(const kalg *a)
{
    return (a->fam == KF_TRANS && a->alg == PST_TRANS_COLL) || (a->fam == KF_VSUM && a->alg == PST_VSUM_COLL);
}

typedef struct kernel_cfg {
    pst_ctx ctx;
    const char *protocols_spec, *grid_spec, *granularity, *transport, *result;
    pst_str_list algorithms, stages, overlap;
    long long trunc, levels, fields, reps, warmup;
    /* derived */
    kproblem prob;
    const pst_protocol **protocols;
    size_t nprotocols;
    bool run_alg[NKALGS], run_stage[2], overlaps[2];
    bool one_d;               /* FFT stage on P x 1, Legendre stage on 1 x P */
    int px, py;
    kgeom geom[2];            /* per stage */
    int comms[2];             /* concurrent communicators per stage */
} kernel_cfg;

/* One alternative measured for an algorithm: a protocol (NULL: the collective) and overlap. */
typedef struct alt {
    const pst_protocol *p;
    bool overlap;
    double t_min;
} alt;

static void alt_label(const alt *a, char *buf, size_t len)
{
    if (!a->p) snprintf(buf, len, "coll");
    else snprintf(buf, len, "%s%s", a->p->code, a->overlap && !a->p->overlap ? "+ov" : "");
}

/* ---- validation ---- */

static int parse_grid(const char *s, int *px, int *py)
{
    int used = 0;
    return sscanf(s, "%dx%d%n", px, py, &used) == 2 && !s[used] && *px >= 1 && *py >= 1 ? 0 : -1;
}

static void validate(kernel_cfg *cfg)
{
    char err[512];
    pst_ctx *c = &cfg->ctx;
    pst_transport_require(cfg->transport);
    c->transport = cfg->transport;
    if (pst_protocol_parse_list(cfg->transport, cfg->protocols_spec, &cfg->protocols, &cfg->nprotocols, err, sizeof err))
        pst_usage_error("--protocols: %s", err);

    /* Algorithms (names checked by the option's choices): names, coll (both collectives), all. */
    for (size_t i = 0; i < cfg->algorithms.n; i++) {
        const char *name = cfg->algorithms.v[i];
        for (int a = 0; a < NKALGS; a++)
            cfg->run_alg[a] |= !strcmp(name, "all") || !strcmp(name, kalgs[a].name) || (!strcmp(name, "coll") && is_collective(&kalgs[a]));
    }
    if (cfg->algorithms.n == 0)
        for (int a = 0; a < NKALGS; a++) cfg->run_alg[a] = true;
    for (int s = 0; s < 2; s++) cfg->run_stage[s] = cfg->stages.n == 0 || pst_str_list_has(&cfg->stages, stage_names[s]);
    cfg->overlaps[0] = cfg->overlap.n == 0 || pst_str_list_has(&cfg->overlap, "off");
    cfg->overlaps[1] = cfg->overlap.n == 0 || pst_str_list_has(&cfg->overlap, "on");

    /* The problem. */
    if (cfg->granularity) {
        if (cfg->trunc || cfg->levels)
            pst_usage_error("--granularity sets the problem size; drop --trunc/--levels");
        if (kproblem_scaled(&cfg->prob, cfg->granularity, (int)cfg->fields, err, sizeof err))
            pst_usage_error("--granularity: %s", err);
    } else {
        kproblem_model(&cfg->prob, cfg->trunc ? (int)cfg->trunc : 42, cfg->levels ? (int)cfg->levels : 16, (int)cfg->fields);
    }

    /* The grid. */
    cfg->one_d = !strcmp(cfg->grid_spec, "1d");
    if (!cfg->one_d) {
        if (parse_grid(cfg->grid_spec, &cfg->px, &cfg->py))
            pst_usage_error("--grid: '%s' is not PXxPY (e.g. 4x2) or 1d", cfg->grid_spec);
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
    /* dfft needs a power-of-two row; refuse when asked for by name, skip (with a note) under all. */
    int dfft = 4;
    bool named_dfft = false;
    for (size_t i = 0; i < cfg->algorithms.n; i++) named_dfft |= !strcmp(cfg->algorithms.v[i], "dfft");
    if (cfg->run_alg[dfft] && cfg->run_stage[0]) {
        const char *why = pst_dfft_check(gx[0], kp_fft_nlon(&cfg->prob, gx[0]), kp_mmax(&cfg->prob, gx[0]));
        if (why && named_dfft) pst_usage_error("--algorithms dfft: %s (grid %s)", why, cfg->one_d ? "1d" : cfg->grid_spec);
        if (why) {
            cfg->run_alg[dfft] = false;
            if (c->rank == 0) printf("note: dfft skipped: %s\n", why);
        }
    }
    for (int s = 0; s < 2; s++) {
        int x = c->rank % gx[s], y = c->rank / gx[s];
        kgeom *g = &cfg->geom[s];
        *g = (kgeom){.px = gx[s], .py = gy[s], .x = x, .y = y};
        /* FFT stage: the row (same y); Legendre stage: the column (same x). */
        MPI_Comm_split(MPI_COMM_WORLD, s == 0 ? y : x, s == 0 ? x : y, &g->comm);
        cfg->comms[s] = s == 0 ? gy[s] : gx[s];
    }
}

/* ---- measurement ---- */

typedef struct point {
    pst_summary t;
    long long bad, bytes_max;
    const char *win_model;   /* the one-sided window's memory model, NULL if none */
} point;

static point measure(kernel_cfg *cfg, kcase *kc, MPI_Comm comm, const alt *a)
{
    size_t nreps = (size_t)cfg->reps;
    double *local = calloc(nreps, sizeof *local), *all = calloc(nreps, sizeof *all);
    long long bad = 0;
    point pt = {0};
    /* Builds the plans; a one-sided transport sets up its area on comm here (collective). */
    kcase_prepare(kc, a->p, a->overlap);
    pt.win_model = pst_transport_memory_model(cfg->transport, comm);
    for (long long w = 0; w < cfg->warmup; w++) kcase_run(kc);
    for (size_t r = 0; r < nreps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = pst_now_s();
        kcase_run(kc);
        local[r] = pst_now_s() - t0;
        if (!cfg->ctx.no_verify) bad += kcase_verify(kc);
    }
    kcase_release(kc);
    pst_transport_release(cfg->transport, comm);
    long long bytes = kcase_bytes(kc);
    MPI_Allreduce(local, all, (int)nreps, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&bad, &pt.bad, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&bytes, &pt.bytes_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    pt.t = pst_summarize(all, nreps);
    free(local);
    free(all);
    return pt;
}

static void base_fields(pst_rec *r, const kernel_cfg *cfg, const kalg *a, int stage, const char *win_model)
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
    pst_rec_str(r, "grid", grid);
    pst_rec_str(r, "granularity", cfg->prob.scaled ? cfg->prob.label : NULL);
    pst_rec_int(r, "comm_size", stage == 0 ? g->px : g->py);
    pst_rec_int(r, "comms", cfg->comms[stage]);
    if (a->fam == KF_VSUM) pst_rec_str(r, "result", cfg->result);
    pst_rec_str(r, "win_model", win_model);
}

static void emit_point(kernel_cfg *cfg, const kalg *a, int stage, const alt *al, const point *pt)
{
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, "kernel", "point");
    base_fields(&r, cfg, a, stage, pt->win_model);
    pst_rec_str(&r, "protocol", al->p ? al->p->code : "coll");
    pst_rec_str(&r, "slug", al->p ? al->p->slug : "mpi-collective");
    pst_rec_bool(&r, "overlap", al->overlap);
    pst_rec_int(&r, "bytes", pt->bytes_max);
    pst_rec_times(&r, &pt->t);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    pst_rec_emit(&r, &cfg->ctx);
}

/* The alternatives of one algorithm: each protocol x overlap setting (an overlap protocol
 * 2,x / 3,x is always overlapped and runs once), or the collective once. */
static size_t alternatives(const kernel_cfg *cfg, const kalg *a, alt *out)
{
    if (is_collective(a)) {
        out[0] = (alt){NULL, false, NAN};
        return 1;
    }
    size_t n = 0;
    for (size_t i = 0; i < cfg->nprotocols; i++) {
        const pst_protocol *p = cfg->protocols[i];
        for (int ov = 0; ov < 2; ov++) {
            if (p->overlap && !ov) continue;
            if (!p->overlap && !cfg->overlaps[ov]) continue;
            out[n++] = (alt){p, ov == 1, NAN};
        }
    }
    return n;
}

/* Results of one (algorithm, stage) for the summaries. */
typedef struct outcome {
    const kalg *a;
    int stage;
    size_t nalts;
    alt *alts;
    const char *win_model;   /* of the transport's windows (NULL: none, or the collective) */
} outcome;

static void run_algorithm(kernel_cfg *cfg, const kalg *a, int stage, outcome *o)
{
    kgeom *g = &cfg->geom[stage];
    kcase *kc = kcase_create(a->fam, a->alg, stage, &cfg->prob, g, !strcmp(cfg->result, "partitioned"));
    o->a = a;
    o->stage = stage;
    o->alts = malloc((2 * cfg->nprotocols + 1) * sizeof *o->alts);
    o->nalts = alternatives(cfg, a, o->alts);
    if (cfg->ctx.rank == 0) {
        long long bytes = kcase_bytes(kc);
        printf("\n== %s, %s stage: %d communicator%s of %d ranks, %lld bytes on rank 0, %lld reps; times in ms over reps ==\n",
               a->name, stage_names[stage], cfg->comms[stage], cfg->comms[stage] == 1 ? "" : "s",
               stage == 0 ? g->px : g->py, bytes, cfg->reps);
        printf("  %-5s %-36s %-7s %10s %10s %10s\n", "code", "protocol", "overlap", "min", "median", "max");
    }
    for (size_t i = 0; i < o->nalts; i++) {
        alt *al = &o->alts[i];
        pst_watchdog_phase("kernel %s (%s stage) protocol %s overlap %s", a->name, stage_names[stage],
                           al->p ? al->p->code : "coll", al->overlap ? "on" : "off");
        point pt = measure(cfg, kc, g->comm, al);
        if (pt.bad)
            pst_collective_exit(PST_EXIT_FAILED, "verification failed: %s (%s stage) protocol %s overlap %s: %lld wrong results "
                                "against the MPI collective", a->name, stage_names[stage], al->p ? al->p->code : "coll",
                                al->overlap ? "on" : "off", pt.bad);
        al->t_min = pt.t.min;
        if (pt.win_model) o->win_model = pt.win_model;
        if (cfg->ctx.rank == 0) {
            emit_point(cfg, a, stage, al, &pt);
            printf("  %-5s %-36s %-7s %10.4f %10.4f %10.4f\n", al->p ? al->p->code : "coll",
                   al->p ? al->p->slug : "mpi-collective", al->overlap ? "on" : "off", pt.t.min * 1e3, pt.t.median * 1e3,
                   pt.t.max * 1e3);
            fflush(stdout);
        }
    }
    kcase_free(kc);
}

/* ---- summaries ---- */

static const alt *find_alt(const outcome *o, const char *code, bool overlap)
{
    for (size_t i = 0; i < o->nalts; i++)
        if (o->alts[i].p && !strcmp(o->alts[i].p->code, code) && o->alts[i].overlap == overlap) return &o->alts[i];
    return NULL;
}

/* The stage's collective doing the same work: alltoallv for transposes, allreduce for sums
 * (none for dfft, whose call includes the FFTs). */
static const outcome *find_coll(const outcome *all, size_t n, const outcome *o)
{
    if (o->a->fam == KF_DFFT) return NULL;
    const char *name = o->a->fam == KF_VSUM ? "allreduce" : "alltoallv";
    for (size_t i = 0; i < n; i++)
        if (!strcmp(all[i].a->name, name) && all[i].stage == o->stage) return &all[i];
    return NULL;
}

static double rel(double t, double best) { return isfinite(t) && best > 0 ? (t - best) / best : NAN; }

static void summaries(kernel_cfg *cfg, const outcome *out, size_t n)
{
    printf("\n== protocol sensitivity per algorithm (seed 001): over protocols x overlap, each its min over reps ==\n");
    printf("  %-10s %-8s %-14s %4s %-8s %10s %9s %9s  %-8s %s\n", "algorithm", "stage", "size", "n", "best", "best ms",
           "(med-min)", "(max-min)", "level", "five fastest");
    for (size_t i = 0; i < n; i++) {
        const outcome *o = &out[i];
        if (is_collective(o->a)) continue;
        double *t = malloc(o->nalts * sizeof *t);
        for (size_t k = 0; k < o->nalts; k++) t[k] = o->alts[k].t_min;
        pst_sensitivity s = pst_sensitivity_of(t, o->nalts);
        free(t);
        char labels[5][32], best[32] = "-", five[5 * 32] = "";
        const char *fastest[5];
        for (size_t k = 0; k < s.norder; k++) {
            alt_label(&o->alts[s.order[k]], labels[k], sizeof labels[k]);
            fastest[k] = labels[k];
            strncat(five, labels[k], sizeof five - strlen(five) - 1);
            if (k + 1 < s.norder) strncat(five, " ", sizeof five - strlen(five) - 1);
        }
        if (s.norder) snprintf(best, sizeof best, "%s", labels[0]);
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, "kernel", "summary");
        pst_rec_str(&r, "summary", "sensitivity");
        base_fields(&r, cfg, o->a, o->stage, o->win_model);
        pst_rec_str(&r, "stat", "t_min");
        pst_rec_int(&r, "nalternatives", (long long)s.n);
        pst_rec_str(&r, "best", s.norder ? best : NULL);
        pst_rec_str(&r, "best_protocol", s.norder ? o->alts[s.order[0]].p->code : NULL);
        pst_rec_bool(&r, "best_overlap", s.norder && o->alts[s.order[0]].overlap);
        pst_rec_num(&r, "best_s", s.min);
        pst_rec_num(&r, "mean_rel", s.mean_rel);
        pst_rec_num(&r, "median_rel", s.median_rel);
        pst_rec_num(&r, "max_rel", s.max_rel);
        pst_rec_str(&r, "level", s.level);
        pst_rec_strs(&r, "fastest", fastest, s.norder);
        pst_rec_int(&r, "within_1pct", (long long)s.within[0]);
        pst_rec_int(&r, "within_5pct", (long long)s.within[1]);
        pst_rec_int(&r, "within_25pct", (long long)s.within[2]);
        pst_rec_emit(&r, &cfg->ctx);
        printf("  %-10s %-8s %-14s %4zu %-8s %10.4f %9.3f %9.3f  %-8s %s\n", o->a->name, stage_names[o->stage], cfg->prob.label,
               s.n, best, s.min * 1e3, s.median_rel, s.max_rel, s.level, five);
    }
    printf("  (level: low if (med-min)/min <= 0.05, high if >= 0.15, else moderate; +ov = overlap on)\n");

    printf("\n== cost of the generic protocol 0,6 and of the MPI collective instead of the best protocol (seed 000 Table 4) ==\n");
    printf("  %-10s %-8s %-8s %10s %10s %9s %-10s %10s %9s\n", "algorithm", "stage", "best", "best ms", "0,6 ms", "0,6 loss",
           "collective", "coll ms", "coll loss");
    for (size_t i = 0; i < n; i++) {
        const outcome *o = &out[i];
        if (is_collective(o->a)) continue;
        const alt *b = NULL;
        for (size_t k = 0; k < o->nalts; k++)
            if (isfinite(o->alts[k].t_min) && (!b || o->alts[k].t_min < b->t_min)) b = &o->alts[k];
        if (!b) continue;
        const alt *gen = find_alt(o, "0,6", false);
        const outcome *co = find_coll(out, n, o);
        double t_gen = gen ? gen->t_min : NAN, t_coll = co ? co->alts[0].t_min : NAN;
        char best[32];
        alt_label(b, best, sizeof best);
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, "kernel", "summary");
        pst_rec_str(&r, "summary", "generic");
        base_fields(&r, cfg, o->a, o->stage, o->win_model);
        pst_rec_str(&r, "stat", "t_min");
        pst_rec_str(&r, "best", best);
        pst_rec_str(&r, "best_protocol", b->p->code);
        pst_rec_bool(&r, "best_overlap", b->overlap);
        pst_rec_num(&r, "best_s", b->t_min);
        pst_rec_str(&r, "gen_protocol", gen ? "0,6" : NULL);
        pst_rec_num(&r, "gen_s", t_gen);
        pst_rec_num(&r, "gen_loss_rel", rel(t_gen, b->t_min));
        pst_rec_str(&r, "coll_algorithm", co ? co->a->name : NULL);
        pst_rec_num(&r, "coll_s", t_coll);
        pst_rec_num(&r, "coll_loss_rel", rel(t_coll, b->t_min));
        pst_rec_emit(&r, &cfg->ctx);
        char gen_s[16] = "n/a", gen_l[16] = "n/a", coll_s[16] = "n/a", coll_l[16] = "n/a";
        if (gen) { snprintf(gen_s, sizeof gen_s, "%.4f", t_gen * 1e3); snprintf(gen_l, sizeof gen_l, "%.0f%%", rel(t_gen, b->t_min) * 100); }
        if (co) { snprintf(coll_s, sizeof coll_s, "%.4f", t_coll * 1e3); snprintf(coll_l, sizeof coll_l, "%.0f%%", rel(t_coll, b->t_min) * 100); }
        printf("  %-10s %-8s %-8s %10.4f %10s %9s %-10s %10s %9s\n", o->a->name, stage_names[o->stage], best, b->t_min * 1e3,
               gen_s, gen_l, co ? co->a->name : "-", coll_s, coll_l);
    }
    printf("  (loss = (t - t_best)/t_best, times = min over reps; 0,6 without overlap, the 'gen' preset's choice)\n");
}

int pst_cmd_kernel(int argc, char **argv)
{
    static const char *const algs[] = {"srtrans", "swtrans", "logtrans", "alltoallv", "dfft", "exchsum", "halfsum", "ringsum",
                                       "ringpipe", "allreduce", "coll", "all", NULL};
    static const char *const stages[] = {"fft", "legendre", NULL};
    static const char *const onoff[] = {"off", "on", NULL};
    static const char *const results[] = {"replicated", "partitioned", NULL};
    kernel_cfg cfg = {.protocols_spec = "all", .grid_spec = "1d", .transport = "mpi", .result = "replicated", .fields = 3,
                      .reps = 10, .warmup = 1};
    pst_ctx_init(&cfg.ctx, "kernel", argc, argv);
    const pst_opt opts[] = {
        {"algorithms", PST_OPT_STRINGS, &cfg.algorithms, "LIST",
         "srtrans,swtrans,logtrans,alltoallv,dfft,exchsum,halfsum,ringsum,ringpipe,allreduce; coll = both collectives; "
         "all (default)", 1, 0, algs},
        {"stages", PST_OPT_STRINGS, &cfg.stages, "LIST", "fft (across grid rows), legendre (down columns) (default both)", 1, 0, stages},
        {"trunc", PST_OPT_INT, &cfg.trunc, "T", "triangular truncation of the model problem (default 42)", 1, 1000, NULL},
        {"levels", PST_OPT_INT, &cfg.levels, "L", "vertical levels (default 16)", 1, 1000, NULL},
        {"fields", PST_OPT_INT, &cfg.fields, "F", "fields transformed together per level (default 3)", 1, 64, NULL},
        {"grid", PST_OPT_STRING, &cfg.grid_spec, "PXxPY|1d",
         "processor grid (PX*PY = ranks), or 1d: FFT stage on P x 1 and Legendre stage on 1 x P (default 1d)", 1, 0, NULL},
        {"granularity", PST_OPT_STRING, &cfg.granularity, "TnLk@AxB",
         "per-rank sizes of that configuration on the grid run (seed 000: T42L16@8x8)", 1, 0, NULL},
        {"protocols", PST_OPT_STRING, &cfg.protocols_spec, "LIST", "protocols by code or slug, or all|ordered|unordered|overlap|"
         "no-overlap (default all)", 1, 0, NULL},
        {"overlap", PST_OPT_STRINGS, &cfg.overlap, "LIST", "off,on (default both; 2,x/3,x always overlap)", 1, 0, onoff},
        {"result", PST_OPT_STRING, &cfg.result, "KIND", "vector sums: replicated (MPI_Allreduce) or partitioned "
         "(MPI_Reduce_scatter) (default replicated)", 1, 0, results},
        {"reps", PST_OPT_INT, &cfg.reps, "N", "timed repetitions per point (default 10)", 1, 1e6, NULL},
        {"warmup", PST_OPT_INT, &cfg.warmup, "N", "untimed calls before timing each point (default 1)", 0, 1e6, NULL},
        {"transport", PST_OPT_STRING, &cfg.transport, "NAME",
         "mpi (two-sided), rma (MPI-3 one-sided put/get), shmem where built; --protocols are that transport's "
         "(default mpi)", 1, 0, NULL},
        PST_COMMON_OPTS(&cfg.ctx),
        {0},
    };
    const pst_command cmd = {
        .name = "kernel",
        .summary = "Each parallel algorithm (transposes, dfft, vector sums) alone on model-sized synthetic data, for every\n"
                   "protocol and overlap setting, checked against the MPI collective it is equivalent to.",
        .description =
            "FFT-stage algorithms run across grid rows, Legendre-stage ones down columns, all rows/columns at once.\n"
            "A call is: transposes, forward + inverse transpose; dfft, real r2c + c2r of the row's lines; sums, the\n"
            "forward Legendre sum with a dgemm computing each block.  Times per call are the max over ranks of each\n"
            "repetition; tables and summaries use each alternative's min over reps.  Results are verified against\n"
            "MPI_Alltoallv / MPI_Allreduce / MPI_Reduce_scatter (bitwise) or serial FFTW (1e-12 relative).",
        .examples = "  mpiexec -n 8 pstswm kernel --granularity T42L16@8x8 --out kernel.jsonl   # seed 000 Table 4\n"
                    "  mpiexec -n 4 pstswm kernel --grid 2x2 --trunc 85 --protocols 0,6,1,3,3,1 --overlap on\n"
                    "  mpiexec -n 8 pstswm kernel --algorithms ringpipe,ringsum,allreduce --result partitioned\n"
                    "  mpiexec -n 4 pstswm kernel --transport rma --grid 2x2 --protocols ordered,overlap",
        .opts = opts,
    };
    pst_cli_parse(&cmd, argc, argv);
    validate(&cfg);
    pst_ctx_start(&cfg.ctx);
    if (cfg.ctx.rank == 0)
        printf("kernel %s (%d x %d grid, %d levels, %d fields), grid %s, transport %s, %zu protocols\n", cfg.prob.label,
               cfg.prob.nlat, cfg.prob.nlon, cfg.prob.levels, cfg.prob.fields, cfg.grid_spec, cfg.transport, cfg.nprotocols);

    outcome *out = calloc(2 * NKALGS, sizeof *out);
    size_t nout = 0;
    for (int stage = 0; stage < 2; stage++) {
        const kgeom *g = &cfg.geom[stage];
        int csize = stage == 0 ? g->px : g->py;
        if (!cfg.run_stage[stage]) continue;
        if (csize == 1) {
            if (cfg.ctx.rank == 0) printf("note: %s stage skipped: its communicators have 1 rank (grid %dx%d)\n", stage_names[stage], g->px, g->py);
            continue;
        }
        for (int a = 0; a < NKALGS; a++)
            if (cfg.run_alg[a] && kalgs[a].stages[stage]) run_algorithm(&cfg, &kalgs[a], stage, &out[nout++]);
    }
    if (cfg.ctx.rank == 0 && nout) summaries(&cfg, out, nout);
    for (size_t i = 0; i < nout; i++) free(out[i].alts);
    free(out);
    free(cfg.protocols);
    for (int s = 0; s < 2; s++) MPI_Comm_free(&cfg.geom[s].comm);
    pst_ctx_finish(&cfg.ctx);
    return PST_EXIT_OK;
}
