/* Every default --help prints is the one the command runs with.  For each subcommand and each
 * option whose help line says "(default V)", the command run with --option V must hold, once it
 * has validated its options and filled in what they left unset, the same settings as the command
 * run with no options (pst_cli_print_values: every option's value).  V is what --help prints, up
 * to a "; " that starts a note.  In process on 2 ranks (the benchmarks need a pair), each command
 * stopped where its set-up would begin (pst_ctx_validated) through the exit trap: seconds for all.
 *
 * A few options keep "unset" through validation and act on it later (kernel --stages empty means
 * both stages): their own value cannot be compared, only that passing the default changes no
 * other setting.  They are listed in `unobservable`; any other option whose value stays unset is a
 * failure, since its default would go unchecked. */
#include "cmd/commands.h"
#include "core/cli.h"
#include "core/errors.h"

#include <mpi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>



/* Options the command leaves unset after validation, deriving their default later. */
static const char *const unobservable[] = {"kernel --algorithms", "kernel --stages", "kernel --overlap",
                                           "model --preset", NULL};

static jmp_buf trap_env;
static int trap_code;
static char trap_message[1024];
static char *held;   /* pst_cli_print_values at the validated stop */
static size_t held_len;

/* Help and usage errors stop here; so does pst_ctx_validated (code 0, the subcommand's name),
 * where the command's options struct is still alive: its settings are copied first. */
static void stop(int code, const char *message)
{
    trap_code = code;
    snprintf(trap_message, sizeof trap_message, "%s", message);
    if (code == 0 && strcmp(message, "help") != 0) {
        free(held);
        FILE *f = open_memstream(&held, &held_len);
        pst_cli_print_values(f);
        fclose(f);
    }
    longjmp(trap_env, 1);
}

/* Run command c with argv, its output discarded; the settings it validated (NULL if it stopped
 * anywhere else, with the message in trap_message). */
static char *settings(size_t c, int argc, char **argv)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    FILE *devnull = fopen("/dev/null", "w");
    dup2(fileno(devnull), STDOUT_FILENO);
    free(held);
    held = NULL;
    trap_code = -1;
    if (!setjmp(trap_env)) pst_subcommand_run(pst_subcommands[c], argc, argv);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    fclose(devnull);
    char *got = trap_code == 0 ? held : NULL;
    held = NULL;
    return got;
}

/* Command c's --help as rank 0 prints it, on every rank. */
static char *help_text(size_t c)
{
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), STDOUT_FILENO);
    char *argv[] = {(char *)pst_subcommands[c]->name, "--help", NULL};
    if (!setjmp(trap_env)) pst_subcommand_run(pst_subcommands[c], 2, argv);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    long len = ftell(tmp);
    MPI_Bcast(&len, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    char *text = calloc((size_t)len + 1, 1);
    rewind(tmp);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0 && fread(text, 1, (size_t)len, tmp) != (size_t)len) text[0] = '\0';
    MPI_Bcast(text, (int)len, MPI_CHAR, 0, MPI_COMM_WORLD);
    fclose(tmp);
    return text;
}

/* The line "--name value" of a pst_cli_print_values text, without its line end. */
static void setting_of(const char *values, const char *name, char *out, size_t len)
{
    char key[96];
    snprintf(key, sizeof key, "--%s ", name);
    const char *at = values;
    while (at && strncmp(at, key, strlen(key)) != 0) at = (at = strchr(at, '\n')) ? at + 1 : NULL;
    snprintf(out, len, "%.*s", at ? (int)strcspn(at, "\n") : 0, at ? at : "");
}

static bool listed_unobservable(const char *command, const char *name)
{
    char key[128];
    snprintf(key, sizeof key, "%s --%s", command, name);
    for (const char *const *u = unobservable; *u; u++)
        if (!strcmp(*u, key)) return true;
    return false;
}

/* Every setting but --name's must match; --name's too unless the baseline leaves it unset. */
static int compare(const char *command, const char *name, const char *value, const char *base, const char *got)
{
    int failures = 0;
    for (const char *line = base; *line; line += strcspn(line, "\n") + 1) {
        char opt[96], want[4096], have[4096];
        snprintf(opt, sizeof opt, "%.*s", (int)strcspn(line + 2, " \n"), line + 2);
        setting_of(base, opt, want, sizeof want);
        setting_of(got, opt, have, sizeof have);
        bool own = !strcmp(opt, name), unset = want[strlen(opt) + 3] == '\0';
        if (own && unset) {
            if (!listed_unobservable(command, name)) {
                printf("FAIL %s --%s: the default '%s' cannot be checked: the option is still unset after validation\n",
                       command, name, value);
                failures++;
            }
            continue;
        }
        if (strcmp(want, have) != 0) {
            printf("FAIL %s --%s %s: '%s' with it, '%s' without\n", command, name, value, have, want);
            failures++;
        }
    }
    return failures;
}

/* Check every "(default V)" of command c's --help; returns the failures. */
static int check_command(size_t c, int *checked)
{
    const char *command = pst_subcommands[c]->name;
    char *argv0[] = {(char *)command, NULL};
    char *base = settings(c, 1, argv0);
    if (!base) {
        printf("FAIL %s with no options stopped with exit %d: %s\n", command, trap_code, trap_message);
        return 1;
    }
    char *help = help_text(c);
    int failures = 0;
    for (char *line = strtok(help, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, "  --", 4) != 0) continue;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(line + 4, " "), line + 4);
        const char *def = strstr(line, "(default ");
        if (!def) continue;
        if (strstr(def + 1, "(default ")) {
            printf("FAIL %s --%s: two defaults in one line: %s\n", command, name, line);
            failures++;
            continue;
        }
        def += strlen("(default ");
        char value[512];
        size_t n = strcspn(def, ")");
        const char *note = strstr(def, "; ");
        if (note && (size_t)(note - def) < n) n = (size_t)(note - def);
        snprintf(value, sizeof value, "%.*s", (int)n, def);
        char option[80];
        snprintf(option, sizeof option, "--%s", name);
        char *argv[] = {(char *)command, option, value, NULL};
        char *got = settings(c, 3, argv);
        (*checked)++;
        if (!got) {
            printf("FAIL %s --%s %s: refused (exit %d): %s\n", command, name, value, trap_code, trap_message);
            failures++;
            continue;
        }
        failures += compare(command, name, value, base, got);
        free(got);
    }
    free(help);
    free(base);
    return failures;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0 && !freopen("/dev/null", "w", stdout)) return 1; /* one report, rank 0's */
    /* Every parse arms the watchdog; its signal stays pending instead of ending the test. */
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGALRM);
    sigprocmask(SIG_BLOCK, &block, NULL);
    pst_set_exit_trap(stop);
    int failures = 0, checked = 0;
    for (size_t c = 0; c < pst_nsubcommands; c++) failures += check_command(c, &checked);
    pst_set_exit_trap(NULL);
    printf("%d defaults checked, %d failures\n", checked, failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
