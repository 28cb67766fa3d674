/* pstswm pingpong's report, rank 0: per mode and direction the table, the zero-byte latency, the
 * peak and the large-message fit (Frese & Knipp 1998) beside the piecewise fit over all sizes;
 * with two modes or more, the verdict per size on which is fastest; their records. */
#include "cmd/pingpong/pingpong_impl.h"

#include "cmd/pingpong/latbw.h"
#include "cmd/common/records.h"
#include "core/alloc.h"
#include "runtime/emit.h"
#include "stats/segfit.h"
#include "stats/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
    mv.v = pst_rounds_verdict(R, k, &cfg->rounds, mv.in_set, mv.med_s);
    return mv;
}

static void emit_modes_verdict(pp_cfg *cfg, bool bidir, long long bytes, const pst_rounds *R,
                               const pp_modes_verdict *mv, const char *const *labels)
{
    pst_rec r;
    pst_rec_begin(&r, &cfg->ctx, &pst_schema_pingpong_modes);
    pst_rec_str(&r, "direction", bidir ? "bi" : "uni");
    pst_rec_int(&r, "bytes", bytes);
    pst_rec_str(&r, "pair", cfg->pairs_spec);
    pst_rec_str(&r, "locality", pst_pairing_locality(cfg->pairs_spec));
    pst_rec_verdict(&r, &mv->v, mv->in_set, labels, R, &cfg->rounds, &cfg->ctx);
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
    an.pw = pst_segfit_run(nsizes, X, tmed, bytes, cfg->rounds.confidence);
    free(X);
    free(tmed);
    return an;
}

static void emit_mode(pp_cfg *cfg, const pp_mode *m, bool bidir, size_t nsizes, const long long *bytes,
                      const pp_point *pts, const pp_analysis *an)
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
           m->recipe, cfg->transport,
           bidir ? "bidirectional: t = time per simultaneous exchange" : "unidirectional: t = half round trip",
           cfg->pairs_spec, np, np == 1 ? "" : "s", cfg->reps);
    if (cfg->streams.n > 1)
        printf("  %d streams per pair (tags 0-%d), %s: t = time per message = the streams' wall time / %d\n",
               cfg->streams.n, cfg->streams.n - 1,
               cfg->streams.multiple ? "multiple: every thread calls MPI" : "funneled: the master drives all",
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
    printf("  zero-byte latency: %.3f us (min over samples), %.3f us (median)\n", pts[0].t.min * 1e6,
           pts[0].t.median * 1e6);
    if (a->peak_bytes_per_s > 0)
        printf("  peak bandwidth: %.1f MB/s at %lld bytes, where t = %.3f us (min over samples)\n",
               a->peak_bytes_per_s / 1e6, bytes[a->peak], an->tmin[a->peak] * 1e6);
    if (a->fitted)
        printf("  fit T(N) = t_l + N*t_s over %lld ... %lld bytes (%zu sizes, t_min): %st_l = %.3f us [95%% CI %.3f, "
               "%.3f], 1/t_s = %.1f MB/s, r2 = %.6f, max |residual| = %.3f us (%.2f%%)\n",
               cfg->fit_from, cfg->fit_to, a->npoints, an->window_ok ? "" : "FIT NOT OK: ", a->fit.coef[0] * 1e6,
               a->t_l_ci95[0] * 1e6, a->t_l_ci95[1] * 1e6, an->bw_fit / 1e6, a->fit.r2, a->max_abs_resid_s * 1e6,
               a->max_rel_resid * 100);
    else
        printf("  fit T(N) = t_l + N*t_s: not done, %zu size%s in the window %lld ... %lld bytes (needs 2)\n",
               a->npoints, a->npoints == 1 ? "" : "s", cfg->fit_from, cfg->fit_to);
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

void *pst_pingpong_analyse_direction(const void *p, const void *data)
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

void pst_pingpong_print_direction(const void *p, const void *data, const void *analysis)
{
    const pp_cfg *cfg = p;
    const pp_direction *d = data;
    const pp_direction_analysis *an = analysis;
    for (size_t mi = 0; mi < cfg->nmodes; mi++)
        print_mode(cfg, &cfg->modes[mi], d->bidir, cfg->sizes.n, cfg->sizes.v, d->pts[mi], &an->modes[mi]);
    if (!an->verdicts) return;
    printf("\n== fastest mode per size (%s): medians over rounds; best set = modes not slower than the best beyond "
           "%.0f %% at %.0f %% confidence ==\n", d->bidir ? "bi" : "uni", cfg->rounds.margin * 100,
           cfg->rounds.confidence * 100);
    printf("  %10s %-4s %12s  %-12s %s\n", "bytes", "dir", "best t us", "level", "best set");
    for (size_t s = 0; s < cfg->sizes.n; s++)
        print_modes_verdict(d->bidir, cfg->sizes.v[s], &an->verdicts[s], an->labels);
    fflush(stdout);
}

void pst_pingpong_emit_direction(void *p, const void *data, const void *analysis)
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

void pst_pingpong_free_direction_analysis(const void *p, void *analysis)
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
