/* Every protocol of one transport's catalogue (argv[1], default mpi), as SWAP (pairs
 * r <-> r^1) and as SENDRECV (ring shifts), at small, odd and above-eager sizes, one message
 * and batches, with computation between the split phases; every payload verified.  The
 * transport is set up afresh for every size (so one-sided windows are re-cut and grown).
 * argv[2] "quick" keeps only the shifts 1, 2 and size-1 (for oversubscribed busy-polling MPIs);
 * "sample" also gives each protocol one of the sizes, in turn (every size of every protocol runs
 * on fewer ranks).
 * A deadlock shows up as the CTest timeout. */
#include "comm/protocol.h"
#include "core/errors.h"
#include "runtime/payload.h"

#include <mpi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

/* Some local work between phases, as an algorithm would do. */
static double busy_work(int n)
{
    volatile double acc = 0;
    for (int i = 0; i < n; i++) acc += i * 1e-9;
    return acc;
}

static void exchange(const pst_protocol *p, int dest, int src, int side, size_t bytes, int nmsg, const char *what)
{
    unsigned char *sendbuf = malloc(bytes * nmsg + 1), *recvbuf = malloc(bytes * nmsg + 1);
    pst_xfer *x = malloc(nmsg * sizeof *x);
    /* A set, as algorithms keep: a persistent protocol's second rep restarts the first rep's requests. */
    pst_xfer_set *set = pst_xfer_set_new();
    for (int rep = 0; rep < 2; rep++) {
        for (int i = 0; i < nmsg; i++) {
            pst_payload_fill(sendbuf + i * bytes, bytes, pst_payload_seed(rank, i, rep));
            pst_xfer_set_init(set, &x[i], p, MPI_COMM_WORLD, dest, src, side, sendbuf + i * bytes, bytes, recvbuf + i * bytes,
                              bytes, 5);
        }
        pst_payload_poison(recvbuf, bytes * nmsg);
        pst_xfer_reserve(&x[0], nmsg);
        if (rep == 0) {
            pst_xfer_run(x, nmsg);
        } else { /* split phase by hand with work in between */
            for (int i = 0; i < nmsg; i++) pst_xfer_post(&x[i]);
            busy_work(10000);
            for (int i = 0; i < nmsg; i++) pst_xfer_send(&x[i]);
            busy_work(10000);
            for (int i = 0; i < nmsg; i++) pst_xfer_wait(&x[i]);
        }
        for (int i = 0; i < nmsg; i++) {
            size_t first;
            size_t bad = pst_payload_check(recvbuf + i * bytes, bytes, pst_payload_seed(src, i, rep), &first);
            if (bad) {
                failures++;
                fprintf(stderr, "rank %d: %s protocol %s bytes %zu msg %d rep %d: %zu bad words (first at %zu)\n", rank,
                        what, p->code, bytes, i, rep, bad, first);
            }
        }
    }
    pst_xfer_set_free(set);
    free(x);
    free(sendbuf);
    free(recvbuf);
}

/* A plan's set re-prepares a persistent transfer when its buffers change, and keeps a few
 * bindings: cycle one (tag, peers, side) through 6 buffer pairs, more than it keeps, twice,
 * checking every payload (stale requests would deliver into or send from the wrong buffer). */
static void rebinding(const pst_protocol *p, int partner, int side)
{
    enum { NBUF = 6, BYTES = 3000 };
    unsigned char *send[NBUF], *recv[NBUF];
    for (int b = 0; b < NBUF; b++) { send[b] = malloc(BYTES); recv[b] = malloc(BYTES); }
    pst_xfer_set *set = pst_xfer_set_new();
    for (int pass = 0; pass < 2; pass++)
        for (int b = 0; b < NBUF; b++) {
            int k = pass ? NBUF - 1 - b : b;
            pst_payload_fill(send[k], BYTES, pst_payload_seed(rank, k, pass));
            pst_payload_poison(recv[k], BYTES);
            pst_xfer x;
            pst_xfer_set_init(set, &x, p, MPI_COMM_WORLD, partner, partner, side, send[k], BYTES, recv[k], BYTES, 9);
            pst_xfer_run(&x, 1);
            size_t first, bad = pst_payload_check(recv[k], BYTES, pst_payload_seed(partner, k, pass), &first);
            if (bad) {
                failures++;
                fprintf(stderr, "rank %d: protocol %s rebinding pass %d buffer %d: %zu bad words\n", rank, p->code, pass, k, bad);
            }
        }
    pst_xfer_set_free(set);
    for (int b = 0; b < NBUF; b++) { free(send[b]); free(recv[b]); }
}

int main(int argc, char **argv)
{
    const char *transport = argc > 1 ? argv[1] : "mpi";
    char *as_option[] = {argv[0], "--transport", (char *)transport};
    pst_transport_before_mpi_init(3, as_option);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    bool sample = argc > 2 && !strcmp(argv[2], "sample"), quick = sample || (argc > 2 && !strcmp(argv[2], "quick"));
    static const size_t sizes[] = {8, 1001, 1 << 20};
    size_t nprot = pst_protocol_count(transport);
    for (size_t pi = 0; pi < nprot; pi++) {
        const pst_protocol *p = pst_protocol_at(transport, pi);
        if (pst_protocol_unavailable(p)) continue; /* refused by name: tests/unit/test_comm_catalogue.c */
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            if (sample && si != pi % (sizeof sizes / sizeof sizes[0])) continue;
            size_t bytes = sizes[si];
            int nmsg = bytes > 4096 ? 2 : 3;
            pst_transport_setup(transport, MPI_COMM_WORLD, bytes, (size_t)nmsg);
            /* SWAP: r <-> r^1 (the last rank of an odd world sits out). */
            int partner = rank ^ 1;
            if (partner < size) exchange(p, partner, partner, rank < partner ? PST_SIDE_A : PST_SIDE_B, bytes, nmsg, "swap");
            /* SENDRECV: shifts; all of them at small sizes, the extreme ones at the large size. */
            for (int shift = 1; shift < size; shift++) {
                if ((bytes > 4096 || quick) && shift != 1 && shift != size - 1 && !(quick && shift == 2)) continue;
                int dest = (rank + shift) % size, src = (rank - shift + size) % size;
                exchange(p, dest, src, pst_shift_side(rank, size, shift), bytes, nmsg, "sendrecv");
                /* Buffered sends (0,0) reserve room for one exchange; in a shift nothing proves
                 * that this rank's messages to dest arrived, so drain before the next shift. */
                if (!strcmp(p->code, "0,0")) MPI_Barrier(MPI_COMM_WORLD);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    int partner = rank ^ 1;
    for (size_t pi = 0; pi < nprot; pi++)
        if (pst_protocol_at(transport, pi)->persistent && partner < size)
            rebinding(pst_protocol_at(transport, pi), partner, rank < partner ? PST_SIDE_A : PST_SIDE_B);
    pst_transport_release(transport, MPI_COMM_WORLD);
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("transport %s: %zu protocols on %d ranks: %d corrupted transfers\n", transport, nprot, size, total);
    if (nprot == 0) total = 1; /* an unknown transport must not pass */
    pst_finalize();
    return total ? 1 : 0;
}
