/* The kernels-against-CPU check (model/libs/library_isa.h): the tables against known library names,
 * the comparison on planted (kernels, CPU) pairs, and the warning line, so the path that warns
 * is tested on any host without changing OPENBLAS_CORETYPE. */
#include "check.h"
#include "model/libs/library_isa.h"

#include <string.h>

static void check_tables(void)
{
    static const struct {
        const char *name;
        pst_isa isa;
    } openblas[] = {{"Prescott", PST_ISA_SSE3},   {"Nehalem", PST_ISA_SSE3},  {"Sandybridge", PST_ISA_AVX},
                    {"Haswell", PST_ISA_AVX2},    {"Zen", PST_ISA_AVX2},      {"SkylakeX", PST_ISA_AVX512},
                    {"Cooperlake", PST_ISA_AVX512}, {"HASWELL", PST_ISA_AVX2}, {"PRESCOTT", PST_ISA_SSE3},
                    {"armv8", PST_ISA_UNKNOWN},   {"", PST_ISA_UNKNOWN}},
      blis[] = {{"generic", PST_ISA_GENERIC}, {"penryn", PST_ISA_SSE3}, {"sandybridge", PST_ISA_AVX},
                {"haswell", PST_ISA_AVX2},    {"zen3", PST_ISA_AVX2},   {"skx", PST_ISA_AVX512},
                {"zen4", PST_ISA_AVX512},     {"a64fx", PST_ISA_UNKNOWN}};
    for (size_t k = 0; k < sizeof openblas / sizeof *openblas; k++)
        CHECK(pst_isa_of_openblas_core(openblas[k].name) == openblas[k].isa);
    for (size_t k = 0; k < sizeof blis / sizeof *blis; k++) CHECK(pst_isa_of_blis_arch(blis[k].name) == blis[k].isa);
    CHECK(pst_isa_of_openblas_core(NULL) == PST_ISA_UNKNOWN);
    CHECK(pst_isa_of_blis_arch(NULL) == PST_ISA_UNKNOWN);
    const char *debian[] = {"sse2", "avx"}, *full[] = {"sse2", "avx", "avx2", "avx512", "avx_128_fma"};
    CHECK(pst_isa_of_fftw_simd(debian, 2) == PST_ISA_AVX);
    CHECK(pst_isa_of_fftw_simd(full, 5) == PST_ISA_AVX512);
    CHECK(pst_isa_of_fftw_simd(NULL, 0) == PST_ISA_GENERIC);
    CHECK(!strcmp(pst_isa_name(PST_ISA_AVX512), "avx512") && !strcmp(pst_isa_name(PST_ISA_SSE3), "sse3"));
    CHECK(pst_isa_name(PST_ISA_UNKNOWN) == NULL);
}

static void check_comparison(void)
{
    CHECK(pst_isa_behind(PST_ISA_SSE3, PST_ISA_AVX512));   /* Prescott on Sapphire Rapids */
    CHECK(pst_isa_behind(PST_ISA_SSE3, PST_ISA_AVX2));     /* Prescott on a Zen */
    CHECK(pst_isa_behind(PST_ISA_AVX2, PST_ISA_AVX512));   /* haswell on an AVX-512 CPU */
    CHECK(pst_isa_behind(PST_ISA_GENERIC, PST_ISA_AVX2));  /* BLIS generic */
    CHECK(!pst_isa_behind(PST_ISA_AVX2, PST_ISA_AVX2));
    CHECK(!pst_isa_behind(PST_ISA_AVX512, PST_ISA_AVX2));  /* forced wider than the CPU: not a lag */
    CHECK(!pst_isa_behind(PST_ISA_UNKNOWN, PST_ISA_AVX512));
    CHECK(!pst_isa_behind(PST_ISA_SSE3, PST_ISA_UNKNOWN));
}

static void check_line(void)
{
    char line[512];
    CHECK(pst_blas_behind_line(line, sizeof line, "Prescott", "haswell", PST_ISA_AVX512));
    CHECK(strstr(line, "OpenBLAS core Prescott (sse3), BLIS haswell (avx2): older kernels than this avx512 CPU runs") ==
          line);
    CHECK(strstr(line, "OpenBLAS or BLIS") && strstr(line, "OPENBLAS_CORETYPE") && strstr(line, "docs/install.md"));
    CHECK(pst_blas_behind_line(line, sizeof line, "Zen", "generic", PST_ISA_AVX2));
    CHECK(strstr(line, "BLIS generic (generic): older kernels than this avx2 CPU runs") == line &&
          !strstr(line, "OpenBLAS"));
    CHECK(!pst_blas_behind_line(line, sizeof line, "Haswell", NULL, PST_ISA_AVX2) && !*line);
    CHECK(!pst_blas_behind_line(line, sizeof line, "SkylakeX", "skx", PST_ISA_AVX512));
    CHECK(!pst_blas_behind_line(line, sizeof line, "Prescott", "generic", PST_ISA_UNKNOWN)); /* off x86 */
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    check_tables();
    check_comparison();
    check_line();
    CHECK(pst_cpu_isa() >= PST_ISA_SSE2 || pst_cpu_isa() == PST_ISA_UNKNOWN);
    CHECK_MAIN_END();
}
