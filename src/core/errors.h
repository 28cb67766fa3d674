/* Exit codes and error reporting that never leaves a rank hanging. */
#ifndef PST_ERRORS_H
#define PST_ERRORS_H

#include <mpi.h>
#include <stdbool.h>
#include <stdnoreturn.h>

enum pst_exit {
    PST_EXIT_OK = 0,
    PST_EXIT_USAGE = 2,    /* invalid command line or input */
    PST_EXIT_FAILED = 3,   /* run failed: payload corruption, numerical blow-up */
    PST_EXIT_TIMEOUT = 4,  /* watchdog fired */
};

/* Collective: every rank of MPI_COMM_WORLD must call it (all ranks parse the same command
 * line, so all detect the same error). Rank 0 prints "pstswm: error: ..." once, every rank
 * finalizes MPI and exits with PST_EXIT_USAGE. */
noreturn void pst_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Collective: a check whose outcome can differ between ranks (a node-local path, a file
 * system that one node sees differently).  Every rank passes its own result: NULL when fine,
 * else the message.  If any rank failed, rank 0 prints the lowest failing rank's message (naming
 * that rank when not every rank failed) and every rank exits with PST_EXIT_USAGE. */
void pst_usage_check_all(const char *local_error);

/* Collective: a check only rank 0 makes (a file only rank 0 writes).  Rank 0 passes NULL or the
 * message, the others anything; on a message every rank exits with PST_EXIT_USAGE. */
void pst_usage_check_root(const char *root_error);

/* Collective failure with a chosen exit code (e.g. verification failed on some rank, already
 * agreed via a reduction). Rank 0 prints the message. */
noreturn void pst_collective_exit(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Local, non-collective failure: print with the rank and abort the whole job with `code`. */
noreturn void pst_fatal(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The one handling of an MPI call's return code: on failure, exit 3 naming the call, where it is
 * and MPI's own error string.  MPI keeps aborting on errors by default (MPI_ERRORS_ARE_FATAL);
 * this matters for calls on communicators, windows and files the project gives
 * MPI_ERRORS_RETURN.  The success test stays inline: transports call it in their timed loops. */
#define PST_MPI_CHECK(call)                                                   \
    do {                                                                      \
        int pst_mpi_rc_ = (call);                                             \
        if (pst_mpi_rc_ != MPI_SUCCESS) pst_mpi_failed(pst_mpi_rc_, #call, __FILE__, __LINE__); \
    } while (0)
noreturn void pst_mpi_failed(int rc, const char *call, const char *file, int line);

/* Finalize MPI, after the shutdown steps registered with pst_at_finalize (latest first), unless
 * one of them already finalized it (OpenSHMEM's shmem_finalize does).  Use instead of
 * MPI_Finalize. */
void pst_finalize(void);
void pst_at_finalize(void (*fn)(void));

/* The in-process fuzzer's seam (tests/fuzz): when a trap is set, every exit above hands its code
 * and message to it instead of printing and leaving, and pst_exit_trap_point(0, ...) reaches it
 * when a command has validated its input.  The trap must not return (it longjmps). */
typedef void (*pst_exit_trap)(int code, const char *message);
void pst_set_exit_trap(pst_exit_trap trap);
void pst_exit_trap_point(int code, const char *message); /* returns when no trap is set */

/* fn(usage) runs on rank 0 before a failure exit (usage: exit 2); the record file registers here
 * so that invalid input leaves no file and a failed run keeps its records. */
void pst_on_failure(void (*fn)(bool usage));

/* Program name used as the message prefix ("pstswm swap"). */
void pst_set_progname(const char *name);
const char *pst_progname(void);

#endif
