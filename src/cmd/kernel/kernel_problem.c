#include "cmd/kernel/kernel_problem.h"

#include "algo/partition.h"
#include "core/cli.h"

#include <stdio.h>
#include <string.h>

void kproblem_model(kproblem *k, int trunc, int levels, int fields)
{
    char unused[8]; /* the rule's own grid always fits its truncation */
    *k = (kproblem){.trunc = trunc, .levels = levels, .fields = fields};
    pst_spectral_grid_init(&k->grid, trunc, levels, 0, 0, unused, sizeof unused);
    k->nlat = k->grid.nlat;
    k->nlon = k->grid.nlon;
    snprintf(k->label, sizeof k->label, "T%dL%d", trunc, levels);
}

int kproblem_scaled(kproblem *k, const char *spec, int fields, char *err, size_t errlen)
{
    const char *p = spec;
    long long tt, ll;
    int t, l, px, py;
    char gerr[160];
    if (*p++ != 'T' || !pst_scan_count(&p, PST_SPECTRAL_GRID_MAX_TRUNC, &tt) || *p++ != 'L' ||
        !pst_scan_count(&p, 1000, &ll) || *p++ != '@' || tt < 1 || ll < 1 ||
        pst_parse_grid(p, &px, &py, gerr, sizeof gerr)) {
        snprintf(err, errlen, "'%s' is not a configuration like T42L16@8x8 (T in 1 ... %d, L in 1 ... 1000)", spec,
                 PST_SPECTRAL_GRID_MAX_TRUNC);
        return -1;
    }
    t = (int)tt;
    l = (int)ll;
    kproblem_model(k, t, l, fields);
    const char *why = kproblem_grid_check(k, px, py);
    if (why) {
        snprintf(err, errlen, "reference grid %dx%d: %s", px, py, why);
        return -1;
    }
    if (k->nlon % px || (k->nlat / 2) % py) {
        snprintf(err, errlen, "reference grid %dx%d must divide T%d's %d longitudes and %d latitude pairs evenly", px,
                 py, t, k->nlon, k->nlat / 2);
        return -1;
    }
    k->scaled = true;
    k->ref_trunc = t;
    k->ref_levels = l;
    k->ref_px = px;
    k->ref_py = py;
    k->ref_nlon = k->nlon;
    k->ref_nlat = k->nlat;
    snprintf(k->label, sizeof k->label, "T%dL%d@%dx%d", t, l, px, py);
    return 0;
}

const char *kproblem_grid_check(const kproblem *k, int px, int py)
{
    static char msg[200];
    return pst_spectral_grid_misfit(&k->grid, px, py, true, msg, sizeof msg);
}

int kp_fft_nlon(const kproblem *k, int px) { return k->scaled ? k->ref_nlon / k->ref_px * px : k->nlon; }

/* In scaled mode row y holds what row y mod ref_py holds in the reference (whose rows divide its
 * pairs evenly). */
void kp_pair_block(const kproblem *k, int py, int y, size_t *lo, size_t *n)
{
    if (k->scaled) pst_block((size_t)k->ref_nlat / 2, k->ref_py, y % k->ref_py, lo, n);
    else pst_block((size_t)k->nlat / 2, py, y, lo, n);
}

int kp_lats(const kproblem *k, int py, int y)
{
    size_t lo, n;
    kp_pair_block(k, py, y, &lo, &n);
    return 2 * (int)n;
}

int kp_fft_lines(const kproblem *k, int py, int y) { return kp_lats(k, py, y) * k->levels * k->fields; }

void kp_lon_block(const kproblem *k, int px, int x, size_t *lo, size_t *n)
{
    pst_block((size_t)kp_fft_nlon(k, px), px, x, lo, n);
}

/* In scaled mode column x holds what column x mod ref_px holds in the reference. */
int kp_wavenumbers(const kproblem *k, int px, int x, int *out)
{
    int cols = k->scaled ? k->ref_px : px, col = k->scaled ? x % k->ref_px : x;
    return pst_spectral_grid_wavenumbers(&k->grid, cols, col, out);
}

int kp_nm(const kproblem *k, int px, int x) { return kp_wavenumbers(k, px, x, NULL); }

long kp_ncoef(const kproblem *k, int px, int x)
{
    int cols = k->scaled ? k->ref_px : px, col = k->scaled ? x % k->ref_px : x;
    return pst_spectral_grid_coefficients(&k->grid, cols, col);
}

int kp_mmax(const kproblem *k, int px)
{
    int n = kp_fft_nlon(k, px), m = k->scaled ? (k->trunc + 1) * px / k->ref_px - 1 : k->trunc;
    return m < n / 2 ? m : n / 2 - 1;
}
