/* The records of `pstswm kernel` (docs/kernel.md). */
#include "algo/algorithm.h"
#include "cmd/common/records.h"
#include "cmd/common/reproducible.h"
#include "model/stages/skeleton.h"
#include "runtime/run_schema.h"
#include "stats/stats_schema.h"

const pst_schema pst_schema_kernel_header =
    PST_HEADER_SCHEMA("kernel", &pst_fields_rounds_header, &pst_algorithm_header_fields, &pst_compute_header_fields,
                      &pst_reproducible_header_fields);

/* base_fields: what was run, in every point and summary. */
static const pst_field base[] = {
    {"algorithm", PST_F_STR, NULL, "the algorithm, a name of the registry (the header's algorithms)", false, NULL},
    {"stage", PST_F_STR, NULL, "fft (across the grid's rows) or legendre (down its columns)", false, NULL},
    {"size", PST_F_STR, NULL,
     "the problem: TnLk (--trunc, --levels), or with --granularity the configuration TnLk@AxB whose per-rank sizes are "
     "used",
     false, NULL},
    {"trunc", PST_F_INT, NULL, "triangular truncation T (of the reference configuration with --granularity)", false,
     NULL},
    {"levels", PST_F_INT, NULL, "vertical levels L (of the reference configuration with --granularity)", false, NULL},
    {"fields", PST_F_INT, NULL, "fields transformed together per level (--fields)", false, NULL},
    {"nlat", PST_F_INT, NULL,
     "Gaussian latitudes of the problem's grid: the model's rule for T (smallest even >= (3T+1)/2; T42: 64); absent "
     "from records of a pstswm before it",
     true, NULL},
    {"nlon", PST_F_INT, NULL,
     "longitudes of the problem's grid: the model's rule for T (smallest even 2,3,5-smooth >= 3T+1; T42: 128); absent "
     "from records of a pstswm before it",
     true, NULL},
    {"blas", PST_F_STR, NULL,
     "the library of the vector sums' dgemms (--blas; the model's Legendre dgemms take the same); absent from records "
     "of a pstswm before it",
     true, NULL},
    {"fftw_plan", PST_F_STR, NULL,
     "the FFTW planner effort of the distributed FFT's local transforms (--fftw-plan; the model's FFTs take the same); "
     "absent from records of a pstswm before it",
     true, NULL},
    {"grid", PST_F_STR, NULL,
     "the stage's processor grid PXxPY; with --grid 1d Px1 for the fft stage, 1xP for the legendre stage", false, NULL},
    {"granularity", PST_F_STR, NULL, "the --granularity configuration (as size); null without it", false, NULL},
    {"comm_size", PST_F_INT, NULL, "ranks per stage communicator: a row's PX (fft), a column's PY (legendre)", false,
     NULL},
    {"comms", PST_F_INT, NULL, "stage communicators running at once: the grid's PY rows (fft) or PX columns (legendre)",
     false, NULL},
    {"locality", PST_F_STR, NULL,
     "the stage's communicators: intra-node (every pair of ranks inside a node), inter-node (every pair across nodes) "
     "or mixed (header: locality); absent in records of pstswm before locality",
     true, NULL},
    {"result", PST_F_STR, NULL,
     "vector sums only: replicated (MPI_Allreduce) or partitioned (MPI_Reduce_scatter) (--result)", true, NULL},
    {"legendre_kernel", PST_F_STR, NULL,
     "vector sums only: how each block of the sums is computed (--legendre-kernel): dgemm (synthetic dyadic Legendre "
     "values, sums verified bitwise) or recurrence (the model's P-bar of the column's coefficients at the row's "
     "Gaussian latitudes, generated per block; sums verified to 1e-12 of the largest) or simd (the same by pstswm's "
     "own register-blocked kernels, no BLAS); absent from records of a pstswm before it",
     true, NULL},
    {"win_model", PST_F_STR, NULL,
     "memory model (separate or unified) of the one-sided transport's window on the stage communicators; null for mpi "
     "and shmem and for the collectives",
     false, NULL},
};
static const pst_fields base_fields = PST_FIELDS("kernel run", base);

static const pst_field point[] = {
    {"protocol", PST_F_STR, NULL, "protocol code of the catalogue (docs/protocols.md), or coll for the MPI collectives",
     false, NULL},
    {"slug", PST_F_STR, NULL, "the protocol's name in the record's transport, or mpi-collective", false, NULL},
    {"overlap", PST_F_BOOL, NULL,
     "overlap in effect: --overlap on, or an overlap protocol 2,x / 3,x; false for the collectives", false, NULL},
    {"bytes", PST_F_INT, "bytes",
     "largest over ranks of a rank's data per call: the block it transposes, its share of the lines (dfft) or the "
     "vector it sums",
     false, NULL},
    {"warmup", PST_F_INT, NULL,
     "extra untimed calls in the alternative's first turn (--warmup); every turn also makes one untimed call just "
     "before its timed one",
     false, NULL},
    {"verified", PST_F_BOOL, NULL,
     "every timed call's result was checked against the MPI collective (dfft: serial FFTW); false with --no-verify",
     false, NULL},
};
static const pst_fields point_fields = PST_FIELDS("kernel point", point);
const pst_schema pst_schema_kernel_point = {
    "kernel",
    "point",
    NULL,
    "One algorithm, stage, protocol and overlap setting; times are seconds per call (transposes: forward + inverse; "
    "dfft: r2c + c2r; sums: the forward Legendre sum, its dgemms included), each round's the max over all ranks. The "
    "stage's collective, run beside an algorithm as its comparator, has points only in its own algorithm's run.",
    {&pst_fields_common, &base_fields, &point_fields, &pst_fields_times, &pst_fields_rounds},
};

/* The best alternative, in both summaries. */
static const pst_field best[] = {
    {"best_protocol", PST_F_STR, NULL, "protocol code of the best alternative", false, NULL},
    {"best_overlap", PST_F_BOOL, NULL, "the best alternative runs with overlap", false, NULL},
    {"best_s", PST_F_NUM, "s", "the best alternative's median time per call over rounds", false, NULL},
};
static const pst_fields best_fields = PST_FIELDS("kernel best", best);

const pst_schema pst_schema_kernel_sensitivity = {
    "kernel",
    "summary",
    "sensitivity",
    "Per algorithm and stage (not the collectives): the verdict over its protocol x overlap alternatives, labelled by "
    "code with +ov for overlap on (1,3+ov), from their medians paired by round; and its protocol sensitivity (Worley "
    "1999).",
    {&pst_fields_common, &base_fields, &pst_fields_verdict, &best_fields, &pst_fields_sensitivity},
};

/* The generic summary's own verdict fields (it does not write the whole verdict). */
static const pst_field generic_verdict[] = {
    {"stat", PST_F_STR, NULL, "the statistic compared: t_med", false, NULL},
    {"best", PST_F_STR, NULL, "label of the alternative with the smallest median, e.g. 1,3+ov", false, NULL},
    {"decided", PST_F_BOOL, NULL, "the best set has one member (see the sensitivity summary)", false, NULL},
};
static const pst_fields generic_verdict_fields = PST_FIELDS("kernel generic verdict", generic_verdict);

/* rec_ratio writes <name>_ratio, <name>_ratio_ci, <name>_significant for gen and coll. */
#define RATIO_FIELDS(name, what)                                                                                       \
    {name "_ratio", PST_F_NUM, NULL,                                                                                   \
     "paired ratio of " what " to the best: exp of the median over rounds of log(t / t_best); null when not run",      \
     false, NULL},                                                                                                     \
    {name "_ratio_ci", PST_F_NUMS, NULL,                                                                               \
     "its interval at --confidence (order statistics of the per-round log-ratios); null ends when not run or too "     \
     "few rounds", false, NULL},                                                                                       \
    {name "_significant", PST_F_BOOL, NULL,                                                                            \
     "that interval lies wholly above 1 + margin or below 1 / (1 + margin): " what " differs from the best; false "    \
     "when not run", false, NULL},                                                                                     \
    {name "_loss_rel", PST_F_NUM, NULL,                                                                                \
     name "_ratio - 1: the fraction lost (negative: gained) by running " what " instead of the best", false, NULL}

static const pst_field generic[] = {
    {"gen_protocol", PST_F_STR, NULL,
     "0,6 (native MPI_Sendrecv, without overlap: the gen preset's choice) when it ran; null otherwise (not in "
     "--protocols, --overlap without off, or a one-sided transport, which has none)",
     false, NULL},
    {"gen_s", PST_F_NUM, "s", "0,6's median time per call over rounds; null when not run", false, NULL},
    RATIO_FIELDS("gen", "0,6"),
    {"coll_algorithm", PST_F_STR, NULL,
     "the stage's MPI collective, run on the same data in the same rounds: alltoallv (transposes) or allreduce (vector "
     "sums); null for dfft, whose call includes the FFTs",
     false, NULL},
    {"coll_s", PST_F_NUM, "s", "the collective's median time per call over rounds; null for dfft", false, NULL},
    RATIO_FIELDS("coll", "the collective"),
    {"coll_round_s", PST_F_NUMS, "s",
     "the collective's time in every round, 5 significant digits, so the pairs survive merging launches (absent for "
     "dfft)",
     true, NULL},
};
static const pst_fields generic_fields = PST_FIELDS("kernel generic", generic);

const pst_schema pst_schema_kernel_generic = {
    "kernel",
    "summary",
    "generic",
    "Per algorithm and stage (not the collectives): what the generic protocol 0,6 and the stage's MPI collective cost "
    "against the best protocol alternative, as paired ratios over rounds (Worley 1998 Table 4).",
    {&pst_fields_common, &base_fields, &generic_verdict_fields, &best_fields, &generic_fields},
};

static const pst_field family[] = {
    {"stage", PST_F_STR, NULL, "fft (across the grid's rows) or legendre (down its columns)", false, NULL},
    {"family", PST_F_STR, NULL, "transpose or vsum: the algorithms compared do the same work on the same data", false,
     NULL},
    {"size", PST_F_STR, NULL, "the problem, as in the points", false, NULL},
    {"grid", PST_F_STR, NULL, "the stage's processor grid", false, NULL},
    {"comm_size", PST_F_INT, NULL, "ranks per stage communicator", false, NULL},
    {"locality", PST_F_STR, NULL,
     "the stage's communicators: intra-node (every pair of ranks inside a node), inter-node (every pair across nodes) "
     "or mixed (header: locality); absent in records of pstswm before locality",
     true, NULL},
    {"result", PST_F_STR, NULL, "vector sums only: replicated or partitioned (--result)", true, NULL},
    {"legendre_kernel", PST_F_STR, NULL,
     "vector sums only: dgemm, recurrence or simd (--legendre-kernel), as in the points; absent from records of a "
     "pstswm before it",
     true, NULL},
    {"alternatives", PST_F_STRS, NULL,
     "each algorithm's fastest alternative in its own run ('srtrans 1,3+ov'), the library alternatives and the stage's "
     "collective by name",
     false, NULL},
    {"alternative_s", PST_F_NUMS, "s", "their medians per call over these rounds, in that order", false, NULL},
};
static const pst_fields family_fields = PST_FIELDS("kernel family", family);
const pst_schema pst_schema_kernel_family = {
    "kernel",
    "summary",
    "family",
    "Per stage and family: which algorithm to use. Each algorithm's fastest alternative (from its own run), the MPI "
    "library alternatives and the stage's collective, run again together in one set of interleaved rounds; the "
    "verdict over them.",
    {&pst_fields_common, &family_fields, &pst_fields_verdict},
};
