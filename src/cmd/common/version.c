/* pstswm --version: the version and commit, then what this binary was built with, so that a
 * result can be tied to its libraries and to the CPU features its code may use.  The library
 * versions are the libraries' own answers at run time (the ones actually loaded); the CPU target
 * is the compiler's, from its predefined macros. */
#include "cmd/common/version.h"
#include "core/record.h"
#include "runtime/context.h"

#include <cblas.h>
#include <fftw3.h>
#include <mpi.h>
#include <netcdf.h>
#include <string.h>

#ifndef PST_C_COMPILER
#define PST_C_COMPILER "C compiler " __VERSION__
#endif
#ifndef PST_C_FLAGS
#define PST_C_FLAGS ""
#endif
#ifndef PST_CPU_FLAGS
#define PST_CPU_FLAGS ""
#endif

/* The x86-64 microarchitecture level (x86-64 psABI) every feature of which the compiler may use. */
#if defined(__x86_64__)
#if defined(__SSE3__) && defined(__SSSE3__) && defined(__SSE4_1__) && defined(__SSE4_2__) && defined(__POPCNT__)
#if defined(__AVX__) && defined(__AVX2__) && defined(__BMI__) && defined(__BMI2__) && defined(__F16C__) && \
    defined(__FMA__) && defined(__LZCNT__) && defined(__MOVBE__)
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512CD__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__)
#define PST_CPU_TARGET "x86-64-v4"
#else
#define PST_CPU_TARGET "x86-64-v3"
#endif
#else
#define PST_CPU_TARGET "x86-64-v2"
#endif
#else
#define PST_CPU_TARGET "x86-64 baseline (x86-64-v1)"
#endif
#elif defined(__aarch64__)
#define PST_CPU_TARGET "aarch64"
#else
#define PST_CPU_TARGET "not x86-64 or aarch64"
#endif

/* The vector extensions the compiler may emit; NULL ends the list. */
static const char *const cpu_features[] = {
#ifdef __SSE2__
    "SSE2",
#endif
#ifdef __SSE4_2__
    "SSE4.2",
#endif
#ifdef __AVX__
    "AVX",
#endif
#ifdef __AVX2__
    "AVX2",
#endif
#ifdef __FMA__
    "FMA",
#endif
#ifdef __AVX512F__
    "AVX-512F",
#endif
#ifdef __ARM_NEON
    "NEON",
#endif
#ifdef __ARM_FEATURE_SVE
    "SVE",
#endif
    NULL,
};

/* The library's version text up to its first line break, tabs as spaces ("MPICH Version:\t4.0.2"),
 * without trailing blanks or the '$' of an expanded RCS keyword (NetCDF's). */
static void print_first_line(FILE *f, const char *key, const char *text)
{
    size_t n = strcspn(text, "\r\n");
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '$')) n--;
    fprintf(f, "%s: ", key);
    for (size_t i = 0; i < n; i++) fputc(text[i] == '\t' ? ' ' : text[i], f);
    fputc('\n', f);
}

static void print_mpi(FILE *f)
{
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, version = 0, subversion = 0;
    MPI_Get_library_version(library, &len);
    library[len < (int)sizeof library ? len : (int)sizeof library - 1] = '\0';
    print_first_line(f, "MPI library", library);
    MPI_Get_version(&version, &subversion);
    fprintf(f, "MPI standard: %d.%d\n", version, subversion);
}

static void print_cpu_target(FILE *f)
{
    fprintf(f, "CPU target: %s", PST_CPU_TARGET);
    for (const char *const *p = cpu_features; *p; p++) fprintf(f, "%s%s", p == cpu_features ? ", " : " ", *p);
    fprintf(f, "\nCPU flags: %s\n", PST_CPU_FLAGS[0] ? PST_CPU_FLAGS : "none (the compiler's default target)");
}

void pst_version_print(FILE *f)
{
    fprintf(f, "pstswm %s (%s), record schema %d\n", PST_VERSION, pst_git_commit(), PST_SCHEMA_VERSION);
    fprintf(f, "MPI flavour: %s\n", PST_MPI_FLAVOUR);
    fprintf(f, "compiler: %s\n", PST_C_COMPILER);
    fprintf(f, "compile flags: %s\n", PST_C_FLAGS[0] ? PST_C_FLAGS : "none");
    print_mpi(f);
    print_first_line(f, "FFTW", fftw_version);
    print_first_line(f, "OpenBLAS", openblas_get_config());
#ifdef PST_BLIS_H_VERSION
    fprintf(f, "BLIS: %s (its blis.h at build time; the library is loaded at run time)\n", PST_BLIS_H_VERSION);
#else
    fprintf(f, "BLIS: loaded at run time if present (built without blis.h: no --blas blis-sup)\n");
#endif
    print_first_line(f, "NetCDF", nc_inq_libvers());
    print_cpu_target(f);
}
