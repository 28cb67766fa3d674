/* What the parts of `pstswm model` share (model.c: options, validation, the plan, the row;
 * model_measure.c: the run with its diagnostics, every rank; model_report.c: the records and the
 * summary, rank 0).  Not for other commands. */
#ifndef PST_MODEL_CMD_IMPL_H
#define PST_MODEL_CMD_IMPL_H

#include "algo/fft_planner.h"
#include "cmd/common/frame.h"
#include "cmd/model/model_algos.h"
#include "core/record.h"
#include "model/libs/blas.h"
#include "model/fields_io.h"
#include "model/transforms/legendre.h"
#include "model/model.h"
#include "model/setup/parallel.h"
#include "model/setup/spectral_grid.h"
#include "model/setup/testcases.h"
#include "runtime/context.h"
#include "stats/stats.h"

#include <stdbool.h>
#include <stddef.h>

/* What the run needs beyond the options: the model, its step count and the reference grids. */
typedef struct model_plan {
    pst_par par;
    pst_model m;
    long long steps, warmup;
    double t_end_s, setup_s, memory_estimate_bytes;
    double memory_model_bytes; /* rank 0's arrays and step times: from the configuration alone */
    pst_ref_grids ref;
} model_plan;

/* What one run measured, reduced over steps and ranks. */
typedef struct model_result {
    pst_model_integration run;
    pst_model_diag final;
    double diag_s;            /* diagnostics during the run, outside the step times */
    double max_rss_bytes;
    long long *rss_bytes_per_rank;
    int nranks;
} model_result;

/* The run's figures, ready to emit and print. */
typedef struct model_summary {
    pst_summary step;         /* over the timed steps */
    double wall_s, stage_sum_s, flops_per_step, flops_per_step_level, mflops, stage_flops_per_step[PST_NSTAGES];
    double recurrence_flops_per_step; /* the Legendre recurrence's generation (0 with the tables) */
} model_summary;

typedef struct model_cfg {
    pst_ctx ctx;
    long long test_case, trunc, nlat, nlon, levels, level_block, steps, diag_every, warmup, threads;
    double dt_s, days, robert, hdiff;
    const char *alpha_spec, *fftw_plan, *fftw_wisdom, *write_fields, *reference, *blas_name, *compute, *chunks,
        *legendre_kernel, *legendre_isa_name;
    bool explicit_scheme, level_pipeline, comm_threads, sync_wait, reproducible;
    model_algos algos;
    /* derived */
    double alpha;
    pst_fft_planner fft;      /* --fftw-plan: every FFTW plan of the run, and their counts */
    pst_blas blas;            /* --blas: the library, or with blas_auto the default */
    bool blas_auto;
    pst_leg_method legendre;  /* --legendre-kernel: the kernel, or with legendre_auto the one kept on a tie */
    bool legendre_auto;
    bool legendre_isa_forced; /* --legendre-isa: a path (legendre_isa), or auto (legendre_isa: the best here) */
    pst_leg_isa legendre_isa;
    bool wisdom_loaded;       /* rank 0 read --fftw-wisdom before planning */
    pst_reference ref;
    pst_spectral_grid grid;   /* --trunc, --levels, --nlat, --nlon */
    pst_par_config par;       /* grid, algorithms and protocols (1x1: serial) */
    const char *fft_locality, *legendre_locality; /* do the rows and the columns stay inside a node? */
    model_plan plan;
} model_cfg;

/* Rank 0 prints (set by validation, model.c). */
extern bool pst_model_cmd_root;

static inline bool is_parallel(const model_cfg *c) { return c->par.PX * c->par.PY > 1; }

/* The fields every model record has (model_report.c): the run's identity, a diagnosis. */
void pst_model_cmd_rec_identity(pst_rec *r, const model_cfg *c, const pst_model *m, long long steps);
void pst_model_cmd_rec_diag(pst_rec *r, const pst_model_diag *d);
/* Reproducibility (model_repro.c): --reproducible's choices, before they are resolved, and the
 * header's rounding choices; rank 0's line of them; a diagnosis's state checksums. */
void pst_model_cmd_reproducible(model_cfg *c, const pst_subcommand *row);
void pst_model_cmd_print_choices(const model_cfg *c);
void pst_model_cmd_rec_checksums(pst_rec *r, const pst_model_diag *d);
/* Rank 0, before the run: what runs, with which step and algorithms (model_report.c). */
void pst_model_cmd_print_banner(const model_cfg *c, const model_plan *p);

/* The frame's phases of the one set: the run on every rank and, after the report, --write-fields
 * (model_measure.c); the summary and its record on rank 0 (model_report.c). */
void *pst_model_cmd_measure(void *cfg, size_t set);
void pst_model_cmd_free_result(void *cfg, void *result);
void pst_model_cmd_write_fields(void *cfg);
void *pst_model_cmd_analyse(const void *cfg, const void *result);
void pst_model_cmd_free_summary(const void *cfg, void *summary);
void pst_model_cmd_print_summary(const void *cfg, const void *result, const void *summary);
void pst_model_cmd_emit_point(void *cfg, const void *result, const void *summary);

#endif
