#include "runtime/thread_level.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdlib.h>
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

/* The value of option opt in argv ("--opt V" or "--opt=V"), or NULL; a flag gives "". */
static const char *option_value(int argc, char **argv, const char *opt)
{
    size_t len = strlen(opt);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, opt)) return i + 1 < argc ? argv[i + 1] : "";
        if (!strncmp(a, opt, len) && a[len] == '=') return a + len + 1;
    }
    return NULL;
}

/* Without --thread-level, the level the command's threads need (threads.h): multiple for
 * --comm-threads and for pingpong's and swap's threads (each its own stream), funneled for the
 * model's and the kernel's (MPI stays on the master), counting OMP_NUM_THREADS where they
 * honour it; else single.  A bad count is left to the option's own check. */
static int level_for_threads(int argc, char **argv)
{
    if (option_value(argc, argv, "--comm-threads")) return 3;
    const char *cmd = argc > 1 ? argv[1] : "";
    bool streams = !strcmp(cmd, "pingpong") || !strcmp(cmd, "swap");
    const char *t = option_value(argc, argv, "--threads");
    if (!t && (!strcmp(cmd, "model") || !strcmp(cmd, "kernel"))) t = getenv("OMP_NUM_THREADS");
    if (!t || atoi(t) <= 1) return 0;
    return streams ? 3 : 1;
}

void pst_mpi_init(int *argc, char ***argv)
{
    const char *named = option_value(*argc, *argv, "--thread-level");
    requested = named ? level_named(named) : level_for_threads(*argc, *argv);
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
