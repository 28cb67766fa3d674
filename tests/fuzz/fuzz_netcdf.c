/* Structural NetCDF fuzzer for --reference: seeded files in the layout `--write-fields` writes,
 * with dimensions, variable types and shapes, and attribute types, lengths and values changed
 * (byte-level mutation mostly exercises libnetcdf and HDF5, which are not ours).  Every file
 * must be read or refused with a message naming it; under the sanitizer build, without a memory
 * error.  fuzz_netcdf [CASES [SEED]]; the seed is printed for replay. */
#include "model/fields_io.h"

#include <math.h>
#include <mpi.h>
#include <netcdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng;
static uint64_t next(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1DULL;
}
static bool chance(int percent) { return (int)(next() % 100) < percent; }

enum { M = 3, NCOEF = (M + 1) * (M + 2) / 2 };
static const char *const att_names[] = {"case", "trunc", "alpha", "time_s", "phibar"};
static const double att_values[] = {2, M, 0, 3600, 29400};
static const char *const var_names[] = {"coef_m", "coef_n", "zeta_re", "zeta_im", "div_re", "div_im", "phi_re", "phi_im"};
enum { NATT = 5, NVAR = 8 };
static const double odd_values[] = {NAN, INFINITY, -INFINITY, 1e300, -1, 0, 2.5, 4096, 2147483648.0, -2147483649.0};
static const nc_type types[] = {NC_BYTE, NC_CHAR, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE, NC_INT64, NC_STRING};

#define TRY(call)                                                                                 \
    do {                                                                                          \
        if ((call) != NC_NOERR) goto done;                                                        \
    } while (0)

/* Write one mutated file; returns how many mutations it carries (0: the file is the valid one). */
static int write_case(const char *path, int intensity)
{
    int mutations = 0, ncid = -1;
    bool nc4 = chance(30);
    if (nc_create(path, NC_CLOBBER | (nc4 ? NC_NETCDF4 : 0), &ncid) != NC_NOERR) return -1;
    size_t coef_len = NCOEF;
    if (chance(intensity)) coef_len = (size_t[]){0, 1, NCOEF - 1, NCOEF + 1, 100}[next() % 5], mutations++;
    int dcoef = -1, dlat = -1;
    bool coef_dim = !chance(intensity / 4);
    mutations += !coef_dim;
    if (coef_dim) TRY(nc_def_dim(ncid, "coef", coef_len ? coef_len : NC_UNLIMITED, &dcoef));
    TRY(nc_def_dim(ncid, "lat", 8, &dlat));
    for (int a = 0; a < NATT; a++) {
        if (chance(intensity / 4)) { /* left out */
            mutations++;
            continue;
        }
        double v[3] = {att_values[a], att_values[a], att_values[a]};
        size_t len = 1;
        nc_type type = a < 2 ? NC_INT : NC_DOUBLE;
        if (chance(intensity / 2)) v[0] = odd_values[next() % (sizeof odd_values / sizeof *odd_values)], mutations++;
        if (chance(intensity / 3)) len = 2 + next() % 2, mutations++;
        if (chance(intensity / 3)) type = types[next() % (nc4 ? 8 : 6)], mutations++;
        if (type == NC_CHAR) TRY(nc_put_att_text(ncid, NC_GLOBAL, att_names[a], 3, "2.5"));
        else if (type == NC_STRING) TRY(nc_put_att_string(ncid, NC_GLOBAL, att_names[a], 1, (const char *[]){"2"}));
        else TRY(nc_put_att_double(ncid, NC_GLOBAL, att_names[a], type, len, v));
    }
    int vars[NVAR];
    for (int k = 0; k < NVAR; k++) {
        vars[k] = -1;
        if (chance(intensity / 4)) { /* left out */
            mutations++;
            continue;
        }
        nc_type type = k < 2 ? NC_INT : NC_DOUBLE;
        if (chance(intensity / 3)) type = types[next() % (nc4 ? 8 : 6)], mutations++;
        int dims[2] = {dcoef, dlat}, ndims = 1;
        if (!coef_dim || chance(intensity / 3)) ndims = (int)(next() % 3), dims[0] = coef_dim && chance(50) ? dcoef : dlat,
                                                mutations++;
        TRY(nc_def_var(ncid, var_names[k], type, ndims, dims, &vars[k]));
    }
    TRY(nc_enddef(ncid));
    size_t n = coef_len ? coef_len : (size_t)(next() % 12);
    for (int k = 0; k < NVAR; k++) {
        if (vars[k] < 0) continue;
        int ndims;
        nc_type type;
        TRY(nc_inq_var(ncid, vars[k], NULL, &type, &ndims, NULL, NULL));
        if (type == NC_CHAR || type == NC_STRING || ndims != 1) continue; /* left at its fill value */
        double v[128];
        /* (m, n) in the order the writer uses, then the coefficients */
        for (size_t i = 0, m = 0, nn = 0; i < n && i < 128; i++) {
            v[i] = k == 0 ? (double)m : k == 1 ? (double)nn : (double)i / 7.0;
            if (++nn > M) nn = ++m;
        }
        if (chance(intensity / 2)) v[next() % (n ? n : 1)] = odd_values[next() % (sizeof odd_values / sizeof *odd_values)], mutations++;
        size_t start = 0, count = n < 128 ? n : 128;
        TRY(nc_put_vara_double(ncid, vars[k], &start, &count, v));
    }
done:
    nc_close(ncid);
    return mutations;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long cases = argc > 1 ? atol(argv[1]) : 1500;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261124;
    rng = seed ? seed : 1;
    char path[64];
    snprintf(path, sizeof path, "/tmp/pstswm-fuzz-netcdf-%d.nc", (int)getpid());
    long read_ok = 0, refused = 0, failures = 0;
    bool valid_read = false;
    for (long c = 0; c < cases; c++) {
        int mutations = write_case(path, c == 0 ? 0 : 10 + (int)(next() % 60));
        if (mutations < 0) continue;
        pst_reference r;
        char err[512] = "";
        int rc = pst_reference_read(path, &r, err, sizeof err);
        bool ok = rc == 0 ? r.M >= 1 && r.zeta && r.div && r.phi : !strncmp(err, path, strlen(path));
        if (rc == 0) read_ok++, valid_read |= mutations == 0, pst_reference_free(&r);
        else refused++;
        if (!ok || (mutations == 0 && rc != 0)) {
            failures++;
            fprintf(stderr, "FAIL seed %llu case %ld (%d mutations): rc %d '%s'\n", (unsigned long long)seed, c, mutations, rc,
                    err);
        }
    }
    unlink(path);
    printf("fuzz_netcdf: seed %llu, %ld files: %ld read, %ld refused, %ld failures\n", (unsigned long long)seed, cases,
           read_ok, refused, failures);
    MPI_Finalize();
    return failures || !valid_read || !refused ? 1 : 0;
}
