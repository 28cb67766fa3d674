#include "bench/match_model.h"

#include "core/fit.h"

#include <math.h>
#include <stdlib.h>

double pst_match_failed(long long n) { return (double)n * (double)(n - 1); }

pst_match_fit pst_match_fit_model(size_t k, const long long *n, const double *iot_s, const double *rot_s, double conf)
{
    pst_match_fit m = {.ok = false, .nobs = 2 * k};
    m.l_s = m.s_s = m.m_s = m.r2 = NAN;
    /* Rows: [1, n, 0] for IOT(n), [1, n, n(n−1)] for ROT(n). */
    double *X = malloc(6 * k * sizeof *X + 1), *y = malloc(2 * k * sizeof *y + 1);
    for (size_t i = 0; i < k; i++) {
        double *in = &X[6 * i], *rev = &X[6 * i + 3];
        in[0] = rev[0] = 1.0;
        in[1] = rev[1] = (double)n[i];
        in[2] = 0.0;
        rev[2] = pst_match_failed(n[i]);
        y[2 * i] = iot_s[i];
        y[2 * i + 1] = rot_s[i];
    }
    pst_fit f;
    if (k >= 2 && pst_lsq(2 * k, 3, X, y, NULL, &f) == 0) {
        m.ok = true;
        m.l_s = f.coef[0];
        m.s_s = f.coef[1];
        m.m_s = f.coef[2];
        m.r2 = f.r2;
        pst_fit_ci(&f, 0, conf, &m.l_ci[0], &m.l_ci[1]);
        pst_fit_ci(&f, 1, conf, &m.s_ci[0], &m.s_ci[1]);
        pst_fit_ci(&f, 2, conf, &m.m_ci[0], &m.m_ci[1]);
    }
    free(X);
    free(y);
    return m;
}

double pst_match_m_per_n(long long n, double iot_s, double rot_s)
{
    return n < 2 ? NAN : (rot_s - iot_s) / pst_match_failed(n);
}

pst_queue_verdict pst_match_verdict(const pst_match_fit *comm, const pst_match_fit *tag, double *ratio)
{
    bool tag_usable = tag && tag->ok && tag->m_ci[0] > 0;
    double r = tag_usable && comm->ok ? comm->m_s / tag->m_s : NAN;
    if (ratio) *ratio = r;
    if (!comm->ok) return PST_QUEUES_INCONCLUSIVE;
    bool comm_grows = comm->m_ci[0] > 0; /* Diff grows like n² */
    /* Without a significant tag M there is no scale to call the comm M "next to nothing" on. */
    if (!tag_usable) return comm_grows && !tag ? PST_QUEUES_SHARED : PST_QUEUES_INCONCLUSIVE;
    if (!comm_grows) return PST_QUEUES_PER_COMM;
    if (r >= 0.5) return PST_QUEUES_SHARED;
    if (r < 0.2) return PST_QUEUES_PER_COMM;
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
