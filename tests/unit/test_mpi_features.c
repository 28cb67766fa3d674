/* The MPI feature table: what it says of this build agrees with what configure found, and a
 * missing feature's refusal names the calls, the standard and the library.  Open MPI 4.1
 * (MPI 3.1) lacks MPI_Isendrecv and partitioned communication and reaches persistent
 * collectives as MPIX_ calls; MPICH 4.0 has all of them as MPI-4 calls. */
#include "check.h"
#include "core/record.h"
#include "runtime/mpi_features.h"

#include <stdlib.h>
#include <string.h>

static bool configured(pst_mpi_feature f)
{
    switch (f) {
#if defined(PST_HAVE_MPI_NBC)
    case PST_FEAT_NBC: return true;
#endif
#if defined(PST_HAVE_MPI_NEIGHBOR)
    case PST_FEAT_NEIGHBOR: return true;
#endif
#if defined(PST_HAVE_MPI_PCOLL) || defined(PST_HAVE_MPIX_PCOLL)
    case PST_FEAT_PCOLL: return true;
#endif
#if defined(PST_HAVE_MPI_ISENDRECV)
    case PST_FEAT_ISENDRECV: return true;
#endif
#if defined(PST_HAVE_MPI_PARTITIONED)
    case PST_FEAT_PARTITIONED: return true;
#endif
#if defined(PST_HAVE_MPI_T)
    case PST_FEAT_MPI_T: return true;
#endif
#if defined(PST_HAVE_MPI_RMA_SYNC)
    case PST_FEAT_RMA_SYNC: return true;
#endif
    case PST_FEAT_NONE: return true;
    default: return false;
    }
}

int main(int argc, char **argv)
{
    CHECK_MAIN_BEGIN(argc, argv);
    char library[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
    int len;
    MPI_Get_library_version(library, &len);
    library[strcspn(library, "\n,")] = '\0';

    static const char *const calls[PST_NFEATURES] = {
        [PST_FEAT_NBC] = "MPI_Ialltoallv", [PST_FEAT_NEIGHBOR] = "MPI_Neighbor_alltoallv",
        [PST_FEAT_PCOLL] = "MPI_Alltoallv_init", [PST_FEAT_ISENDRECV] = "MPI_Isendrecv",
        [PST_FEAT_PARTITIONED] = "MPI_Psend_init", [PST_FEAT_MPI_T] = "MPI_T_pvar_read",
        [PST_FEAT_RMA_SYNC] = "MPI_Win_sync",
    };
    for (int f = PST_FEAT_NONE; f < PST_NFEATURES; f++) {
        char why[512];
        const char *missing = pst_mpi_feature_missing(f, why, sizeof why);
        CHECK(pst_mpi_feature_available(f) == configured(f));
        CHECK((missing == NULL) == configured(f));
        if (!missing) continue;
        /* The refusal names the calls, the standard section and the library by its own name. */
        CHECK(strstr(missing, calls[f]) != NULL);
        CHECK(strstr(missing, "MPI-4.0") != NULL || strstr(missing, "MPI-3.") != NULL);
        CHECK(strstr(missing, library) != NULL);
        CHECK(strstr(missing, "does not have") != NULL);
    }
    /* Every library this project builds against has the MPI-3 collectives. */
    CHECK(pst_mpi_feature_available(PST_FEAT_NBC));
    CHECK(pst_mpi_feature_available(PST_FEAT_NEIGHBOR));
#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5
    CHECK(!pst_mpi_feature_available(PST_FEAT_ISENDRECV));
    CHECK(!pst_mpi_feature_available(PST_FEAT_PARTITIONED));
#endif
#if defined(MPICH_NUMVERSION) && MPICH_NUMVERSION >= 40000000
    for (int f = PST_FEAT_NONE; f < PST_NFEATURES; f++) CHECK(pst_mpi_feature_available(f));
#endif

    /* The header's list: every feature once, by name. */
    pst_rec r;
    pst_rec_open(&r);
    pst_rec_mpi_features(&r, "mpi_features");
    char *json = NULL;
    size_t json_len = 0;
    FILE *mem = open_memstream(&json, &json_len);
    pst_rec_print(&r, mem);
    fclose(mem);
    for (int f = PST_FEAT_NONE + 1; f < PST_NFEATURES; f++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\"name\":\"%s\"", pst_mpi_feature_name(f));
        CHECK(strstr(json, needle) != NULL);
    }
    free(json);
    CHECK_MAIN_END();
}
