/* Message buffers for timed loops: page-aligned (as OSU and NetPIPE use) and touched once, so
 * no page fault or first-touch cost lands inside a measurement. */
#ifndef PST_BUFFER_H
#define PST_BUFFER_H

#include <stddef.h>

/* Never NULL (aborts the job on failure); a 0-byte request still returns a valid page. */
void *pst_buffer_alloc(size_t bytes);

#endif
