/* pst_exchange's contract with its callbacks, for every protocol the library has: `arrived` may
 * overwrite the send buffer's bytes of the chunk it is given (the distributed FFT's butterflies
 * work in place), and the partner must still receive what `fill` wrote.  Pairs r <-> r^1 swap
 * 4 MiB (above every eager limit, so a sender's buffer is read while the exchange runs) with
 * overlap off and on, several times on one plan's set (prepared transfers restarted); every
 * received word is checked.  A partitioned send completes only as a whole, so a partitioned
 * exchange that consumed a partition before its send completed would deliver poison here. */
#include "algo/exchange.h"
#include "algo_test.h"
#include "runtime/payload.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { BYTES = 4 << 20, REPS = 6 };

static int rank, size, failures;

typedef struct run {
    unsigned char *send, *recv;
    long long rep;
} run;

static void fill(void *arg, size_t off, size_t bytes)
{
    run *r = arg;
    pst_payload_fill(r->send + off, bytes, pst_payload_seed(rank, (long long)off, r->rep));
}

/* Consume the chunk, then overwrite the same range of the send buffer, as in-place work does. */
static void arrived(void *arg, size_t off, size_t bytes)
{
    run *r = arg;
    pst_payload_poison(r->send + off, bytes);
}

static void check(const run *r, int partner, size_t nchunks, const pst_protocol *p, int ov)
{
    for (size_t c = 0; c < nchunks; c++) {
        size_t off, len, first;
        pst_chunk_range(BYTES, (int)nchunks, (int)c, &off, &len);
        size_t bad = pst_payload_check(r->recv + off, len, pst_payload_seed(partner, (long long)off, r->rep), &first);
        if (bad) {
            failures++;
            fprintf(stderr, "rank %d: protocol %s overlap %d rep %lld chunk %zu: %zu bad words (first at %zu)\n", rank, p->code,
                    ov, r->rep, c, bad, first);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    parse_mode(argc, argv);
    int partner = rank ^ 1, runs = 0;
    run r = {.send = malloc(BYTES), .recv = malloc(BYTES)};
    for (size_t pi = 0; pi < pst_protocol_count("mpi"); pi++)
        for (int ov = 0; ov < 2; ov++) {
            const pst_protocol *p = pst_protocol_at("mpi", pi);
            if ((p->overlap && !ov) || !protocol_selected(p)) continue;
            bool overlapped = pst_overlapped(p, ov);
            int nchunks = pst_exchange_chunks(overlapped, BYTES);
            pst_exchange_reserve(p, MPI_COMM_WORLD, BYTES, (size_t)nchunks);
            pst_xfer_set *set = pst_xfer_set_new();
            for (r.rep = 0; r.rep < REPS; r.rep++) {
                if (partner >= size) continue;
                pst_payload_poison(r.recv, BYTES);
                pst_exchange_ops ops = {.fill = fill, .arrived = arrived, .arg = &r};
                pst_exchange(set, p, overlapped, MPI_COMM_WORLD, partner, partner, rank < partner ? PST_SIDE_A : PST_SIDE_B,
                             r.send, BYTES, r.recv, BYTES, 0, nchunks, &ops);
                /* The partner filled its chunks with the same boundaries. */
                check(&r, partner, overlapped ? (size_t)nchunks : 1, p, ov);
                runs++;
            }
            pst_xfer_set_free(set);
            pst_transport_settle();
            MPI_Barrier(MPI_COMM_WORLD);
        }
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("exchanges on %d ranks: %d runs, %d failures\n", size, runs, total);
    free(r.send);
    free(r.recv);
    MPI_Finalize();
    return total ? 1 : 0;
}
