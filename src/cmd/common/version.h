/* pstswm --version: what this binary is and what it was built with. */
#ifndef PST_CMD_VERSION_H
#define PST_CMD_VERSION_H

#include <stdio.h>

/* The first line "pstswm VERSION (COMMIT), record schema N" (scripts and tests parse it), then
 * one "key: value" line each for the MPI flavour, the compiler, the MPI library and standard,
 * FFTW, the BLAS libraries, NetCDF and the CPU features the build targets.  Callable before or
 * after MPI_Init. */
void pst_version_print(FILE *f);

#endif
