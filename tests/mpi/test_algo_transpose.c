/* Every transpose x every protocol x overlap off/on against MPI_Alltoallv, bitwise (a transpose
 * only moves bytes): uneven and zero-sized blocks, a large case that splits logtrans stages into
 * chunks, the inverse plan restoring the input (double transpose), and hooks that pack each
 * block only when asked and check each block as soon as it is announced. */
#include "algo/transpose.h"
#include "runtime/payload.h"
#include "algo_test.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

/* Bytes rank i sends rank j in case `scale`: uneven, some zero, deterministic. */
static int count_of(int i, int j, int scale)
{
    unsigned h = (unsigned)(i * 7919 + j * 104729 + scale * 31);
    h ^= h >> 7;
    return (h % 5 == 0) ? 0 : (int)(h % 97) * scale + (i == j ? 8 : 0);
}

typedef struct layout { int *sc, *sd, *rc, *rd; size_t sbytes, rbytes; } layout;

static layout make_layout(int scale)
{
    layout l = {malloc(size * sizeof(int)), malloc(size * sizeof(int)), malloc(size * sizeof(int)), malloc(size * sizeof(int)), 0, 0};
    for (int q = 0; q < size; q++) {
        l.sc[q] = count_of(rank, q, scale);
        l.rc[q] = count_of(q, rank, scale);
        l.sd[q] = (int)l.sbytes;
        l.rd[q] = (int)l.rbytes;
        l.sbytes += (size_t)l.sc[q] + 3; /* gaps, as a real layout may have */
        l.rbytes += (size_t)l.rc[q] + 5;
    }
    return l;
}

typedef struct hook_state {
    const layout *l;
    unsigned char *sendbuf, *recvbuf;
    long long rep;
    int packed, unpacked, bad;
} hook_state;

static void hook_pack(void *arg, int q)
{
    hook_state *h = arg;
    pst_payload_fill(h->sendbuf + h->l->sd[q], (size_t)h->l->sc[q], pst_payload_seed(rank, q, h->rep));
    h->packed++;
}

static void hook_unpack(void *arg, int q)
{
    hook_state *h = arg;
    size_t first;
    if (pst_payload_check(h->recvbuf + h->l->rd[q], (size_t)h->l->rc[q], pst_payload_seed(q, rank, h->rep), &first)) h->bad++;
    h->unpacked++;
}

static void report(const char *what, const pst_algorithm *alg, const pst_protocol *p, int overlap, int scale)
{
    failures++;
    fprintf(stderr, "rank %d/%d: %s: %s protocol %s overlap %d scale %d\n", rank, size, what, alg->name,
            p ? p->code : "-", overlap, scale);
}

static void one(const pst_algorithm *alg, const pst_protocol *p, int overlap, int scale, bool extra)
{
    layout l = make_layout(scale);
    unsigned char *in = malloc(l.sbytes + 1), *out = malloc(l.rbytes + 1), *ref = malloc(l.rbytes + 1), *back = malloc(l.sbytes + 1);
    memset(in, 0x5a, l.sbytes);
    for (int q = 0; q < size; q++) pst_payload_fill(in + l.sd[q], (size_t)l.sc[q], pst_payload_seed(rank, q, 1));
    memset(ref, 0xa5, l.rbytes);
    memset(out, 0xa5, l.rbytes);
    MPI_Alltoallv(in, l.sc, l.sd, MPI_BYTE, ref, l.rc, l.rd, MPI_BYTE, MPI_COMM_WORLD); /* (untimed, cheap next to the plans) */

    pst_trans *t = pst_trans_create(alg, p, overlap, MPI_COMM_WORLD, l.sc, l.sd, l.rc, l.rd);
    pst_trans *inv = pst_trans_create_inverse(t);
    pst_trans_run(t, in, out, NULL);
    if (memcmp(out, ref, l.rbytes)) report("differs from MPI_Alltoallv", alg, p, overlap, scale);
    memcpy(back, in, l.sbytes);
    for (int q = 0; q < size; q++) memset(back + l.sd[q], 0, (size_t)l.sc[q]);
    pst_trans_run(inv, out, back, NULL);
    if (memcmp(back, in, l.sbytes)) report("inverse does not restore the input", alg, p, overlap, scale);

    if (!extra) goto done;
    /* Hooks: blocks exist only once packed; each is checked when unpack announces it. */
    hook_state h = {.l = &l, .sendbuf = in, .recvbuf = out, .rep = 2};
    pst_payload_poison(in, l.sbytes);
    pst_payload_poison(out, l.rbytes);
    pst_trans_hooks hooks = {hook_pack, hook_unpack, &h};
    pst_trans_run(t, in, out, &hooks);
    if (h.bad || h.packed != size || h.unpacked != size) {
        fprintf(stderr, "  hooks: packed %d unpacked %d bad %d\n", h.packed, h.unpacked, h.bad);
        report("hooks", alg, p, overlap, scale);
    }
done:
    pst_trans_free(t);
    pst_trans_free(inv);
    free(in); free(out); free(ref); free(back);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    parse_mode(argc, argv);
    /* Small uneven blocks for every protocol; ~24 KiB blocks (logtrans stages split into
     * chunks, sends above the eager limit) for the extra protocols. */
    int scales[2] = {1, size <= 4 ? 250 : 60};
    size_t nprot = pst_protocol_count("mpi");
    int runs = 0;
    /* Every transpose of the registry: a new row is tested without touching this file. */
    for (size_t ai = 0; ai < pst_nalgorithms; ai++)
        for (int s = 0; s < 2; s++) {
            const pst_algorithm *a = &pst_algorithms[ai];
            if (a->family != PST_FAMILY_TRANSPOSE) break;
            if (a->collective) { one(a, NULL, 0, scales[s], true); runs++; continue; }
            for (size_t pi = 0; pi < nprot; pi++)
                for (int ov = 0; ov < 2; ov++) {
                    const pst_protocol *p = pst_protocol_at("mpi", pi);
                    if (p->overlap && !ov) continue; /* 2,x / 3,x are always overlapped */
                    if (!protocol_selected(p) || (s == 1 && !extra_protocol(p))) continue;
                    one(a, p, ov, scales[s], extra_protocol(p));
                    runs++;
                }
        }
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("transposes on %d ranks: %d runs, %d failures\n", size, runs, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
