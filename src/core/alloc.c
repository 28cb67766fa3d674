#include "core/alloc.h"

#include "core/checked.h"
#include "core/errors.h"

#include <stdlib.h>
#include <string.h>

#ifdef PST_SIMULATED
#include <smpi/smpi.h>
#endif

void *pst_alloc_check(void *p, size_t bytes)
{
    if (!p) pst_fatal(PST_EXIT_FAILED, "out of memory: cannot allocate %zu bytes", bytes);
    return p;
}

/* Size 0 asks for 1 byte: malloc(0) may return NULL, which is not a failure. */
void *pst_malloc(size_t bytes) { return pst_alloc_check(malloc(bytes ? bytes : 1), bytes); }

void *pst_calloc(size_t n, size_t size)
{
    size_t bytes;
    if (!pst_mul_size(n, size, &bytes)) pst_fatal(PST_EXIT_FAILED, "out of memory: %zu x %zu bytes overflow", n, size);
    return pst_alloc_check(calloc(bytes ? n : 1, bytes ? size : 1), bytes);
}

void *pst_realloc(void *p, size_t bytes) { return pst_alloc_check(realloc(p, bytes ? bytes : 1), bytes); }

void *pst_aligned(size_t align, size_t bytes)
{
    void *p = NULL;
    return pst_alloc_check(posix_memalign(&p, align, bytes ? bytes : 1) ? NULL : p, bytes);
}

/* Below SMPI's shared block (smpi/shared-malloc-blocksize, 1 MiB) folding saves little, and
 * every folded buffer costs memory maps: a few per rank of thousands meet vm.max_map_count. */
void *pst_shared_alloc(size_t bytes)
{
#ifdef PST_SIMULATED
    if (bytes >= PST_SHARED_MIN_BYTES) return pst_alloc_check(SMPI_SHARED_MALLOC(bytes), bytes);
#endif
    return pst_aligned(64, bytes);
}

void pst_shared_free(void *p, size_t bytes)
{
#ifdef PST_SIMULATED
    if (bytes >= PST_SHARED_MIN_BYTES) {
        SMPI_SHARED_FREE(p);
        return;
    }
#else
    (void)bytes;
#endif
    free(p);
}

char *pst_strdup(const char *s) { return pst_strndup(s, strlen(s)); }

char *pst_strndup(const char *s, size_t n) { return pst_alloc_check(strndup(s, n), n + 1); }
