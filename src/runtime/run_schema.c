#include "runtime/run_schema.h"

#include "runtime/mpi_features.h"
#include "runtime/simulation.h"

static const pst_field common[] = {
    {"bench", PST_F_STR, NULL, "the subcommand that wrote the record", false, NULL},
    {"type", PST_F_STR, NULL, "header, point (one measurement), summary (derived), diag (model diagnostics) or footer",
     false, NULL},
    {"run_id", PST_F_STR, NULL, "identifies the run; the same in every record of it", false, NULL},
    {"ranks", PST_F_INT, NULL, "MPI ranks in the run", false, NULL},
    {"transport", PST_F_STR, NULL, "point-to-point transport: mpi, rma or shmem", false, NULL},
    {"summary", PST_F_STR, NULL, "the kind of a summary record", true, NULL},
};
const pst_fields pst_fields_common = PST_FIELDS("common", common);

static const pst_field noise_probe[] = {
    {"lost_frac_max", PST_F_NUM, NULL, "largest fraction of the probe lost in gaps, over ranks", false, NULL},
    {"lost_frac_median", PST_F_NUM, NULL, "median over ranks of that fraction", false, NULL},
    {"max_gap_s", PST_F_NUM, "s", "longest gap seen", false, NULL},
    {"gaps", PST_F_INT, NULL, "gaps longer than threshold_s, summed over ranks", false, NULL},
};
static const pst_fields noise_probe_fields = PST_FIELDS("noise probe", noise_probe);

static const pst_field noise[] = {
    {"probe_s", PST_F_NUM, "s", "length of the clock-spin probe on every rank (header only)", true, NULL},
    {"threshold_s", PST_F_NUM, "s", "a gap is a stall when longer than this: max(20 us, 10 timer ticks) (header only)",
     true, NULL},
    {"measures_ranks", PST_F_BOOL, NULL,
     "ranks outnumber CPUs, so the probe measures the ranks taking turns (header only)", true, NULL},
    {"before", PST_F_OBJ, NULL, "the probe before the first experiment (header)", true, &noise_probe_fields},
    {"after", PST_F_OBJ, NULL, "the probe after the last experiment (footer)", true, &noise_probe_fields},
    {"noisy", PST_F_BOOL, NULL, "some rank lost more than 2 % of the probe: timings are noisy, verdicts unreliable",
     false, NULL},
};
static const pst_fields noise_fields = PST_FIELDS("noise", noise);

static const pst_field binding[] = {
    {"rank", PST_F_INT, NULL, "MPI rank", false, NULL},
    {"host", PST_F_STR, NULL, "host name", false, NULL},
    {"cpus", PST_F_STR, NULL, "CPUs the rank may run on (sched_getaffinity), as a list like 0-3,8", false, NULL},
    {"numa_node", PST_F_INT, NULL, "NUMA node of those CPUs, where readable", false, NULL},
    {"threads", PST_F_INT, NULL, "OpenMP threads of the rank; absent before threads per rank", true, NULL},
    {"thread_cpus", PST_F_STR, NULL,
     "the CPU each thread ran on when it started (sched_getcpu), in thread order, ascending runs as 0-7; absent before "
     "threads per rank",
     true, NULL},
};
static const pst_fields binding_fields = PST_FIELDS("binding", binding);

static const pst_field allocator[] = {
    {"glibc_version", PST_F_STR, NULL, "gnu_get_libc_version()", false, NULL},
    {"alloc_state", PST_F_STR, NULL, "the allocator state asked for with --alloc-state: default, warm or fresh", false,
     NULL},
    {"mmap_threshold_bytes", PST_F_INT, "bytes", "M_MMAP_THRESHOLD when pstswm set it, else null (glibc has no getter)",
     false, NULL},
    {"trim_threshold_bytes", PST_F_INT, "bytes", "M_TRIM_THRESHOLD when pstswm set it, else null", false, NULL},
    {"probe_bytes", PST_F_INT, "bytes", "size of the probe block: the run's largest message", false, NULL},
    {"probe_mmapped", PST_F_BOOL, NULL, "glibc served the probe block with mmap", false, NULL},
    {"preloaded", PST_F_STR, NULL, "an allocator named in LD_PRELOAD (jemalloc, tcmalloc, ...), else null", false,
     NULL},
};
static const pst_fields allocator_fields = PST_FIELDS("allocator", allocator);

static const pst_field path[] = {
    {"library_asked", PST_F_STR, NULL,
     "the transports the library was told to use: Open MPI's OMPI_MCA_pml and OMPI_MCA_btl, UCX_TLS (MPICH over UCX); "
     "default: not set",
     false, NULL},
    {"probe_bytes", PST_F_INT, "bytes",
     "bytes rank 0 and the first rank on another node sent each other at the start; null on one node and in simulation "
     "(simulated nodes have no interfaces)",
     false, NULL},
    {"interface_bytes", PST_F_INT, "bytes",
     "bytes the two nodes' network interfaces (/proc/net/dev, not lo) counted meanwhile, the smaller count; null where "
     "unreadable",
     false, NULL},
    {"seen_on_interfaces", PST_F_BOOL, NULL,
     "interface_bytes >= probe_bytes: the library took a network interface the kernel counts between nodes (false: "
     "shared memory, or an RDMA network)",
     false, NULL},
    {"shared_memory", PST_F_BOOL, NULL,
     "not seen on the interfaces while every node runs on one machine (emulated nodes): inter-node pairs went through "
     "shared memory, not a network",
     false, NULL},
};
static const pst_fields path_fields = PST_FIELDS("path", path);

static const pst_field locality[] = {
    {"node_of_rank", PST_F_INTS, NULL, "per rank: its node, as an index into hosts", false, NULL},
    {"ranks_per_node", PST_F_INTS, NULL, "per node (hosts' order): ranks on it", false, NULL},
    {"machines", PST_F_INT, NULL,
     "distinct running kernels (boot ids) under the nodes: fewer than nodes for emulated nodes sharing a machine",
     false, NULL},
    {"distribution", PST_F_STR, NULL,
     "rank distribution asked of the launcher: SLURM_DISTRIBUTION, else Open MPI's mapping policy; null: its default",
     false, NULL},
    {"cpu_bind", PST_F_STR, NULL,
     "binding asked of the launcher: SLURM_CPU_BIND, else Open MPI's binding policy; null: its default", false, NULL},
    {"path", PST_F_OBJ, NULL, "the path the library took between nodes, from a probe exchange", false, &path_fields},
};
static const pst_fields locality_fields = PST_FIELDS("locality", locality);

/* Filled by the model layer (model/libs/mathlibs.h), which calls the libraries. */
static const pst_field math_library[] = {
    {"openblas_core", PST_F_STR, NULL,
     "the kernel set OpenBLAS chose for this CPU (openblas_get_corename; a DYNAMIC_ARCH build picks it at load time, "
     "OPENBLAS_CORETYPE overrides)",
     false, NULL},
    {"openblas_config", PST_F_STR, NULL, "openblas_get_config: version and build options", false, NULL},
    {"blis_version", PST_F_STR, NULL,
     "BLIS's version (bli_info_get_version_str); null when BLIS does not load (--blas blis names why)", false, NULL},
    {"blis_arch", PST_F_STR, NULL,
     "the configuration BLIS runs on this CPU (bli_arch_string of bli_arch_query_id: zen3, haswell, skx, ..., generic "
     "when the build has none for it; BLIS_ARCH_TYPE overrides): --blas blis-sup needs one with small-matrix kernels, "
     "generic has none; null when BLIS does not load",
     false, NULL},
    {"fftw_version", PST_F_STR, NULL,
     "FFTW's version text, its suffixes the SIMD codelet sets it was built with (fftw-3.3.10-sse2-avx)", false, NULL},
    {"fftw_simd", PST_F_STRS, NULL,
     "of those sets, the ones this CPU runs (FFTW's own check, fftw_have_simd_*): the codelets its planner chooses "
     "among; empty: scalar codelets only; null: FFTW names sets but exports no check",
     false, NULL},
    {"cpu_isa", PST_F_STR, NULL,
     "the widest vector level of rank 0's CPU for these libraries (__builtin_cpu_supports; oldest first: generic, "
     "sse2, sse3, avx, avx2 = AVX2 with FMA, avx512 = AVX-512F); null off x86; absent from records written before the "
     "check",
     true, NULL},
    {"openblas_isa", PST_F_STR, NULL,
     "the level openblas_core's kernels use (Prescott, Nehalem sse3; Sandybridge avx; Haswell, Zen avx2; SkylakeX, "
     "Cooperlake avx512); null: a core the table does not hold; absent before the check",
     true, NULL},
    {"blis_isa", PST_F_STR, NULL,
     "the level blis_arch's kernels use (generic: none; haswell, zen3 avx2; skx, zen4 avx512); null: BLIS not loaded "
     "or an arch the table does not hold; absent before the check",
     true, NULL},
    {"fftw_isa", PST_F_STR, NULL,
     "the widest level among fftw_simd (generic: scalar codelets only); null when fftw_simd is; absent before the "
     "check",
     true, NULL},
    {"blas_behind_cpu", PST_F_STRS, NULL,
     "openblas, blis: the BLAS libraries whose kernels use an older level than cpu_isa (OpenBLAS Prescott or BLIS "
     "generic on an AVX2 CPU): the model's summary and pstlab's scope and machine lines say so with what to do "
     "(docs/install.md: check a node's libraries); empty: none; absent before the check",
     true, NULL},
};
static const pst_fields math_library_fields = PST_FIELDS("math libraries", math_library);

static const pst_field header[] = {
    {"tool", PST_F_STR, NULL, "pstswm", false, NULL},
    {"schema_version", PST_F_INT, NULL, "version of this schema (docs/running.md: Output format, schema versions)",
     false, NULL},
    {"version", PST_F_STR, NULL, "pstswm version", false, NULL},
    {"git_commit", PST_F_STR, NULL, "commit the binary was built from (\"-dirty\": with changes to tracked files)",
     false, NULL},
    {"command", PST_F_STR, NULL, "the whole command line, shell-quoted", false, NULL},
    {"mpi_library", PST_F_STR, NULL, "MPI_Get_library_version, first line", false, NULL},
    {"mpi_version", PST_F_STR, NULL, "MPI standard version the library implements (MPI_Get_version)", false, NULL},
    {"mpi_build", PST_F_STR, NULL,
     "the MPI pstswm was built against: openmpi, mpich, system or smpi (SimGrid's simulated MPI)", false, NULL},
    {"mpi_features", PST_F_OBJS, NULL,
     "MPI features beyond the blocking MPI-3 calls and whether this build has them (an alternative that needs a "
     "missing one is refused with exit 2)",
     false, &pst_mpi_feature_fields},
    {"simulated", PST_F_BOOL, NULL,
     "the run was simulated (SimGrid's SMPI, docs/predict.md): its times are the simulated platform's, not this host's "
     "(absent from records written before it)",
     true, NULL},
    {"simulation", PST_F_OBJ, NULL,
     "the simulator, platform file and --cfg flags of a simulated run; null on a real machine (absent from records "
     "written before it)",
     true, &pst_simulation_fields},
    {"nodes", PST_F_INT, NULL, "distinct hosts", false, NULL},
    {"hosts", PST_F_STRS, NULL, "their names", false, NULL},
    {"cpu_model", PST_F_STR, NULL, "rank 0's CPU (/proc/cpuinfo)", false, NULL},
    {"cpus_online", PST_F_INT, NULL, "rank 0's online CPUs", false, NULL},
    {"cpu_vector_extensions", PST_F_STRS, NULL,
     "the vector extensions of rank 0's CPU, oldest first, by their /proc/cpuinfo names (SSE3 as sse3): sse2, sse3, "
     "ssse3, sse4_1, sse4_2, avx, fma, avx2, the AVX-512 subsets (avx512f, avx512cd, avx512dq, avx512bw, avx512vl, "
     "avx512ifma, avx512vbmi, avx512_vnni, avx512_bf16, avx512_fp16), amx_tile; Arm's asimd, sve, sve2; absent from "
     "records written before it",
     true, NULL},
    {"math_libraries", PST_F_OBJ, NULL,
     "what the math libraries run on rank 0's CPU (model and kernel only: the other subcommands call none of them); "
     "absent from records written before it",
     true, &math_library_fields},
    {"compiler", PST_F_STR, NULL, "compiler and version", false, NULL},
    {"timer_resolution_s", PST_F_NUM, "s", "measured smallest tick of MPI_Wtime", false, NULL},
    {"wtick_s", PST_F_NUM, "s", "MPI_Wtick", false, NULL},
    {"thread_level", PST_F_STR, NULL, "MPI thread level asked for (--thread-level)", false, NULL},
    {"thread_level_provided", PST_F_STR, NULL, "thread level the library provided", false, NULL},
    {"date", PST_F_STR, NULL, "start of the run, UTC, ISO 8601", false, NULL},
    {"env", PST_F_MAP, NULL,
     "every OMPI_, PMIX_, MPICH_, MPIR_CVAR_, UCX_, FI_, I_MPI_, PSM2_, OMP_, OPENBLAS_, BLIS_, SLURM_, MALLOC_, "
     "PSTSWM_FAULT_ variable and GLIBC_TUNABLES",
     false, NULL},
    {"binding", PST_F_OBJS, NULL, "per rank: where it may run", false, &binding_fields},
    {"oversubscribed", PST_F_BOOL, NULL,
     "some machine runs more threads (ranks times threads per rank) than the CPUs allowed to them (emulated nodes on "
     "one machine count together): timings are not verdicts",
     false, NULL},
    {"threads", PST_F_INT, NULL,
     "OpenMP threads per rank (--threads; model, kernel, pingpong, swap); absent before threads per rank", true, NULL},
    {"threads_source", PST_F_STR, NULL,
     "where the thread count came from: --threads, OMP_NUM_THREADS (model, kernel) or default; absent before threads "
     "per rank",
     true, NULL},
    {"omp_proc_bind", PST_F_STR, NULL, "OMP_PROC_BIND as the run saw it (null: unset); absent before threads per rank",
     true, NULL},
    {"omp_places", PST_F_STR, NULL, "OMP_PLACES as the run saw it (null: unset); absent before threads per rank", true,
     NULL},
    {"locality", PST_F_OBJ, NULL,
     "where the ranks run: node of every rank, ranks per node, the placement asked for, the path between nodes; absent "
     "in records of pstswm before locality",
     true, &locality_fields},
    {"cpu_governor", PST_F_STR, NULL, "cpufreq governor of CPU 0, where readable", false, NULL},
    {"transparent_hugepages", PST_F_STR, NULL, "THP setting (always, madvise, never), where readable", false, NULL},
    {"kernel_release", PST_F_STR, NULL, "uname -r", false, NULL},
    {"ld_preload", PST_F_STR, NULL, "LD_PRELOAD", false, NULL},
    {"compile_flags", PST_F_STR, NULL, "C flags pstswm was compiled with", false, NULL},
    {"noise", PST_F_OBJ, NULL, "the host-noise probe before the first experiment; null with --noise-probe 0", false,
     &noise_fields},
    {"allocator", PST_F_OBJ, NULL, "glibc allocator state: whether the largest message is mmapped", false,
     &allocator_fields},
};
const pst_fields pst_fields_header = PST_FIELDS("run header", header);

static const pst_field footer[] = {
    {"noise", PST_F_OBJ, NULL, "the host-noise probe after the last experiment; null with --noise-probe 0", false,
     &noise_fields},
    {"elapsed_s", PST_F_NUM, "s", "from the end of the header to the footer", false, NULL},
};
const pst_fields pst_fields_footer = PST_FIELDS("footer", footer);

static const pst_field rounds[] = {
    {"stat", PST_F_STR, NULL, "the statistic verdicts use: t_med", false, NULL},
    {"ci_low", PST_F_NUM, "s", "lower end of the median's confidence interval (order statistics)", false, NULL},
    {"ci_high", PST_F_NUM, "s", "upper end of that interval", false, NULL},
    {"rounds", PST_F_INT, NULL, "rounds measured", false, NULL},
    {"precision_reached", PST_F_BOOL, NULL, "the interval's half-width is within --precision of the median", false,
     NULL},
    {"round_s", PST_F_NUMS, "s", "every round's time, 5 significant digits", false, NULL},
};
const pst_fields pst_fields_rounds = PST_FIELDS("rounds", rounds);

static const pst_field compare_header[] = {
    {"schedule", PST_F_STR, NULL, "rounds (shuffled per round) or sequential", false, NULL},
    {"seed", PST_F_INT, NULL, "seed of the shuffled order", false, NULL},
    {"margin", PST_F_NUM, NULL, "equivalence margin (fraction)", false, NULL},
    {"confidence", PST_F_NUM, NULL, "confidence of intervals and best sets", false, NULL},
    {"adaptive", PST_F_BOOL, NULL, "rounds were added until --precision or --budget", false, NULL},
    {"precision", PST_F_NUM, NULL, "adaptive target: the median's CI half-width relative to it", false, NULL},
    {"budget_s", PST_F_NUM, "s", "adaptive budget of the run; 0: 10x --reps rounds", false, NULL},
};
const pst_fields pst_fields_rounds_header = PST_FIELDS("comparison settings", compare_header);
