/* pstswm pingpong: half round-trip time and bandwidth against message size (Frese & Knipp 1998 §5.1).
 *
 * Side A of a pair sends a message, side B receives it and sends one of the same size back;
 * the half round trip is the time of a loop of round trips on side A divided by twice their
 * number.  One sample = one timed loop; --reps samples per point give t_min/t_med/t_mean/t_max.
 * The timed loop holds nothing but the MPI calls: payloads are written before and checked after
 * each loop, never inside it.  Modes are the MPI send modes (send, ssend, isend, bsend) or any
 * ordered SWAP protocol of the catalogue (an ordered exchange is a round trip).  --transport
 * picks the catalogue: under a one-sided transport (rma, shmem) the modes are its ordered
 * protocols only (the MPI send modes are refused: they are calls of two-sided MPI), its area is
 * set up once for the largest size before any timing, and bidirectional runs are refused.
 * Bidirectional runs (--direction bi) have both sides send at once: receive posted, send,
 * wait.  With --pairs all, every pair runs at once and a sample is the slowest pair's.
 * Per mode: zero-byte latency, peak bandwidth and the fit T(N) = t_l + N·t_s over a window of
 * large messages (Frese & Knipp 1998: 1-2 MB) with its residuals. */
#include "cmd/common/buffer.h"
#include "cmd/common/frame.h"
#include "cmd/common/pairing.h"
#include "cmd/pingpong/pingpong_impl.h"
#include "cmd/common/records.h"
#include "cmd/common/streams.h"
#include "comm/protocol.h"
#include "core/alloc.h"
#include "core/cli.h"
#include "core/errors.h"
#include "runtime/rounds.h"
#include "runtime/context.h"
#include "runtime/run_schema.h"
#include "runtime/threads.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const pp_mode native_modes[] = {
    {"send", K_SEND, NULL, "1,0", "A: MPI_Send, MPI_Recv / B: MPI_Recv, MPI_Send"},
    {"ssend", K_SSEND, NULL, "1,10", "A: MPI_Ssend, MPI_Recv / B: MPI_Recv, MPI_Ssend"},
    {"isend", K_ISEND, NULL, NULL, "A: MPI_Isend, MPI_Recv, MPI_Wait / B: MPI_Recv, MPI_Isend, MPI_Wait"},
    {"bsend", K_BSEND, NULL, NULL, "A: MPI_Bsend, MPI_Recv / B: MPI_Recv, MPI_Bsend (attached buffer)"},
};
enum { NNATIVE = sizeof native_modes / sizeof native_modes[0] };

/* The MPI send modes are calls of the two-sided transport. */
static bool two_sided(const pp_cfg *cfg) { return !strcmp(cfg->transport, "mpi"); }

/* The transport's ping-pongs for messages: "1,0 (ordered.put), 1,1 (ordered.put-nb), ...". */
static void ordered_list(const char *transport, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; i < pst_protocol_count(transport); i++) {
        const pst_protocol *p = pst_protocol_at(transport, i);
        size_t used = strlen(buf);
        if (p->cls == 1) snprintf(buf + used, len - used, "%s%s (%s)", used ? ", " : "", p->code, p->slug);
    }
}

static void add_mode(pp_cfg *cfg, const pp_mode *m)
{
    for (size_t i = 0; i < cfg->nmodes; i++)
        if (!strcmp(cfg->modes[i].name, m->name)) return;
    cfg->modes = pst_realloc(cfg->modes, (cfg->nmodes + 1) * sizeof *cfg->modes);
    cfg->modes[cfg->nmodes++] = *m;
}

static void add_protocol_mode(pp_cfg *cfg, const pst_protocol *p)
{
    pp_mode m = {.kind = K_PROTOCOL, .proto = p, .protocol = p->code, .recipe = p->name};
    snprintf(m.name, sizeof m.name, "%s", p->code);
    add_mode(cfg, &m);
}

/* --modes: send, ssend, isend, bsend (transport mpi), ordered protocols of the transport by code
 * (1,3, or persistent 5,3) or slug, or "ordered" for all the 1,x. */
static void parse_modes(pp_cfg *cfg)
{
    const char *transport = cfg->transport;
    char *copy = pst_strdup(cfg->modes_spec), *save = NULL;
    cfg->modes = NULL;
    cfg->nmodes = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char spec[64];
        snprintf(spec, sizeof spec, "%s", tok);
        if (strspn(tok, "0123456789") == strlen(tok)) { /* a code is two integers: consume the second */
            char *second = strtok_r(NULL, ",", &save);
            if (!second)
                pst_usage_error("--modes: '%s' is not a protocol code (codes have two numbers, e.g. 1,3)", tok);
            snprintf(spec, sizeof spec, "%s,%s", tok, second);
        }
        size_t k = 0;
        while (k < NNATIVE && strcmp(native_modes[k].name, spec)) k++;
        if (k < NNATIVE) {
            if (!two_sided(cfg)) {
                char list[512];
                ordered_list(transport, list, sizeof list);
                pst_usage_error(
                    "--modes: '%s' is an MPI send mode, measured with --transport mpi; --transport %s offers "
                    "its ordered protocols as modes: %s ('ordered': all of them)",
                    spec, transport, list);
            }
            add_mode(cfg, &native_modes[k]);
            continue;
        }
        if (!strcmp(spec, "ordered")) {
            for (size_t i = 0; i < pst_protocol_count(transport); i++)
                if (pst_protocol_at(transport, i)->cls == 1) add_protocol_mode(cfg, pst_protocol_at(transport, i));
            continue;
        }
        const pst_protocol *p = pst_protocol_find(transport, spec);
        if (!p) {
            size_t last = 0;
            for (size_t i = 0; i < pst_protocol_count(transport); i++)
                if (pst_protocol_at(transport, i)->cls == 1) last = i;
            const pst_protocol *example = pst_protocol_at(transport, last);
            pst_usage_error("--modes: unknown mode '%s' (allowed: %sordered, or an ordered protocol of transport %s by "
                            "code 1,0-%s or slug, e.g. %s)", spec, two_sided(cfg) ? "send, ssend, isend, bsend, " : "",
                            transport, example->code, example->slug);
        }
        if (!p->ordered || p->overlap)
            pst_usage_error("--modes: protocol %s (%s) is not a ping-pong: only ordered protocols 1,x (and their "
                            "persistent forms 5,x) are (side A sends first, side B answers)%s", p->code, p->slug,
                            p->ordered ? "; the overlap variant 3,x runs a single round trip exactly as 1,x"
                                       : "; unordered exchanges are measured by pstswm swap");
        add_protocol_mode(cfg, p);
    }
    free(copy);
    if (cfg->nmodes == 0) pst_usage_error("--modes: empty list");
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Sorted, without duplicates, always starting with 0 B (the zero-byte latency). */
static void normalise_sizes(pst_int_list *l)
{
    long long *v = pst_malloc((l->n + 1) * sizeof *v);
    memcpy(v, l->v, l->n * sizeof *v);
    v[l->n] = 0;
    qsort(v, l->n + 1, sizeof *v, cmp_ll);
    size_t n = 0;
    for (size_t i = 0; i <= l->n; i++)
        if (n == 0 || v[i] != v[n - 1]) v[n++] = v[i];
    pst_int_list_free(l);
    pst_int_list_set(l, n, v);
    free(v);
}

/* --threads T > 1: T streams of the MPI send modes but bsend (its attached space is one per
 * process), on the two-sided transport. */
static void validate_streams(pp_cfg *cfg, int threads, bool multiple)
{
    if (!two_sided(cfg))
        pst_usage_error(
            "--threads %d: the streams are two-sided MPI messages; --transport %s is not (use --transport mpi)",
            threads, cfg->transport);
    for (size_t i = 0; i < cfg->nmodes; i++)
        if (cfg->modes[i].kind == K_BSEND || cfg->modes[i].kind == K_PROTOCOL)
            pst_usage_error("--threads %d: mode %s cannot run as streams (allowed: send, ssend, isend)", threads,
                            cfg->modes[i].name);
    cfg->streams = (pst_streams){.n = threads, .multiple = multiple};
}

static void validate(void *p)
{
    pp_cfg *cfg = p;
    pst_ctx *c = &cfg->ctx;
    char err[512];
    pst_transport_require(cfg->transport);
    c->transport = cfg->transport;
    bool multiple = cfg->threads > 1 && pst_streams_multiple();
    int threads = pst_threads_resolve((int)cfg->threads, false, multiple, "--threads (mode multiple)");
    cfg->threads = threads;
    if (!cfg->modes_spec)
        cfg->modes_spec = !two_sided(cfg) ? "ordered" : threads > 1 ? "send,ssend,isend" : "send,ssend,isend,bsend";
    parse_modes(cfg);
    if (threads > 1) validate_streams(cfg, threads, multiple);
    if (c->size < 2)
        pst_usage_error("pingpong needs at least 2 ranks (running on 1); start it with mpiexec -n 2 or more");
    if (pst_pairing_parse(cfg->pairs_spec, c->rank, c->size, &cfg->pairing, err, sizeof err))
        pst_usage_error("%s", err);
    if (cfg->directions.n == 0) pst_parse_strings("uni", &cfg->directions, err, sizeof err);
    if (pst_str_list_has(&cfg->directions, "bi") && !two_sided(cfg))
        pst_usage_error("--direction bi: bidirectional runs use the MPI send modes of --transport mpi; the modes of "
                        "--transport %s are ordered protocols, ping-pongs by construction (simultaneous one-sided "
                        "exchanges: pstswm swap --transport %s)", cfg->transport, cfg->transport);
    if (pst_str_list_has(&cfg->directions, "bi"))
        for (size_t i = 0; i < cfg->nmodes; i++)
            if (cfg->modes[i].kind == K_PROTOCOL)
                pst_usage_error("--direction bi: mode %s is an ordered protocol (a ping-pong by construction); "
                                "bidirectional runs take send, ssend, isend, bsend", cfg->modes[i].name);
    if (cfg->loggp && (!two_sided(cfg) || !strcmp(cfg->pairs_spec, "all")))
        pst_usage_error(
            "--loggp measures one pair with MPI_Send/MPI_Recv: it needs --transport mpi and one pair (--pairs I,J)");
    if (cfg->fit_from > cfg->fit_to)
        pst_usage_error("--fit-from %lld is above --fit-to %lld", cfg->fit_from, cfg->fit_to);
    if (cfg->sizes.n == 0) {
        /* 1 B ... 4 MiB by doubling, plus 1 ... 2 MiB in steps of 128 KiB for the Frese & Knipp (1998) fit. */
        long long v[40];
        size_t n = 0;
        for (long long b = 1; b <= 4 << 20; b *= 2) v[n++] = b;
        for (long long b = (1 << 20) + (128 << 10); b < 2 << 20; b += 128 << 10) v[n++] = b;
        pst_int_list_set(&cfg->sizes, n, v);
    }
    normalise_sizes(&cfg->sizes);
    c->alloc_probe_bytes = (size_t)cfg->sizes.v[cfg->sizes.n - 1];

    int color = cfg->pairing.partner >= 0 ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, c->rank, &cfg->active);
    MPI_Comm_dup(MPI_COMM_WORLD, &cfg->comm);
    pst_rounds_setup(&cfg->rounds, c, cfg->reps, cfg->directions.n * cfg->sizes.n);
}

/* The transport's area and buffers for the largest size, and buffered-send space when a bsend
 * mode runs. */
static void setup_buffers(pp_cfg *cfg)
{
    size_t max = (size_t)cfg->sizes.v[cfg->sizes.n - 1];
    /* Collective, idle ranks included; one transfer in flight per rank. */
    pst_transport_setup(cfg->transport, cfg->comm, max, 1);
    cfg->win_model = pst_transport_memory_model(cfg->transport, cfg->comm);
    if (cfg->pairing.partner < 0) return;
    if (cfg->streams.n > 1) pst_streams_alloc(&cfg->streams, cfg->streams.n, cfg->streams.multiple, max);
    cfg->sbuf = pst_buffer_alloc(max);
    cfg->rbuf = pst_buffer_alloc(max);
    for (size_t i = 0; i < cfg->nmodes; i++) {
        if (cfg->modes[i].kind != K_BSEND) continue;
        /* Two messages: a bidirectional peer may send again before our last one is delivered. */
        size_t space = 2 * (max + MPI_BSEND_OVERHEAD + 64);
        cfg->bsend_space = pst_buffer_alloc(space);
        MPI_Buffer_attach(cfg->bsend_space, (int)space);
        break;
    }
}

static void teardown(pp_cfg *cfg)
{
    if (cfg->bsend_space) {
        void *p;
        int size;
        MPI_Buffer_detach(&p, &size);
        free(cfg->bsend_space);
    }
    if (cfg->streams.sbuf) pst_streams_free(&cfg->streams);
    free(cfg->sbuf);
    free(cfg->rbuf);
    free(cfg->modes);
    if (cfg->active != MPI_COMM_NULL) MPI_Comm_free(&cfg->active);
    pst_transport_release(cfg->transport, cfg->comm);
    MPI_Comm_free(&cfg->comm);
}

/* Buffers, points and rounds for every direction, outside every timing. */
static void plan(void *p)
{
    pp_cfg *cfg = p;
    setup_buffers(cfg);
    size_t nsizes = cfg->sizes.n, nm = cfg->nmodes;
    pp_direction *d = pst_calloc(1, sizeof *d);
    d->pts = pst_malloc(nm * sizeof *d->pts);
    for (size_t mi = 0; mi < nm; mi++) {
        d->pts[mi] = pst_calloc(nsizes, sizeof **d->pts);
        for (size_t i = 0; i < nsizes; i++)
            d->pts[mi][i].pair_tmin = pst_calloc((size_t)cfg->pairing.npairs, sizeof *d->pts[mi][i].pair_tmin);
    }
    d->R = pst_calloc(nsizes, sizeof *d->R);
    cfg->now = d;
}

static size_t directions(const void *p) { return ((const pp_cfg *)p)->directions.n; }

static void release(void *p)
{
    pp_cfg *cfg = p;
    pp_direction *d = cfg->now;
    for (size_t mi = 0; mi < cfg->nmodes; mi++) {
        for (size_t i = 0; i < cfg->sizes.n; i++) {
            free(d->pts[mi][i].samples);
            free(d->pts[mi][i].pair_tmin);
        }
        free(d->pts[mi]);
    }
    free(d->pts);
    free(d->R);
    free(d);
    teardown(cfg);
}

static const char *const directions_allowed[] = {"uni", "bi", NULL};
static const pp_cfg default_cfg = {.pairs_spec = "0,1",
                                   .transport = "mpi",
                                   .reps = 20,
                                   .warmup = 10,
                                   .fit_from = 1 << 20,
                                   .fit_to = 2 << 20,
                                   .loggp_n = 16,
                                   .rounds = PST_ROUNDS_DEFAULTS};
static pp_cfg run_cfg;
static const pst_opt opts[] = {
    {"modes", PST_OPT_STRING, &run_cfg.modes_spec, "LIST",
     "send, ssend, isend, bsend (transport mpi), ordered protocols of the transport by code or slug "
     "(1,3 / ordered.isend-irecv), ordered = all of them",
     1, 0, NULL, "send,ssend,isend,bsend; one-sided transports: ordered"},
    {"sizes", PST_OPT_SIZES, &run_cfg.sizes, "LIST",
     "message sizes in bytes, e.g. 8,1K,1M or 1:4M (doubling); 0 B is always added", 0, MAX_BYTES, NULL,
     "1:4M,1M:2M:+128K"},
    {"direction", PST_OPT_STRINGS, &run_cfg.directions, "LIST", "uni (ping-pong) and/or bi (both sides send at once)",
     1, 0, directions_allowed, "uni"},
    {"pairs", PST_OPT_STRING, &run_cfg.pairs_spec, "I,J|all",
     "the pair I,J or all: rank i with i+P/2, all pairs at once", 1, 0, NULL, NULL},
    {"reps", PST_OPT_INT, &run_cfg.reps, "N",
     "timed rounds (one loop per mode each) per size; the minimum with --adaptive", 1, 1e6, NULL, NULL},
    {"iters", PST_OPT_INT, &run_cfg.iters, "N",
     "round trips per sample; 0 = auto: about 2 ms per sample, from the second half of the warm-up", 0, 1e9, NULL,
     NULL},
    {"warmup", PST_OPT_INT, &run_cfg.warmup, "N",
     "untimed round trips before a mode's first loop at a size; later turns "
     "re-warm with one; auto --iters uses at least 2",
     0, 1e6, NULL, NULL},
    {"fit-from", PST_OPT_SIZE, &run_cfg.fit_from, "BYTES", "lower end of the linear-fit window", 0, MAX_BYTES, NULL,
     NULL},
    {"fit-to", PST_OPT_SIZE, &run_cfg.fit_to, "BYTES", "upper end of the linear-fit window", 0, MAX_BYTES, NULL, NULL},
    PST_TRANSPORT_OPT(&run_cfg.transport, "; one-sided transports run their ordered protocols"),
    PST_SAMPLES_OPT(&run_cfg.samples, "sample"),
    {"loggp", PST_OPT_FLAG, &run_cfg.loggp, NULL,
     "also measure the LogGP parameters L, o_s, o_r, g, G over the sizes (PRTT method, MPI_Send/MPI_Recv)", 1, 0, NULL,
     NULL},
    {"loggp-n", PST_OPT_INT, &run_cfg.loggp_n, "N", "messages per parametrised round trip of --loggp", 2, 1e6, NULL,
     NULL},
    PST_ROUNDS_SCHEDULE_OPTS(&run_cfg.rounds),
    PST_THREADS_OPT(&run_cfg.threads,
                    ": each its own stream (tag = thread) between the pair, modes send, ssend, isend; "
                    "every thread calls MPI (MPI_THREAD_MULTIPLE), or with --thread-level funneled the master drives "
                    "all streams; OMP_NUM_THREADS is not read"),
    PST_COMMON_OPTS(&run_cfg.ctx),
    {0},
};
static const pst_command command = {
    .name = "pingpong",
    .summary = "Ping-pong latency and bandwidth against message size for the MPI send modes and the ordered\n"
               "protocols of a transport (Frese & Knipp 1998): zero-byte latency, peak bandwidth and the fit T(N) = "
               "t_l + N*t_s\n"
               "over large messages.",
    .description =
        "uni: t = half round trip = (time of a loop of round trips on side A) / (2 * round trips).\n"
        "bi: both sides post the receive, send and wait; t = time per exchange (the slower side).\n"
        "A sample is one timed loop; the modes of one size run in interleaved rounds (--schedule), and\n"
        "t_min/t_med/t_mean/t_max are over the rounds.  With --pairs all, a\n"
        "sample is the slowest pair's; 'aggr MB/s' = pairs * directions * bytes / t_min.  MB = 10^6 bytes.\n"
        "The fit uses each size's t_min inside [--fit-from, --fit-to] (ordinary least squares); residuals are\n"
        "observed - model.  Payloads are written before and checked after every loop, never inside it.\n"
        "--threads T > 1: T streams per pair, stream s on tag s with its own buffers and payloads; t = time\n"
        "per message (the streams' wall time / T), as OSU's multithreaded latency test in mode multiple.",
    .examples =
        "  mpiexec -n 2 pstswm pingpong --out pp.jsonl\n"
        "  mpiexec -n 2 pstswm pingpong --modes send,1,3,ordered.rsend --sizes 0:64K --direction uni,bi\n"
        "  mpiexec -n 8 pstswm pingpong --pairs all --modes send --sizes 8,64K,1M,4M\n"
        "  mpiexec -n 2 pstswm pingpong --transport rma --sizes 8,1M          # ordered.put ... ordered.get-nb\n"
        "  mpiexec -n 2 pstswm pingpong --threads 4 --modes send --sizes 8,64K --thread-level funneled",
    .opts = opts,
};
static const pst_schema footer = PST_FOOTER_SCHEMA("pingpong");
static const pst_schema *const schemas[] = {&pst_schema_pingpong_header, &pst_schema_pingpong_point,
                                            &pst_schema_pingpong_latbw, &pst_schema_pingpong_modes,
                                            &pst_schema_pingpong_loggp, &footer, NULL};

const pst_subcommand pst_subcommand_pingpong = {
    .name = "pingpong",
    .summary = "ping-pong latency/bandwidth vs message size, send modes, large-message fit",
    .command = &command,
    PST_SUBCOMMAND_OPTIONS(run_cfg, default_cfg),
    .schemas = schemas,
    .validate = validate,
    .plan = plan,
    .nsets = directions,
    .measure = pst_pingpong_measure_direction,
    .analyse = pst_pingpong_analyse_direction,
    .print = pst_pingpong_print_direction,
    .emit = pst_pingpong_emit_direction,
    .analysis_free = pst_pingpong_free_direction_analysis,
    .set_free = pst_pingpong_free_direction,
    .finish = pst_pingpong_measure_loggp,
    .release = release,
};
