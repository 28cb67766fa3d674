#include "cmd/coll/busbw.h"

#include <math.h>

double pst_busbw_factor(pst_bw_pattern p, int n)
{
    if (n < 1) return NAN;
    switch (p) {
    case PST_BW_ROOTED: return 1.0;
    case PST_BW_ALLREDUCE: return 2.0 * (n - 1) / n;
    case PST_BW_ALLTOALL: return (double)(n - 1) / n;
    case PST_BW_NONE: break;
    }
    return NAN;
}
