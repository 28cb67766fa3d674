/* Cold-cache support: evict the caches before a timed operation by streaming over a buffer
 * larger than the last-level cache. */
#ifndef PST_CACHE_H
#define PST_CACHE_H

#include <stddef.h>

/* Bytes streamed per flush: 4 x the last-level cache reported by the OS (at least 32 MiB). */
size_t pst_cache_flush_bytes(void);
void pst_cache_flush(void);

#endif
