/* The compiler that built this binary, named from its own predefined macros.  Intel's and
 * clang-based compilers also define __GNUC__ (and Intel's __clang__), so the tests run from the
 * most specific down. */
#ifndef PST_CORE_COMPILER_H
#define PST_CORE_COMPILER_H

#define PST_STRINGIFY_(x) #x
#define PST_STRINGIFY(x) PST_STRINGIFY_(x)

#if defined(__INTEL_LLVM_COMPILER)
#define PST_COMPILER "icx " __VERSION__
#elif defined(__NVCOMPILER)
#define PST_COMPILER "nvc " PST_STRINGIFY(__NVCOMPILER_MAJOR__) "." PST_STRINGIFY(__NVCOMPILER_MINOR__)
#elif defined(__clang__)
#define PST_COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define PST_COMPILER "gcc " __VERSION__
#else
#define PST_COMPILER "unknown C compiler"
#endif

#endif
