#include "model/libs/library_isa.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const isa_names[PST_NISA] = {"generic", "sse2", "sse3", "avx", "avx2", "avx512"};

const char *pst_isa_name(pst_isa isa) { return isa > PST_ISA_UNKNOWN && isa < PST_NISA ? isa_names[isa] : NULL; }

typedef struct {
    const char *name;
    pst_isa isa;
} named_isa;

/* OpenBLAS's x86 cores (driver/others/dynamic.c's corename, and the TARGET names of a static
 * build), by the widest vectors their double-precision kernels use: Zen runs Haswell's kernels,
 * Cooperlake and SapphireRapids SkylakeX's, the AMD cores before Zen AVX (FMA4/FMA3) ones. */
static const named_isa openblas_cores[] = {
    {"Katmai", PST_ISA_GENERIC},   {"Coppermine", PST_ISA_GENERIC}, {"Athlon", PST_ISA_GENERIC},
    {"Northwood", PST_ISA_SSE2},   {"Banias", PST_ISA_SSE2},        {"Opteron", PST_ISA_SSE2},
    {"Prescott", PST_ISA_SSE3},    {"Opteron_SSE3", PST_ISA_SSE3},  {"Core2", PST_ISA_SSE3},
    {"Penryn", PST_ISA_SSE3},      {"Dunnington", PST_ISA_SSE3},    {"Nehalem", PST_ISA_SSE3},
    {"Atom", PST_ISA_SSE3},        {"Barcelona", PST_ISA_SSE3},     {"Nano", PST_ISA_SSE3},
    {"Bobcat", PST_ISA_SSE3},      {"Sandybridge", PST_ISA_AVX},    {"Bulldozer", PST_ISA_AVX},
    {"Piledriver", PST_ISA_AVX},   {"Steamroller", PST_ISA_AVX},    {"Excavator", PST_ISA_AVX},
    {"Haswell", PST_ISA_AVX2},     {"Zen", PST_ISA_AVX2},           {"SkylakeX", PST_ISA_AVX512},
    {"Cooperlake", PST_ISA_AVX512}, {"SapphireRapids", PST_ISA_AVX512},
};

/* BLIS's x86 configurations (bli_arch_string); generic is its portable C, no vector kernels. */
static const named_isa blis_archs[] = {
    {"generic", PST_ISA_GENERIC}, {"penryn", PST_ISA_SSE3},   {"sandybridge", PST_ISA_AVX},
    {"bulldozer", PST_ISA_AVX},   {"piledriver", PST_ISA_AVX}, {"steamroller", PST_ISA_AVX},
    {"excavator", PST_ISA_AVX},   {"haswell", PST_ISA_AVX2},   {"zen", PST_ISA_AVX2},
    {"zen2", PST_ISA_AVX2},       {"zen3", PST_ISA_AVX2},      {"zen4", PST_ISA_AVX512},
    {"skx", PST_ISA_AVX512},      {"knl", PST_ISA_AVX512},
};

/* FFTW's SIMD codelet sets (its configure's --enable-<set>); avx_128_fma and avx2_128 are
 * 128-bit variants of their level. */
static const named_isa fftw_sets[] = {
    {"sse2", PST_ISA_SSE2}, {"avx", PST_ISA_AVX},   {"avx_128_fma", PST_ISA_AVX}, {"avx2", PST_ISA_AVX2},
    {"avx2_128", PST_ISA_AVX2}, {"avx512", PST_ISA_AVX512},
};

#define LOOKUP(table, name) lookup(table, sizeof table / sizeof *table, name)

static pst_isa lookup(const named_isa *table, size_t n, const char *name)
{
    for (size_t k = 0; name && k < n; k++)
        if (!strcasecmp(table[k].name, name)) return table[k].isa;
    return PST_ISA_UNKNOWN;
}

pst_isa pst_isa_of_openblas_core(const char *core) { return LOOKUP(openblas_cores, core); }

pst_isa pst_isa_of_blis_arch(const char *arch) { return LOOKUP(blis_archs, arch); }

pst_isa pst_isa_of_fftw_simd(const char *const sets[], size_t n)
{
    pst_isa best = PST_ISA_GENERIC; /* no set: scalar codelets */
    for (size_t k = 0; k < n; k++) {
        pst_isa isa = LOOKUP(fftw_sets, sets[k]);
        if (isa > best) best = isa;
    }
    return best;
}

pst_isa pst_cpu_isa(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    /* Best first (__builtin_cpu_supports takes literals only, so the row holds the answer);
     * AVX-512 and AVX count only where the OS saves their registers, which the check includes. */
    const struct {
        bool has;
        pst_isa isa;
    } levels[] = {
        {__builtin_cpu_supports("avx512f"), PST_ISA_AVX512},
        {__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"), PST_ISA_AVX2},
        {__builtin_cpu_supports("avx"), PST_ISA_AVX},
        {__builtin_cpu_supports("sse3"), PST_ISA_SSE3},
        {__builtin_cpu_supports("sse2"), PST_ISA_SSE2},
    };
    for (size_t k = 0; k < sizeof levels / sizeof *levels; k++)
        if (levels[k].has) return levels[k].isa;
    return PST_ISA_GENERIC;
#else
    return PST_ISA_UNKNOWN;
#endif
}

bool pst_isa_behind(pst_isa kernels, pst_isa cpu)
{
    return kernels != PST_ISA_UNKNOWN && cpu != PST_ISA_UNKNOWN && kernels < cpu;
}

bool pst_blas_behind_line(char *line, size_t size, const char *openblas_core, const char *blis_arch, pst_isa cpu)
{
    pst_isa openblas = pst_isa_of_openblas_core(openblas_core), blis = pst_isa_of_blis_arch(blis_arch);
    bool lag_openblas = pst_isa_behind(openblas, cpu), lag_blis = pst_isa_behind(blis, cpu);
    if (size) *line = '\0';
    if (!lag_openblas && !lag_blis) return false;
    char openblas_text[64] = "", blis_text[64] = "";
    /* A lag means both levels are known: the names index the table directly. */
    if (lag_openblas)
        snprintf(openblas_text, sizeof openblas_text, "OpenBLAS core %s (%s)", openblas_core, isa_names[openblas]);
    if (lag_blis) snprintf(blis_text, sizeof blis_text, "BLIS %s (%s)", blis_arch, isa_names[blis]);
    snprintf(line, size,
             "%s%s%s: older kernels than this %s CPU runs; use a site %s that knows the CPU%s "
             "(docs/install.md: check a node's libraries)",
             openblas_text, lag_openblas && lag_blis ? ", " : "", blis_text, isa_names[cpu],
             lag_openblas && lag_blis ? "OpenBLAS or BLIS" : lag_openblas ? "OpenBLAS" : "BLIS",
             lag_openblas ? " or set OPENBLAS_CORETYPE" : "");
    return true;
}
