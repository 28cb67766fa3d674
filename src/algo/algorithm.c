/* The rows of the algorithm registry (see algorithm.h). */
#include "algo/algorithm.h"

#include "algo/dfft.h"
#include "core/record.h"
#include "core/schema.h"

#include <stdio.h>
#include <string.h>

/* Each algorithm's operations, defined in its own file. */
extern const struct pst_trans_ops pst_srtrans_ops, pst_swtrans_ops, pst_logtrans_ops, pst_alltoallv_ops,
    pst_ialltoallv_ops, pst_neighbor_ops, pst_alltoallv_init_ops;
extern const struct pst_vsum_ops pst_exchsum_ops, pst_halfsum_ops, pst_ringsum_ops, pst_ringpipe_ops, pst_allreduce_ops,
    pst_iallreduce_ops, pst_reduce_scatter_ops, pst_allreduce_init_ops;

enum { BOTH = PST_ALG_STAGE_FFT | PST_ALG_STAGE_LEGENDRE };

const pst_algorithm pst_algorithms[] = {
    {"srtrans", PST_FAMILY_TRANSPOSE, BOTH, 0, false, false, NULL, NULL, "MPI_Alltoallv", "P-1 SENDRECV",
     "step k sends to r+k and receives from r-k", .trans = &pst_srtrans_ops},
    {"swtrans", PST_FAMILY_TRANSPOSE, BOTH, 0, false, false, NULL, NULL, "MPI_Alltoallv", "P-1 SWAP",
     "partner r XOR k (P a power of two), else the round-robin 1-factorization (P odd: P rounds, one idle each)",
     .trans = &pst_swtrans_ops},
    {"logtrans", PST_FAMILY_TRANSPOSE, BOTH, 0, false, false, NULL, NULL, "MPI_Alltoallv", "ceil(log2 P) SWAP",
     "hypercube exchange over Q = 2^floor(log2 P) ranks, bit 0, 1, ... each forwarding about half the data; an excess "
     "rank Q+i hands its blocks to rank i first and receives its own at the end",
     .trans = &pst_logtrans_ops},
    {"alltoallv", PST_FAMILY_TRANSPOSE, BOTH, PST_ALG_STAGE_FFT, true, false, NULL, NULL, "MPI_Alltoallv", "-",
     "the MPI collective MPI_Alltoallv", .trans = &pst_alltoallv_ops, .standard = "MPI-3.1 §5.8"},
    {"ialltoallv", PST_FAMILY_TRANSPOSE, BOTH, 0, true, false, NULL, NULL, "MPI_Alltoallv", "-",
     "nonblocking MPI_Ialltoallv pipelined over up to 4 groups of peers (by ring distance): packing the next group and "
     "unpacking the last while one is in flight, MPI_Test between blocks to drive progress",
     .trans = &pst_ialltoallv_ops, .requires = PST_FEAT_NBC, .standard = "MPI-3.1 §5.12.6"},
    {"neighbor", PST_FAMILY_TRANSPOSE, BOTH, 0, true, false, NULL, NULL, "MPI_Alltoallv", "-",
     "MPI_Neighbor_alltoallv on a distributed graph of the non-empty blocks (MPI_Dist_graph_create_adjacent, "
     "reorder 0, built with the plan); the own block is copied",
     .trans = &pst_neighbor_ops, .requires = PST_FEAT_NEIGHBOR, .standard = "MPI-3.1 §7.5.4, §7.6.2"},
    {"alltoallv_init", PST_FAMILY_TRANSPOSE, BOTH, 0, true, false, NULL, NULL, "MPI_Alltoallv", "-",
     "persistent MPI_Alltoallv_init, bound on the first call to its buffers, then MPI_Start and MPI_Wait each call",
     .trans = &pst_alltoallv_init_ops, .requires = PST_FEAT_PCOLL, .standard = "MPI-4.0 §6.13"},
    {"dfft", PST_FAMILY_DFFT, PST_ALG_STAGE_FFT, 0, false, false, pst_dfft_check, "a power-of-two row",
     "serial FFTW of the whole line", "log2 P SWAP (+1 for real data)",
     "binary exchange: stage t swaps the whole local block with p XOR 2^(k-1-t) and does the cross-rank butterflies; "
     "the rest is a local FFTW transform",
     .trans = NULL},
    {"exchsum", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, 0, false, false, NULL, NULL, "MPI_Allreduce",
     "log2 Q SWAP of V", "recursive doubling, highest bit first; excess ranks folded in and out",
     .vsum = &pst_exchsum_ops},
    {"halfsum", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, 0, false, false, NULL, NULL,
     "MPI_Reduce_scatter (+ gather: MPI_Allreduce)", "log2 Q SWAP of V/2, V/4, ...",
     "recursive halving; a replicated result adds the recursive-doubling gather", .vsum = &pst_halfsum_ops},
    {"ringsum", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, 0, false, false, NULL, NULL,
     "MPI_Reduce_scatter (+ gather: MPI_Allreduce)", "Q-1 SENDRECV of V/Q",
     "ring reduce-scatter, then the ring allgather when replicated", .vsum = &pst_ringsum_ops},
    {"ringpipe", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, 0, false, true, NULL, NULL,
     "MPI_Reduce_scatter (+ gather: MPI_Allreduce)", "Q-1 SENDRECV of V/Q",
     "ringsum with each block computed just in time, so one block's transfer overlaps the next block's computation",
     .vsum = &pst_ringpipe_ops},
    {"allreduce", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, PST_ALG_STAGE_LEGENDRE, true, false, NULL, NULL,
     "MPI_Allreduce / MPI_Reduce_scatter", "-", "the MPI collective MPI_Allreduce (MPI_Reduce_scatter partitioned)",
     .vsum = &pst_allreduce_ops, .standard = "MPI-3.1 §5.9.6, §5.10.2", .splits_as_iallreduce = true},
    {"iallreduce", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, 0, true, true, NULL, NULL,
     "MPI_Allreduce / MPI_Reduce_scatter", "-",
     "each block computed just in time, then summed by a nonblocking MPI_Iallreduce (partitioned: MPI_Ireduce to its "
     "owner) while the next block is computed; MPI_Test between blocks",
     .vsum = &pst_iallreduce_ops, .requires = PST_FEAT_NBC, .standard = "MPI-3.1 §5.12.8, §5.12.7",
     .splits_as_iallreduce = true},
    {"reduce_scatter", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, 0, true, false, NULL, NULL,
     "MPI_Reduce_scatter (+ gather: MPI_Allreduce)", "-",
     "MPI_Reduce_scatter with the uneven blocks of the partition, then MPI_Allgatherv when replicated",
     .vsum = &pst_reduce_scatter_ops, .standard = "MPI-3.1 §5.10.2, §5.7"},
    {"allreduce_init", PST_FAMILY_VSUM, PST_ALG_STAGE_LEGENDRE, 0, true, false, NULL, NULL,
     "MPI_Allreduce / MPI_Reduce_scatter", "-",
     "persistent MPI_Allreduce_init (partitioned: MPI_Reduce_scatter_init), bound on the first call to its buffer, "
     "then MPI_Start and MPI_Wait each call",
     .vsum = &pst_allreduce_init_ops, .requires = PST_FEAT_PCOLL, .standard = "MPI-4.0 §6.13"},
};
const size_t pst_nalgorithms = sizeof pst_algorithms / sizeof pst_algorithms[0];

const char *pst_alg_family_name(pst_alg_family f)
{
    static const char *const names[] = {"transpose", "vsum", "dfft"};
    return names[f];
}

const pst_algorithm *pst_algorithm_find(const char *name, unsigned stage)
{
    for (size_t i = 0; i < pst_nalgorithms; i++) {
        const pst_algorithm *a = &pst_algorithms[i];
        if (!strcmp(name, "coll") ? (a->coll_for & stage) != 0
                                  : !strcmp(name, a->name) && (!stage || (a->stages & stage)))
            return a;
    }
    return NULL;
}

const pst_algorithm *pst_algorithm_collective(pst_alg_family f)
{
    for (size_t i = 0; i < pst_nalgorithms; i++)
        if (pst_algorithms[i].family == f && pst_algorithms[i].coll_for) return &pst_algorithms[i];
    return NULL;
}

const char *pst_algorithm_names(unsigned stage, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    bool has_coll = false;
    for (size_t i = 0; i < pst_nalgorithms; i++) {
        const pst_algorithm *a = &pst_algorithms[i];
        has_coll |= (a->coll_for & stage) != 0;
        if (stage && !(a->stages & stage)) continue;
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s", used ? ", " : "", a->name);
    }
    if (has_coll) snprintf(buf + used, used < len ? len - used : 0, ", coll");
    return buf;
}

const char *pst_algorithm_check(const pst_algorithm *alg, int nranks, int n, int mmax)
{
    return alg->check && nranks > 1 ? alg->check(nranks, n, mmax) : NULL;
}

/* The members pst_algorithm_rec writes, one registry row each. */
static const pst_field algorithm_row[] = {
    {"name", PST_F_STR, NULL, "the algorithm's name, as given to --algorithms (kernel) or --fft / --legendre (model)",
     false, NULL},
    {"family", PST_F_STR, NULL,
     "the interface it implements: transpose (functionally MPI_Alltoallv), vsum (a distributed vector sum) or dfft "
     "(distributed FFT)",
     false, NULL},
    {"stages", PST_F_STRS, NULL, "the stages it can serve: fft (across a processor row), legendre (down a column)",
     false, NULL},
    {"coll_for", PST_F_STRS, NULL,
     "the stages in which the alias coll means this algorithm (empty for all but the collectives)", false, NULL},
    {"collective", PST_F_BOOL, NULL,
     "an MPI library collective (blocking, nonblocking, neighbourhood or persistent): no protocol; any overlap is its "
     "own",
     false, NULL},
    {"pipelined", PST_F_BOOL, NULL,
     "takes its contribution block by block from the caller's compute function, so one block's transfer overlaps the "
     "next one's computation",
     false, NULL},
    {"needs", PST_F_STR, NULL, "the constraint on the communicator in words, e.g. a power-of-two row; null: none",
     false, NULL},
    {"equivalent", PST_F_STR, NULL, "what its result equals: the reference it is verified against", false, NULL},
    {"messages", PST_F_STR, NULL,
     "messages per rank and call, in Worley 1998's SWAP / SENDRECV terms (P, Q: ranks in the communicator; V: the "
     "vector); - for the collectives",
     false, NULL},
    {"summary", PST_F_STR, NULL, "how it works, in one sentence", false, NULL},
    {"requires", PST_F_STR, NULL,
     "the MPI feature it needs beyond MPI-3.0's blocking calls (a name of the header's mpi_features); null: none",
     false, NULL},
    {"available", PST_F_BOOL, NULL,
     "this build's MPI library has what it needs (false: refused with exit 2 by name, skipped under all)", false, NULL},
    {"standard", PST_F_STR, NULL,
     "the MPI standard section of the library calls it makes; null for the hand-written algorithms", false, NULL},
};
static const pst_fields algorithm_row_fields = PST_FIELDS("algorithm", algorithm_row);

static const pst_field algorithm_header[] = {
    {"algorithms", PST_F_OBJS, NULL,
     "the algorithm registry, one object per algorithm (as `pstswm kernel --list --json` prints it)", false,
     &algorithm_row_fields},
};
const pst_fields pst_algorithm_header_fields = PST_FIELDS("algorithm registry", algorithm_header);

void pst_algorithm_rec(struct pst_rec *r, const char *key)
{
    static const char *const stage_names[] = {"fft", "legendre"};
    pst_rec_list_begin(r, key);
    for (size_t i = 0; i < pst_nalgorithms; i++) {
        const pst_algorithm *a = &pst_algorithms[i];
        const char *stages[2], *coll_for[2];
        size_t ns = 0, nc = 0;
        for (unsigned s = 0; s < 2; s++) {
            if (a->stages & (1u << s)) stages[ns++] = stage_names[s];
            if (a->coll_for & (1u << s)) coll_for[nc++] = stage_names[s];
        }
        pst_rec_obj_begin(r, NULL);
        pst_rec_str(r, "name", a->name);
        pst_rec_str(r, "family", pst_alg_family_name(a->family));
        pst_rec_strs(r, "stages", stages, ns);
        pst_rec_strs(r, "coll_for", coll_for, nc);
        pst_rec_bool(r, "collective", a->collective);
        pst_rec_bool(r, "pipelined", a->pipelined);
        pst_rec_str(r, "needs", a->needs);
        pst_rec_str(r, "equivalent", a->equivalent);
        pst_rec_str(r, "messages", a->messages);
        pst_rec_str(r, "summary", a->summary);
        pst_rec_str(r, "requires", a->requires ? pst_mpi_feature_name(a->requires) : NULL);
        pst_rec_bool(r, "available", pst_mpi_feature_available(a->requires));
        pst_rec_str(r, "standard", a->standard);
        pst_rec_obj_end(r);
    }
    pst_rec_list_end(r);
}
