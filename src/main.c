/* pstswm: one MPI program, one subcommand per benchmark. */
#include "bench/commands.h"
#include "comm/protocol.h"
#include "core/errors.h"
#include "core/record.h"
#include "run/context.h"
#include "run/thread_level.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"swap", pst_cmd_swap, "point-to-point SWAP protocol sweep with protocol-sensitivity summary"},
    {"pingpong", pst_cmd_pingpong, "ping-pong latency/bandwidth vs message size, send modes, large-message fit"},
    {"coll", pst_cmd_coll, "collective timing vs message and communicator size, with per-rank imbalance"},
    {"match", pst_cmd_match, "cost of MPI message matching: tag/comm algorithms, in/reverse posting, fitted M"},
    {"model", pst_cmd_model, "spectral transform shallow water model: time per step, MFlop/s, errors, conservation"},
    {"kernel", pst_cmd_kernel, "each parallel algorithm alone, every protocol, checked against MPI collectives"},
    {"schema", pst_cmd_schema, "the fields of every record the subcommands write: type, unit, meaning"},
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static void usage(FILE *f)
{
    fprintf(f, "usage: pstswm SUBCOMMAND [options]   (run under mpiexec/srun; 'pstswm SUBCOMMAND --help')\n\n");
    for (int i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

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
        if (rank == 0) printf("pstswm %s (%s), record schema %d\n", PST_VERSION, pst_git_commit(), PST_SCHEMA_VERSION);
        pst_finalize();
        return 0;
    }
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            pst_finalize();
            return rc;
        }
    pst_usage_error("unknown subcommand '%s' (see 'pstswm --help')", argv[1]);
}
