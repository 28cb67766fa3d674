/* Shared by the model's MPI tests: the Legendre kernel named on the command line, and a check
 * that the model ran it (a kernel the model ignored would compare the tables with themselves). */
#ifndef PST_MODEL_TEST_H
#define PST_MODEL_TEST_H

#include "core/errors.h"
#include "model/model.h"

#include <string.h>

/* name: one of the Legendre methods' (pst_leg_methods); -1 when it is none. */
static inline int leg_method_arg(const char *name)
{
    for (int k = 0; k < PST_NLEG_METHODS; k++)
        if (!strcmp(name, pst_leg_method_name(k))) return k;
    return -1;
}

static inline void require_leg_method(const pst_model *m)
{
    if (m->dyn.leg.method != m->cfg.legendre)
        pst_fatal(PST_EXIT_FAILED, "the model ran the %s Legendre kernel, not %s", pst_leg_method_name(m->dyn.leg.method),
                  pst_leg_method_name(m->cfg.legendre));
}

#endif
