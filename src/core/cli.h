/* Table-driven command-line parsing shared by every subcommand, with generated --help.
 * Every rank parses the same argv identically, so errors are reported collectively
 * (pst_usage_error: rank 0 prints one message, all ranks exit 2). */
#ifndef PST_CLI_H
#define PST_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum pst_opt_kind {
    PST_OPT_FLAG,    /* bool*            --name                              */
    PST_OPT_INT,     /* long long*       --name 42                           */
    PST_OPT_DOUBLE,  /* double*          --name 0.5                          */
    PST_OPT_STRING,  /* const char**     --name text                         */
    PST_OPT_SIZE,    /* long long*       --name 4M (bytes; K/M/G = 1024^k)   */
    PST_OPT_SIZES,   /* pst_int_list*    --name 8,64,1K:4M (ranges double)   */
    PST_OPT_INTS,    /* pst_int_list*    --name 1,10:90:+10                  */
    PST_OPT_STRINGS, /* pst_str_list*    --name a,b,c                        */
} pst_opt_kind;

typedef struct pst_int_list { size_t n; long long *v; } pst_int_list;
typedef struct pst_str_list { size_t n; char **v; } pst_str_list;

typedef struct pst_opt {
    const char *name;            /* long name without "--"; NULL ends the table */
    pst_opt_kind kind;
    void *dest;                  /* holds the default on entry */
    const char *metavar;
    const char *help;
    double min, max;             /* inclusive bounds for numbers and list elements; ignored if min > max */
    const char *const *choices;  /* allowed values of STRING / STRINGS elements (NULL-terminated), or NULL */
    /* The default --help shows when dest holds no value the option accepts (an empty list the
     * command fills in later, NULL, a number outside min ... max): a value the option accepts,
     * optionally followed by "; " and a note.  NULL when dest's own value is the default, or
     * when the default depends on other options and the help text explains it. */
    const char *default_text;
} pst_opt;

typedef struct pst_command {
    const char *name;         /* subcommand, e.g. "swap" */
    const char *summary;      /* one line */
    const char *description;  /* free text printed after the options, may be NULL */
    const char *examples;     /* printed last, may be NULL */
    const pst_opt *opts;
} pst_command;

/* Parse argv[1..argc) (argv[0] is the subcommand).  On --help: rank 0 prints the help, all
 * ranks exit 0.  On any error: collective usage error naming the option and the allowed range. */
void pst_cli_parse(const pst_command *cmd, int argc, char **argv);
/* fn(arg) runs once pst_cli_parse has applied every option: the run context arms the watchdog
 * there, so the set-up that follows parsing (FFTW plans, input files, communicators) is guarded. */
void pst_cli_on_parsed(void (*fn)(void *), void *arg);
/* Each option's help line ends with "(default V)": V is the value dest holds before parsing
 * (the options struct's initialiser), or default_text when that value is none. */
void pst_cli_print_help(const pst_command *cmd, FILE *f);
/* "--name value" for every option of the command parsed last, as it holds now ("--name" alone
 * when it holds no value).  Once the command has validated its options and filled in what they
 * left unset, these are the settings it runs with: in-process tests compare runs by them. */
void pst_cli_print_values(FILE *f);

/* Building blocks, also used for custom validation and unit tests.  They return 0 on success
 * or -1 with a message in err. */
int pst_parse_int(const char *s, long long *out, char *err, size_t errlen);
int pst_parse_double(const char *s, double *out, char *err, size_t errlen);
int pst_parse_size(const char *s, long long *out, char *err, size_t errlen);
/* Comma-separated items; an item is VALUE, LO:HI (doubling), LO:HI:xF (times F) or LO:HI:+S. */
int pst_parse_list(const char *s, bool sizes, pst_int_list *out, char *err, size_t errlen);
int pst_parse_strings(const char *s, pst_str_list *out, char *err, size_t errlen);

/* A processor grid "PXxPY", each at least 1 and PX*PY at most INT_MAX. */
int pst_parse_grid(const char *s, int *px, int *py, char *err, size_t errlen);
/* Decimal digits at *p (no sign) as a count at most max; advances *p.  False when there are
 * none or the value passes max (checked, so no overflow). */
bool pst_scan_count(const char **p, long long max, long long *out);

void pst_int_list_set(pst_int_list *l, size_t n, const long long *v);
void pst_int_list_free(pst_int_list *l);
void pst_str_list_free(pst_str_list *l);
bool pst_str_list_has(const pst_str_list *l, const char *s);

/* A byte count as a size option takes it: 8, 4K, 2M (exact binary multiples) or plain bytes. */
const char *pst_format_bytes(long long bytes, char *buf, size_t buflen);

#endif
