/* pstswm model's reproducibility (docs/model.md: Reproducibility): --reproducible, the run
 * header's rounding choices and the state checksums of every point and diag record. */
#include "cmd/common/frame.h"
#include "cmd/model/model_impl.h"
#include "cmd/common/reproducible.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The run's choices that can change the rounding, each with how it was made: a row per choice,
 * after set-up (the timed ones are made then). */
static void model_choices(const model_cfg *c, pst_choices *ch)
{
    const pst_dyn *d = &c->plan.m.dyn;
    const bool all_from_wisdom = c->fft.plans > 0 && c->fft.plans_from_wisdom == c->fft.plans;
    const char *fftw_how = !strcmp(c->fftw_plan, "estimate") ? PST_CHOICE_FIXED
                           : c->fftw_wisdom && all_from_wisdom ? PST_CHOICE_WISDOM
                                                                : PST_CHOICE_TIMED;
    ch->reproducible = c->reproducible;
    pst_choices_add(ch, "fftw_plan", fftw_how, "%s", c->fftw_plan);
    pst_choices_add(ch, "blas", c->blas_auto ? PST_CHOICE_TIMED : PST_CHOICE_FIXED, "%s", pst_blas_names[d->leg.blas]);
    pst_choices_add(ch, "blas_kernels", PST_CHOICE_CPU, "%s", pst_blas_version(d->leg.blas));
    pst_choices_add(ch, "legendre_kernel", c->legendre_auto ? PST_CHOICE_TIMED : PST_CHOICE_FIXED, "%s",
                    pst_leg_method_name(d->leg.method));
    /* The simd method's sums round differently on each instruction-set path (FMA or not, vector widths). */
    if (d->leg.method == PST_LEG_SIMD)
        pst_choices_add(ch, "legendre_isa", c->legendre_isa_forced ? PST_CHOICE_FIXED : PST_CHOICE_CPU, "%s",
                        pst_leg_isa_names[d->leg.isa]);
    pst_choices_add(ch, "level_block", PST_CHOICE_CONFIGURED, "%d", d->B);
    pst_choices_add(ch, "pair_chunk", PST_CHOICE_CONFIGURED, "%d", d->pair_chunk);
    pst_choices_add(ch, "chain_levels", PST_CHOICE_CONFIGURED, "%d", d->Bc);
}

static void rec_choices(pst_rec *r, const pst_ctx *ctx, void *arg)
{
    (void)ctx;
    pst_choices ch = {0};
    model_choices(arg, &ch);
    pst_choices_rec(r, &ch);
}

void pst_model_cmd_reproducible(model_cfg *c, const pst_subcommand *row)
{
    const model_cfg *defaults = row->defaults;
    const pst_opt *opts = row->command->opts;
    pst_ctx_add_header(&c->ctx, rec_choices, c);
    if (!c->reproducible) return;
    c->blas_name = pst_reproducible_named(opts, "blas", c->blas_name, defaults->blas_name);
    c->legendre_kernel = pst_reproducible_named(opts, "legendre-kernel", c->legendre_kernel, defaults->legendre_kernel);
    c->fftw_plan = pst_reproducible_fftw_plan(c->fftw_plan, defaults->fftw_plan, c->fftw_wisdom);
}

void pst_model_cmd_print_choices(const model_cfg *c)
{
    pst_choices ch = {0};
    model_choices(c, &ch);
    pst_choices_print(&ch);
}

void pst_model_cmd_rec_checksums(pst_rec *r, const pst_model_diag *d)
{
    if (!d->has_checksums) {
        pst_rec_null(r, "checksums");
        return;
    }
    pst_rec_obj_begin(r, "checksums");
    for (int f = 0; f < PST_MODEL_NCHECKSUMS; f++) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016" PRIx64, d->checksum[f]);
        pst_rec_str(r, pst_model_checksum_names[f], hex);
    }
    pst_rec_obj_end(r);
}
