/* The records of `pstswm model` (docs/model.md). */
#include "cmd/common/records.h"
#include "cmd/common/reproducible.h"
#include "model/stages/skeleton.h"
#include "runtime/events.h"
#include "runtime/run_schema.h"
#include "stats/stats_schema.h"

/* The model's header adds its compute mode; its configuration is in every point and diag. */
const pst_schema pst_schema_model_header =
    PST_HEADER_SCHEMA("model", &pst_compute_header_fields, &pst_reproducible_header_fields);

/* rec_identity: what was run, in the point and in every diag. */
static const pst_field configuration[] = {
    {"case", PST_F_INT, NULL,
     "Williamson et al. (1992) test case (--case): 1 cosine-bell advection, 2 steady zonal flow, 5 zonal flow over a "
     "mountain, 6 Rossby-Haurwitz wave",
     false, NULL},
    {"alpha", PST_F_NUM, "rad",
     "rotation angle of the flow against the poles, cases 1 and 2 (--alpha); 0 for cases 5 and 6", false, NULL},
    {"trunc", PST_F_INT, NULL, "triangular truncation M (TM, --trunc): (M+1)(M+2)/2 spectral coefficients", false,
     NULL},
    {"levels", PST_F_INT, NULL, "independent vertical levels K (--levels); the work is linear in K", false, NULL},
    {"grid", PST_F_STR, NULL, "processor grid PXxPY (--grid), e.g. 2x1; 1x1 on one rank", false, NULL},
    {"px", PST_F_INT, NULL, "PX: ranks in a processor row, over which the longitudes and the FFT stage are split",
     false, NULL},
    {"py", PST_F_INT, NULL,
     "PY: ranks in a processor column, over which the north/south latitude pairs and the Legendre stage are split",
     false, NULL},
    {"fft_locality", PST_F_STR, NULL,
     "the FFT stage's processor rows: intra-node (every pair of ranks inside a node), inter-node (every pair across "
     "nodes) or mixed; null when PX = 1 (header: locality); absent in records of pstswm before locality",
     true, NULL},
    {"legendre_locality", PST_F_STR, NULL,
     "the Legendre stage's processor columns, the same way; null when PY = 1; absent in records of pstswm before "
     "locality",
     true, NULL},
    {"preset", PST_F_STR, NULL,
     "the --preset named (gen, coll, DTH, DR, opt; options given beside it override its choices: fft, legendre and the "
     "protocol fields say what ran), gen when no algorithm, protocol or overlap option was given; null when such "
     "options were given without --preset, and on one rank",
     false, NULL},
    {"fft", PST_F_STR, NULL,
     "the FFT stage's parallel algorithm by its registry name (pstswm kernel --list): srtrans, swtrans, logtrans, "
     "alltoallv (MPI_Alltoallv; coll before schema version 2) or dfft; serial when PX = 1",
     false, NULL},
    {"legendre", PST_F_STR, NULL,
     "the Legendre stage's parallel algorithm by its registry name: srtrans, swtrans, logtrans, alltoallv, exchsum, "
     "halfsum, ringsum, ringpipe or allreduce (MPI_Allreduce; coll before schema version 2); serial when PY = 1",
     false, NULL},
    {"fft_protocol", PST_F_STR, NULL,
     "the FFT stage's protocol code (docs/protocols.md), e.g. 0,6; coll for the collective, local when serial", false,
     NULL},
    {"legendre_protocol", PST_F_STR, NULL,
     "the Legendre stage's protocol code; coll for the collective, local when serial", false, NULL},
    {"fft_overlap", PST_F_BOOL, NULL,
     "the FFT stage ran its overlap schedule (--overlap, the opt preset's file, or an overlap protocol 2,x / 3,x); "
     "false when serial or the collective",
     false, NULL},
    {"legendre_overlap", PST_F_BOOL, NULL,
     "the Legendre stage ran its overlap schedule; false when serial or the collective", false, NULL},
    {"level_pipeline", PST_F_BOOL, NULL,
     "--level-pipeline: each level block's Legendre vector sum (MPI_Iallreduce) ran while the next block was computed, "
     "progressed by MPI_Test between its chunks; false otherwise",
     false, NULL},
    {"spectral_update", PST_F_STR, NULL,
     "how the column's ranks shared the spectral update: partitioned (each rank its own coefficients: a Legendre "
     "transpose's wavenumbers, or --spectral-update partitioned with a vector sum that gathers) or replicated (every "
     "rank all of them); null on one rank per column; absent from the records of a pstswm before --spectral-update",
     true, NULL},
    {"nlat", PST_F_INT, NULL, "Gaussian latitudes (--nlat; default the smallest even number >= (3M+1)/2, T42: 64)",
     false, NULL},
    {"nlon", PST_F_INT, NULL, "longitudes (--nlon; default the smallest 2,3,5-smooth number >= 3M+1, T42: 128)", false,
     NULL},
    {"level_block", PST_F_INT, NULL,
     "levels transformed together (--level-block; default 4, else 2, else 1: the largest that divides levels)", false,
     NULL},
    /* optional: records written before --chunks lack them */
    {"chunks", PST_F_STR, NULL,
     "--chunks: cache (the FFT stage's chunks sized for a core's L2 cache, the default) or whole (one chunk per level "
     "block); absent before pstswm had --chunks",
     true, NULL},
    {"pair_chunk", PST_F_INT, NULL, "latitude pairs of rank 0's chunk (--chunks); absent before pstswm had --chunks",
     true, NULL},
    {"chain_levels", PST_F_INT, NULL,
     "levels of a chunk, dividing level_block (--chunks); absent before pstswm had --chunks", true, NULL},
    {"blas", PST_F_STR, NULL,
     "library of the Legendre transforms' dgemms: openblas (linked), blis (libblis.so.4, loaded at run time) or "
     "blis-sup (the same BLIS's small-matrix kernels called directly, without its framework); --blas, or with --blas "
     "auto (the default) the fastest over a Legendre pass timed at set-up",
     false, NULL},
    {"legendre_kernel", PST_F_STR, NULL,
     "how the Legendre products are computed: dgemm (P-bar from tables held in memory, streamed through the dgemms), "
     "recurrence (P-bar generated on the fly per wavenumber and block of latitude pairs, no tables, through the "
     "dgemms) or simd (P-bar generated as recurrence, sums in pstswm's own register-blocked kernels, no BLAS; its "
     "path: legendre_isa; docs/model.md: Legendre kernels); --legendre-kernel, or with auto (the default) the fastest "
     "over a Legendre pass timed at set-up; absent before pstswm had --legendre-kernel",
     true, NULL},
    {"legendre_isa", PST_F_STR, NULL,
     "the instruction-set path of the simd Legendre kernels: avx512, avx2 (with FMA) or baseline (x86-64 SSE2); "
     "--legendre-isa, or with auto (the default) the best this CPU runs; null when the run's kernel is not simd; "
     "absent before pstswm had --legendre-isa",
     true, NULL},
    {"scheme", PST_F_STR, NULL,
     "time stepping: semi-implicit (gravity-wave terms averaged over the old and new levels, the default), explicit "
     "(--explicit) or advection (case 1: only the height is stepped, winds fixed)",
     false, NULL},
    {"dt_s", PST_F_NUM, "s", "time step: --dt, else the default from the Courant number (docs/model.md: Time step)",
     false, NULL},
    {"steps", PST_F_INT, NULL, "time steps of the run: --steps, or --days (default the case's standard length) / dt",
     false, NULL},
};
static const pst_fields configuration_fields = PST_FIELDS("model configuration", configuration);

static const pst_field checksum[] = {
    {"eta", PST_F_STR, NULL, "absolute vorticity's coefficients", false, NULL},
    {"div", PST_F_STR, NULL, "divergence's coefficients", false, NULL},
    {"phi", PST_F_STR, NULL, "geopotential deviation's coefficients", false, NULL},
};
static const pst_fields checksum_fields = PST_FIELDS("model state checksums", checksum);

/* rec_diag: the state at the record's time, in the point (the end of the run) and every diag. */
static const pst_field diagnostics[] = {
    {"t_s", PST_F_NUM, "s", "simulated time reached: step x dt_s (the end of the run in the point)", false, NULL},
    {"days", PST_F_NUM, "days", "the same in days", false, NULL},
    {"h_l1", PST_F_NUM, NULL,
     "Williamson's normalised l1 error of the height over all levels: I(|h - h_T|) / I(|h_T|), I the Gaussian-weighted "
     "area mean; absent without norms (cases 5, 6 without --reference; diag records: cases 5, 6)",
     true, NULL},
    {"h_l2", PST_F_NUM, NULL,
     "normalised l2 error of the height: sqrt(I((h - h_T)^2)) / sqrt(I(h_T^2)); absent without norms", true, NULL},
    {"h_linf", PST_F_NUM, NULL, "normalised linf error of the height: max|h - h_T| / max|h_T|; absent without norms",
     true, NULL},
    {"v_l1", PST_F_NUM, NULL,
     "normalised l1 error of the wind vector (its magnitude |v - v_T| over |v_T|); absent without norms", true, NULL},
    {"v_l2", PST_F_NUM, NULL, "normalised l2 error of the wind vector; absent without norms", true, NULL},
    {"v_linf", PST_F_NUM, NULL, "normalised linf error of the wind vector; absent without norms", true, NULL},
    {"mass_rel", PST_F_NUM, NULL,
     "relative change of the mass I(h*) since t = 0, (I(t) - I(0)) / I(0), h* the fluid depth, summed over levels",
     false, NULL},
    {"energy_rel", PST_F_NUM, NULL,
     "relative change of the total energy I(h*|v|^2/2 + g(h^2 - h_s^2)/2) since t = 0; null for case 1 (a tracer)",
     false, NULL},
    {"enstrophy_rel", PST_F_NUM, NULL,
     "relative change of the potential enstrophy I(eta^2 / (2 h*)) since t = 0, eta the absolute vorticity; null for "
     "case 1",
     false, NULL},
    {"max_speed", PST_F_NUM, "m/s", "largest wind speed on the grid, over all levels", false, NULL},
    {"checksums", PST_F_OBJ, NULL,
     "the spectral state's digest per field, 16 hexadecimal digits: FNV-1a 64 of the IEEE 754 bytes of its "
     "coefficients (least significant byte first, -0 as +0), level by level in (m, n) order, real then imaginary part, "
     "whatever the decomposition (src/model/checksum.h); equal bits give equal digests (docs/model.md: "
     "Reproducibility); null when the state was not computed (--compute skeleton); absent before pstswm had them",
     true, &checksum_fields},
    {"courant", PST_F_NUM, NULL,
     "Courant number of dt at that speed: dt_s x max_speed x M / a (a the Earth's radius); a warning goes to stderr "
     "when it reaches 1",
     false, NULL},
};
static const pst_fields diagnostics_fields = PST_FIELDS("model diagnostics", diagnostics);

/* The stages without communication on the slowest and the fastest rank (local_stages). */
static const pst_field local_stages_fields[] = {
    {"slowest_s", PST_F_NUM, "s", "fourier_s + grid_s + spectral_s per timed step on the rank slowest in their sum",
     false, NULL},
    {"slowest_rank", PST_F_INT, NULL, "that rank (MPI_COMM_WORLD; its host and CPUs: the header's binding)", false,
     NULL},
    {"fastest_s", PST_F_NUM, "s", "the same sum on the fastest rank", false, NULL},
    {"fastest_rank", PST_F_INT, NULL, "that rank", false, NULL},
    {"imbalance", PST_F_NUM, NULL,
     "slowest_s / fastest_s: the ranks do about the same work there, so well above 1 a core runs slower (the host, its "
     "neighbours, its clock) and the others wait for it at every exchange",
     false, NULL},
};
static const pst_fields local_stages_group = PST_FIELDS("local stages", local_stages_fields);

static const pst_field point[] = {
    {"wall_s", PST_F_NUM, "s",
     "sum of every step's time, warm-up included (each step the slowest rank's); set-up and diagnostics are not in it",
     false, NULL},
    {"step_s", PST_F_NUM, "s",
     "time per step: the median over the steps after warm-up of the slowest rank's step time (= t_med)", false, NULL},
    {"warmup", PST_F_INT, NULL,
     "first steps left out of the step statistics and the stage times: --warmup, or 0 when it is not below steps (the "
     "first step is a forward half step plus a centred step)",
     false, NULL},
    {"fft_s", PST_F_NUM, "s",
     "FFT stage, mean per step after warm-up, the largest over ranks: the 13 real FFTs per latitude and level (FFTW), "
     "with the row's communication when PX > 1",
     false, NULL},
    {"legendre_s", PST_F_NUM, "s",
     "Legendre stage (as fft_s): the dgemms of the inverse and forward Legendre sums, with the column's communication "
     "when PY > 1",
     false, NULL},
    {"fourier_s", PST_F_NUM, "s",
     "Fourier-space combinations between the dgemms and the FFTs (north/south split and winds; tendencies combined "
     "with the old level), mean per step, largest over ranks",
     false, NULL},
    {"grid_s", PST_F_NUM, "s",
     "grid-point products (U eta, V eta, U Phi', V Phi', E) and keeping the previous time level on the grid, mean per "
     "step, largest over ranks",
     false, NULL},
    {"spectral_s", PST_F_NUM, "s",
     "spectral update (semi-implicit or explicit solve and diffusion per coefficient), mean per step, largest over "
     "ranks",
     false, NULL},
    {"fft_flops", PST_F_NUM, NULL,
     "the FFT stage's analytic flops per step, all ranks together (src/model/stages/flops.h: 13 real FFTs per latitude "
     "and level); fft_flops / fft_s is its rate on one rank; absent from records written before it",
     true, NULL},
    {"legendre_flops", PST_F_NUM, NULL,
     "the Legendre stage's analytic flops per step (as fft_flops: the 14 sums and the fold); absent from records "
     "written before it",
     true, NULL},
    {"fourier_flops", PST_F_NUM, NULL,
     "the Fourier-space combinations' analytic flops per step (as fft_flops); absent from records written before it",
     true, NULL},
    {"grid_flops", PST_F_NUM, NULL,
     "the grid-point products' analytic flops per step (as fft_flops); absent from records written before it", true,
     NULL},
    {"spectral_flops", PST_F_NUM, NULL,
     "the spectral update's analytic flops per step (as fft_flops); absent from records written before it", true, NULL},
    {"legendre_recurrence_flops", PST_F_NUM, NULL,
     "flops per step the Legendre recurrence kernel adds generating P-bar (src/model/stages/flops.h: 5 per value, "
     "degrees m..M+1 of every coefficient and latitude pair, once per level block and direction), outside "
     "legendre_flops and mflops so rates stay comparable with Worley's count; 0 with --legendre-kernel dgemm; absent "
     "from records written before it",
     true, NULL},
    {"fft_comm_s", PST_F_NUM, "s",
     "of fft_s, the time inside the FFT stage's parallel algorithm (transposes with their packing; dfft with its "
     "butterflies and local FFTs), mean per step, largest over ranks; 0 when PX = 1",
     false, NULL},
    {"legendre_comm_s", PST_F_NUM, "s",
     "of legendre_s, the time inside the Legendre stage's parallel algorithm (ringpipe: with the sums it pipelines), "
     "mean per step, largest over ranks; 0 when PY = 1",
     false, NULL},
    {"comm_s", PST_F_NUM, "s", "fft_comm_s + legendre_comm_s", false, NULL},
    {"fft_wait_s", PST_F_NUM, "s",
     "--sync-wait: of fft_s, the barriers on the row before each of the FFT stage's communications, the wait for the "
     "row's slowest rank (imbalance, a stalled core), so fft_comm_s is the transfer alone; mean per step, largest over "
     "ranks; 0 when PX = 1; null without --sync-wait; absent before it",
     true, NULL},
    {"legendre_wait_s", PST_F_NUM, "s",
     "--sync-wait: of legendre_s, the barriers on the column before each of the Legendre stage's communications, as "
     "fft_wait_s; 0 when PY = 1; null without --sync-wait; absent before it",
     true, NULL},
    {"threads", PST_F_INT, NULL,
     "OpenMP threads per rank running the step's stages (--threads); absent before threads per rank", true, NULL},
    {"comm_threads", PST_F_BOOL, NULL,
     "--comm-threads: the threads shared out the level blocks, each with its own transposes and sums "
     "(MPI_THREAD_MULTIPLE); absent before threads per rank",
     true, NULL},
    {"thread_wait_s", PST_F_NUM, "s",
     "the master thread's wait for the others: with threads in one processor column at the end of each block's chain, "
     "with --comm-threads at the end of each substep (load imbalance; outside the stage times, which are the "
     "master's), mean per step, largest over ranks; 0 otherwise; absent before threads per rank",
     true, NULL},
    {"local_stages", PST_F_OBJ, NULL,
     "parallel runs: the stages without communication (fourier, grid, spectral) on the rank slowest and the rank "
     "fastest in their sum, each rank's own total (the events' slowest and fastest are per stage); absent on one rank "
     "and before it",
     true, &local_stages_group},
    {"events", PST_F_OBJS, NULL,
     "the stages' timer events (fft_s ... spectral_s come from them) over the timed steps: per stage its slowest and "
     "fastest rank, the mean over ranks, the imbalance and the calls (as PETSc's -log_view); absent from records of a "
     "pstswm before them",
     true, &pst_event_fields},
    {"diag_s", PST_F_NUM, "s",
     "rank 0's time in the --diag-every diagnostics during the run (0 without them); not in the step times", false,
     NULL},
    {"setup_s", PST_F_NUM, "s",
     "rank 0's set-up of the model (Gaussian grid, Legendre tables, FFT plans, initial state); not in the step times",
     false, NULL},
    {"fft_plan_s", PST_F_NUM, "s",
     "of setup_s, the FFT stage's planning (FFTW with --fftw-plan, and the row's distributed plans)", false, NULL},
    {"fftw_wisdom", PST_F_STR, NULL,
     "--fftw-wisdom: the wisdom file rank 0 loaded before planning (when it existed) and saved after; null without the "
     "option",
     false, NULL},
    {"fftw_wisdom_loaded", PST_F_BOOL, NULL,
     "rank 0 loaded --fftw-wisdom before planning (false: no option, or no file yet)", false, NULL},
    {"fftw_plans", PST_F_INT, NULL,
     "FFTW plans rank 0 made through the run's planner (--fftw-plan): the step's batched FFTs, the set-up transforms "
     "and, with --fft dfft, the distributed FFT's local transforms",
     false, NULL},
    {"fftw_plans_from_wisdom", PST_F_INT, NULL,
     "of fftw_plans, those FFTW took from wisdom without timing candidates (a loaded --fftw-wisdom, or an identical "
     "plan made before in the run)",
     false, NULL},
    {"blas_choice", PST_F_STR, NULL,
     "auto: the library was chosen by timing a Legendre pass with each at set-up (the slowest rank's best of 3; "
     "OpenBLAS kept unless another is at least 5 % faster); fixed: named by --blas",
     false, NULL},
    {"blas_version", PST_F_STR, NULL, "the library's own version text (openblas_get_config, bli_info_get_version_str)",
     false, NULL},
    {"blas_openblas_s", PST_F_NUM, "s",
     "--blas auto: one inverse plus one forward Legendre pass of a level block with OpenBLAS at set-up, best of 3, "
     "slowest rank; null with a fixed --blas",
     false, NULL},
    {"blas_blis_s", PST_F_NUM, "s", "the same with BLIS; null with a fixed --blas or when BLIS does not load", false,
     NULL},
    {"blas_blis_sup_s", PST_F_NUM, "s",
     "the same with BLIS's small-matrix kernels called directly (blis-sup); null with a fixed --blas or when they are "
     "not usable",
     false, NULL},
    {"legendre_kernel_choice", PST_F_STR, NULL,
     "auto (--legendre-kernel auto, the default: every kernel timed at set-up) or fixed; absent before pstswm had "
     "--legendre-kernel",
     true, NULL},
    {"legendre_kernel_dgemm_s", PST_F_NUM, "s",
     "--legendre-kernel auto: one inverse plus one forward Legendre pass of a level block from the tables at set-up "
     "(after --blas chose the library), best of 3, slowest rank; null with a fixed kernel",
     true, NULL},
    {"legendre_kernel_recurrence_s", PST_F_NUM, "s",
     "the same with the P-bar generated by the recurrence; null with a fixed kernel", true, NULL},
    {"legendre_kernel_simd_s", PST_F_NUM, "s",
     "the same with the simd kernels (on the path of legendre_isa); null with a fixed kernel; absent before pstswm had "
     "the simd kernel",
     true, NULL},
    {"flops_per_step", PST_F_NUM, NULL,
     "analytic floating-point operations of one step, all levels and ranks (docs/model.md: Flop count; a multiply-add "
     "counts 2)",
     false, NULL},
    {"flops_per_step_level", PST_F_NUM, NULL, "the same for one level (T42: 3,849,704; Worley (1998): 4,129,859)",
     false, NULL},
    {"mflops", PST_F_NUM, "MFlop/s", "flops_per_step / step_s / 1e6: the whole model's rate", false, NULL},
    {"error_ref", PST_F_STR, NULL,
     "what the error norms compare with: analytic (cases 1, 2) or reference (--reference, a --write-fields run); null "
     "when there are none",
     false, NULL},
    {"courant_initial", PST_F_NUM, NULL,
     "Courant number of dt at the start: dt_s x c_max x M / a, c_max the largest initial wind speed (plus the largest "
     "gravity-wave speed sqrt(Phi) with --explicit)",
     false, NULL},
    {"inertial", PST_F_NUM, NULL, "2 Omega dt: the explicit Coriolis term is unstable from 1", false, NULL},
    {"memory_estimate_bytes", PST_F_NUM, "bytes",
     "the largest rank's predicted resident set: what it held before the model allocated (MPI, libraries, the program: "
     "measured, so it varies between launches of the same command) plus the model's arrays and the step times "
     "(memory_model_bytes); a run exceeding ulimit -v/-d, or on a node min(MemAvailable, cgroup memory.max), is "
     "refused with exit 2 before allocating",
     false, NULL},
    {"memory_model_bytes", PST_F_NUM, "bytes",
     "of memory_estimate_bytes, rank 0's share that follows from the configuration alone: the model's arrays and the "
     "step times (the rest, measured, varies between launches with what MPI and the libraries hold); absent before "
     "pstswm had it",
     true, NULL},
    {"max_rss_bytes", PST_F_INT, "bytes", "the largest rank's peak resident set (getrusage) after the run", false,
     NULL},
    {"rss_bytes_per_rank", PST_F_INTS, "bytes", "every rank's peak resident set, in rank order", false, NULL},
};
static const pst_fields point_fields = PST_FIELDS("model point", point);
const pst_schema pst_schema_model_point = {
    "model",
    "point",
    NULL,
    "One model run: the configuration, the time per step (t_min ... t_max over the steps after warm-up, reps of them, "
    "each the slowest rank's step), the stage split (the categories of the flop count), the analytic MFlop/s, memory, "
    "and the error norms and conservation at the end.",
    {&pst_fields_common, &configuration_fields, &point_fields, &pst_fields_times, &diagnostics_fields},
};

static const pst_field diag[] = {
    {"step", PST_F_INT, NULL,
     "steps done: a multiple of --diag-every, below steps (the point carries the end of the run)", false, NULL},
    {"max_rss_bytes", PST_F_INT, "bytes", "the largest rank's peak resident set (getrusage) so far", false, NULL},
};
static const pst_fields diag_fields = PST_FIELDS("model diag", diag);
const pst_schema pst_schema_model_diag = {
    "model",
    "diag",
    NULL,
    "The state every --diag-every steps during the run, computed outside the step timing; error norms against the "
    "analytic solution only (cases 1, 2), even with --reference.",
    {&pst_fields_common, &configuration_fields, &diag_fields, &diagnostics_fields},
};
