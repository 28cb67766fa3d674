/* pstswm model's run, every rank: the banner, the initial diagnostics, the timed steps with
 * diagnostics every --diag-every steps (outside the step timing, each a record), the final
 * diagnostics and every rank's peak memory; after the report, --write-fields. */
#include "cmd/model/model_impl.h"

#include "cmd/common/records.h"
#include "core/alloc.h"
#include "core/errors.h"
#include "model/setup/constants.h"
#include "model/fields_io.h"
#include "model/stages/skeleton.h"
#include "runtime/emit.h"
#include "runtime/locality.h"
#include "runtime/memory.h"
#include "runtime/timer.h"
#include "runtime/watchdog.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

bool pst_model_cmd_root; /* rank 0 prints (set by model.c) */

static void print_diag_header(void)
{
    if (pst_model_cmd_root)
        printf("  %6s %7s %10s %10s %10s %10s %11s %11s %11s %7s\n", "step", "day", "h_l1", "h_l2", "h_linf", "v_l2",
               "mass_rel", "energy_rel", "enstr_rel", "max_v");
}

static void print_diag(long long step, const pst_model_diag *d)
{
    if (!pst_model_cmd_root) return;
    if (d->has_norms)
        printf("  %6lld %7.3f %10.3e %10.3e %10.3e %10.3e %11.3e %11.3e %11.3e %7.2f\n", step, d->t_s / PST_DAY_S,
               d->norms.h_l1, d->norms.h_l2, d->norms.h_linf, d->norms.v_l2, d->mass_rel, d->energy_rel,
               d->enstrophy_rel, d->max_speed);
    else
        printf("  %6lld %7.3f %10s %10s %10s %10s %11.3e %11.3e %11.3e %7.2f\n", step, d->t_s / PST_DAY_S, "-", "-",
               "-", "-", d->mass_rel, d->energy_rel, d->enstrophy_rel, d->max_speed);
}

static void courant_warning(const pst_model *m, double courant, double t_s, bool *warned)
{
    if (courant < 1.0 || *warned || !pst_model_cmd_root) return;
    fprintf(stderr, "%s: warning: Courant number %.2f >= 1 at day %.2f (dt %g s, T%d): the run may become unstable\n",
            pst_progname(), courant, t_s / PST_DAY_S, m->cfg.dt_s, m->cfg.grid.M);
    *warned = true;
}

/* Diagnostics every --diag-every steps, during the run but outside the step timing. */
typedef struct diag_ctx {
    model_cfg *c;
    long long steps;
    bool *warned;
    double diag_s;
} diag_ctx;

static void diagnose_during(void *arg, pst_model *m, long long step)
{
    diag_ctx *dc = arg;
    double t0 = pst_now_s();
    pst_model_diag d;
    pst_model_diagnose(m, (double)step * m->cfg.dt_s, NULL, &d);
    dc->diag_s += pst_now_s() - t0;
    print_diag(step, &d);
    fflush(stdout);
    courant_warning(m, d.courant, d.t_s, dc->warned);
    pst_rec r;
    pst_rec_begin(&r, &dc->c->ctx, &pst_schema_model_diag);
    pst_model_cmd_rec_identity(&r, dc->c, m, dc->steps);
    pst_rec_int(&r, "step", step);
    pst_model_cmd_rec_diag(&r, &d);
    pst_rec_int(&r, "max_rss_bytes", (long long)pst_peak_rss_bytes(NULL)); /* collective, outside the timing */
    pst_rec_emit(&r, &dc->c->ctx);
}

/* The diagnostics, or in a skeleton run, whose state is not computed, none: every norm and
 * invariant NaN, which the records write as null. */
static void diagnose(pst_model *m, double t_s, const pst_ref_grids *ref, pst_model_diag *out)
{
    if (!pst_skeleton()) {
        pst_model_diagnose(m, t_s, ref, out);
        return;
    }
    const double none = NAN;
    *out = (pst_model_diag){.t_s = t_s, .has_norms = true, .mass_rel = none, .energy_rel = none, .enstrophy_rel = none,
                            .max_speed = none, .courant = none};
    out->norms.h_l1 = out->norms.h_l2 = out->norms.h_linf = none;
    out->norms.v_l1 = out->norms.v_l2 = out->norms.v_linf = none;
}

/* Initial diagnostics, the timed steps (diagnostics between them, outside the timing) and the
 * final diagnostics. */
static void run_steps(model_cfg *c, model_plan *p, model_result *out)
{
    pst_model *m = &p->m;
    bool warned = false;
    if (pst_model_cmd_root) {
        pst_model_cmd_print_banner(c, p);
        pst_model_cmd_print_choices(c);
    }
    courant_warning(m, m->courant, 0, &warned);
    if (m->inertial >= 1.0 && pst_model_cmd_root)
        fprintf(stderr, "%s: warning: 2*Omega*dt = %.2f >= 1 (dt %g s): the explicit Coriolis term is unstable\n",
                pst_progname(), m->inertial, m->cfg.dt_s);

    pst_model_diag d;
    pst_watchdog_phase("model case %lld T%lld initial diagnostics", c->test_case, c->trunc);
    diagnose(m, 0.0, NULL, &d);
    print_diag_header();
    print_diag(0, &d);
    fflush(stdout);

    diag_ctx during = {.c = c, .steps = p->steps, .warned = &warned};
    pst_model_integrate_opts run = {.steps = p->steps, .warmup = p->warmup, .keep_going = c->ctx.no_verify,
                              .diag_every = c->diag_every, .on_diag = diagnose_during, .arg = &during};
    pst_watchdog_phase("model case %lld T%lldL%lld time stepping (%lld steps)", c->test_case, c->trunc, c->levels,
                       p->steps);
    pst_model_integrate(m, &run, &out->run);
    if (out->run.blowup_step && !c->ctx.no_verify)
        pst_collective_exit(PST_EXIT_FAILED,
                            "numerical blow-up at step %lld (day %.3f): non-finite spectral coefficients; "
                            "try a smaller --dt (now %g s, Courant number %.2f at the initial max speed)",
                            out->run.blowup_step, (double)out->run.blowup_step * m->cfg.dt_s / PST_DAY_S, m->cfg.dt_s,
                            m->courant);
    pst_watchdog_phase("model case %lld T%lld final diagnostics", c->test_case, c->trunc);
    diagnose(m, p->t_end_s, c->reference ? &p->ref : NULL, &out->final);
    print_diag(p->steps, &out->final);
    out->diag_s = during.diag_s;
}

/* The one set: the run, then every rank's peak memory (collective). */
void *pst_model_cmd_measure(void *arg, size_t set)
{
    model_cfg *c = arg;
    model_plan *p = &c->plan;
    model_result *res = pst_calloc(1, sizeof *res);
    c->fft_locality = pst_locality_of_comms(is_parallel(c) ? p->par.row : MPI_COMM_NULL);
    c->legendre_locality = pst_locality_of_comms(is_parallel(c) ? p->par.col : MPI_COMM_NULL);
    run_steps(c, p, res);
    MPI_Comm_size(MPI_COMM_WORLD, &res->nranks);
    double *rss_per_rank = pst_malloc((size_t)res->nranks * sizeof *rss_per_rank);
    res->max_rss_bytes = pst_peak_rss_bytes(rss_per_rank);
    res->rss_bytes_per_rank = pst_malloc((size_t)res->nranks * sizeof *res->rss_bytes_per_rank);
    for (int k = 0; k < res->nranks; k++) res->rss_bytes_per_rank[k] = (long long)rss_per_rank[k];
    free(rss_per_rank);
    return res;
}

/* --write-fields: collective (every rank gathers level 0), rank 0 writes. */
void pst_model_cmd_write_fields(void *arg)
{
    model_cfg *c = arg;
    model_plan *p = &c->plan;
    if (!c->write_fields) return;
    char err[512] = "";
    pst_model_level_grids(&p->m, 0);
    int rc = pst_model_cmd_root ? pst_fields_write(c->write_fields, &p->m, p->t_end_s, p->steps, err, sizeof err) : 0;
    if (is_parallel(c)) {
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Bcast(err, sizeof err, MPI_CHAR, 0, MPI_COMM_WORLD);
    }
    if (rc) pst_collective_exit(PST_EXIT_FAILED, "--write-fields: %s", err);
    if (pst_model_cmd_root)
        printf("  fields          written to %s (level 0, day %g)\n", c->write_fields, p->t_end_s / PST_DAY_S);
}

void pst_model_cmd_free_result(void *c, void *data)
{
    model_result *res = data;
    free(res->run.step_s);
    free(res->rss_bytes_per_rank);
    free(res);
}
