/* Kernel problem sizing and the shared partitions: model shapes (T42 = 64 x 128, T85 =
 * 128 x 256), coefficient counts summing to (M+1)(M+2)/2 over columns, serpentine balance,
 * latitude pairs, granularity scaling, grid checks, and the vector-sum partition. */
#include "algo/partition.h"
#include "algo/vsum.h"
#include "cmd/kernel/kernel_problem.h"
#include "../unit/check.h"

#include <string.h>

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    kproblem k;
    kproblem_model(&k, 42, 16, 3);
    CHECK(k.nlon == 128 && k.nlat == 64 && !strcmp(k.label, "T42L16"));
    kproblem_model(&k, 85, 16, 3);
    CHECK(k.nlon == 256 && k.nlat == 128);

    /* Coefficients over 1..9 columns add up to the triangle; columns differ by little. */
    kproblem_model(&k, 42, 16, 3);
    for (int px = 1; px <= 9; px++) {
        long total = 0, lo = 1 << 30, hi = 0;
        int nm = 0;
        for (int x = 0; x < px; x++) {
            long c = kp_ncoef(&k, px, x);
            total += c;
            lo = c < lo ? c : lo;
            hi = c > hi ? c : hi;
            nm += kp_nm(&k, px, x);
        }
        CHECK(total == 43 * 44 / 2);
        CHECK(nm == 43);
        CHECK(hi - lo <= 43); /* serpentine: within one column of coefficients */
    }
    /* Latitude pairs: 8 x 14 style uneven rows, all latitudes used, even counts. */
    int lats = 0;
    for (int y = 0; y < 14; y++) {
        CHECK(kp_lats(&k, 14, y) % 2 == 0);
        lats += kp_lats(&k, 14, y);
    }
    CHECK(lats == 64);
    CHECK(kp_fft_lines(&k, 4, 0) == 16 * 16 * 3);
    CHECK(kproblem_grid_check(&k, 8, 8) == NULL);
    CHECK(kproblem_grid_check(&k, 1, 33) != NULL);
    CHECK(kproblem_grid_check(&k, 44, 1) != NULL);

    /* Granularity: T42L16@8x8 keeps 16 longitudes and 8 latitudes per rank on any grid. */
    char err[256];
    CHECK(kproblem_scaled(&k, "T42L16@8x8", 3, err, sizeof err) == 0);
    CHECK(kp_fft_nlon(&k, 4) == 64 && kp_fft_nlon(&k, 8) == 128);
    CHECK(kp_lats(&k, 1, 0) == 8 && kp_fft_lines(&k, 1, 0) == 8 * 16 * 3);
    CHECK(kp_ncoef(&k, 1, 0) == kp_ncoef(&k, 8, 0));
    CHECK(kp_mmax(&k, 8) == 42 && kp_mmax(&k, 4) < 32);
    CHECK(kproblem_scaled(&k, "T42L16@3x3", 3, err, sizeof err) == -1);
    CHECK(kproblem_scaled(&k, "T42L16@8x", 3, err, sizeof err) == -1);
    CHECK(kproblem_scaled(&k, "T42@8x8", 3, err, sizeof err) == -1);

    /* Partitions: contiguous, in rank order, sizes differ by at most one unit. */
    size_t next = 0;
    for (int q = 0; q < 7; q++) {
        size_t lo, n;
        pst_vsum_block(3 * 40, 3, 7, q, &lo, &n);
        CHECK(lo == next && n % 3 == 0 && (n == 15 || n == 18));
        next = lo + n;
    }
    CHECK(next == 120);
    int d;
    CHECK(pst_pow2_floor(7, &d) == 4 && d == 2);
    CHECK(pst_pow2_floor(8, &d) == 8 && d == 3);
    CHECK(pst_is_pow2(1) && pst_is_pow2(64) && !pst_is_pow2(12));
    CHECK_MAIN_END();
}
