#include "model/checksum.h"

#include "model/transforms/spectral.h"

#include <string.h>

uint64_t pst_fnv1a64(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    for (size_t k = 0; k < n; k++) {
        h ^= p[k];
        h *= 0x100000001b3ULL; /* the 64-bit FNV prime */
    }
    return h;
}

/* One double's IEEE bytes, least significant first whatever the host's byte order. */
static uint64_t digest_double(uint64_t h, double x)
{
    if (x == 0) x = 0; /* -0.0 -> +0.0 */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    unsigned char le[8];
    for (int k = 0; k < 8; k++) le[k] = (unsigned char)(bits >> (8 * k));
    return pst_fnv1a64(h, le, sizeof le);
}

uint64_t pst_spec_digest(uint64_t h, int M, const double *coef)
{
    for (int m = 0; m <= M; m++)
        for (int n = m; n <= M; n++) {
            const double *c = coef + 2 * pst_spec_full_index(M, m, n);
            h = digest_double(digest_double(h, c[0]), c[1]);
        }
    return h;
}
