#include "model/transforms/transforms.h"

#include "model/setup/constants.h"
#include "model/transforms/gauss.h"
#include "model/transforms/wind.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

void pst_sht_init(pst_sht *t, const pst_spectral_grid *g, pst_fft_planner *planner)
{
    const int M = g->M, nlat = g->nlat, nlon = g->nlon;
    t->grid = g;
    t->npairs = nlat / 2;
    t->mu = pst_malloc((size_t)nlat * sizeof *t->mu);
    t->coslat = pst_malloc((size_t)nlat * sizeof *t->coslat);
    t->w = pst_malloc((size_t)nlat * sizeof *t->w);
    pst_gauss_nodes(nlat, t->mu, t->coslat, t->w);
    pst_spec_layout_full(&t->spec, M);
    pst_legendre_init(&t->leg, &t->spec, t->mu, t->coslat, t->npairs, PST_LEG_RECURRENCE);
    pst_fft_init(&t->fft, planner, PST_FFT_SETUP, nlon, nlat);
    size_t nc = (size_t)t->fft.nc;
    t->points = pst_fft_alloc_real(2 * (size_t)nlat * nlon);
    t->four = pst_fft_alloc_complex(2 * (size_t)nlat * nc);
    size_t scratch = 4 * (size_t)(t->npairs > M + 2 ? t->npairs : M + 2);
    t->a = pst_calloc(scratch, sizeof *t->a);
    t->b = pst_calloc(scratch, sizeof *t->b);
    t->x = pst_calloc(scratch, sizeof *t->x);
    t->y = pst_calloc(scratch, sizeof *t->y);
}

void pst_sht_free(pst_sht *t)
{
    pst_fft_free(&t->fft);
    pst_legendre_free(&t->leg);
    pst_spec_layout_free(&t->spec);
    fftw_free(t->points);
    fftw_free(t->four);
    free(t->mu);
    free(t->coslat);
    free(t->w);
    free(t->a);
    free(t->b);
    free(t->x);
    free(t->y);
}

static fftw_complex *line(pst_sht *t, int field, int lat)
{
    return t->four + ((size_t)field * t->grid->nlat + lat) * t->fft.nc;
}

static void forward_fft(pst_sht *t, int field, const double *grid)
{
    double *g = t->points + (size_t)field * t->grid->nlat * t->grid->nlon;
    memcpy(g, grid, (size_t)t->grid->nlat * t->grid->nlon * sizeof *g);
    pst_fft_forward(&t->fft, g, line(t, field, 0));
}

static void inverse_fft(pst_sht *t, int field, double *grid)
{
    for (int j = 0; j < t->grid->nlat; j++)
        memset(line(t, field, j) + t->grid->M + 1, 0, (size_t)(t->fft.nc - t->grid->M - 1) * sizeof(fftw_complex));
    double *g = t->points + (size_t)field * t->grid->nlat * t->grid->nlon;
    pst_fft_inverse(&t->fft, line(t, field, 0), g);
    memcpy(grid, g, (size_t)t->grid->nlat * t->grid->nlon * sizeof *g);
}

void pst_sht_analysis(pst_sht *t, const double *grid, double *spec)
{
    forward_fft(t, 0, grid);
    for (int i = 0; i < t->spec.nm; i++) {
        int m = t->spec.m[i];
        for (int p = 0; p < t->npairs; p++) {
            const double *n = line(t, 0, p)[m], *s = line(t, 0, t->grid->nlat - 1 - p)[m];
            double c = t->w[p] / t->grid->nlon;
            for (int r = 0; r < 2; r++) {
                t->a[2 * p + r] = c * (n[r] + s[r]);
                t->b[2 * p + r] = c * (n[r] - s[r]);
            }
        }
        pst_leg_analysis(&t->leg, t->leg.work, PST_LEG_P, i, 0, t->a, 2, 2, 0.0,
                         spec + 2 * pst_spec_block(&t->spec, i, 0), 2);
        pst_leg_analysis(&t->leg, t->leg.work, PST_LEG_P, i, 1, t->b, 2, 2, 0.0,
                         spec + 2 * pst_spec_block(&t->spec, i, 1), 2);
    }
}

void pst_sht_synthesis(pst_sht *t, const double *spec, double *grid)
{
    for (int i = 0; i < t->spec.nm; i++) {
        int m = t->spec.m[i];
        pst_leg_synth(&t->leg, t->leg.work, PST_LEG_P, i, 0, spec + 2 * pst_spec_block(&t->spec, i, 0), 2, 2, t->a, 2);
        pst_leg_synth(&t->leg, t->leg.work, PST_LEG_P, i, 1, spec + 2 * pst_spec_block(&t->spec, i, 1), 2, 2, t->b, 2);
        for (int p = 0; p < t->npairs; p++) {
            double *n = line(t, 0, p)[m], *s = line(t, 0, t->grid->nlat - 1 - p)[m];
            for (int r = 0; r < 2; r++) {
                n[r] = t->a[2 * p + r] + t->b[2 * p + r];
                s[r] = t->a[2 * p + r] - t->b[2 * p + r];
            }
        }
    }
    inverse_fft(t, 0, grid);
}

/* ζ_n = Σ w/(a(1−μ²)) [im V_m P̄ + U_m H],  δ_n = Σ w/(a(1−μ²)) [im U_m P̄ − V_m H]
 * (∂/∂μ moved onto P̄ by integration by parts; U, V vanish at the poles). */
void pst_sht_vordiv(pst_sht *t, const double *U, const double *V, double *zeta, double *div)
{
    forward_fft(t, 0, U);
    forward_fft(t, 1, V);
    double *o = pst_malloc(4 * (size_t)(t->grid->M + 1) * sizeof *o);
    for (int i = 0; i < t->spec.nm; i++) {
        int m = t->spec.m[i];
        for (int p = 0; p < t->npairs; p++) {
            double c = t->w[p] / (t->grid->nlon * PST_EARTH_RADIUS_M * t->coslat[p] * t->coslat[p]);
            double pk[2][4], hk[2][4];
            for (int h = 0; h < 2; h++) {
                int lat = h ? t->grid->nlat - 1 - p : p;
                const double *u = line(t, 0, lat)[m], *v = line(t, 1, lat)[m];
                double pv[4] = {-m * v[1], m * v[0], -m * u[1], m * u[0]}, hv[4] = {u[0], u[1], -v[0], -v[1]};
                memcpy(pk[h], pv, sizeof pv);
                memcpy(hk[h], hv, sizeof hv);
            }
            for (int r = 0; r < 4; r++) {
                t->a[4 * p + r] = c * (pk[0][r] + pk[1][r]);
                t->b[4 * p + r] = c * (pk[0][r] - pk[1][r]);
                t->x[4 * p + r] = c * (hk[0][r] + hk[1][r]);
                t->y[4 * p + r] = c * (hk[0][r] - hk[1][r]);
            }
        }
        for (int par = 0; par < 2; par++) {
            pst_leg_analysis(&t->leg, t->leg.work, PST_LEG_P, i, par, par ? t->b : t->a, 4, 4, 0.0, o, 4);
            pst_leg_analysis(&t->leg, t->leg.work, PST_LEG_H, i, par, par ? t->x : t->y, 4, 4, 1.0, o, 4);
            size_t base = pst_spec_block(&t->spec, i, par);
            for (int k = 0; k < t->spec.nk[par][i]; k++) {
                memcpy(zeta + 2 * (base + k), o + 4 * k, 2 * sizeof *o);
                memcpy(div + 2 * (base + k), o + 4 * k + 2, 2 * sizeof *o);
            }
        }
    }
    free(o);
}

void pst_sht_wind(pst_sht *t, const double *zeta, const double *div, double *U, double *V)
{
    double *s = pst_malloc(4 * (size_t)(t->grid->M + 1) * sizeof *s);
    for (int i = 0; i < t->spec.nm; i++) {
        int m = t->spec.m[i];
        double *x[2] = {t->a, t->b}, *y[2] = {t->x, t->y};
        for (int par = 0; par < 2; par++) {
            size_t base = pst_spec_block(&t->spec, i, par);
            for (int k = 0; k < t->spec.nk[par][i]; k++) {
                double f = pst_inv_laplace_a(m + par + 2 * k, PST_EARTH_RADIUS_M);
                for (int r = 0; r < 2; r++) {
                    s[4 * k + r] = f * zeta[2 * (base + k) + r];
                    s[4 * k + 2 + r] = f * div[2 * (base + k) + r];
                }
            }
            pst_leg_synth(&t->leg, t->leg.work, PST_LEG_P, i, par, s, 4, 4, x[par], 4);
            pst_leg_synth(&t->leg, t->leg.work, PST_LEG_H, i, par, s, 4, 4, y[par], 4);
        }
        for (int p = 0; p < t->npairs; p++) {
            for (int h = 0; h < 2; h++) {
                int lat = h ? t->grid->nlat - 1 - p : p;
                double sg = h ? -1.0 : 1.0, xs[4], ys[4];
                for (int r = 0; r < 4; r++) {
                    xs[r] = x[0][4 * p + r] + sg * x[1][4 * p + r];
                    ys[r] = sg * y[0][4 * p + r] + y[1][4 * p + r];
                }
                pst_wind_from_sums(m, xs, xs + 2, ys, ys + 2, line(t, 0, lat)[m], line(t, 1, lat)[m]);
            }
        }
    }
    free(s);
    inverse_fft(t, 0, U);
    inverse_fft(t, 1, V);
}
