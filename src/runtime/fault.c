#include "runtime/fault.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/errors.h"

#define DELAY_VAR "PSTSWM_FAULT_DELAY_US"
#define MAX_DELAY_US 1000000L

static double delay_s; /* set by pst_fault_check: 0 unless the variable asks for a delay */

void pst_fault_check(void)
{
    const char *text = getenv(DELAY_VAR);
    static char error[160];
    const char *problem = NULL;
    delay_s = 0;
    if (text && *text) {
        char *end;
        errno = 0;
        long us = strtol(text, &end, 10);
        if (errno || *end || us < 0 || us > MAX_DELAY_US) {
            snprintf(error, sizeof error, "%s=%.40s: expected whole microseconds, 0 to %ld", DELAY_VAR, text,
                     MAX_DELAY_US);
            problem = error;
        } else delay_s = (double)us * 1e-6;
    }
    pst_usage_check_all(problem);
}

void pst_fault_delay(void)
{
    if (delay_s <= 0) return;
    double until = MPI_Wtime() + delay_s;
    while (MPI_Wtime() < until) {
    }
}
