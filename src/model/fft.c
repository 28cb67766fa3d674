#include "model/fft.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

double *pst_fft_alloc_real(size_t n)
{
    double *p = pst_alloc_check(fftw_alloc_real(n ? n : 1), (n ? n : 1) * sizeof *p);
    memset(p, 0, (n ? n : 1) * sizeof *p);
    return p;
}

fftw_complex *pst_fft_alloc_complex(size_t n)
{
    fftw_complex *p = pst_alloc_check(fftw_alloc_complex(n ? n : 1), (n ? n : 1) * sizeof *p);
    memset(p, 0, (n ? n : 1) * sizeof *p);
    return p;
}

/* FFTW's planner and wisdom are the process's, so are these counts of what it was asked. */
static int plans_made, plans_from_wisdom;

void pst_fft_plan_counts(int *made, int *from_wisdom)
{
    *made = plans_made;
    *from_wisdom = plans_from_wisdom;
}

/* One plan: from wisdom alone when FFTW has it (counted), else planned with flags. */
static fftw_plan plan_lines(int nlon, int nlines, double *g, fftw_complex *c, bool r2c, unsigned flags)
{
    const int nc = nlon / 2 + 1;
    fftw_plan p = NULL;
    for (int pass = 0; pass < 2 && !p; pass++) {
        unsigned f = pass ? flags : flags | FFTW_WISDOM_ONLY;
        p = r2c ? fftw_plan_many_dft_r2c(1, &nlon, nlines, g, NULL, 1, nlon, c, NULL, 1, nc, f)
                : fftw_plan_many_dft_c2r(1, &nlon, nlines, c, NULL, 1, nc, g, NULL, 1, nlon, f);
        if (p && !pass) plans_from_wisdom++;
    }
    if (!p) pst_fatal(PST_EXIT_FAILED, "FFTW could not plan %d lines of %d points", nlines, nlon);
    plans_made++;
    return p;
}

void pst_fft_init(pst_fft *f, int nlon, int nlines, unsigned flags)
{
    f->nlon = nlon;
    f->nc = nlon / 2 + 1;
    f->nlines = nlines;
    /* Plan on scratch arrays: planning with MEASURE/PATIENT overwrites them. */
    double *g = pst_fft_alloc_real((size_t)nlon * nlines);
    fftw_complex *c = pst_fft_alloc_complex((size_t)f->nc * nlines);
    f->forward = plan_lines(nlon, nlines, g, c, true, flags);
    f->inverse = plan_lines(nlon, nlines, g, c, false, flags);
    fftw_free(g);
    fftw_free(c);
}

const char *pst_fft_wisdom_load(const char *path, bool *loaded, char *err, size_t len)
{
    struct stat st;
    *loaded = false;
    if (stat(path, &st) != 0) return NULL; /* a first run: the file is written after planning */
    if (!S_ISREG(st.st_mode)) return snprintf(err, len, "'%s' is not a regular file", path), err;
    if (!fftw_import_wisdom_from_filename(path))
        return snprintf(err, len, "'%s' is not FFTW wisdom that %s can read", path, fftw_version), err;
    *loaded = true;
    return NULL;
}

const char *pst_fft_wisdom_save(const char *path, char *err, size_t len)
{
    char partial[4096];
    if (snprintf(partial, sizeof partial, "%s.partial", path) >= (int)sizeof partial)
        return snprintf(err, len, "the path '%s' is too long", path), err;
    if (!fftw_export_wisdom_to_filename(partial) || rename(partial, path) != 0) {
        remove(partial);
        return snprintf(err, len, "cannot write '%s'", path), err;
    }
    return NULL;
}

void pst_fft_init_agreed(pst_fft *f, int nlon, int nlines, unsigned flags, MPI_Comm comm)
{
    int rank = 0, size = 1;
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
    }
    if (rank == 0 && nlines > 0) pst_fft_init(f, nlon, nlines, flags);
    if (size == 1) return;
    char *wisdom = rank == 0 ? fftw_export_wisdom_to_string() : NULL;
    if (rank == 0 && !wisdom) pst_fatal(PST_EXIT_FAILED, "FFTW could not export its wisdom");
    long bytes = rank == 0 ? (long)strlen(wisdom) + 1 : 0;
    MPI_Bcast(&bytes, 1, MPI_LONG, 0, comm);
    if (bytes > INT_MAX) pst_fatal(PST_EXIT_FAILED, "FFTW wisdom of %ld bytes is too large to share", bytes);
    if (rank != 0) wisdom = pst_malloc((size_t)bytes);
    MPI_Bcast(wisdom, (int)bytes, MPI_CHAR, 0, comm);
    if (rank != 0) {
        if (!fftw_import_wisdom_from_string(wisdom)) pst_fatal(PST_EXIT_FAILED, "FFTW refused rank 0's wisdom");
        if (nlines > 0) pst_fft_init(f, nlon, nlines, flags);
        free(wisdom);
    } else {
        fftw_free(wisdom);
    }
}

void pst_fft_free(pst_fft *f)
{
    fftw_destroy_plan(f->forward);
    fftw_destroy_plan(f->inverse);
}

void pst_fft_forward(const pst_fft *f, double *grid, fftw_complex *fourier) { fftw_execute_dft_r2c(f->forward, grid, fourier); }

void pst_fft_inverse(const pst_fft *f, fftw_complex *fourier, double *grid) { fftw_execute_dft_c2r(f->inverse, fourier, grid); }

int pst_fft_flags(const char *name, unsigned *flags)
{
    static const struct { const char *name; unsigned flags; } table[] = {
        {"estimate", FFTW_ESTIMATE}, {"measure", FFTW_MEASURE}, {"patient", FFTW_PATIENT}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (!strcmp(name, table[i].name)) { *flags = table[i].flags; return 0; }
    return -1;
}
