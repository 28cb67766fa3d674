#include "runtime/context.h"

#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "core/outfile.h"
#include "runtime/alloc_state.h"
#include "runtime/compiler.h"
#include "runtime/emit.h"
#include "runtime/locality.h"
#include "runtime/threads.h"
#include "runtime/machine.h"
#include "runtime/mpi_features.h"
#include "runtime/noise.h"
#include "runtime/run_schema.h"
#include "runtime/simulation.h"
#include "runtime/timer.h"
#include "runtime/watchdog.h"

#include <errno.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pst_git_commit.h" /* generated at every build: cmake/git-commit.cmake */

#ifndef PST_VERSION
#define PST_VERSION "0.0.0"
#endif
#ifndef PST_MPI_FLAVOUR
#define PST_MPI_FLAVOUR "unknown"
#endif

const char *pst_git_commit(void) { return PST_GIT_COMMIT; }

/* The command line, shell-quoted: plain words as they are, the rest in single quotes with each
 * quote written as '\'' (4 bytes for 1, so the buffer holds 4 per byte plus the quotes). */
static char *join_cmdline(int argc, char **argv, const char *subcommand)
{
    size_t len = strlen("pstswm ") + strlen(subcommand) + 1;
    for (int i = 1; i < argc; i++) len += 4 * strlen(argv[i]) + 3;
    char *s = pst_malloc(len), *p = s;
    p += sprintf(p, "pstswm %s", subcommand);
    for (int i = 1; i < argc; i++) {
        bool plain =
            *argv[i] && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=.,:/+") ==
                            strlen(argv[i]);
        *p++ = ' ';
        if (plain) { p = stpcpy(p, argv[i]); continue; }
        *p++ = '\'';
        for (const char *q = argv[i]; *q; q++) {
            if (*q == '\'') p = stpcpy(p, "'\\''");
            else *p++ = *q;
        }
        *p++ = '\'';
    }
    *p = '\0';
    return s;
}

static void arm_watchdog(void *ctx)
{
    const pst_ctx *c = ctx;
    pst_watchdog_start(c->timeout_s);
    pst_watchdog_phase("set-up of %s (before the first experiment)", c->subcommand);
}

void pst_ctx_init(pst_ctx *c, const pst_schema *header, int argc, char **argv)
{
    const char *subcommand = header->bench;
    *c = (pst_ctx){.subcommand = subcommand,
                   .header_schema = header,
                   .timeout_s = 600,
                   .transport = "mpi",
                   .thread_level = "single",
                   /* Simulated, the host's noise is not the platform's (and probing it takes minutes). */
                   .noise_probe_s = PST_IS_SIMULATED ? 0 : 0.2,
                   .alloc_probe_bytes = 1 << 20};
    MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c->size);
    static char progname[64];
    snprintf(progname, sizeof progname, "pstswm %s", subcommand);
    pst_set_progname(progname);
    uint64_t id = 0;
    if (c->rank == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        id = ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 40);
        id *= 0x9E3779B97F4A7C15ULL;
    }
    MPI_Bcast(&id, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    snprintf(c->run_id, sizeof c->run_id, "%016llx", (unsigned long long)id);
    c->cmdline = join_cmdline(argc, argv, subcommand);
    pst_cli_on_parsed(arm_watchdog, c);
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *v = strchr(line, ':');
            if (v) {
                v += 1 + strspn(v + 1, " \t");
                v[strcspn(v, "\n")] = '\0';
                snprintf(buf, len, "%s", v);
            }
            break;
        }
    }
    fclose(f);
}

/* Unique host names of all ranks, gathered to rank 0 (fixed-width, so one Gather). */
static size_t gather_hosts(pst_ctx *c, char ***hosts_out, char **storage)
{
    char name[MPI_MAX_PROCESSOR_NAME] = {0};
    int len;
    MPI_Get_processor_name(name, &len);
    char *all = c->rank == 0 ? pst_malloc((size_t)c->size * MPI_MAX_PROCESSOR_NAME) : NULL;
    MPI_Gather(name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
    size_t n = 0;
    char **hosts = NULL;
    if (c->rank == 0) {
        hosts = pst_malloc((size_t)c->size * sizeof *hosts);
        for (int r = 0; r < c->size; r++) {
            char *h = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
            bool seen = false;
            for (size_t k = 0; k < n && !seen; k++) seen = !strcmp(hosts[k], h);
            if (!seen) hosts[n++] = h;
        }
    }
    *hosts_out = hosts;
    *storage = all;
    return n;
}

static void noise_line(const pst_ctx *c, const char *when, const pst_noise *n)
{
    printf("# noise %s: %.2g s probe, lost %.2f %% (max over ranks; median %.2f %%), max gap %.3g ms, %lld gaps over "
           "%.0f us%s\n",
           when, n->probe_s, 100 * n->lost_frac_max, 100 * n->lost_frac_median, n->max_gap_s * 1e3, n->gaps,
           n->threshold_s * 1e6,
           c->oversubscribed ? " (ranks outnumber CPUs: the probe measures the ranks taking turns)" : "");
    if (n->lost_frac_max > PST_NOISE_LIMIT)
        fprintf(stderr,
                "%s: warning: the host lost %.1f %% of the time %s the run in stalls (max %.3g ms): timings are noisy "
                "and verdicts unreliable\n",
                pst_progname(), 100 * n->lost_frac_max, when, n->max_gap_s * 1e3);
}

static void rec_noise_probe(pst_rec *r, const pst_ctx *c, const char *when, const pst_noise *n)
{
    pst_rec_obj_begin(r, "noise");
    if (!strcmp(when, "before")) {
        pst_rec_num(r, "probe_s", n->probe_s);
        pst_rec_num(r, "threshold_s", n->threshold_s);
        pst_rec_bool(r, "measures_ranks", c->oversubscribed);
    }
    pst_rec_noise(r, when, n);
    pst_rec_bool(r, "noisy", n->lost_frac_max > PST_NOISE_LIMIT);
    pst_rec_obj_end(r);
}

static void write_header(pst_ctx *c, const pst_machine *m, const pst_noise *noise)
{
    char **hosts = NULL, *storage = NULL;
    size_t nhosts = gather_hosts(c, &hosts, &storage);
    char library[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
    int len, major, minor;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    MPI_Get_version(&major, &minor);
    double tick = MPI_Wtick();
    if (c->rank != 0) return;

    char cpu[256], date[32], mpi_version[16];
    cpu_model(cpu, sizeof cpu);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    snprintf(mpi_version, sizeof mpi_version, "%d.%d", major, minor);

    pst_rec r;
    pst_rec_begin(&r, c, c->header_schema);
    pst_rec_str(&r, "tool", "pstswm");
    pst_rec_int(&r, "schema_version", PST_SCHEMA_VERSION);
    pst_rec_str(&r, "version", PST_VERSION);
    pst_rec_str(&r, "git_commit", PST_GIT_COMMIT);
    pst_rec_str(&r, "command", c->cmdline);
    pst_rec_str(&r, "mpi_library", library);
    pst_rec_str(&r, "mpi_version", mpi_version);
    pst_rec_str(&r, "mpi_build", PST_MPI_FLAVOUR);
    pst_rec_mpi_features(&r, "mpi_features");
    pst_rec_simulation(&r);
    pst_rec_int(&r, "nodes", (long long)nhosts);
    pst_rec_strs(&r, "hosts", (const char *const *)hosts, nhosts);
    pst_rec_str(&r, "cpu_model", cpu);
    pst_rec_int(&r, "cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
    pst_rec_str(&r, "compiler", PST_COMPILER);
    pst_rec_num(&r, "timer_resolution_s", c->timer_resolution_s);
    pst_rec_num(&r, "wtick_s", tick);
    pst_rec_str(&r, "thread_level", pst_thread_level_requested());
    pst_rec_str(&r, "thread_level_provided", pst_thread_level_provided());
    pst_rec_str(&r, "date", date);
    pst_rec_machine(&r, m);
    pst_rec_locality(&r);
    if (noise) rec_noise_probe(&r, c, "before", noise);
    else pst_rec_null(&r, "noise");
    pst_rec_alloc_state(&r, c->alloc_probe_bytes);
    for (int h = 0; h < c->nheaders; h++) c->headers[h].fields(&r, c, c->headers[h].arg);
    pst_rec_emit(&r, c);

    printf("# pstswm %s (%s) %s | %s | %d rank%s on %zu node%s | timer resolution %.3g us | run %s\n",
           PST_VERSION, PST_GIT_COMMIT, c->subcommand, library, c->size, c->size == 1 ? "" : "s", nhosts,
           nhosts == 1 ? "" : "s", c->timer_resolution_s * 1e6, c->run_id);
    if (m->oversubscribed)
        printf("# oversubscribed: %d threads (ranks x threads per rank) on a host with %d CPUs for them: timings are "
               "not verdicts\n",
               m->max_threads_per_cpu_host, m->cpus_of_that_host);
    pst_threads_print();
    pst_locality_print();
    if (noise) noise_line(c, "before", noise);
    fflush(stdout);
    free(hosts);
    free(storage);
}

void pst_ctx_add_header(pst_ctx *c, void (*fields)(struct pst_rec *r, const pst_ctx *c, void *arg), void *arg)
{
    for (int h = 0; h < c->nheaders; h++)
        if (c->headers[h].fields == fields) { /* set up again (e.g. a comparison's options): the latest wins */
            c->headers[h].arg = arg;
            return;
        }
    if (c->nheaders == (int)(sizeof c->headers / sizeof c->headers[0]))
        pst_fatal(PST_EXIT_FAILED, "run header: more than %d field groups", c->nheaders);
    c->headers[c->nheaders++] = (struct pst_ctx_header){fields, arg};
}

void pst_ctx_validated(pst_ctx *c) { pst_exit_trap_point(0, c->subcommand); }

void pst_ctx_start(pst_ctx *c)
{
    pst_watchdog_phase("start of the %s run (record file, machine survey, noise probe)", c->subcommand);
    int err = 0;
    if (c->rank == 0 && c->out_path) err = pst_outfile_open(c->out_path);
    MPI_Bcast(&err, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (err) pst_usage_error("--out: cannot write '%s': %s", c->out_path, strerror(err));
    c->timer_resolution_s = pst_timer_resolution_s();
    pst_machine m = pst_machine_survey();
    c->oversubscribed = m.oversubscribed;
    pst_locality_survey();
    pst_noise noise;
    if (c->noise_probe_s > 0) {
        noise = pst_noise_probe(c->noise_probe_s, c->timer_resolution_s);
        int noisy = noise.lost_frac_max > PST_NOISE_LIMIT;
        MPI_Bcast(&noisy, 1, MPI_INT, 0, MPI_COMM_WORLD);
        c->noisy = noisy;
    }
    write_header(c, &m, c->noise_probe_s > 0 ? &noise : NULL);
    c->start_s = MPI_Wtime();
    pst_watchdog_phase("first experiment of the %s run", c->subcommand);
}

void pst_ctx_finish(pst_ctx *c)
{
    pst_watchdog_stop();
    /* The footer closes a complete run: its absence marks an interrupted one. */
    double elapsed_s = MPI_Wtime() - c->start_s;
    pst_noise after;
    if (c->noise_probe_s > 0) {
        after = pst_noise_probe(c->noise_probe_s, c->timer_resolution_s);
        int noisy = after.lost_frac_max > PST_NOISE_LIMIT;
        MPI_Bcast(&noisy, 1, MPI_INT, 0, MPI_COMM_WORLD);
        c->noisy |= noisy;
    }
    if (c->rank == 0) {
        pst_rec r;
        const pst_schema footer = PST_FOOTER_SCHEMA(c->subcommand);
        pst_rec_begin(&r, c, &footer);
        if (c->noise_probe_s > 0) rec_noise_probe(&r, c, "after", &after);
        else pst_rec_null(&r, "noise");
        pst_rec_num(&r, "elapsed_s", elapsed_s);
        pst_rec_emit(&r, c);
        if (c->noise_probe_s > 0) {
            noise_line(c, "after", &after);
            fflush(stdout);
        }
    }
    pst_alloc_state_release();
    if (c->rank == 0) pst_outfile_commit();
    free(c->cmdline);
    c->cmdline = NULL;
}
