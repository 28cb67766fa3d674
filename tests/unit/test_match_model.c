/* The message-matching model: the joint fit must recover a known M (exactly without noise,
 * inside its 95 % interval with noise, with about 95 % coverage over many trials, and despite
 * curvature shared by both orders when the n²·Q term is fitted), and the queue verdict must
 * follow its stated rules. */
#include "cmd/match/match_model.h"
#include "check.h"

#include <stdint.h>
#include <string.h>

enum { K = 11 };
static const long long counts[K] = {1, 10, 20, 30, 40, 45, 50, 60, 70, 80, 90};
static const double L_S = 2e-6, S_S = 0.3e-6, M_S = 1.5e-9;

/* Deterministic standard normal numbers (xorshift + Box-Muller). */
static uint64_t rng = 88172645463325252ULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}
static double normal(void) { return sqrt(-2 * log(uniform())) * cos(2 * acos(-1.0) * uniform()); }

static void synth_curved(double q_s, double noise_s, double *iot, double *rot)
{
    for (int i = 0; i < K; i++) {
        double nn = (double)counts[i], base = L_S + nn * S_S + nn * nn * q_s;
        iot[i] = base + noise_s * normal();
        rot[i] = base + pst_match_failed(counts[i]) * M_S + noise_s * normal();
    }
}

static void synth(double noise_s, double *iot, double *rot) { synth_curved(0, noise_s, iot, rot); }

static void test_exact(void)
{
    double iot[K], rot[K];
    synth(0, iot, rot);
    pst_match_fit f = pst_match_fit_model(K, counts, iot, rot, false, 0.95);
    CHECK(f.ok && !f.curved);
    CHECK(f.nobs == 2 * K);
    CHECK_CLOSE(f.m_s, M_S, 1e-15, 1e-9);
    CHECK_CLOSE(f.s_s, S_S, 1e-15, 1e-9);
    CHECK_CLOSE(f.l_s, L_S, 1e-15, 1e-9);
    CHECK_CLOSE(f.r2, 1, 1e-12, 0);
    CHECK_CLOSE(pst_match_failed(90), 8010, 0, 0);
    CHECK_CLOSE(pst_match_m_per_n(90, iot[K - 1], rot[K - 1]), M_S, 1e-18, 1e-9);
    CHECK(isnan(pst_match_m_per_n(1, iot[0], rot[0])));
    pst_match_fit c = pst_match_fit_model(K, counts, iot, rot, true, 0.95);
    CHECK(c.ok && c.curved);
    CHECK_CLOSE(c.m_s, M_S, 1e-15, 1e-9);
    CHECK_CLOSE(c.q_s, 0, 1e-15, 0);
}

static void test_curvature(void)
{
    /* A shared n² term (Q = 3 ns/msg², i.e. IOT(90) grows 24 us beyond linear) biases Song's
     * M and swells its interval; the curved model recovers M, and its M is the ROT − IOT
     * regression on n(n−1). */
    const double Q_S = 3e-9;
    double iot[K], rot[K];
    synth_curved(Q_S, 50e-9, iot, rot);
    pst_match_fit seed = pst_match_fit_model(K, counts, iot, rot, false, 0.95);
    pst_match_fit c = pst_match_fit_model(K, counts, iot, rot, true, 0.95);
    CHECK(seed.ok && c.ok);
    printf("shared curvature Q = 3 ns/msg^2: Song's model M = %.3f ns [%.3f, %.3f], curved model M = %.3f ns [%.3f, "
           "%.3f]\n",
           seed.m_s * 1e9, seed.m_ci[0] * 1e9, seed.m_ci[1] * 1e9, c.m_s * 1e9, c.m_ci[0] * 1e9, c.m_ci[1] * 1e9);
    CHECK(seed.m_s - M_S > 0.1 * M_S);                               /* biased ... */
    CHECK(seed.m_ci[1] - seed.m_ci[0] > 10 * (c.m_ci[1] - c.m_ci[0])); /* ... and vague */
    CHECK(c.m_ci[0] <= M_S && M_S <= c.m_ci[1]);
    CHECK(c.q_ci[0] <= Q_S && Q_S <= c.q_ci[1]);
    CHECK_CLOSE(c.m_s, M_S, 0, 0.1);
    double sqd = 0, sqq = 0;
    for (int i = 0; i < K; i++) {
        double q = pst_match_failed(counts[i]);
        sqd += q * (rot[i] - iot[i]);
        sqq += q * q;
    }
    CHECK_CLOSE(c.m_s, sqd / sqq, 1e-18, 1e-9);
}

static void test_noisy(void)
{
    /* 50 ns noise on round trips of up to ~40 us: M = 1.5 ns is recovered within its 99.9 % CI
     * (a 95 % one misses once in twenty data sets; coverage is tested below). */
    double iot[K], rot[K];
    synth(50e-9, iot, rot);
    pst_match_fit f = pst_match_fit_model(K, counts, iot, rot, true, 0.999);
    CHECK(f.ok);
    CHECK(f.m_ci[0] <= M_S && M_S <= f.m_ci[1]);
    CHECK(f.m_ci[0] > 0);
    CHECK_CLOSE(f.m_s, M_S, 0, 0.1);
    CHECK(f.l_ci[0] <= L_S && L_S <= f.l_ci[1]);
    CHECK(f.s_ci[0] <= S_S && S_S <= f.s_ci[1]);
    CHECK(f.r2 > 0.99 && f.r2 < 1);

    /* Coverage of the 95 % interval over many noisy data sets. */
    for (int curved = 0; curved < 2; curved++) {
        int trials = 2000, covered = 0;
        for (int t = 0; t < trials; t++) {
            synth(200e-9, iot, rot);
            pst_match_fit g = pst_match_fit_model(K, counts, iot, rot, curved, 0.95);
            covered += g.m_ci[0] <= M_S && M_S <= g.m_ci[1];
        }
        double coverage = (double)covered / trials;
        printf("95 %% CI coverage of M over %d trials (%s model): %.3f\n", trials, curved ? "curved" : "Song's",
               coverage);
        CHECK(coverage > 0.93 && coverage < 0.97);
    }
}

static void test_degenerate(void)
{
    const long long same[2] = {10, 10}, ones[2] = {1, 1};
    double iot[2] = {1e-6, 1e-6}, rot[2] = {2e-6, 2e-6};
    const long long two[2] = {1, 10};
    CHECK(!pst_match_fit_model(2, same, iot, rot, false, 0.95).ok);
    CHECK(!pst_match_fit_model(2, ones, iot, rot, false, 0.95).ok);
    CHECK(!pst_match_fit_model(1, counts, iot, rot, false, 0.95).ok);
    CHECK(pst_match_fit_model(2, two, iot, rot, false, 0.95).ok);
    CHECK(!pst_match_fit_model(2, two, iot, rot, true, 0.95).ok); /* Q needs three distinct n */
}

static pst_match_fit fit_with(double m, double lo, double hi)
{
    return (pst_match_fit){.ok = true, .m_s = m, .m_ci = {lo, hi}};
}

static void test_verdict(void)
{
    pst_match_fit tag = fit_with(2e-9, 1.8e-9, 2.2e-9);
    pst_match_fit tag_flat = fit_with(0.1e-9, -0.2e-9, 0.4e-9);
    double ratio;
    pst_match_fit zero = fit_with(0.05e-9, -0.1e-9, 0.2e-9);
    CHECK(pst_match_verdict(&zero, &tag, &ratio) == PST_QUEUES_PER_COMM);
    CHECK_CLOSE(ratio, 0.025, 1e-12, 0);
    pst_match_fit small = fit_with(0.2e-9, 0.1e-9, 0.3e-9); /* significant but 10 % of tag */
    CHECK(pst_match_verdict(&small, &tag, NULL) == PST_QUEUES_PER_COMM);
    pst_match_fit same = fit_with(1.9e-9, 1.5e-9, 2.3e-9);
    CHECK(pst_match_verdict(&same, &tag, &ratio) == PST_QUEUES_SHARED);
    CHECK_CLOSE(ratio, 0.95, 1e-12, 0);
    pst_match_fit vague = fit_with(0.1e-9, -5e-9, 5.2e-9); /* not significant, but proves nothing */
    CHECK(pst_match_verdict(&vague, &tag, NULL) == PST_QUEUES_INCONCLUSIVE);
    pst_match_fit middle = fit_with(0.6e-9, 0.4e-9, 0.8e-9);
    CHECK(pst_match_verdict(&middle, &tag, NULL) == PST_QUEUES_INCONCLUSIVE);
    /* No usable reference: only a significant comm M without any tag run says "shared". */
    CHECK(pst_match_verdict(&same, &tag_flat, &ratio) == PST_QUEUES_INCONCLUSIVE);
    CHECK(isnan(ratio));
    CHECK(pst_match_verdict(&zero, &tag_flat, NULL) == PST_QUEUES_INCONCLUSIVE);
    CHECK(pst_match_verdict(&same, NULL, NULL) == PST_QUEUES_SHARED);
    CHECK(pst_match_verdict(&zero, NULL, NULL) == PST_QUEUES_INCONCLUSIVE);
    /* A library where reverse posting is cheaper (M < 0): the same sign across communicators
     * means one shared queue, nothing across communicators means one queue each. */
    pst_match_fit tag_neg = fit_with(-0.4e-9, -0.6e-9, -0.2e-9), comm_neg = fit_with(-0.45e-9, -0.6e-9, -0.3e-9);
    CHECK(pst_match_verdict(&comm_neg, &tag_neg, &ratio) == PST_QUEUES_SHARED);
    CHECK_CLOSE(ratio, 1.125, 1e-12, 0);
    pst_match_fit flat = fit_with(0.02e-9, -0.1e-9, 0.14e-9); /* CI within ±50 % of 0.4 ns */
    CHECK(pst_match_verdict(&flat, &tag_neg, NULL) == PST_QUEUES_PER_COMM);
    CHECK(pst_match_verdict(&zero, &tag_neg, NULL) == PST_QUEUES_INCONCLUSIVE); /* CI reaches -0.2 ns */
    CHECK(pst_match_verdict(&same, &tag_neg, NULL) == PST_QUEUES_INCONCLUSIVE); /* opposite sign: another effect */
    pst_match_fit failed = {.ok = false};
    CHECK(pst_match_verdict(&failed, &tag, NULL) == PST_QUEUES_INCONCLUSIVE);
    CHECK(!strcmp(pst_match_verdict_name(PST_QUEUES_PER_COMM), "per-communicator"));
    CHECK(!strcmp(pst_match_verdict_name(PST_QUEUES_SHARED), "shared"));
    CHECK(!strcmp(pst_match_verdict_name(PST_QUEUES_INCONCLUSIVE), "inconclusive"));
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    test_exact();
    test_noisy();
    test_curvature();
    test_degenerate();
    test_verdict();
    CHECK_MAIN_END();
}
