#include "model/transforms/gauss.h"

#include "model/setup/constants.h"

#include <math.h>

/* P_n, P_{n−1} and D_n = P_n − P_{n−1} at x = 1 − y:
 * D_k = ((k−1) D_{k−1} − (2k−1) y P_{k−1}) / k,  P_k = P_{k−1} + D_k. */
static void legendre_y(int n, double y, double *pn, double *pn1, double *dn)
{
    double prev = 1.0, p = 1.0 - y, d = -y; /* P_0, P_1, D_1 */
    for (int k = 2; k <= n; k++) {
        d = ((k - 1.0) * d - (2.0 * k - 1.0) * y * p) / k;
        prev = p;
        p += d;
    }
    *pn = p;
    *pn1 = prev;
    *dn = d;
}

void pst_gauss_nodes(int n, double *mu, double *coslat, double *w)
{
    for (int j = 0; j < n / 2; j++) {
        double th = PST_PI * (j + 0.75) / (n + 0.5), pn, pn1, dn;
        for (int it = 0, settled = 0; it < 100 && settled < 2; it++) {
            double half = sin(0.5 * th), y = 2.0 * half * half;
            legendre_y(n, y, &pn, &pn1, &dn);
            /* dP_n/dθ = −n (P_{n−1} − x P_n) / sin θ,  P_{n−1} − x P_n = −D_n + y P_n */
            double dth = pn * sin(th) / (n * (-dn + y * pn));
            th += dth;
            if (fabs(dth) <= 2e-16 * th) settled++;
        }
        double half = sin(0.5 * th), s = sin(th);
        legendre_y(n, 2.0 * half * half, &pn, &pn1, &dn);
        double wj = 2.0 * s * s / ((n * pn1) * (n * pn1));
        mu[j] = cos(th);
        mu[n - 1 - j] = -mu[j];
        coslat[j] = coslat[n - 1 - j] = s;
        w[j] = w[n - 1 - j] = wj;
    }
}
