#include "bench/kernel_problem.h"

#include "algo/partition.h"
#include "core/cli.h"

#include <stdio.h>
#include <string.h>

static int nlon_of(int trunc)
{
    int n = 1;
    while (n < 3 * trunc + 1) n *= 2;
    return n;
}

void kproblem_model(kproblem *k, int trunc, int levels, int fields)
{
    *k = (kproblem){.trunc = trunc, .levels = levels, .fields = fields, .nlon = nlon_of(trunc)};
    k->nlat = k->nlon / 2;
    snprintf(k->label, sizeof k->label, "T%dL%d", trunc, levels);
}

int kproblem_scaled(kproblem *k, const char *spec, int fields, char *err, size_t errlen)
{
    const char *p = spec;
    long long tt, ll;
    int t, l, px, py;
    char gerr[160];
    if (*p++ != 'T' || !pst_scan_count(&p, 1000, &tt) || *p++ != 'L' || !pst_scan_count(&p, 1000, &ll) || *p++ != '@' ||
        tt < 1 || ll < 1 || pst_parse_grid(p, &px, &py, gerr, sizeof gerr)) {
        snprintf(err, errlen, "'%s' is not a configuration like T42L16@8x8 (T and L in 1 ... 1000)", spec);
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
        snprintf(err, errlen, "reference grid %dx%d must divide T%d's %d longitudes and %d latitude pairs evenly", px, py, t,
                 k->nlon, k->nlat / 2);
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
    if (px > k->trunc + 1)
        snprintf(msg, sizeof msg, "%d processor columns need at least %d wavenumbers; T%d has %d", px, px, k->trunc, k->trunc + 1);
    else if (px > k->nlon)
        snprintf(msg, sizeof msg, "%d processor columns need at least %d longitudes; T%d has %d", px, px, k->trunc, k->nlon);
    else if (py > k->nlat / 2)
        snprintf(msg, sizeof msg, "%d processor rows need at least %d north/south latitude pairs; T%d has %d (%d latitudes)",
                 py, py, k->trunc, k->nlat / 2, k->nlat);
    else return NULL;
    return msg;
}

int kp_fft_nlon(const kproblem *k, int px) { return k->scaled ? k->ref_nlon / k->ref_px * px : k->nlon; }

int kp_lats(const kproblem *k, int py, int y)
{
    if (k->scaled) return 2 * (k->ref_nlat / 2 / k->ref_py);
    size_t lo, n;
    pst_block((size_t)k->nlat / 2, py, y, &lo, &n);
    return 2 * (int)n;
}

int kp_fft_lines(const kproblem *k, int py, int y) { return kp_lats(k, py, y) * k->levels * k->fields; }

void kp_lon_block(const kproblem *k, int px, int x, size_t *lo, size_t *n) { pst_block((size_t)kp_fft_nlon(k, px), px, x, lo, n); }

/* Serpentine owner of wavenumber m over px columns. */
static int owner(int m, int px)
{
    int round = m / px, pos = m % px;
    return round % 2 ? px - 1 - pos : pos;
}

/* In scaled mode column x holds what column x mod ref_px holds in the reference. */
int kp_nm(const kproblem *k, int px, int x)
{
    int cols = k->scaled ? k->ref_px : px, col = k->scaled ? x % k->ref_px : x, n = 0;
    for (int m = 0; m <= k->trunc; m++) n += owner(m, cols) == col;
    return n;
}

long kp_ncoef(const kproblem *k, int px, int x)
{
    int cols = k->scaled ? k->ref_px : px, col = k->scaled ? x % k->ref_px : x;
    long n = 0;
    for (int m = 0; m <= k->trunc; m++)
        if (owner(m, cols) == col) n += k->trunc + 1 - m;
    return n;
}

int kp_mmax(const kproblem *k, int px)
{
    int n = kp_fft_nlon(k, px), m = k->scaled ? (k->trunc + 1) * px / k->ref_px - 1 : k->trunc;
    return m < n / 2 ? m : n / 2 - 1;
}
