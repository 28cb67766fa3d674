/* Digests of the spectral state, so two runs can be checked bit for bit (docs/model.md:
 * Reproducibility).  FNV-1a 64 (Fowler, Noll and Vo) over the IEEE 754 bytes of each coefficient,
 * least significant byte first, in the canonical order of a triangular truncation: m = 0..M,
 * n = m..M, real part then imaginary part.  The order is the truncation's, not a decomposition's
 * layout in memory, so the digest of a state gathered from any processor grid is the same as the
 * serial one's when the values are. */
#ifndef PST_MODEL_CHECKSUM_H
#define PST_MODEL_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

#define PST_FNV1A64_OFFSET 0xcbf29ce484222325ULL

/* The FNV-1a 64 hash h continued over n bytes. */
uint64_t pst_fnv1a64(uint64_t h, const void *bytes, size_t n);

/* h continued over the coefficients of truncation M held in the full layout
 * (pst_spec_full_index: [coefficient][re, im]), in (m, n) order.  -0.0 counts as +0.0: a
 * gather by summation (pst_dyn_get_level) cannot keep the sign of a zero. */
uint64_t pst_spec_digest(uint64_t h, int M, const double *coef);

#endif
