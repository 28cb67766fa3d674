/* pstswm: one MPI program, one subcommand per benchmark. */
#include "bench/commands.h"
#include "core/errors.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"swap", pst_cmd_swap, "point-to-point SWAP protocol sweep with protocol-sensitivity summary"},
    {"kernel", pst_cmd_kernel, "each parallel algorithm alone, every protocol, checked against MPI collectives"},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f)
{
    fprintf(f, "usage: pstswm SUBCOMMAND [options]   (run under mpiexec/srun; 'pstswm SUBCOMMAND --help')\n\n");
    for (int i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
    /* FUNNELED: only the main thread calls MPI (the watchdog thread only ever aborts). */
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (rank == 0) usage(argc < 2 ? stderr : stdout);
        MPI_Finalize();
        return argc < 2 ? PST_EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        if (rank == 0) printf("pstswm %s (%s)\n", PST_VERSION, PST_GIT_COMMIT);
        MPI_Finalize();
        return 0;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            MPI_Finalize();
            return rc;
        }
    pst_usage_error("unknown subcommand '%s' (see 'pstswm --help')", argv[1]);
}
