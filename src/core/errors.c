#include "core/errors.h"

#include "core/utf8.h"

#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *progname = "pstswm";

void pst_set_progname(const char *name) { progname = name; }
const char *pst_progname(void) { return progname; }

enum { MAX_AT_FINALIZE = 8 };
static void (*at_finalize[MAX_AT_FINALIZE])(void);
static int n_at_finalize;

void pst_at_finalize(void (*fn)(void))
{
    if (n_at_finalize == MAX_AT_FINALIZE)
        pst_fatal(PST_EXIT_FAILED, "more than %d shutdown steps registered", MAX_AT_FINALIZE);
    at_finalize[n_at_finalize++] = fn;
}

/* MPI_Finalize may never return: MPICH over UCX's TCP transport can wait for an endpoint flush
 * that the peer, already past it, no longer serves (seen across emulated nodes, docs/cluster.md).
 * Everything is written by then, so after FINALIZE_LIMIT_S the rank says so and leaves (exit 0). */
enum { FINALIZE_LIMIT_S = 2 };

static void finalize_stuck(int sig)
{
    (void)sig;
    static const char msg[] = "pstswm: warning: MPI_Finalize did not return within 2 s; the run had finished, so this "
                              "rank leaves without it\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
    _exit(PST_EXIT_OK);
}

void pst_finalize(void)
{
    while (n_at_finalize > 0) at_finalize[--n_at_finalize]();
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized) return;
    struct sigaction sa = {.sa_handler = finalize_stuck};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    sigset_t alarm_only;
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    pthread_sigmask(SIG_UNBLOCK, &alarm_only, NULL);
    alarm(FINALIZE_LIMIT_S);
    MPI_Finalize();
    alarm(0);
}

static int world_rank(void)
{
    int initialized = 0, finalized = 0, rank = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (initialized && !finalized) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

static pst_exit_trap exit_trap;
static void (*on_failure)(bool usage);

void pst_on_failure(void (*fn)(bool usage)) { on_failure = fn; }

void pst_set_exit_trap(pst_exit_trap trap) { exit_trap = trap; }

void pst_exit_trap_point(int code, const char *message)
{
    if (exit_trap) exit_trap(code, message);
}

/* The message on one line of valid UTF-8 whatever the arguments it quotes: a line end, another
 * control character or a byte that starts no UTF-8 sequence is written as \xHH. */
static void format_message(char *out, size_t len, const char *fmt, va_list ap)
{
    char raw[2048];
    int n = vsnprintf(raw, sizeof raw, fmt, ap);
    if (n >= (int)sizeof raw) memcpy(raw + sizeof raw - 4, "...", 4);
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)raw; *p && o + 5 < len;) {
        size_t seq = *p < 0x20 || *p == 0x7F ? 0 : pst_utf8_sequence(p, SIZE_MAX);
        if (!seq) {
            o += (size_t)snprintf(out + o, len - o, "\\x%02X", *p++);
        } else if (o + seq < len) {
            memcpy(out + o, p, seq);
            o += seq;
            p += seq;
        } else {
            break;
        }
    }
    out[o] = '\0';
}

/* Hand the message to the fuzzer's trap, if one is set; print it otherwise. */
static void report(int code, const char *prefix, const char *message)
{
    if (exit_trap) exit_trap(code, message);
    fprintf(stderr, "%s%s\n", prefix, message);
}

static noreturn void collective_vexit(int code, const char *fmt, va_list ap)
{
    char message[4096];
    format_message(message, sizeof message, fmt, ap);
    if (world_rank() == 0) {
        char prefix[96];
        snprintf(prefix, sizeof prefix, "%s: error: ", progname);
        report(code, prefix, message);
        if (on_failure) on_failure(code == PST_EXIT_USAGE);
        fflush(stderr);
    } else if (exit_trap) {
        exit_trap(code, message);
    }
    pst_finalize();
    exit(code);
}

void pst_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    collective_vexit(PST_EXIT_USAGE, fmt, ap);
}

void pst_collective_exit(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    collective_vexit(code, fmt, ap);
}

/* MPI_Abort makes the launcher kill every process, and a launcher that forwards stderr through a
 * pipe (MPICH's Hydra, Open MPI's orted) can be killed before it has read what we just wrote: under
 * load the message was lost about once in 40 aborts.  So before aborting, wait (up to 2 s) until the
 * forwarder has drained the pipe, then a little longer for it to pass the text on. */
static void let_stderr_drain(void)
{
    struct stat st;
    if (fstat(fileno(stderr), &st) != 0 || !S_ISFIFO(st.st_mode)) return;
    const struct timespec poll_s = {0, 5 * 1000 * 1000}, grace_s = {0, 100 * 1000 * 1000};
    int unread_bytes = 0;
    for (int polls = 0; polls < 400; polls++) {
        if (ioctl(fileno(stderr), FIONREAD, &unread_bytes) != 0 || unread_bytes == 0) break;
        nanosleep(&poll_s, NULL);
    }
    nanosleep(&grace_s, NULL);
}

void pst_fatal(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char message[4096], prefix[96];
    format_message(message, sizeof message, fmt, ap);
    va_end(ap);
    snprintf(prefix, sizeof prefix, "%s: error (rank %d): ", progname, world_rank());
    report(code, prefix, message);
    if (on_failure) on_failure(code == PST_EXIT_USAGE);
    fflush(stderr);
    let_stderr_drain();
    MPI_Abort(MPI_COMM_WORLD, code);
    exit(code); /* not reached with a conforming MPI */
}

void pst_mpi_failed(int rc, const char *call, const char *file, int line)
{
    char why[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, why, &len) != MPI_SUCCESS) snprintf(why, sizeof why, "error %d", rc);
    const char *slash = strrchr(file, '/');
    pst_fatal(PST_EXIT_FAILED, "MPI call %s failed (%s:%d): %s", call, slash ? slash + 1 : file, line, why);
}

void pst_usage_check_all(const char *local_error)
{
    int rank, size, first, failed, mine = local_error ? 1 : 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&mine, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (!failed) return;
    int candidate = local_error ? rank : INT_MAX;
    MPI_Allreduce(&candidate, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    char message[1024] = "";
    if (rank == first) snprintf(message, sizeof message, "%s", local_error);
    MPI_Bcast(message, (int)sizeof message, MPI_CHAR, first, MPI_COMM_WORLD);
    if (failed == size) pst_usage_error("%s", message);
    pst_usage_error("%s (on rank %d; %d of %d ranks failed this check)", message, first, failed, size);
}

void pst_usage_check_root(const char *root_error)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char message[1024] = "";
    if (rank == 0 && root_error) snprintf(message, sizeof message, "%s", root_error);
    MPI_Bcast(message, (int)sizeof message, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (*message) pst_usage_error("%s", message);
}
