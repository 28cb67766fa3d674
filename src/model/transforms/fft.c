#include "model/transforms/fft.h"
#include "core/alloc.h"

#include <stdio.h>
#include <string.h>

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

/* One batch of lines: forward r2c or inverse c2r on scratch arrays (planning with MEASURE or
 * PATIENT overwrites them). */
typedef struct lines_plan {
    int nlon, nlines;
    double *grid;
    fftw_complex *fourier;
    bool r2c;
} lines_plan;

static fftw_plan make_lines(void *arg, unsigned flags)
{
    lines_plan *l = arg;
    int nlon = l->nlon, nc = nlon / 2 + 1;
    return l->r2c ? fftw_plan_many_dft_r2c(1, &nlon, l->nlines, l->grid, NULL, 1, nlon, l->fourier, NULL, 1, nc, flags)
                  : fftw_plan_many_dft_c2r(1, &nlon, l->nlines, l->fourier, NULL, 1, nc, l->grid, NULL, 1, nlon, flags);
}

void pst_fft_init(pst_fft *f, pst_fft_planner *planner, pst_fft_use use, int nlon, int nlines)
{
    f->nlon = nlon;
    f->nc = nlon / 2 + 1;
    f->nlines = nlines;
    lines_plan l = {.nlon = nlon, .nlines = nlines, .grid = pst_fft_alloc_real((size_t)nlon * nlines),
                    .fourier = pst_fft_alloc_complex((size_t)f->nc * nlines), .r2c = true};
    char what[96];
    snprintf(what, sizeof what, "%d lines of %d points", nlines, nlon);
    f->forward = pst_fft_plan(planner, use, make_lines, &l, what);
    l.r2c = false;
    f->inverse = pst_fft_plan(planner, use, make_lines, &l, what);
    fftw_free(l.grid);
    fftw_free(l.fourier);
}

typedef struct agreed_plan {
    pst_fft *f;
    pst_fft_planner *planner;
    int nlon, nlines;
} agreed_plan;

static void plan_agreed(void *arg)
{
    agreed_plan *a = arg;
    if (a->nlines > 0) pst_fft_init(a->f, a->planner, PST_FFT_TIMED, a->nlon, a->nlines);
}

void pst_fft_init_agreed(pst_fft *f, pst_fft_planner *planner, int nlon, int nlines, MPI_Comm comm)
{
    pst_fft_plan_agreed(comm, plan_agreed, &(agreed_plan){.f = f, .planner = planner, .nlon = nlon, .nlines = nlines});
}

void pst_fft_free(pst_fft *f)
{
    fftw_destroy_plan(f->forward);
    fftw_destroy_plan(f->inverse);
}

void pst_fft_forward(const pst_fft *f, double *grid, fftw_complex *fourier)
{
    fftw_execute_dft_r2c(f->forward, grid, fourier);
}

void pst_fft_inverse(const pst_fft *f, fftw_complex *fourier, double *grid)
{
    fftw_execute_dft_c2r(f->inverse, fourier, grid);
}
