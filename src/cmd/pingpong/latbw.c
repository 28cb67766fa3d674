#include "cmd/pingpong/latbw.h"
#include "core/alloc.h"

#include <math.h>
#include <stdlib.h>

pst_latbw pst_latbw_analyse(size_t n, const long long *bytes, const double *t_s, long long lo, long long hi,
                            double *resid)
{
    pst_latbw r = {0};
    double *x = pst_malloc((n ? n : 1) * sizeof *x), *y = pst_malloc((n ? n : 1) * sizeof *y);
    for (size_t i = 0; i < n; i++) {
        if (resid) resid[i] = NAN;
        if (bytes[i] > 0 && isfinite(t_s[i]) && t_s[i] > 0) {
            double bw = (double)bytes[i] / t_s[i];
            if (bw > r.peak_bytes_per_s) { r.peak_bytes_per_s = bw; r.peak = i; }
        }
        if (bytes[i] >= lo && bytes[i] <= hi && isfinite(t_s[i])) {
            x[r.npoints] = (double)bytes[i];
            y[r.npoints++] = t_s[i];
        }
    }
    r.fitted = r.npoints >= 2 && pst_linfit(r.npoints, x, y, NULL, &r.fit) == 0;
    if (r.fitted) {
        pst_fit_ci(&r.fit, 0, 0.95, &r.t_l_ci95[0], &r.t_l_ci95[1]);
        pst_fit_ci(&r.fit, 1, 0.95, &r.t_s_ci95[0], &r.t_s_ci95[1]);
        for (size_t i = 0; i < n; i++) {
            if (bytes[i] < lo || bytes[i] > hi || !isfinite(t_s[i])) continue;
            double d = t_s[i] - (r.fit.coef[0] + r.fit.coef[1] * (double)bytes[i]);
            if (resid) resid[i] = d;
            r.max_abs_resid_s = fmax(r.max_abs_resid_s, fabs(d));
            r.max_rel_resid = fmax(r.max_rel_resid, fabs(d) / t_s[i]);
        }
    }
    free(x);
    free(y);
    return r;
}
