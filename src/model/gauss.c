#include "model/gauss.h"

#include "model/constants.h"

#include <math.h>

/* P_n(x) and P_{n-1}(x) by the three-term recurrence. */
static void legendre_pair(int n, double x, double *pn, double *pn1)
{
    double p0 = 1.0, p1 = x;
    for (int k = 2; k <= n; k++) {
        double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
    }
    *pn = p1;
    *pn1 = p0;
}

void pst_gauss_nodes(int n, double *mu, double *w)
{
    for (int j = 0; j < n / 2; j++) {
        double x = cos(PST_PI * (j + 0.75) / (n + 0.5)), pn, pn1;
        /* Newton on P_n; stop once the step no longer changes x, then one more. */
        for (int it = 0, settled = 0; it < 100 && settled < 2; it++) {
            legendre_pair(n, x, &pn, &pn1);
            double dp = n * (pn1 - x * pn) / ((1.0 - x) * (1.0 + x));
            double dx = pn / dp;
            x -= dx;
            if (fabs(dx) <= 4e-16 * fabs(x)) settled++;
        }
        legendre_pair(n, x, &pn, &pn1);
        double wj = 2.0 * (1.0 - x) * (1.0 + x) / ((n * pn1) * (n * pn1));
        mu[j] = x;
        mu[n - 1 - j] = -x;
        w[j] = w[n - 1 - j] = wj;
    }
}
