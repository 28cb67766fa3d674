/* Block partitions shared by the parallel algorithms and their callers.
 *
 * pst_block: n items over `parts` parts in order; part i gets [lo, lo + count), the first
 * n % parts parts one item more than the rest (uneven splits such as 8x14 grids). */
#ifndef PST_PARTITION_H
#define PST_PARTITION_H

#include <stddef.h>

static inline void pst_block(size_t n, int parts, int i, size_t *lo, size_t *count)
{
    size_t q = n / (size_t)parts, r = n % (size_t)parts, ui = (size_t)i;
    *lo = ui * q + (ui < r ? ui : r);
    *count = q + (ui < r ? 1 : 0);
}

/* Largest power of two <= n (n >= 1), and its log2. */
static inline int pst_pow2_floor(int n, int *log2)
{
    int q = 1, d = 0;
    while (2 * q <= n) { q *= 2; d++; }
    if (log2) *log2 = d;
    return q;
}

static inline int pst_is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

#endif
