/* Checked 64-bit arithmetic for sizes, counts and their products: every computation that a
 * command line or an input file can push past the range goes through these, and the caller
 * turns false into an exit-2 message naming the value. */
#ifndef PST_CHECKED_H
#define PST_CHECKED_H

#include <stdbool.h>
#include <stddef.h>

/* *out = a + b, a * b; false (and *out unspecified) on overflow. */
static inline bool pst_add_ll(long long a, long long b, long long *out) { return !__builtin_add_overflow(a, b, out); }
static inline bool pst_mul_ll(long long a, long long b, long long *out) { return !__builtin_mul_overflow(a, b, out); }
static inline bool pst_mul_size(size_t a, size_t b, size_t *out) { return !__builtin_mul_overflow(a, b, out); }

#endif
