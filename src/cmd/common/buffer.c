#include "cmd/common/buffer.h"

#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *pst_buffer_alloc(size_t bytes)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096, len = bytes ? bytes : 1;
    void *p = pst_aligned(align, len);
    memset(p, 0, len);
    return p;
}
