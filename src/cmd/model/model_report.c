/* pstswm model's report: the fields every model record has, the banner, and on rank 0 the run's
 * summary (time per step and per stage, the flop rate, the set-up, errors and conservation) and
 * its record. */
#include "algo/exchange.h"
#include "cmd/model/model_impl.h"

#include "cmd/common/records.h"
#include "core/alloc.h"
#include "model/setup/constants.h"
#include "model/stages/flops.h"
#include "model/libs/mathlibs.h"
#include "model/stages/skeleton.h"
#include "runtime/emit.h"
#include "runtime/machine.h"
#include "runtime/threads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a stage ran: "serial" on one rank of that dimension, else the algorithm. */
static const char *stage_alg(const model_cfg *c, bool fft)
{
    if (fft) return c->par.PX > 1 ? c->par.fft->name : "serial";
    return c->par.PY > 1 ? c->par.legendre->name : "serial";
}

static const char *stage_protocol(const model_cfg *c, bool fft)
{
    if (!strcmp(stage_alg(c, fft), "serial")) return "local";
    if ((fft ? c->par.fft : c->par.legendre)->collective) return "coll";
    return (fft ? c->par.fft_protocol : c->par.leg_protocol)->code;
}

/* How the column's ranks shared the spectral update (NULL: one rank per column): each its own
 * coefficients (a transpose's wavenumbers, or a gathering vector sum's block) or all of them. */
static const char *spectral_update(const model_cfg *c, const pst_model *m)
{
    if (c->par.PY < 2) return NULL;
    return pst_par_leg_is_transpose(c->par.legendre) || m->dyn.spectral_partitioned ? "partitioned" : "replicated";
}

/* The preset named, or gen when no algorithm option changed the default; NULL otherwise. */
static const char *preset_label(const model_cfg *c)
{
    const model_algos *a = &c->algos;
    if (a->preset) return a->preset;
    bool custom = a->fft || a->legendre || a->protocol || a->fft_protocol || a->leg_protocol || a->overlap;
    return custom ? NULL : "gen";
}

void pst_model_cmd_rec_identity(pst_rec *r, const model_cfg *c, const pst_model *m, long long steps)
{
    char grid[32];
    snprintf(grid, sizeof grid, "%dx%d", c->par.PX, c->par.PY);
    pst_rec_int(r, "case", c->test_case);
    pst_rec_num(r, "alpha", c->alpha);
    pst_rec_int(r, "trunc", c->trunc);
    pst_rec_int(r, "levels", c->levels);
    pst_rec_str(r, "grid", grid);
    pst_rec_int(r, "px", c->par.PX);
    pst_rec_int(r, "py", c->par.PY);
    pst_rec_str(r, "fft_locality", c->fft_locality);
    pst_rec_str(r, "legendre_locality", c->legendre_locality);
    pst_rec_str(r, "preset", is_parallel(c) ? preset_label(c) : NULL);
    pst_rec_str(r, "fft", stage_alg(c, true));
    pst_rec_str(r, "legendre", stage_alg(c, false));
    pst_rec_str(r, "fft_protocol", stage_protocol(c, true));
    pst_rec_str(r, "legendre_protocol", stage_protocol(c, false));
    pst_rec_bool(r, "fft_overlap",
                 c->par.PX > 1 && pst_overlapped(c->par.fft_protocol, c->par.fft_overlap) && !c->par.fft->collective);
    pst_rec_bool(r, "legendre_overlap",
                 c->par.PY > 1 && pst_overlapped(c->par.leg_protocol, c->par.leg_overlap) &&
                     !c->par.legendre->collective);
    pst_rec_bool(r, "level_pipeline", c->par.leg_level_pipeline);
    pst_rec_str(r, "spectral_update", spectral_update(c, m));
    pst_rec_int(r, "nlat", c->nlat);
    pst_rec_int(r, "nlon", c->nlon);
    pst_rec_int(r, "level_block", c->level_block);
    pst_rec_str(r, "chunks", c->chunks);
    pst_rec_int(r, "pair_chunk", m->dyn.pair_chunk);
    pst_rec_int(r, "chain_levels", m->dyn.Bc);
    pst_rec_str(r, "blas", pst_blas_names[m->dyn.leg.blas]);
    pst_rec_str(r, "legendre_kernel", pst_leg_method_name(m->dyn.leg.method));
    pst_rec_str(r, "legendre_isa", m->dyn.leg.method == PST_LEG_SIMD ? pst_leg_isa_names[m->dyn.leg.isa] : NULL);
    pst_rec_str(r, "scheme", m->cfg.test_case == 1 ? "advection" : c->explicit_scheme ? "explicit" : "semi-implicit");
    pst_rec_num(r, "dt_s", m->cfg.dt_s);
    pst_rec_int(r, "steps", steps);
}

void pst_model_cmd_rec_diag(pst_rec *r, const pst_model_diag *d)
{
    pst_rec_num(r, "t_s", d->t_s);
    pst_rec_num(r, "days", d->t_s / PST_DAY_S);
    if (d->has_norms) {
        pst_rec_num(r, "h_l1", d->norms.h_l1);
        pst_rec_num(r, "h_l2", d->norms.h_l2);
        pst_rec_num(r, "h_linf", d->norms.h_linf);
        pst_rec_num(r, "v_l1", d->norms.v_l1);
        pst_rec_num(r, "v_l2", d->norms.v_l2);
        pst_rec_num(r, "v_linf", d->norms.v_linf);
    }
    pst_rec_num(r, "mass_rel", d->mass_rel);
    pst_rec_num(r, "energy_rel", d->energy_rel);
    pst_rec_num(r, "enstrophy_rel", d->enstrophy_rel);
    pst_rec_num(r, "max_speed", d->max_speed);
    pst_rec_num(r, "courant", d->courant);
    pst_model_cmd_rec_checksums(r, d);
}

void pst_model_cmd_print_banner(const model_cfg *c, const model_plan *p)
{
    const pst_model *m = &p->m;
    printf("# model: case %lld%s%s, T%lld on %lld x %lld Gaussian grid, %lld level%s (blocks of %lld), %s\n",
           c->test_case, pst_case_rotated((int)c->test_case) ? ", alpha " : "",
           pst_case_rotated((int)c->test_case) ? c->alpha_spec : "", c->trunc, c->nlat, c->nlon, c->levels,
           c->levels == 1 ? "" : "s", c->level_block,
           m->dyn.cfg.scheme == PST_SCHEME_ADVECTION ? "advection (winds fixed)"
           : c->explicit_scheme                      ? "explicit"
                                                     : "semi-implicit");
    printf("#   dt %g s (%s; Courant number %.2f at max speed %.1f m/s, 2*Omega*dt %.2f), %lld steps = %.4g days, "
           "phibar %.1f m^2/s^2\n",
           m->cfg.dt_s, isnan(c->dt_s) ? "default" : "--dt", m->courant, m->speed0, m->inertial, p->steps,
           p->t_end_s / PST_DAY_S, m->phibar);
    const char *update = spectral_update(c, m);
    if (is_parallel(c))
        printf("#   grid %dx%d (preset %s): FFT %s (protocol %s%s), Legendre %s (protocol %s%s)%s%s\n", c->par.PX,
               c->par.PY, preset_label(c) ? preset_label(c) : "none", stage_alg(c, true), stage_protocol(c, true),
               c->par.fft_overlap ? ", overlap" : "", stage_alg(c, false), stage_protocol(c, false),
               c->par.leg_overlap          ? ", overlap"
               : c->par.leg_level_pipeline ? ", level pipeline"
                                           : "",
               update ? ", spectral update " : "", update ? update : "");
}

void pst_model_cmd_free_summary(const void *c, void *summary) { free(summary); }

/* Step statistics and the flop rate. */
void *pst_model_cmd_analyse(const void *arg, const void *data)
{
    const model_cfg *c = arg;
    const model_plan *p = &c->plan;
    const model_result *res = data;
    model_summary *s = pst_calloc(1, sizeof *s);
    const double *step_s = res->run.step_s;
    s->step = pst_summarize(step_s + p->warmup, (size_t)(p->steps - p->warmup));
    s->wall_s = s->stage_sum_s = 0;
    for (long long k = 0; k < p->steps; k++) s->wall_s += step_s[k];
    for (int k = 0; k < PST_NSTAGES; k++) s->stage_sum_s += res->run.stage_s[k];
    pst_flops fl = pst_flops_per_level(&p->m.dyn.cfg);
    s->flops_per_step_level = fl.total;
    s->flops_per_step = fl.total * (double)c->levels;
    s->mflops = s->flops_per_step / s->step.median / 1e6;
    for (int k = 0; k < PST_NSTAGES; k++)
        s->stage_flops_per_step[k] = pst_flops_of_stage(&fl, (pst_stage)k) * (double)c->levels;
    s->recurrence_flops_per_step =
        pst_leg_method_generates(p->m.dyn.leg.method) ? pst_flops_recurrence_per_step(&p->m.dyn.cfg) : 0;
    return s;
}

static double local_imbalance(const pst_model_integration *run)
{
    return run->local_stages.fastest_s > 0 ? run->local_stages.slowest_s / run->local_stages.fastest_s : NAN;
}

static void rec_local_stages(pst_rec *r, const pst_model_integration *run)
{
    pst_rec_obj_begin(r, "local_stages");
    pst_rec_num(r, "slowest_s", run->local_stages.slowest_s);
    pst_rec_int(r, "slowest_rank", run->local_stages.slowest_rank);
    pst_rec_num(r, "fastest_s", run->local_stages.fastest_s);
    pst_rec_int(r, "fastest_rank", run->local_stages.fastest_rank);
    pst_rec_num(r, "imbalance", local_imbalance(run));
    pst_rec_obj_end(r);
}

/* "rank 1 (CPUs 1 on node7)": a rank and where it ran, from the header's survey. */
static const char *rank_place(int rank, char *buf, size_t len)
{
    const char *host, *cpus;
    if (pst_machine_rank_place(rank, &host, &cpus)) snprintf(buf, len, "rank %d (CPUs %s on %s)", rank, cpus, host);
    else snprintf(buf, len, "rank %d", rank);
    return buf;
}

/* Which rank the others wait for: about the same work there on every rank, so a ratio well above 1
 * is a core running slower, not the decomposition. */
static void print_local_stages(const pst_model_integration *run)
{
    char slow[160], fast[160];
    printf("  imbalance       stages without communication (fourier, grid, spectral): %s %.3gx %s; the others wait "
           "for the slowest at every exchange\n",
           rank_place(run->local_stages.slowest_rank, slow, sizeof slow), local_imbalance(run),
           rank_place(run->local_stages.fastest_rank, fast, sizeof fast));
}

void pst_model_cmd_emit_point(void *arg, const void *data, const void *summary)
{
    model_cfg *c = arg;
    const model_plan *p = &c->plan;
    const model_result *res = data;
    const model_summary *s = summary;
    pst_rec r;
    pst_rec_begin(&r, &c->ctx, &pst_schema_model_point);
    pst_model_cmd_rec_identity(&r, c, &p->m, p->steps);
    pst_rec_num(&r, "wall_s", s->wall_s);
    pst_rec_num(&r, "step_s", s->step.median);
    pst_rec_times(&r, &s->step);
    pst_rec_int(&r, "warmup", p->warmup);
    for (int k = 0; k < PST_NSTAGES; k++) {
        char key[32];
        snprintf(key, sizeof key, "%s_s", pst_stage_names[k]);
        pst_rec_num(&r, key, res->run.stage_s[k]);
        snprintf(key, sizeof key, "%s_flops", pst_stage_names[k]);
        pst_rec_num(&r, key, s->stage_flops_per_step[k]);
    }
    pst_rec_num(&r, "legendre_recurrence_flops", s->recurrence_flops_per_step);
    pst_rec_num(&r, "fft_comm_s", res->run.comm_s[0]);
    pst_rec_int(&r, "threads", pst_threads());
    pst_rec_bool(&r, "comm_threads", p->m.dyn.block_threads > 1);
    pst_rec_num(&r, "thread_wait_s", res->run.thread_wait_s);
    pst_rec_num(&r, "legendre_comm_s", res->run.comm_s[1]);
    pst_rec_num(&r, "comm_s", res->run.comm_s[0] + res->run.comm_s[1]);
    pst_rec_num(&r, "fft_wait_s", c->sync_wait ? res->run.wait_s[0] : NAN);
    pst_rec_num(&r, "legendre_wait_s", c->sync_wait ? res->run.wait_s[1] : NAN);
    if (is_parallel(c)) rec_local_stages(&r, &res->run);
    pst_rec_events(&r, "events", res->run.events, res->run.nevents);
    pst_rec_num(&r, "diag_s", res->diag_s);
    pst_rec_num(&r, "setup_s", p->setup_s);
    pst_rec_num(&r, "fft_plan_s", p->m.dyn.fft_plan_s);
    pst_rec_str(&r, "fftw_wisdom", c->fftw_wisdom);
    pst_rec_bool(&r, "fftw_wisdom_loaded", c->wisdom_loaded);
    pst_rec_int(&r, "fftw_plans", c->fft.plans);
    pst_rec_int(&r, "fftw_plans_from_wisdom", c->fft.plans_from_wisdom);
    pst_rec_str(&r, "blas_choice", c->blas_auto ? "auto" : "fixed");
    pst_rec_str(&r, "blas_version", pst_blas_version(p->m.dyn.leg.blas));
    pst_rec_num(&r, "blas_openblas_s", p->m.dyn.blas_trial_s[PST_BLAS_OPENBLAS]);
    pst_rec_num(&r, "blas_blis_s", p->m.dyn.blas_trial_s[PST_BLAS_BLIS]);
    pst_rec_num(&r, "blas_blis_sup_s", p->m.dyn.blas_trial_s[PST_BLAS_BLIS_SUP]);
    pst_rec_str(&r, "legendre_kernel_choice", c->legendre_auto ? "auto" : "fixed");
    pst_rec_num(&r, "legendre_kernel_dgemm_s", p->m.dyn.legendre_trial_s[PST_LEG_DGEMM]);
    pst_rec_num(&r, "legendre_kernel_recurrence_s", p->m.dyn.legendre_trial_s[PST_LEG_RECURRENCE]);
    pst_rec_num(&r, "legendre_kernel_simd_s", p->m.dyn.legendre_trial_s[PST_LEG_SIMD]);
    pst_rec_num(&r, "flops_per_step", s->flops_per_step);
    pst_rec_num(&r, "flops_per_step_level", s->flops_per_step_level);
    pst_rec_num(&r, "mflops", s->mflops);
    pst_rec_str(&r, "error_ref",
                res->final.has_norms && !pst_skeleton() ? (c->reference ? "reference" : "analytic") : NULL);
    pst_model_cmd_rec_diag(&r, &res->final);
    pst_rec_num(&r, "courant_initial", p->m.courant);
    pst_rec_num(&r, "inertial", p->m.inertial);
    pst_rec_num(&r, "memory_estimate_bytes", p->memory_estimate_bytes);
    pst_rec_num(&r, "memory_model_bytes", p->memory_model_bytes);
    pst_rec_int(&r, "max_rss_bytes", (long long)res->max_rss_bytes);
    pst_rec_ints(&r, "rss_bytes_per_rank", res->rss_bytes_per_rank, (size_t)res->nranks);
    pst_rec_emit(&r, &c->ctx);
}

/* Which library ran the Legendre dgemms and, with --blas auto, what each took at set-up. */
static void print_blas(const model_cfg *c, const pst_dyn *d)
{
    printf("  Legendre dgemms %s (%s)", pst_blas_names[d->leg.blas], pst_blas_version(d->leg.blas));
    if (c->blas_auto) {
        printf("; --blas auto, best of 3 set-up passes:");
        for (int k = 0; k < PST_NBLAS; k++)
            if (!isnan(d->blas_trial_s[k])) printf(" %s %.3g ms", pst_blas_names[k], d->blas_trial_s[k] * 1e3);
        if (d->blas_skipped) printf(" (%s)", d->blas_skipped);
    }
    printf("\n  Legendre kernel %s", pst_leg_method_name(d->leg.method));
    if (d->leg.method == PST_LEG_SIMD) printf(" (%s path)", pst_leg_isa_names[d->leg.isa]);
    if (c->legendre_auto) {
        printf("; --legendre-kernel auto, best of 3 set-up passes:");
        for (int k = 0; k < PST_NLEG_METHODS; k++)
            printf(" %s %.3g ms", pst_leg_method_name(k), d->legendre_trial_s[k] * 1e3);
    }
    printf("\n");
}

void pst_model_cmd_print_summary(const void *arg, const void *data, const void *summary)
{
    const model_cfg *c = arg;
    const model_plan *p = &c->plan;
    const model_result *res = data;
    const model_summary *s = summary;
    const double *stage = res->run.stage_s, *comm = res->run.comm_s;
    const pst_model_diag *d = &res->final;
    printf("\n== model T%lldL%lld case %lld on %dx%d: %lld steps of %g s, statistic: median over %lld steps after %lld "
           "warm-up%s ==\n", c->trunc, c->levels, c->test_case, c->par.PX, c->par.PY, p->steps, p->m.cfg.dt_s,
           p->steps - p->warmup, p->warmup, is_parallel(c) ? " (slowest rank per step)" : "");
    printf("  time per step   %.4g ms (min %.4g, mean %.4g, max %.4g); wall %.3f s for all steps\n",
           s->step.median * 1e3, s->step.min * 1e3, s->step.mean * 1e3, s->step.max * 1e3, s->wall_s);
    printf("  per step (mean) ");
    for (int k = 0; k < PST_NSTAGES; k++)
        printf("%s %.4g ms (%.0f%%)%s", pst_stage_names[k], stage[k] * 1e3, 100 * stage[k] / s->stage_sum_s,
               k + 1 < PST_NSTAGES ? ", " : "\n");
    if (is_parallel(c))
        printf("  communication   fft %s %.4g ms, legendre %s %.4g ms per step (inside the stages above, max over "
               "ranks)\n",
               stage_alg(c, true), comm[0] * 1e3, stage_alg(c, false), comm[1] * 1e3);
    if (is_parallel(c) && c->sync_wait)
        printf("  waiting         for the row's slowest rank %.4g ms, for the column's %.4g ms per step (--sync-wait: "
               "barriers before the communication above, inside the stages, max over ranks)\n",
               res->run.wait_s[0] * 1e3, res->run.wait_s[1] * 1e3);
    if (is_parallel(c)) print_local_stages(&res->run);
    printf("  flops per step  %.0f (%.0f per level, analytic) -> %.1f MFlop/s\n", s->flops_per_step,
           s->flops_per_step_level, s->mflops);
    printf("  set-up          %.3f s, of which FFTW planning (--fftw-plan %s) %.3f s; not in the step times\n",
           p->setup_s, c->fftw_plan, p->m.dyn.fft_plan_s);
    if (c->fftw_wisdom)
        printf("  FFTW wisdom     %s: %s; %d of rank 0's %d plans from wisdom\n", c->fftw_wisdom,
               c->wisdom_loaded ? "loaded, then saved" : "none yet, saved", c->fft.plans_from_wisdom, c->fft.plans);
    print_blas(c, &p->m.dyn);
    pst_math_libraries_print_behind(); /* one line when OpenBLAS or BLIS is behind the CPU */
    if (d->has_norms)
        printf("  errors (%s)  h: l1 %.3e  l2 %.3e  linf %.3e | v: l1 %.3e  l2 %.3e  linf %.3e\n",
               c->reference ? "vs reference" : "vs analytic", d->norms.h_l1, d->norms.h_l2, d->norms.h_linf,
               d->norms.v_l1, d->norms.v_l2, d->norms.v_linf);
    printf("  conservation    relative change since t=0: mass %.3e, energy %.3e, potential enstrophy %.3e\n",
           d->mass_rel, d->energy_rel, d->enstrophy_rel);
    fflush(stdout);
}
