/* sched_getcpu is a GNU extension. */
#define _GNU_SOURCE
#include "runtime/threads.h"

#include "core/cli.h"
#include "core/errors.h"
#include "core/record.h"
#include "runtime/simulation.h"
#include "runtime/thread_level.h"

#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int threads = 1;
static const char *source = "default";

/* OMP_NUM_THREADS as a count: its first element ("4,2" asks for nesting, which pstswm never
 * uses), or 0 when unset or empty. */
static int env_threads(void)
{
    const char *v = getenv("OMP_NUM_THREADS");
    if (!v || !*v) return 0;
    char first[32], err[128];
    snprintf(first, sizeof first, "%.*s", (int)strcspn(v, ","), v);
    long long n;
    if (pst_parse_int(first, &n, err, sizeof err) != 0 || n < 1 || n > PST_THREADS_MAX)
        pst_usage_error("OMP_NUM_THREADS='%s' is not a thread count from 1 to %d: set it so, or pass --threads", v,
                        PST_THREADS_MAX);
    return (int)n;
}

static int level_index(const char *name)
{
    for (int i = 0; pst_thread_levels[i]; i++)
        if (!strcmp(pst_thread_levels[i], name)) return i;
    return -1;
}

int pst_threads_resolve(int option, bool honour_env, bool multiple, const char *why)
{
    int env = honour_env ? env_threads() : 0;
    threads = option > 0 ? option : env > 0 ? env : 1;
    source = option > 0 ? "--threads" : env > 0 ? "OMP_NUM_THREADS" : "default";
    const char *given = option > 0 ? "--threads" : "OMP_NUM_THREADS";
    if (PST_IS_SIMULATED && (threads > 1 || multiple))
        pst_usage_error(
            "%s %d: SimGrid's SMPI simulates ranks, not threads; predict with one thread per rank (docs/predict.md)",
            given, threads);
    const char *need = multiple ? "multiple" : threads > 1 ? "funneled" : NULL;
    if (need && level_index(pst_thread_level_provided()) < level_index(need)) {
        if (multiple)
            pst_usage_error("%s needs MPI_THREAD_MULTIPLE; asked for %s, the MPI library granted %s", why,
                            pst_thread_level_requested(), pst_thread_level_provided());
        pst_usage_error(
            "%s %d needs MPI_THREAD_FUNNELED or more; asked for %s (--thread-level), the MPI library granted %s", given,
            threads, pst_thread_level_requested(), pst_thread_level_provided());
    }
    /* One level of threads: BLAS and FFTW run single-threaded inside each (model/libs/blas.c). */
    omp_set_dynamic(0);
    omp_set_max_active_levels(1);
    omp_set_num_threads(threads);
    return threads;
}

int pst_threads(void) { return threads; }
const char *pst_threads_source(void) { return source; }

const char *pst_threads_cpus(char *buf, unsigned long len)
{
    int *cpu = calloc((size_t)threads, sizeof *cpu);
    if (!cpu) pst_fatal(PST_EXIT_FAILED, "out of memory listing %d threads' CPUs", threads);
#pragma omp parallel num_threads(threads)
    cpu[omp_get_thread_num()] = sched_getcpu();
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < threads && used < len;) {
        int j = i;
        while (j + 1 < threads && cpu[j + 1] == cpu[j] + 1) j++;
        int w = j > i + 1 ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", cpu[i], cpu[j])
                          : snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpu[i]);
        used += (size_t)(w > 0 ? w : 0);
        i = j > i + 1 ? j + 1 : i + 1;
    }
    free(cpu);
    return buf;
}

void pst_rec_threads(pst_rec *r)
{
    pst_rec_int(r, "threads", threads);
    pst_rec_str(r, "threads_source", source);
    pst_rec_str(r, "omp_proc_bind", getenv("OMP_PROC_BIND"));
    pst_rec_str(r, "omp_places", getenv("OMP_PLACES"));
}

void pst_threads_print(void)
{
    if (threads == 1) return;
    char rank0_cpus[256];
    pst_threads_cpus(rank0_cpus, sizeof rank0_cpus);
    const char *bind = getenv("OMP_PROC_BIND"), *places = getenv("OMP_PLACES");
    printf("# threads: %d per rank (%s); rank 0's on CPUs %s; OMP_PROC_BIND %s, OMP_PLACES %s\n", threads, source,
           rank0_cpus, bind ? bind : "unset", places ? places : "unset");
}
