/* The state checksums (model/checksum.h): FNV-1a 64's published test vectors, the canonical
 * (m, n) order (a state's digest is the hash of its coefficients listed m by m, n by n, whatever
 * the full layout's parity split), -0.0 hashed as +0.0, and one changed bit changing the digest. */
#include "model/checksum.h"
#include "model/transforms/spectral.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* The digest written out by hand: each coefficient's bytes, least significant first, in (m, n) order. */
static uint64_t by_hand(int M, const double *coef)
{
    uint64_t h = PST_FNV1A64_OFFSET;
    for (int m = 0; m <= M; m++)
        for (int n = m; n <= M; n++)
            for (int q = 0; q < 2; q++) {
                uint64_t bits;
                memcpy(&bits, &coef[2 * pst_spec_full_index(M, m, n) + q], 8);
                for (int k = 0; k < 8; k++) {
                    unsigned char byte = (unsigned char)(bits >> (8 * k));
                    h = pst_fnv1a64(h, &byte, 1);
                }
            }
    return h;
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    /* Fowler, Noll and Vo's test vectors (isthe.com/chongo/tech/comp/fnv). */
    CHECK(pst_fnv1a64(PST_FNV1A64_OFFSET, "", 0) == 0xcbf29ce484222325ULL);
    CHECK(pst_fnv1a64(PST_FNV1A64_OFFSET, "a", 1) == 0xaf63dc4c8601ec8cULL);
    CHECK(pst_fnv1a64(PST_FNV1A64_OFFSET, "foobar", 6) == 0x85944171f73967e8ULL);

    const int M = 21;
    const size_t n = 2 * pst_spec_count(M);
    double *coef = malloc(n * sizeof *coef);
    for (size_t k = 0; k < n; k++) coef[k] = 1.0 / (double)(k + 3) - 0.1;
    const uint64_t digest = pst_spec_digest(PST_FNV1A64_OFFSET, M, coef);
    CHECK(digest == by_hand(M, coef));
    /* The order is (m, n), not the layout's: the full layout holds m = 0's odd n after its even n. */
    uint64_t layout_order = PST_FNV1A64_OFFSET;
    for (size_t k = 0; k < n; k++) layout_order = pst_fnv1a64(layout_order, &coef[k], 8);
    CHECK(layout_order != digest);

    coef[7] = 0.0;
    const uint64_t plus_zero = pst_spec_digest(PST_FNV1A64_OFFSET, M, coef);
    coef[7] = -0.0;
    CHECK(pst_spec_digest(PST_FNV1A64_OFFSET, M, coef) == plus_zero);
    uint64_t bits;
    memcpy(&bits, &coef[n - 1], 8);
    bits ^= 1; /* the last coefficient's least significant bit */
    memcpy(&coef[n - 1], &bits, 8);
    CHECK(pst_spec_digest(PST_FNV1A64_OFFSET, M, coef) != plus_zero);
    free(coef);
    CHECK_MAIN_END();
}
