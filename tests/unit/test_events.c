/* Named timer events: registration and look-up by name, begin/end sums and counts (an end
 * returns what it added), and one process's statistics (slowest = fastest = mean, imbalance 1)
 * since a baseline. */
#include "runtime/events.h"
#include "check.h"

#include <string.h>

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    pst_event_table t = {0};
    int a = pst_event_register(&t, "fft"), b = pst_event_register(&t, "legendre");
    CHECK(a == 0 && b == 1 && pst_event_register(&t, "fft") == a && t.n == 2);
    CHECK(pst_event_find(&t, "legendre") == b && pst_event_find(&t, "fft_comm") == -1 && t.n == 2);
    double since;
    pst_event_begin(&since);
    for (volatile int i = 0; i < 100000; i++) {}
    double added_s = pst_event_end(&t, a, &since);
    CHECK(added_s > 0 && added_s == t.total_s[a]);
    pst_event_table base = t;
    for (int k = 0; k < 3; k++) pst_event_end(&t, b, &since);
    pst_event_end(&t, a, &since);
    CHECK(t.calls[a] == 2 && t.calls[b] == 3 && t.total_s[a] > 0);

    pst_event_stats s[2];
    pst_event_stats_of(&t, &base, 2.0, MPI_COMM_NULL, s);
    CHECK(!strcmp(s[0].name, "fft") && !strcmp(s[1].name, "legendre"));
    CHECK(s[0].calls == 1 && s[1].calls == 3);
    CHECK(s[0].slowest_s == (t.total_s[a] - base.total_s[a]) / 2.0);
    for (int e = 0; e < 2; e++) {
        CHECK(s[e].slowest_s == s[e].fastest_s && s[e].fastest_s == s[e].mean_s);
        CHECK(s[e].slowest_rank == 0 && s[e].fastest_rank == 0);
        CHECK(s[e].imbalance == (s[e].mean_s > 0 ? 1 : 0));
    }
    pst_event_stats_of(&t, NULL, 1.0, MPI_COMM_NULL, s);
    CHECK(s[0].calls == 2 && s[0].slowest_s == t.total_s[a]);
    CHECK_MAIN_END();
}
