#include "runtime/watchdog.h"

#include "core/errors.h"
#include "core/outfile.h"
#include "runtime/simulation.h"

#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A POSIX timer on CLOCK_MONOTONIC (wall-clock jumps neither fire nor delay it) whose signal
 * handler writes the message and ends the job.  No thread: a helper thread would make
 * pstswm ask the MPI library for thread support, and on some libraries that alone slows every
 * message (docs/pingpong-coll.md).  The message is composed in advance by pst_watchdog_phase;
 * the handler's only call that is not async-signal-safe is rank 0's MPI_Abort, guarded below. */
static struct {
    timer_t timer;
    bool running;
    int rank;
    double timeout_s;
    char message[512];
    volatile sig_atomic_t message_len;
} wd;

static void arm(double wait_s)
{
    struct itimerspec when = {0};
    when.it_value.tv_sec = (time_t)wait_s;
    when.it_value.tv_nsec = (long)((wait_s - (double)when.it_value.tv_sec) * 1e9);
    if (!when.it_value.tv_sec && !when.it_value.tv_nsec) when.it_value.tv_nsec = 1;
    timer_settime(wd.timer, 0, &when, NULL);
}

static void on_timeout(int sig)
{
    (void)sig;
    /* A second expiry means MPI_Abort below did not return within its grace: leave plainly. */
    static volatile sig_atomic_t fired;
    if (fired) _exit(PST_EXIT_TIMEOUT);
    fired = 1;
    ssize_t unused = write(STDERR_FILENO, wd.message, (size_t)wd.message_len);
    size_t note_len;
    const char *note = pst_outfile_kept_note(&note_len);
    if (note_len) unused = write(STDERR_FILENO, note, note_len);
    (void)unused;
    /* Rank 0 ends the job through MPI_Abort: both launchers then report the job with 4.  A plain
     * exit is not enough, because MPICH's Hydra kills the other ranks and reports whichever
     * status it reaps first, sometimes a killed rank's 9 or 1 (3 runs in 120 under load).
     * MPI_Abort is not async-signal-safe, so the timer is armed once more (SA_NODEFER lets it
     * interrupt this handler) and a stuck abort still ends with _exit. */
    if (wd.rank == 0) {
        arm(2.0);
        /* The launcher reads our stderr and the abort on different channels; without a pause it
         * can act on the abort first and drop the message (seen under MPICH with sanitizers). */
        struct timespec drain = {.tv_sec = 0, .tv_nsec = 200000000};
        nanosleep(&drain, NULL);
        MPI_Abort(MPI_COMM_WORLD, PST_EXIT_TIMEOUT);
        _exit(PST_EXIT_TIMEOUT);
    }
    /* The other ranks wait for rank 0's abort; it may have armed its timer up to one timeout
     * later (it entered this phase later).  They end on their own only if it never fires. */
    double wait_s = wd.timeout_s + 3.0;
    struct timespec pause = {.tv_sec = (time_t)wait_s, .tv_nsec = 0};
    nanosleep(&pause, NULL);
    _exit(PST_EXIT_TIMEOUT);
}

static void compose(const char *phase)
{
    /* Block the signal while the message changes, so the handler never sees half of it. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, &old);
    int n = snprintf(wd.message, sizeof wd.message,
                     "%s: error (rank %d): timeout: experiment '%s' ran longer than %g s; aborting\n", pst_progname(),
                     wd.rank, phase, wd.timeout_s);
    wd.message_len = n < 0 ? 0 : n >= (int)sizeof wd.message ? (int)sizeof wd.message - 1 : n;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void pst_watchdog_start(double timeout_s)
{
    /* Simulated ranks share one process and one real clock: a timer signal would hit whichever
     * rank runs, and a simulated hang is a deadlock SMPI reports itself. */
    if (timeout_s <= 0 || wd.running || PST_IS_SIMULATED) return;
    wd.timeout_s = timeout_s;
    MPI_Comm_rank(MPI_COMM_WORLD, &wd.rank);
    struct sigaction sa = {0};
    sa.sa_handler = on_timeout;
    sa.sa_flags = SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct sigevent ev = {0};
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = SIGALRM;
    if (timer_create(CLOCK_MONOTONIC, &ev, &wd.timer) != 0)
        pst_fatal(PST_EXIT_FAILED, "watchdog: cannot create a timer");
    wd.running = true;
    compose("start-up");
    arm(wd.timeout_s);
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
    arm(wd.timeout_s);
}

void pst_watchdog_stop(void)
{
    if (!wd.running) return;
    timer_delete(wd.timer);
    wd.running = false;
}
