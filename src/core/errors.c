#include "core/errors.h"

#include "core/outfile.h"

#include <limits.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *progname = "pstswm";

void pst_set_progname(const char *name) { progname = name; }
const char *pst_progname(void) { return progname; }

enum { MAX_AT_FINALIZE = 8 };
static void (*at_finalize[MAX_AT_FINALIZE])(void);
static int n_at_finalize;

void pst_at_finalize(void (*fn)(void))
{
    if (n_at_finalize == MAX_AT_FINALIZE) pst_fatal(3, "more than %d shutdown steps registered", MAX_AT_FINALIZE);
    at_finalize[n_at_finalize++] = fn;
}

void pst_finalize(void)
{
    while (n_at_finalize > 0) at_finalize[--n_at_finalize]();
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) MPI_Finalize();
}

static int world_rank(void)
{
    int initialized = 0, finalized = 0, rank = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static noreturn void collective_vexit(int code, const char *fmt, va_list ap)
{
    if (world_rank() == 0) {
        fprintf(stderr, "%s: error: ", progname);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        pst_outfile_abandon(code == PST_EXIT_USAGE); /* exit 2 leaves no file; a failed run keeps its records */
        fflush(stderr);
    }
    pst_finalize();
    exit(code);
}

void pst_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    collective_vexit(PST_EXIT_USAGE, fmt, ap);
}

void pst_collective_exit(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    collective_vexit(code, fmt, ap);
}

void pst_fatal(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: error (rank %d): ", progname, world_rank());
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    pst_outfile_abandon(code == PST_EXIT_USAGE);
    fflush(stderr);
    va_end(ap);
    MPI_Abort(MPI_COMM_WORLD, code);
    exit(code); /* not reached with a conforming MPI */
}

void pst_mpi_check(int rc, const char *what)
{
    if (rc == MPI_SUCCESS) return;
    char why[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, why, &len) != MPI_SUCCESS) snprintf(why, sizeof why, "error %d", rc);
    pst_fatal(PST_EXIT_FAILED, "MPI call %s failed: %s", what, why);
}

void pst_usage_check_all(const char *local_error)
{
    int rank, size, first, failed, mine = local_error ? 1 : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&mine, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!failed) return;
    int candidate = local_error ? rank : INT_MAX;
    MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char message[1024] = "";
    if (rank == first) snprintf(message, sizeof message, "%s", local_error);
    MPI_Bcast(message, (int)sizeof message, MPI_CHAR, first, MPI_COMM_WORLD);
    if (failed == size) pst_usage_error("%s", message);
    pst_usage_error("%s (on rank %d; %d of %d ranks failed this check)", message, first, failed, size);
}

void pst_usage_check_root(const char *root_error)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char message[1024] = "";
    if (rank == 0 && root_error) snprintf(message, sizeof message, "%s", root_error);
    MPI_Bcast(message, (int)sizeof message, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (*message) pst_usage_error("%s", message);
}
