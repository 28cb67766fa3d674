/* Gaussian quadrature on [-1, 1]: the latitudes of the transform grid. */
#ifndef PST_MODEL_GAUSS_H
#define PST_MODEL_GAUSS_H

/* Nodes mu[0..n) in descending order (north to south, mu = sin(latitude)), their
 * coslat = √(1 − mu²) = cos(latitude) and weights w (summing to 2), n even.
 *
 * Newton's iteration runs on the colatitude θ with the recurrence for P_k(cos θ) written in
 * y = 1 − cos θ = 2 sin²(θ/2) and D_k = P_k − P_{k−1}, so near the poles neither the node nor
 * 1 − mu² loses the relative precision that mu = cos θ ≈ 1 cannot carry (with the plain
 * recurrence in mu the T85 weights are only good to ~1e-13 and orthonormality to ~1e-12).
 * The southern half mirrors the northern exactly, so the even/odd symmetry holds bit for bit. */
void pst_gauss_nodes(int n, double *mu, double *coslat, double *w);

#endif
