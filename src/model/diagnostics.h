/* Williamson et al. (1992) error measures and invariants, as Gaussian-weighted area means
 * (weights summing to 1 over the sphere: w_j / 2 per latitude, 1/nlon per longitude).
 *
 *   l1 = I(|x − x_T|) / I(|x_T|),  l2 = √I((x − x_T)²) / √I(x_T²),  l∞ = max|x − x_T| / max|x_T|
 * for the height h and, with |·| the vector magnitude, the wind v = (u, v).
 *   mass = I(h*),  energy = I(½ h* |v|² + ½ g (h² − h_s²)),  potential enstrophy = I(½ η² / h*)
 * with h* = h − h_s the fluid depth and η the absolute vorticity.  Several levels add up. */
#ifndef PST_MODEL_DIAGNOSTICS_H
#define PST_MODEL_DIAGNOSTICS_H

typedef struct pst_grid_fields {
    const double *h, *u, *v;      /* [nlat][nlon] */
} pst_grid_fields;

typedef struct pst_norm_acc {
    double d_abs[2], d_sq[2], d_max[2];   /* error: [0] height, [1] wind */
    double r_abs[2], r_sq[2], r_max[2];   /* reference */
} pst_norm_acc;

typedef struct pst_norms {
    double h_l1, h_l2, h_linf, v_l1, v_l2, v_linf;
} pst_norms;

typedef struct pst_invariants {
    double mass, energy, enstrophy;
} pst_invariants;

/* w: Gaussian weights [nlat] (summing to 2). */
void pst_norm_add(pst_norm_acc *acc, const double *w, int nlat, int nlon, pst_grid_fields x, pst_grid_fields ref);
pst_norms pst_norm_finish(const pst_norm_acc *acc);

/* Adds one level's invariants to *inv.  h: free-surface height, hs: surface height, eta:
 * absolute vorticity, all [nlat][nlon]. */
void pst_invariants_add(pst_invariants *inv, const double *w, int nlat, int nlon, pst_grid_fields x, const double *hs,
                        const double *eta);

/* Largest |v| on the grid. */
double pst_max_speed(int npts, const double *u, const double *v);

#endif
