/* The MPI feature table (see mpi_features.h). */
#include "runtime/mpi_features.h"

#include "core/record.h"
#include "core/schema.h"

#include <stdio.h>
#include <string.h>

typedef struct feature_row {
    const char *name;
    bool available;
    const char *api;       /* the calls, as this build reaches them ("" when missing) */
    const char *calls;     /* the calls by their standard names */
    const char *standard;  /* where the standard defines them */
} feature_row;

#if defined(PST_HAVE_MPI_NBC)
#define NBC true
#else
#define NBC false
#endif
#if defined(PST_HAVE_MPI_NEIGHBOR)
#define NEIGHBOR true
#else
#define NEIGHBOR false
#endif
#if defined(PST_HAVE_MPI_PCOLL)
#define PCOLL true
#define PCOLL_API "MPI_Alltoallv_init, MPI_Allreduce_init, MPI_Reduce_scatter_init"
#elif defined(PST_HAVE_MPIX_PCOLL)
#define PCOLL true
#define PCOLL_API "MPIX_Alltoallv_init, MPIX_Allreduce_init, MPIX_Reduce_scatter_init (Open MPI mpi-ext.h)"
#else
#define PCOLL false
#define PCOLL_API ""
#endif
#if defined(PST_HAVE_MPI_ISENDRECV)
#define ISENDRECV true
#else
#define ISENDRECV false
#endif
#if defined(PST_HAVE_MPI_PARTITIONED)
#define PARTITIONED true
#else
#define PARTITIONED false
#endif
#if defined(PST_HAVE_MPI_T)
#define MPIT true
#else
#define MPIT false
#endif
#if defined(PST_HAVE_MPI_RMA_SYNC)
#define RMA_SYNC true
#else
#define RMA_SYNC false
#endif

static const feature_row rows[PST_NFEATURES] = {
    [PST_FEAT_NONE] = {"none", true, "", "", ""},
    [PST_FEAT_NBC] = {"nonblocking_collectives", NBC, NBC ? "MPI_Ialltoallv, MPI_Iallreduce" : "",
                      "MPI_Ialltoallv, MPI_Iallreduce", "MPI-3.0 §5.12"},
    [PST_FEAT_NEIGHBOR] = {"neighborhood_collectives", NEIGHBOR,
                           NEIGHBOR ? "MPI_Dist_graph_create_adjacent, MPI_Neighbor_alltoallv" : "",
                           "MPI_Dist_graph_create_adjacent, MPI_Neighbor_alltoallv", "MPI-3.0 §7.6"},
    [PST_FEAT_PCOLL] = {"persistent_collectives", PCOLL, PCOLL_API,
                        "MPI_Alltoallv_init, MPI_Allreduce_init, MPI_Reduce_scatter_init", "MPI-4.0 §6.13"},
    [PST_FEAT_ISENDRECV] = {"isendrecv", ISENDRECV, ISENDRECV ? "MPI_Isendrecv" : "", "MPI_Isendrecv", "MPI-4.0 §3.10"},
    [PST_FEAT_PARTITIONED] = {"partitioned", PARTITIONED,
                              PARTITIONED ? "MPI_Psend_init, MPI_Precv_init, MPI_Pready" : "",
                              "MPI_Psend_init, MPI_Precv_init, MPI_Pready", "MPI-4.0 chapter 4"},
    [PST_FEAT_MPI_T] = {"mpi_t", MPIT, MPIT ? "MPI_T_init_thread, MPI_T_pvar_read" : "",
                        "MPI_T_init_thread, MPI_T_pvar_read", "MPI-3.1 §14.3"},
    [PST_FEAT_RMA_SYNC] = {"rma_window_sync", RMA_SYNC, RMA_SYNC ? "MPI_Win_get_attr(MPI_WIN_MODEL), MPI_Win_sync" : "",
                           "MPI_Win_get_attr(MPI_WIN_MODEL), MPI_Win_sync", "MPI-3.1 §11.2.6, §11.5.4"},
};

bool pst_mpi_feature_available(pst_mpi_feature f) { return rows[f].available; }

const char *pst_mpi_feature_name(pst_mpi_feature f) { return rows[f].name; }

const char *pst_mpi_feature_missing(pst_mpi_feature f, char *buf, size_t len)
{
    if (rows[f].available) return NULL;
    char library[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
    int n, major, minor;
    MPI_Get_library_version(library, &n);
    library[strcspn(library, "\n,")] = '\0';
    MPI_Get_version(&major, &minor);
    snprintf(buf, len, "needs %s (%s), which this MPI library, %s (MPI %d.%d), does not have", rows[f].calls,
             rows[f].standard, library, major, minor);
    return buf;
}

void pst_rec_mpi_features(pst_rec *r, const char *key)
{
    pst_rec_list_begin(r, key);
    for (int f = PST_FEAT_NONE + 1; f < PST_NFEATURES; f++) {
        pst_rec_obj_begin(r, NULL);
        pst_rec_str(r, "name", rows[f].name);
        pst_rec_bool(r, "available", rows[f].available);
        pst_rec_str(r, "api", rows[f].available ? rows[f].api : NULL);
        pst_rec_str(r, "standard", rows[f].standard);
        pst_rec_obj_end(r);
    }
    pst_rec_list_end(r);
}

static const pst_field feature_fields[] = {
    {"name", PST_F_STR, NULL,
     "nonblocking_collectives, neighborhood_collectives, persistent_collectives, isendrecv, partitioned, mpi_t or "
     "rma_window_sync",
     false, NULL},
    {"available", PST_F_BOOL, NULL,
     "this build's MPI library has it (detected when pstswm was configured; under SMPI, declared calls that abort or "
     "do nothing count as missing)",
     false, NULL},
    {"api", PST_F_STR, NULL,
     "the calls pstswm uses for it (Open MPI 4 reaches persistent collectives as MPIX_ calls); null when missing",
     false, NULL},
    {"standard", PST_F_STR, NULL, "the MPI standard section that defines it", false, NULL},
};
const pst_fields pst_mpi_feature_fields = PST_FIELDS("MPI feature", feature_fields);
