#include "run/thread_level.h"

#include <mpi.h>
#include <string.h>

const char *const pst_thread_levels[] = {"single", "funneled", "serialized", "multiple", NULL};
static const int mpi_levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
static int requested, provided;

static int level_named(const char *name)
{
    for (int i = 0; pst_thread_levels[i]; i++)
        if (!strcmp(pst_thread_levels[i], name)) return i;
    return 0;
}

void pst_mpi_init(int *argc, char ***argv)
{
    const char *opt = "--thread-level";
    size_t len = strlen(opt);
    for (int i = 1; i < *argc; i++) {
        const char *a = (*argv)[i];
        if (!strcmp(a, opt) && i + 1 < *argc) requested = level_named((*argv)[i + 1]);
        else if (!strncmp(a, opt, len) && a[len] == '=') requested = level_named(a + len + 1);
    }
    if (requested == 0) {
        /* Plain MPI_Init: exactly what a minimal MPI program does. */
        MPI_Init(argc, argv);
        MPI_Query_thread(&provided);
    } else {
        MPI_Init_thread(argc, argv, mpi_levels[requested], &provided);
    }
}

const char *pst_thread_level_requested(void) { return pst_thread_levels[requested]; }

const char *pst_thread_level_provided(void)
{
    for (int i = 0; pst_thread_levels[i]; i++)
        if (mpi_levels[i] == provided) return pst_thread_levels[i];
    return "unknown";
}
