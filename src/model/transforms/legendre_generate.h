/* The recurrence's generation of one wavenumber's P̄ for a block of latitude pairs (legendre.h:
 * the recurrence kernel), as static inline code: each translation unit that includes it compiles
 * it for its own instruction set (legendre.c for the loader's choice, legendre_isa_*.c for one
 * forced path each). */
#ifndef PST_MODEL_LEGENDRE_GENERATE_H
#define PST_MODEL_LEGENDRE_GENERATE_H

#include "model/transforms/legendre.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* Pairs are padded to groups of PST_LEG_LANES (one AVX-512 vector, two AVX2 ones) and generated
 * PST_LEG_WIDE at a time where they can be: the recurrence is a chain of dependent steps, so
 * several independent vectors in flight hide its latency. */
enum { PST_LEG_RESCALE_BITS = 400, PST_LEG_LANES = 8, PST_LEG_WIDE = 32 };

/* Rows of a generated block are whole groups of PST_LEG_LANES pairs (the last group padded). */
static inline size_t pst_leg_padded(size_t pairs)
{
    return (pairs + PST_LEG_LANES - 1) / PST_LEG_LANES * PST_LEG_LANES;
}

static inline double pst_leg_eps(int n, int m) { return sqrt(((double)n * n - (double)m * m) / (4.0 * n * n - 1.0)); }

/* One group of lanes pairs: their recurrences side by side in registers (the loop over lanes
 * vectorised), each degree's values stored to its row of the block (stride ld). */
static inline __attribute__((always_inline)) void pst_leg_generate_lanes(int lanes, int m, int M1, const double *alpha,
                                                                         const double *beta, const double *mu,
                                                                         const double *s, const double *sj,
                                                                         double *row0, double *row1, size_t ld)
{
    double p0[PST_LEG_WIDE], p1[PST_LEG_WIDE], steps[PST_LEG_WIDE], x[PST_LEG_WIDE];
    const double e1 = pst_leg_eps(m + 1, m);
#pragma omp simd
    for (int l = 0; l < lanes; l++) {
        const double scale = sj[l] < 0.5 ? 1.0 : sj[l] < 1.5 ? 0x1p-400 : 0.0;
        x[l] = mu[l];
        p0[l] = s[l];
        p1[l] = x[l] * s[l] / e1;
        steps[l] = sj[l];
        row0[l] = p0[l] * scale;
        if (M1 > m) row1[l] = p1[l] * scale;
    }
    for (int n = m + 2; n <= M1; n++) {
        const double a = alpha[n], b = beta[n];
        double *out = ((n - m) & 1 ? row1 : row0) + (size_t)((n - m) >> 1) * ld;
#pragma omp simd
        for (int l = 0; l < lanes; l++) {
            const double p2 = (x[l] * p1[l] - b * p0[l]) / a;
            const bool rescale = fabs(p2) > 0x1p400 && steps[l] > 0.5;
            const double f = rescale ? 0x1p-400 : 1.0;
            p0[l] = p1[l] * f;
            p1[l] = p2 * f;
            steps[l] -= rescale ? 1.0 : 0.0;
            out[l] = p1[l] * (steps[l] < 0.5 ? 1.0 : steps[l] < 1.5 ? 0x1p-400 : 0.0);
        }
    }
}

/* P̄ of the P̄-only degrees m..M+1 of wavenumber i for pairs [pair0, pair0 + pairs) into the
 * block at row0 (parity 0, [nk_ext(0)][ld]) and row1 (parity 1), ld = pst_leg_padded(pairs). */
static inline __attribute__((always_inline)) void pst_leg_generate_block(const pst_legendre *L, int i, int pair0,
                                                                         int pairs, double *row0, double *row1)
{
    const pst_spec_layout *t = &L->ext;
    const int m = t->m[i];
    const size_t ld = pst_leg_padded((size_t)pairs), np = pst_leg_padded((size_t)L->npairs);
    const double *alpha = L->alpha + t->off[i] - m, *beta = L->beta + t->off[i] - m;
    for (size_t l0 = 0; l0 < (size_t)pairs;) {
        const size_t at = (size_t)i * np + (size_t)pair0 + l0;
        const double *mu = L->mu_lanes + pair0 + l0;
        if ((size_t)pairs - l0 >= PST_LEG_WIDE) {
            pst_leg_generate_lanes(PST_LEG_WIDE, m, t->M, alpha, beta, mu, L->start + at, L->start_j + at, row0 + l0,
                                   row1 + l0, ld);
            l0 += PST_LEG_WIDE;
        } else {
            pst_leg_generate_lanes(PST_LEG_LANES, m, t->M, alpha, beta, mu, L->start + at, L->start_j + at, row0 + l0,
                                   row1 + l0, ld);
            l0 += PST_LEG_LANES;
        }
    }
}

#endif
