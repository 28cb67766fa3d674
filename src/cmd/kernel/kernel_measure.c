/* pstswm kernel's measurement, every rank: each algorithm's alternatives (protocols x overlap,
 * and the stage's collective as the comparator) in interleaved rounds, its table printed as it
 * ends; then, per stage and family, each algorithm's fastest alternative in one more set of
 * rounds.  Every call is verified outside the timing; a wrong result ends the run. */
#include "cmd/kernel/kernel_impl.h"

#include "core/alloc.h"
#include "core/errors.h"
#include "model/libs/mathlibs.h"
#include "runtime/locality.h"
#include "runtime/timer.h"
#include "runtime/watchdog.h"
#include "stats/stats.h"
#include "stats/verdict.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct kturn {
    kernel_cfg *cfg;
    kcase *kc;
    kplan **plans;
    long long *bad;          /* per alternative */
} kturn;

/* One turn: the alternative's warm-up calls before its first round, one untimed call to re-warm
 * it after the previous turn ran another, then one timed call, verified outside the timing. */
static double kernel_turn(void *arg, size_t i, size_t round)
{
    kturn *T = arg;
    for (long long w = 0; w < (round == 0 ? T->cfg->warmup : 0) + 1; w++) kcase_run(T->kc, T->plans[i]);
    pst_transport_settle();
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = pst_now_s();
    kcase_run(T->kc, T->plans[i]);
    double t = pst_now_s() - t0;
    if (!T->cfg->ctx.no_verify) T->bad[i] += kcase_verify(T->kc);
    return t;
}

/* The alternatives of one algorithm: each protocol x overlap setting (an overlap protocol 2,x /
 * 3,x is always overlapped and runs once), or a library collective alone; then the stage's
 * collective as the comparator (unless it is that collective). */
static void alternatives(const kernel_cfg *cfg, outcome *o)
{
    const pst_algorithm *a = o->a, *coll = pst_algorithm_collective(a->family);
    o->alts = pst_malloc((2 * cfg->nprotocols + 2) * sizeof *o->alts);
    size_t n = 0;
    if (a->collective) {
        alt *al = &o->alts[n++];
        *al = (alt){NULL, false, a, ""};
        snprintf(al->label, sizeof al->label, "%s", a == coll ? "coll" : a->name);
    } else {
        for (size_t i = 0; i < cfg->nprotocols; i++) {
            const pst_protocol *p = cfg->protocols[i];
            for (int ov = 0; ov < 2; ov++) {
                if (p->overlap && !ov) continue;
                if (!p->overlap && !cfg->overlaps[ov]) continue;
                alt *al = &o->alts[n++];
                *al = (alt){p, ov == 1, a, ""};
                snprintf(al->label, sizeof al->label, "%s%s", p->code, ov && !p->overlap ? "+ov" : "");
            }
        }
    }
    o->nprotocol_alts = n;
    if (coll && coll != a) o->alts[n++] = (alt){NULL, false, coll, "coll"};
    o->nalts = n;
}

static void run_algorithm(kernel_cfg *cfg, const pst_algorithm *a, int stage, outcome *o)
{
    kgeom *g = &cfg->geom[stage];
    kcase *kc = kcase_create(a->family, stage, &cfg->prob, g, !strcmp(cfg->result, "partitioned"), cfg->blas,
                            cfg->legendre_kernel, &cfg->fft);
    *o = (outcome){.a = a, .stage = stage};
    alternatives(cfg, o);
    long long bytes = kcase_bytes(kc);
    MPI_Allreduce(&bytes, &o->bytes_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (cfg->ctx.rank == 0) {
        printf("\n== %s, %s stage: %d communicator%s of %d ranks, %lld bytes on rank 0, %lld+ rounds (%s); times in ms "
               "==\n",
               a->name, pst_kernel_stage_names[stage], cfg->comms[stage], cfg->comms[stage] == 1 ? "" : "s",
               stage == 0 ? g->px : g->py, bytes, cfg->reps, cfg->rounds.schedule);
        printf("  %-14s %-36s %-7s %10s %10s %21s %6s\n", "alt", "protocol", "overlap", "min", "median", "median CI",
               "rounds");
    }
    /* Plans for every alternative (a one-sided transport sets up its area on the stage
     * communicator here, collectively), then the rounds. */
    kturn T = {cfg, kc, pst_malloc(o->nalts * sizeof *T.plans), pst_calloc(o->nalts, sizeof *T.bad)};
    for (size_t i = 0; i < o->nalts; i++) T.plans[i] = kcase_plan(kc, o->alts[i].alg, o->alts[i].p, o->alts[i].overlap);
    o->win_model = pst_transport_memory_model(cfg->transport, g->comm);
    pst_watchdog_phase("kernel %s (%s stage): %zu alternatives in rounds", a->name, pst_kernel_stage_names[stage],
                       o->nalts);
    pst_rounds_run(&o->R, &cfg->rounds, o->nalts, cfg->reps, kernel_turn, &T);
    for (size_t i = 0; i < o->nalts; i++) kplan_free(T.plans[i]);
    pst_transport_release(cfg->transport, g->comm);
    MPI_Allreduce(MPI_IN_PLACE, T.bad, (int)o->nalts, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (size_t i = 0; i < o->nalts; i++)
        if (T.bad[i])
            pst_collective_exit(PST_EXIT_FAILED,
                                "verification failed: %s (%s stage) protocol %s overlap %s: %lld wrong results "
                                "against the MPI collective",
                                a->name, pst_kernel_stage_names[stage], o->alts[i].p ? o->alts[i].p->code : "coll",
                                o->alts[i].overlap ? "on" : "off", T.bad[i]);
    free(T.plans);
    free(T.bad);
    kcase_free(kc);
    if (cfg->ctx.rank != 0) return;
    for (size_t i = 0; i < o->nalts; i++) {
        const alt *al = &o->alts[i];
        /* The comparator's point belongs to the collective's own algorithm run. */
        if (i < o->nprotocol_alts) pst_kernel_emit_point(cfg, o, i);
        double lo, hi, med = pst_median_ci(o->R.t[i], o->R.n, cfg->rounds.confidence, &lo, &hi);
        pst_summary sm = pst_summarize(o->R.t[i], o->R.n);
        char ci[32];
        snprintf(ci, sizeof ci, "[%.4f, %.4f]", lo * 1e3, hi * 1e3);
        printf("  %-14s %-36s %-7s %10.4f %10.4f %21s %6zu%s\n", al->label, al->p ? al->p->slug : "mpi-collective",
               al->overlap ? "on" : "off", sm.min * 1e3, med * 1e3, ci, o->R.n,
               i >= o->nprotocol_alts ? "  (comparator)" : "");
    }
    fflush(stdout);
}

/* ---- the family comparison: which algorithm to use ---- */

/* The alternative of o with the smallest median over rounds (rank 0 decides: it holds the rounds). */
static size_t fastest_alt(const outcome *o)
{
    size_t best = 0;
    double lo, hi, best_s = pst_median_ci(o->R.t[0], o->R.n, 0.5, &lo, &hi);
    for (size_t i = 1; i < o->nprotocol_alts; i++) {
        double t = pst_median_ci(o->R.t[i], o->R.n, 0.5, &lo, &hi);
        if (t < best_s) best = i, best_s = t;
    }
    return best;
}

/* Collective.  out[0 .. n) are this stage's outcomes; false when the family has fewer than two members. */
static bool run_family(kernel_cfg *cfg, int stage, pst_alg_family family, const outcome *out, size_t n,
                       family_outcome *f)
{
    *f = (family_outcome){.stage = stage, .family = family, .alts = pst_malloc((n ? n : 1) * sizeof *f->alts),
                          .labels = pst_malloc((n ? n : 1) * sizeof *f->labels)};
    for (size_t i = 0; i < n; i++) {
        const outcome *o = &out[i];
        if (o->a->family != family || o->nprotocol_alts == 0) continue;
        unsigned long long pick = cfg->ctx.rank == 0 ? fastest_alt(o) : 0;
        MPI_Bcast(&pick, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
        const alt *al = &o->alts[pick];
        f->alts[f->nalts] = *al;
        if (o->a->collective) snprintf(f->labels[f->nalts], sizeof f->labels[0], "%s", o->a->name);
        else snprintf(f->labels[f->nalts], sizeof f->labels[0], "%s %s", o->a->name, al->label);
        f->nalts++;
    }
    if (f->nalts < 2) return false;
    kgeom *g = &cfg->geom[stage];
    kcase *kc = kcase_create(family, stage, &cfg->prob, g, !strcmp(cfg->result, "partitioned"), cfg->blas,
                            cfg->legendre_kernel, &cfg->fft);
    long long bytes = kcase_bytes(kc);
    MPI_Allreduce(&bytes, &f->bytes_max, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    kturn T = {cfg, kc, pst_malloc(f->nalts * sizeof *T.plans), pst_calloc(f->nalts, sizeof *T.bad)};
    for (size_t i = 0; i < f->nalts; i++) T.plans[i] = kcase_plan(kc, f->alts[i].alg, f->alts[i].p, f->alts[i].overlap);
    pst_watchdog_phase("kernel %s stage: %zu %s algorithms in rounds", pst_kernel_stage_names[stage], f->nalts,
                       pst_alg_family_name(family));
    pst_rounds_run(&f->R, &cfg->rounds, f->nalts, cfg->reps, kernel_turn, &T);
    for (size_t i = 0; i < f->nalts; i++) kplan_free(T.plans[i]);
    pst_transport_release(cfg->transport, g->comm);
    MPI_Allreduce(MPI_IN_PLACE, T.bad, (int)f->nalts, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (size_t i = 0; i < f->nalts; i++)
        if (T.bad[i])
            pst_collective_exit(PST_EXIT_FAILED,
                                "verification failed: %s (%s stage, the algorithms compared): %lld wrong results",
                                f->labels[i], pst_kernel_stage_names[stage], T.bad[i]);
    free(T.plans);
    free(T.bad);
    kcase_free(kc);
    return true;
}

void *pst_kernel_measure_stage(void *p, size_t set)
{
    kernel_cfg *cfg = p;
    int stage = (int)set;
    const kgeom *g = &cfg->geom[stage];
    int csize = stage == 0 ? g->px : g->py;
    stage_run *run = pst_calloc(1, sizeof *run);
    /* Whether the stages' communicators stay inside a node: known once the run has started. */
    for (int s = 0; stage == 0 && s < 2; s++) cfg->stage_locality[s] = pst_locality_of_comms(cfg->geom[s].comm);
    if (stage == 0 && cfg->ctx.rank == 0) {
        printf("kernel %s (%d x %d grid, %d levels, %d fields), grid %s, transport %s, %zu protocols\n",
               cfg->prob.label, cfg->prob.nlat, cfg->prob.nlon, cfg->prob.levels, cfg->prob.fields, cfg->grid_spec,
               cfg->transport, cfg->nprotocols);
        pst_math_libraries_print_behind(); /* the stages' dgemms and FFTs run on these libraries' kernels */
    }
    if (!cfg->run_stage[stage]) return run;
    if (csize == 1) {
        if (cfg->ctx.rank == 0)
            printf("note: %s stage skipped: its communicators have 1 rank (grid %dx%d)\n",
                   pst_kernel_stage_names[stage], g->px, g->py);
        return run;
    }
    size_t first = cfg->nout;
    for (size_t a = 0; a < pst_nalgorithms; a++)
        if (cfg->run_alg[a] && serves(&pst_algorithms[a], stage))
            run_algorithm(cfg, &pst_algorithms[a], stage, &cfg->out[cfg->nout++]);
    for (int fam = 0; fam < NFAMILIES; fam++)
        run->compared[fam] =
            run_family(cfg, stage, (pst_alg_family)fam, cfg->out + first, cfg->nout - first, &run->families[fam]);
    return run;
}

void pst_kernel_free_stage(void *p, void *data)
{
    stage_run *run = data;
    for (int fam = 0; fam < NFAMILIES; fam++) {
        family_outcome *f = &run->families[fam];
        if (f->nalts >= 2) pst_rounds_free(&f->R);
        free(f->alts);
        free(f->labels);
    }
    free(run);
}
