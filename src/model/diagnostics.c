#include "model/diagnostics.h"

#include "model/setup/constants.h"

#include <math.h>
#include <stddef.h>

void pst_norm_add(pst_norm_acc *acc, const double *w, int nlat, int nlon, pst_grid_fields x, pst_grid_fields ref)
{
    for (int j = 0; j < nlat; j++) {
        double wj = 0.5 * w[j] / nlon;
        for (int i = 0; i < nlon; i++) {
            size_t k = (size_t)j * nlon + i;
            double dh = fabs(x.h[k] - ref.h[k]), rh = fabs(ref.h[k]);
            double du = x.u[k] - ref.u[k], dv = x.v[k] - ref.v[k];
            double dw2 = du * du + dv * dv, rw2 = ref.u[k] * ref.u[k] + ref.v[k] * ref.v[k];
            double d[2] = {dh, sqrt(dw2)}, r[2] = {rh, sqrt(rw2)};
            for (int q = 0; q < 2; q++) {
                acc->d_abs[q] += wj * d[q];
                acc->d_sq[q] += wj * d[q] * d[q];
                acc->d_max[q] = fmax(acc->d_max[q], d[q]);
                acc->r_abs[q] += wj * r[q];
                acc->r_sq[q] += wj * r[q] * r[q];
                acc->r_max[q] = fmax(acc->r_max[q], r[q]);
            }
        }
    }
}

pst_norms pst_norm_finish(const pst_norm_acc *a)
{
    pst_norms n;
    n.h_l1 = a->d_abs[0] / a->r_abs[0];
    n.h_l2 = sqrt(a->d_sq[0]) / sqrt(a->r_sq[0]);
    n.h_linf = a->d_max[0] / a->r_max[0];
    n.v_l1 = a->d_abs[1] / a->r_abs[1];
    n.v_l2 = sqrt(a->d_sq[1]) / sqrt(a->r_sq[1]);
    n.v_linf = a->d_max[1] / a->r_max[1];
    return n;
}

void pst_invariants_add(pst_invariants *inv, const double *w, int nlat, int nlon, pst_grid_fields x, const double *hs,
                        const double *eta)
{
    for (int j = 0; j < nlat; j++) {
        double wj = 0.5 * w[j] / nlon;
        for (int i = 0; i < nlon; i++) {
            size_t k = (size_t)j * nlon + i;
            double depth = x.h[k] - hs[k], speed2 = x.u[k] * x.u[k] + x.v[k] * x.v[k];
            inv->mass += wj * depth;
            inv->energy += wj * (0.5 * depth * speed2 + 0.5 * PST_GRAVITY * (x.h[k] * x.h[k] - hs[k] * hs[k]));
            inv->enstrophy += wj * 0.5 * eta[k] * eta[k] / depth;
        }
    }
}

double pst_max_speed(int npts, const double *u, const double *v)
{
    double m = 0;
    for (int k = 0; k < npts; k++) m = fmax(m, sqrt(u[k] * u[k] + v[k] * v[k]));
    return m;
}
