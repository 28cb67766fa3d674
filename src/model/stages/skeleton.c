#include "model/stages/skeleton.h"

#include "core/alloc.h"
#include "core/copy_charge.h"
#include "core/errors.h"
#include "core/record.h"
#include "core/schema.h"
#include "model/stages/flops.h"
#include "model/transforms/spectral.h"
#include "runtime/context.h"
#include "runtime/simulation.h"

#include <stdio.h>
#include <string.h>

#ifdef PST_SIMULATED
#include <math.h>
#include <simgrid/host.h>
#include <stdlib.h>
#include <smpi/smpi.h>
#include <xbt/config.h>
#endif

/* The stages' names (dynamics.h), defined here, below every file that reads them (the step's
 * timer events, the stage fields of records, the stage list of the skeleton's rates). */
const char *const pst_stage_names[PST_NSTAGES] = {"fft", "legendre", "fourier", "grid", "spectral"};

const char *const pst_compute_names[] = {"real", "skeleton", NULL};

static bool skeleton;

/* The platform's rate per stage (MFlop/s; 0: the problem's rate, the simulated host's speed),
 * from PSTSWM_SMPI_STAGE_MFLOPS, which scripts/pstrun sets from the platform file. */
static double stage_mflops[PST_NSTAGES];

/* The rate the transposes' and vector sums' copies are charged at (bytes/s; 0: not charged), from
 * PSTSWM_SMPI_COPY_BYTES_PER_S, which scripts/pstrun sets from the platform's [node] section. */
static double copy_bytes_per_s;

#ifdef PST_SIMULATED
/* "fft=R legendre=R ...": a stage named twice, an unknown stage or a rate that is not a positive
 * number is a broken launcher or a hand-set variable, refused by name. */
static void parse_stage_mflops(const char *text)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        if (!*p) break;
        size_t name_len = strcspn(p, "= ");
        int k = 0;
        while (k < PST_NSTAGES && (strlen(pst_stage_names[k]) != name_len || strncmp(p, pst_stage_names[k], name_len)))
            k++;
        char *end = NULL;
        double rate = p[name_len] == '=' ? strtod(p + name_len + 1, &end) : 0;
        if (k == PST_NSTAGES || !end || end == p + name_len + 1 || (*end && *end != ' ') || !(rate > 0) ||
            stage_mflops[k] > 0)
            pst_usage_error(
                "PSTSWM_SMPI_STAGE_MFLOPS='%s': expected STAGE=MFLOPS items (stages: fft, legendre, fourier, "
                "grid, spectral; each once, rates positive), as scripts/pstrun writes from a platform's "
                "[compute] section",
                text);
        stage_mflops[k] = rate;
        p = end;
    }
}

/* The copies' rate, bytes/s: anything but a positive finite number is refused by name. */
static double parse_copy_rate(const char *text)
{
    char *end = NULL;
    double rate = strtod(text, &end);
    if (end == text || *end || !(rate > 0) || !isfinite(rate))
        pst_usage_error("PSTSWM_SMPI_COPY_BYTES_PER_S='%s': expected a positive number of bytes/s, as scripts/pstrun "
                        "writes from a platform's [node] copy_bytes_per_s",
                        text);
    return rate;
}
#endif

static void select_mode(const char *name)
{
    skeleton = !strcmp(name, "skeleton");
    if (!skeleton) return;
#ifdef PST_SIMULATED
    /* The stages' time is injected: what this host still does (packing, the row's FFTW calls
     * inside the parallel FFT) must not be timed and scaled on top of it. */
    sg_cfg_set_boolean("smpi/simulate-computation", "no");
    pst_values_unread();
    const char *rates = getenv("PSTSWM_SMPI_STAGE_MFLOPS");
    if (rates) parse_stage_mflops(rates);
    const char *copy_rate = getenv("PSTSWM_SMPI_COPY_BYTES_PER_S");
    if (copy_rate) copy_bytes_per_s = parse_copy_rate(copy_rate);
    pst_copy_charge_set_rate(copy_bytes_per_s);
#else
    pst_usage_error(
        "--compute skeleton: only the SMPI build has it (scripts/dev/build.sh smpi; docs/predict.md): it skips "
        "the arithmetic and injects its time into a simulated platform; this is the %s build",
        PST_MPI_FLAVOUR);
#endif
}

bool pst_skeleton(void) { return skeleton; }

static void rec_stage_mflops(pst_rec *r)
{
    if (!skeleton) {
        pst_rec_null(r, "stage_mflops");
        return;
    }
    pst_rec_obj_begin(r, "stage_mflops");
    for (int k = 0; k < PST_NSTAGES; k++) {
        if (stage_mflops[k] > 0) pst_rec_num(r, pst_stage_names[k], stage_mflops[k]);
        else pst_rec_null(r, pst_stage_names[k]);
    }
    pst_rec_obj_end(r);
}

static void rec_compute(pst_rec *r, const pst_ctx *c, void *arg)
{
    (void)c;
    (void)arg;
    pst_rec_str(r, "compute", skeleton ? "skeleton" : "real");
    rec_stage_mflops(r);
    if (copy_bytes_per_s > 0) pst_rec_num(r, "copy_bytes_per_s", copy_bytes_per_s);
    else pst_rec_null(r, "copy_bytes_per_s");
}

void pst_compute_setup(pst_ctx *ctx, const char *name)
{
    select_mode(name);
    pst_ctx_add_header(ctx, rec_compute, NULL);
    if (!skeleton) return;
    ctx->no_verify = true;
    if (ctx->rank == 0) printf("verification skipped: --compute skeleton computes no results to check\n");
}

static const pst_field stage_rate_fields[] = {
    {"fft", PST_F_NUM, "MFlop/s", "the FFT stage's rate (null: the problem's rate)", false, NULL},
    {"legendre", PST_F_NUM, "MFlop/s",
     "the Legendre stage's rate, also the kernels' vector sums (null: the problem's rate)", false, NULL},
    {"fourier", PST_F_NUM, "MFlop/s", "the Fourier-space combinations' rate (null: the problem's rate)", false, NULL},
    {"grid", PST_F_NUM, "MFlop/s", "the grid-point products' rate (null: the problem's rate)", false, NULL},
    {"spectral", PST_F_NUM, "MFlop/s", "the spectral update's rate (null: the problem's rate)", false, NULL},
};
static const pst_fields stage_rates = PST_FIELDS("skeleton stage rates", stage_rate_fields);

static const pst_field compute_fields[] = {
    {"compute", PST_F_STR, NULL,
     "--compute: real (every stage computed) or skeleton (SMPI builds: each stage's arithmetic skipped and its "
     "analytic flops injected as simulated time; error norms null, kernel results not verified); absent from records "
     "written before it",
     true, NULL},
    {"stage_mflops", PST_F_OBJ, NULL,
     "skeleton mode: the rate each stage's flops were injected at, from the platform's [compute.TxLy] <stage>_mflops "
     "(null members: the problem's mflops, the simulated host's speed); null in the real mode; absent from records "
     "written before it",
     true, &stage_rates},
    {"copy_bytes_per_s", PST_F_NUM, "bytes/s",
     "skeleton mode: the rate the transposes' packing, unpacking and own-block copies, the log transpose's forwarding "
     "and the vector sums' result copies were charged at as simulated time, from the platform's [node] "
     "copy_bytes_per_s; null when copies were not charged (no rate, or the real mode); absent from records written "
     "before it",
     true, NULL},
};
const pst_fields pst_compute_header_fields = PST_FIELDS("compute mode", compute_fields);

void pst_skeleton_inject(pst_stage stage, double flops)
{
#ifdef PST_SIMULATED
    /* SMPI executes flops at the host's speed (the problem's rate): a stage's own rate scales them. */
    if (stage_mflops[stage] > 0) flops *= sg_host_get_speed(sg_host_self()) / (stage_mflops[stage] * 1e6);
    if (flops > 0) smpi_execute_flops(flops);
#else
    (void)stage;
    (void)flops;
#endif
}

/* The owned coefficients of wavenumbers [i0, i1). */
static double coefficients(const pst_dyn *d, int i0, int i1) { return (double)(d->spec.off[i1] - d->spec.off[i0]); }

/* The Legendre category counts both directions over every coefficient and pair: one direction
 * of `pairs` pairs and the coefficients of [i0, i1) is that share of half of it; with the
 * recurrence kernel, plus generating their P̄ (degrees m..M+1) once for the block's levels
 * (flops.h: 5 per value). */
double pst_skeleton_sums_flops(const pst_dyn *d, int pairs, int i0, int i1)
{
    const pst_flops f = pst_flops_per_level(&d->cfg);
    const double K = (double)pst_spec_count(d->cfg.grid->M), half_lats = d->cfg.grid->nlat / 2.0;
    const double generate =
        pst_leg_method_generates(d->leg.method) ? 5.0 * (coefficients(d, i0, i1) + (i1 - i0)) * pairs : 0;
    return f.legendre / 2 * coefficients(d, i0, i1) / K * pairs / half_lats * d->B + generate;
}

double pst_skeleton_chain_flops(const pst_dyn *d, pst_stage stage, double direction, int pairs)
{
    const pst_flops f = pst_flops_per_level(&d->cfg);
    /* the chunk's share of the latitudes, times its levels */
    const double lats = 2.0 * pairs / d->cfg.grid->nlat * d->Bc;
    switch (stage) {
    case PST_STAGE_FOURIER: return direction * f.fourier * lats * d->par->nmx / (d->cfg.grid->M + 1);
    case PST_STAGE_FFT: return direction * f.fft * lats / d->par->cfg.PX; /* the row shares each line's FFT */
    case PST_STAGE_GRID: return direction * f.grid * lats * d->nlon_local / d->cfg.grid->nlon;
    default: return 0;
    }
}

double pst_skeleton_update_flops(const pst_dyn *d)
{
    const pst_flops f = pst_flops_per_level(&d->cfg);
    return f.spectral * (double)d->spec.ncoef / (double)pst_spec_count(d->cfg.grid->M) * d->B;
}
