/* The register-blocked Legendre method for avx2 (legendre_isa.h), compiled
 * with its flags by CMakeLists.txt when the compiler takes them. */
#ifdef PST_LEG_HAVE_AVX2
#define PST_LEG_PATH avx2
#define PST_LEG_VBYTES 32
#define PST_LEG_TILE_R 4
#define PST_LEG_TILE_CV 3
#include "model/transforms/legendre_isa_kernel.h"
#else
typedef int pst_leg_isa_avx2_not_built; /* the compiler lacks the flags: pst_leg_isa_built says so */
#endif
