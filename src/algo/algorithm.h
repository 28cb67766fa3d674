/* The registry of parallel algorithms (Worley 1998 §6; Foster & Worley 1997): one row per
 * algorithm, read by the model, `pstswm kernel`, the run header and pstlab.
 *
 * A family fixes the interface an algorithm implements: transposes (algo/transpose.h, each
 * functionally MPI_Alltoallv), vector sums (algo/vsum.h, MPI_Allreduce or
 * MPI_Reduce_scatter) and the distributed FFT (algo/dfft.h).  A transpose or vector sum brings
 * its operations table (algo/transpose_impl.h, algo/vsum_impl.h) in its own file; adding one is
 * that file and its row in algorithm.c (docs/design.md). */
#ifndef PST_ALGORITHM_H
#define PST_ALGORITHM_H

#include "runtime/mpi_features.h"

#include <stdbool.h>
#include <stddef.h>

struct pst_fields;
struct pst_rec;
struct pst_trans_ops;
struct pst_vsum_ops;

typedef enum pst_alg_family { PST_FAMILY_TRANSPOSE, PST_FAMILY_VSUM, PST_FAMILY_DFFT } pst_alg_family;

/* The model stages an algorithm can serve: the FFT stage runs across a processor row, the
 * Legendre stage down a column. */
enum { PST_ALG_STAGE_FFT = 1u << 0, PST_ALG_STAGE_LEGENDRE = 1u << 1 };

typedef struct pst_algorithm {
    const char *name;        /* option and record name */
    pst_alg_family family;
    unsigned stages;         /* PST_STAGE_* */
    unsigned coll_for;       /* the stages in which the alias "coll" means this row */
    bool collective;         /* an MPI library collective: no protocol; overlap is its own (summary) */
    bool pipelined;          /* takes its contribution block by block from the caller's compute function */
    /* Why it cannot run on a communicator of nranks for lines of n points and wavenumbers up
     * to mmax (NULL: it can); `needs` says the same in words.  NULL: no constraint. */
    const char *(*check)(int nranks, int n, int mmax);
    const char *needs;
    const char *equivalent;  /* what its result equals (verification reference) */
    const char *messages;    /* per rank and call, in Worley 1998's SWAP / SENDRECV terms */
    const char *summary;     /* how it works, one sentence (docs/kernel.md's table is generated from these) */
    const struct pst_trans_ops *trans; /* the family's operations (NULL for dfft) */
    const struct pst_vsum_ops *vsum;
    pst_mpi_feature requires; /* the MPI feature it calls (PST_FEAT_NONE: MPI-3.0's blocking calls) */
    const char *standard;    /* where the MPI standard defines the calls of a library alternative */
    bool splits_as_iallreduce; /* a whole-column sum the model's level pipeline may split into an
                                * MPI_Iallreduce started now and waited for a block later */
} pst_algorithm;

extern const pst_algorithm pst_algorithms[];
extern const size_t pst_nalgorithms;

const char *pst_alg_family_name(pst_alg_family f); /* "transpose", "vsum", "dfft" */

/* The row called name, or for "coll" the row whose coll_for has `stage` (stage 0: none); NULL
 * when unknown or when it does not serve stage (stage 0: any stage). */
const pst_algorithm *pst_algorithm_find(const char *name, unsigned stage);
/* The MPI collective of a family that the others are compared with and verified against:
 * alltoallv, allreduce (NULL for dfft). */
const pst_algorithm *pst_algorithm_collective(pst_alg_family f);
/* "a, b, c": the names serving stage (0: all), and "coll" after them when it has a meaning there. */
const char *pst_algorithm_names(unsigned stage, char *buf, size_t len);
/* Why alg cannot run in stage on nranks for lines of n points up to wavenumber mmax (NULL: it can). */
const char *pst_algorithm_check(const pst_algorithm *alg, int nranks, int n, int mmax);
/* Why this build's MPI library cannot run alg at all (NULL: it can), naming the calls and the library. */
const char *pst_algorithm_unavailable(const pst_algorithm *alg);

/* The registry as a list of objects under key: name, family, stages, coll_for, collective,
 * pipelined, needs, equivalent, messages, summary. */
void pst_algorithm_rec(struct pst_rec *r, const char *key);
/* Its schema (core/schema.h): one field, "algorithms", a list of those objects; the kernel's run
 * header carries it. */
extern const struct pst_fields pst_algorithm_header_fields;

#endif
