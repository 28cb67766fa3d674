/* The model against Williamson's test cases: case 2 at round-off (T42 and T85, α = 0 and π/4),
 * case 6 bounded with its wavenumber-4 pattern and converging to a T85 reference as dt falls,
 * case 5 for 15 days, case 1 advection, and the flop count against Worley 1998. */
#include "check.h"
#include "model/setup/constants.h"
#include "model/stages/flops.h"
#include "model/model.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The step's FFTs planned as the set-up's (FFTW_ESTIMATE): quick, and the same plans every run. */
static pst_fft_planner estimate = {.effort = "estimate", .flags = FFTW_ESTIMATE};

static pst_model_config config(int test_case, double alpha, int M, int levels, int block, double dt_s)
{
    int nlat = 2 * ((3 * M + 1 + 3) / 4);
    return (pst_model_config){.test_case = test_case, .alpha = alpha, .grid = {M, nlat, 2 * nlat, levels},
                              .level_block = block, .dt_s = dt_s, .fft = &estimate};
}

/* Runs for `days` with the driver's loop; false on blow-up. */
static bool run(pst_model *m, double days)
{
    pst_model_integrate_opts o = {.steps = lround(days * PST_DAY_S / m->cfg.dt_s)};
    pst_model_integration r;
    pst_model_integrate(m, &o, &r);
    free(r.step_s);
    return r.blowup_step == 0 && r.steps_run == o.steps;
}

static void test_case2(int M, double alpha, int levels, int block, double tol)
{
    pst_model_config c = config(2, alpha, M, levels, block, 0);
    pst_model m;
    pst_model_init(&m, &c);
    CHECK(m.courant <= PST_COURANT_TARGET && m.courant > 0.3);
    CHECK(run(&m, 5));
    pst_model_diag d;
    pst_model_diagnose(&m, 5 * PST_DAY_S, NULL, &d);
    CHECK(d.has_norms);
    CHECK(d.norms.h_l2 < tol);
    CHECK(d.norms.h_linf < 10 * tol && d.norms.v_l2 < 10 * tol);
    CHECK(fabs(d.mass_rel) < 1e-11 && fabs(d.energy_rel) < 1e-11 && fabs(d.enstrophy_rel) < 1e-11);
    printf("case 2 T%d alpha %.4f L%d: dt %g h_l2 %.3e v_l2 %.3e mass %.2e energy %.2e enstrophy %.2e\n", M, alpha,
           levels, m.cfg.dt_s, d.norms.h_l2, d.norms.v_l2, d.mass_rel, d.energy_rel, d.enstrophy_rel);
    pst_model_free(&m);
}

/* Share of the non-zonal variance of Φ' in wavenumbers 4 and 8 (case 6 is a wave 4 whose height
 * has a cos 8λ term). */
static double wave4_share(pst_model *m)
{
    pst_dyn_get_level(&m->dyn, 0, m->spec[0], m->spec[1], m->spec[2]);
    double all = 0, four = 0;
    const pst_spec_layout *s = &m->sht.spec;
    for (int i = 1; i < s->nm; i++)
        for (int n = s->m[i]; n <= s->M; n++) {
            size_t k = pst_spec_index(s, i, n);
            double p = m->spec[2][2 * k] * m->spec[2][2 * k] + m->spec[2][2 * k + 1] * m->spec[2][2 * k + 1];
            all += p;
            if (s->m[i] == 4 || s->m[i] == 8) four += p;
        }
    return four / all;
}

static void test_case6(void)
{
    pst_model_config c = config(6, 0, 42, 1, 1, 0);
    pst_model m;
    pst_model_init(&m, &c);
    CHECK(wave4_share(&m) > 1 - 1e-12);
    CHECK(run(&m, 5));
    pst_model_diag d;
    pst_model_diagnose(&m, 5 * PST_DAY_S, NULL, &d);
    double share = wave4_share(&m);
    CHECK(!d.has_norms);
    CHECK(d.max_speed > 60 && d.max_speed < 150);
    CHECK(fabs(d.mass_rel) < 1e-12 && fabs(d.energy_rel) < 1e-5 && fabs(d.enstrophy_rel) < 1e-4);
    CHECK(share > 0.999);
    printf("case 6 T42 5 days: dt %g max |v| %.1f, energy %.2e enstrophy %.2e, wave-4/8 share %.6f\n", m.cfg.dt_s,
           d.max_speed, d.energy_rel, d.enstrophy_rel, share);
    pst_model_free(&m);
}

/* Case 6 at T42 approaches a T85 run (dt 150 s) as dt falls: spectral truncation of the
 * reference to T42, Williamson's norms after one day. */
static void test_case6_convergence(void)
{
    pst_model_config rc = config(6, 0, 85, 1, 1, 150);
    pst_model ref;
    pst_model_init(&ref, &rc);
    CHECK(run(&ref, 1));
    size_t nc2 = 2 * ref.sht.spec.ncoef;
    double *z = malloc(nc2 * sizeof *z), *dv = malloc(nc2 * sizeof *dv), *ph = malloc(nc2 * sizeof *ph);
    pst_dyn_get_level(&ref.dyn, 0, z, dv, ph);
    for (size_t k = 0; k < nc2; k++) z[k] -= ref.f_spec[k];
    double dts[] = {1800, 900, 450, 225}, err[4];
    for (int k = 0; k < 4; k++) {
        pst_model_config c = config(6, 0, 42, 1, 1, dts[k]);
        pst_model m;
        pst_model_init(&m, &c);
        pst_ref_grids g;
        pst_model_reference(&m, 85, z, dv, ph, ref.phibar, &g);
        CHECK(run(&m, 1));
        pst_model_diag d;
        pst_model_diagnose(&m, PST_DAY_S, &g, &d);
        err[k] = d.norms.h_l2;
        printf("case 6 T42 vs T85 after 1 day: dt %4g s h_l2 %.3e v_l2 %.3e\n", dts[k], d.norms.h_l2, d.norms.v_l2);
        pst_ref_grids_free(&g);
        pst_model_free(&m);
    }
    CHECK(err[0] > err[1] && err[1] > err[2] && err[2] > err[3]);
    CHECK(err[3] < 1e-4);
    free(z);
    free(dv);
    free(ph);
    pst_model_free(&ref);
}

static void test_case5(void)
{
    pst_model_config c = config(5, 0, 42, 1, 1, 0);
    pst_model m;
    pst_model_init(&m, &c);
    CHECK(run(&m, 15));
    pst_model_diag d;
    pst_model_diagnose(&m, 15 * PST_DAY_S, NULL, &d);
    CHECK(d.max_speed > 20 && d.max_speed < 60);
    CHECK(fabs(d.mass_rel) < 1e-12 && fabs(d.energy_rel) < 1e-5);
    printf("case 5 T42 15 days: dt %g max |v| %.1f mass %.2e energy %.2e enstrophy %.2e\n", m.cfg.dt_s, d.max_speed,
           d.mass_rel, d.energy_rel, d.enstrophy_rel);
    pst_model_free(&m);
}

/* The cosine bell goes once round the sphere in 12 days; with dt 600 s T42 keeps it to ~1 %. */
static void test_case1(void)
{
    pst_model_config c = config(1, PST_PI / 4, 42, 1, 1, 600);
    pst_model m;
    pst_model_init(&m, &c);
    CHECK(run(&m, 12));
    pst_model_diag d;
    pst_model_diagnose(&m, 12 * PST_DAY_S, NULL, &d);
    CHECK(d.norms.h_l2 < 0.02 && d.norms.h_l2 > 1e-4);
    CHECK(d.norms.v_l2 < 1e-13);
    CHECK(fabs(d.mass_rel) < 1e-12);
    printf("case 1 T42 alpha pi/4 12 days: h_l1 %.3e h_l2 %.3e h_linf %.3e\n", d.norms.h_l1, d.norms.h_l2,
           d.norms.h_linf);
    pst_model_free(&m);
}

/* Blow-up is detected: the explicit scheme far beyond its gravity-wave limit. */
/* The run loop stops at the first non-finite step, or steps on when asked to. */
static void test_blowup(void)
{
    pst_model_config c = config(2, 0, 21, 1, 1, 7200);
    c.explicit_scheme = true;
    for (int keep_going = 0; keep_going < 2; keep_going++) {
        pst_model m;
        pst_model_init(&m, &c);
        pst_model_integrate_opts o = {.steps = 400, .keep_going = keep_going};
        pst_model_integration r;
        pst_model_integrate(&m, &o, &r);
        CHECK(r.blowup_step > 1 && r.blowup_step < 400);
        CHECK(r.steps_run == (keep_going ? 400 : r.blowup_step));
        free(r.step_s);
        pst_model_free(&m);
    }
}

static void count_diag(void *arg, pst_model *m, long long step)
{
    (void)m;
    long long *seen = arg;
    seen[seen[0]++ + 1] = step;
}

/* Diagnostics every N steps but the last, timings per step and per stage after the warm-up. */
static void test_run_loop(void)
{
    pst_model_config c = config(2, 0, 21, 2, 1, 0);
    pst_model m;
    pst_model_init(&m, &c);
    long long seen[8] = {0};
    pst_model_integrate_opts o = {.steps = 6, .warmup = 2, .diag_every = 3, .on_diag = count_diag, .arg = seen};
    pst_model_integration r;
    pst_model_integrate(&m, &o, &r);
    CHECK(r.steps_run == 6 && r.blowup_step == 0);
    CHECK(seen[0] == 1 && seen[1] == 3); /* step 6 is the last: the caller's final diagnostics */
    for (int s = 0; s < 6; s++) CHECK(r.step_s[s] > 0);
    double stages = 0;
    for (int k = 0; k < PST_NSTAGES; k++) stages += r.stage_s[k];
    /* the stages are parts of a step: their means add up to at most the mean timed step */
    CHECK(stages > 0 && stages <= (r.step_s[2] + r.step_s[3] + r.step_s[4] + r.step_s[5]) / 4 * 1.001 + 1e-9);
    CHECK(r.comm_s[0] == 0 && r.comm_s[1] == 0); /* serial */
    free(r.step_s);
    pst_model_free(&m);
}

/* Levels made different from one another (case 6 scaled per level), stepped a few times. */
static double *blocked_run(int block, int pair_chunk, int levels, bool expect_slices)
{
    pst_model_config c = config(6, 0, 42, levels, block, 0);
    c.pair_chunk = pair_chunk;
    pst_model m;
    pst_model_init(&m, &c);
    CHECK((m.dyn.Bc < m.dyn.B) == expect_slices);
    const size_t n = 2 * pst_spec_count(42);
    double *f = malloc(3 * n * levels * sizeof *f);
    for (int l = 0; l < levels; l++) {
        double *x = f + 3 * n * l;
        pst_dyn_get_level(&m.dyn, l, x, x + n, x + 2 * n);
        for (size_t k = 0; k < 3 * n; k++) x[k] *= 1.0 + 0.05 * l;
        pst_dyn_set_level(&m.dyn, l, x, x + n, x + 2 * n);
    }
    CHECK(run(&m, 3 * m.cfg.dt_s / PST_DAY_S));
    for (int l = 0; l < levels; l++) {
        double *x = f + 3 * n * l;
        pst_dyn_get_level(&m.dyn, l, x, x + n, x + 2 * n);
    }
    pst_model_free(&m);
    return f;
}

/* How the levels are blocked and the chain sliced changes no result beyond round-off: one level
 * per block; 4 with the chain on whole blocks of 2 latitude pairs; 16 with the chain on slices of
 * 8 levels (T42: 8 levels' lines of one pair fill the 512 KiB budget), one pair at a time.  A
 * level or pair taken from the wrong place would move the result by far more than 1e-12. */
static void test_level_blocks(void)
{
    const int levels = 16;
    const size_t n = 3 * 2 * pst_spec_count(42);
    double *ref = blocked_run(1, 0, levels, false);
    const struct { int block, pair_chunk; bool slices; } runs[] = {{4, 2, false}, {16, 1, true}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        double *f = blocked_run(runs[r].block, runs[r].pair_chunk, levels, runs[r].slices);
        double worst = 0;
        for (int l = 0; l < levels; l++) {
            double scale = 0, diff = 0;
            for (size_t k = 0; k < n; k++) {
                scale = fmax(scale, fabs(ref[n * l + k]));
                diff = fmax(diff, fabs(f[n * l + k] - ref[n * l + k]));
            }
            worst = fmax(worst, diff / scale);
        }
        CHECK(worst < 1e-12);
        printf("levels in blocks of %d (chain slices: %s): largest difference from one level per block %.2e\n",
               runs[r].block, runs[r].slices ? "yes" : "no", worst);
        free(f);
    }
    free(ref);
}

static void test_flops(void)
{
    const pst_spectral_grid g42 = {42, 64, 128, 1}, g85 = {85, 128, 256, 1};
    pst_dyn_config t42 = {.grid = &g42}, t85 = {.grid = &g85};
    double f42 = pst_flops_per_level(&t42).total, f85 = pst_flops_per_level(&t85).total;
    CHECK(fabs(f42 / 4129859.0 - 1) < 0.10);
    CHECK(fabs(f85 / 24235477.0 - 1) < 0.10);
    CHECK_CLOSE(f42, 3849704, 0.5, 0);
    CHECK_CLOSE(f85, 23089732, 0.5, 0);
    pst_flops p = pst_flops_per_level(&t42);
    CHECK_CLOSE(p.legendre + p.fourier + p.fft + p.grid + p.spectral, p.total, 1e-6, 0);
    printf("flops per step per level: T42 %.0f (Worley 1998 %+.1f %%), T85 %.0f (Worley 1998 %+.1f %%)\n", f42,
           100 * (f42 / 4129859.0 - 1), f85, 100 * (f85 / 24235477.0 - 1));
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    openblas_set_num_threads(1);
    test_flops();
    test_case2(42, 0, 1, 1, 1e-11);
    test_case2(42, PST_PI / 4, 3, 1, 1e-11);
    test_case2(85, 0, 1, 1, 1e-10);
    test_case2(85, PST_PI / 4, 2, 2, 1e-10);
    test_case6();
    test_case6_convergence();
    test_case5();
    test_case1();
    test_blowup();
    test_run_loop();
    test_level_blocks();
    CHECK_MAIN_END();
}
