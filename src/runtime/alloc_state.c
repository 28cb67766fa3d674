/* dlsym(RTLD_DEFAULT) is a GNU extension. */
#define _GNU_SOURCE
#include "core/alloc.h"
#include "runtime/alloc_state.h"

#include <dlfcn.h>
#include <gnu/libc-version.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *const pst_alloc_states[] = {"default", "warm", "fresh", NULL};

/* glibc's largest mmap threshold on 64-bit (DEFAULT_MMAP_THRESHOLD_MAX) and its default. */
static const size_t THRESHOLD_MAX = 32u << 20, THRESHOLD_DEFAULT = 128u << 10;

static struct {
    const char *state;
    long long mmap_threshold, trim_threshold; /* what pstswm set; -1: nothing */
    void *probe;
} st = {"default", -1, -1, NULL};

const char *pst_alloc_state_set(const char *state, size_t max_bytes)
{
    st.state = state;
    if (!strcmp(state, "warm")) {
        /* Room for the largest message and the library's temporaries of that size. */
        size_t threshold = max_bytes + (1u << 20);
        if (threshold > THRESHOLD_MAX)
            return "glibc maps blocks above 32 MiB whatever its threshold; warm needs sizes up to 31 MiB";
        mallopt(M_MMAP_THRESHOLD, (int)threshold);
        mallopt(M_TRIM_THRESHOLD, (int)(4 * threshold));
        st.mmap_threshold = (long long)threshold;
        st.trim_threshold = 4 * (long long)threshold;
        volatile char *block = pst_malloc(max_bytes);
        if (block) {
            for (size_t i = 0; i < max_bytes; i += 4096) block[i] = 1;
            free((void *)block);
        }
    } else if (!strcmp(state, "fresh")) {
        /* Setting it explicitly also stops glibc from sliding it. */
        mallopt(M_MMAP_THRESHOLD, (int)THRESHOLD_DEFAULT);
        st.mmap_threshold = (long long)THRESHOLD_DEFAULT;
    }
    return NULL;
}

/* An allocator other than glibc's, by a symbol only it defines. */
static const char *preloaded_allocator(void)
{
    static const struct { const char *symbol, *name; } known[] = {
        {"tc_malloc", "tcmalloc"}, {"je_malloc", "jemalloc"}, {"mallctl", "jemalloc"}, {"mi_malloc", "mimalloc"},
        {"hoard_malloc", "hoard"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (dlsym(RTLD_DEFAULT, known[i].symbol)) return known[i].name;
    const char *pre = getenv("LD_PRELOAD");
    return pre && (strstr(pre, "malloc") || strstr(pre, "alloc")) ? pre : NULL;
}

void pst_rec_alloc_state(pst_rec *r, size_t probe_bytes)
{
    struct mallinfo2 before = mallinfo2();
    if (!st.probe) st.probe = pst_malloc(probe_bytes ? probe_bytes : 1);
    struct mallinfo2 after = mallinfo2();
    bool mapped = after.hblkhd > before.hblkhd;
    pst_rec_obj_begin(r, "allocator");
    pst_rec_str(r, "glibc_version", gnu_get_libc_version());
    pst_rec_str(r, "alloc_state", st.state);
    if (st.mmap_threshold >= 0) pst_rec_int(r, "mmap_threshold_bytes", st.mmap_threshold);
    else pst_rec_null(r, "mmap_threshold_bytes");
    if (st.trim_threshold >= 0) pst_rec_int(r, "trim_threshold_bytes", st.trim_threshold);
    else pst_rec_null(r, "trim_threshold_bytes");
    pst_rec_int(r, "probe_bytes", (long long)probe_bytes);
    pst_rec_bool(r, "probe_mmapped", mapped);
    pst_rec_str(r, "preloaded", preloaded_allocator());
    pst_rec_obj_end(r);
}

void pst_alloc_state_release(void)
{
    free(st.probe);
    st.probe = NULL;
}
