/* Every vector sum x every protocol x overlap off/on (replicated; partitioned with the protocol
 * subset of algo_test.h) against MPI_Allreduce: bitwise on dyadic data (every partial sum
 * exact, so any order gives the same bits), to round-off on random data (|x - ref| <= 2 Q eps sum|x_i|); bitwise agreement where
 * the additions are the same (exchsum = halfsum, ringsum = ringpipe) and across ranks for
 * replicated results; vectors with empty blocks; ringpipe's compute order and call count; a
 * gathering algorithm's gather alone (pst_vsum_gather). */
#include "algo/vsum.h"
#include "algo_test.h"

#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures;

static double value(int r, size_t i, int dyadic)
{
    unsigned h = (unsigned)(r * 2654435761u) ^ (unsigned)(i * 40503u + 17u);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    if (dyadic) return (double)((int)(h % 2001) - 1000) / 64.0;
    return ((double)(h % 1000003) / 1000003.0 - 0.5) * exp((double)(h % 7) - 3.0);
}

typedef struct gen { int dyadic; int calls; size_t last_lo; int order_bad; } gen;

static void compute(void *arg, size_t lo, size_t count, double *out)
{
    gen *g = arg;
    g->calls++;
    for (size_t i = 0; i < count; i++) out[i] = value(rank, lo + i, g->dyadic);
    g->last_lo = lo;
}

typedef struct result { double *v; } result;

static void fail(const char *what, const pst_algorithm *alg, const pst_protocol *p, int ov, int part, size_t n, int dyadic)
{
    failures++;
    fprintf(stderr, "rank %d/%d: %s: %s protocol %s overlap %d %s n %zu %s\n", rank, size, what, alg->name,
            p ? p->code : "-", ov, part ? "partitioned" : "replicated", n, dyadic ? "dyadic" : "random");
}

/* Runs one configuration; returns the result (caller frees). */
static double *one(const pst_algorithm *alg, const pst_protocol *p, int ov, int part, size_t n, size_t unit, int dyadic,
                   const double *ref, const double *tol, bool extra)
{
    double *in = malloc((n + 1) * sizeof *in), *out = malloc((n + 1) * sizeof *out);
    for (size_t i = 0; i < n; i++) in[i] = value(rank, i, dyadic);
    pst_vsum *v = pst_vsum_create(alg, p, ov, MPI_COMM_WORLD, n, unit, part ? PST_VSUM_PARTITIONED : PST_VSUM_REPLICATED);
    size_t lo = 0, count = n;
    if (part) pst_vsum_block(n, unit, size, rank, &lo, &count);
    /* Array form, out of place, then the compute form in place. */
    pst_vsum_run(v, in, out);
    for (size_t i = lo; i < lo + count; i++)
        if (dyadic ? out[i] != ref[i] : !(fabs(out[i] - ref[i]) <= tol[i])) { fail("differs from MPI_Allreduce", alg, p, ov, part, n, dyadic); break; }
    double *out2 = malloc((n + 1) * sizeof *out2);
    if (!extra) goto done;
    gen g = {.dyadic = dyadic};
    pst_vsum_run_compute(v, compute, &g, out2);
    if (g.calls != size) fail("compute calls != Q", alg, p, ov, part, n, dyadic);
    if (memcmp(out2 + lo, out + lo, count * sizeof *out)) fail("compute form differs from array form", alg, p, ov, part, n, dyadic);
    /* ringpipe's ring ends with this rank's own block; a pipelined library collective
     * (iallreduce) starts its blocks in one order on every rank, as collectives must be. */
    if (alg->pipelined && !alg->collective && size > 1) {
        size_t mylo, myn;
        pst_vsum_block(n, unit, size, rank, &mylo, &myn);
        if (g.last_lo != mylo) fail("a pipelined sum did not compute its own block last", alg, p, ov, part, n, dyadic);
    }
    memcpy(out2, in, n * sizeof *in); /* in place */
    pst_vsum_run(v, out2, out2);
    if (memcmp(out2 + lo, out + lo, count * sizeof *out)) fail("in-place run differs", alg, p, ov, part, n, dyadic);
    if (!part && pst_vsum_gathers(alg)) { /* the gather alone: every rank's block everywhere */
        size_t mylo, myn;
        pst_vsum_block(n, unit, size, rank, &mylo, &myn);
        for (size_t i = 0; i < n; i++) out2[i] = i >= mylo && i < mylo + myn ? value(-1, i, 1) : -1e300;
        pst_vsum_gather(v, out2);
        for (size_t i = 0; i < n; i++)
            if (out2[i] != value(-1, i, 1)) { fail("gather: a block missing or misplaced", alg, p, ov, part, n, dyadic); break; }
    }
    if (!part) { /* replicated: the same bits everywhere */
        memcpy(out2, out, n * sizeof *out);
        MPI_Bcast(out2, (int)n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (memcmp(out2, out, n * sizeof *out)) fail("replicas differ between ranks", alg, p, ov, part, n, dyadic);
    }
done:
    pst_vsum_free(v);
    free(in);
    free(out2);
    return out;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    parse_mode(argc, argv);
    /* (n, unit): uneven blocks; fewer units than ranks (empty blocks); large enough to chunk. */
    const size_t cases[][2] = {{3 * 13, 3}, {2 * 5, 5}, {12000, 2}};
    size_t nprot = pst_protocol_count("mpi");
    int runs = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int dyadic = 0; dyadic < 2; dyadic++) {
            size_t n = cases[c][0], unit = cases[c][1];
            double *in = malloc(n * sizeof *in), *ref = malloc(n * sizeof *ref), *tol = malloc(n * sizeof *tol);
            for (size_t i = 0; i < n; i++) in[i] = fabs(value(rank, i, dyadic));
            MPI_Allreduce(in, tol, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            for (size_t i = 0; i < n; i++) { tol[i] *= 2.0 * size * DBL_EPSILON; in[i] = value(rank, i, dyadic); }
            MPI_Allreduce(in, ref, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            for (int part = 0; part < 2; part++)
                for (size_t pi = 0; pi < nprot; pi++)
                    for (int ov = 0; ov < 2; ov++) {
                        const pst_protocol *p = pst_protocol_at("mpi", pi);
                        if (p->overlap && !ov) continue;
                        /* Every protocol: the first case, random data, array form.  Extra protocols: the
                         * dyadic first case with every form, empty blocks, and (overlapped) the chunked case. */
                        bool extra = extra_protocol(p);
                        if (!protocol_selected(p) || ((c > 0 || dyadic) && !extra) || (c > 0 && dyadic) || (c == 2 && !ov))
                            continue;
                        if (part && !in_subset(p)) continue; /* partitioned: the subset (the gathers are the difference) */
                        bool full = extra && c == 0 && dyadic;
                        /* Every vector sum of the registry: a new row is tested without touching this file. */
                        double **res = calloc(pst_nalgorithms, sizeof *res);
                        for (size_t a = 0; a < pst_nalgorithms; a++) {
                            const pst_algorithm *alg = &pst_algorithms[a];
                            if (alg->family != PST_FAMILY_VSUM) continue;
                            res[a] = one(alg, alg->collective ? NULL : p, ov, part, n, unit, dyadic, ref, tol, full);
                            runs++;
                        }
                        size_t lo = 0, count = n;
                        if (part) pst_vsum_block(n, unit, size, rank, &lo, &count);
                        /* The same additions in the same order: bitwise equal. */
                        static const char *const twins[][2] = {{"exchsum", "halfsum"}, {"ringsum", "ringpipe"}};
                        for (size_t k = 0; k < 2; k++) {
                            const pst_algorithm *x = pst_algorithm_find(twins[k][0], 0), *y = pst_algorithm_find(twins[k][1], 0);
                            if (memcmp(res[x - pst_algorithms] + lo, res[y - pst_algorithms] + lo, count * sizeof(double)))
                                fail("differs bitwise from its twin", y, p, ov, part, n, dyadic);
                        }
                        for (size_t a = 0; a < pst_nalgorithms; a++) free(res[a]);
                        free(res);
                    }
            free(in); free(ref); free(tol);
        }
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("vector sums on %d ranks: %d runs, %d failures\n", size, runs, total);
    MPI_Finalize();
    return total ? 1 : 0;
}
