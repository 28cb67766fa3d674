/* The time step's schedule (step.h): per level block the inverse sums, the chain of stages chunk
 * by chunk of latitude pairs and slice by slice of levels, the forward sums, the column's sum and
 * the update; plain, or with the level pipeline.  Each stage's time is taken here, at one call
 * per stage (stage_done), and nowhere else. */
#include "model/stages/step.h"

#include "runtime/events.h"

#include <omp.h>

/* The time since *t goes to `stage`'s event; *t moves on to now. */
static inline void stage_done(pst_dyn *d, pst_stage stage, double *t) { pst_event_end(&d->events, (int)stage, t); }

/* The chain's stages in their order (step.h). */
static const struct {
    pst_chain_stage_fn *run;
    pst_stage stage;
} chain[] = {
#define PST_STEP_ROW(name, stage) {pst_step_##name, stage},
    PST_STEP_CHAIN(PST_STEP_ROW)
#undef PST_STEP_ROW
};

/* The chain over the chunks of block b, chunk by chunk of latitude pairs and slice by slice of
 * levels.  With chunks_in_threads the chunks are shared out among the threads, each whole in its
 * thread's own buffers (the same plans and arithmetic as on one thread); else they run one after
 * another and each stage shares a chunk's pairs (PST_PAIRS_IN_THREADS).  MPI stays on the master
 * (funneled): it alone moves the level pipeline, between its chunks, and times the stages, so a
 * stage's time is the master's share of the chain; its wait for the other threads at the end is
 * the thread_wait event. */
static void run_chain(pst_dyn *d, int b, const pst_substep *s, double *t)
{
    const int slices = d->B / d->Bc, nchunks = d->npairs / d->pair_chunk * slices;
#pragma omp parallel num_threads(d->nthreads) if (d->chunks_in_threads)
    {
        const int me = omp_get_thread_num();
#pragma omp for schedule(static)
        for (int k = 0; k < nchunks; k++) {
            const int p0 = k / slices * d->pair_chunk;
            if (me == 0 && d->out_next) {
                pst_pleg_sum_progress(d->pleg);
                stage_done(d, PST_STAGE_LEGENDRE, t);
            }
            const pst_chunk c = {b, p0, p0 + d->pair_chunk, k % slices * d->Bc, d->chunks_in_threads ? me : 0};
            for (size_t j = 0; j < sizeof chain / sizeof chain[0]; j++) {
                chain[j].run(d, s, &c);
                if (me == 0) stage_done(d, chain[j].stage, t);
            }
        }
    }
    if (d->chunks_in_threads) pst_event_end(&d->events, d->thread_wait_event, t);
}

/* One substep of one level block up to its forward sums over the local latitudes: the inverse
 * sums for all pairs, the chain, then the forward sums.  Between chunks it moves the previous
 * block's sum along (the level pipeline). */
static void compute_block(pst_dyn *d, int b, const pst_substep *s, double *out)
{
    double t;
    pst_event_begin(&t);
    if (d->legall) {
        pst_step_inverse_sums(d, d->state[b], d->legall, d->sum_pairs);
        pst_pleg_to_fourier(d->pleg, d->legall, d->legbuf);
    } else {
        pst_step_inverse_sums(d, d->state[b], d->legbuf, d->npairs);
    }
    stage_done(d, PST_STAGE_LEGENDRE, &t);
    run_chain(d, b, s, &t);
    if (d->legall) {
        pst_pleg_to_spectral(d->pleg, d->legbuf, d->legall);
        pst_step_forward_sums(d, d->legall, d->sum_pairs, out);
    } else if (!d->sums_in_vsum ||
               d->out_next) { /* else the vector sum computes them just in time (ringpipe, iallreduce) */
        pst_step_forward_sums(d, d->legbuf, d->npairs, out);
    }
    stage_done(d, PST_STAGE_LEGENDRE, &t);
}

/* The spectral update of block b from its complete sums. */
static bool update_block(pst_dyn *d, int b, const pst_substep *s, const double *out)
{
    double t;
    pst_event_begin(&t);
    bool ok = pst_step_update(d, d->state[b], out, s, 0, d->spec.ncoef);
    stage_done(d, PST_STAGE_SPECTRAL, &t);
    return ok;
}

/* The partitioned update of block b: the column's sum ends with each rank's block of the
 * coefficients, the rank updates those, and the sum's gather shares the new state, so no rank
 * updates them all (the gather is the Legendre stage's communication). */
static bool update_partitioned(pst_dyn *d, int b, const pst_substep *s, double *t)
{
    size_t c0, c1;
    pst_pleg_owned(d->pleg, &c0, &c1);
    bool ok = pst_step_update(d, d->state[b], d->out, s, c0, c1);
    stage_done(d, PST_STAGE_SPECTRAL, t);
    pst_pleg_gather(d->pleg, d->state[b]);
    stage_done(d, PST_STAGE_LEGENDRE, t);
    return ok;
}

/* One substep of the level blocks first, first + stride, ..., each block's sums completed by the
 * column before its update. */
static bool substep_blocks(pst_dyn *d, const pst_substep *s, int first, int stride)
{
    bool ok = true;
    for (int b = first; b < d->nblocks; b += stride) {
        compute_block(d, b, s, d->out);
        double t;
        pst_event_begin(&t);
        /* ringpipe, iallreduce: the sums computed block by block, just in time */
        pst_vsum_compute_fn just_in_time = d->sums_in_vsum ? pst_step_forward_sums_block : NULL;
        if (d->pleg && !d->legall) pst_pleg_sum(d->pleg, just_in_time, d, d->out);
        stage_done(d, PST_STAGE_LEGENDRE, &t);
        ok &= d->spectral_partitioned ? update_partitioned(d, b, s, &t) : update_block(d, b, s, d->out);
    }
    return ok;
}

/* comm_threads: thread t takes blocks t, t + T, ... through its view (step_views.c), messages
 * and all.  The records' stage times are the master's, for its blocks; its wait for the other
 * threads at the end is the thread_wait event. */
static bool substep_block_threads(pst_dyn *d, const pst_substep *s)
{
    pst_dyn_views_sync(d);
    int ok = 1;
    double done_s = 0;
#pragma omp parallel num_threads(d->block_threads) reduction(&& : ok)
    {
        const int me = omp_get_thread_num();
        ok = substep_blocks(me ? d->views[me - 1] : d, s, me, d->block_threads);
        if (me == 0) pst_event_begin(&done_s);
    }
    pst_event_end(&d->events, d->thread_wait_event, &done_s);
    return ok;
}

/* The level pipeline: block b's sums run (nonblocking) while block b + 1 is computed, and are
 * completed and applied after it, so the column's communication leaves the critical path as far
 * as the next block's computation covers it.  Levels are independent, so the order of the
 * updates changes nothing in the results. */
static bool substep_pipelined(pst_dyn *d, const pst_substep *s)
{
    bool ok = true;
    double *outs[2] = {d->out, d->out_next};
    for (int b = 0; b < d->nblocks; b++) {
        compute_block(d, b, s, outs[b % 2]);
        double t;
        pst_event_begin(&t);
        if (b > 0) {
            pst_pleg_sum_finish(d->pleg);
            stage_done(d, PST_STAGE_LEGENDRE, &t);
            ok &= update_block(d, b - 1, s, outs[(b - 1) % 2]);
            pst_event_begin(&t);
        }
        pst_pleg_sum_start(d->pleg, outs[b % 2]);
        stage_done(d, PST_STAGE_LEGENDRE, &t);
    }
    double t;
    pst_event_begin(&t);
    pst_pleg_sum_finish(d->pleg);
    stage_done(d, PST_STAGE_LEGENDRE, &t);
    return ok & update_block(d, d->nblocks - 1, s, outs[(d->nblocks - 1) % 2]);
}

bool pst_dyn_step(pst_dyn *d)
{
    const double dt = d->cfg.dt_s;
    pst_substep first[2] = {{dt / 4, true, true}, {dt / 2, false, true}}, leap = {dt, false, false};
    const pst_substep *subs = d->steps_done ? &leap : first;
    int nsub = d->steps_done ? 1 : 2;
    bool ok = true;
    for (int k = 0; k < nsub; k++)
        ok &= d->out_next                ? substep_pipelined(d, &subs[k])
              : d->block_threads > 1 ? substep_block_threads(d, &subs[k])
                                     : substep_blocks(d, &subs[k], 0, 1);
    if (!subs[nsub - 1].keep_old) d->old_partial = d->cfg.robert != 0;
    d->steps_done++;
    return ok;
}
