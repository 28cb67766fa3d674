/* What the numbers came from, for the run header: the environment variables that steer MPI,
 * OpenMP and BLAS; where each rank and its threads may run (binding) and whether any host runs more threads
 * than CPUs; the system settings that move timings (CPU frequency governor, transparent huge pages,
 * kernel release, LD_PRELOAD); and the CPU's vector extensions. */
#ifndef PST_MACHINE_H
#define PST_MACHINE_H

#include "core/record.h"

#include <stdbool.h>
#include <stddef.h>

/* "0-3,8,10-11" for the set cpus[0..n) (ascending), into buf. */
const char *pst_cpu_list(const int *cpus, size_t n, char *buf, size_t len);

/* Does the variable NAME=VALUE belong in the header's env (MPI, PMIx, UCX, libfabric, PSM2,
 * OpenMP, OpenBLAS, BLIS, Slurm, glibc malloc)? */
bool pst_env_recorded(const char *name_value);

typedef struct pst_machine {
    bool oversubscribed;    /* some host runs more threads (ranks × threads per rank) than CPUs allowed to them */
    int max_threads_per_cpu_host; /* threads on the most crowded host */
    int cpus_of_that_host;
} pst_machine;

/* The vector extensions of this host's CPU (/proc/cpuinfo flags), named as the kernel names them
 * (SSE3 as sse3), oldest first: sse2 ... avx2, the AVX-512 subsets, amx_tile; Arm's asimd, sve.
 * Writes up to max static strings into names; returns how many. */
size_t pst_cpu_vector_extensions(const char *names[], size_t max);

/* Collective over MPI_COMM_WORLD: gathers every rank's host, allowed CPUs and NUMA node. */
pst_machine pst_machine_survey(void);

/* Rank 0 after pst_machine_survey: env, binding, oversubscribed, cpu_governor,
 * transparent_hugepages, kernel_release, ld_preload, compile_flags, cpu_vector_extensions. */
void pst_rec_machine(pst_rec *r, const pst_machine *m);

/* Rank 0 after pst_machine_survey: the host and allowed CPUs ("0-3") of world rank `rank`, for
 * naming a slow rank's core; false when not surveyed or out of range. */
bool pst_machine_rank_place(int rank, const char **host, const char **cpus);

#endif
