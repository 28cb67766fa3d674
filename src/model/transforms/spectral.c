#include "model/transforms/spectral.h"
#include "core/alloc.h"

#include <stdlib.h>

void pst_spec_layout_init(pst_spec_layout *s, int M, const int *ms, int nm)
{
    s->M = M;
    s->nm = nm;
    s->m = pst_malloc((size_t)(nm ? nm : 1) * sizeof *s->m);
    s->nk[0] = pst_malloc((size_t)(nm ? nm : 1) * sizeof *s->nk[0]);
    s->nk[1] = pst_malloc((size_t)(nm ? nm : 1) * sizeof *s->nk[1]);
    s->off = pst_malloc((size_t)(nm + 1) * sizeof *s->off);
    size_t off = 0;
    for (int i = 0; i < nm; i++) {
        s->m[i] = ms[i];
        s->nk[0][i] = (M - ms[i]) / 2 + 1;
        s->nk[1][i] = (M - ms[i] + 1) / 2;
        s->off[i] = off;
        off += (size_t)(M - ms[i] + 1);
    }
    s->off[nm] = off;
    s->ncoef = off;
}

void pst_spec_layout_full(pst_spec_layout *s, int M)
{
    int *ms = pst_malloc((size_t)(M + 1) * sizeof *ms);
    for (int m = 0; m <= M; m++) ms[m] = m;
    pst_spec_layout_init(s, M, ms, M + 1);
    free(ms);
}

void pst_spec_layout_free(pst_spec_layout *s)
{
    free(s->m);
    free(s->nk[0]);
    free(s->nk[1]);
    free(s->off);
    s->m = NULL;
    s->nk[0] = s->nk[1] = NULL;
    s->off = NULL;
}

size_t pst_spec_index(const pst_spec_layout *s, int i, int n)
{
    int d = n - s->m[i];
    return pst_spec_block(s, i, d & 1) + (size_t)(d >> 1);
}
