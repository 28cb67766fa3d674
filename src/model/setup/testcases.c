#include "model/setup/testcases.h"

#include "model/setup/constants.h"

#include <math.h>

static const double A = PST_EARTH_RADIUS_M, OMEGA = PST_EARTH_OMEGA, G = PST_GRAVITY, PI = PST_PI;

bool pst_case_known(int id) { return id == 1 || id == 2 || id == 5 || id == 6; }
bool pst_case_analytic(int id) { return id == 1 || id == 2; }
bool pst_case_rotated(int id) { return id == 1 || id == 2; }

double pst_case_default_days(int id)
{
    switch (id) {
    case 1: return 12;
    case 5: return 15;
    case 6: return 14;
    default: return 5;
    }
}

/* Solid-body rotation about the axis (−sinα, 0, cosα) with equatorial speed u0 (cases 1, 2). */
static void solid_body(double u0, double alpha, double lambda, double theta, double *u, double *v)
{
    *u = u0 * (cos(theta) * cos(alpha) + cos(lambda) * sin(theta) * sin(alpha));
    *v = -u0 * sin(lambda) * sin(alpha);
}

/* Case 1: the bell centre starts at (3π/2, 0) and is carried round the rotation axis. */
static double cosine_bell(double alpha, double lambda, double theta, double t_s)
{
    const double u0 = 2 * PI * A / (12 * PST_DAY_S), h0 = 1000.0, R = A / 3;
    double c[3] = {cos(0.0) * cos(1.5 * PI), cos(0.0) * sin(1.5 * PI), sin(0.0)};
    double k[3] = {-sin(alpha), 0.0, cos(alpha)}, phi = u0 * t_s / A;
    double kxc[3] = {k[1] * c[2] - k[2] * c[1], k[2] * c[0] - k[0] * c[2], k[0] * c[1] - k[1] * c[0]};
    double kc = k[0] * c[0] + k[1] * c[1] + k[2] * c[2], x[3];
    for (int i = 0; i < 3; i++) c[i] = c[i] * cos(phi) + kxc[i] * sin(phi) + k[i] * kc * (1 - cos(phi));
    x[0] = cos(theta) * cos(lambda);
    x[1] = cos(theta) * sin(lambda);
    x[2] = sin(theta);
    double dot = fmax(-1.0, fmin(1.0, x[0] * c[0] + x[1] * c[1] + x[2] * c[2]));
    double r = A * acos(dot);
    return r < R ? 0.5 * h0 * (1 + cos(PI * r / R)) : 0.0;
}

static pst_case_point rossby_haurwitz(double lambda, double theta)
{
    const double w = 7.848e-6, K = 7.848e-6, R = 4, h0 = 8000.0;
    double c = cos(theta), s = sin(theta), cR = pow(c, R);
    double Ath = 0.5 * w * (2 * OMEGA + w) * c * c +
                 0.25 * K * K * cR * cR * ((R + 1) * c * c + (2 * R * R - R - 2) - 2 * R * R / (c * c));
    double Bth = 2 * (OMEGA + w) * K / ((R + 1) * (R + 2)) * cR * ((R * R + 2 * R + 2) - (R + 1) * (R + 1) * c * c);
    double Cth = 0.25 * K * K * cR * cR * ((R + 1) * c * c - (R + 2));
    pst_case_point p;
    p.u = A * w * c + A * K * pow(c, R - 1) * (R * s * s - c * c) * cos(R * lambda);
    p.v = -A * K * R * pow(c, R - 1) * s * sin(R * lambda);
    p.h = h0 + A * A / G * (Ath + Bth * cos(R * lambda) + Cth * cos(2 * R * lambda));
    p.hs = 0;
    return p;
}

pst_case_point pst_case_eval(int id, double alpha, double lambda, double theta, double t_s)
{
    pst_case_point p = {0, 0, 0, 0};
    switch (id) {
    case 1:
        solid_body(2 * PI * A / (12 * PST_DAY_S), alpha, lambda, theta, &p.u, &p.v);
        p.h = cosine_bell(alpha, lambda, theta, t_s);
        break;
    case 2: {
        const double u0 = 2 * PI * A / (12 * PST_DAY_S), gh0 = 2.94e4;
        double z = -cos(lambda) * cos(theta) * sin(alpha) + sin(theta) * cos(alpha);
        solid_body(u0, alpha, lambda, theta, &p.u, &p.v);
        p.h = (gh0 - (A * OMEGA * u0 + 0.5 * u0 * u0) * z * z) / G;
        break;
    }
    case 5: {
        const double u0 = 20.0, h0 = 5960.0, hs0 = 2000.0, R = PI / 9, lc = 1.5 * PI, tc = PI / 6;
        double dl = lambda - lc, dt = theta - tc, r = fmin(R, sqrt(dl * dl + dt * dt));
        solid_body(u0, 0.0, lambda, theta, &p.u, &p.v);
        p.h = h0 - (A * OMEGA * u0 + 0.5 * u0 * u0) * sin(theta) * sin(theta) / G;
        p.hs = hs0 * (1 - r / R);
        break;
    }
    case 6: p = rossby_haurwitz(lambda, theta); break;
    }
    return p;
}

double pst_case_coriolis(int id, double alpha, double lambda, double theta)
{
    double al = pst_case_rotated(id) ? alpha : 0.0;
    return 2 * OMEGA * (-cos(lambda) * cos(theta) * sin(al) + sin(theta) * cos(al));
}
