/* Minimal assertion helpers for the C unit tests: count failures, print each with its
 * location, exit non-zero at the end.  Tests run as 1-rank MPI programs. */
#ifndef PST_TEST_CHECK_H
#define PST_TEST_CHECK_H

#include <math.h>
#include <mpi.h>
#include <stdio.h>

static int check_failures, check_count;

#define CHECK(cond)                                                                                                    \
    do {                                                                                                               \
        check_count++;                                                                                                 \
        if (!(cond)) {                                                                                                 \
            check_failures++;                                                                                          \
            fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                                   \
        }                                                                                                              \
    } while (0)

/* |got − want| ≤ tol_abs + tol_rel·|want| */
#define CHECK_CLOSE(got, want, tol_abs, tol_rel)                                                       \
    do {                                                                                              \
        double g_ = (got), w_ = (want);                                                               \
        check_count++;                                                                                \
        if (!(fabs(g_ - w_) <= (tol_abs) + (tol_rel) * fabs(w_))) {                                   \
            check_failures++;                                                                         \
            fprintf(stderr, "%s:%d: %s = %.17g, want %.17g\n", __FILE__, __LINE__, #got, g_, w_);      \
        }                                                                                             \
    } while (0)

#define CHECK_MAIN_BEGIN(argc, argv) MPI_Init(&(argc), &(argv))
#define CHECK_MAIN_END()                                                                   \
    do {                                                                                   \
        printf("%d checks, %d failures\n", check_count, check_failures);                   \
        MPI_Finalize();                                                                    \
        return check_failures ? 1 : 0;                                                     \
    } while (0)

#endif
