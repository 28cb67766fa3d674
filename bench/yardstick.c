/* Yardsticks for the model's compute stages, measured by the libraries alone on one core:
 *
 *   pst_yardstick dgemm [--n N] [--reps R] [--threads T]
 *       single-threaded OpenBLAS DGEMM of N x N matrices (C = A B), GFlop/s = 2 N³ / time; with T
 *       threads, T copies at once, one per OpenMP thread on matrices of its own, every repetition
 *       started together (a barrier) and timed by its slowest copy: the rate each core keeps
 *       while every core works (bench/node-ceiling.sh);
 *   pst_yardstick legendre --trunc M [--columns 10,20,40,80,160] [--blas openblas,blis,blis-sup]
 *                          [--operands cache,buffer,memory] [--reps R]
 *       the model's Legendre dgemm shapes at truncation M: per wavenumber m and parity, the
 *       (latitude pairs x degrees) table times a (degrees x N) block (synthesis) and its transpose
 *       times a (pairs x N) block (analysis), for every m, at each column count N (fields x
 *       levels x 2 in the model), through each library the model's --blas can name (default
 *       openblas), interleaved within every repetition, each library's products checked against
 *       known entries.  Operands "cache" (default): every block's Fourier-side operand is one
 *       piece that stays in L2, so only the tables and spectral blocks stream; "buffer": as in
 *       the model, every block has its own piece of a wavenumber-major buffer (which the
 *       last-level cache may hold, if it has room); "memory": the same, with the caches flushed
 *       before each pass, so tables, spectral blocks and buffer all come from memory;
 *   pst_yardstick stream [--mb MB] [--reps R] [--threads T]
 *       memory bandwidth (per copy; T copies at once as for dgemm): the STREAM triad a = b + s c over three arrays of MB MiB each (far larger
 *       than the caches), GB/s counting 3 x 8 bytes per element; the memory-bound stages (the
 *       Fourier-space combinations, the previous level, the tables at large M) move with it when
 *       a neighbour on a shared host takes the memory bus, while DGEMM does not;
 *   pst_yardstick fft --nlon N --r2c A --c2r B [--batches 8,16,...] [--reps R] [--plan measure]
 *       A real-to-complex and B complex-to-real FFTs of length N through FFTW's advanced
 *       interface, run as batches of `batch` lines on one cache-resident buffer, for every
 *       batch size; the fastest batch is the yardstick of the model's FFT stage.
 *
 * Each prints one JSON object per line (type "yardstick"): the median and minimum of R timed
 * repetitions after one untimed one.  Not MPI: a concurrent yardstick across ranks is several of
 * these started together (bench/model.sh, bench/node-ceiling.sh). */
#include "model/libs/blas.h"

#include <cblas.h>
#include <fftw3.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void openblas_set_num_threads(int num_threads);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and minimum of n timings (sorted in place). */
static void summarise(double *t, int n, double *med, double *min)
{
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    *min = t[0];
    *med = n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static void *xmalloc(size_t bytes)
{
    void *p = fftw_malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "pst_yardstick: cannot allocate %zu bytes\n", bytes);
        exit(3);
    }
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

static long parse_long(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "pst_yardstick: %s wants an integer in [%ld, %ld], got '%s'\n", opt, lo, hi, s);
        exit(2);
    }
    return v;
}

/* One copy of a yardstick on the calling thread: reps + 1 passes (the first untimed), each
 * started at a barrier with the other copies, its times into t[0..reps); non-zero when its
 * result is wrong. */
typedef int copy_fn(long size, int reps, double *t);

static double begin_pass(void)
{
#pragma omp barrier
    return now_s();
}

static int dgemm_copy(long n, int reps, double *t)
{
    size_t nn = (size_t)n * (size_t)n;
    double *a = xmalloc(nn * sizeof *a), *b = xmalloc(nn * sizeof *b), *c = xmalloc(nn * sizeof *c);
    for (size_t i = 0; i < nn; i++) {
        a[i] = (double)(i % 7) - 3.0;
        b[i] = (double)(i % 5) - 2.0;
    }
    for (int r = -1; r < reps; r++) {
        double t0 = begin_pass();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)n, (int)n, (int)n, 1.0, a, (int)n, b, (int)n, 0.0, c,
                    (int)n);
        if (r >= 0) t[r] = now_s() - t0;
    }
    /* A known entry keeps the product honest: c[0] = Σ_k a[k] b[k n]. */
    double want = 0.0;
    for (long k = 0; k < n; k++) want += a[k] * b[(size_t)k * n];
    int wrong = c[0] != want;
    if (wrong) fprintf(stderr, "pst_yardstick: dgemm result wrong (c[0] = %g, expected %g)\n", c[0], want);
    fftw_free(a);
    fftw_free(b);
    fftw_free(c);
    return wrong;
}

static int stream_copy(long mb, int reps, double *t)
{
    size_t n = (size_t)mb * 1024 * 1024 / sizeof(double);
    double *a = xmalloc(n * sizeof *a), *b = xmalloc(n * sizeof *b), *c = xmalloc(n * sizeof *c);
    for (size_t i = 0; i < n; i++) {
        b[i] = 1.0;
        c[i] = 2.0;
    }
    for (int r = -1; r < reps; r++) {
        double t0 = begin_pass();
        for (size_t i = 0; i < n; i++) a[i] = b[i] + 3.0 * c[i];
        if (r >= 0) t[r] = now_s() - t0;
    }
    int wrong = a[n / 2] != 7.0;
    if (wrong) fprintf(stderr, "pst_yardstick: stream result wrong (%g, expected 7)\n", a[n / 2]);
    fftw_free(a);
    fftw_free(b);
    fftw_free(c);
    return wrong;
}

/* threads copies at once (each OpenBLAS call single-threaded); a repetition takes as long as its
 * slowest copy.  Those times in repetition order into t_reps, their median and minimum into med,
 * min; non-zero when a copy was wrong. */
static int run_copies(copy_fn *copy, long size, int reps, int threads, double *t_reps, double *med, double *min)
{
    openblas_set_num_threads(1);
    double *t = xmalloc((size_t)reps * (size_t)threads * sizeof *t);
    int wrong = 0;
#pragma omp parallel num_threads(threads) reduction(| : wrong)
    wrong |= copy(size, reps, t + (size_t)reps * (size_t)omp_get_thread_num());
    for (int r = 0; r < reps; r++)
        for (int k = 1; k < threads; k++) t[r] = fmax(t[r], t[(size_t)k * reps + r]);
    memcpy(t_reps, t, (size_t)reps * sizeof *t);
    summarise(t, reps, med, min);
    fftw_free(t);
    return wrong ? 3 : 0;
}

/* One copy yardstick's record: what it is, its size (size_key), each repetition's slowest copy
 * timed; its rate (rate_key "_med" and "_max", work / time * 1e-9) and the repetitions' times in
 * order (t_reps: a round of one process per core, bench/node-ceiling.sh, takes each repetition's
 * slowest copy from them, as a process's threads do).  Non-zero when a copy was wrong. */
static int run_rate(copy_fn *copy, const char *what, const char *size_key, long size, const char *rate_key,
                    double work, int reps, int threads)
{
    double med, min, *t = xmalloc((size_t)reps * sizeof *t);
    int wrong = run_copies(copy, size, reps, threads, t, &med, &min);
    if (!wrong) {
        printf("{\"type\":\"yardstick\",\"what\":\"%s\",\"%s\":%ld,\"threads\":%d,\"reps\":%d,\"t_med\":%.6e,"
               "\"t_min\":%.6e,\"%s_med\":%.3f,\"%s_max\":%.3f,\"t_reps\":[",
               what, size_key, size, threads, reps, med, min, rate_key, work / med * 1e-9, rate_key, work / min * 1e-9);
        for (int r = 0; r < reps; r++) printf("%s%.6e", r ? "," : "", t[r]);
        printf("]}\n");
    }
    fftw_free(t);
    return wrong;
}

static int run_dgemm(long n, int reps, int threads)
{
    return run_rate(dgemm_copy, "dgemm", "n", n, "gflops", 2.0 * (double)n * n * n, reps, threads);
}

/* The Legendre shapes of truncation M on nlat = the model's Gaussian grid (3M+1)/2 rounded up
 * to even: one pass over all wavenumbers and parities, synthesis then analysis, N columns, with
 * each library of the list (the model's --blas names) in turn within every repetition. */
/* Evicts every cache level: writes an array of 2 x the last-level cache + 16 MiB (the model's
 * caches hold dirty lines as well when a pass starts). */
static void flush_caches(void)
{
    static unsigned char *sweep;
    static size_t bytes;
    if (!sweep) {
        long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
        bytes = 2 * (size_t)(l3 > 0 ? l3 : 32L << 20) + (16u << 20);
        sweep = xmalloc(bytes);
    }
    static unsigned char pass;
    memset(sweep, ++pass, bytes);
}

/* Where the Legendre shapes' operands live (--operands): see the header. */
typedef enum { OPERANDS_CACHE, OPERANDS_BUFFER, OPERANDS_MEMORY, NOPERANDS } operands_at;
static const char *const operand_names[NOPERANDS] = {"cache", "buffer", "memory"};

/* A comma-separated list of names, each of names[0..n) at most once, as indices; the count, or
 * -1 after saying what is wrong. */
static int parse_names(const char *opt, const char *list, const char *const *names, int n, int *out)
{
    int count = 0;
    char *copy = strdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (k < n && strcmp(tok, names[k])) k++;
        bool twice = false;
        for (int i = 0; i < count && k < n; i++) twice |= out[i] == k;
        if (k == n || twice) {
            fprintf(stderr, "pst_yardstick: %s %s: %s", opt, tok, twice ? "listed twice\n" : "unknown (allowed: ");
            for (int i = 0; i < n && !twice; i++) fprintf(stderr, "%s%s", names[i], i + 1 < n ? ", " : ")\n");
            free(copy);
            return -1;
        }
        out[count++] = k;
    }
    free(copy);
    return count;
}

/* Known entries keep each library honest: the last row of every analysis block,
 * spec[off + nk - 1][N - 1] = Σ_p P[p][nk - 1] four_in[p][N - 1], and the synthesis of the last
 * block (m = M, one degree), four_last[p][0] = P[p][0] spec_in[.][0]. Returns the worst relative error. */
static double legendre_worst_error(int M, int np, int N, const double *table, const double *spec, const double *four_last,
                                   const double *spec_in, const double *four_in)
{
    size_t off = 0;
    double worst = 0;
    for (int m = 0; m <= M; m++)
        for (int par = 0; par < 2; par++) {
            int nk = (M - m + 2 - par) / 2;
            if (nk == 0) continue;
            const double *P = table + (size_t)np * off;
            double want = 0;
            for (int p = 0; p < np; p++) want += P[(size_t)p * nk + nk - 1] * four_in[(size_t)p * N + N - 1];
            worst = fmax(worst, fabs(spec[(off + nk - 1) * N + N - 1] - want) / (1.0 + fabs(want)));
            if (m == M)
                for (int p = 0; p < np; p++) worst = fmax(worst, fabs(four_last[(size_t)p * N] - P[p] * spec_in[off * N]));
            off += (size_t)nk;
        }
    return worst;
}

/* One record per operand placement, library and direction: median and minimum over reps (sorts t). */
static void print_legendre_records(double *t, int reps, const int *libs, int nlibs, const int *where, int nops, int M,
                                   int np, int N, double flop)
{
    for (int o = 0; o < nops; o++)
        for (int l = 0; l < nlibs; l++)
            for (int trans = 0; trans < 2; trans++) {
                double med, min;
                summarise(t + (((size_t)o * nlibs + l) * 2 + trans) * reps, reps, &med, &min);
                printf("{\"type\":\"yardstick\",\"what\":\"legendre_%s\",\"blas\":\"%s\",\"operands\":\"%s\",\"trunc\":%d,"
                       "\"pairs\":%d,\"columns\":%d,\"reps\":%d,\"t_med\":%.6e,\"t_min\":%.6e,\"gflops_med\":%.3f,"
                       "\"gflops_max\":%.3f}\n",
                       trans ? "analysis" : "synthesis", pst_blas_names[libs[l]], operand_names[where[o]], M, np,
                       N, reps, med, min, flop / med * 1e-9, flop / min * 1e-9);
            }
}

static int run_legendre(int M, const char *columns, const char *libraries, const char *operands, int reps)
{
    openblas_set_num_threads(1);
    int libs[PST_NBLAS], where[NOPERANDS];
    int nlibs = parse_names("--blas", libraries, pst_blas_names, PST_NBLAS, libs);
    int nops = parse_names("--operands", operands, operand_names, NOPERANDS, where);
    if (nlibs < 0 || nops < 0) return 2;
    for (int l = 0; l < nlibs; l++) {
        const char *why = pst_blas_load((pst_blas)libs[l]);
        if (why) {
            fprintf(stderr, "pst_yardstick: --blas %s: %s\n", pst_blas_names[libs[l]], why);
            return 2;
        }
    }
    int nlat = (3 * M + 2) / 2, np;
    nlat += nlat % 2;
    np = nlat / 2;
    size_t ncoef = (size_t)(M + 1) * (M + 2) / 2, nblocks = 0;
    for (int m = 0; m <= M; m++)
        for (int par = 0; par < 2; par++) nblocks += (M - m + 2 - par) / 2 > 0;
    double *table = xmalloc((size_t)np * ncoef * sizeof *table);
    for (size_t i = 0; i < (size_t)np * ncoef; i++) table[i] = 1.0 / (double)(i % 13 + 1);
    char *list = strdup(columns), *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int N = (int)parse_long("--columns", tok, 1, 4096);
        /* Inputs stay fixed (spec_in for the synthesis, four_in for the analysis, every block's
         * piece of it alike) so every pass sees the same values and the last one can be checked. */
        size_t piece = (size_t)np * N;
        double *spec_in = xmalloc(ncoef * N * sizeof *spec_in), *spec = xmalloc(ncoef * N * sizeof *spec);
        double *four_in = xmalloc(nblocks * piece * sizeof *four_in), *four = xmalloc(nblocks * piece * sizeof *four);
        for (size_t i = 0; i < ncoef * N; i++) spec_in[i] = (double)(i % 7) - 3.0;
        for (size_t i = 0; i < nblocks * piece; i++) four_in[i] = (double)(i % piece % 5) - 2.0;
        double *t = xmalloc((size_t)nops * nlibs * 2 * reps * sizeof *t), flop = 0;
        for (int r = -1; r < reps; r++)
            for (int o = 0; o < nops; o++)
                for (int l = 0; l < nlibs; l++) {
                    /* between the blocks' Fourier-side operands */
                    size_t stride = where[o] == OPERANDS_CACHE ? 0 : piece;
                    for (int trans = 0; trans < 2; trans++) {
                        if (where[o] == OPERANDS_MEMORY) flush_caches();
                        double t0 = now_s();
                        size_t off = 0, b = 0;
                        flop = 0;
                        for (int m = 0; m <= M; m++)
                            for (int par = 0; par < 2; par++) {
                                int nk = (M - m + 2 - par) / 2;
                                if (nk == 0) continue;
                                if (trans)
                                    pst_blas_dgemm((pst_blas)libs[l], true, nk, N, np, 1.0, table + (size_t)np * off, nk,
                                                   four_in + b * stride, N, 0.0, spec + off * N, N);
                                else
                                    pst_blas_dgemm((pst_blas)libs[l], false, np, N, nk, 1.0, table + (size_t)np * off, nk,
                                                   spec_in + off * N, N, 0.0, four + b * stride, N);
                                flop += 2.0 * np * nk * N;
                                off += (size_t)nk;
                                b++;
                            }
                        if (r >= 0) t[(((size_t)o * nlibs + l) * 2 + trans) * reps + r] = now_s() - t0;
                    }
                    double worst = legendre_worst_error(M, np, N, table, spec, four + (nblocks - 1) * stride, spec_in,
                                                        four_in);
                    if (!(worst <= 1e-12)) {
                        fprintf(stderr, "pst_yardstick: legendre result wrong with %s, operands in %s (relative error %g)\n",
                                pst_blas_names[libs[l]], operand_names[where[o]], worst);
                        return 3;
                    }
                }
        print_legendre_records(t, reps, libs, nlibs, where, nops, M, np, N, flop);
        fftw_free(t);
        fftw_free(spec);
        fftw_free(four);
        fftw_free(spec_in);
        fftw_free(four_in);
    }
    free(list);
    fftw_free(table);
    return 0;
}

static int run_stream(long mb, int reps, int threads)
{
    const double bytes = 3.0 * (double)((size_t)mb * 1024 * 1024 / sizeof(double)) * sizeof(double);
    return run_rate(stream_copy, "stream_triad", "mib_per_array", mb, "gbs", bytes, reps, threads);
}

/* Time of `count` transforms done `batch` at a time on one buffer (the last batch shorter). */
static double fft_pass(fftw_plan full, fftw_plan tail, long count, int batch, double *g, fftw_complex *f, int r2c)
{
    double t0 = now_s();
    for (long done = 0; done < count; done += batch) {
        fftw_plan p = count - done >= batch ? full : tail;
        if (r2c) fftw_execute_dft_r2c(p, g, f);
        else fftw_execute_dft_c2r(p, f, g);
    }
    return now_s() - t0;
}

static fftw_plan plan_lines(int nlon, int lines, double *g, fftw_complex *f, int r2c, unsigned flags)
{
    int nc = nlon / 2 + 1;
    if (lines <= 0) return NULL;
    return r2c ? fftw_plan_many_dft_r2c(1, &nlon, lines, g, NULL, 1, nlon, f, NULL, 1, nc, flags)
               : fftw_plan_many_dft_c2r(1, &nlon, lines, f, NULL, 1, nc, g, NULL, 1, nlon, flags);
}

static int run_fft(int nlon, long r2c, long c2r, const char *batches, int reps, unsigned flags)
{
    char *list = strdup(batches), *save = NULL;
    int first = 1;
    double best_med = 0, best_min = 0;
    int best_batch = 0;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int batch = (int)parse_long("--batches", tok, 1, 1 << 20);
        int nc = nlon / 2 + 1;
        double *g = xmalloc((size_t)batch * nlon * sizeof *g);
        fftw_complex *f = xmalloc((size_t)batch * nc * sizeof *f);
        long counts[2] = {r2c, c2r};
        fftw_plan plans[2][2] = {{NULL, NULL}, {NULL, NULL}};
        double plan_t0 = now_s();
        for (int k = 0; k < 2; k++) {
            long rem = counts[k] % batch;
            plans[k][0] = plan_lines(nlon, batch, g, f, k == 0, flags);
            plans[k][1] = rem ? plan_lines(nlon, (int)rem, g, f, k == 0, flags) : plans[k][0];
        }
        double plan_s = now_s() - plan_t0;
        for (long i = 0; i < (long)batch * nlon; i++) g[i] = (double)(i % 11) - 5.0;
        double *t = xmalloc((size_t)reps * sizeof *t);
        for (int r = -1; r < reps; r++) {
            /* c2r destroys its input: refill it outside the timing (it stays in cache). */
            double s = fft_pass(plans[0][0], plans[0][1], r2c, batch, g, f, 1);
            memset(f, 0, (size_t)batch * nc * sizeof *f);
            s += fft_pass(plans[1][0], plans[1][1], c2r, batch, g, f, 0);
            if (r >= 0) t[r] = s;
        }
        double med, min;
        summarise(t, reps, &med, &min);
        printf("{\"type\":\"yardstick\",\"what\":\"fft\",\"nlon\":%d,\"r2c\":%ld,\"c2r\":%ld,\"batch\":%d,\"reps\":%d,"
               "\"t_med\":%.6e,\"t_min\":%.6e,\"plan_s\":%.6e}\n",
               nlon, r2c, c2r, batch, reps, med, min, plan_s);
        if (first || med < best_med) {
            best_med = med;
            best_min = min;
            best_batch = batch;
            first = 0;
        }
        for (int k = 0; k < 2; k++) {
            if (plans[k][1] != plans[k][0]) fftw_destroy_plan(plans[k][1]);
            fftw_destroy_plan(plans[k][0]);
        }
        fftw_free(g);
        fftw_free(f);
        fftw_free(t);
    }
    printf("{\"type\":\"yardstick\",\"what\":\"fft_best\",\"nlon\":%d,\"r2c\":%ld,\"c2r\":%ld,\"batch\":%d,"
           "\"t_med\":%.6e,\"t_min\":%.6e}\n",
           nlon, r2c, c2r, best_batch, best_med, best_min);
    free(list);
    return 0;
}

static void usage(FILE *to)
{
    fputs("usage: pst_yardstick dgemm [--n N] [--reps R] [--threads T]\n"
          "       pst_yardstick legendre --trunc M [--columns 10,20,40,80,160] [--blas openblas,blis,blis-sup]\n"
          "                              [--operands cache,buffer,memory] [--reps R]\n"
          "       pst_yardstick stream [--mb MB] [--reps R] [--threads T]\n"
          "       pst_yardstick fft --nlon N --r2c A --c2r B [--batches 8,16,32,64,128] [--reps R] "
          "[--plan estimate|measure|patient]\n",
          to);
}

int main(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *what = argv[1], *batches = "8,16,32,64,128,256", *columns = "10,20,40,80,160", *libraries = "openblas",
               *operands = "cache";
    long n = 1000, nlon = 0, r2c = -1, c2r = -1, trunc = 0, mb = 128;
    int reps = 10, threads = 1;
    unsigned flags = FFTW_MEASURE;
    for (int i = 2; i < argc; i++) {
        const char *opt = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "pst_yardstick: %s wants a value\n", opt);
            return 2;
        }
        const char *val = argv[++i];
        if (!strcmp(opt, "--n")) n = parse_long(opt, val, 1, 20000);
        else if (!strcmp(opt, "--reps")) reps = (int)parse_long(opt, val, 1, 100000);
        else if (!strcmp(opt, "--threads")) threads = (int)parse_long(opt, val, 1, 4096);
        else if (!strcmp(opt, "--nlon")) nlon = parse_long(opt, val, 2, 1 << 20);
        else if (!strcmp(opt, "--r2c")) r2c = parse_long(opt, val, 0, 1L << 30);
        else if (!strcmp(opt, "--c2r")) c2r = parse_long(opt, val, 0, 1L << 30);
        else if (!strcmp(opt, "--batches")) batches = val;
        else if (!strcmp(opt, "--columns")) columns = val;
        else if (!strcmp(opt, "--blas")) libraries = val;
        else if (!strcmp(opt, "--operands")) operands = val;
        else if (!strcmp(opt, "--mb")) mb = parse_long(opt, val, 1, 1 << 16);
        else if (!strcmp(opt, "--trunc")) trunc = parse_long(opt, val, 1, 2047);
        else if (!strcmp(opt, "--plan")) {
            if (!strcmp(val, "estimate")) flags = FFTW_ESTIMATE;
            else if (!strcmp(val, "measure")) flags = FFTW_MEASURE;
            else if (!strcmp(val, "patient")) flags = FFTW_PATIENT;
            else {
                fprintf(stderr, "pst_yardstick: --plan wants estimate, measure or patient, got '%s'\n", val);
                return 2;
            }
        } else {
            fprintf(stderr, "pst_yardstick: unknown option '%s'\n", opt);
            usage(stderr);
            return 2;
        }
    }
    if (!strcmp(what, "dgemm")) return run_dgemm(n, reps, threads);
    if (!strcmp(what, "stream")) return run_stream(mb, reps, threads);
    if (!strcmp(what, "legendre")) {
        if (trunc == 0) {
            fprintf(stderr, "pst_yardstick: legendre wants --trunc\n");
            return 2;
        }
        return run_legendre((int)trunc, columns, libraries, operands, reps);
    }
    if (!strcmp(what, "fft")) {
        if (nlon == 0 || r2c < 0 || c2r < 0) {
            fprintf(stderr, "pst_yardstick: fft wants --nlon, --r2c and --c2r\n");
            return 2;
        }
        return run_fft((int)nlon, r2c, c2r, batches, reps, flags);
    }
    fprintf(stderr, "pst_yardstick: unknown yardstick '%s' (dgemm, legendre, stream or fft)\n", what);
    usage(stderr);
    return 2;
}
