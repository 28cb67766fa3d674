#include "core/watchdog.h"

#include "core/errors.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static struct {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool running, stop;
    double timeout_s;
    struct timespec deadline;
    char phase[256];
} wd = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .phase = "start-up"};

static void arm(void)
{
    clock_gettime(CLOCK_REALTIME, &wd.deadline);
    double whole = (double)(long long)wd.timeout_s;
    wd.deadline.tv_sec += (time_t)whole;
    wd.deadline.tv_nsec += (long)((wd.timeout_s - whole) * 1e9);
    if (wd.deadline.tv_nsec >= 1000000000L) { wd.deadline.tv_sec++; wd.deadline.tv_nsec -= 1000000000L; }
}

static void *watch(void *unused)
{
    pthread_mutex_lock(&wd.lock);
    while (!wd.stop) {
        int rc = pthread_cond_timedwait(&wd.wake, &wd.lock, &wd.deadline);
        if (rc == ETIMEDOUT && !wd.stop) {
            struct timespec now;
            clock_gettime(CLOCK_REALTIME, &now);
            if (now.tv_sec > wd.deadline.tv_sec ||
                (now.tv_sec == wd.deadline.tv_sec && now.tv_nsec >= wd.deadline.tv_nsec)) {
                int rank = 0;
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);
                fprintf(stderr, "%s: error (rank %d): timeout: experiment '%s' ran longer than %g s; aborting\n",
                        pst_progname(), rank, wd.phase, wd.timeout_s);
                fflush(stderr);
                /* The main thread is stuck inside MPI; abort is the only way out. If the MPI
                 * cannot abort from this thread, leave the process anyway. */
                MPI_Abort(MPI_COMM_WORLD, PST_EXIT_TIMEOUT);
                _exit(PST_EXIT_TIMEOUT);
            }
        }
    }
    pthread_mutex_unlock(&wd.lock);
    return NULL;
}

void pst_watchdog_start(double timeout_s)
{
    if (timeout_s <= 0 || wd.running) return;
    wd.timeout_s = timeout_s;
    wd.stop = false;
    arm();
    wd.running = pthread_create(&wd.thread, NULL, watch, NULL) == 0;
}

void pst_watchdog_phase(const char *fmt, ...)
{
    pthread_mutex_lock(&wd.lock);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(wd.phase, sizeof wd.phase, fmt, ap);
    va_end(ap);
    if (wd.running) arm();
    pthread_mutex_unlock(&wd.lock);
}

void pst_watchdog_stop(void)
{
    if (!wd.running) return;
    pthread_mutex_lock(&wd.lock);
    wd.stop = true;
    pthread_cond_signal(&wd.wake);
    pthread_mutex_unlock(&wd.lock);
    pthread_join(wd.thread, NULL);
    wd.running = false;
}
