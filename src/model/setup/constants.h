/* Physical constants of the shallow water model (Williamson et al. 1992, as in NCAR STSWM). */
#ifndef PST_MODEL_CONSTANTS_H
#define PST_MODEL_CONSTANTS_H

#define PST_EARTH_RADIUS_M 6.37122e6   /* a */
#define PST_EARTH_OMEGA 7.292e-5       /* Ω, s⁻¹ */
#define PST_GRAVITY 9.80616            /* g, m s⁻² */
#define PST_DAY_S 86400.0
#define PST_PI 3.14159265358979323846

#endif
