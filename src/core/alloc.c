#include "core/alloc.h"

#include "core/checked.h"
#include "core/errors.h"

#include <stdbool.h>
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

/* Every folded buffer costs a memory map per started MiB (SMPI maps its shared file over the
 * buffer), and a process may hold vm.max_map_count maps (65,530 by default): at 4,096 simulated
 * ranks the program copies and the stacks take 7 a rank, so the many small buffers stay private. */
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

static bool values_unread;

void pst_values_unread(void) { values_unread = true; }

void *pst_work_alloc(size_t bytes) { return values_unread ? pst_shared_alloc(bytes) : pst_malloc(bytes); }

void pst_work_free(void *p, size_t bytes)
{
    if (values_unread) pst_shared_free(p, bytes);
    else free(p);
}
