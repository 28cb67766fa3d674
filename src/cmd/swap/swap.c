/* pstswm swap: point-to-point SWAP protocol sweep (Worley 1998 §5 and Worley 2000).
 *
 * Pairs of ranks exchange messages with every selected protocol, message size and cache
 * state.  One "exchange" moves nmsg messages of `bytes` each way (nmsg = volume / bytes with
 * --volume, else 1).  Per point: min/median/mean/max over repetitions of the time per
 * exchange, taken as the max over all participating ranks of each repetition.  Per protocol:
 * peak bandwidth and the model T = nmsg·α + volume/β fitted to the per-point minima with
 * relative (1/T²) weights.  Per size: the protocol sensitivity summary. */
#include "cmd/common/frame.h"
#include "cmd/common/pairing.h"
#include "cmd/common/records.h"
#include "cmd/common/streams.h"
#include "cmd/swap/swap_impl.h"
#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "runtime/rounds.h"
#include "runtime/context.h"
#include "runtime/run_schema.h"
#include "runtime/threads.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_BYTES = 1 << 30, MAX_MESSAGES = 1 << 20 };
/* Transfer state of one point: every protocol's transfers are alive at once (rounds). */
static const double MAX_XFER_STATE_BYTES = 1 << 30;

static const cache_mode cache_modes[] = {
    {"cold", "caches flushed before each exchange", 1, true},
    {"1", "one exchange per sample, warm", 1, false},
    {"10", "mean of ten back-to-back exchanges per sample", 10, false},
};

static const cache_mode *find_cache_mode(const char *name)
{
    for (size_t i = 0; i < sizeof cache_modes / sizeof cache_modes[0]; i++)
        if (!strcmp(cache_modes[i].name, name)) return &cache_modes[i];
    return NULL;
}

/* --threads T: T streams per pair on the two-sided transport.  Buffered sends (0,0) share one
 * attached space per process, which only one thread at a time may use: not in mode multiple. */
static void validate_streams(swap_cfg *cfg)
{
    cfg->multiple = cfg->threads > 1 && pst_streams_multiple();
    cfg->threads = cfg->streams =
        pst_threads_resolve((int)cfg->threads, false, cfg->multiple, "--threads (mode multiple)");
    if (cfg->streams == 1) return;
    if (strcmp(cfg->transport, "mpi"))
        pst_usage_error(
            "--threads %d: the streams are two-sided MPI messages; --transport %s is not (use --transport mpi)",
            cfg->streams, cfg->transport);
    for (size_t i = 0; cfg->multiple && i < cfg->nprotocols; i++)
        if (!cfg->protocols[i]->ordered && cfg->protocols[i]->variant == 0)
            pst_usage_error(
                "--threads %d: protocol %s (%s) sends buffered from one attached space per process, which threads "
                "cannot share in mode multiple; leave it out, or pass --thread-level funneled",
                cfg->streams, cfg->protocols[i]->code, cfg->protocols[i]->slug);
}

static void validate(void *p)
{
    swap_cfg *cfg = p;
    char err[512];
    pst_ctx *c = &cfg->ctx;
    pst_transport_require(cfg->transport);
    c->transport = cfg->transport;
    if (pst_protocol_parse_list(cfg->transport, cfg->protocols_spec, &cfg->protocols, &cfg->nprotocols, err,
                                sizeof err))
        pst_usage_error("--protocols: %s", err);
    validate_streams(cfg);
    if (c->size < 2) pst_usage_error("swap needs at least 2 ranks (running on 1); start it with mpiexec -n 2 or more");

    pst_pairing pairing;
    if (pst_pairing_parse(cfg->pairs_spec, c->rank, c->size, &pairing, err, sizeof err)) pst_usage_error("%s", err);
    cfg->npairs = pairing.npairs;
    cfg->partner = pairing.partner;
    cfg->side = pairing.side;

    if (cfg->volume > 0) {
        if (cfg->sizes.n == 0) {
            /* Worley 2000: the volume as 1 ... 1024 messages. */
            long long v[11];
            size_t n = 0;
            for (long long k = 1024; k >= 1; k /= 2)
                if (cfg->volume % k == 0) v[n++] = cfg->volume / k;
            pst_int_list_set(&cfg->sizes, n, v);
        }
        for (size_t i = 0; i < cfg->sizes.n; i++)
            if (cfg->sizes.v[i] > cfg->volume || cfg->volume % cfg->sizes.v[i])
                pst_usage_error("--sizes: %lld does not divide --volume %lld", cfg->sizes.v[i], cfg->volume);
        if (cfg->volume > MAX_BYTES)
            pst_usage_error("--volume: %lld is out of range (allowed: 1 ... %d)", cfg->volume, MAX_BYTES);
        /* Refused before anything is allocated: each message is a transfer per protocol. */
        long long smallest = cfg->sizes.v[0];
        for (size_t i = 1; i < cfg->sizes.n; i++) smallest = cfg->sizes.v[i] < smallest ? cfg->sizes.v[i] : smallest;
        long long nmsg = cfg->volume / smallest;
        double state_bytes = (double)nmsg * (double)cfg->nprotocols * (double)sizeof(pst_xfer);
        if (nmsg > MAX_MESSAGES || state_bytes > MAX_XFER_STATE_BYTES)
            pst_usage_error(
                "--volume %lld as messages of %lld bytes is %lld messages per exchange, %.3g GB of transfer state "
                "per rank for %zu protocols (allowed: up to %d messages and %.3g GB)",
                cfg->volume, smallest, nmsg, state_bytes / 1e9, cfg->nprotocols, MAX_MESSAGES,
                MAX_XFER_STATE_BYTES / 1e9);
    } else if (cfg->sizes.n == 0) {
        long long v[20];
        size_t n = 0;
        for (long long b = 8; b <= 4 << 20; b *= 2) v[n++] = b;
        pst_int_list_set(&cfg->sizes, n, v);
    }
    if (cfg->cache.n == 0) {
        cfg->cache.v = pst_malloc(sizeof *cfg->cache.v);
        cfg->cache.v[0] = pst_strdup("1");
        cfg->cache.n = 1;
    }
    long long largest = cfg->volume;
    for (size_t i = 0; i < cfg->sizes.n; i++) largest = cfg->sizes.v[i] > largest ? cfg->sizes.v[i] : largest;
    c->alloc_probe_bytes = (size_t)largest;
    int color = cfg->partner >= 0 ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, c->rank, &cfg->active);
    pst_rounds_setup(&cfg->rounds, c, cfg->reps, cfg->cache.n * cfg->sizes.n);
}

/* Messages per exchange at each size: volume / bytes with --volume, else 1. */
static void plan(void *p)
{
    swap_cfg *cfg = p;
    long long *nmsg = pst_malloc(cfg->sizes.n * sizeof *nmsg);
    for (size_t s = 0; s < cfg->sizes.n; s++) nmsg[s] = cfg->volume > 0 ? cfg->volume / cfg->sizes.v[s] : 1;
    cfg->now.nmsg = nmsg;
    cfg->now.R = pst_calloc(cfg->sizes.n, sizeof *cfg->now.R);
}

static void release(void *p)
{
    swap_cfg *cfg = p;
    free(cfg->now.R);
    free(cfg->now.nmsg);
    free(cfg->protocols);
    pst_transport_release(cfg->transport, MPI_COMM_WORLD);
    if (cfg->active != MPI_COMM_NULL) MPI_Comm_free(&cfg->active);
}

/* One cache state's measurement: every size's rounds. */
static void *measure_cache_set(void *p, size_t set)
{
    swap_cfg *cfg = p;
    swap_cache_set *cs = &cfg->now;
    cs->cm = find_cache_mode(cfg->cache.v[set]);
    pst_swap_measure_cache(cfg, cs->cm, cs->nmsg, cs->R);
    return cs;
}

static void free_cache_set(void *p, void *data)
{
    const swap_cfg *cfg = p;
    swap_cache_set *cs = data;
    for (size_t s = 0; s < cfg->sizes.n; s++) pst_rounds_free(&cs->R[s]);
}

static size_t cache_states(const void *p) { return ((const swap_cfg *)p)->cache.n; }

static const char *const caches[] = {"cold", "1", "10", NULL};
static const swap_cfg default_cfg = {.protocols_spec = "all",
                                     .pairs_spec = "0,1",
                                     .transport = "mpi",
                                     .reps = 20,
                                     .warmup = 2,
                                     .rounds = PST_ROUNDS_DEFAULTS};
static swap_cfg run_cfg;
static const pst_opt opts[] = {
    {"protocols", PST_OPT_STRING, &run_cfg.protocols_spec, "LIST",
     "protocols by code (1,3) or slug (ordered.isend-irecv), or all|ordered|unordered|overlap|no-overlap|persistent", 1,
     0, NULL, NULL},
    {"sizes", PST_OPT_SIZES, &run_cfg.sizes, "LIST",
     "message sizes in bytes: 64,1K or ranges 8:4M (doubling), 1K:64K:x4, 100:1000:+100", 1, MAX_BYTES, NULL,
     "8:4M; with --volume, volume/1024 ... volume"},
    {"volume", PST_OPT_SIZE, &run_cfg.volume, "BYTES",
     "fixed volume per exchange, split into volume/size messages (Worley 2000: 2M as 1...1024 messages); without it, "
     "one message of each size",
     1, MAX_BYTES, NULL, NULL},
    {"cache", PST_OPT_STRINGS, &run_cfg.cache, "LIST",
     "cache states: cold (flushed), 1 (one exchange), 10 (mean of ten)", 1, 0, caches, "1"},
    {"pairs", PST_OPT_STRING, &run_cfg.pairs_spec, "I,J|all", "the pair I,J or all: rank i with i+P/2, all at once", 1,
     0, NULL, NULL},
    PST_ROUNDS_OPTS(&run_cfg.reps, 1e7, &run_cfg.warmup, "exchanges", "a protocol"),
    PST_TRANSPORT_OPT(&run_cfg.transport, ""),
    PST_SAMPLES_OPT(&run_cfg.samples, "repetition"),
    PST_ROUNDS_SCHEDULE_OPTS(&run_cfg.rounds),
    PST_THREADS_OPT(
        &run_cfg.threads,
        ": each its own stream (tag = thread) of the exchanges between the pair; every "
        "thread calls MPI (MPI_THREAD_MULTIPLE), or with --thread-level funneled the master runs all streams "
        "as one batch; OMP_NUM_THREADS is not read"),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "swap",
    .summary = "Point-to-point SWAP protocol sweep: every protocol, message size and cache state, with the\n"
               "per-protocol bandwidth/latency model and the per-size protocol-sensitivity summary.",
    .description =
        "Times are per exchange (all messages both ways), the max over participating ranks of each\n"
        "round; the protocols of one size and cache state run in interleaved rounds (--schedule).  Records\n"
        "carry t_min/t_med/t_mean/t_max, the median's confidence interval and every round's time.\n"
        "Bandwidth is unidirectional, MB = 10^6 bytes.  The model T = nmsg*alpha + volume/beta is fitted to\n"
        "the per-size medians with relative weights; 'max err' is its largest relative error.  The best set\n"
        "holds the protocols the data cannot tell from the fastest (docs/statistics.md).  Payloads are verified.\n"
        "--threads T > 1: T streams per pair (stream s on tag s, its own buffers); times are the streams' wall\n"
        "time / T, bandwidths their aggregate.",
    .examples = "  mpiexec -n 2 pstswm swap --protocols 1,0,0,6,ordered.isend-irecv --sizes 8:4M --out swap.jsonl\n"
                "  mpiexec -n 2 pstswm swap --volume 2M --cache cold,1,10          # Worley 2000's split-volume study\n"
                "  mpiexec -n 8 pstswm swap --pairs all --protocols ordered --sizes 1K,64K,1M\n"
                "  mpiexec -n 2 pstswm swap --transport rma --protocols all --sizes 8K,128K,2M",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("swap");
static const pst_schema *const schemas[] = {&pst_schema_swap_header, &pst_schema_swap_point, &pst_schema_swap_protocol,
                                            &pst_schema_swap_sensitivity, &footer, NULL};

const pst_subcommand pst_subcommand_swap = {
    .name = "swap",
    .summary = "point-to-point SWAP protocol sweep with protocol-sensitivity summary",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .validate = validate,
    .plan = plan,
    .nsets = cache_states,
    .measure = measure_cache_set,
    .analyse = pst_swap_analyse_cache_set,
    .print = pst_swap_print_cache_set,
    .emit = pst_swap_emit_cache_set,
    .analysis_free = pst_swap_free_analysis,
    .set_free = free_cache_set,
    .release = release,
};
