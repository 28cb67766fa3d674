/* Which ranks talk to whom in the pairwise benchmarks (swap, pingpong): one pair "I,J", or
 * "all" = rank i with i+P/2, every pair at once so node-level contention shows. */
#ifndef PST_PAIRING_H
#define PST_PAIRING_H

#include <stddef.h>

typedef struct pst_pairing {
    int npairs;
    int partner;  /* world rank of this rank's partner, or -1 when it sits out */
    int side;     /* PST_SIDE_A (the lower rank of "all", I of "I,J") or PST_SIDE_B */
    int pair;     /* index of this rank's pair (0 ... npairs-1), -1 when it sits out */
} pst_pairing;

/* Parse spec for this rank of `size`.  Returns 0, or -1 with a message for --pairs in err. */
int pst_pairing_parse(const char *spec, int rank, int size, pst_pairing *out, char *err, size_t errlen);

/* World rank of side A / side B of pair k. */
int pst_pairing_rank(const char *spec, int size, int k, int side);

/* Locality of the pairs of spec (PST_INTRA_NODE, ...) in MPI_COMM_WORLD; after pst_ctx_start. */
const char *pst_pairing_locality(const char *spec);

#endif
