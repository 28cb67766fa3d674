/* pstswm swap's report, rank 0: per protocol the peak bandwidth and the piecewise model over
 * the sizes (Worley 2000), per size the verdict and sensitivity across protocols (Worley 1998);
 * the tables and their records. */
#include "cmd/swap/swap_impl.h"

#include "cmd/common/pairing.h"
#include "cmd/common/records.h"
#include "core/alloc.h"
#include "runtime/emit.h"
#include "stats/segfit.h"
#include "stats/sensitivity.h"
#include "stats/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One cache state's summaries, from the rounds of every size (rank 0).  Per protocol (Worley
 * 2000): peak bandwidth and the model T = nmsg·α + volume/β piecewise over the protocol regimes
 * (stats/segfit.h), fitted to the per-size medians.  Per size (Worley 1998) as a verdict: the best
 * set at the stated confidence and margin from paired per-round times, and the sensitivity
 * across protocols. */
typedef struct swap_protocol_fit {
    double peak_mbytes_per_s;    /* over sizes, from the medians */
    long long peak_bytes;
    pst_segfit fit;
    double alpha_s;              /* the first segment's latency: the small-message limit */
    double beta_mbytes_per_s;    /* the last segment's bandwidth: the large-message limit */
} swap_protocol_fit;

typedef struct swap_size_verdict {
    pst_verdict v;
    bool *in_set;                /* [protocol] */
    double *med_s;               /* [protocol] */
    pst_sensitivity s;
    double max_mbytes_per_s;     /* the best protocol's bandwidth */
} swap_size_verdict;

typedef struct swap_analysis {
    const long long *bytes, *nmsg; /* [size], in --sizes order */
    const pst_rounds *R;           /* [size] */
    long long *key_bytes;          /* [size] ascending: the order segfit wants */
    swap_protocol_fit *fits;       /* [protocol] */
    swap_size_verdict *verdicts;   /* [size]; NULL with one protocol: nothing to compare */
    const char **labels;           /* [protocol]: the codes */
} swap_analysis;

/* Protocol pi's peak and fit over the sizes taken in ascending order (order[k] indexes --sizes). */
static swap_protocol_fit fit_protocol(const swap_cfg *cfg, const swap_analysis *an, const size_t *order, size_t pi)
{
    size_t nsizes = cfg->sizes.n;
    swap_protocol_fit pf = {0};
    double *X = pst_malloc(2 * nsizes * sizeof *X), *med_s = pst_malloc(nsizes * sizeof *med_s);
    for (size_t k = 0; k < nsizes; k++) {
        size_t i = order[k];
        double lo, hi;
        med_s[k] = pst_median_ci(an->R[i].t[pi], an->R[i].n, cfg->rounds.confidence, &lo, &hi);
        double bw = mbytes_per_s(an->bytes[i], an->nmsg[i], med_s[k]);
        if (bw > pf.peak_mbytes_per_s) { pf.peak_mbytes_per_s = bw; pf.peak_bytes = an->bytes[i]; }
        X[2 * k] = (double)an->nmsg[i];
        X[2 * k + 1] = (double)(an->bytes[i] * an->nmsg[i]);
    }
    pf.fit = pst_segfit_run(nsizes, X, med_s, an->key_bytes, cfg->rounds.confidence);
    const pst_segfit *f = &pf.fit;
    pf.alpha_s = f->nseg ? f->seg[0].fit.coef[0] : NAN;
    pf.beta_mbytes_per_s =
        f->nseg && f->seg[f->nseg - 1].fit.coef[1] > 0 ? 1e-6 / f->seg[f->nseg - 1].fit.coef[1] : NAN;
    free(X);
    free(med_s);
    return pf;
}

static swap_size_verdict size_verdict(const swap_cfg *cfg, const swap_analysis *an, size_t s)
{
    size_t k = cfg->nprotocols;
    swap_size_verdict sv = {.in_set = pst_malloc(k * sizeof *sv.in_set), .med_s = pst_malloc(k * sizeof *sv.med_s)};
    sv.v = pst_rounds_verdict(&an->R[s], k, &cfg->rounds, sv.in_set, sv.med_s);
    sv.s = pst_sensitivity_of(sv.med_s, k);
    sv.max_mbytes_per_s = mbytes_per_s(an->bytes[s], an->nmsg[s], sv.s.min);
    return sv;
}

static swap_analysis analyse(const swap_cfg *cfg, const long long *nmsg, const pst_rounds *R)
{
    size_t nsizes = cfg->sizes.n, k = cfg->nprotocols;
    swap_analysis an = {.bytes = cfg->sizes.v,
                        .nmsg = nmsg,
                        .R = R,
                        .key_bytes = pst_malloc(nsizes * sizeof *an.key_bytes),
                        .fits = pst_malloc(k * sizeof *an.fits),
                        .labels = pst_malloc(k * sizeof *an.labels)};
    for (size_t pi = 0; pi < k; pi++) an.labels[pi] = cfg->protocols[pi]->code;
    /* segfit wants the points in ascending size order. */
    size_t *order = pst_malloc(nsizes * sizeof *order);
    for (size_t i = 0; i < nsizes; i++) order[i] = i;
    for (size_t i = 1; i < nsizes; i++)
        for (size_t j = i; j > 0 && an.bytes[order[j]] < an.bytes[order[j - 1]]; j--) {
            size_t t = order[j]; order[j] = order[j - 1]; order[j - 1] = t;
        }
    for (size_t i = 0; i < nsizes; i++) an.key_bytes[i] = an.bytes[order[i]];
    for (size_t pi = 0; pi < k; pi++) an.fits[pi] = fit_protocol(cfg, &an, order, pi);
    free(order);
    if (k >= 2) {
        an.verdicts = pst_malloc(nsizes * sizeof *an.verdicts);
        for (size_t s = 0; s < nsizes; s++) an.verdicts[s] = size_verdict(cfg, &an, s);
    }
    return an;
}

static void analysis_free(const swap_cfg *cfg, swap_analysis *an)
{
    if (an->verdicts)
        for (size_t s = 0; s < cfg->sizes.n; s++) {
            free(an->verdicts[s].in_set);
            free(an->verdicts[s].med_s);
        }
    free(an->verdicts);
    free(an->fits);
    free(an->labels);
    free(an->key_bytes);
}

static void print_cache(const swap_cfg *cfg, const cache_mode *cm, const swap_analysis *an)
{
    printf("\n== swap, transport %s, cache %s (%s), pairs %s (%d pair%s), %zu+ rounds (%s), statistic: median ==\n",
           cfg->transport, cm->name, cm->description, cfg->pairs_spec, cfg->npairs, cfg->npairs == 1 ? "" : "s",
           (size_t)cfg->reps, cfg->rounds.schedule);
    if (cfg->streams > 1)
        printf("  %d streams per pair (tags 0-%d), %s: times = the streams' wall time / %d\n", cfg->streams,
               cfg->streams - 1, cfg->multiple ? "multiple: every thread calls MPI" : "funneled: the master runs all",
               cfg->streams);
    printf("  %-5s %-32s %10s %9s %8s %10s %10s  (piecewise by regime)\n", "code", "protocol", "peak MB/s", "at bytes",
           "alpha us", "beta MB/s", "max err");
    for (size_t pi = 0; pi < cfg->nprotocols; pi++) {
        const swap_protocol_fit *pf = &an->fits[pi];
        char fit[160];
        printf("  %-5s %-32s %10.1f %9lld %s\n", cfg->protocols[pi]->code, cfg->protocols[pi]->slug,
               pf->peak_mbytes_per_s, pf->peak_bytes, pst_segfit_text(&pf->fit, an->key_bytes, fit, sizeof fit));
    }
    if (an->verdicts) {
        printf("\n  protocol sensitivity summary (cache %s; each protocol's time = its median over rounds;\n"
               "  best set: protocols not slower than the best beyond %.0f %% at %.0f %% confidence)\n", cm->name,
               cfg->rounds.margin * 100, cfg->rounds.confidence * 100);
        printf("  %9s %6s %11s %9s %6s %6s %6s  %-12s %3s %3s %3s  %s\n", "bytes", "nmsg", "best s", "max MB/s", "mean",
               "median", "max", "level", "1%", "5%", "25%", "best set");
        for (size_t s = 0; s < cfg->sizes.n; s++) {
            const swap_size_verdict *sv = &an->verdicts[s];
            char ties[512];
            printf("  %9lld %6lld %11.4e %9.1f %6.2f %6.2f %6.2f  %-12s %3zu %3zu %3zu  %s\n", an->bytes[s],
                   an->nmsg[s], sv->s.min, sv->max_mbytes_per_s, sv->s.mean_rel, sv->v.median_rel, sv->s.max_rel,
                   sv->v.level, sv->s.within[0], sv->s.within[1], sv->s.within[2],
                   pst_tie_set(&sv->v, sv->in_set, an->labels, sv->med_s, ties, sizeof ties));
        }
        printf(
            "  (mean, max: (x-best)/best over protocols' medians; median: paired; 1%%/5%%/25%%: protocols within that "
            "of the best)\n");
    }
    fflush(stdout);
}

/* The protocol summaries, then the sensitivity ones. */
static void emit_summaries(swap_cfg *cfg, const cache_mode *cm, const swap_analysis *an)
{
    size_t nsizes = cfg->sizes.n;
    for (size_t pi = 0; pi < cfg->nprotocols; pi++) {
        const pst_protocol *p = cfg->protocols[pi];
        const swap_protocol_fit *pf = &an->fits[pi];
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_swap_protocol);
        pst_rec_str(&r, "protocol", p->code);
        pst_rec_str(&r, "slug", p->slug);
        pst_rec_str(&r, "cache", cm->name);
        pst_rec_str(&r, "pair", cfg->pairs_spec);
        pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
        pst_rec_str(&r, "stat", "t_med");
        pst_rec_num(&r, "peak_mbytes_per_s", pf->peak_mbytes_per_s);
        pst_rec_int(&r, "peak_bytes", pf->peak_bytes);
        pst_rec_num(&r, "alpha_s", pf->alpha_s);
        pst_rec_num(&r, "beta_mbytes_per_s", pf->beta_mbytes_per_s);
        pst_rec_segfit(&r, &pf->fit, an->key_bytes);
        pst_rec_int(&r, "range_min_bytes", an->key_bytes[0]);
        pst_rec_int(&r, "range_max_bytes", an->key_bytes[nsizes - 1]);
        pst_rec_emit(&r, &cfg->ctx);
    }
    if (!an->verdicts) return;
    for (size_t s = 0; s < nsizes; s++) {
        const swap_size_verdict *sv = &an->verdicts[s];
        pst_rec r;
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_swap_sensitivity);
        pst_rec_str(&r, "cache", cm->name);
        pst_rec_str(&r, "pair", cfg->pairs_spec);
        pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
        pst_rec_int(&r, "bytes", an->bytes[s]);
        pst_rec_int(&r, "nmsg", an->nmsg[s]);
        pst_rec_verdict(&r, &sv->v, sv->in_set, an->labels, &an->R[s], &cfg->rounds, &cfg->ctx);
        pst_rec_int(&r, "nprotocols", (long long)cfg->nprotocols);
        pst_rec_num(&r, "min_s", sv->s.min);
        pst_rec_num(&r, "min_s_per_msg", sv->s.min / (double)an->nmsg[s]);
        pst_rec_num(&r, "max_mbytes_per_s", sv->max_mbytes_per_s);
        pst_rec_sensitivity(&r, &sv->s, sv->v.median_rel, an->labels);
        pst_rec_emit(&r, &cfg->ctx);
    }
}

void *pst_swap_analyse_cache_set(const void *p, const void *data)
{
    const swap_cache_set *cs = data;
    swap_analysis *an = pst_malloc(sizeof *an);
    *an = analyse(p, cs->nmsg, cs->R);
    return an;
}

void pst_swap_print_cache_set(const void *p, const void *data, const void *an)
{
    print_cache(p, ((const swap_cache_set *)data)->cm, an);
}

void pst_swap_emit_cache_set(void *p, const void *data, const void *an)
{
    emit_summaries(p, ((const swap_cache_set *)data)->cm, an);
}

void pst_swap_free_analysis(const void *p, void *an)
{
    analysis_free(p, an);
    free(an);
}
