/* Binary-exchange distributed FFT (see dfft.h).  Local FFTs are FFTW; the cross-rank
 * butterflies and the real-data split are ours. */
#include "algo/dfft.h"

#include "algo/exchange.h"
#include "algo/partition.h"
#include "core/alloc.h"
#include "core/errors.h"

#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FWD = 0, BWD = 1 };
static const double two_pi = 6.283185307179586476925286766559;

struct pst_dfft {
    const pst_protocol *p;
    bool overlapped;
    MPI_Comm comm;
    int rank, size, k, n, nl, lines, mmax, nm;
    int rev;                 /* bitrev_k(rank) */
    int conj_rank;           /* holds Z_(N-f) for our f */
    double complex **tw;     /* tw[t][j]: w^(global index mod h) of stage t */
    fftw_plan plan[2][2];    /* [complex lines | real-line pairs][FWD | BWD] */
    double complex *recv, *work, *spec;
    pst_xfer_set *xfers;     /* persistent protocols' prepared transfers */
};

static int bitrev(int x, int bits)
{
    int r = 0;
    for (int b = 0; b < bits; b++) r |= ((x >> b) & 1) << (bits - 1 - b);
    return r;
}

const char *pst_dfft_check(int nranks, int n, int mmax)
{
    static char msg[160];
    if (!pst_is_pow2(nranks)) snprintf(msg, sizeof msg, "dfft needs a power-of-two number of ranks (got %d)", nranks);
    else if (n < nranks || n % nranks)
        snprintf(msg, sizeof msg, "dfft: line length %d is not a multiple of %d ranks", n, nranks);
    else if (mmax >= n / 2) snprintf(msg, sizeof msg, "dfft: mmax %d must be below N/2 = %d", mmax, n / 2);
    else return NULL;
    return msg;
}

/* Coefficients m <= mmax held by the rank whose bit-reversed number is rev. */
static int owned_count(const pst_dfft *f, int rev)
{
    int nm = 0;
    while (nm < f->nl && rev + (long)f->size * nm <= f->mmax) nm++;
    return nm;
}

/* The local transforms: count lines of length nl in f->work (in place, executed on other
 * arrays, hence FFTW_UNALIGNED); [complex lines | real-line pairs][FWD | BWD]. */
typedef struct local_plan {
    const pst_dfft *f;
    int count, sign;
} local_plan;

static fftw_plan make_local(void *arg, unsigned flags)
{
    const local_plan *l = arg;
    int len[1] = {l->f->nl};
    fftw_complex *buf = (fftw_complex *)l->f->work;
    return fftw_plan_many_dft(1, len, l->count, buf, NULL, 1, l->f->nl, buf, NULL, 1, l->f->nl, l->sign,
                              flags | FFTW_UNALIGNED);
}

typedef struct local_plans {
    pst_dfft *f;
    pst_fft_planner *planner;
} local_plans;

static void plan_local(void *arg)
{
    local_plans *lp = arg;
    pst_dfft *f = lp->f;
    const int counts[2] = {f->lines, (f->lines + 1) / 2}, signs[2] = {FFTW_FORWARD, FFTW_BACKWARD};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            /* never executed with no lines; FFTW wants a real plan */
            local_plan l = {.f = f, .count = counts[a] < 1 ? 1 : counts[a], .sign = signs[b]};
            char what[96];
            snprintf(what, sizeof what, "%d transforms of length %d", l.count, f->nl);
            f->plan[a][b] = pst_fft_plan(lp->planner, PST_FFT_TIMED, make_local, &l, what);
        }
}

pst_dfft *pst_dfft_create(const pst_protocol *p, bool overlap, MPI_Comm comm, int n, int lines, int mmax,
                          pst_fft_planner *planner)
{
    pst_dfft *f = pst_calloc(1, sizeof *f);
    f->xfers = pst_xfer_set_new();
    MPI_Comm_rank(comm, &f->rank);
    MPI_Comm_size(comm, &f->size);
    const char *why = pst_dfft_check(f->size, n, mmax);
    if (why) pst_fatal(PST_EXIT_FAILED, "%s", why);
    if (!p) pst_fatal(PST_EXIT_FAILED, "dfft needs a protocol");
    f->p = p;
    f->overlapped = pst_overlapped(p, overlap);
    f->comm = comm;
    f->n = n;
    f->lines = lines;
    f->mmax = mmax;
    pst_pow2_floor(f->size, &f->k);
    f->nl = n / f->size;
    f->rev = bitrev(f->rank, f->k);
    f->conj_rank = bitrev((f->size - f->rev) % f->size, f->k);
    f->nm = owned_count(f, f->rev);

    f->tw = pst_calloc((size_t)(f->k ? f->k : 1), sizeof *f->tw);
    for (int t = 0; t < f->k; t++) {
        long h = n >> (t + 1);
        f->tw[t] = pst_malloc((size_t)f->nl * sizeof **f->tw);
        for (int j = 0; j < f->nl; j++) {
            long g = (long)f->rank * f->nl + j;
            double angle = -two_pi * (double)(g % h) / (double)(2 * h);
            f->tw[t][j] = cos(angle) + I * sin(angle);
        }
    }
    size_t block = (size_t)(lines > 0 ? lines : 1) * (size_t)f->nl;
    f->recv = pst_alloc_check(fftw_malloc(block * sizeof *f->recv), block * sizeof *f->recv);
    f->work = pst_alloc_check(fftw_malloc(block * sizeof *f->work), block * sizeof *f->work);
    f->spec = pst_alloc_check(fftw_malloc(2 * block * sizeof *f->spec), 2 * block * sizeof *f->spec);
    pst_fft_plan_agreed(comm, plan_local, &(local_plans){.f = f, .planner = planner});
    pst_exchange_reserve_run(p, comm, block * sizeof(double complex), (size_t)f->k + 1); /* stages + conjugate SWAP */
    return f;
}

/* One butterfly stage on elements [off, off + bytes) once the partner's copy has arrived. */
typedef struct stage_run {
    pst_dfft *f;
    double complex *data;
    const double complex *tw;
    bool upper;
    int dir;
} stage_run;

static void butterflies(void *arg, size_t off, size_t bytes)
{
    stage_run *s = arg;
    const pst_dfft *f = s->f;
    size_t first = off / sizeof(double complex), last = (off + bytes) / sizeof(double complex);
    double complex *x = s->data;
    const double complex *y = f->recv;
    for (size_t e = first; e < last; e++) {
        double complex w = s->tw[e % (size_t)f->nl];
        if (s->dir == FWD) x[e] = s->upper ? (y[e] - x[e]) * w : x[e] + y[e];   /* a + b | (a - b) w */
        else x[e] = s->upper ? y[e] - x[e] * conj(w) : x[e] + y[e] * conj(w);    /* a' + b' w* | a' - b' w* */
    }
}

static void stage(pst_dfft *f, double complex *data, int count, int t, int dir)
{
    int partner = f->rank ^ (f->size >> (t + 1));
    size_t bytes = (size_t)count * (size_t)f->nl * sizeof(double complex);
    stage_run s = {.f = f, .data = data, .tw = f->tw[t], .upper = f->rank > partner, .dir = dir};
    pst_exchange_ops ops = {.arrived = butterflies, .arg = &s};
    pst_exchange(f->xfers, f->p, f->overlapped, f->comm, partner, partner, f->rank < partner ? PST_SIDE_A : PST_SIDE_B,
                 data, bytes, f->recv, bytes, t * PST_MAX_CHUNKS, pst_exchange_chunks(f->overlapped, bytes), &ops);
}

static void forward(pst_dfft *f, double complex *data, int count, fftw_plan plan)
{
    for (int t = 0; t < f->k; t++) stage(f, data, count, t, FWD);
    if (count > 0) fftw_execute_dft(plan, (fftw_complex *)data, (fftw_complex *)data);
}

static void backward(pst_dfft *f, double complex *data, int count, fftw_plan plan)
{
    if (count > 0) fftw_execute_dft(plan, (fftw_complex *)data, (fftw_complex *)data);
    for (int t = f->k - 1; t >= 0; t--) stage(f, data, count, t, BWD);
}

void pst_dfft_forward(pst_dfft *f, double complex *data) { forward(f, data, f->lines, f->plan[0][FWD]); }
void pst_dfft_backward(pst_dfft *f, double complex *data) { backward(f, data, f->lines, f->plan[0][BWD]); }
int pst_dfft_local_n(const pst_dfft *f) { return f->nl; }
long pst_dfft_freq(const pst_dfft *f, int j) { return f->rev + (long)f->size * j; }
int pst_dfft_nm(const pst_dfft *f) { return f->nm; }
int pst_dfft_m(const pst_dfft *f, int i) { return f->rev + f->size * i; }

/* Local index, on the rank whose bit-reversed number is conj(rev), of frequency N - f(j) (mod N)
 * where f(j) = rev + P j; the relation is symmetric between the two ranks. */
static int conj_index(const pst_dfft *f, int rev, int j)
{
    if (rev != 0) return f->nl - 1 - j;
    return j == 0 ? 0 : f->nl - j;
}


/* SWAP `bytes_out` of `mine` for `bytes_in` of the conjugate rank's into `theirs`. */
static const double complex *conj_exchange(pst_dfft *f, const double complex *mine, size_t bytes_out,
                                           double complex *theirs, size_t bytes_in)
{
    if (f->conj_rank == f->rank) return mine;
    pst_exchange_ops ops = {0};
    size_t big = bytes_out > bytes_in ? bytes_out : bytes_in;
    pst_exchange(f->xfers, f->p, f->overlapped, f->comm, f->conj_rank, f->conj_rank,
                 f->rank < f->conj_rank ? PST_SIDE_A : PST_SIDE_B, mine, bytes_out, theirs, bytes_in,
                 (f->k + 1) * PST_MAX_CHUNKS, pst_exchange_chunks(f->overlapped, big), &ops);
    return theirs;
}

void pst_dfft_r2c(pst_dfft *f, const double *in, double complex *out)
{
    int pairs = (f->lines + 1) / 2, nl = f->nl;
    double complex *z = f->work;
    for (int q = 0; q < pairs; q++)
        for (int j = 0; j < nl; j++) {
            double x = in[(size_t)(2 * q) * nl + j], y = 2 * q + 1 < f->lines ? in[(size_t)(2 * q + 1) * nl + j] : 0.0;
            z[(size_t)q * nl + j] = x + I * y;
        }
    forward(f, z, pairs, f->plan[1][FWD]);
    /* Separating the real lines needs Z at N - m for each kept m.  Truncation: the conjugate
     * rank is sent only the entries its kept coefficients need (their_nm of nl per line), not
     * the whole block, and we receive only ours. */
    const double complex *zc = z;
    size_t zc_stride = (size_t)nl;
    if (f->conj_rank != f->rank) {
        int their_rev = (f->size - f->rev) % f->size, their_nm = owned_count(f, their_rev);
        double complex *give = f->spec;
        for (int q = 0; q < pairs; q++)
            for (int i = 0; i < their_nm; i++)
                give[(size_t)q * their_nm + i] = z[(size_t)q * nl + conj_index(f, their_rev, i)];
        zc = conj_exchange(f, give, (size_t)pairs * their_nm * sizeof(double complex), f->recv,
                           (size_t)pairs * f->nm * sizeof(double complex));
        zc_stride = (size_t)f->nm;
    }
    for (int q = 0; q < pairs; q++)
        for (int i = 0; i < f->nm; i++) {
            size_t at = f->conj_rank != f->rank ? (size_t)i : (size_t)conj_index(f, f->rev, i);
            double complex a = z[(size_t)q * nl + i], b = conj(zc[(size_t)q * zc_stride + at]);
            out[(size_t)(2 * q) * f->nm + i] = 0.5 * (a + b);
            if (2 * q + 1 < f->lines) out[(size_t)(2 * q + 1) * f->nm + i] = -0.5 * I * (a - b);
        }
}

void pst_dfft_c2r(pst_dfft *f, const double complex *in, double *out)
{
    int pairs = (f->lines + 1) / 2, nl = f->nl, nm = f->nm;
    /* Line pairs as Z = X + iY at our m, and conj(X) + i conj(Y), which is Z at N - m: the
     * part the conjugate rank needs for its frequencies above N/2. */
    double complex *mine = f->spec, *give = f->spec + (size_t)pairs * nm, *z = f->work;
    for (int q = 0; q < pairs; q++)
        for (int i = 0; i < nm; i++) {
            double complex x = in[(size_t)(2 * q) * nm + i],
                           y = 2 * q + 1 < f->lines ? in[(size_t)(2 * q + 1) * nm + i] : 0.0;
            if (pst_dfft_m(f, i) == 0) { x = creal(x); y = creal(y); }
            mine[(size_t)q * nm + i] = x + I * y;
            give[(size_t)q * nm + i] = conj(x) + I * conj(y);
        }
    int their_rev = (f->size - f->rev) % f->size, their_nm = owned_count(f, their_rev);
    const double complex *theirs = conj_exchange(f, give, (size_t)pairs * nm * sizeof(double complex), f->recv,
                                                 (size_t)pairs * their_nm * sizeof(double complex));
    for (int q = 0; q < pairs; q++)
        for (int j = 0; j < nl; j++) {
            long freq = pst_dfft_freq(f, j);
            double complex v = 0;
            if (freq <= f->mmax) v = mine[(size_t)q * nm + j];
            else if (f->n - freq <= f->mmax) v = theirs[(size_t)q * their_nm + conj_index(f, f->rev, j)];
            z[(size_t)q * nl + j] = v;
        }
    backward(f, z, pairs, f->plan[1][BWD]);
    for (int q = 0; q < pairs; q++)
        for (int j = 0; j < nl; j++) {
            out[(size_t)(2 * q) * nl + j] = creal(z[(size_t)q * nl + j]);
            if (2 * q + 1 < f->lines) out[(size_t)(2 * q + 1) * nl + j] = cimag(z[(size_t)q * nl + j]);
        }
}

void pst_dfft_free(pst_dfft *f)
{
    if (!f) return;
    for (int t = 0; t < f->k; t++) free(f->tw[t]);
    free(f->tw);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) fftw_destroy_plan(f->plan[a][b]);
    fftw_free(f->recv);
    fftw_free(f->work);
    fftw_free(f->spec);
    pst_xfer_set_free(f->xfers);
    free(f);
}
