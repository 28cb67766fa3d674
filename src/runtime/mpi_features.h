/* MPI features beyond the blocking MPI-3 calls: which ones this build's MPI library has
 * (detected when pstswm is configured: CMakeLists.txt), how they are reached (an MPI-4 call, or
 * Open MPI's MPIX_ early versions in mpi-ext.h), and the refusal of an alternative that needs a
 * missing one.  Every run header lists them (mpi_features).  Under SimGrid's SMPI a call that is
 * declared but aborts or does nothing at run time counts as missing (cmake/smpi.cmake). */
#ifndef PST_MPI_FEATURES_H
#define PST_MPI_FEATURES_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>

#if defined(PST_HAVE_MPIX_PCOLL) && !defined(PST_HAVE_MPI_PCOLL)
#include <mpi-ext.h>
#endif

struct pst_rec;
struct pst_fields;

typedef enum pst_mpi_feature {
    PST_FEAT_NONE = 0,
    PST_FEAT_NBC,          /* nonblocking collectives (MPI-3.0 §5.12): MPI_Ialltoallv, MPI_Iallreduce */
    PST_FEAT_NEIGHBOR,     /* neighbourhood collectives on a distributed graph (MPI-3.0 §7.6) */
    PST_FEAT_PCOLL,        /* persistent collectives (MPI-4.0 §6.13): MPI_Alltoallv_init, MPI_Allreduce_init */
    PST_FEAT_ISENDRECV,    /* MPI_Isendrecv (MPI-4.0 §3.10) */
    PST_FEAT_PARTITIONED,  /* partitioned point-to-point (MPI-4.0 chapter 4): MPI_Psend_init */
    PST_FEAT_MPI_T,        /* the tool information interface's performance variables (MPI-3.1 §14.3) */
    PST_FEAT_RMA_SYNC,     /* window memory model and MPI_Win_sync (MPI-3.1 §11.2.6, §11.5.4): the rma transport */
    PST_NFEATURES
} pst_mpi_feature;

bool pst_mpi_feature_available(pst_mpi_feature f);
const char *pst_mpi_feature_name(pst_mpi_feature f);
/* Why `what` cannot run with this build's MPI (NULL: it can): the feature, and the library by
 * name and standard version, e.g. "needs MPI_Isendrecv (MPI-4.0), which Open MPI v4.1.4 (MPI
 * 3.1) does not have". */
const char *pst_mpi_feature_missing(pst_mpi_feature f, char *buf, size_t len);

/* The features as a list of objects under key: name, available, api, standard. */
void pst_rec_mpi_features(struct pst_rec *r, const char *key);
extern const struct pst_fields pst_mpi_feature_fields;

/* Persistent collectives under their MPI-4 names, or Open MPI's MPIX_ ones (the same arguments). */
#if defined(PST_HAVE_MPI_PCOLL)
#define pst_alltoallv_init MPI_Alltoallv_init
#define pst_allreduce_init MPI_Allreduce_init
#define pst_reduce_scatter_init MPI_Reduce_scatter_init
#define pst_barrier_init MPI_Barrier_init
#define pst_bcast_init MPI_Bcast_init
#define pst_reduce_init MPI_Reduce_init
#define pst_alltoall_init MPI_Alltoall_init
#define pst_allgather_init MPI_Allgather_init
#elif defined(PST_HAVE_MPIX_PCOLL)
#define pst_alltoallv_init MPIX_Alltoallv_init
#define pst_allreduce_init MPIX_Allreduce_init
#define pst_reduce_scatter_init MPIX_Reduce_scatter_init
#define pst_barrier_init MPIX_Barrier_init
#define pst_bcast_init MPIX_Bcast_init
#define pst_reduce_init MPIX_Reduce_init
#define pst_alltoall_init MPIX_Alltoall_init
#define pst_allgather_init MPIX_Allgather_init
#endif

#endif
