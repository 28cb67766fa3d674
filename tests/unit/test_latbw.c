/* Numeric helpers of pingpong and coll: the Frese & Knipp (1998) latency/bandwidth fit with residuals and
 * peak, nccl-tests' bus-bandwidth factors, auto iteration counts, size-list steps with units. */
#include "check.h"
#include "cmd/coll/busbw.h"
#include "cmd/pingpong/latbw.h"
#include "core/cli.h"
#include "runtime/timer.h"

static void test_exact_line(void)
{
    /* T = 2 us + N / (20 GB/s) exactly on 1 ... 2 MiB; a small message outside the window is off the line. */
    long long bytes[] = {0, 8, 1 << 20, 1310720, 1572864, 1835008, 2 << 20, 4 << 20};
    double t[8], resid[8];
    for (int i = 0; i < 8; i++) t[i] = 2e-6 + (double)bytes[i] / 20e9;
    t[1] = 1e-6;
    t[7] = 1.0; /* outside the window: must not disturb the fit */
    pst_latbw a = pst_latbw_analyse(8, bytes, t, 1 << 20, 2 << 20, resid);
    CHECK(a.fitted);
    CHECK(a.npoints == 5);
    CHECK_CLOSE(a.fit.coef[0], 2e-6, 1e-15, 0);
    CHECK_CLOSE(a.fit.coef[1], 1 / 20e9, 0, 1e-9);
    CHECK_CLOSE(a.fit.r2, 1, 1e-12, 0);
    CHECK(a.max_rel_resid < 1e-9);
    CHECK(isnan(resid[0]) && isnan(resid[1]) && isnan(resid[7]));
    CHECK_CLOSE(resid[3], 0, 1e-15, 0);
    /* The peak is the largest N/T over sizes > 0: 2 MiB on this line (4 MiB took 1 s). */
    CHECK(a.peak == 6);
    CHECK_CLOSE(a.peak_bytes_per_s, (double)(2 << 20) / t[6], 0, 1e-12);
    CHECK(a.t_l_ci95[0] <= 2e-6 && a.t_l_ci95[1] >= 2e-6);
}

static void test_residuals(void)
{
    /* Four points, the last displaced: x = 10 ... 13, y = 10, 11, 12, 13.4.  By hand: x̄ = 11.5,
     * ȳ = 11.6, Sxy = 5.6, Sxx = 5, slope 1.12, intercept 11.6 − 1.12·11.5 = −1.28. */
    long long bytes[] = {10, 11, 12, 13};
    double t[] = {10, 11, 12, 13.4}, resid[4];
    pst_latbw a = pst_latbw_analyse(4, bytes, t, 10, 13, resid);
    CHECK(a.fitted);
    CHECK_CLOSE(a.fit.coef[1], 1.12, 1e-12, 0);
    CHECK_CLOSE(a.fit.coef[0], -1.28, 1e-11, 0);
    /* residuals = y − (1.12 x − 1.28) = 0.08, −0.04, −0.16, 0.12 */
    CHECK_CLOSE(resid[0], 0.08, 1e-11, 0);
    CHECK_CLOSE(resid[1], -0.04, 1e-11, 0);
    CHECK_CLOSE(resid[2], -0.16, 1e-11, 0);
    CHECK_CLOSE(resid[3], 0.12, 1e-11, 0);
    CHECK_CLOSE(a.max_abs_resid_s, 0.16, 1e-11, 0);
    CHECK_CLOSE(a.max_rel_resid, 0.16 / 12, 1e-12, 0);
}

static void test_too_few(void)
{
    long long bytes[] = {0, 1 << 20, 4 << 20};
    double t[] = {1e-6, 50e-6, 180e-6};
    pst_latbw a = pst_latbw_analyse(3, bytes, t, 1 << 20, 2 << 20, NULL);
    CHECK(!a.fitted && a.npoints == 1);
    CHECK(a.peak == 2);
    long long zero[] = {0};
    pst_latbw z = pst_latbw_analyse(1, zero, t, 0, 0, NULL);
    CHECK(!z.fitted && z.peak_bytes_per_s == 0);
}

static void test_busbw(void)
{
    /* nccl-tests PERFORMANCE.md: allreduce 2(n-1)/n, allgather/alltoall (n-1)/n, bcast/reduce 1 */
    CHECK_CLOSE(pst_busbw_factor(PST_BW_ALLREDUCE, 8), 1.75, 0, 0);
    CHECK_CLOSE(pst_busbw_factor(PST_BW_ALLREDUCE, 2), 1.0, 0, 0);
    CHECK_CLOSE(pst_busbw_factor(PST_BW_ALLTOALL, 4), 0.75, 0, 0);
    CHECK_CLOSE(pst_busbw_factor(PST_BW_ROOTED, 16), 1.0, 0, 0);
    CHECK(isnan(pst_busbw_factor(PST_BW_NONE, 4)));
    CHECK(isnan(pst_busbw_factor(PST_BW_ALLTOALL, 0)));
}

static void test_iters(void)
{
    CHECK(pst_iters_for(1e-6, 2e-3, 1, 1000000) == 2000);
    CHECK(pst_iters_for(3e-4, 2e-3, 1, 1000000) == 7); /* ceil(6.67) */
    CHECK(pst_iters_for(1.0, 2e-3, 10, 1000) == 10);
    CHECK(pst_iters_for(1e-9, 2e-3, 10, 1000) == 1000);
    CHECK(pst_iters_for(0, 2e-3, 10, 1000) == 1000);
    CHECK(pst_iters_for(NAN, 2e-3, 10, 1000) == 1000);
}

static void test_size_step_units(void)
{
    pst_int_list l;
    char err[128];
    CHECK(pst_parse_list("1M:2M:+256K", true, &l, err, sizeof err) == 0);
    CHECK(l.n == 5 && l.v[0] == 1048576 && l.v[1] == 1310720 && l.v[4] == 2097152);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("1:10:+3", false, &l, err, sizeof err) == 0);
    CHECK(l.n == 4 && l.v[3] == 10);
    pst_int_list_free(&l);
    CHECK(pst_parse_list("1:10:+3K", false, &l, err, sizeof err) == -1); /* plain integers take no unit */
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    test_exact_line();
    test_residuals();
    test_too_few();
    test_busbw();
    test_iters();
    test_size_step_units();
    CHECK_MAIN_END();
}
