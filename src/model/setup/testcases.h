/* Williamson et al. (1992) test cases for the shallow water equations on the sphere:
 * 1 cosine-bell advection, 2 steady nonlinear zonal geostrophic flow (rotated by α),
 * 5 zonal flow over an isolated mountain, 6 Rossby–Haurwitz wave of wavenumber 4. */
#ifndef PST_MODEL_TESTCASES_H
#define PST_MODEL_TESTCASES_H

#include <stdbool.h>

typedef struct pst_case_point {
    double u, v;   /* wind, m/s */
    double h;      /* free-surface height, m (case 1: the advected height) */
    double hs;     /* surface (mountain) height, m */
} pst_case_point;

/* Is `id` a supported case; its conventional length in days (1: 12, 2: 5, 5: 15, 6: 14). */
bool pst_case_known(int id);
double pst_case_default_days(int id);
/* Cases with an analytic solution at every time (1, 2); the rotation angle applies to 1, 2. */
bool pst_case_analytic(int id);
bool pst_case_rotated(int id);

/* The state at longitude lambda, latitude theta (radians) and time t_s: the initial state
 * (t = 0) or, for analytic cases, the exact solution. */
pst_case_point pst_case_eval(int id, double alpha, double lambda, double theta, double t_s);
/* Coriolis parameter f = 2Ω(−cosλ cosθ sinα + sinθ cosα) (α = 0 for cases 5, 6). */
double pst_case_coriolis(int id, double alpha, double lambda, double theta);

#endif
