/* The register-blocked Legendre method for x86-64's baseline (SSE2) (legendre_isa.h), compiled
 * with its flags by CMakeLists.txt. */
#define PST_LEG_PATH baseline
#define PST_LEG_VBYTES 16
#define PST_LEG_TILE_R 4
#define PST_LEG_TILE_CV 3
#include "model/transforms/legendre_isa_kernel.h"
