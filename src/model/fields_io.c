#include "model/fields_io.h"

#include "model/setup/constants.h"
#include "model/setup/spectral_grid.h"
#include "core/alloc.h"

#include <errno.h>
#include <math.h>
#include <netcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NC_TRY(call)                                                                      \
    do {                                                                                  \
        int st_ = (call);                                                                 \
        if (st_ != NC_NOERR) {                                                            \
            snprintf(err, errlen, "%s: %s", path, nc_strerror(st_));                     \
            goto fail;                                                                    \
        }                                                                                 \
    } while (0)

static const char *const coef_names[3][2] = {{"zeta_re", "zeta_im"}, {"div_re", "div_im"}, {"phi_re", "phi_im"}};

/* The variables of a fields file. */
typedef struct field_vars { int lat, lon, weight, grid[5], coef_m, coef_n, coef[3][2]; } field_vars;

/* Dimensions, variables and attributes, then out of define mode. */
static int define_fields(int ncid, const pst_model *m, double t_s, long steps, field_vars *v, const char *path,
                         char *err, size_t errlen)
{
    const pst_model_config *c = &m->cfg;
    int dlat, dlon, dcoef;
    NC_TRY(nc_def_dim(ncid, "lat", (size_t)c->grid.nlat, &dlat));
    NC_TRY(nc_def_dim(ncid, "lon", (size_t)c->grid.nlon, &dlon));
    NC_TRY(nc_def_dim(ncid, "coef", m->sht.spec.ncoef, &dcoef));
    int d2[2] = {dlat, dlon};
    NC_TRY(nc_def_var(ncid, "lat", NC_DOUBLE, 1, &dlat, &v->lat));
    NC_TRY(nc_put_att_text(ncid, v->lat, "units", 13, "degrees_north"));
    NC_TRY(nc_def_var(ncid, "lon", NC_DOUBLE, 1, &dlon, &v->lon));
    NC_TRY(nc_put_att_text(ncid, v->lon, "units", 12, "degrees_east"));
    NC_TRY(nc_def_var(ncid, "gauss_weight", NC_DOUBLE, 1, &dlat, &v->weight));
    static const char *const gname[5] = {"h", "hs", "u", "v", "zeta"}, *const gunit[5] = {"m", "m", "m s-1", "m s-1",
                                                                                          "s-1"};
    static const char *const glong[5] = {"free-surface height", "surface (mountain) height", "eastward wind",
                                         "northward wind", "relative vorticity"};
    for (int k = 0; k < 5; k++) {
        NC_TRY(nc_def_var(ncid, gname[k], NC_DOUBLE, 2, d2, &v->grid[k]));
        NC_TRY(nc_put_att_text(ncid, v->grid[k], "units", strlen(gunit[k]), gunit[k]));
        NC_TRY(nc_put_att_text(ncid, v->grid[k], "long_name", strlen(glong[k]), glong[k]));
    }
    NC_TRY(nc_def_var(ncid, "coef_m", NC_INT, 1, &dcoef, &v->coef_m));
    NC_TRY(nc_def_var(ncid, "coef_n", NC_INT, 1, &dcoef, &v->coef_n));
    for (int f = 0; f < 3; f++)
        for (int r = 0; r < 2; r++) NC_TRY(nc_def_var(ncid, coef_names[f][r], NC_DOUBLE, 1, &dcoef, &v->coef[f][r]));
    const char *title = "pstswm model fields (level 0)";
    NC_TRY(nc_put_att_text(ncid, NC_GLOBAL, "title", strlen(title), title));
    int ia[6] = {c->test_case, c->grid.M, c->grid.nlat, c->grid.nlon, c->grid.levels, 0};
    static const char *const iname[6] = {"case", "trunc", "nlat", "nlon", "levels", "level"};
    for (int k = 0; k < 6; k++) NC_TRY(nc_put_att_int(ncid, NC_GLOBAL, iname[k], NC_INT, 1, &ia[k]));
    double da[6] = {c->alpha, t_s, t_s / PST_DAY_S, c->dt_s, (double)steps, m->phibar};
    static const char *const dname[6] = {"alpha", "time_s", "days", "dt_s", "steps", "phibar"};
    for (int k = 0; k < 6; k++) NC_TRY(nc_put_att_double(ncid, NC_GLOBAL, dname[k], NC_DOUBLE, 1, &da[k]));
    NC_TRY(nc_enddef(ncid));
    return 0;
fail:
    return -1;
}

/* The values: coordinates and weights, the level-0 grids and coefficients the caller gathered
 * (pst_model_level_grids), vorticity relative (the planetary part taken off in place). */
static int put_fields(int ncid, pst_model *m, const field_vars *v, const char *path, char *err, size_t errlen)
{
    size_t nlat = (size_t)m->cfg.grid.nlat, nlon = (size_t)m->cfg.grid.nlon;
    size_t ncoef = m->sht.spec.ncoef, npts = nlat * nlon;
    double *buf = pst_malloc((npts > ncoef ? npts : ncoef) * sizeof *buf);
    int *ibuf = pst_malloc(ncoef * sizeof *ibuf);
    for (size_t j = 0; j < nlat; j++) buf[j] = m->lat[j] * 180.0 / PST_PI;
    NC_TRY(nc_put_var_double(ncid, v->lat, buf));
    for (size_t i = 0; i < nlon; i++) buf[i] = m->lon[i] * 180.0 / PST_PI;
    NC_TRY(nc_put_var_double(ncid, v->lon, buf));
    NC_TRY(nc_put_var_double(ncid, v->weight, m->sht.w));
    for (size_t k = 0; k < npts; k++) m->grid[4][k] = m->grid[3][k] - m->f[k];
    const double *grids[5] = {m->grid[0], m->hs, m->grid[1], m->grid[2], m->grid[4]};
    for (int k = 0; k < 5; k++) NC_TRY(nc_put_var_double(ncid, v->grid[k], grids[k]));

    for (size_t k = 0; k < 2 * ncoef; k++) m->spec[0][k] -= m->f_spec[k];
    const pst_spec_layout *s = &m->sht.spec;
    for (int i = 0; i < s->nm; i++)
        for (int n = s->m[i]; n <= s->M; n++) ibuf[pst_spec_index(s, i, n)] = s->m[i];
    NC_TRY(nc_put_var_int(ncid, v->coef_m, ibuf));
    for (int i = 0; i < s->nm; i++)
        for (int n = s->m[i]; n <= s->M; n++) ibuf[pst_spec_index(s, i, n)] = n;
    NC_TRY(nc_put_var_int(ncid, v->coef_n, ibuf));
    for (int f = 0; f < 3; f++)
        for (int r = 0; r < 2; r++) {
            for (size_t k = 0; k < ncoef; k++) buf[k] = m->spec[f][2 * k + r];
            NC_TRY(nc_put_var_double(ncid, v->coef[f][r], buf));
        }
    free(buf);
    free(ibuf);
    return 0;
fail:
    free(buf);
    free(ibuf);
    return -1;
}

int pst_fields_write(const char *path, pst_model *m, double t_s, long steps, char *err, size_t errlen)
{
    int ncid = -1;
    field_vars v;
    /* Written as PATH.partial and renamed when complete: PATH only ever holds a whole file. */
    char partial[4096];
    if ((size_t)snprintf(partial, sizeof partial, "%s.partial", path) >= sizeof partial) {
        snprintf(err, errlen, "%s: path too long", path);
        goto fail;
    }
    NC_TRY(nc_create(partial, NC_CLOBBER, &ncid));
    if (define_fields(ncid, m, t_s, steps, &v, path, err, errlen) || put_fields(ncid, m, &v, path, err, errlen))
        goto fail;
    int closed = nc_close(ncid);
    ncid = -1;
    NC_TRY(closed);
    if (rename(partial, path)) {
        snprintf(err, errlen, "%s: cannot rename %s into place: %s", path, partial, strerror(errno));
        goto fail;
    }
    return 0;
fail:
    if (ncid >= 0) nc_close(ncid);
    if (access(partial, F_OK) == 0) {
        size_t used = strlen(err);
        snprintf(err + used, errlen - used, "; what was written is kept in %s", partial);
    }
    return -1;
}

/* The variable `name` must be one-dimensional over `dim` (nc_get_var reads a whole variable,
 * whatever its shape, so a larger one would overrun the buffer sized for dim). */
static int coef_var(int ncid, const char *path, const char *name, int dim, int *varid, char *err, size_t errlen)
{
    int ndims, dims[NC_MAX_VAR_DIMS];
    nc_type type;
    int st = nc_inq_varid(ncid, name, varid);
    if (st == NC_NOERR) st = nc_inq_var(ncid, *varid, NULL, &type, &ndims, dims, NULL);
    if (st != NC_NOERR) {
        snprintf(err, errlen, "%s: variable '%s': %s", path, name, nc_strerror(st));
        return -1;
    }
    if (ndims != 1 || dims[0] != dim) {
        snprintf(err, errlen, "%s: variable '%s' must have the single dimension 'coef' (it has %d dimension%s)", path,
                 name, ndims, ndims == 1 ? ", another one" : "s");
        return -1;
    }
    if (type == NC_CHAR || type == NC_STRING) {
        snprintf(err, errlen, "%s: variable '%s' must be numeric", path, name);
        return -1;
    }
    return 0;
}

/* A global attribute holding one finite number (nc_get_att_* writes every value of the attribute,
 * so a longer one would overrun *out). */
static int scalar_att(int ncid, const char *path, const char *name, double *out, char *err, size_t errlen)
{
    nc_type type;
    size_t len;
    int st = nc_inq_att(ncid, NC_GLOBAL, name, &type, &len);
    if (st == NC_NOERR && (len != 1 || type == NC_CHAR || type == NC_STRING)) {
        snprintf(err, errlen, "%s: attribute '%s' must be one number (it is %zu value%s of type %d)", path, name, len,
                 len == 1 ? "" : "s", (int)type);
        return -1;
    }
    if (st == NC_NOERR) st = nc_get_att_double(ncid, NC_GLOBAL, name, out);
    if (st != NC_NOERR) {
        snprintf(err, errlen, "%s: attribute '%s': %s", path, name, nc_strerror(st));
        return -1;
    }
    if (!isfinite(*out)) {
        snprintf(err, errlen, "%s: attribute '%s' is not finite", path, name);
        return -1;
    }
    return 0;
}

/* An attribute that must be a whole number within [lo, hi]. */
static int int_att(int ncid, const char *path, const char *name, int lo, int hi, int *out, char *err, size_t errlen)
{
    double v;
    if (scalar_att(ncid, path, name, &v, err, errlen)) return -1;
    if (v != floor(v) || v < lo || v > hi) {
        snprintf(err, errlen, "%s: attribute '%s' = %g is not a whole number in [%d, %d]", path, name, v, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int pst_reference_read(const char *path, pst_reference *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    int ncid = -1, dcoef, vm, vn, v;
    size_t ncoef;
    int *cm = NULL, *cn = NULL;
    double *buf = NULL;
    NC_TRY(nc_open(path, NC_NOWRITE, &ncid));
    if (int_att(ncid, path, "case", 1, 6, &r->test_case, err, errlen) ||
        int_att(ncid, path, "trunc", 1, PST_SPECTRAL_GRID_MAX_TRUNC, &r->M, err, errlen) ||
        scalar_att(ncid, path, "alpha", &r->alpha, err, errlen) ||
        scalar_att(ncid, path, "time_s", &r->time_s, err, errlen) ||
        scalar_att(ncid, path, "phibar", &r->phibar, err, errlen))
        goto fail;
    NC_TRY(nc_inq_dimid(ncid, "coef", &dcoef));
    NC_TRY(nc_inq_dimlen(ncid, dcoef, &ncoef));
    /* Bound M before counting its coefficients (the count is quadratic in M). */
    if (r->M < 1 || r->M > PST_SPECTRAL_GRID_MAX_TRUNC || ncoef != pst_spec_count(r->M)) {
        snprintf(err, errlen, "%s: %zu coefficients do not match truncation T%d", path, ncoef, r->M);
        goto fail;
    }
    cm = pst_malloc(ncoef * sizeof *cm);
    cn = pst_malloc(ncoef * sizeof *cn);
    buf = pst_malloc(ncoef * sizeof *buf);
    if (coef_var(ncid, path, "coef_m", dcoef, &vm, err, errlen) ||
        coef_var(ncid, path, "coef_n", dcoef, &vn, err, errlen))
        goto fail;
    NC_TRY(nc_get_var_int(ncid, vm, cm));
    NC_TRY(nc_get_var_int(ncid, vn, cn));
    for (size_t k = 0; k < ncoef; k++)
        if (cm[k] < 0 || cn[k] < cm[k] || cn[k] > r->M) {
            snprintf(err, errlen, "%s: coefficient %zu has (m, n) = (%d, %d), outside T%d", path, k, cm[k], cn[k],
                     r->M);
            goto fail;
        }
    double **dst[3] = {&r->zeta, &r->div, &r->phi};
    for (int f = 0; f < 3; f++) {
        *dst[f] = pst_calloc(2 * ncoef, sizeof(double));
        for (int q = 0; q < 2; q++) {
            if (coef_var(ncid, path, coef_names[f][q], dcoef, &v, err, errlen)) goto fail;
            NC_TRY(nc_get_var_double(ncid, v, buf));
            for (size_t k = 0; k < ncoef; k++) (*dst[f])[2 * pst_spec_full_index(r->M, cm[k], cn[k]) + q] = buf[k];
        }
    }
    NC_TRY(nc_close(ncid));
    free(cm);
    free(cn);
    free(buf);
    return 0;
fail:
    if (ncid >= 0) nc_close(ncid);
    free(cm);
    free(cn);
    free(buf);
    pst_reference_free(r);
    return -1;
}

void pst_reference_free(pst_reference *r)
{
    free(r->zeta);
    free(r->div);
    free(r->phi);
    r->zeta = r->div = r->phi = NULL;
}
