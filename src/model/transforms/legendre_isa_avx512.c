/* The register-blocked Legendre method for avx512 (legendre_isa.h), compiled
 * with its flags by CMakeLists.txt when the compiler takes them. */
#ifdef PST_LEG_HAVE_AVX512
#define PST_LEG_PATH avx512
#define PST_LEG_VBYTES 64
#define PST_LEG_TILE_R 6
#define PST_LEG_TILE_CV 4
#include "model/transforms/legendre_isa_kernel.h"
#else
typedef int pst_leg_isa_avx512_not_built; /* the compiler lacks the flags: pst_leg_isa_built says so */
#endif
