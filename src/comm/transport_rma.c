/* The one-sided transport "rma": the message passing of onesided.c on MPI-3 RMA.
 *
 * The symmetric area is a window from MPI_Win_allocate over MPI_COMM_WORLD (whatever
 * communicator it serves: see onesided.h), in one passive-target epoch (MPI_Win_lock_all)
 * from set-up to release.  Data moves with
 * MPI_Put / MPI_Get, completed with MPI_Win_flush (remote completion) before the flag that
 * announces it.  Memory model: flags and counters are only ever accessed with MPI atomics on
 * MPI_UINT64_T (MPI_Accumulate REPLACE / SUM, then flushed; our own words read with
 * MPI_Fetch_and_op NO_OP + flush), so they are correct in the unified and the separate model;
 * slot data is read with plain loads only after MPI_Win_sync following the flag, and written
 * with plain stores only before MPI_Win_sync preceding the flag.  Progress: a waiting rank
 * polls with MPI calls, so implementations whose passive-target RMA needs the target's
 * progress engine still advance. */
#include "comm/onesided.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct rma_impl {
    MPI_Win win;
    int me;              /* our rank in the window (MPI_COMM_WORLD) */
    const char *model;
} rma_impl;

static MPI_Win win_of(const pst_os_state *s) { return ((const rma_impl *)s->impl)->win; }

static unsigned char *rma_alloc(pst_os_state *s, size_t bytes)
{
    rma_impl *w = pst_malloc(sizeof *w);
    if (bytes > (size_t)PTRDIFF_MAX)
        pst_fatal(PST_EXIT_FAILED, "transport rma: window of %zu bytes is too large", bytes);
    /* Each control word sees one accumulate op plus MPI_NO_OP, and no ordering between
     * accumulates is relied on (flushes order what matters). */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
    MPI_Info_set(info, "accumulate_ordering", "none");
    unsigned char *base;
    PST_MPI_CHECK(MPI_Win_allocate((MPI_Aint)bytes, 1, info, MPI_COMM_WORLD, &base, &w->win));
    MPI_Comm_rank(MPI_COMM_WORLD, &w->me);
    MPI_Info_free(&info);
    int *model, flag = 0;
    PST_MPI_CHECK(MPI_Win_get_attr(w->win, MPI_WIN_MODEL, &model, &flag));
    w->model = flag && *model == MPI_WIN_UNIFIED ? "unified" : "separate";
    PST_MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, w->win));
    memset(base, 0, s->data_at);
    PST_MPI_CHECK(MPI_Win_sync(w->win)); /* zeroes into the public copy ... */
    PST_MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* ... before any peer writes a ticket */
    s->impl = w;
    return base;
}

static void rma_release(pst_os_state *s)
{
    rma_impl *w = s->impl;
    PST_MPI_CHECK(MPI_Win_unlock_all(w->win));
    PST_MPI_CHECK(MPI_Win_free(&w->win));
    free(w);
}

static void rma_put(pst_os_state *s, const void *src, size_t bytes, int rank, size_t off)
{
    PST_MPI_CHECK(MPI_Put(src, (int)bytes, MPI_BYTE, rank, (MPI_Aint)off, (int)bytes, MPI_BYTE, win_of(s)));
}

static void rma_get(pst_os_state *s, void *dst, size_t bytes, int rank, size_t off)
{
    PST_MPI_CHECK(MPI_Get(dst, (int)bytes, MPI_BYTE, rank, (MPI_Aint)off, (int)bytes, MPI_BYTE, win_of(s)));
}

static void rma_complete(pst_os_state *s, int rank) { PST_MPI_CHECK(MPI_Win_flush(rank, win_of(s))); }

static void accumulate(pst_os_state *s, int rank, size_t off, uint64_t value, MPI_Op op)
{
    PST_MPI_CHECK(MPI_Accumulate(&value, 1, MPI_UINT64_T, rank, (MPI_Aint)off, 1, MPI_UINT64_T, op, win_of(s)));
    PST_MPI_CHECK(MPI_Win_flush(rank, win_of(s)));
}

static void rma_store(pst_os_state *s, int rank, size_t off, uint64_t value)
{
    accumulate(s, rank, off, value, MPI_REPLACE);
}
static void rma_add(pst_os_state *s, int rank, size_t off) { accumulate(s, rank, off, 1, MPI_SUM); }

/* Every poll is an MPI call, so the library progresses while we wait; the MPI_Win_sync
 * afterwards orders our later loads of slot data after the observation. */
static uint64_t rma_await(pst_os_state *s, size_t off, uint64_t want)
{
    uint64_t v;
    int me = ((const rma_impl *)s->impl)->me;
    do {
        PST_MPI_CHECK(MPI_Fetch_and_op(NULL, &v, MPI_UINT64_T, me, (MPI_Aint)off, MPI_NO_OP, win_of(s)));
        PST_MPI_CHECK(MPI_Win_flush(me, win_of(s)));
    } while (v < want);
    PST_MPI_CHECK(MPI_Win_sync(win_of(s)));
    return v;
}

static void rma_fence(pst_os_state *s) { PST_MPI_CHECK(MPI_Win_sync(win_of(s))); }
static const char *rma_model(pst_os_state *s) { return ((rma_impl *)s->impl)->model; }

static const pst_os_backend backend = {
    .name = "rma", .alloc = rma_alloc, .release = rma_release, .put = rma_put, .get = rma_get,
    .complete = rma_complete, .store = rma_store, .add = rma_add, .await = rma_await, .fence = rma_fence,
    .model = rma_model,
};

static void setup(MPI_Comm comm, size_t max_bytes, size_t max_inflight, bool grow)
{
    pst_os_setup(&backend, comm, max_bytes, max_inflight, grow);
}
static void release(MPI_Comm comm) { pst_os_release(&backend, comm); }
static const char *memory_model(MPI_Comm comm) { return pst_os_memory_model(&backend, comm); }
static void post(pst_xfer *x) { pst_os_phase(&backend, x, 0); }
static void send(pst_xfer *x) { pst_os_phase(&backend, x, 1); }
static void wait(pst_xfer *x) { pst_os_phase(&backend, x, 2); }

const pst_transport pst_transport_rma = {
    .name = "rma",
    .variants = {pst_os_variants, pst_os_variants},
    .nvariants = {PST_OS_NVARIANTS, PST_OS_NVARIANTS},
    .post = post, .send = send, .wait = wait, .send_early = pst_os_send_early,
    .setup = setup, .release = release, .memory_model = memory_model,
    .requires = PST_FEAT_RMA_SYNC,
};
