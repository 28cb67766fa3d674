/* What the parts of `pstswm kernel` share (kernel.c: options, validation, the row;
 * kernel_measure.c: each algorithm's alternatives and each family's algorithms in rounds, every
 * rank; kernel_report.c: the tables, verdicts and records, rank 0).  Not for other commands. */
#ifndef PST_KERNEL_IMPL_H
#define PST_KERNEL_IMPL_H

#include "algo/algorithm.h"
#include "algo/fft_planner.h"
#include "cmd/kernel/kernel_cases.h"
#include "cmd/kernel/kernel_problem.h"
#include "comm/protocol.h"
#include "core/cli.h"
#include "model/libs/blas.h"
#include "model/transforms/legendre.h"
#include "runtime/rounds.h"
#include "runtime/context.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* The algorithms are the registry's rows (algo/algorithm.h); stage s is PST_ALG_STAGE_* bit s. */

static inline bool serves(const pst_algorithm *a, int stage) { return (a->stages & (1u << stage)) != 0; }

typedef struct kernel_cfg {
    pst_ctx ctx;
    const char *protocols_spec, *grid_spec, *granularity, *transport, *result, *blas_name, *fftw_plan, *compute,
        *legendre_kernel_name;
    bool list, json, reproducible;
    pst_str_list algorithms, stages, overlap;
    long long trunc, levels, fields, reps, warmup, threads;
    /* derived */
    kproblem prob;
    pst_blas blas;            /* --blas */
    pst_leg_method legendre_kernel; /* --legendre-kernel */
    pst_fft_planner fft;      /* --fftw-plan */
    const pst_protocol **protocols;
    size_t nprotocols;
    bool *run_alg, run_stage[2], overlaps[2];  /* run_alg: per registry row */
    bool one_d;               /* FFT stage on P x 1, Legendre stage on 1 x P */
    int px, py;
    kgeom geom[2];            /* per stage */
    const char *stage_locality[2]; /* per stage: do its communicators stay inside a node? */
    pst_rounds_opts rounds;
    int comms[2];             /* concurrent communicators per stage */
    struct outcome *out;      /* every (algorithm, stage) measured, for the summaries */
    size_t nout;
} kernel_cfg;

/* One alternative measured for an algorithm: a protocol (NULL: the collective) and overlap. */
typedef struct alt {
    const pst_protocol *p;
    bool overlap;
    const pst_algorithm *alg; /* the algorithm's own row, or its family's collective (comparator) */
    char label[32];          /* "2,3+ov", "0,6", "coll" */
} alt;

/* Results of one (algorithm, stage): its alternatives measured in the same rounds.  The
 * protocol alternatives come first; a transpose or vector sum also runs its stage's MPI
 * collective on the same data in the same rounds (the last alternative, ncomparator = 1), so
 * what the collective costs against the best protocol is a paired comparison. */
typedef struct outcome {
    const pst_algorithm *a;
    int stage;
    size_t nalts, nprotocol_alts;
    alt *alts;
    pst_rounds R;
    long long bytes_max;
    const char *win_model;   /* of the transport's windows (NULL: none, or the collective) */
} outcome;

/* Per stage and family (transposes; vector sums): each algorithm's fastest alternative, the
 * library alternatives and the stage's collective again, together in one set of interleaved
 * rounds, so the verdict between algorithms is as paired as the one between protocols.  (dfft's
 * call includes the FFTs: it has no family to be compared in.) */
typedef struct family_outcome {
    int stage;
    pst_alg_family family;
    size_t nalts;
    alt *alts;
    char (*labels)[48];
    pst_rounds R;
    long long bytes_max;
} family_outcome;

/* One stage measured: its algorithms, whose outcomes join cfg->out for the summaries, then the
 * comparison within each family (transposes, vector sums; dfft has none). */
enum { NFAMILIES = PST_FAMILY_VSUM + 1 };
typedef struct stage_run {
    family_outcome families[NFAMILIES];
    bool compared[NFAMILIES]; /* the family had two members or more */
} stage_run;

/* The frame's phases of one stage: measured on every rank (kernel_measure.c), judged and
 * reported by rank 0 (kernel_report.c); after both stages, the summaries (kernel_report.c). */
void *pst_kernel_measure_stage(void *cfg, size_t set);
void pst_kernel_free_stage(void *cfg, void *run);
void *pst_kernel_judge_stage(const void *cfg, const void *run);
void pst_kernel_print_stage(const void *cfg, const void *run, const void *judgement);
void pst_kernel_emit_stage(void *cfg, const void *run, const void *judgement);
void pst_kernel_free_judgement(const void *cfg, void *judgement);
void pst_kernel_summarise(void *cfg);
/* Rank 0: the record of alternative i of o (kernel_report.c). */
void pst_kernel_emit_point(kernel_cfg *cfg, const outcome *o, size_t i);

/* --reproducible and the run header's rounding choices (kernel_repro.c), before --fftw-plan is read. */
void pst_kernel_reproducible(kernel_cfg *cfg, const kernel_cfg *defaults);

#endif
