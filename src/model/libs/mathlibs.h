/* What the math libraries run on this CPU, for the run header of the subcommands that call them
 * (model, kernel): OpenBLAS's core, BLIS's configuration, the SIMD codelet sets FFTW's planner
 * chooses among.  A verdict about the Legendre or FFT stage can then be tied to the kernels that
 * ran it: the same CPU model runs other kernels under another library build or BLIS_ARCH_TYPE. */
#ifndef PST_MODEL_MATHLIBS_H
#define PST_MODEL_MATHLIBS_H

#include <stdbool.h>
#include <stddef.h>

struct pst_ctx;

/* Before pst_ctx_start: the run header gets its math_libraries field (run_schema.c). */
void pst_math_libraries_setup(struct pst_ctx *ctx);

/* The line the model's summary prints when OpenBLAS or BLIS runs older kernels than this CPU
 * has (library_isa.h: pst_blas_behind_line); false and "" when none does. */
bool pst_math_libraries_behind(char *line, size_t size);

/* Prints that line as the summaries of model and kernel show it ("  ! kernels ..."), or nothing
 * when no library is behind the CPU. */
void pst_math_libraries_print_behind(void);

/* The SIMD sets of fftw_version's suffixes that this CPU runs, by FFTW's own check
 * (fftw_have_simd_<set>), as static strings into sets; returns how many, or -1 when FFTW names
 * sets but checks none (a build that does not export its checks). */
int pst_fftw_simd(const char *sets[], size_t max);

#endif
