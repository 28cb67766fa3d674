/* --reproducible (pstswm model and kernel) and the run header's list of the run-time choices
 * that can change the rounding (docs/model.md: Reproducibility).
 *
 * A choice is fixed (named by an option, or by --reproducible), follows from the configuration
 * (the problem and the options: the same in every launch of the same command), made by the CPU
 * (a library's kernels for this processor: the same on one machine) or made by timing at set-up
 * (it may differ from launch to launch, and with it the last bits of the results).  The header
 * lists every one, so two records show why they differ. */
#ifndef PST_CMD_REPRODUCIBLE_H
#define PST_CMD_REPRODUCIBLE_H

#include "core/cli.h"
#include "core/record.h"
#include "core/schema.h"
#include "runtime/context.h"

#include <stdbool.h>

/* How a choice was made: the header's rounding_choices[].how. */
#define PST_CHOICE_FIXED "fixed"
#define PST_CHOICE_CONFIGURED "configured"
#define PST_CHOICE_CPU "cpu"
#define PST_CHOICE_WISDOM "wisdom"
#define PST_CHOICE_TIMED "timed"

enum { PST_CHOICES_MAX = 16, PST_CHOICE_VALUE_MAX = 160 };

typedef struct pst_choice {
    const char *name;
    const char *how;
    char value[PST_CHOICE_VALUE_MAX];
} pst_choice;

typedef struct pst_choices {
    bool reproducible;
    int n;
    pst_choice row[PST_CHOICES_MAX];
} pst_choices;

/* The run header's fields: reproducible and rounding_choices. */
extern const pst_fields pst_reproducible_header_fields;

/* Appends a choice (value printf-style). */
void pst_choices_add(pst_choices *ch, const char *name, const char *how, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void pst_choices_rec(pst_rec *r, const pst_choices *ch);
/* One line for the text output: "  rounding choices fftw_plan estimate (fixed), ...". */
void pst_choices_print(const pst_choices *ch);

/* --reproducible's rule for a string option whose value "auto" chooses by timing: auto given on
 * the command line is refused (exit 2, naming the option's other choices, read from its table in
 * opts); left at its default auto, the option's first named choice.  Otherwise the value as given.
 * default_value: the option's default (given: the parser stored another pointer). */
const char *pst_reproducible_named(const pst_opt *opts, const char *option, const char *value,
                                   const char *default_value);

/* --reproducible's FFTW planner effort: estimate unless --fftw-wisdom names the plans' file;
 * another effort given without a wisdom file is refused (exit 2). */
const char *pst_reproducible_fftw_plan(const char *value, const char *default_value, const char *wisdom);

#endif
