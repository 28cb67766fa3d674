#include "core/buffer.h"

#include "core/errors.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *pst_buffer_alloc(size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096, len = bytes ? bytes : 1;
    void *p = NULL;
    if (posix_memalign(&p, align, len)) pst_fatal(PST_EXIT_FAILED, "cannot allocate %zu bytes", bytes);
    memset(p, 0, len);
    return p;
}
