#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "model/libs/mathlibs.h"

#include "core/record.h"
#include "model/libs/blas.h"
#include "model/libs/library_isa.h"
#include "runtime/context.h"

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

/* The levels of the kernels each library runs against the CPU's, and the BLAS libraries whose
 * kernels lag it (library_isa.h). */
static void rec_library_isa(pst_rec *r, const char *const fftw_sets[], int fftw_n)
{
    pst_isa cpu = pst_cpu_isa();
    pst_isa openblas = pst_isa_of_openblas_core(openblas_get_corename()), blis = pst_isa_of_blis_arch(pst_blis_arch());
    pst_rec_str(r, "cpu_isa", pst_isa_name(cpu));
    pst_rec_str(r, "openblas_isa", pst_isa_name(openblas));
    pst_rec_str(r, "blis_isa", pst_isa_name(blis));
    pst_rec_str(r, "fftw_isa", fftw_n < 0 ? NULL : pst_isa_name(pst_isa_of_fftw_simd(fftw_sets, (size_t)fftw_n)));
    const char *behind[2];
    size_t n = 0;
    if (pst_isa_behind(openblas, cpu)) behind[n++] = "openblas";
    if (pst_isa_behind(blis, cpu)) behind[n++] = "blis";
    pst_rec_strs(r, "blas_behind_cpu", behind, n);
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
    rec_library_isa(r, sets, n);
    pst_rec_obj_end(r);
}

bool pst_math_libraries_behind(char *line, size_t size)
{
    return pst_blas_behind_line(line, size, openblas_get_corename(), pst_blis_arch(), pst_cpu_isa());
}

void pst_math_libraries_print_behind(void)
{
    char line[512];
    if (pst_math_libraries_behind(line, sizeof line)) printf("  ! kernels       %s\n", line);
}

void pst_math_libraries_setup(pst_ctx *ctx) { pst_ctx_add_header(ctx, rec_math_libraries, NULL); }
