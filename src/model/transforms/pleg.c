#include "model/transforms/pleg.h"

#include "algo/exchange.h"
#include "algo/partition.h"
#include "algo/transpose.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <stdlib.h>
#include <string.h>

struct pst_pleg {
    int Q, me;
    size_t width, pairs_all;
    size_t *pair_lo, *pair_n, *own_lo, *own_n;   /* per rank of the column, in pairs / wavenumbers */
    double *stage;          /* to_spectral's receive (to_fourier's send) layout: [q][own_n[me]][pair_n[q]][width] */
    double *whole_cur;      /* the hooks' [own][all pairs][width] array of the current call */
    const double *whole_src;
    pst_trans *fwd, *inv;
    pst_vsum *sum;
    pst_vsum *gather;       /* the partitioned update's: the state's blocks to every rank (NULL: none) */
    int sum_doubles;
    size_t unit;
    MPI_Request in_flight;  /* the level pipeline's sum (MPI_REQUEST_NULL: none) */
    size_t send_bytes;                           /* in one forward plus one inverse transform */
    const pst_protocol *protocol;
    MPI_Comm col;
    pst_event_table *events;
    int comm_event;         /* "legendre_comm" in events */
    int wait_event;         /* "legendre_wait" (sync_wait), else -1 */
};

static size_t block_doubles(const pst_pleg *l, int q) { return l->own_n[l->me] * l->pair_n[q] * l->width; }
static size_t stage_offset(const pst_pleg *l, int q) { return l->own_n[l->me] * l->pair_lo[q] * l->width; }

/* After q's latitude pairs of my wavenumbers arrive: place them among all pairs. */
static void unpack(void *arg, int q)
{
    pst_pleg *l = arg;
    const double *src = l->stage + stage_offset(l, q);
    size_t row = l->pair_n[q] * l->width;
    for (size_t i = 0; i < l->own_n[l->me]; i++)
        memcpy(l->whole_cur + (i * l->pairs_all + l->pair_lo[q]) * l->width, src + i * row, row * sizeof *src);
}

/* Before q gets back its latitude pairs of my wavenumbers. */
static void pack(void *arg, int q)
{
    pst_pleg *l = arg;
    double *dst = l->stage + stage_offset(l, q);
    size_t row = l->pair_n[q] * l->width;
    for (size_t i = 0; i < l->own_n[l->me]; i++)
        memcpy(dst + i * row, l->whole_src + (i * l->pairs_all + l->pair_lo[q]) * l->width, row * sizeof *dst);
}

static int bytes_of(size_t doubles)
{
    if (doubles * sizeof(double) > (size_t)0x7fffffff)
        pst_fatal(PST_EXIT_FAILED, "Legendre transpose block of %zu doubles exceeds MPI's int counts", doubles);
    return (int)(doubles * sizeof(double));
}

/* Buffered sends (0,0) keep a message's space until MPI reclaims it after delivery, which can
 * lag a whole substep behind: the stage holds room for twice its traffic while it lives, beside
 * the other stages' (pst_exchange_hold). */
static void hold_space(const pst_pleg *l, long messages)
{
    pst_exchange_hold(l->protocol, l->col, l->send_bytes, messages);
}

pst_pleg *pst_pleg_create(const pst_par *par, size_t width, size_t sum_doubles, size_t unit, size_t gather_unit,
                          pst_event_table *events)
{
    pst_pleg *l = pst_calloc(1, sizeof *l);
    l->events = events;
    l->comm_event = pst_event_register(events, "legendre_comm");
    l->wait_event = par->cfg.sync_wait ? pst_event_register(events, "legendre_wait") : -1;
    l->protocol = par->cfg.leg_protocol;
    l->col = par->col;
    l->Q = par->cfg.PY;
    l->me = par->py;
    l->width = width;
    l->sum_doubles = (int)sum_doubles;
    l->unit = unit;
    l->in_flight = MPI_REQUEST_NULL;
    const pst_algorithm *alg = par->cfg.legendre;
    if (!pst_par_leg_is_transpose(alg)) {
        l->sum = pst_vsum_create(alg, par->cfg.leg_protocol, par->cfg.leg_overlap, par->col, sum_doubles, unit,
                                 gather_unit ? PST_VSUM_PARTITIONED : PST_VSUM_REPLICATED);
        const size_t gather_doubles = gather_unit ? sum_doubles / unit * gather_unit : 0;
        if (gather_unit)
            l->gather = pst_vsum_create(alg, par->cfg.leg_protocol, par->cfg.leg_overlap, par->col, gather_doubles,
                                        gather_unit, PST_VSUM_REPLICATED);
        int log2q;
        pst_pow2_floor(l->Q, &log2q);
        /* the most any algorithm sends, and the gather's whole vector */
        l->send_bytes = (((size_t)log2q + 4) * sum_doubles + gather_doubles) * sizeof(double);
        hold_space(l, 2);
        return l;
    }
    const int Q = l->Q;
    l->pair_lo = pst_calloc((size_t)Q * 4, sizeof *l->pair_lo);
    l->pair_n = l->pair_lo + Q;
    l->own_lo = l->pair_n + Q;
    l->own_n = l->own_lo + Q;
    const size_t pairs_all = par->pairs_all;
    for (int q = 0; q < Q; q++) {
        /* The partitions of pst_par: every row has the column's wavenumber list. */
        pst_block((size_t)par->nmx, Q, q, &l->own_lo[q], &l->own_n[q]);
        pst_block(pairs_all, Q, q, &l->pair_lo[q], &l->pair_n[q]);
    }
    l->pairs_all = pairs_all;
    l->stage = pst_calloc((size_t)l->own_n[l->me] * pairs_all * width + 1, sizeof *l->stage);
    int *sc = pst_calloc((size_t)Q * 4, sizeof *sc), *sd = sc + Q, *rc = sd + Q, *rd = rc + Q;
    for (int q = 0; q < Q; q++) {
        sc[q] = bytes_of(l->own_n[q] * par->npairs * width);
        sd[q] = bytes_of(l->own_lo[q] * par->npairs * width);
        rc[q] = bytes_of(block_doubles(l, q));
        rd[q] = bytes_of(stage_offset(l, q));
    }
    l->fwd = pst_trans_create(alg, par->cfg.leg_protocol, par->cfg.leg_overlap, par->col, sc, sd, rc, rd);
    l->inv = pst_trans_create_inverse(l->fwd);
    l->send_bytes = 2 * (size_t)par->nmx * par->npairs * width * sizeof(double);
    free(sc);
    hold_space(l, 2);
    return l;
}

void pst_pleg_to_spectral(pst_pleg *l, const double *local, double *whole)
{
    double since_s;
    pst_par_comm_begin(l->events, l->wait_event, l->col, &since_s);
    l->whole_cur = whole;
    pst_trans_run(l->fwd, local, l->stage, &(pst_trans_hooks){.unpack = unpack, .arg = l});
    pst_event_end(l->events, l->comm_event, &since_s);
}

void pst_pleg_to_fourier(pst_pleg *l, const double *whole, double *local)
{
    double since_s;
    pst_par_comm_begin(l->events, l->wait_event, l->col, &since_s);
    l->whole_src = whole;
    pst_trans_run(l->inv, l->stage, local, &(pst_trans_hooks){.pack = pack, .arg = l});
    pst_event_end(l->events, l->comm_event, &since_s);
}

void pst_pleg_sum(pst_pleg *l, pst_vsum_compute_fn compute, void *arg, double *sums)
{
    double since_s;
    pst_par_comm_begin(l->events, l->wait_event, l->col, &since_s);
    if (compute) pst_vsum_run_compute(l->sum, compute, arg, sums);
    else pst_vsum_run(l->sum, sums, sums);
    pst_event_end(l->events, l->comm_event, &since_s);
}

void pst_pleg_owned(const pst_pleg *l, size_t *c0, size_t *c1)
{
    size_t lo, count;
    pst_vsum_block(l->sum_doubles, l->unit, l->Q, l->me, &lo, &count);
    *c0 = lo / l->unit;
    *c1 = (lo + count) / l->unit;
}

void pst_pleg_gather(pst_pleg *l, double *state)
{
    double since_s;
    pst_par_comm_begin(l->events, l->wait_event, l->col, &since_s);
    pst_vsum_gather(l->gather, state);
    pst_event_end(l->events, l->comm_event, &since_s);
}

/* A row whose sum has a nonblocking twin to split says so in the registry (splits_as_iallreduce). */
bool pst_pleg_sum_splits(const pst_algorithm *alg)
{
#if defined(PST_HAVE_MPI_NBC)
    return alg->splits_as_iallreduce;
#else
    (void)alg;
    return false;
#endif
}

void pst_pleg_sum_start(pst_pleg *l, double *sums)
{
    double since_s;
    pst_event_begin(&since_s);
    if (l->in_flight != MPI_REQUEST_NULL)
        pst_fatal(PST_EXIT_FAILED, "level pipeline: a Legendre sum is already in flight");
#if defined(PST_HAVE_MPI_NBC)
    PST_MPI_CHECK(MPI_Iallreduce(MPI_IN_PLACE, sums, l->sum_doubles, MPI_DOUBLE, MPI_SUM, l->col, &l->in_flight));
#else
    (void)sums;
    pst_fatal(PST_EXIT_FAILED, "level pipeline: this MPI library has no nonblocking collectives");
#endif
    pst_event_end(l->events, l->comm_event, &since_s);
}

void pst_pleg_sum_progress(pst_pleg *l)
{
    if (l->in_flight == MPI_REQUEST_NULL) return;
    double since_s;
    pst_event_begin(&since_s);
    int done;
    PST_MPI_CHECK(MPI_Test(&l->in_flight, &done, MPI_STATUS_IGNORE));
    pst_event_end(l->events, l->comm_event, &since_s);
}

void pst_pleg_sum_finish(pst_pleg *l)
{
    double since_s;
    pst_event_begin(&since_s);
    PST_MPI_CHECK(MPI_Wait(&l->in_flight, MPI_STATUS_IGNORE));
    pst_event_end(l->events, l->comm_event, &since_s);
}

void pst_pleg_free(pst_pleg *l)
{
    if (!l) return;
    hold_space(l, -2);
    if (l->sum) pst_vsum_free(l->sum);
    if (l->gather) pst_vsum_free(l->gather);
    if (l->fwd) {
        pst_trans_free(l->fwd);
        pst_trans_free(l->inv);
    }
    free(l->pair_lo);
    free(l->stage);
    free(l);
}
