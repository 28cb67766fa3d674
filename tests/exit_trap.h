/* The exit trap of core/errors.h for tests that run commands or records in-process: a failure
 * exit lands here with its code and message instead of ending the process.  Arm it with
 * pst_set_exit_trap(exit_trap) and `if (!setjmp(trap_env)) ...`. */
#ifndef PST_TEST_EXIT_TRAP_H
#define PST_TEST_EXIT_TRAP_H

#include <setjmp.h>
#include <stdio.h>

static jmp_buf trap_env;
static int trap_code;
static char trap_message[1024];

static void exit_trap(int code, const char *message)
{
    trap_code = code;
    snprintf(trap_message, sizeof trap_message, "%s", message);
    longjmp(trap_env, 1);
}

#endif
