/* The allocator is a hidden variable of MPI benchmarks.  A library that allocates a temporary
 * buffer per call (MPICH per large reduction, say) gets it from the warm heap or as freshly
 * mapped, zeroed pages, depending on glibc's mmap threshold, which slides up the first time a
 * mapped block is freed.  So what the process allocated and freed before decides the timing:
 * two tools on one machine disagree about which MPI is faster.  pstswm records the state
 * (glibc version, what it set, and a probe: is a block of the run's largest message size
 * mapped?) and `coll --alloc-state` sets it:
 *   default  touch nothing;
 *   warm     raise M_MMAP_THRESHOLD and M_TRIM_THRESHOLD above the largest message, then malloc,
 *            touch and free a block of that size: temporaries come from a warm heap, as in a
 *            long-running application;
 *   fresh    pin M_MMAP_THRESHOLD at glibc's 128 KiB default: large temporaries are mapped
 *            afresh on every call, as in a cold micro-benchmark.
 * Another allocator loaded with LD_PRELOAD is detected and reported, not controlled. */
#ifndef PST_ALLOC_STATE_H
#define PST_ALLOC_STATE_H

#include "core/record.h"

#include <stddef.h>

extern const char *const pst_alloc_states[]; /* "default", "warm", "fresh", NULL */

/* Set the state for messages up to max_bytes; returns NULL, or why it cannot be set (a usage
 * error for the caller: glibc maps blocks above 32 MiB whatever the threshold). */
const char *pst_alloc_state_set(const char *state, size_t max_bytes);

/* Probe with a block of probe_bytes (kept until pst_alloc_state_release: freeing a mapped block
 * would itself raise glibc's threshold) and write the header's `allocator` object. */
void pst_rec_alloc_state(pst_rec *r, size_t probe_bytes);
void pst_alloc_state_release(void);

#endif
