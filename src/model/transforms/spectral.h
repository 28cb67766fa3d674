/* Layout of triangular-truncation spectral coefficients for a list of zonal wavenumbers.
 *
 * For each local wavenumber m (any subset of 0..M, so a processor column can own part of
 * them) the coefficients n = m..M are stored split by parity: first the n - m even ones
 * (k = 0.., n = m + 2k), then the n - m odd ones (n = m + 1 + 2k).  This is the order the
 * even/odd Legendre transform produces them in.  A spectral array holds, per coefficient,
 * `ncols` doubles: fields x levels x (re, im), so one dgemm covers every field and level. */
#ifndef PST_MODEL_SPECTRAL_H
#define PST_MODEL_SPECTRAL_H

#include <stddef.h>

typedef struct pst_spec_layout {
    int M;            /* truncation */
    int nm;           /* local wavenumbers */
    int *m;           /* their values [nm] */
    int *nk[2];       /* coefficients per parity [nm] */
    size_t *off;      /* first coefficient of local wavenumber i [nm + 1] */
    size_t ncoef;     /* total local coefficients */
} pst_spec_layout;

/* Every wavenumber 0..M (the serial layout). */
void pst_spec_layout_full(pst_spec_layout *s, int M);
/* The listed wavenumbers, each in 0..M, in the given order. */
void pst_spec_layout_init(pst_spec_layout *s, int M, const int *ms, int nm);
void pst_spec_layout_free(pst_spec_layout *s);

/* Coefficient index of (local wavenumber i, degree n); n in m..M. */
size_t pst_spec_index(const pst_spec_layout *s, int i, int n);
/* First coefficient of parity block par (0: n - m even) of local wavenumber i. */
static inline size_t pst_spec_block(const pst_spec_layout *s, int i, int par)
{
    return s->off[i] + (par ? (size_t)s->nk[0][i] : 0);
}
/* Index of (m, n) in the full layout (every wavenumber 0..M in order) of truncation M. */
static inline size_t pst_spec_full_index(int M, int m, int n)
{
    size_t off = (size_t)m * (M + 1) - (size_t)m * (m - 1) / 2;
    int d = n - m;
    return off + ((d & 1) ? (size_t)((M - m) / 2 + 1) : 0) + (size_t)(d >> 1);
}
/* Total coefficients of truncation M: (M+1)(M+2)/2. */
static inline size_t pst_spec_count(int M) { return (size_t)(M + 1) * (size_t)(M + 2) / 2; }

#endif
