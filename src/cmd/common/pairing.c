#include "cmd/common/pairing.h"

#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "runtime/locality.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "I,J" → the two ranks; 0 when well-formed. */
static int parse_pair(const char *spec, long long *a, long long *b)
{
    char first[32], err[128];
    const char *comma = strchr(spec, ',');
    if (!comma || comma - spec >= (long)sizeof first) return -1;
    snprintf(first, sizeof first, "%.*s", (int)(comma - spec), spec);
    return pst_parse_int(first, a, err, sizeof err) || pst_parse_int(comma + 1, b, err, sizeof err) ? -1 : 0;
}

int pst_pairing_parse(const char *spec, int rank, int size, pst_pairing *out, char *err, size_t errlen)
{
    if (!strcmp(spec, "all")) {
        if (size % 2) {
            snprintf(err, errlen, "--pairs all pairs rank i with i+P/2 and needs an even rank count (running on %d)",
                     size);
            return -1;
        }
        int half = size / 2;
        *out = (pst_pairing){.npairs = half, .side = rank < half ? PST_SIDE_A : PST_SIDE_B,
                             .partner = rank < half ? rank + half : rank - half, .pair = rank % half};
        return 0;
    }
    long long a, b;
    if (parse_pair(spec, &a, &b)) {
        snprintf(err, errlen, "--pairs: '%s' is not 'all' or two ranks 'I,J'", spec);
        return -1;
    }
    if (a < 0 || b < 0 || a >= size || b >= size || a == b) {
        snprintf(err, errlen, "--pairs: ranks %lld,%lld must be distinct and in 0...%d", a, b, size - 1);
        return -1;
    }
    bool in = rank == a || rank == b;
    *out = (pst_pairing){.npairs = 1, .partner = rank == a ? (int)b : rank == b ? (int)a : -1,
                         .side = rank == a ? PST_SIDE_A : PST_SIDE_B, .pair = in ? 0 : -1};
    return 0;
}

int pst_pairing_rank(const char *spec, int size, int k, int side)
{
    if (!strcmp(spec, "all")) return side == PST_SIDE_A ? k : k + size / 2;
    long long a = 0, b = 0;
    parse_pair(spec, &a, &b);
    return (int)(side == PST_SIDE_A ? a : b);
}

const char *pst_pairing_locality(const char *spec)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pst_pairing pairing;
    char err[160];
    if (pst_pairing_parse(spec, rank, size, &pairing, err, sizeof err)) return NULL;
    int *a = pst_malloc((size_t)pairing.npairs * sizeof *a), *b = pst_malloc((size_t)pairing.npairs * sizeof *b);
    for (int k = 0; k < pairing.npairs; k++) {
        a[k] = pst_pairing_rank(spec, size, k, PST_SIDE_A);
        b[k] = pst_pairing_rank(spec, size, k, PST_SIDE_B);
    }
    const char *locality = pst_locality_of_pairs(a, b, pairing.npairs);
    free(a);
    free(b);
    return locality;
}
