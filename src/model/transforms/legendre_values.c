/* P̄_n^m at one point: the sectoral start and the column of the tables (legendre.h). */
#include "model/transforms/legendre_impl.h"

#include "core/alloc.h"
#include "model/transforms/legendre_generate.h"

#include <math.h>
#include <stdlib.h>

enum { RESCALE_BITS = PST_LEG_RESCALE_BITS };

static double eps(int n, int m) { return pst_leg_eps(n, m); }

/* P̄_m^m(μ) as mant * 2^e. */
void pst_leg_sectoral(int m, double s, double *mant, int *e)
{
    double v = sqrt(0.5);
    int ex = 0;
    for (int k = 1; k <= m; k++) {
        int de;
        v = frexp(v * sqrt((2.0 * k + 1.0) / (2.0 * k)) * s, &de);
        ex += de;
    }
    *mant = v;
    *e = ex;
}

void pst_legendre_column(int M, int m, double mu, double coslat, double *p, double *h)
{
    /* P̄ for n = m..M+1 (the extra degree feeds H_M). */
    int len = M - m + 2;
    double *pv = pst_malloc((size_t)len * sizeof *pv);
    double v0, v1;
    int e;
    pst_leg_sectoral(m, coslat, &v0, &e);
    pv[0] = ldexp(v0, e);
    v1 = mu * v0 / eps(m + 1, m);
    pv[1] = ldexp(v1, e);
    for (int n = m + 2; n <= M + 1; n++) {
        double v2 = (mu * v1 - eps(n - 1, m) * v0) / eps(n, m);
        v0 = v1;
        v1 = v2;
        if (fabs(v1) > 0x1p400) {
            v0 = ldexp(v0, -RESCALE_BITS);
            v1 = ldexp(v1, -RESCALE_BITS);
            e += RESCALE_BITS;
        }
        pv[n - m] = ldexp(v1, e);
    }
    for (int n = m; n <= M; n++) {
        p[n - m] = pv[n - m];
        double below = n > m ? (n + 1.0) * eps(n, m) * pv[n - m - 1] : 0.0;
        h[n - m] = below - n * eps(n + 1, m) * pv[n - m + 1];
    }
    free(pv);
}
