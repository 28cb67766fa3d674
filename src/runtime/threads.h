/* Threads per rank (OpenMP): the --threads option of model, kernel, pingpong and swap, where the
 * count came from (the option, OMP_NUM_THREADS, or the default of one), the MPI thread level the
 * threads need, and what the run header says about them.  OpenMP's own runtime places the
 * threads (OMP_PROC_BIND, OMP_PLACES); the launcher gives each rank its cores (scripts/pstrun). */
#ifndef PST_THREADS_H
#define PST_THREADS_H

#include <stdbool.h>

struct pst_rec;

enum { PST_THREADS_MAX = 1024 };

/* The --threads row of a subcommand's option table; *field starts at 0 (absent). */
#define PST_THREADS_OPT(field, what) \
    {"threads", PST_OPT_INT, (field), "T", "OpenMP threads per rank" what, 1, PST_THREADS_MAX, NULL,                   \
     "1; OMP_NUM_THREADS where the command honours it"}

/* After parsing, before pst_ctx_start: the run's threads per rank from --threads (option > 0), else
 * from OMP_NUM_THREADS when honour_env, else 1.  Refuses (exit 2, one line) a bad OMP_NUM_THREADS,
 * threads under SimGrid (SMPI simulates ranks), and a thread level below what the threads need:
 * funneled for threads that leave MPI to the master, multiple when `multiple` (every thread
 * calls MPI; `why` names the option that asks for it).  Sets OpenMP's team size, one level. */
int pst_threads_resolve(int option, bool honour_env, bool multiple, const char *why);

int pst_threads(void);                  /* threads per rank (1 until resolved) */
const char *pst_threads_source(void);   /* "--threads", "OMP_NUM_THREADS" or "default" */

/* This rank's threads' CPUs in thread order (sched_getcpu at the start of a parallel region),
 * as "0,1" or "0-7" for ascending runs, into buf. */
const char *pst_threads_cpus(char *buf, unsigned long len);

/* Rank 0: threads, threads_source, omp_proc_bind, omp_places for the run header. */
void pst_rec_threads(struct pst_rec *r);
/* The header's line about threads (nothing at one thread per rank). */
void pst_threads_print(void);

#endif
