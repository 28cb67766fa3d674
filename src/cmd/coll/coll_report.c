/* pstswm coll's report (rank 0): what each point says (nccl-tests' bandwidths, who waits), its
 * table row and record, the table heads and the legend. */
#include "cmd/coll/coll_impl.h"

#include "cmd/common/records.h"
#include "core/alloc.h"
#include "runtime/emit.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one point says: nccl-tests' bandwidths from the loops (NaN for the barrier), and from the
 * single calls who waits (each rank's min/median/max, the spread of the medians). */
typedef struct coll_analysis {
    pst_summary t;                          /* the loops: seconds per call */
    double busbw_factor;
    double algbw_gbytes_per_s, busbw_gbytes_per_s;         /* from t_min */
    double algbw_med_gbytes_per_s, busbw_med_gbytes_per_s; /* from t_med */
    double *rank_min_s, *rank_med_s, *rank_max_s;          /* [n] */
    pst_summary across;                     /* of the ranks' medians */
    int slowest_rank;                       /* the largest median */
    double imbalance;                       /* (max - min) / max of the medians */
} coll_analysis;

static coll_analysis analyse(const coll_point *pt)
{
    const coll_op *op = pt->op;
    int n = pt->n;
    coll_analysis an = {.t = pst_summarize(pt->R->t[pt->alt], pt->R->n),
                        .rank_min_s = pst_malloc((size_t)n * sizeof *an.rank_min_s),
                        .rank_med_s = pst_malloc((size_t)n * sizeof *an.rank_med_s),
                        .rank_max_s = pst_malloc((size_t)n * sizeof *an.rank_max_s)};
    an.busbw_factor = op->bw == PST_BW_NONE ? NAN
                      : !strcmp(op->name, "alltoallv") ? pst_coll_alltoallv_moved_fraction(pt->bytes, n)
                                                        : pst_busbw_factor(op->bw, n);
    an.algbw_gbytes_per_s = op->bw == PST_BW_NONE ? NAN : pt->size_bytes / an.t.min / 1e9;
    an.algbw_med_gbytes_per_s = op->bw == PST_BW_NONE ? NAN : pt->size_bytes / an.t.median / 1e9;
    an.busbw_gbytes_per_s = an.algbw_gbytes_per_s * an.busbw_factor;
    an.busbw_med_gbytes_per_s = an.algbw_med_gbytes_per_s * an.busbw_factor;
    for (int i = 0; i < n; i++) {
        an.rank_min_s[i] = pt->rank_stats[3 * i];
        an.rank_med_s[i] = pt->rank_stats[3 * i + 1];
        an.rank_max_s[i] = pt->rank_stats[3 * i + 2];
        if (an.rank_med_s[i] > an.rank_med_s[an.slowest_rank]) an.slowest_rank = i;
    }
    an.across = pst_summarize(an.rank_med_s, (size_t)n);
    an.imbalance = an.across.max > 0 ? (an.across.max - an.across.min) / an.across.max : 0;
    return an;
}

static void analysis_free(coll_analysis *an)
{
    free(an->rank_min_s);
    free(an->rank_med_s);
    free(an->rank_max_s);
}

/* A communicator size's table head. */
static void print_header(const coll_cfg *cfg, int n)
{
    printf("\n== coll, comm size %d (ranks 0...%d), root %s, %lld+ rounds per size, ops interleaved (%s) ==\n", n,
           n - 1, cfg->rotate ? "rotating" : cfg->root_spec, cfg->reps, cfg->rounds.schedule);
    printf("  %-10s %10s %6s %10s %10s %9s %9s | %32s %5s %7s\n", "", "", "", "Frese & Knipp 1998 loop", "", "", "",
           "single call: rank median us", "", "");
    printf("  %-10s %10s %6s %10s %10s %9s %9s | %10s %10s %10s %5s %7s\n", "op", "bytes", "iters", "t_min us",
           "t_med us", "algbw", "busbw", "min", "median", "max", "slow", "imbal");
}

static void print_point(const coll_point *pt, const coll_analysis *an)
{
    char bw[2][16];
    for (int k = 0; k < 2; k++) {
        double v = k ? an->busbw_gbytes_per_s : an->algbw_gbytes_per_s;
        if (isfinite(v)) snprintf(bw[k], sizeof bw[k], "%9.3f", v);
        else snprintf(bw[k], sizeof bw[k], "%9s", "-");
    }
    printf("  %-10s %10lld %6lld %10.3f %10.3f %s %s | %10.3f %10.3f %10.3f %5d %6.1f%%\n", pt->op->name, pt->bytes,
           pt->iters, an->t.min * 1e6, an->t.median * 1e6, bw[0], bw[1], an->across.min * 1e6, an->across.median * 1e6,
           an->across.max * 1e6, an->slowest_rank, an->imbalance * 100);
}

static void print_legend(const coll_cfg *cfg)
{
    printf(
        "\n  t: Frese & Knipp 1998 loop, seconds per call (min / median over loops); algbw, busbw: GB/s from t_min "
        "(nccl-tests);\n"
        "  single call: each rank's median over its calls, min/median/max over ranks; slow = rank with the largest.\n");
    if (cfg->nonblocking)
        printf("  nonblocking (IMB-NBC): medians over rounds of the call alone (start + wait), a compute loop of the "
               "same length\n"
               "  alone, and both (compute between start and wait; then with an MPI_Test every %lld of %d chunks);\n"
               "  overlap = (t_pure + t_cpu - t_ovrl) / min(t_pure, t_cpu), in [0, 100] %%.\n",
               cfg->test_every, PST_COLL_CPU_CHUNKS);
    if (cfg->persistent)
        printf("  persistent (MPI-4.0 6.13): set-up once (max over ranks), then MPI_Start + MPI_Wait per call against "
               "the\n"
               "  blocking call in paired rounds; ratio persistent / blocking [%.0f %% CI], n.s. = within the %.0f %% "
               "margin.\n",
               cfg->rounds.confidence * 100, cfg->rounds.margin * 100);
}

static void emit_point(coll_cfg *cfg, const coll_point *pt, const coll_analysis *an)
{
    const coll_op *op = pt->op;
    size_t n = (size_t)pt->n;
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_coll_point);
    pst_rec_str(&r, "op", op->name);
    pst_rec_int(&r, "bytes", pt->bytes);
    pst_rec_num(&r, "size_bytes", pt->size_bytes);
    pst_rec_int(&r, "comm_size", pt->n);
    if (op->rooted && !cfg->rotate) pst_rec_int(&r, "root", cfg->root);
    else pst_rec_str(&r, "root", NULL);
    pst_rec_bool(&r, "root_rotate", op->rooted && cfg->rotate);
    pst_rec_str(&r, "method", "frese-knipp-loop");
    pst_rec_str(&r, "alloc_state", cfg->alloc_state);
    pst_rec_rounds(&r, pt->R, pt->alt, &cfg->rounds);
    pst_rec_int(&r, "iters", pt->iters);
    pst_rec_int(&r, "warmup", cfg->warmup);
    pst_rec_num(&r, "algbw", an->algbw_gbytes_per_s);
    pst_rec_num(&r, "busbw", an->busbw_gbytes_per_s);
    pst_rec_num(&r, "algbw_med", an->algbw_med_gbytes_per_s);
    pst_rec_num(&r, "busbw_med", an->busbw_med_gbytes_per_s);
    pst_rec_num(&r, "busbw_factor", an->busbw_factor);
    pst_rec_num(&r, "rank_med_min", an->across.min);
    pst_rec_num(&r, "rank_med_median", an->across.median);
    pst_rec_num(&r, "rank_med_max", an->across.max);
    pst_rec_int(&r, "slowest_rank", an->slowest_rank);
    pst_rec_num(&r, "imbalance", an->imbalance);
    pst_rec_nums(&r, "rank_t_min", an->rank_min_s, n);
    pst_rec_nums(&r, "rank_t_med", an->rank_med_s, n);
    pst_rec_nums(&r, "rank_t_max", an->rank_max_s, n);
    pst_rec_bool(&r, "verified", !cfg->ctx.no_verify && op->bw != PST_BW_NONE);
    if (cfg->samples) pst_rec_nums(&r, "samples", pt->R->t[pt->alt], pt->R->n);
    pst_rec_emit(&r, &cfg->ctx);
}

void *pst_coll_analyse(const void *p, const void *data)
{
    const coll_sweep *w = data;
    coll_analysis *an = pst_malloc((w->nops ? w->nops : 1) * sizeof *an);
    for (size_t oi = 0; oi < w->nops; oi++) an[oi] = analyse(&w->pts[oi]);
    return an;
}

void pst_coll_print(const void *p, const void *data, const void *analysis)
{
    const coll_cfg *cfg = p;
    const coll_sweep *w = data;
    const coll_analysis *an = analysis;
    if (w->s == 0) print_header(cfg, w->n);
    for (size_t oi = 0; oi < w->nops; oi++) {
        print_point(&w->pts[oi], &an[oi]);
        pst_coll_print_forms(cfg, &w->pts[oi]);
    }
    if (last_size(cfg, w)) fflush(stdout);
}

void pst_coll_emit(void *p, const void *data, const void *analysis)
{
    const coll_sweep *w = data;
    const coll_analysis *an = analysis;
    for (size_t oi = 0; oi < w->nops; oi++) {
        emit_point(p, &w->pts[oi], &an[oi]);
        pst_coll_emit_forms(p, &w->pts[oi]);
    }
}

void pst_coll_analysis_free(const void *p, void *analysis)
{
    const coll_sweep *w = ((const coll_cfg *)p)->now;
    coll_analysis *an = analysis;
    for (size_t oi = 0; oi < w->nops; oi++) analysis_free(&an[oi]);
    free(an);
}

void pst_coll_finish(void *p)
{
    const coll_cfg *cfg = p;
    if (cfg->ctx.rank == 0) print_legend(cfg);
}
