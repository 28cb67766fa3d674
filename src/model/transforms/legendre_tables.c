/* The P̄ (and H) tables of the dgemm method (legendre.h), filled column by column. */
#include "model/transforms/legendre_impl.h"

#include "core/alloc.h"

#include <stdlib.h>

/* Tables of the degrees of pst_leg_table_layout(L): P̄ and, unless p_only, H. */
void pst_leg_tables_fill(pst_legendre *L, const double *mu_north, const double *coslat)
{
    const pst_spec_layout *t = pst_leg_table_layout(L);
    size_t n = (size_t)L->npairs * t->ncoef;
    L->table[PST_LEG_P] = pst_malloc((n ? n : 1) * sizeof *L->table[PST_LEG_P]);
    L->table[PST_LEG_H] = L->p_only ? NULL : pst_malloc((n ? n : 1) * sizeof *L->table[PST_LEG_H]);
    double *p = pst_malloc((size_t)(t->M + 2) * sizeof *p), *h = pst_malloc((size_t)(t->M + 2) * sizeof *h);
    for (int i = 0; i < t->nm; i++) {
        int m = t->m[i];
        for (int j = 0; j < L->npairs; j++) {
            pst_legendre_column(t->M, m, mu_north[j], coslat[j], p, h);
            for (int par = 0; par < 2; par++) {
                int nk = t->nk[par][i];
                double *tp = (double *)pst_leg_matrix(L, PST_LEG_P, i, par) + (size_t)j * nk;
                for (int k = 0; k < nk; k++) tp[k] = p[par + 2 * k];
                if (L->p_only) continue;
                double *th = (double *)pst_leg_matrix(L, PST_LEG_H, i, par) + (size_t)j * nk;
                for (int k = 0; k < nk; k++) th[k] = h[par + 2 * k];
            }
        }
    }
    free(p);
    free(h);
}

void pst_leg_tables_free(pst_legendre *L)
{
    free(L->table[PST_LEG_P]);
    free(L->table[PST_LEG_H]);
    L->table[PST_LEG_P] = L->table[PST_LEG_H] = NULL;
}
