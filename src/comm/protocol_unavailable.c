/* Whether this build's MPI library can run a protocol: asked by the catalogue (protocol.c) and by
 * the transports (transport_mpi.c) whose variant tables the catalogue reads, so it sits in a file
 * of its own, below both, rather than close a circle between them. */
#include "comm/protocol.h"

const char *pst_protocol_unavailable(const pst_protocol *p)
{
    static char why[512];
    return p->requires == PST_FEAT_NONE ? NULL : pst_mpi_feature_missing(p->requires, why, sizeof why);
}
