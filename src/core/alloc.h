/* The one allocator.  Every allocation goes through here, so running out of memory (or past
 * a sanitizer's max_allocation_size_mb) ends the job with exit 3 and the size that failed,
 * never a NULL dereference.  Sizes that come from the command line are validated before they
 * get here (core/checked.h). */
#ifndef PST_ALLOC_H
#define PST_ALLOC_H

#include <stddef.h>

/* p, or exit 3 "out of memory: cannot allocate <bytes> bytes" when p is NULL; for allocators
 * of other libraries (fftw_malloc). */
void *pst_alloc_check(void *p, size_t bytes);

void *pst_malloc(size_t bytes);
void *pst_calloc(size_t n, size_t size); /* zeroed; n * size checked */
void *pst_realloc(void *p, size_t bytes);
void *pst_aligned(size_t align, size_t bytes); /* free() it */
char *pst_strdup(const char *s);
/* Memory whose values no one reads (the model's skeleton mode): in an SMPI build, from
 * PST_SHARED_MIN_BYTES up, one physical block that every simulated rank maps
 * (SMPI_SHARED_MALLOC), so a thousand ranks' buffers cost one rank's memory; otherwise
 * pst_aligned(64, bytes).  Free with pst_shared_free and the same bytes. */
enum { PST_SHARED_MIN_BYTES = 128 << 10 };
void *pst_shared_alloc(size_t bytes);
void pst_shared_free(void *p, size_t bytes);
/* Work buffers of the algorithms (a vector sum's vectors): plain memory, or pst_shared_alloc's
 * once pst_values_unread() says the run reads no values (skeleton mode computes none). */
void pst_values_unread(void);
void *pst_work_alloc(size_t bytes);
void pst_work_free(void *p, size_t bytes);
char *pst_strndup(const char *s, size_t n);

#endif
