/* Which instruction set a math library's chosen kernels use, against the best this CPU has: a
 * distribution's OpenBLAS or BLIS that predates the CPU runs SSE3 kernels on an AVX-512 one
 * (OpenBLAS's Prescott core, BLIS's generic configuration), several times slower, and nothing
 * else says so.  Names map to levels through tables; the run header records the levels and the
 * libraries that lag (mathlibs.c), the model's summary says it in one line. */
#ifndef PST_MODEL_KERNEL_ISA_H
#define PST_MODEL_KERNEL_ISA_H

#include <stdbool.h>
#include <stddef.h>

/* Oldest first: a level uses every one before it.  sse3 stands for the SSE family after SSE2
 * (SSSE3, SSE4 kernels are 128-bit too); avx2 means AVX2 with FMA. */
typedef enum {
    PST_ISA_UNKNOWN = -1,
    PST_ISA_GENERIC,
    PST_ISA_SSE2,
    PST_ISA_SSE3,
    PST_ISA_AVX,
    PST_ISA_AVX2,
    PST_ISA_AVX512,
    PST_NISA
} pst_isa;

/* "generic", "sse2", "sse3", "avx", "avx2", "avx512"; NULL for PST_ISA_UNKNOWN. */
const char *pst_isa_name(pst_isa isa);

/* The level of OpenBLAS's core (openblas_get_corename: "Prescott", "Haswell", "SkylakeX", ...;
 * a static build's upper-case target names as well), of BLIS's configuration (bli_arch_string:
 * "haswell", "zen3", "skx", "generic", ...) and of the best of FFTW's SIMD sets ("sse2", "avx",
 * "avx2", "avx512", ...).  PST_ISA_UNKNOWN for a name the tables do not hold (a newer core, a
 * non-x86 one) or NULL. */
pst_isa pst_isa_of_openblas_core(const char *core);
pst_isa pst_isa_of_blis_arch(const char *arch);
pst_isa pst_isa_of_fftw_simd(const char *const sets[], size_t n);

/* This CPU's best level by the compiler's CPU check (__builtin_cpu_supports); PST_ISA_UNKNOWN off x86. */
pst_isa pst_cpu_isa(void);

/* The kernels run an older level than the CPU has (both known). */
bool pst_isa_behind(pst_isa kernels, pst_isa cpu);

/* The libraries whose kernels lag the CPU, in one line with what to do: "OpenBLAS core Prescott
 * (sse3), BLIS generic (generic): older kernels than this avx2 CPU runs; use ...".  openblas_core, blis_arch may be
 * NULL (not loaded). Writes "" and returns false when none lags. */
bool pst_blas_behind_line(char *line, size_t size, const char *openblas_core, const char *blis_arch, pst_isa cpu);

#endif
