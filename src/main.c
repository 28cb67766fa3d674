/* pstswm: one MPI program, one subcommand per benchmark. */
#include "cmd/commands.h"
#include "cmd/common/version.h"
#include "comm/protocol.h"
#include "core/errors.h"
#include "runtime/context.h"
#include "runtime/thread_level.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: pstswm SUBCOMMAND [options]   (run under mpiexec/srun; 'pstswm SUBCOMMAND --help')\n\n");
    for (size_t i = 0; i < pst_nsubcommands; i++)
        fprintf(f, "  %-10s %s\n", pst_subcommands[i]->name, pst_subcommands[i]->summary);
}

#ifdef PST_SIMULATED
/* The SMPI build hides its symbols (smaller copies of the program, one per simulated rank); SMPI
 * looks each copy's main up by name. */
__attribute__((visibility("default")))
#endif
int main(int argc, char **argv)
{
    pst_transport_before_mpi_init(argc, argv);
    pst_mpi_init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (rank == 0) usage(argc < 2 ? stderr : stdout);
        pst_finalize();
        return argc < 2 ? PST_EXIT_USAGE : 0;
    }
    if (!strcmp(argv[1], "--version")) {
        if (rank == 0) pst_version_print(stdout);
        pst_finalize();
        return 0;
    }
    const pst_subcommand *b = pst_subcommand_find(argv[1]);
    if (b) {
        int rc = pst_subcommand_run(b, argc - 1, argv + 1);
        pst_finalize();
        return rc;
    }
    pst_usage_error("unknown subcommand '%s' (see 'pstswm --help')", argv[1]);
}
