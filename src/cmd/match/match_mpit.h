/* What the MPI library's own tool interface (MPI_T performance variables, MPI-3.1 §14.3.7) says
 * about its match queues, for `pstswm match --mpi-t`: the variables it exposes, and the length
 * of the posted-receive and unexpected-message queues of one communicator, read at the moment the
 * benchmark means them to hold n entries (outside the timing).  Open MPI's ob1 exposes both per
 * communicator; Debian's MPICH 4.0 is built without --enable-mpit-pvars and exposes none. */
#ifndef PST_MATCH_MPIT_H
#define PST_MATCH_MPIT_H

#include <mpi.h>
#include <stdbool.h>

struct pst_rec;

enum { PST_MPIT_POSTED, PST_MPIT_UNEXPECTED, PST_MPIT_NQUEUES };

typedef struct pst_mpit {
    bool started;                       /* MPI_T_init_thread succeeded */
    int npvars;
    char **names;                       /* [npvars]: every performance variable's name */
    int index[PST_MPIT_NQUEUES];        /* the queue-length variable, -1 when not exposed */
    MPI_Datatype type[PST_MPIT_NQUEUES];
#ifdef PST_HAVE_MPI_T
    MPI_T_pvar_session session;
    MPI_T_pvar_handle handle[PST_MPIT_NQUEUES];
#endif
    bool session_open;
    MPI_Comm comm;                      /* the bound communicator: the handles keep its address */
    bool bound[PST_MPIT_NQUEUES];
    int count[PST_MPIT_NQUEUES];        /* elements per read (Open MPI's ob1: one per peer) */
} pst_mpit;

/* Local (every rank may call it): start MPI_T and list the performance variables.  A library
 * without MPI_T (SMPI: `match --mpi-t` is refused there) leaves it not started. */
void pst_mpit_open(pst_mpit *t);
/* Handles on comm for the queue-length variables the library exposes. */
void pst_mpit_bind(pst_mpit *t, MPI_Comm comm);
/* The queue's current length on the bound communicator (summed over the elements a library
 * gives per peer); -1 when not exposed. */
long long pst_mpit_read(const pst_mpit *t, int queue);
const char *pst_mpit_queue_var(const pst_mpit *t, int queue); /* its name, or NULL */
void pst_mpit_close(pst_mpit *t);

#endif
