/* The one-sided transport "shmem": the message passing of onesided.c on OpenSHMEM 1.4 (Open
 * MPI's oshmem), built only when configure finds it (CMake option PST_SHMEM).
 *
 * The symmetric area comes from shmem_align on the symmetric heap; data moves with
 * shmem_putmem_nbi / shmem_getmem_nbi, completed with shmem_quiet before the flag that
 * announces it; flags and counters are 64-bit atomics (set, add, fetch) followed by
 * shmem_quiet, awaited with shmem_wait_until (which progresses the library).
 *
 * OpenSHMEM's PEs are MPI_COMM_WORLD's ranks (checked at start-up), so the world ranks that
 * onesided.c passes are PEs; symmetric memory is allocated over all PEs, as onesided.h's
 * set-up over all processes expects.  OpenSHMEM starts at the first set-up and shuts down at
 * pst_finalize. */
#include "comm/onesided.h"
#include "core/errors.h"

#include <shmem.h>
#include <stdlib.h>
#include <string.h>

static void shutdown_shmem(void) { shmem_finalize(); }

static void start_shmem(void)
{
    static bool started;
    if (started) return;
    started = true;
    shmem_init();
    pst_at_finalize(shutdown_shmem);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (shmem_my_pe() != rank || shmem_n_pes() != size)
        pst_fatal(PST_EXIT_FAILED,
                  "transport shmem: PE %d of %d is MPI rank %d of %d; OpenSHMEM and MPI must number processes alike",
                  shmem_my_pe(), shmem_n_pes(), rank, size);
}

static unsigned char *sh_area(pst_os_state *s, size_t bytes)
{
    start_shmem();
    unsigned char *base = shmem_align(64, bytes);
    if (!base)
        pst_fatal(PST_EXIT_FAILED,
                  "transport shmem: cannot allocate %zu bytes of symmetric memory; raise SHMEM_SYMMETRIC_SIZE "
                  "(e.g. SHMEM_SYMMETRIC_SIZE=2G)",
                  bytes);
    memset(base, 0, s->data_at);
    shmem_barrier_all(); /* every PE's flags are zero before anyone writes one */
    return base;
}

static void sh_release(pst_os_state *s) { shmem_free(s->base); /* collective, with a barrier */ }

static unsigned long long *word(pst_os_state *s, size_t off) { return (unsigned long long *)(void *)(s->base + off); }

static void sh_put(pst_os_state *s, const void *src, size_t bytes, int pe, size_t off)
{
    shmem_putmem_nbi(s->base + off, src, bytes, pe);
}

static void sh_get(pst_os_state *s, void *dst, size_t bytes, int pe, size_t off)
{
    shmem_getmem_nbi(dst, s->base + off, bytes, pe);
}

static void sh_complete(pst_os_state *s, int rank) { shmem_quiet(); }

static void sh_store(pst_os_state *s, int pe, size_t off, uint64_t value)
{
    shmem_ulonglong_atomic_set(word(s, off), value, pe);
    shmem_quiet();
}

static void sh_add(pst_os_state *s, int pe, size_t off)
{
    shmem_ulonglong_atomic_add(word(s, off), 1, pe);
    shmem_quiet();
}

static uint64_t sh_await(pst_os_state *s, size_t off, uint64_t want)
{
    shmem_ulonglong_wait_until(word(s, off), SHMEM_CMP_GE, want);
    uint64_t v = shmem_ulonglong_atomic_fetch(word(s, off), shmem_my_pe());
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* slot loads after the flag */
    return v;
}

static void sh_fence_local(pst_os_state *s) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

static const pst_os_backend backend = {
    .name = "shmem", .alloc = sh_area, .release = sh_release, .put = sh_put, .get = sh_get,
    .complete = sh_complete, .store = sh_store, .add = sh_add, .await = sh_await,
    .fence = sh_fence_local,
};

static void setup(MPI_Comm comm, size_t max_bytes, size_t max_inflight, bool grow)
{
    pst_os_setup(&backend, comm, max_bytes, max_inflight, grow);
}
static void release(MPI_Comm comm) { pst_os_release(&backend, comm); }
static void post(pst_xfer *x) { pst_os_phase(&backend, x, 0); }
static void send(pst_xfer *x) { pst_os_phase(&backend, x, 1); }
static void wait(pst_xfer *x) { pst_os_phase(&backend, x, 2); }

/* Open MPI 4.1's one-sided component "rdma" crashes MPI_Finalize once oshmem has run
 * (open-mpi/ompi#11604: a stale memory-release hook); a run that uses shmem does not use MPI
 * windows, so leave that component out, unless the user chose components themselves. */
static void before_mpi_init(void) { setenv("OMPI_MCA_osc", "^rdma", 0); }

const pst_transport pst_transport_shmem = {
    .name = "shmem",
    .variants = {pst_os_variants, pst_os_variants},
    .nvariants = {PST_OS_NVARIANTS, PST_OS_NVARIANTS},
    .post = post, .send = send, .wait = wait, .send_early = pst_os_send_early,
    .setup = setup, .release = release, .before_mpi_init = before_mpi_init,
};
