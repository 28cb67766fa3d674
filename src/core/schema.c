#include "core/schema.h"

#include "core/mpi_features.h"
#include "core/simulation.h"

#include <string.h>

/* ---- the groups core writes ------------------------------------------------------------- */

static const pst_field common[] = {
    {"bench", PST_F_STR, NULL, "the subcommand that wrote the record", false, NULL},
    {"type", PST_F_STR, NULL, "header, point (one measurement), summary (derived), diag (model diagnostics) or footer", false, NULL},
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
    {"threshold_s", PST_F_NUM, "s", "a gap is a stall when longer than this: max(20 us, 10 timer ticks) (header only)", true, NULL},
    {"measures_ranks", PST_F_BOOL, NULL, "ranks outnumber CPUs, so the probe measures the ranks taking turns (header only)", true, NULL},
    {"before", PST_F_OBJ, NULL, "the probe before the first experiment (header)", true, &noise_probe_fields},
    {"after", PST_F_OBJ, NULL, "the probe after the last experiment (footer)", true, &noise_probe_fields},
    {"noisy", PST_F_BOOL, NULL, "some rank lost more than 2 % of the probe: timings are noisy, verdicts unreliable", false, NULL},
};
static const pst_fields noise_fields = PST_FIELDS("noise", noise);

static const pst_field binding[] = {
    {"rank", PST_F_INT, NULL, "MPI rank", false, NULL},
    {"host", PST_F_STR, NULL, "host name", false, NULL},
    {"cpus", PST_F_STR, NULL, "CPUs the rank may run on (sched_getaffinity), as a list like 0-3,8", false, NULL},
    {"numa_node", PST_F_INT, NULL, "NUMA node of those CPUs, where readable", false, NULL},
};
static const pst_fields binding_fields = PST_FIELDS("binding", binding);

static const pst_field allocator[] = {
    {"glibc_version", PST_F_STR, NULL, "gnu_get_libc_version()", false, NULL},
    {"alloc_state", PST_F_STR, NULL, "the allocator state asked for with --alloc-state: default, warm or fresh", false, NULL},
    {"mmap_threshold_bytes", PST_F_INT, "bytes", "M_MMAP_THRESHOLD when pstswm set it, else null (glibc has no getter)", false, NULL},
    {"trim_threshold_bytes", PST_F_INT, "bytes", "M_TRIM_THRESHOLD when pstswm set it, else null", false, NULL},
    {"probe_bytes", PST_F_INT, "bytes", "size of the probe block: the run's largest message", false, NULL},
    {"probe_mmapped", PST_F_BOOL, NULL, "glibc served the probe block with mmap", false, NULL},
    {"preloaded", PST_F_STR, NULL, "an allocator named in LD_PRELOAD (jemalloc, tcmalloc, ...), else null", false, NULL},
};
static const pst_fields allocator_fields = PST_FIELDS("allocator", allocator);

static const pst_field path[] = {
    {"library_asked", PST_F_STR, NULL, "the transports the library was told to use: Open MPI's OMPI_MCA_pml and OMPI_MCA_btl, UCX_TLS (MPICH over UCX); default: not set", false, NULL},
    {"probe_bytes", PST_F_INT, "bytes", "bytes rank 0 and the first rank on another node sent each other at the start; null on one node", false, NULL},
    {"interface_bytes", PST_F_INT, "bytes", "bytes the two nodes' network interfaces (/proc/net/dev, not lo) counted meanwhile, the smaller count; null where unreadable", false, NULL},
    {"seen_on_interfaces", PST_F_BOOL, NULL, "interface_bytes >= probe_bytes: the library took a network interface the kernel counts between nodes (false: shared memory, or an RDMA network)", false, NULL},
    {"shared_memory", PST_F_BOOL, NULL, "not seen on the interfaces while every node runs on one machine (emulated nodes): inter-node pairs went through shared memory, not a network", false, NULL},
};
static const pst_fields path_fields = PST_FIELDS("path", path);

static const pst_field locality[] = {
    {"node_of_rank", PST_F_INTS, NULL, "per rank: its node, as an index into hosts", false, NULL},
    {"ranks_per_node", PST_F_INTS, NULL, "per node (hosts' order): ranks on it", false, NULL},
    {"machines", PST_F_INT, NULL, "distinct running kernels (boot ids) under the nodes: fewer than nodes for emulated nodes sharing a machine", false, NULL},
    {"distribution", PST_F_STR, NULL, "rank distribution asked of the launcher: SLURM_DISTRIBUTION, else Open MPI's mapping policy; null: its default", false, NULL},
    {"cpu_bind", PST_F_STR, NULL, "binding asked of the launcher: SLURM_CPU_BIND, else Open MPI's binding policy; null: its default", false, NULL},
    {"path", PST_F_OBJ, NULL, "the path the library took between nodes, from a probe exchange", false, &path_fields},
};
static const pst_fields locality_fields = PST_FIELDS("locality", locality);

static const pst_field header[] = {
    {"tool", PST_F_STR, NULL, "pstswm", false, NULL},
    {"schema_version", PST_F_INT, NULL, "version of this schema (README: Schema versions)", false, NULL},
    {"version", PST_F_STR, NULL, "pstswm version", false, NULL},
    {"git_commit", PST_F_STR, NULL, "commit the binary was built from (\"-dirty\": with changes to tracked files)", false, NULL},
    {"command", PST_F_STR, NULL, "the whole command line, shell-quoted", false, NULL},
    {"mpi_library", PST_F_STR, NULL, "MPI_Get_library_version, first line", false, NULL},
    {"mpi_version", PST_F_STR, NULL, "MPI standard version the library implements (MPI_Get_version)", false, NULL},
    {"mpi_build", PST_F_STR, NULL, "the MPI pstswm was built against: openmpi, mpich, system or smpi (SimGrid's simulated MPI)", false, NULL},
    {"mpi_features", PST_F_OBJS, NULL, "MPI features beyond the blocking MPI-3 calls and whether this build has them (an alternative that needs a missing one is refused with exit 2)", false, &pst_mpi_feature_fields},
    {"simulated", PST_F_BOOL, NULL, "the run was simulated (SimGrid's SMPI, docs/predict.md): its times are the simulated platform's, not this host's (absent from records written before it)", true, NULL},
    {"simulation", PST_F_OBJ, NULL, "the simulator, platform file and --cfg flags of a simulated run; null on a real machine (absent from records written before it)", true, &pst_simulation_fields},
    {"nodes", PST_F_INT, NULL, "distinct hosts", false, NULL},
    {"hosts", PST_F_STRS, NULL, "their names", false, NULL},
    {"cpu_model", PST_F_STR, NULL, "rank 0's CPU (/proc/cpuinfo)", false, NULL},
    {"cpus_online", PST_F_INT, NULL, "rank 0's online CPUs", false, NULL},
    {"compiler", PST_F_STR, NULL, "compiler and version", false, NULL},
    {"timer_resolution_s", PST_F_NUM, "s", "measured smallest tick of MPI_Wtime", false, NULL},
    {"wtick_s", PST_F_NUM, "s", "MPI_Wtick", false, NULL},
    {"thread_level", PST_F_STR, NULL, "MPI thread level asked for (--thread-level)", false, NULL},
    {"thread_level_provided", PST_F_STR, NULL, "thread level the library provided", false, NULL},
    {"date", PST_F_STR, NULL, "start of the run, UTC, ISO 8601", false, NULL},
    {"env", PST_F_MAP, NULL, "every OMPI_, PMIX_, MPICH_, MPIR_CVAR_, UCX_, FI_, I_MPI_, PSM2_, OMP_, OPENBLAS_, SLURM_, MALLOC_ variable and GLIBC_TUNABLES", false, NULL},
    {"binding", PST_F_OBJS, NULL, "per rank: where it may run", false, &binding_fields},
    {"oversubscribed", PST_F_BOOL, NULL, "some machine runs more ranks than the CPUs allowed to them (emulated nodes on one machine count together): timings are not verdicts", false, NULL},
    {"locality", PST_F_OBJ, NULL, "where the ranks run: node of every rank, ranks per node, the placement asked for, the path between nodes; absent in records of pstswm before locality", true, &locality_fields},
    {"cpu_governor", PST_F_STR, NULL, "cpufreq governor of CPU 0, where readable", false, NULL},
    {"transparent_hugepages", PST_F_STR, NULL, "THP setting (always, madvise, never), where readable", false, NULL},
    {"kernel_release", PST_F_STR, NULL, "uname -r", false, NULL},
    {"ld_preload", PST_F_STR, NULL, "LD_PRELOAD", false, NULL},
    {"compile_flags", PST_F_STR, NULL, "C flags pstswm was compiled with", false, NULL},
    {"noise", PST_F_OBJ, NULL, "the host-noise probe before the first experiment; null with --noise-probe 0", false, &noise_fields},
    {"allocator", PST_F_OBJ, NULL, "glibc allocator state: whether the largest message is mmapped", false, &allocator_fields},
};
const pst_fields pst_fields_header = PST_FIELDS("run header", header);

static const pst_field footer[] = {
    {"noise", PST_F_OBJ, NULL, "the host-noise probe after the last experiment; null with --noise-probe 0", false, &noise_fields},
    {"elapsed_s", PST_F_NUM, "s", "from the end of the header to the footer", false, NULL},
};
const pst_fields pst_fields_footer = PST_FIELDS("footer", footer);

static const pst_field times[] = {
    {"t_min", PST_F_NUM, "s", "smallest time over repetitions", false, NULL},
    {"t_med", PST_F_NUM, "s", "median time", false, NULL},
    {"t_mean", PST_F_NUM, "s", "mean time", false, NULL},
    {"t_max", PST_F_NUM, "s", "largest time", false, NULL},
    {"reps", PST_F_INT, NULL, "repetitions (rounds) the statistics are over", false, NULL},
};
const pst_fields pst_fields_times = PST_FIELDS("times", times);

static const pst_field rounds[] = {
    {"stat", PST_F_STR, NULL, "the statistic verdicts use: t_med", false, NULL},
    {"ci_low", PST_F_NUM, "s", "lower end of the median's confidence interval (order statistics)", false, NULL},
    {"ci_high", PST_F_NUM, "s", "upper end of that interval", false, NULL},
    {"rounds", PST_F_INT, NULL, "rounds measured", false, NULL},
    {"precision_reached", PST_F_BOOL, NULL, "the interval's half-width is within --precision of the median", false, NULL},
    {"round_s", PST_F_NUMS, "s", "every round's time, 5 significant digits", false, NULL},
};
const pst_fields pst_fields_rounds = PST_FIELDS("rounds", rounds);

static const pst_field verdict[] = {
    {"stat", PST_F_STR, NULL, "the statistic compared: t_med", false, NULL},
    {"best", PST_F_STR, NULL, "the alternative with the smallest median", false, NULL},
    {"best_set", PST_F_STRS, NULL, "alternatives not shown slower than the best by more than margin, at confidence", false, NULL},
    {"decided", PST_F_BOOL, NULL, "the best set has one member", false, NULL},
    {"nalternatives", PST_F_INT, NULL, "alternatives compared", false, NULL},
    {"margin", PST_F_NUM, NULL, "equivalence margin (fraction): closer alternatives are a tie", false, NULL},
    {"confidence", PST_F_NUM, NULL, "confidence of the intervals and of the best set", false, NULL},
    {"level", PST_F_STR, NULL, "sensitivity: low (median_rel <= 5 %), moderate, high (>= 15 %) or undetermined", false, NULL},
    {"level_ci", PST_F_STRS, NULL, "the levels at the two ends of median_rel_ci", false, NULL},
    {"median_rel_ci", PST_F_NUMS, NULL, "interval of the median alternative's relative excess over the best", false, NULL},
    {"rounds", PST_F_INT, NULL, "rounds behind the verdict", false, NULL},
    {"precision_reached", PST_F_BOOL, NULL, "the median of every alternative compared reached --precision (a comparator measured beside them, like the kernel's collective, does not count)", false, NULL},
    {"verdict_ok", PST_F_BOOL, NULL, "no caveat applies", false, NULL},
    {"verdict_caveats", PST_F_STRS, NULL, "why the verdict may not hold: oversubscribed, noisy, fewer than 10 rounds, precision not reached, below 20x timer resolution", false, NULL},
};
const pst_fields pst_fields_verdict = PST_FIELDS("verdict", verdict);

static const pst_field sensitivity[] = {
    {"mean_rel", PST_F_NUM, NULL, "mean over alternatives of (t - min) / min", false, NULL},
    {"median_rel", PST_F_NUM, NULL, "the median alternative's relative excess over the best (paired over rounds)", false, NULL},
    {"max_rel", PST_F_NUM, NULL, "the slowest alternative's (t - min) / min", false, NULL},
    {"fastest", PST_F_STRS, NULL, "the (up to) five fastest alternatives, fastest first", false, NULL},
    {"within_1pct", PST_F_INT, NULL, "alternatives within 1 % of the fastest", false, NULL},
    {"within_5pct", PST_F_INT, NULL, "within 5 %", false, NULL},
    {"within_25pct", PST_F_INT, NULL, "within 25 %", false, NULL},
};
const pst_fields pst_fields_sensitivity = PST_FIELDS("sensitivity", sensitivity);

static const pst_field segment[] = {
    {"from_bytes", PST_F_INT, "bytes", "first message size of the segment", false, NULL},
    {"to_bytes", PST_F_INT, "bytes", "last message size of the segment", false, NULL},
    {"npoints", PST_F_INT, NULL, "sizes in the segment", false, NULL},
    {"alpha_s", PST_F_NUM, "s", "start-up time: the fit's intercept", false, NULL},
    {"alpha_ci", PST_F_NUMS, "s", "its 95 % interval", false, NULL},
    {"beta_mbytes_per_s", PST_F_NUM, "MB/s", "bandwidth: the inverse of the fit's slope", false, NULL},
    {"beta_ci", PST_F_NUMS, "MB/s", "its 95 % interval", false, NULL},
    {"t_l_s", PST_F_NUM, "s", "alpha_s in Worley's notation (t_L)", false, NULL},
    {"t_l_ci95", PST_F_NUMS, "s", "its 95 % interval", false, NULL},
    {"t_s_s_per_byte", PST_F_NUM, "s/byte", "the slope (t_S)", false, NULL},
    {"t_s_ci95", PST_F_NUMS, "s/byte", "its 95 % interval", false, NULL},
};
static const pst_fields segment_fields = PST_FIELDS("segment", segment);

static const pst_field segfit[] = {
    {"breakpoints_bytes", PST_F_INTS, "bytes", "message sizes where a new segment of the piecewise fit starts (protocol switches)", false, NULL},
    {"segments", PST_F_OBJS, NULL, "the piecewise-linear fit t = alpha + bytes / beta, per segment", false, &segment_fields},
    {"model_max_rel_err", PST_F_NUM, NULL, "largest relative error of the piecewise fit at a measured size", false, NULL},
    {"fit_ok", PST_F_BOOL, NULL, "the fit describes every size within its tolerance", false, NULL},
};
const pst_fields pst_fields_segfit = PST_FIELDS("piecewise fit", segfit);

static const pst_field compare_header[] = {
    {"schedule", PST_F_STR, NULL, "rounds (shuffled per round) or sequential", false, NULL},
    {"seed", PST_F_INT, NULL, "seed of the shuffled order", false, NULL},
    {"margin", PST_F_NUM, NULL, "equivalence margin (fraction)", false, NULL},
    {"confidence", PST_F_NUM, NULL, "confidence of intervals and best sets", false, NULL},
    {"adaptive", PST_F_BOOL, NULL, "rounds were added until --precision or --budget", false, NULL},
    {"precision", PST_F_NUM, NULL, "adaptive target: the median's CI half-width relative to it", false, NULL},
    {"budget_s", PST_F_NUM, "s", "adaptive budget of the run; 0: 10x --reps rounds", false, NULL},
};
const pst_fields pst_fields_compare_header = PST_FIELDS("comparison settings", compare_header);

/* ---- look-up and self-check ------------------------------------------------------------- */

const pst_field *pst_fields_find(const pst_fields *g, const char *key)
{
    for (size_t i = 0; i < g->n; i++)
        if (!strcmp(g->field[i].name, key)) return &g->field[i];
    return NULL;
}

const pst_field *pst_schema_field(const pst_schema *s, const char *key, size_t *part, size_t *index)
{
    for (size_t p = 0; p < PST_SCHEMA_PARTS && s->part[p]; p++) {
        const pst_field *f = pst_fields_find(s->part[p], key);
        if (f) {
            *part = p;
            *index = (size_t)(f - s->part[p]->field);
            return f;
        }
    }
    return NULL;
}

const char *pst_ftype_name(pst_ftype t)
{
    static const char *const names[] = {
        [PST_F_STR] = "string", [PST_F_INT] = "int", [PST_F_NUM] = "number", [PST_F_BOOL] = "bool",
        [PST_F_STRS] = "string[]", [PST_F_INTS] = "int[]", [PST_F_NUMS] = "number[]",
        [PST_F_OBJ] = "object", [PST_F_OBJS] = "object[]", [PST_F_MAP] = "map",
    };
    return names[t];
}

static int check_members(const pst_fields *g, const char *where, FILE *err)
{
    int bad = 0;
    for (size_t i = 0; i < g->n; i++) {
        const pst_field *f = &g->field[i];
        bool nests = f->type == PST_F_OBJ || f->type == PST_F_OBJS;
        if (nests != (f->members != NULL)) {
            fprintf(err, "%s: field %s: members %s for a %s\n", where, f->name, f->members ? "given" : "missing", pst_ftype_name(f->type));
            bad++;
        }
        if (!f->doc || !f->doc[0]) { fprintf(err, "%s: field %s has no doc\n", where, f->name); bad++; }
        for (size_t j = 0; j < i; j++)
            if (!strcmp(g->field[j].name, f->name)) { fprintf(err, "%s: field %s listed twice\n", where, f->name); bad++; }
        if (f->members) bad += check_members(f->members, where, err);
    }
    return bad;
}

int pst_schema_check(const pst_schema *const *s, size_t n, FILE *err)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        char where[128];
        snprintf(where, sizeof where, "%s/%s%s%s", s[i]->bench, s[i]->type, s[i]->summary ? "/" : "", s[i]->summary ? s[i]->summary : "");
        for (size_t j = 0; j < i; j++)
            if (!strcmp(s[i]->bench, s[j]->bench) && !strcmp(s[i]->type, s[j]->type) &&
                !strcmp(s[i]->summary ? s[i]->summary : "", s[j]->summary ? s[j]->summary : "")) {
                fprintf(err, "%s: schema listed twice\n", where);
                bad++;
            }
        for (size_t p = 0; p < PST_SCHEMA_PARTS && s[i]->part[p]; p++) {
            const pst_fields *g = s[i]->part[p];
            if (g->n > PST_SCHEMA_PART_MAX) { fprintf(err, "%s: group %s has %zu fields (at most %d)\n", where, g->name, g->n, PST_SCHEMA_PART_MAX); bad++; }
            bad += check_members(g, where, err);
            /* A name in two groups of one record would be written twice. */
            for (size_t k = 0; k < g->n; k++)
                for (size_t q = 0; q < p; q++)
                    if (pst_fields_find(s[i]->part[q], g->field[k].name)) {
                        fprintf(err, "%s: field %s in groups %s and %s\n", where, g->field[k].name, s[i]->part[q]->name, g->name);
                        bad++;
                    }
        }
    }
    return bad;
}
