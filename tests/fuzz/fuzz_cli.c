/* In-process argument fuzzer: thousands of seeded command lines through every subcommand's
 * option table and validators in one MPI process (a launch per case would take hours).  Each
 * command stops where its set-up would begin (pst_ctx_validated) or at its usage error, through
 * the exit trap of core/errors.h.  What every case must give:
 *   - exit 2 (invalid) or 0 (valid) — never exit 3, a signal or a sanitizer report;
 *   - a usage error is one line naming what is wrong.
 * The option names come from each command's --help, so new options are fuzzed without edits.
 *   fuzz_cli [CASES [SEED]]      (defaults 4000 and the date of writing; printed for replay) */
#include "cmd/commands.h"
#include "core/errors.h"
#include "../exit_trap.h"

#include <mpi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


enum { MAX_CMD = 16, MAX_OPTS = 64 };
#define NCMD ((int)pst_nsubcommands)

static char *options[MAX_CMD][MAX_OPTS];
static int nopts[MAX_CMD];

/* Run one command line; returns the trapped code (-1 if the command returned by itself). */
static int run(int c, int argc, char **argv)
{
    trap_code = -1;
    if (!setjmp(trap_env)) pst_subcommand_run(pst_subcommands[c], argc, argv);
    return trap_code;
}

/* Each command's option names, from its --help (stdout captured in a temporary file). */
static void discover_options(void)
{
    for (int c = 0; c < NCMD; c++) {
        fflush(stdout);
        int saved = dup(STDOUT_FILENO);
        FILE *tmp = tmpfile();
        dup2(fileno(tmp), STDOUT_FILENO);
        char *argv[] = {(char *)pst_subcommands[c]->name, "--help", NULL};
        run(c, 2, argv);
        fflush(stdout);
        dup2(saved, STDOUT_FILENO);
        close(saved);
        rewind(tmp);
        char line[1024];
        while (fgets(line, sizeof line, tmp) && nopts[c] < MAX_OPTS) {
            char *o = strstr(line, "  --");
            if (!o || o != line) continue;
            o += 4;
            size_t len = strcspn(o, " \n=");
            if (!strncmp(o, "help", len)) continue;
            options[c][nopts[c]++] = strndup(o, len);
        }
        fclose(tmp);
    }
}

static uint64_t rng;
static uint64_t next(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1DULL;
}

/* Values at and past every limit, empty and duplicate list items, and text that is not a number. */
static const char *const values[] = {
    "0", "1", "2", "3", "-1", "7", "8", "16", "1023", "1024", "4K", "64K", "1M", "4M", "64M", "1G", "1T",
    "2147483647", "2147483648", "4294967296", "4294967297", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "1e308", "1e309", "-1e308", "1e-300", "nan", "inf", "-inf", "0x10", "1.5", "1e9", "2e9",
    ",", "1,", ",1", "1,,2", "8,8", "1,0", "8:4M", "4M:8", "1:0", "0:1", "1:64:x4", "1:64:x0", "1:64:+0",
    "1:9223372036854775807:+9223372036854775807", "8:4M:x2", "1:2:3:4", "2x1", "1x1", "1x2", "0x0", "4294967297x1",
    "1x", "x1", "2x2x2", "all", "none", "mpi", "rma", "shmem", "bogus", "single", "funneled", "multiple", "0,6", "3,1",
    "0,0", "9,9", "0,", ",6", "coll", "dfft", "ringpipe", "logtrans", "exchsum", "gen", "opt", "DTH", "pi/4",
    "1e308*pi", "2*pi/3", "-pi", "estimate", "patient", "uni", "bi", "uni,uni", "send,send", "allreduce,bcast",
    "T42L16@8x8", "T0L0@0x0", "T99999L1@1x1", "/nonexistent/x", "/dev/null", "/", "\xff\xfe", "a\tb", "", " ",
    "--", "-", "=",
};
enum { NVALUES = sizeof values / sizeof *values };

static char *random_value(char *buf, size_t len)
{
    switch (next() % 16) {
    case 0: { /* a long run of one character (a 2000-quote value once deadlocked the error path) */
        size_t n = 1 + next() % (len - 1);
        memset(buf, "'\",9x"[next() % 5], n);
        buf[n] = '\0';
        return buf;
    }
    case 1: { /* random bytes */
        size_t n = 1 + next() % 24;
        for (size_t k = 0; k < n; k++) buf[k] = (char)(1 + next() % 255);
        buf[n] = '\0';
        return buf;
    }
    default: return strcpy(buf, values[next() % NVALUES]);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    long cases = argc > 1 ? atol(argv[1]) : 4000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 20261124;
    rng = seed ? seed : 1;
    /* The watchdog is armed by every parse; its signal stays pending here instead of ending the
     * fuzzer when a case asks for a tiny --timeout. */
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, NULL);
    if (NCMD > MAX_CMD) return 1;
    pst_set_exit_trap(exit_trap);
    discover_options();
    int total_opts = 0;
    for (int c = 0; c < NCMD; c++) total_opts += nopts[c];
    int failures = 0;
    long outcome[2] = {0, 0};
    /* Quiet: the commands print headers and refusals; the fuzzer reports only failures. */
    FILE *devnull = fopen("/dev/null", "w");
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    dup2(fileno(devnull), STDOUT_FILENO);
    dup2(fileno(devnull), STDERR_FILENO);
    FILE *report = fdopen(saved_err, "w");
    for (long k = 0; k < cases; k++) {
        int c = (int)(next() % NCMD);
        enum { MAXARG = 12 };
        static char storage[MAXARG][2100];
        char *args[MAXARG + 1] = {(char *)pst_subcommands[c]->name};
        int n = 1;
        for (int o = (int)(next() % 5); o > 0 && n + 2 <= MAXARG; o--) {
            uint64_t pick = next() % 20;
            const char *name = pick == 0 ? "bogus" : pick == 1 && n > 1 ? NULL : options[c][next() % (uint64_t)nopts[c]];
            if (!name) { /* a repeated option */
                args[n] = args[n - 2 > 0 ? n - 2 : 1];
                n++;
                continue;
            }
            bool glued = next() % 4 == 0;
            char value[2048];
            random_value(value, sizeof value);
            if (glued) {
                snprintf(storage[n], sizeof storage[n], "--%s=%s", name, value);
                args[n] = storage[n];
                n++;
            } else {
                snprintf(storage[n], sizeof storage[n], "--%s", name);
                args[n] = storage[n];
                n++;
                if (next() % 8) {
                    snprintf(storage[n], sizeof storage[n], "%s", value);
                    args[n] = storage[n];
                    n++;
                }
            }
        }
        args[n] = NULL;
        /* --out and --write-fields are opened only past the trap point, or checked and removed. */
        int code = run(c, n, args);
        bool ok = code == 0 || (code == PST_EXIT_USAGE && trap_message[0] && !strchr(trap_message, '\n'));
        if (code == 0 || code == PST_EXIT_USAGE) outcome[code == PST_EXIT_USAGE]++;
        if (!ok) {
            failures++;
            fprintf(report, "FAIL seed %llu case %ld: exit %d '%s' for: pstswm", (unsigned long long)seed, k, code,
                    trap_message);
            for (int a = 0; a < n; a++) fprintf(report, " '%s'", args[a]);
            fputc('\n', report);
        }
    }
    dup2(saved_out, STDOUT_FILENO);
    printf("fuzz_cli: seed %llu, %ld cases over %d options of %d commands: %ld valid (exit 0), %ld refused (exit 2), "
           "%d failures\n", (unsigned long long)seed, cases, total_opts, NCMD, outcome[0], outcome[1], failures);
    fflush(report);
    pst_set_exit_trap(NULL);
    MPI_Finalize();
    return failures || total_opts < 6 * NCMD || !outcome[0] || !outcome[1] ? 1 : 0;
}
