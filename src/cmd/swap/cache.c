#include "cmd/swap/cache.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <unistd.h>

static unsigned char *scratch;
static size_t scratch_bytes;
volatile unsigned long long pst_cache_sink; /* keeps the read pass from being optimised away */

size_t pst_cache_flush_bytes(void)
{
    if (!scratch_bytes) {
        long llc = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
        llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
        if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
        size_t want = llc > 0 ? 4 * (size_t)llc : 0;
        scratch_bytes = want > (32u << 20) ? want : (32u << 20);
    }
    return scratch_bytes;
}

void pst_cache_flush(void)
{
    size_t n = pst_cache_flush_bytes();
    if (!scratch) scratch = pst_calloc(n, 1);
    unsigned long long sum = 0;
    for (size_t i = 0; i < n; i += 64) {
        scratch[i]++;
        sum += scratch[i];
    }
    pst_cache_sink += sum;
}
