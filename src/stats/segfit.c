#include "stats/segfit.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double pst_segfit_eval(const pst_segment *s, const double *x) { return s->fit.coef[0] * x[0] + s->fit.coef[1] * x[1]; }

/* Fit points [from, to) with relative weights; false when it cannot be fitted. */
static bool fit_segment(const double *X, const double *y, size_t from, size_t to, double conf, pst_segment *s)
{
    double w[to - from];
    for (size_t i = from; i < to; i++) w[i - from] = 1.0 / (y[i] * y[i]);
    s->from = from;
    s->to = to;
    if (pst_lsq(to - from, 2, &X[2 * from], &y[from], w, &s->fit)) return false;
    for (int j = 0; j < 2; j++) pst_fit_ci(&s->fit, j, conf, &s->ci[j][0], &s->ci[j][1]);
    return true;
}

typedef struct search {
    size_t n;
    const double *X, *y;
    const long long *key;
    double conf;
    pst_segfit best;
    double best_bic;
    pst_segment cur[PST_SEGFIT_MAX_BREAKS + 1];
} search;

static void consider(search *S, size_t nseg)
{
    double rss = 0;
    for (size_t k = 0; k < nseg; k++) rss += S->cur[k].fit.rss;
    /* Parameters: two per segment and one per breakpoint. */
    double n = (double)S->n, params = 2.0 * (double)nseg + (double)(nseg - 1);
    /* Relative residuals below 1e-12 are round-off: an exact fit is not improved by more segments. */
    double bic = n * log(fmax(rss / n, 1e-24)) + params * log(n);
    if (S->best.nseg && bic >= S->best_bic) return;
    S->best_bic = bic;
    S->best.nseg = nseg;
    memcpy(S->best.seg, S->cur, nseg * sizeof *S->cur);
}

/* Segments from point `from` on, with at most `breaks` more breakpoints. */
static void place(search *S, size_t from, size_t nseg, int breaks)
{
    if (S->n - from >= PST_SEGFIT_MIN_POINTS && fit_segment(S->X, S->y, from, S->n, S->conf, &S->cur[nseg]))
        consider(S, nseg + 1);
    if (breaks == 0) return;
    for (size_t to = from + PST_SEGFIT_MIN_POINTS; to + PST_SEGFIT_MIN_POINTS <= S->n; to++) {
        if (S->key[to] == S->key[to - 1]) continue; /* one size never spans two regimes */
        if (fit_segment(S->X, S->y, from, to, S->conf, &S->cur[nseg])) place(S, to, nseg + 1, breaks - 1);
    }
}

pst_segfit pst_segfit_run(size_t n, const double *X, const double *y, const long long *key, double conf)
{
    search S = {.n = n, .X = X, .y = y, .key = key, .conf = conf};
    if (n >= PST_SEGFIT_MIN_POINTS) place(&S, 0, 0, PST_SEGFIT_MAX_BREAKS);
    pst_segfit f = S.best;
    if (!f.nseg) {
        /* Fewer than 3 sizes: one line through what there is, when it is determined. */
        f.max_rel_err = NAN;
        if (n >= 2 && fit_segment(X, y, 0, n, conf, &f.seg[0])) f.nseg = 1;
    }
    if (!f.nseg) return f;
    f.ok = true;
    for (size_t k = 0; k < f.nseg; k++) {
        const pst_segment *s = &f.seg[k];
        /* Only the first segment's intercept is a latency (the zero-byte time); a later regime's
         * intercept is an offset, negative when its per-byte cost is the higher one. */
        if ((k == 0 && s->fit.coef[0] < 0) || s->fit.coef[1] <= 0) f.ok = false;
        for (size_t i = s->from; i < s->to; i++)
            f.max_rel_err = fmax(f.max_rel_err, fabs(pst_segfit_eval(s, &X[2 * i]) - y[i]) / y[i]);
    }
    if (!(f.max_rel_err <= PST_SEGFIT_MAX_ERR)) f.ok = false;
    return f;
}

/* Bandwidth in MB/s from seconds per byte, and its interval from the coefficient's (a lower
 * bound at or below 0 leaves the bandwidth unbounded above). */
static double mbytes_per_s(double s_per_byte) { return s_per_byte > 0 ? 1e-6 / s_per_byte : NAN; }

void pst_rec_segfit(pst_rec *r, const pst_segfit *f, const long long *key)
{
    long long breaks[PST_SEGFIT_MAX_BREAKS];
    size_t nb = 0;
    for (size_t k = 1; k < f->nseg; k++) breaks[nb++] = key[f->seg[k].from];
    pst_rec_ints(r, "breakpoints_bytes", breaks, nb);
    pst_rec_list_begin(r, "segments");
    for (size_t k = 0; k < f->nseg; k++) {
        const pst_segment *s = &f->seg[k];
        double bw_ci[2] = {mbytes_per_s(s->ci[1][1]), s->ci[1][0] > 0 ? mbytes_per_s(s->ci[1][0]) : INFINITY};
        pst_rec_obj_begin(r, NULL);
        pst_rec_int(r, "from_bytes", key[s->from]);
        pst_rec_int(r, "to_bytes", key[s->to - 1]);
        pst_rec_int(r, "npoints", (long long)(s->to - s->from));
        pst_rec_num(r, "alpha_s", s->fit.coef[0]);
        pst_rec_nums(r, "alpha_ci", s->ci[0], 2);
        pst_rec_num(r, "beta_mbytes_per_s", mbytes_per_s(s->fit.coef[1]));
        pst_rec_nums(r, "beta_ci", bw_ci, 2);
        pst_rec_num(r, "t_l_s", s->fit.coef[0]);
        pst_rec_nums(r, "t_l_ci95", s->ci[0], 2);
        pst_rec_num(r, "t_s_s_per_byte", s->fit.coef[1]);
        pst_rec_nums(r, "t_s_ci95", s->ci[1], 2);
        pst_rec_obj_end(r);
    }
    pst_rec_list_end(r);
    pst_rec_num(r, "model_max_rel_err", f->max_rel_err);
    pst_rec_bool(r, "fit_ok", f->ok);
}

const char *pst_segfit_text(const pst_segfit *f, const long long *key, char *buf, size_t len)
{
    if (!f->nseg) {
        snprintf(buf, len, "no fit (too few sizes)");
        return buf;
    }
    if (!f->ok) {
        const char *why = "";
        long long at = 0;
        for (size_t k = 0; k < f->nseg && !*why; k++) {
            at = key[f->seg[k].from];
            why = k == 0 && f->seg[k].fit.coef[0] < 0 ? "negative latency"
                  : f->seg[k].fit.coef[1] <= 0        ? "negative bandwidth"
                                                      : "";
        }
        if (*why) snprintf(buf, len, "FIT NOT OK (%.0f %% error, %s from %lld bytes)", 100 * f->max_rel_err, why, at);
        else snprintf(buf, len, "FIT NOT OK (%.0f %% error)", 100 * f->max_rel_err);
        return buf;
    }
    size_t used = (size_t)snprintf(buf, len, "%8.2f %10.1f %9.1f%%", f->seg[0].fit.coef[0] * 1e6,
                                   mbytes_per_s(f->seg[f->nseg - 1].fit.coef[1]), 100 * f->max_rel_err);
    for (size_t k = 1; k < f->nseg && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%lld", k == 1 ? "  breaks at " : ",", key[f->seg[k].from]);
    return buf;
}
