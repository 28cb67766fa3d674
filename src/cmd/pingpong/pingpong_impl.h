/* What the parts of `pstswm pingpong` share (pingpong.c: options, modes, validation, buffers,
 * the row; pingpong_measure.c: the timed loops in rounds and --loggp, every rank;
 * pingpong_report.c: the fits, verdicts, tables and records, rank 0).  Not for other commands. */
#ifndef PST_PINGPONG_IMPL_H
#define PST_PINGPONG_IMPL_H

#include "cmd/common/pairing.h"
#include "cmd/common/streams.h"
#include "comm/protocol.h"
#include "core/cli.h"
#include "runtime/rounds.h"
#include "runtime/context.h"
#include "stats/stats.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

/* Bsend needs room for two messages in flight: 2·(MAX_BYTES + overhead) must fit in an int. */
enum { MAX_BYTES = 1 << 29, TAG = 7 };

typedef enum send_kind {
    K_SEND = PST_KIND_SEND,
    K_SSEND = PST_KIND_SSEND,
    K_ISEND = PST_KIND_ISEND,
    K_BSEND = PST_KIND_BSEND,
    K_PROTOCOL
} send_kind;

typedef struct pp_mode {
    char name[48];             /* record field `mode`: send, ssend, isend, bsend or a protocol code */
    send_kind kind;
    const pst_protocol *proto; /* K_PROTOCOL: the ordered catalogue protocol */
    const char *protocol;      /* catalogue code with the same message pattern, or NULL */
    const char *recipe;
} pp_mode;

typedef struct pp_cfg {
    pst_ctx ctx;
    const char *modes_spec, *pairs_spec, *transport;
    pst_int_list sizes;
    pst_str_list directions;
    long long reps, warmup, iters, fit_from, fit_to, loggp_n, threads;
    bool samples, loggp;
    pst_rounds_opts rounds;
    /* derived */
    pp_mode *modes;
    size_t nmodes;
    pst_pairing pairing;
    MPI_Comm comm;   /* duplicate of MPI_COMM_WORLD for the measured traffic */
    MPI_Comm active; /* the ranks in a pair (barriers, agreement on iteration counts) */
    unsigned char *sbuf, *rbuf;
    void *bsend_space;
    const char *win_model; /* memory model of a one-sided transport's window, NULL if none */
    pst_streams streams;      /* --threads T > 1: T streams between the pair, n = 0 otherwise */
    struct pp_direction *now; /* the set being measured: one direction at every size */
    long long point_id;       /* of the next (direction, size) measured */
} pp_cfg;

typedef struct pp_point {
    pst_summary t;      /* seconds: half round trip (uni) or time per exchange (bi); slowest pair */
    double *samples;    /* [rounds] per-round value of the slowest pair */
    size_t nsamples;
    double ci[2];       /* the median's interval */
    bool precise;
    double *pair_tmin;  /* [npairs] each pair's min over rounds */
    long long iters;
} pp_point;

/* One direction at every size: each mode's points and every size's rounds. */
typedef struct pp_direction {
    bool bidir;
    pp_point **pts;          /* [mode][size] */
    pst_rounds *R;           /* [size] */
} pp_direction;

/* The frame's phases of one direction: measured on every rank (pingpong_measure.c), analysed and
 * reported by rank 0 (pingpong_report.c); after the directions, --loggp (pingpong_measure.c). */
void *pst_pingpong_measure_direction(void *cfg, size_t set);
void pst_pingpong_free_direction(void *cfg, void *direction);
void *pst_pingpong_analyse_direction(const void *cfg, const void *direction);
void pst_pingpong_print_direction(const void *cfg, const void *direction, const void *analysis);
void pst_pingpong_emit_direction(void *cfg, const void *direction, const void *analysis);
void pst_pingpong_free_direction_analysis(const void *cfg, void *analysis);
void pst_pingpong_measure_loggp(void *cfg);

#endif
