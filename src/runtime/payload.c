#include "runtime/payload.h"

#include <string.h>

static inline uint64_t word(uint64_t seed, uint64_t i) { return seed + i * 0x9E3779B97F4A7C15ULL; }

uint64_t pst_payload_seed(int sender, long long msg, long long rep)
{
    uint64_t z = ((uint64_t)(uint32_t)sender << 40) ^ ((uint64_t)msg << 20) ^ (uint64_t)rep;
    /* splitmix64 finaliser: distinct (sender, msg, rep) give unrelated streams */
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (z ^ (z >> 31)) | 1;
}

void pst_payload_fill(void *buf, size_t bytes, uint64_t seed)
{
    size_t nw = bytes / 8;
    unsigned char *p = buf;
    for (size_t i = 0; i < nw; i++) {
        uint64_t w = word(seed, i);
        memcpy(p + 8 * i, &w, 8);
    }
    uint64_t tail = word(seed, nw);
    memcpy(p + 8 * nw, &tail, bytes - 8 * nw);
}

void pst_payload_poison(void *buf, size_t bytes) { memset(buf, 0xA5, bytes); }

size_t pst_payload_check(const void *buf, size_t bytes, uint64_t seed, size_t *first_bad)
{
    size_t nw = bytes / 8, bad = 0;
    const unsigned char *p = buf;
    *first_bad = (size_t)-1;
    for (size_t i = 0; i < nw; i++) {
        uint64_t w = word(seed, i), got;
        memcpy(&got, p + 8 * i, 8);
        if (got != w) { if (!bad) *first_bad = 8 * i; bad++; }
    }
    uint64_t tail = word(seed, nw);
    if (bytes > 8 * nw && memcmp(p + 8 * nw, &tail, bytes - 8 * nw)) { if (!bad) *first_bad = 8 * nw; bad++; }
    return bad;
}
