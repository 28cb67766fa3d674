#include "algo/fft_planner.h"

#include "core/alloc.h"
#include "core/errors.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *const pst_fft_efforts[] = {"estimate", "measure", "patient", NULL};
static const unsigned effort_flags[] = {FFTW_ESTIMATE, FFTW_MEASURE, FFTW_PATIENT};

bool pst_fft_planner_init(pst_fft_planner *p, const char *effort)
{
    for (int e = 0; pst_fft_efforts[e]; e++)
        if (!strcmp(effort, pst_fft_efforts[e])) {
            *p = (pst_fft_planner){.effort = pst_fft_efforts[e], .flags = effort_flags[e]};
            return true;
        }
    return false;
}

fftw_plan pst_fft_plan(pst_fft_planner *p, pst_fft_use use, pst_fft_make_fn *make, void *arg, const char *what)
{
    const unsigned flags = use == PST_FFT_TIMED ? p->flags : FFTW_ESTIMATE;
    fftw_plan plan = make(arg, flags | FFTW_WISDOM_ONLY);
    if (plan) p->plans_from_wisdom++;
    else plan = make(arg, flags);
    if (!plan) pst_fatal(PST_EXIT_FAILED, "FFTW could not plan %s", what);
    p->plans++;
    return plan;
}

void pst_fft_plan_agreed(MPI_Comm comm, void (*plan_all)(void *arg), void *arg)
{
    int rank = 0, size = 1;
    if (comm != MPI_COMM_NULL) {
        MPI_Comm_rank(comm, &rank);
        MPI_Comm_size(comm, &size);
    }
    if (rank == 0) plan_all(arg);
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
        plan_all(arg);
        free(wisdom);
    } else {
        fftw_free(wisdom);
    }
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
