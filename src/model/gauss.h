/* Gaussian quadrature on [-1, 1]: the latitudes of the transform grid. */
#ifndef PST_MODEL_GAUSS_H
#define PST_MODEL_GAUSS_H

/* Nodes mu[0..n) in descending order (north to south, mu = sin(latitude)) and weights w
 * (summing to 2), n even.  Nodes by Newton iteration on P_n to machine precision; the
 * southern half mirrors the northern exactly (mu[n-1-j] = -mu[j]) so the even/odd Legendre
 * symmetry holds bit for bit. */
void pst_gauss_nodes(int n, double *mu, double *w);

#endif
