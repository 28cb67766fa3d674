/* The run header's simulation fields (see simulation.h). */
#include "runtime/simulation.h"

#include "core/alloc.h"
#include "core/record.h"
#include "core/schema.h"

#include <stdlib.h>
#include <string.h>

#ifdef PST_SIMULATED
#include <xbt/base.h> /* SG_BEGIN_DECL, which simgrid/version.h uses */
#include <simgrid/version.h>
#include <stdio.h>

/* The SimGrid library loaded at run time (which may be newer than the headers). */
static const char *engine(char *buf, size_t len)
{
    int major, minor, patch;
    sg_version_get(&major, &minor, &patch);
    snprintf(buf, len, "SimGrid %d.%d.%d (SMPI)", major, minor, patch);
    return buf;
}

/* PSTSWM_SMPI_CFG's lines (the --cfg values), in order. */
static void rec_cfg(pst_rec *r)
{
    const char *env = getenv("PSTSWM_SMPI_CFG");
    if (!env) {
        pst_rec_null(r, "cfg");
        return;
    }
    char *copy = pst_strdup(env), *save = NULL;
    const char **items = NULL;
    size_t n = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        items = pst_realloc(items, (n + 1) * sizeof *items);
        items[n++] = line;
    }
    pst_rec_strs(r, "cfg", items, n);
    free(items);
    free(copy);
}
#endif

void pst_rec_simulation(pst_rec *r)
{
    pst_rec_bool(r, "simulated", PST_IS_SIMULATED);
#ifdef PST_SIMULATED
    char version[64];
    pst_rec_obj_begin(r, "simulation");
    pst_rec_str(r, "engine", engine(version, sizeof version));
    pst_rec_str(r, "platform", getenv("PSTSWM_SMPI_PLATFORM"));
    pst_rec_str(r, "platform_sha256", getenv("PSTSWM_SMPI_PLATFORM_SHA256"));
    pst_rec_str(r, "mapping", getenv("PSTSWM_SMPI_MAPPING"));
    rec_cfg(r);
    pst_rec_obj_end(r);
#else
    pst_rec_null(r, "simulation");
#endif
}

static const pst_field simulation_fields[] = {
    {"engine", PST_F_STR, NULL,
     "the simulator and its version, as the loaded library reports it, e.g. SimGrid 3.32.0 (SMPI)", false, NULL},
    {"platform", PST_F_STR, NULL,
     "the SimGrid platform file smpirun was given (null when not started through scripts/pstrun)", false, NULL},
    {"platform_sha256", PST_F_STR, NULL,
     "the SHA-256 of the platform file, so a record names the exact platform that produced it (null when not started "
     "through scripts/pstrun; absent from records written before it)",
     true, NULL},
    {"mapping", PST_F_STR, NULL,
     "how ranks were placed on the platform's nodes: block (a node's cores filled first) or cyclic (one rank per node "
     "in turn) (null when not started through scripts/pstrun; absent from records written before it)",
     true, NULL},
    {"cfg", PST_F_STRS, NULL,
     "every --cfg=key:value smpirun was given, in order (null when not started through scripts/pstrun)", false, NULL},
};
const pst_fields pst_simulation_fields = PST_FIELDS("simulation", simulation_fields);
