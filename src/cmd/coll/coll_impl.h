/* What the parts of `pstswm coll` share (coll.c: options, validation, the sweep's plan;
 * coll_ops.c: the ops; coll_measure.c: their loops and single calls; coll_forms.c: their
 * nonblocking and persistent forms; coll_report.c: the table and records).  Not for other commands. */
#ifndef PST_COLL_IMPL_H
#define PST_COLL_IMPL_H

#include "cmd/coll/busbw.h"
#include "core/cli.h"
#include "runtime/rounds.h"
#include "runtime/context.h"
#include "stats/verdict.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* The compute loop of the nonblocking measurement runs in this many chunks. */
enum { PST_COLL_CPU_CHUNKS = 100 };

typedef struct coll_run {
    MPI_Comm comm;
    int n, me;
    long long bytes;            /* per rank, or per block for allgather/alltoall(v) */
    unsigned char *sbuf, *rbuf;
    int *scounts, *sdispls, *rcounts, *rdispls; /* alltoallv */
} coll_run;

typedef struct coll_op {
    const char *name;
    pst_bw_pattern bw;
    bool rooted, sums_doubles;
    /* allocate buffers; returns nccl-tests' size S in bytes */
    double (*setup)(coll_run *r);
    /* inputs of round k with data origin `root`; outputs poisoned */
    void (*fill)(coll_run *r, long long k, int root);
    void (*call)(coll_run *r, int root);
    /* wrong words/elements on this rank after round k; was_root: this rank received a rooted result */
    long long (*check)(const coll_run *r, long long k, int root, bool was_root);
    /* The nonblocking form (MPI-3.1 §5.12) and the persistent one's set-up (MPI-4.0 §6.13). */
    void (*icall)(coll_run *r, int root, MPI_Request *req);
    void (*pinit)(coll_run *r, int root, MPI_Request *req);
} coll_op;

/* The ops, in --help's order (coll_ops.c). */
enum { PST_COLL_NOPS = 7 };
extern const coll_op pst_coll_ops[]; /* PST_COLL_NOPS rows */
/* The op named name (the option table has checked it). */
const coll_op *pst_coll_find_op(const char *name);
/* Free what the op's setup allocated. */
void pst_coll_run_free(coll_run *r);
/* Fraction of alltoallv's volume that leaves the rank (the busbw factor of its blocks). */
double pst_coll_alltoallv_moved_fraction(long long bytes, int n);

typedef struct coll_cfg {
    pst_ctx ctx;
    pst_str_list ops;
    pst_int_list sizes, comm_sizes;
    const char *root_spec, *alloc_state;
    long long reps, iters, warmup, test_every;
    bool samples, nonblocking, persistent;
    pst_rounds_opts rounds;
    /* derived */
    bool rotate;
    int root;
    struct coll_sweep *now;  /* the comparison being measured (coll_sweep, below) */
} coll_cfg;

/* What --nonblocking and --persistent measured of an op (see nonblocking_form, persistent_form). */
typedef struct coll_forms {
    /* IMB-NBC: medians over rounds of the time per call (the max over ranks of each loop) */
    double pure_s, cpu_s, ovrl_s, ovrl_test_s, overlap_pct, overlap_test_pct;
    /* persistent: set-up once, then paired rounds against the blocking call */
    double init_s, blocking_s, persistent_s;
    pst_ratio persistent_ratio;
    /* the loops in the order each round ran them: [round][mode] (--schedule rounds shuffles it) */
    size_t rounds, *nonblocking_order, *persistent_order;
} coll_forms;

/* One op of one comparison as measured (complete on rank 0). */
typedef struct coll_point {
    const coll_op *op;
    int n;               /* communicator size */
    long long bytes;     /* per rank or per block; 0 for the barrier */
    double size_bytes;   /* nccl-tests' S */
    const pst_rounds *R; /* the rounds, R->t[alt] the loops */
    size_t alt;
    double *rank_stats;  /* [n][3]: each rank's min, median, max seconds per single call */
    long long iters;     /* calls per loop, the max over ranks */
    coll_forms *forms;   /* --nonblocking / --persistent results (rank 0) */
} coll_point;

/* One comparison: the ops of one (comm size, size), each with its own buffers, their Frese & Knipp (1998)
 * loops in interleaved rounds.  An op's first turn warms it up and sizes its loop; later turns
 * re-warm it with one call.  Inputs are written before and results checked after each loop. */
typedef struct coll_set {
    const coll_cfg *cfg;
    const coll_op **ops;
    coll_run *runs;          /* [op]; comm MPI_COMM_NULL on ranks outside */
    long long *iters, *corrupted;
} coll_set;

/* The sweep: one comparison per (communicator size, size), set = ci * nsizes + s.  The buffers
 * are sized for the largest comparison, every op on every rank. */
typedef struct coll_sweep {
    MPI_Comm comm;           /* the first n ranks, for every size of one communicator size */
    int n;
    size_t s, nops;          /* the size's index and the ops it compares (0: none) */
    const coll_op **set_ops; /* [op] */
    coll_point *pts;         /* [op] */
    double *rank_stats;      /* [op][n][3] */
    coll_forms *forms;       /* [op] */
    pst_rounds R;
    coll_set S;
} coll_sweep;

/* Whether w is the last size of its communicator size (the communicator goes after it). */
static inline bool last_size(const coll_cfg *cfg, const coll_sweep *w) { return w->s == cfg->sizes.n - 1; }

/* The root of call i: --root, or i mod n with rotate. */
static inline int root_of(const coll_cfg *cfg, long long i, int n) { return cfg->rotate ? (int)(i % n) : cfg->root; }

/* The op's nonblocking form by IMB-NBC's method and its persistent form against the blocking
 * call (collective over r->comm, after the op's loops); each returns the wrong words it found. */
long long pst_coll_nonblocking_form(const coll_cfg *cfg, const coll_op *op, coll_run *r, long long iters,
                                    coll_forms *f);
long long pst_coll_persistent_form(const coll_cfg *cfg, const coll_op *op, coll_run *r, long long iters, coll_forms *f);
/* Rank 0: the forms' lines under the op's table row, and their summary records. */
void pst_coll_print_forms(const coll_cfg *cfg, const coll_point *pt);
void pst_coll_emit_forms(coll_cfg *cfg, const coll_point *pt);
void pst_coll_forms_free(coll_forms *f);

/* The frame's phases of one comparison: measured on every rank (coll_measure.c), reported by
 * rank 0 (coll_report.c); finish prints the legend. */
void *pst_coll_measure(void *cfg, size_t set);
void pst_coll_set_free(void *cfg, void *sweep);
void *pst_coll_analyse(const void *cfg, const void *sweep);
void pst_coll_analysis_free(const void *cfg, void *analysis);
void pst_coll_print(const void *cfg, const void *sweep, const void *analysis);
void pst_coll_emit(void *cfg, const void *sweep, const void *analysis);
void pst_coll_finish(void *cfg);

#endif
