/* Collective bandwidth as nccl-tests defines it (doc/PERFORMANCE.md): algbw = S / t with S the
 * operation's size in bytes (the buffer for bcast/reduce/allreduce, the whole gathered or
 * exchanged buffer of one rank for allgather/alltoall), and busbw = algbw · factor(n), which makes
 * the figure comparable to a link's bandwidth whatever the rank count n. */
#ifndef PST_BUSBW_H
#define PST_BUSBW_H

typedef enum pst_bw_pattern {
    PST_BW_NONE,      /* no data (barrier): no bandwidth                    */
    PST_BW_ROOTED,    /* bcast, reduce: factor 1                            */
    PST_BW_ALLREDUCE, /* allreduce: 2(n−1)/n                                */
    PST_BW_ALLTOALL,  /* allgather, alltoall, reduce-scatter: (n−1)/n       */
} pst_bw_pattern;

/* NaN for PST_BW_NONE or n < 1. */
double pst_busbw_factor(pst_bw_pattern p, int n);

#endif
