/* pstswm coll --nonblocking and --persistent: each op's other forms, timed after its loops on the
 * same buffers with the same result checks (docs/pingpong-coll.md). */
#include "cmd/coll/coll_impl.h"

#include "cmd/common/records.h"
#include "core/alloc.h"
#include "runtime/emit.h"
#include "runtime/timer.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double cpu_sink;

/* Dependent multiply-adds the optimiser cannot drop: the compute the collective may overlap. */
static void spin(long long units)
{
    double x = cpu_sink;
    for (long long i = 0; i < units; i++) x = x * 0.999999 + 1e-7;
    cpu_sink = x;
}

/* The time per call of a loop of `calls` that began at t0: the max over comm (outside the timing). */
static double loop_max(MPI_Comm comm, double t0, long long calls)
{
    double t = (pst_now_s() - t0) / (double)calls;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
    return t;
}

/* IMB-NBC's overlap: the share of the shorter of call and compute hidden by running them together. */
static double overlap_pct(double pure_s, double cpu_s, double ovrl_s)
{
    double pct = (pure_s + cpu_s - ovrl_s) / fmin(pure_s, cpu_s) * 100;
    return pct < 0 ? 0 : pct > 100 ? 100 : pct;
}

enum { NB_PURE, NB_CPU, NB_OVRL, NB_OVRL_TEST, NB_MODES };
static const char *const nb_mode_names[NB_MODES] = {"pure", "cpu", "ovrl", "ovrl_test"};
static const char *const p_mode_names[2] = {"blocking", "persistent"};

/* The forms' rounds run their loops in the order of every comparison's rounds (runtime/rounds.h),
 * so a drift of host load does not always land on the same loop: each form its own stream of
 * orders, numbered past the comparisons pst_rounds_run makes (the op's comparison has just run,
 * on every rank alike). */
static unsigned long long form_stream(const coll_cfg *cfg, unsigned long long form)
{
    return (1ull << 31) + 2 * (cfg->rounds.sets_run - 1) + form;
}

/* Round k's order of the form's k_modes loops, kept in *orders ([round][mode]) for the record. */
static const size_t *round_order(const coll_cfg *cfg, unsigned long long form, size_t k, size_t k_modes,
                                 size_t **orders)
{
    *orders = pst_realloc(*orders, (k + 1) * k_modes * sizeof **orders);
    pst_round_order(&cfg->rounds, form_stream(cfg, form), k, *orders + k * k_modes, k_modes);
    return *orders + k * k_modes;
}

/* One loop of the nonblocking measurement: the call alone (start + wait), the compute alone, or
 * both, the compute between start and wait, with an MPI_Test every test_every chunks. */
static double nonblocking_loop(const coll_cfg *cfg, const coll_op *op, coll_run *r, long long iters, int mode,
                               long long units)
{
    bool mpi = mode != NB_CPU, cpu = mode != NB_PURE, test = mode == NB_OVRL_TEST;
    MPI_Request req = MPI_REQUEST_NULL;
    MPI_Barrier(r->comm);
    double t0 = pst_now_s();
    for (long long i = 0; i < iters; i++) {
        if (mpi) op->icall(r, root_of(cfg, i, r->n), &req);
        for (int c = 0; cpu && c < PST_COLL_CPU_CHUNKS; c++) {
            spin(units);
            int done;
            if (test && (c + 1) % cfg->test_every == 0) MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        }
        if (mpi) MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    return loop_max(r->comm, t0, iters);
}

/* IMB-NBC's method: the compute loop is calibrated once to the call's own time; then --reps
 * rounds of the four loops; results checked after every loop that called MPI. */
long long pst_coll_nonblocking_form(const coll_cfg *cfg, const coll_op *op, coll_run *r, long long iters, coll_forms *f)
{
    const bool verify = !cfg->ctx.no_verify;
    const bool was_root = cfg->rotate ? r->me < iters : r->me == cfg->root;
    size_t R = (size_t)cfg->reps;
    double *t = pst_malloc(NB_MODES * R * sizeof *t);
    long long corrupted = 0, probe = 1 << 16;
    double t0 = pst_now_s();
    spin(probe);
    double unit_s = loop_max(r->comm, t0, probe);
    double pure_s = nonblocking_loop(cfg, op, r, iters, NB_PURE, 0);
    long long units = (long long)(pure_s / PST_COLL_CPU_CHUNKS / unit_s) + 1;
    f->rounds = R;
    for (size_t k = 0; k < R; k++) {
        const size_t *order = round_order(cfg, 0, k, NB_MODES, &f->nonblocking_order);
        for (int m = 0; m < NB_MODES; m++) {
            int mode = (int)order[m];
            if (verify && mode != NB_CPU) op->fill(r, (long long)k, root_of(cfg, 0, r->n));
            t[mode * R + k] = nonblocking_loop(cfg, op, r, iters, mode, units);
            if (verify && mode != NB_CPU) corrupted += op->check(r, (long long)k, root_of(cfg, 0, r->n), was_root);
        }
    }
    f->pure_s = pst_summarize(t + NB_PURE * R, R).median;
    f->cpu_s = pst_summarize(t + NB_CPU * R, R).median;
    f->ovrl_s = pst_summarize(t + NB_OVRL * R, R).median;
    f->ovrl_test_s = pst_summarize(t + NB_OVRL_TEST * R, R).median;
    f->overlap_pct = overlap_pct(f->pure_s, f->cpu_s, f->ovrl_s);
    f->overlap_test_pct = overlap_pct(f->pure_s, f->cpu_s, f->ovrl_test_s);
    free(t);
    return corrupted;
}

/* The persistent form: its set-up timed once (the max over ranks), then --reps rounds of a
 * blocking loop and a persistent one (MPI_Start + MPI_Wait), paired.  A persistent op binds its
 * root, so both use one root (--root, or 0 with rotate). */
long long pst_coll_persistent_form(const coll_cfg *cfg, const coll_op *op, coll_run *r, long long iters, coll_forms *f)
{
    const bool verify = !cfg->ctx.no_verify;
    const int root = cfg->rotate ? 0 : cfg->root;
    size_t R = (size_t)cfg->reps;
    double *t = pst_malloc(2 * R * sizeof *t);
    long long corrupted = 0;
    MPI_Request req;
    MPI_Barrier(r->comm);
    double t0 = pst_now_s();
    op->pinit(r, root, &req);
    f->init_s = loop_max(r->comm, t0, 1);
    MPI_Start(&req); /* warm-up: a persistent op's first start may finish its set-up */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    f->rounds = R;
    for (size_t k = 0; k < R; k++) {
        const size_t *order = round_order(cfg, 1, k, 2, &f->persistent_order);
        for (int m = 0; m < 2; m++) {
            bool persistent = order[m] == 1;
            if (verify) op->fill(r, (long long)k, root);
            MPI_Barrier(r->comm);
            t0 = pst_now_s();
            for (long long i = 0; i < iters; i++) {
                if (!persistent) {
                    op->call(r, root);
                    continue;
                }
                MPI_Start(&req);
                MPI_Wait(&req, MPI_STATUS_IGNORE);
            }
            t[persistent * R + k] = loop_max(r->comm, t0, iters);
            if (verify) corrupted += op->check(r, (long long)k, root, r->me == root);
        }
    }
    MPI_Request_free(&req);
    f->blocking_s = pst_summarize(t, R).median;
    f->persistent_s = pst_summarize(t + R, R).median;
    f->persistent_ratio = pst_paired_ratio(t + R, t, R, cfg->rounds.confidence, cfg->rounds.margin);
    free(t);
    return corrupted;
}

void pst_coll_print_forms(const coll_cfg *cfg, const coll_point *pt)
{
    const coll_forms *f = pt->forms;
    if (cfg->nonblocking)
        printf("  %-10s %10s nonblocking: t_pure %.3f us, t_cpu %.3f, t_ovrl %.3f (with MPI_Test %.3f): overlap %.0f "
               "%% (%.0f %%)\n",
               "", "", f->pure_s * 1e6, f->cpu_s * 1e6, f->ovrl_s * 1e6, f->ovrl_test_s * 1e6, f->overlap_pct,
               f->overlap_test_pct);
    if (cfg->persistent)
        printf("  %-10s %10s persistent: set-up %.3f us; per call %.3f us against blocking %.3f: ratio %.3f [%.3f, "
               "%.3f]%s\n",
               "", "", f->init_s * 1e6, f->persistent_s * 1e6, f->blocking_s * 1e6, f->persistent_ratio.ratio,
               f->persistent_ratio.lo, f->persistent_ratio.hi, f->persistent_ratio.significant ? "" : " n.s.");
}

/* round_order: per round, the form's loops by name in the order they ran ("cpu,pure,ovrl,ovrl_test"). */
static void rec_round_order(pst_rec *r, const size_t *order, size_t rounds, const char *const *names, size_t k_modes)
{
    char **text = pst_malloc((rounds ? rounds : 1) * sizeof *text);
    for (size_t k = 0; k < rounds; k++) {
        size_t len = 1;
        for (size_t m = 0; m < k_modes; m++) len += strlen(names[order[k * k_modes + m]]) + 1;
        text[k] = pst_malloc(len);
        text[k][0] = 0;
        for (size_t m = 0; m < k_modes; m++) {
            if (m) strcat(text[k], ",");
            strcat(text[k], names[order[k * k_modes + m]]);
        }
    }
    pst_rec_strs(r, "round_order", (const char **)text, rounds);
    for (size_t k = 0; k < rounds; k++) free(text[k]);
    free(text);
}

/* The op, size and communicator fields the form summaries share with the point. */
static void form_identity(pst_rec *r, const coll_cfg *cfg, const coll_point *pt)
{
    pst_rec_str(r, "op", pt->op->name);
    pst_rec_int(r, "bytes", pt->bytes);
    pst_rec_int(r, "comm_size", pt->n);
    pst_rec_int(r, "iters", pt->iters);
    pst_rec_int(r, "rounds", cfg->reps);
    pst_rec_bool(r, "verified", !cfg->ctx.no_verify && pt->op->bw != PST_BW_NONE);
}

void pst_coll_emit_forms(coll_cfg *cfg, const coll_point *pt)
{
    const coll_forms *f = pt->forms;
    pst_rec r;
    if (cfg->nonblocking) {
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_coll_overlap);
        form_identity(&r, cfg, pt);
        pst_rec_int(&r, "cpu_chunks", PST_COLL_CPU_CHUNKS);
        pst_rec_int(&r, "test_every", cfg->test_every);
        pst_rec_num(&r, "t_pure_s", f->pure_s);
        pst_rec_num(&r, "t_cpu_s", f->cpu_s);
        pst_rec_num(&r, "t_ovrl_s", f->ovrl_s);
        pst_rec_num(&r, "t_ovrl_test_s", f->ovrl_test_s);
        pst_rec_num(&r, "overlap_pct", f->overlap_pct);
        pst_rec_num(&r, "overlap_test_pct", f->overlap_test_pct);
        rec_round_order(&r, f->nonblocking_order, f->rounds, nb_mode_names, NB_MODES);
        pst_rec_emit(&r, &cfg->ctx);
    }
    if (cfg->persistent) {
        pst_rec_begin(&r, &cfg->ctx, &pst_schema_coll_persistent);
        form_identity(&r, cfg, pt);
        if (pt->op->rooted) pst_rec_int(&r, "root", cfg->rotate ? 0 : cfg->root);
        else pst_rec_str(&r, "root", NULL);
        pst_rec_num(&r, "init_s", f->init_s);
        pst_rec_num(&r, "t_blocking_s", f->blocking_s);
        pst_rec_num(&r, "t_persistent_s", f->persistent_s);
        pst_rec_num(&r, "persistent_ratio", f->persistent_ratio.ratio);
        pst_rec_nums(&r, "persistent_ratio_ci", (double[]){f->persistent_ratio.lo, f->persistent_ratio.hi}, 2);
        pst_rec_bool(&r, "persistent_significant", f->persistent_ratio.significant);
        rec_round_order(&r, f->persistent_order, f->rounds, p_mode_names, 2);
        pst_rec_emit(&r, &cfg->ctx);
    }
}

void pst_coll_forms_free(coll_forms *f)
{
    free(f->nonblocking_order);
    free(f->persistent_order);
}
