#include "runtime/rounds.h"

#include "core/alloc.h"
#include "core/errors.h"
#include "runtime/wait.h"
#include "runtime/timer.h"

#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pst_round_schedules[] = {"rounds", "sequential", NULL};

static void header_fields(pst_rec *r, const pst_ctx *c, void *arg)
{
    const pst_rounds_opts *o = arg;
    pst_rec_str(r, "schedule", o->schedule);
    pst_rec_int(r, "seed", o->seed);
    pst_rec_num(r, "margin", o->margin);
    pst_rec_num(r, "confidence", o->confidence);
    pst_rec_bool(r, "adaptive", o->adaptive);
    pst_rec_num(r, "precision", o->precision);
    pst_rec_num(r, "budget_s", o->budget_s);
}

void pst_rounds_setup(pst_rounds_opts *o, pst_ctx *ctx, long long reps, size_t comparisons)
{
    bool rounds = !strcmp(o->schedule, "rounds");
    if (o->adaptive && !rounds) pst_usage_error("--adaptive needs --schedule rounds (adaptive rounds are interleaved)");
    if (o->adaptive && reps < PST_MIN_VERDICT_ROUNDS)
        pst_usage_error("--adaptive needs --reps %d or more (got %lld): a median's interval needs that many rounds",
                        PST_MIN_VERDICT_ROUNDS, reps);
    if (o->budget_s > 0 && !o->adaptive) pst_usage_error("--budget limits the adaptive rounds: add --adaptive");
    o->sets_left = comparisons;
    o->budget_start_s = -1;
    pst_ctx_add_header(ctx, header_fields, o);
}

/* splitmix64: a seeded, portable shuffle every rank computes identically. */
static unsigned long long mix(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void shuffled(size_t *order, size_t k, unsigned long long key)
{
    for (size_t i = 0; i < k; i++) order[i] = i;
    for (size_t i = k; i > 1; i--) {
        key = mix(key);
        size_t j = (size_t)(key % i), tmp = order[i - 1];
        order[i - 1] = order[j];
        order[j] = tmp;
    }
}

void pst_round_order(const pst_rounds_opts *o, unsigned long long stream, size_t round, size_t *order, size_t k)
{
    if (!strcmp(o->schedule, "sequential")) {
        for (size_t i = 0; i < k; i++) order[i] = i;
        return;
    }
    shuffled(order, k, mix((unsigned long long)o->seed) ^ mix(stream << 32 ^ round));
}

static void grow(pst_rounds *R, size_t need)
{
    if (need <= R->cap) return;
    R->cap = need > 2 * R->cap ? need : 2 * R->cap;
    for (size_t i = 0; i < R->k; i++) {
        R->t[i] = pst_realloc(R->t[i], R->cap * sizeof **R->t);
    }
}

/* Max over ranks of this rank's times for rounds [from, to) of every alternative. */
static void combine(pst_rounds *R, double *local, size_t from, size_t to)
{
    size_t cnt = R->k * (to - from);
    /* Sleeping, not spinning: ranks that sit the comparison out must not steal the cores of
     * the ranks being measured (MPI libraries busy-poll). */
    MPI_Request req;
    MPI_Iallreduce(MPI_IN_PLACE, local, (int)cnt, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD, &req);
    pst_wait_sleeping(1, &req);
    for (size_t i = 0; i < R->k; i++)
        for (size_t r = from; r < to; r++) R->t[i][r] = local[(r - from) * R->k + i];
}

/* The first k alternatives' medians are all known to --precision. */
static bool precise(const pst_rounds *R, size_t k, const pst_rounds_opts *o)
{
    for (size_t i = 0; i < k; i++) {
        double lo, hi, med = pst_median_ci(R->t[i], R->n, o->confidence, &lo, &hi);
        if (!(isfinite(lo) && (hi - lo) / 2 <= o->precision * med)) return false;
    }
    return true;
}

void pst_rounds_run(pst_rounds *R, pst_rounds_opts *o, size_t k, long long reps, pst_turn_fn turn, void *arg)
{
    *R = (pst_rounds){.k = k, .t = pst_calloc(k, sizeof *R->t)};
    size_t nreps = (size_t)reps;
    grow(R, nreps);
    double t0 = pst_now_s();
    if (o->budget_start_s < 0) o->budget_start_s = t0;
    double share_s =
        o->budget_s > 0 ? (o->budget_s - (t0 - o->budget_start_s)) / (double)(o->sets_left ? o->sets_left : 1) : 0;
    unsigned long long set = o->sets_run++;
    if (o->sets_left) o->sets_left--;
    double *local = pst_malloc(k * nreps * sizeof *local);
    size_t *order = pst_malloc(k * sizeof *order);

    if (!strcmp(o->schedule, "sequential")) {
        for (size_t i = 0; i < k; i++)
            for (size_t r = 0; r < nreps; r++) local[r * k + i] = turn(arg, i, r);
        combine(R, local, 0, nreps);
        R->n = nreps;
    } else {
        size_t max_rounds = o->budget_s > 0 ? (size_t)1e6 : 10 * nreps;
        for (size_t r = 0;; r++) {
            pst_round_order(o, set, r, order, k);
            double round_s[k ? k : 1];
            for (size_t i = 0; i < k; i++) round_s[order[i]] = turn(arg, order[i], r);
            grow(R, r + 1);
            combine(R, round_s, r, r + 1);
            R->n = r + 1;
            if (R->n < nreps) continue;
            /* Rank 0's clock and judgement decide for everyone. */
            int more = o->adaptive && R->n < max_rounds && !precise(R, R->k, o) &&
                       (o->budget_s <= 0 || pst_now_s() - t0 < share_s);
            MPI_Request req;
            MPI_Ibcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
            pst_wait_sleeping(1, &req);
            if (!more) break;
        }
    }
    R->precision_reached = precise(R, R->k, o);
    R->elapsed_s = pst_now_s() - t0;
    free(order);
    free(local);
}

void pst_rounds_free(pst_rounds *R)
{
    for (size_t i = 0; i < R->k; i++) free(R->t[i]);
    free(R->t);
    *R = (pst_rounds){0};
}

pst_summary pst_rec_rounds(pst_rec *r, const pst_rounds *R, size_t alt, const pst_rounds_opts *o)
{
    pst_summary s = pst_summarize(R->t[alt], R->n);
    double lo, hi;
    double med = pst_median_ci(R->t[alt], R->n, o->confidence, &lo, &hi);
    pst_rec_times(r, &s);
    pst_rec_str(r, "stat", "t_med");
    pst_rec_num(r, "ci_low", lo);
    pst_rec_num(r, "ci_high", hi);
    pst_rec_int(r, "rounds", (long long)R->n);
    pst_rec_bool(r, "precision_reached", isfinite(lo) && (hi - lo) / 2 <= o->precision * med);
    pst_rec_nums_compact(r, "round_s", R->t[alt], R->n);
    return s;
}

pst_verdict pst_rounds_verdict(const pst_rounds *R, size_t k, const pst_rounds_opts *o, bool *in_set, double *median)
{
    size_t n = R->n;
    double *t = pst_malloc((k * n + 1) * sizeof *t);
    for (size_t i = 0; i < k; i++) memcpy(&t[i * n], R->t[i], n * sizeof *t);
    pst_verdict v = pst_verdict_of(t, k, n, o->confidence, o->margin, in_set, median, NULL, NULL);
    free(t);
    return v;
}

void pst_rec_verdict(pst_rec *r, const pst_verdict *v, const bool *in_set, const char *const *labels,
                     const pst_rounds *R, const pst_rounds_opts *o, const pst_ctx *c)
{
    const char *set[v->nbest ? v->nbest : 1];
    size_t ns = 0;
    set[ns++] = labels[v->best];
    for (size_t i = 0; i < v->k; i++)
        if (in_set[i] && i != v->best) set[ns++] = labels[i];
    pst_rec_str(r, "stat", "t_med");
    pst_rec_str(r, "best", labels[v->best]);
    pst_rec_strs(r, "best_set", set, ns);
    pst_rec_bool(r, "decided", v->decided);
    pst_rec_int(r, "nalternatives", (long long)v->k);
    pst_rec_num(r, "margin", o->margin);
    pst_rec_num(r, "confidence", o->confidence);
    pst_rec_str(r, "level", v->level);
    const char *level_ci[2] = {v->level_lo, v->level_hi};
    pst_rec_strs(r, "level_ci", level_ci, 2);
    double rel_ci[2] = {v->median_rel_lo, v->median_rel_hi};
    pst_rec_nums(r, "median_rel_ci", rel_ci, 2);
    pst_rec_int(r, "rounds", (long long)v->n);
    /* Over the verdict's alternatives only: a comparator measured in the same rounds (the kernel's
     * collective) does not make the verdict imprecise. */
    bool precision_reached = precise(R, v->k, o);
    pst_rec_bool(r, "precision_reached", precision_reached);

    const char *caveats[6];
    size_t nc = 0;
    if (c->oversubscribed) caveats[nc++] = "oversubscribed";
    if (c->noisy) caveats[nc++] = "noisy";
    if (v->n < PST_MIN_VERDICT_ROUNDS) caveats[nc++] = "fewer than 10 rounds";
    if (!precision_reached) caveats[nc++] = "precision not reached";
    /* Below 20 ticks of the clock a verdict is about the timer, not the alternatives. */
    if (c->timer_resolution_s > 0 && v->best_median < 20 * c->timer_resolution_s)
        caveats[nc++] = "below 20x timer resolution";
    pst_rec_bool(r, "verdict_ok", nc == 0);
    pst_rec_strs(r, "verdict_caveats", caveats, nc);
}

const char *pst_tie_set(const pst_verdict *v, const bool *in_set, const char *const *labels, const double *median,
                        char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "%s", labels[v->best]);
    /* The rest in order of their medians; past PST_TIE_SET_INLINE members, a count. */
    bool done[v->k ? v->k : 1];
    memset(done, 0, sizeof done);
    done[v->best] = true;
    for (size_t m = 1; m < v->nbest && used < len; m++) {
        if (m == PST_TIE_SET_INLINE) {
            snprintf(buf + used, len - used, " +%zu more", v->nbest - m);
            break;
        }
        size_t next = v->k;
        for (size_t i = 0; i < v->k; i++)
            if (in_set[i] && !done[i] && (next == v->k || median[i] < median[next])) next = i;
        if (next == v->k) break;
        done[next] = true;
        used += (size_t)snprintf(buf + used, len - used, " \u2248 %s", labels[next]);
    }
    return buf;
}
