/* sched_getaffinity and the CPU_* macros are GNU extensions. */
#define _GNU_SOURCE
#include "core/alloc.h"
#include "runtime/machine.h"
#include "runtime/threads.h"

#include <ctype.h>
#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#ifndef PST_C_FLAGS
#define PST_C_FLAGS "unknown"
#endif

extern char **environ;

enum { HOST_LEN = MPI_MAX_PROCESSOR_NAME, CPUS_LEN = 256 };

/* One rank's place, gathered to rank 0 as fixed-width rows. */
typedef struct placement {
    char host[HOST_LEN];
    char machine[40];       /* boot id of the running kernel: emulated nodes share one machine */
    char cpus[CPUS_LEN];
    char thread_cpus[CPUS_LEN]; /* each thread's CPU at the start, in thread order */
    int ncpus, numa_node, threads;
    int cpu_ids[64];        /* the first allowed CPUs, enough to tell hosts' sets apart */
} placement;

static placement *gathered;
static int granks;

const char *pst_cpu_list(const int *cpus, size_t n, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < len;) {
        size_t j = i;
        while (j + 1 < n && cpus[j + 1] == cpus[j] + 1) j++;
        int w = j > i ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", cpus[i], cpus[j])
                      : snprintf(buf + used, len - used, "%s%d", used ? "," : "", cpus[i]);
        used += (size_t)(w > 0 ? w : 0);
        i = j + 1;
    }
    return buf;
}

bool pst_env_recorded(const char *nv)
{
    static const char *const prefixes[] = {"OMPI_", "PMIX_", "MPICH_", "MPIR_CVAR_", "UCX_", "FI_", "I_MPI_", "PSM2_",
                                           "OMP_", "OPENBLAS_", "BLIS_", "SLURM_", "MALLOC_", "GLIBC_TUNABLES=",
                                           "PSTSWM_FAULT_", NULL};
    for (const char *const *p = prefixes; *p; p++)
        if (!strncmp(nv, *p, strlen(*p))) return true;
    return false;
}

/* The NUMA node of cpu from sysfs, or -1. */
static int numa_node_of(int cpu)
{
    for (int node = 0; node < 1024; node++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/node%d", cpu, node);
        if (access(path, F_OK) == 0) return node;
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d", node);
        if (access(path, F_OK) != 0) return -1;
    }
    return -1;
}

static void place_me(placement *me)
{
    memset(me, 0, sizeof *me);
    int len;
    MPI_Get_processor_name(me->host, &len);
    FILE *boot = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!boot || !fgets(me->machine, sizeof me->machine, boot))
        snprintf(me->machine, sizeof me->machine, "%.39s", me->host);
    if (boot) fclose(boot);
    me->machine[strcspn(me->machine, "\n")] = '\0';
    /* The rank's CPUs: those of all its threads (OpenMP binds each, the master too, to its place). */
    cpu_set_t set;
    CPU_ZERO(&set);
#pragma omp parallel num_threads(pst_threads())
    {
        cpu_set_t mine;
        if (sched_getaffinity(0, sizeof mine, &mine) == 0) {
#pragma omp critical
            CPU_OR(&set, &set, &mine);
        }
    }
    int cpus[CPU_SETSIZE] = {0};
    size_t n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &set)) cpus[n++] = c;
    me->ncpus = (int)n;
    for (size_t i = 0; i < n && i < 64; i++) me->cpu_ids[i] = cpus[i];
    pst_cpu_list(cpus, n, me->cpus, sizeof me->cpus);
    /* The node when every allowed CPU is on one, else -1 (spread or unknown). */
    me->numa_node = n ? numa_node_of(cpus[0]) : -1;
    me->threads = pst_threads();
    pst_threads_cpus(me->thread_cpus, sizeof me->thread_cpus);
    for (size_t i = 1; i < n && me->numa_node >= 0; i++)
        if (numa_node_of(cpus[i]) != me->numa_node) me->numa_node = -1;
}

pst_machine pst_machine_survey(void)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    placement me;
    place_me(&me);
    free(gathered);
    gathered = rank == 0 ? pst_malloc((size_t)size * sizeof *gathered) : NULL;
    granks = size;
    MPI_Gather(&me, (int)sizeof me, MPI_BYTE, gathered, (int)sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
    pst_machine m = {0};
    if (rank == 0) {
        /* Per machine: its ranks against the CPUs allowed to any of them. */
        for (int i = 0; i < size; i++) {
            bool first = true;
            for (int j = 0; j < i && first; j++) first = strcmp(gathered[j].machine, gathered[i].machine) != 0;
            if (!first) continue;
            int threads = 0; /* the ranks' threads: what competes for the CPUs */
            bool seen[CPU_SETSIZE] = {false};
            int cpus = 0;
            for (int j = i; j < size; j++) {
                if (strcmp(gathered[j].machine, gathered[i].machine)) continue;
                threads += gathered[j].threads;
                for (int k = 0; k < gathered[j].ncpus && k < 64; k++)
                    if (!seen[gathered[j].cpu_ids[k]]) { seen[gathered[j].cpu_ids[k]] = true; cpus++; }
                /* A rank allowed more than 64 CPUs: count them all (they are not all listed). */
                if (gathered[j].ncpus > 64 && gathered[j].ncpus > cpus) cpus = gathered[j].ncpus;
            }
            if (threads > cpus) m.oversubscribed = true;
            if (threads > m.max_threads_per_cpu_host) {
                m.max_threads_per_cpu_host = threads;
                m.cpus_of_that_host = cpus;
            }
        }
    }
    MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, 0, MPI_COMM_WORLD);
    return m;
}

/* First line of a small file, without the newline, or NULL. */
static char *read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *ok = fgets(buf, (int)len, f);
    fclose(f);
    if (!ok) return NULL;
    buf[strcspn(buf, "\n")] = '\0';
    return buf;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The vector extensions a kernel may be built for, oldest first, by their /proc/cpuinfo names
 * (x86 "flags", Arm "Features"); "pni" is what the kernel calls SSE3. */
static const char *const vector_extensions[][2] = {
    {"sse2", "sse2"}, {"pni", "sse3"}, {"ssse3", "ssse3"}, {"sse4_1", "sse4_1"}, {"sse4_2", "sse4_2"}, {"avx", "avx"},
    {"fma", "fma"}, {"avx2", "avx2"}, {"avx512f", "avx512f"}, {"avx512cd", "avx512cd"}, {"avx512dq", "avx512dq"},
    {"avx512bw", "avx512bw"}, {"avx512vl", "avx512vl"}, {"avx512ifma", "avx512ifma"}, {"avx512vbmi", "avx512vbmi"},
    {"avx512_vnni", "avx512_vnni"}, {"avx512_bf16", "avx512_bf16"}, {"avx512_fp16", "avx512_fp16"},
    {"amx_tile", "amx_tile"}, {"asimd", "asimd"}, {"sve", "sve"}, {"sve2", "sve2"},
};
enum { NVECTOR = sizeof vector_extensions / sizeof vector_extensions[0] };

/* Does the space-separated list hold the word w? */
static bool has_word(const char *list, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(list, w); p; p = strstr(p + 1, w))
        if ((p == list || p[-1] == ' ' || p[-1] == '\t') && (p[n] == ' ' || p[n] == '\n' || p[n] == '\0')) return true;
    return false;
}

size_t pst_cpu_vector_extensions(const char *names[], size_t max)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    char *line = NULL; /* the flags line of a recent CPU is over 1,500 characters */
    size_t cap = 0, n = 0;
    while (getline(&line, &cap, f) > 0) {
        if (strncmp(line, "flags", 5) && strncmp(line, "Features", 8)) continue;
        const char *list = strchr(line, ':');
        for (size_t k = 0; list && k < NVECTOR && n < max; k++)
            if (has_word(list + 1, vector_extensions[k][0])) names[n++] = vector_extensions[k][1];
        break; /* the first CPU's, as cpu_model */
    }
    free(line);
    fclose(f);
    return n;
}

bool pst_machine_rank_place(int rank, const char **host, const char **cpus)
{
    if (!gathered || rank < 0 || rank >= granks) return false;
    *host = gathered[rank].host;
    *cpus = gathered[rank].cpus;
    return true;
}

void pst_rec_machine(pst_rec *r, const pst_machine *m)
{
    size_t n = 0, cap = 16;
    char **vars = pst_malloc(cap * sizeof *vars);
    for (char **e = environ; *e; e++) {
        if (!pst_env_recorded(*e)) continue;
        if (n == cap) vars = pst_realloc(vars, (cap *= 2) * sizeof *vars);
        vars[n++] = *e;
    }
    qsort(vars, n, sizeof *vars, cmp_str);
    pst_rec_obj_begin(r, "env");
    for (size_t i = 0; i < n; i++) {
        char name[256];
        size_t len = strcspn(vars[i], "=");
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), vars[i]);
        pst_rec_str(r, name, vars[i][len] ? vars[i] + len + 1 : "");
    }
    pst_rec_obj_end(r);
    free(vars);

    pst_rec_list_begin(r, "binding");
    for (int i = 0; gathered && i < granks; i++) {
        pst_rec_obj_begin(r, NULL);
        pst_rec_int(r, "rank", i);
        pst_rec_str(r, "host", gathered[i].host);
        pst_rec_str(r, "cpus", gathered[i].cpus);
        if (gathered[i].numa_node >= 0) pst_rec_int(r, "numa_node", gathered[i].numa_node);
        else pst_rec_null(r, "numa_node");
        pst_rec_int(r, "threads", gathered[i].threads);
        pst_rec_str(r, "thread_cpus", gathered[i].thread_cpus);
        pst_rec_obj_end(r);
    }
    pst_rec_list_end(r);
    pst_rec_bool(r, "oversubscribed", m->oversubscribed);
    pst_rec_threads(r);

    char buf[256];
    pst_rec_str(r, "cpu_governor", read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", buf, sizeof buf));
    /* "always [madvise] never": the bracketed word is the setting. */
    const char *thp = read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof buf);
    char setting[32] = "";
    if (thp && strchr(thp, '[')) sscanf(strchr(thp, '[') + 1, "%31[^]]", setting);
    pst_rec_str(r, "transparent_hugepages", setting[0] ? setting : NULL);
    struct utsname u;
    pst_rec_str(r, "kernel_release", uname(&u) == 0 ? u.release : NULL);
    pst_rec_str(r, "ld_preload", getenv("LD_PRELOAD"));
    pst_rec_str(r, "compile_flags", PST_C_FLAGS);
    const char *ext[NVECTOR];
    size_t next = pst_cpu_vector_extensions(ext, NVECTOR);
    pst_rec_strs(r, "cpu_vector_extensions", ext, next);
}
