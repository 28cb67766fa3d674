/* The spectral grid: the rule's grids (T42 64 x 128, T63 96 x 192, T85 128 x 256), the refusal of a
 * grid that does not fit its truncation, the wavenumbers every column owns (each m once, cyclic,
 * bit-reversed on a power-of-two row), their coefficient counts, the two wordings of a
 * processor grid that does not fit, and the truncation bound where the grid's points pass an int. */
#include "model/setup/spectral_grid.h"
#include "check.h"

#include <limits.h>
#include <string.h>

static pst_spectral_grid rule_grid(int M)
{
    pst_spectral_grid g;
    char err[256];
    CHECK(pst_spectral_grid_init(&g, M, 1, 0, 0, err, sizeof err) == NULL);
    return g;
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    const int rules[][3] = {{42, 64, 128}, {63, 96, 192}, {85, 128, 256}, {106, 160, 320}, {213, 320, 640}, {1, 2, 4}};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        pst_spectral_grid g = rule_grid(rules[i][0]);
        CHECK(g.nlat == rules[i][1] && g.nlon == rules[i][2]);
    }

    pst_spectral_grid g;
    char err[256];
    CHECK(pst_spectral_grid_init(&g, 42, 1, 62, 0, err, sizeof err) != NULL &&
          strstr(err, "--nlat: 62 latitudes are too few"));
    CHECK(pst_spectral_grid_init(&g, 42, 1, 0, 126, err, sizeof err) != NULL && strstr(err, "--nlon: 126 longitudes"));
    CHECK(pst_spectral_grid_init(&g, 42, 1, 0, 154, err, sizeof err) != NULL); /* 154 = 2 * 7 * 11 */
    CHECK(pst_spectral_grid_init(&g, 42, 1, 66, 150, err, sizeof err) == NULL && g.nlat == 66 && g.nlon == 150);

    /* Every wavenumber once over 1..9 columns; coefficients add up to the triangle. */
    g = rule_grid(42);
    for (int PX = 1; PX <= 9; PX++) {
        int seen[43] = {0}, ms[43];
        long coefficients = 0;
        for (int px = 0; px < PX; px++) {
            int n = pst_spectral_grid_wavenumbers(&g, PX, px, ms);
            CHECK(n == pst_spectral_grid_wavenumbers(&g, PX, px, NULL));
            for (int i = 0; i < n; i++) seen[ms[i]]++;
            for (int i = 1; i < n; i++) CHECK(ms[i] - ms[i - 1] == PX);
            coefficients += pst_spectral_grid_coefficients(&g, PX, px);
        }
        for (int m = 0; m <= 42; m++) CHECK(seen[m] == 1);
        CHECK(coefficients == 43 * 44 / 2);
    }
    int ms[43];
    pst_spectral_grid_wavenumbers(&g, 4, 1, ms); /* bitrev(1) over 2 bits = 2 */
    CHECK(ms[0] == 2 && ms[1] == 6);
    pst_spectral_grid_wavenumbers(&g, 3, 1, ms); /* not a power of two: plain cyclic */
    CHECK(ms[0] == 1 && ms[1] == 4);

    char msg[256];
    pst_spectral_grid t2 = rule_grid(2);
    CHECK(pst_spectral_grid_misfit(&t2, 1, 2, true, msg, sizeof msg) == NULL);
    CHECK(pst_spectral_grid_misfit(&t2, 1, 4, true, msg, sizeof msg) &&
          !strcmp(msg, "4 processor rows need at least 4 north/south latitude pairs; T2 has 2 (4 latitudes)"));
    CHECK(pst_spectral_grid_misfit(&t2, 1, 4, false, msg, sizeof msg) &&
          !strcmp(msg, "4 processor rows need at least 4 north/south latitude pairs; 4 latitudes have 2"));
    CHECK(pst_spectral_grid_misfit(&t2, 4, 1, false, msg, sizeof msg) &&
          !strcmp(msg, "4 processor columns need at least 4 wavenumbers; T2 has 3"));

    /* T21843: 32766 x 65536 points fit an int; T21844 (32768 x 65536) does not. */
    pst_spectral_grid at = rule_grid(PST_SPECTRAL_GRID_MAX_TRUNC), past = rule_grid(PST_SPECTRAL_GRID_MAX_TRUNC + 1);
    CHECK((long long)at.nlat * at.nlon <= INT_MAX && (long long)past.nlat * past.nlon > INT_MAX);
    CHECK_MAIN_END();
}
