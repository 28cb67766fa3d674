/* pstswm kernel's reproducibility: --reproducible fixes the distributed FFT's plans (its --blas
 * and --legendre-kernel are always named), and the run header lists the rounding choices. */
#include "cmd/common/frame.h"
#include "cmd/kernel/kernel_impl.h"
#include "cmd/common/reproducible.h"

#include <string.h>

static void rec_choices(pst_rec *r, const pst_ctx *ctx, void *arg)
{
    (void)ctx;
    const kernel_cfg *cfg = arg;
    pst_choices ch = {.reproducible = cfg->reproducible};
    pst_choices_add(&ch, "fftw_plan", strcmp(cfg->fftw_plan, "estimate") ? PST_CHOICE_TIMED : PST_CHOICE_FIXED, "%s",
                    cfg->fftw_plan);
    pst_choices_add(&ch, "blas", PST_CHOICE_FIXED, "%s", pst_blas_names[cfg->blas]);
    pst_choices_add(&ch, "blas_kernels", PST_CHOICE_CPU, "%s", pst_blas_version(cfg->blas));
    pst_choices_add(&ch, "legendre_kernel", PST_CHOICE_FIXED, "%s", pst_leg_method_name(cfg->legendre_kernel));
    if (cfg->legendre_kernel == PST_LEG_SIMD)
        pst_choices_add(&ch, "legendre_isa", PST_CHOICE_CPU, "%s", pst_leg_isa_names[pst_leg_isa_best()]);
    pst_choices_rec(r, &ch);
}

void pst_kernel_reproducible(kernel_cfg *cfg, const kernel_cfg *defaults)
{
    pst_ctx_add_header(&cfg->ctx, rec_choices, cfg);
    if (cfg->reproducible) cfg->fftw_plan = pst_reproducible_fftw_plan(cfg->fftw_plan, defaults->fftw_plan, NULL);
}
