/* The reference-file reader (model/fields_io.c) against structurally broken NetCDF files: each
 * mutation of a valid T2 reference must be refused with a message, never read out of bounds. */
#include "check.h"
#include "model/fields_io.h"
#include "model/transforms/spectral.h"

#include <netcdf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { M = 2 };
static const char *const vars[] = {"coef_m", "coef_n", "zeta_re", "zeta_im", "div_re", "div_im", "phi_re", "phi_im"};

typedef enum mutation { NONE, LONG_DIM, TWO_D, HUGE_TRUNC, MISSING_VAR, CHAR_VAR, BAD_MN } mutation;

/* A T2 reference file, with one structural mutation applied to coef_m (or the header). */
static void write_reference(const char *path, mutation mut)
{
    int ncid, dcoef, dlong, dims[2], v[8];
    size_t ncoef = pst_spec_count(M);
    nc_create(path, NC_CLOBBER, &ncid);
    int trunc = mut == HUGE_TRUNC ? 100000 : M, tcase = 2;
    double zero = 0, phibar = 29400;
    nc_put_att_int(ncid, NC_GLOBAL, "case", NC_INT, 1, &tcase);
    nc_put_att_int(ncid, NC_GLOBAL, "trunc", NC_INT, 1, &trunc);
    nc_put_att_double(ncid, NC_GLOBAL, "alpha", NC_DOUBLE, 1, &zero);
    nc_put_att_double(ncid, NC_GLOBAL, "time_s", NC_DOUBLE, 1, &zero);
    nc_put_att_double(ncid, NC_GLOBAL, "phibar", NC_DOUBLE, 1, &phibar);
    nc_def_dim(ncid, "coef", ncoef, &dcoef);
    nc_def_dim(ncid, "long", 1000000, &dlong);
    for (int i = 0; i < 8; i++) {
        if (i == 0 && mut == MISSING_VAR) continue;
        dims[0] = i == 0 && mut == LONG_DIM ? dlong : dcoef;
        dims[1] = dcoef;
        nc_type type = i < 2 ? NC_INT : NC_DOUBLE;
        if (i == 0 && mut == CHAR_VAR) type = NC_CHAR;
        nc_def_var(ncid, vars[i], type, i == 0 && mut == TWO_D ? 2 : 1, dims, &v[i]);
    }
    nc_enddef(ncid);
    int m[6] = {0, 0, 0, 1, 1, 2}, n[6] = {0, 1, 2, 1, 2, 2};
    if (mut == BAD_MN) n[5] = 7;
    if (mut == NONE || mut == HUGE_TRUNC || mut == BAD_MN) nc_put_var_int(ncid, v[0], m);
    nc_put_var_int(ncid, v[1], n);
    double x[6] = {1, 2, 3, 4, 5, 6};
    for (int i = 2; i < 8; i++) nc_put_var_double(ncid, v[i], x);
    nc_close(ncid);
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    char path[64], err[512];
    snprintf(path, sizeof path, "/tmp/pst-test-fields-%d.nc", (int)getpid());
    static const struct { mutation mut; const char *message; } cases[] = {
        {LONG_DIM, "variable 'coef_m' must have the single dimension 'coef'"},
        {TWO_D, "variable 'coef_m' must have the single dimension 'coef' (it has 2 dimensions)"},
        {HUGE_TRUNC, "attribute 'trunc' = 100000 is not a whole number in [1, 21843]"},
        {MISSING_VAR, "variable 'coef_m':"},
        {CHAR_VAR, "variable 'coef_m' must be numeric"},
        {BAD_MN, "outside T2"},
    };
    pst_reference r;
    write_reference(path, NONE);
    CHECK(pst_reference_read(path, &r, err, sizeof err) == 0 && r.M == M && r.zeta != NULL);
    pst_reference_free(&r);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        write_reference(path, cases[i].mut);
        err[0] = 0;
        int rc = pst_reference_read(path, &r, err, sizeof err);
        CHECK(rc == -1);
        CHECK(strstr(err, cases[i].message) != NULL);
        if (!strstr(err, cases[i].message)) fprintf(stderr, "  case %zu: got '%s'\n", i, err);
        CHECK(r.zeta == NULL);
    }
    unlink(path);
    CHECK_MAIN_END();
}
