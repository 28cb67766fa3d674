/* MPI_T performance variables of the match queues (see match_mpit.h). */
#include "cmd/match/match_mpit.h"

#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

#ifdef PST_HAVE_MPI_T
/* The queue-length variables by the names libraries give them: Open MPI's ob1, then MPICH's
 * (with --enable-mpit-pvars). */
static const char *const queue_names[PST_MPIT_NQUEUES][3] = {
    [PST_MPIT_POSTED] = {"pml_ob1_posted_recvq_length", "posted_recvq_length", NULL},
    [PST_MPIT_UNEXPECTED] = {"pml_ob1_unexpected_msgq_length", "unexpected_recvq_length", NULL},
};

void pst_mpit_open(pst_mpit *t)
{
    *t = (pst_mpit){.index = {-1, -1}};
    int provided;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return;
    t->started = true;
    if (MPI_T_pvar_get_num(&t->npvars) != MPI_SUCCESS) t->npvars = 0;
    t->names = pst_calloc((size_t)(t->npvars ? t->npvars : 1), sizeof *t->names);
    for (int i = 0; i < t->npvars; i++) {
        char name[256], desc[8];
        int name_len = sizeof name, desc_len = sizeof desc, verbosity, var_class, bind, readonly, continuous, atomic;
        MPI_Datatype type;
        MPI_T_enum enumtype;
        if (MPI_T_pvar_get_info(i, name, &name_len, &verbosity, &var_class, &type, &enumtype, desc, &desc_len, &bind,
                                &readonly, &continuous, &atomic) != MPI_SUCCESS)
            name[0] = '\0';
        t->names[i] = pst_strdup(name);
        /* The first variable of a name that can be read per communicator without starting it. */
        for (int q = 0; q < PST_MPIT_NQUEUES; q++)
            for (int k = 0; queue_names[q][k]; k++)
                if (t->index[q] < 0 && !strcmp(name, queue_names[q][k]) && bind == MPI_T_BIND_MPI_COMM && continuous) {
                    t->index[q] = i;
                    t->type[q] = type;
                }
    }
}

void pst_mpit_bind(pst_mpit *t, MPI_Comm comm)
{
    if (!t->started || (t->index[0] < 0 && t->index[1] < 0)) return;
    if (MPI_T_pvar_session_create(&t->session) != MPI_SUCCESS) return;
    t->session_open = true;
    t->comm = comm;
    for (int q = 0; q < PST_MPIT_NQUEUES; q++) {
        /* Open MPI's ob1 counts per peer: one element per rank of comm. */
        if (t->index[q] >= 0)
            t->bound[q] = MPI_T_pvar_handle_alloc(t->session, t->index[q], &t->comm, &t->handle[q], &t->count[q]) ==
                              MPI_SUCCESS &&
                          t->count[q] >= 1;
    }
}

/* Element i of a variable of type ty as a count. */
static long long element(const void *buf, MPI_Datatype ty, int i)
{
    if (ty == MPI_UNSIGNED) return (long long)((const unsigned *)buf)[i];
    if (ty == MPI_UNSIGNED_LONG) return (long long)((const unsigned long *)buf)[i];
    if (ty == MPI_UNSIGNED_LONG_LONG) return (long long)((const unsigned long long *)buf)[i];
    if (ty == MPI_INT) return (long long)((const int *)buf)[i];
    if (ty == MPI_DOUBLE) return (long long)((const double *)buf)[i];
    return ((const long long *)buf)[i];
}

long long pst_mpit_read(const pst_mpit *t, int q)
{
    if (!t->bound[q]) return -1;
    /* Wide enough for count elements of any type MPI_T uses for a count. */
    long long *buf = pst_calloc((size_t)t->count[q], sizeof *buf), total = 0;
    if (MPI_T_pvar_read(t->session, t->handle[q], buf) != MPI_SUCCESS) total = -1;
    for (int i = 0; total >= 0 && i < t->count[q]; i++) total += element(buf, t->type[q], i);
    free(buf);
    return total;
}


void pst_mpit_close(pst_mpit *t)
{
    if (!t->started) return;
    for (int q = 0; q < PST_MPIT_NQUEUES; q++)
        if (t->bound[q]) MPI_T_pvar_handle_free(t->session, &t->handle[q]);
    if (t->session_open) MPI_T_pvar_session_free(&t->session);
    for (int i = 0; i < t->npvars; i++) free(t->names[i]);
    free(t->names);
    MPI_T_finalize();
    t->started = false;
}
#else
void pst_mpit_open(pst_mpit *t) { *t = (pst_mpit){.index = {-1, -1}}; }
void pst_mpit_bind(pst_mpit *t, MPI_Comm comm) { (void)t, (void)comm; }
long long pst_mpit_read(const pst_mpit *t, int q) { return (void)t, (void)q, -1; }
void pst_mpit_close(pst_mpit *t) { (void)t; }
#endif

const char *pst_mpit_queue_var(const pst_mpit *t, int q) { return t->index[q] >= 0 ? t->names[t->index[q]] : NULL; }
