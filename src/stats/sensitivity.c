#include "stats/sensitivity.h"

#include "core/alloc.h"
#include "core/record.h"
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

pst_sensitivity pst_sensitivity_of(const double *t, size_t n)
{
    pst_sensitivity s = {.min = NAN, .mean = NAN, .median = NAN, .max = NAN,
                         .mean_rel = NAN, .median_rel = NAN, .max_rel = NAN, .level = "n/a"};
    double *v = pst_malloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(t[i])) v[m++] = t[i];
    s.n = m;
    if (m) {
        pst_summary sum = pst_summarize(v, m);
        s.min = sum.min; s.mean = sum.mean; s.median = sum.median; s.max = sum.max;
        s.mean_rel = (s.mean - s.min) / s.min;
        s.median_rel = (s.median - s.min) / s.min;
        s.max_rel = (s.max - s.min) / s.min;
        static const double pct[3] = {0.01, 0.05, 0.25};
        for (size_t i = 0; i < m; i++)
            for (int k = 0; k < 3; k++) s.within[k] += v[i] <= s.min * (1 + pct[k]);
        s.level = s.median_rel <= 0.05 ? "low" : s.median_rel >= 0.15 ? "high" : "moderate";
        /* Five fastest by selection: n is small (tens of protocols). */
        bool *taken = pst_calloc(n, sizeof *taken);
        for (s.norder = 0; s.norder < 5 && s.norder < m; s.norder++) {
            size_t best = n;
            for (size_t i = 0; i < n; i++)
                if (isfinite(t[i]) && !taken[i] && (best == n || t[i] < t[best])) best = i;
            taken[best] = true;
            s.order[s.norder] = best;
        }
        free(taken);
    }
    free(v);
    return s;
}

void pst_rec_sensitivity(struct pst_rec *r, const pst_sensitivity *s, double median_rel, const char *const *labels)
{
    const char *fastest[5];
    for (size_t j = 0; j < s->norder; j++) fastest[j] = labels[s->order[j]];
    pst_rec_num(r, "mean_rel", s->mean_rel);
    pst_rec_num(r, "median_rel", median_rel);
    pst_rec_num(r, "max_rel", s->max_rel);
    pst_rec_strs(r, "fastest", fastest, s->norder);
    pst_rec_int(r, "within_1pct", (long long)s->within[0]);
    pst_rec_int(r, "within_5pct", (long long)s->within[1]);
    pst_rec_int(r, "within_25pct", (long long)s->within[2]);
}
