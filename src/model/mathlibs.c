#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "model/mathlibs.h"

#include "core/record.h"
#include "model/blas.h"
#include "run/context.h"

#include <cblas.h>
#include <dlfcn.h>
#include <fftw3.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

int pst_fftw_simd(const char *sets[], size_t max)
{
    /* "fftw-3.3.10-sse2-avx": the words after the version are what the build enabled, SIMD sets
     * (sse2, avx, avx2, avx2_128, avx512, avx_128_fma, kcvi, altivec, vsx, neon) and fma. */
    static char words[128];
    snprintf(words, sizeof words, "%s", fftw_version);
    size_t n = 0;
    bool named = false, checked = false;
    char *save = NULL;
    int k = 0;
    for (char *w = strtok_r(words, "-", &save); w; w = strtok_r(NULL, "-", &save)) {
        if (k++ < 2 || !strcmp(w, "fma")) continue; /* "fftw", the version; fma is an arithmetic, not a set */
        named = true;
        char symbol[64];
        snprintf(symbol, sizeof symbol, "fftw_have_simd_%s", w);
        int (*have)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, symbol);
        if (!have) continue;
        checked = true;
        if (have() && n < max) sets[n++] = w;
    }
    return named && !checked ? -1 : (int)n;
}

static void rec_math_libraries(pst_rec *r, const pst_ctx *c, void *arg)
{
    (void)c;
    (void)arg;
    pst_rec_obj_begin(r, "math_libraries");
    pst_rec_str(r, "openblas_core", openblas_get_corename());
    pst_rec_str(r, "openblas_config", openblas_get_config());
    pst_rec_str(r, "blis_version", pst_blis_version());
    pst_rec_str(r, "blis_arch", pst_blis_arch());
    pst_rec_str(r, "fftw_version", fftw_version);
    const char *sets[16];
    int n = pst_fftw_simd(sets, sizeof sets / sizeof *sets);
    if (n < 0) pst_rec_null(r, "fftw_simd");
    else pst_rec_strs(r, "fftw_simd", sets, (size_t)n);
    pst_rec_obj_end(r);
}

void pst_math_libraries_setup(pst_ctx *ctx) { pst_ctx_add_header(ctx, rec_math_libraries, NULL); }
