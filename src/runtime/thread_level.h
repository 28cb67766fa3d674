/* The MPI thread level pstswm initialises with.  A benchmark must not measure its own thread
 * support: on some libraries asking for more than MPI_THREAD_SINGLE slows every message (Open
 * MPI 4.1: 8 B ping-pong a third slower with FUNNELED; docs/pingpong-coll.md).  A single-threaded
 * run asks for single; threads per rank (threads.h) ask for the level they need; --thread-level
 * lets users measure what each level costs on their library. */
#ifndef PST_THREAD_LEVEL_H
#define PST_THREAD_LEVEL_H

extern const char *const pst_thread_levels[]; /* "single", "funneled", "serialized", "multiple", NULL */

/* MPI_Init (single) or MPI_Init_thread at the level "--thread-level LEVEL" (or
 * --thread-level=LEVEL) names in argv, else at the level its --threads, --comm-threads (or, for
 * model and kernel, OMP_NUM_THREADS) need.  An unknown name initialises at single; the option's
 * own check then reports it (exit 2). */
void pst_mpi_init(int *argc, char ***argv);

/* The level asked for and the one the library provided, as names. */
const char *pst_thread_level_requested(void);
const char *pst_thread_level_provided(void);

#endif
