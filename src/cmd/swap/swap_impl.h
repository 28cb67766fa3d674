/* What the parts of `pstswm swap` share (swap.c: options, cache states, validation, the row;
 * swap_measure.c: the protocols in rounds and each point's record; swap_report.c: the
 * per-protocol fits and per-size verdicts, rank 0).  Not for other commands. */
#ifndef PST_SWAP_IMPL_H
#define PST_SWAP_IMPL_H

#include "comm/protocol.h"
#include "core/cli.h"
#include "runtime/rounds.h"
#include "runtime/context.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct cache_mode {
    const char *name;
    const char *description;
    int iters;   /* exchanges per timed sample */
    bool flush;  /* evict caches before each sample */
} cache_mode;

/* The set being measured: one cache state at every size. */
typedef struct swap_cache_set {
    const cache_mode *cm;
    long long *nmsg;         /* [size] messages per exchange */
    pst_rounds *R;           /* [size] */
} swap_cache_set;

typedef struct swap_cfg {
    pst_ctx ctx;
    const char *protocols_spec, *pairs_spec, *transport;
    pst_int_list sizes;
    long long volume, reps, warmup, threads;
    pst_str_list cache;
    bool samples;
    pst_rounds_opts rounds;
    /* derived */
    const pst_protocol **protocols;
    size_t nprotocols;
    int partner, side;       /* partner < 0: this rank sits out */
    int npairs;
    int streams;             /* --threads: streams per pair, stream s on tag s (1: one, on tag 0) */
    bool multiple;           /* streams > 1: every thread calls MPI, else the master runs all */
    MPI_Comm active;         /* the participating ranks */
    swap_cache_set now;
} swap_cfg;

static inline double mbytes_per_s(long long bytes, long long nmsg, double t_s)
{
    return (double)bytes * (double)nmsg / t_s / 1e6;
}

/* Every size at one cache state, its points written by rank 0 as each ends (swap_measure.c). */
void pst_swap_measure_cache(swap_cfg *cfg, const cache_mode *cm, const long long *nmsg, pst_rounds *R);

/* The frame's reporting phases of one cache state, rank 0 (swap_report.c). */
void *pst_swap_analyse_cache_set(const void *cfg, const void *set);
void pst_swap_print_cache_set(const void *cfg, const void *set, const void *analysis);
void pst_swap_emit_cache_set(void *cfg, const void *set, const void *analysis);
void pst_swap_free_analysis(const void *cfg, void *analysis);

#endif
