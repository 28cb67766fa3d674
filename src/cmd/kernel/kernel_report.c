/* pstswm kernel's report, rank 0: the records of the points, the verdict between the algorithms
 * of each family, and after both stages the summaries over every algorithm (Worley 1999's
 * protocol sensitivity, Worley 1998 Table 4's cost of 0,6 and of the collective). */
#include "cmd/kernel/kernel_impl.h"

#include "cmd/common/records.h"
#include "core/alloc.h"
#include "runtime/emit.h"
#include "stats/sensitivity.h"
#include "stats/stats.h"
#include "stats/verdict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void base_fields(pst_rec *r, const kernel_cfg *cfg, const pst_algorithm *a, int stage, const char *win_model)
{
    const kgeom *g = &cfg->geom[stage];
    char grid[32];
    snprintf(grid, sizeof grid, "%dx%d", g->px, g->py);
    pst_rec_str(r, "algorithm", a->name);
    pst_rec_str(r, "stage", pst_kernel_stage_names[stage]);
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
        pst_rec_str(r, "legendre_kernel", pst_leg_method_name(cfg->legendre_kernel));
    }
    pst_rec_str(r, "win_model", win_model);
}

void pst_kernel_emit_point(kernel_cfg *cfg, const outcome *o, size_t i)
{
    const alt *al = &o->alts[i];
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_kernel_point);
    base_fields(&r, cfg, o->a, o->stage, o->win_model);
    pst_rec_str(&r, "protocol", al->p ? al->p->code : "coll");
    pst_rec_str(&r, "slug", al->p ? al->p->slug : "mpi-collective");
    pst_rec_bool(&r, "overlap", al->overlap);
    pst_rec_int(&r, "bytes", o->bytes_max);
    pst_rec_rounds(&r, &o->R, i, &cfg->rounds);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify);
    pst_rec_emit(&r, &cfg->ctx);
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
    fv.v = pst_rounds_verdict(&f->R, k, &cfg->rounds, fv.in_set, fv.med);
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
    pst_rec_str(&r, "stage", pst_kernel_stage_names[f->stage]);
    pst_rec_str(&r, "family", pst_alg_family_name(f->family));
    pst_rec_str(&r, "size", cfg->prob.label);
    pst_rec_str(&r, "grid", grid);
    pst_rec_int(&r, "comm_size", f->stage == 0 ? g->px : g->py);
    pst_rec_str(&r, "locality", cfg->stage_locality[f->stage]);
    if (f->family == PST_FAMILY_VSUM) {
        pst_rec_str(&r, "result", cfg->result);
        pst_rec_str(&r, "legendre_kernel", pst_leg_method_name(cfg->legendre_kernel));
    }
    pst_rec_strs(&r, "alternatives", fv->labels, f->nalts);
    pst_rec_nums(&r, "alternative_s", fv->med, f->nalts);
    pst_rec_verdict(&r, &fv->v, fv->in_set, fv->labels, &f->R, &cfg->rounds, &cfg->ctx);
    pst_rec_emit(&r, &cfg->ctx);
}

static void print_family(const kernel_cfg *cfg, const family_outcome *f, const family_verdict *fv)
{
    const pst_rounds_opts *co = &cfg->rounds;
    char grid[32], ties[2048];
    stage_grid(cfg, f->stage, grid, sizeof grid);
    printf("\n== which %s to use, %s stage (%s, grid %s): each algorithm's fastest alternative in one set of rounds;\n"
           "   best set: not slower than the best beyond %.0f %% at %.0f %% confidence ==\n",
           f->family == PST_FAMILY_VSUM ? "vector sum" : "transpose", pst_kernel_stage_names[f->stage], cfg->prob.label,
           grid, co->margin * 100, co->confidence * 100);
    for (size_t i = 0; i < f->nalts; i++)
        printf("  %-24s %10.4f ms%s\n", fv->labels[i], fv->med[i] * 1e3, fv->in_set[i] ? "  (best set)" : "");
    printf("  best set (%zu rounds): %s\n", f->R.n,
           pst_tie_set(&fv->v, fv->in_set, fv->labels, fv->med, ties, sizeof ties));
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

static pst_ratio ratio_to_best(const outcome *o, size_t i, size_t best, const pst_rounds_opts *co)
{
    if (i == SIZE_MAX) return (pst_ratio){NAN, NAN, NAN, false};
    return pst_paired_ratio(o->R.t[i], o->R.t[best], o->R.n, co->confidence, co->margin);
}

static analysis *analyse(const kernel_cfg *cfg, const outcome *out, size_t n, size_t *nout)
{
    const pst_rounds_opts *co = &cfg->rounds;
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
        pst_rec_verdict(&r, &a->v, a->in_set, a->labels, &o->R, &cfg->rounds, &cfg->ctx);
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
    const pst_rounds_opts *co = &cfg->rounds;
    printf(
        "\n== protocol sensitivity per algorithm (Worley & Foster): protocols x overlap, each its median over rounds;\n"
        "   best set: not slower than the best beyond %.0f %% at %.0f %% confidence ==\n",
        co->margin * 100, co->confidence * 100);
    printf("  %-10s %-8s %-14s %4s %10s %7s %7s  %-12s %s\n", "algorithm", "stage", "size", "n", "best ms", "median",
           "max", "level", "best set");
    for (size_t i = 0; i < n; i++) {
        const analysis *a = &an[i];
        char ties[1024];
        if (a->o->a->collective) continue;
        printf("  %-10s %-8s %-14s %4zu %10.4f %7.3f %7.3f  %-12s %s\n", a->o->a->name,
               pst_kernel_stage_names[a->o->stage], cfg->prob.label, a->o->nprotocol_alts, a->s.min * 1e3,
               a->v.median_rel, a->s.max_rel, a->v.level,
               pst_tie_set(&a->v, a->in_set, a->labels, a->med, ties, sizeof ties));
    }
    printf("  (median: median over alternatives of the paired ratio to the best, minus 1; max: (slowest-best)/best;\n"
           "   level: low <= 0.05 < moderate < 0.15 <= high, 'undetermined' when the interval spans two classes; +ov = "
           "overlap)\n");

    printf("\n== cost of the generic protocol 0,6 and of the MPI collective against the best protocol (Worley & Foster "
           "Table 4);\n"
           "   paired ratio over rounds [%.0f %% CI], n.s. = no significant difference beyond the %.0f %% margin ==\n",
           co->confidence * 100, co->margin * 100);
    printf("  %-14s %-8s %10s %-26s %-26s %s\n", "algorithm", "stage", "best ms", "0,6 / best", "collective / best",
           "best set");
    for (size_t i = 0; i < n; i++) {
        const analysis *a = &an[i];
        char gen_text[48], coll_text[48], ties[1024];
        printf("  %-14s %-8s %10.4f %-26s %-26s %s\n", a->o->a->name, pst_kernel_stage_names[a->o->stage],
               a->v.best_median * 1e3, ratio_text(&a->gen_q, a->gen != SIZE_MAX, gen_text, sizeof gen_text),
               ratio_text(&a->coll_q, a->coll != SIZE_MAX, coll_text, sizeof coll_text),
               pst_tie_set(&a->v, a->in_set, a->labels, a->med, ties, sizeof ties));
    }
    printf("  (best: the smallest median, first of the best set, which names one protocol only when the verdict is\n"
           "   decided; 0,6 without overlap is the 'gen' preset's choice; the collective ran on the same data in the\n"
           "   same rounds; for a library collective such as ialltoallv, best is that alternative itself)\n");
}

void *pst_kernel_judge_stage(const void *p, const void *data)
{
    const stage_run *run = data;
    family_verdict *fv = pst_calloc(NFAMILIES, sizeof *fv);
    for (int fam = 0; fam < NFAMILIES; fam++)
        if (run->compared[fam]) fv[fam] = judge_family(p, &run->families[fam]);
    return fv;
}

void pst_kernel_print_stage(const void *p, const void *data, const void *judgement)
{
    const stage_run *run = data;
    const family_verdict *fv = judgement;
    for (int fam = 0; fam < NFAMILIES; fam++)
        if (run->compared[fam]) print_family(p, &run->families[fam], &fv[fam]);
}

void pst_kernel_emit_stage(void *p, const void *data, const void *judgement)
{
    const stage_run *run = data;
    const family_verdict *fv = judgement;
    for (int fam = 0; fam < NFAMILIES; fam++)
        if (run->compared[fam]) emit_family(p, &run->families[fam], &fv[fam]);
}

void pst_kernel_free_judgement(const void *p, void *judgement)
{
    family_verdict *fv = judgement;
    for (int fam = 0; fam < NFAMILIES; fam++) free_family_verdict(&fv[fam]);
    free(fv);
}

/* Rank 0, after both stages: the summaries over every algorithm measured. */
void pst_kernel_summarise(void *p)
{
    kernel_cfg *cfg = p;
    if (cfg->ctx.rank != 0 || !cfg->nout) return;
    size_t nan;
    analysis *an = analyse(cfg, cfg->out, cfg->nout, &nan);
    emit_summaries(cfg, an, nan);
    print_summaries(cfg, an, nan);
    analyses_free(an, nan);
}
