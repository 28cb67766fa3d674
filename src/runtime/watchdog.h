/* Watchdog: a monotonic timer ends the process with exit 4 when one experiment runs longer than
 * allowed, naming the experiment, so a stuck protocol gives a message instead of a hang.  Every
 * rank has its own timer; the launcher ends the job when the first rank leaves. */
#ifndef PST_WATCHDOG_H
#define PST_WATCHDOG_H

void pst_watchdog_start(double timeout_s); /* 0 disables */
/* Name the experiment now running and re-arm the deadline. Cheap; call outside timed loops. */
void pst_watchdog_phase(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pst_watchdog_stop(void);

#endif
