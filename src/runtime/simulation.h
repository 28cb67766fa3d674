/* Whether this build runs on a simulated platform (SimGrid's SMPI: docs/predict.md), and what
 * the run header says about the simulation.  scripts/pstrun starts smpirun and tells pstswm the
 * platform file and every --cfg it passed, through PSTSWM_SMPI_PLATFORM and PSTSWM_SMPI_CFG (one
 * key:value a line). */
#ifndef PST_SIMULATION_H
#define PST_SIMULATION_H

#include <stdbool.h>

struct pst_rec;
struct pst_fields;

#ifdef PST_SIMULATED
#define PST_IS_SIMULATED true
#else
#define PST_IS_SIMULATED false
#endif

/* The header's "simulated" flag and its "simulation" object (null on a real machine). */
void pst_rec_simulation(struct pst_rec *r);
extern const struct pst_fields pst_simulation_fields;

#endif
