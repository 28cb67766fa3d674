#include "cmd/common/reproducible.h"

#include "core/errors.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const pst_field choice_row[] = {
    {"choice", PST_F_STR, NULL,
     "what was chosen: fftw_plan, blas, blas_kernels, legendre_kernel, level_block, pair_chunk, chain_levels (model); "
     "fftw_plan, blas, legendre_kernel (kernel)",
     false, NULL},
    {"value", PST_F_STR, NULL, "what it was: the FFTW effort, the library or kernel's name, the size", false, NULL},
    {"how", PST_F_STR, NULL,
     "fixed (named by an option or by --reproducible), configured (follows from the problem and the options), cpu (the "
     "library's kernels for this processor), wisdom (FFTW plans read from --fftw-wisdom) or timed (chosen by timing at "
     "set-up: may differ between launches, and the results' last bits with it)",
     false, NULL},
};
static const pst_fields choice_row_fields = PST_FIELDS("rounding choice", choice_row);

static const pst_field header[] = {
    {"reproducible", PST_F_BOOL, NULL,
     "--reproducible: every choice that can change the rounding was fixed (none is timed), so launches of the same "
     "command on the same machine, decomposition and method compute the same bits (docs/model.md: Reproducibility); "
     "absent before pstswm had it",
     true, NULL},
    {"rounding_choices", PST_F_OBJS, NULL,
     "each run-time choice that can change the results' rounding, its value and how it was made; absent before pstswm "
     "had --reproducible",
     true, &choice_row_fields},
};
const pst_fields pst_reproducible_header_fields = PST_FIELDS("reproducibility", header);

void pst_choices_add(pst_choices *ch, const char *name, const char *how, const char *fmt, ...)
{
    if (ch->n == PST_CHOICES_MAX) pst_fatal(PST_EXIT_FAILED, "rounding choices: more than %d", PST_CHOICES_MAX);
    pst_choice *row = &ch->row[ch->n++];
    row->name = name;
    row->how = how;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(row->value, sizeof row->value, fmt, ap);
    va_end(ap);
}

void pst_choices_rec(pst_rec *r, const pst_choices *ch)
{
    pst_rec_bool(r, "reproducible", ch->reproducible);
    pst_rec_list_begin(r, "rounding_choices");
    for (int k = 0; k < ch->n; k++) {
        pst_rec_obj_begin(r, NULL);
        pst_rec_str(r, "choice", ch->row[k].name);
        pst_rec_str(r, "value", ch->row[k].value);
        pst_rec_str(r, "how", ch->row[k].how);
        pst_rec_obj_end(r);
    }
    pst_rec_list_end(r);
}

void pst_choices_print(const pst_choices *ch)
{
    printf("  rounding        %s:", ch->reproducible ? "--reproducible" : "choices");
    for (int k = 0; k < ch->n; k++)
        printf("%s %s %s (%s)", k ? "," : "", ch->row[k].name, ch->row[k].value, ch->row[k].how);
    printf("\n");
}

static const pst_opt *find_opt(const pst_opt *opts, const char *name)
{
    for (; opts->name; opts++)
        if (!strcmp(opts->name, name)) return opts;
    pst_fatal(PST_EXIT_FAILED, "--reproducible: no option --%s", name);
}

const char *pst_reproducible_named(const pst_opt *opts, const char *option, const char *value,
                                   const char *default_value)
{
    if (strcmp(value, "auto")) return value;
    const pst_opt *o = find_opt(opts, option);
    const char *first = NULL;
    char named[256] = "";
    for (const char *const *c = o->choices; c && *c; c++) {
        if (!strcmp(*c, "auto")) continue;
        if (!first) first = *c;
        size_t used = strlen(named);
        snprintf(named + used, sizeof named - used, "%s%s", used ? ", " : "", *c);
    }
    if (!first) pst_fatal(PST_EXIT_FAILED, "--reproducible: --%s has no named choice", option);
    if (value != default_value)
        pst_usage_error("--reproducible: --%s auto chooses by timing at set-up; name one of %s", option, named);
    return first;
}

const char *pst_reproducible_fftw_plan(const char *value, const char *default_value, const char *wisdom)
{
    if (wisdom || !strcmp(value, "estimate")) return value;
    if (value != default_value)
        pst_usage_error("--reproducible: --fftw-plan %s times the FFTW plans at set-up; give --fftw-plan estimate or "
                        "--fftw-wisdom FILE", value);
    return "estimate";
}
