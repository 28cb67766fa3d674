/* LogGP parameters of a pair of ranks by the parametrised round trip (PRTT) method of Netgauge
 * (Hoefler, Schneider & Lumsdaine, "LogGP in theory and practice", 2009): L latency, o_s and
 * o_r send and receive overheads, g gap between messages, G gap per byte.  These are what
 * network simulators take (LogGOPSim: L, o, g, G; CODES).
 *
 *   PRTT(n, d, s): side A sends n messages of s bytes, waiting d seconds between sends, and side
 *   B answers the n-th with one message of s bytes; the time on A's clock.
 *   g + (s−1)G = (PRTT(n,0,s) − PRTT(1,0,s)) / (n−1), fitted over s (slope G, intercept g − G);
 *   o_s = time in one MPI_Send of s bytes when the sends are spaced by d > g + (s−1)G;
 *   o_r = time in one MPI_Recv of a message that has already arrived;
 *   L = PRTT(1,0,s)/2 − o_s − o_r − (s−1)G, at the smallest size.
 * Each repetition measures every quantity; parameters are medians over repetitions with
 * distribution-free intervals (stats/verdict.h). */
#ifndef PST_LOGGP_H
#define PST_LOGGP_H

#include "runtime/context.h"

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct pst_loggp_run {
    MPI_Comm comm;            /* holds both ranks of the pair */
    int partner, side;        /* partner < 0: this rank sits out */
    long long n;              /* messages per PRTT (>= 2) */
    long long reps;
    const long long *sizes;   /* ascending, > 0 */
    size_t nsizes;
    unsigned char *sbuf, *rbuf;
    double confidence;
} pst_loggp_run;

/* Collective over MPI_COMM_WORLD: measure, then (rank 0) print the parameters and emit the
 * `loggp` summary record.  Exits 3 on a corrupted payload. */
void pst_loggp(pst_ctx *ctx, const pst_loggp_run *run);

#endif
