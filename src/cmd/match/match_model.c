#include "cmd/match/match_model.h"

#include "core/alloc.h"
#include "stats/fit.h"

#include <math.h>
#include <stdlib.h>

double pst_match_failed(long long n) { return (double)n * (double)(n - 1); }

pst_match_fit pst_match_fit_model(size_t k, const long long *n, const double *iot_s, const double *rot_s, bool curved,
                                  double conf)
{
    pst_match_fit m = {.ok = false, .curved = curved, .nobs = 2 * k};
    m.l_s = m.s_s = m.q_s = m.m_s = m.r2 = NAN;
    /* Rows [1, n, (n²), 0] for IOT(n) and [1, n, (n²), n(n−1)] for ROT(n); M is the last column. */
    int p = curved ? 4 : 3;
    double *X = pst_malloc(2 * k * (size_t)p * sizeof *X + 1), *y = pst_malloc(2 * k * sizeof *y + 1);
    for (size_t i = 0; i < 2 * k; i++) {
        double nn = (double)n[i / 2], *row = &X[i * (size_t)p];
        row[0] = 1.0;
        row[1] = nn;
        if (curved) row[2] = nn * nn;
        row[p - 1] = i % 2 ? pst_match_failed(n[i / 2]) : 0.0;
        y[i] = i % 2 ? rot_s[i / 2] : iot_s[i / 2];
    }
    pst_fit f;
    if (k >= 2 && pst_lsq(2 * k, p, X, y, NULL, &f) == 0) {
        m.ok = true;
        m.l_s = f.coef[0];
        m.s_s = f.coef[1];
        m.m_s = f.coef[p - 1];
        m.r2 = f.r2;
        pst_fit_ci(&f, 0, conf, &m.l_ci[0], &m.l_ci[1]);
        pst_fit_ci(&f, 1, conf, &m.s_ci[0], &m.s_ci[1]);
        pst_fit_ci(&f, p - 1, conf, &m.m_ci[0], &m.m_ci[1]);
        if (curved) {
            m.q_s = f.coef[2];
            pst_fit_ci(&f, 2, conf, &m.q_ci[0], &m.q_ci[1]);
        } else {
            m.q_ci[0] = m.q_ci[1] = NAN;
        }
    }
    free(X);
    free(y);
    return m;
}

double pst_match_m_per_n(long long n, double iot_s, double rot_s)
{
    return n < 2 ? NAN : (rot_s - iot_s) / pst_match_failed(n);
}

static bool significant(const pst_match_fit *f) { return f->ok && (f->m_ci[0] > 0 || f->m_ci[1] < 0); }

pst_queue_verdict pst_match_verdict(const pst_match_fit *comm, const pst_match_fit *tag, double *ratio)
{
    /* The question is whether the order dependence seen with tags (usually a cost, M > 0, but
     * it can come out negative) reappears across communicators. */
    bool tag_usable = tag && significant(tag);
    double r = tag_usable && comm->ok ? comm->m_s / tag->m_s : NAN;
    if (ratio) *ratio = r;
    if (!comm->ok) return PST_QUEUES_INCONCLUSIVE;
    /* Without a significant tag M there is no scale to call the comm M "next to nothing" on. */
    if (!tag_usable) return significant(comm) && !tag ? PST_QUEUES_SHARED : PST_QUEUES_INCONCLUSIVE;
    /* comm's interval in units of the tag effect: shared needs it clear of 0, one queue per
     * communicator needs it within half the tag effect either way (a wide interval proves nothing). */
    double t = fabs(tag->m_s), sgn = tag->m_s > 0 ? 1.0 : -1.0;
    double lo = fmin(sgn * comm->m_ci[0], sgn * comm->m_ci[1]), hi = fmax(sgn * comm->m_ci[0], sgn * comm->m_ci[1]);
    if (lo > 0 && r >= 0.5) return PST_QUEUES_SHARED;
    if (hi < 0.5 * t && lo > -0.5 * t && fabs(r) < 0.2) return PST_QUEUES_PER_COMM;
    return PST_QUEUES_INCONCLUSIVE;
}

const char *pst_match_verdict_name(pst_queue_verdict v)
{
    switch (v) {
    case PST_QUEUES_PER_COMM: return "per-communicator";
    case PST_QUEUES_SHARED: return "shared";
    case PST_QUEUES_INCONCLUSIVE: break;
    }
    return "inconclusive";
}
