#include "model/setup/spectral_grid.h"

#include "algo/partition.h"

#include <stdio.h>

static bool smooth_235(int n)
{
    for (int p = 2; p <= 5; p++)
        while (n % p == 0) n /= p;
    return n == 1;
}

/* The rule's grid of truncation M. */
static int rule_nlat(int M) { return 2 * ((3 * M + 1 + 3) / 4); }

static int rule_nlon(int M)
{
    int nlon = 3 * M + 1;
    while (!smooth_235(nlon) || nlon % 2) nlon++;
    return nlon;
}

const char *pst_spectral_grid_init(pst_spectral_grid *g, int M, int levels, int nlat, int nlon, char *err, size_t len)
{
    int nlat_min = rule_nlat(M);
    if (!nlat) nlat = nlat_min;
    if (!nlon) nlon = rule_nlon(M);
    *g = (pst_spectral_grid){.M = M, .nlat = nlat, .nlon = nlon, .levels = levels};
    if (nlat < nlat_min || nlat % 2)
        return snprintf(err, len, "--nlat: %d latitudes are too few for T%d (need an even number >= %d = (3M+1)/2 for "
                        "alias-free quadrature)", nlat, M, nlat_min), err;
    if (nlon < 3 * M + 1 || nlon % 2 || !smooth_235(nlon))
        return snprintf(err, len, "--nlon: %d longitudes do not fit T%d (need an even number >= %d = 3M+1 with prime "
                        "factors 2, 3, 5 only)", nlon, M, 3 * M + 1), err;
    return NULL;
}

const char *pst_spectral_grid_misfit(const pst_spectral_grid *g, int PX, int PY, bool by_truncation, char *msg,
                                     size_t len)
{
    int npairs = g->nlat / 2;
    if (PY > npairs) {
        if (by_truncation)
            snprintf(msg, len,
                     "%d processor rows need at least %d north/south latitude pairs; T%d has %d (%d latitudes)", PY, PY,
                     g->M, npairs, g->nlat);
        else
            snprintf(msg, len, "%d processor rows need at least %d north/south latitude pairs; %d latitudes have %d",
                     PY, PY, g->nlat, npairs);
    } else if (PX > g->M + 1)
        snprintf(msg, len, "%d processor columns need at least %d wavenumbers; T%d has %d", PX, PX, g->M, g->M + 1);
    else if (PX > g->nlon) {
        if (by_truncation)
            snprintf(msg, len, "%d processor columns need at least %d longitudes; T%d has %d", PX, PX, g->M, g->nlon);
        else
            snprintf(msg, len, "%d processor columns need at least %d longitudes; the grid has %d", PX, PX, g->nlon);
    } else
        return NULL;
    return msg;
}

static int bitrev(int x, int bits)
{
    int r = 0;
    for (int b = 0; b < bits; b++) r |= ((x >> b) & 1) << (bits - 1 - b);
    return r;
}

static int first_wavenumber(int PX, int px)
{
    int bits = 0;
    if (!pst_is_pow2(PX)) return px;
    pst_pow2_floor(PX, &bits);
    return bitrev(px, bits);
}

int pst_spectral_grid_wavenumbers(const pst_spectral_grid *g, int PX, int px, int *out)
{
    int n = 0;
    for (int m = first_wavenumber(PX, px); m <= g->M; m += PX, n++)
        if (out) out[n] = m;
    return n;
}

long pst_spectral_grid_coefficients(const pst_spectral_grid *g, int PX, int px)
{
    long n = 0;
    for (int m = first_wavenumber(PX, px); m <= g->M; m += PX) n += g->M + 1 - m;
    return n;
}
