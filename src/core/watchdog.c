#include "core/watchdog.h"

#include "core/errors.h"
#include "core/outfile.h"

#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A POSIX timer on CLOCK_MONOTONIC (wall-clock jumps neither fire nor delay it) whose signal
 * handler writes the message and leaves the process.  No thread: a helper thread would make
 * pstswm ask the MPI library for thread support, and on some libraries that alone slows every
 * message (docs/pingpong-coll.md).  The handler uses only async-signal-safe calls; the message
 * is composed in advance by pst_watchdog_phase. */
static struct {
    timer_t timer;
    bool running;
    int rank;
    double timeout_s;
    char message[512];
    volatile sig_atomic_t message_len;
} wd;

static void on_timeout(int sig)
{
    (void)sig;
    ssize_t unused = write(STDERR_FILENO, wd.message, (size_t)wd.message_len);
    size_t note_len;
    const char *note = pst_outfile_kept_note(&note_len);
    if (note_len) unused = write(STDERR_FILENO, note, note_len);
    (void)unused;
    /* Every rank's timer fires at about the same time.  The other ranks leave rank 0 a moment to
     * say where the records are and to exit first: a launcher that ends the job on the first
     * exit (MPICH's Hydra) would otherwise kill rank 0 mid-message, and report the job with
     * its own exit code instead of 4. */
    if (wd.rank != 0) {
        struct timespec pause = {.tv_sec = 0, .tv_nsec = 300000000};
        nanosleep(&pause, NULL);
    }
    _exit(PST_EXIT_TIMEOUT);
}

static void arm(void)
{
    struct itimerspec when = {0};
    when.it_value.tv_sec = (time_t)wd.timeout_s;
    when.it_value.tv_nsec = (long)((wd.timeout_s - (double)when.it_value.tv_sec) * 1e9);
    if (!when.it_value.tv_sec && !when.it_value.tv_nsec) when.it_value.tv_nsec = 1;
    timer_settime(wd.timer, 0, &when, NULL);
}

static void compose(const char *phase)
{
    /* Block the signal while the message changes, so the handler never sees half of it. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old);
    int n = snprintf(wd.message, sizeof wd.message,
                     "%s: error (rank %d): timeout: experiment '%s' ran longer than %g s; aborting\n", pst_progname(), wd.rank,
                     phase, wd.timeout_s);
    wd.message_len = n < 0 ? 0 : n >= (int)sizeof wd.message ? (int)sizeof wd.message - 1 : n;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void pst_watchdog_start(double timeout_s)
{
    if (timeout_s <= 0 || wd.running) return;
    wd.timeout_s = timeout_s;
    MPI_Comm_rank(MPI_COMM_WORLD, &wd.rank);
    struct sigaction sa = {0};
    sa.sa_handler = on_timeout;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct sigevent ev = {0};
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGALRM;
    if (timer_create(CLOCK_MONOTONIC, &ev, &wd.timer) != 0) pst_fatal(PST_EXIT_FAILED, "watchdog: cannot create a timer");
    wd.running = true;
    compose("start-up");
    arm();
}

void pst_watchdog_phase(const char *fmt, ...)
{
    if (!wd.running) return;
    char phase[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(phase, sizeof phase, fmt, ap);
    va_end(ap);
    compose(phase);
    arm();
}

void pst_watchdog_stop(void)
{
    if (!wd.running) return;
    timer_delete(wd.timer);
    wd.running = false;
}
