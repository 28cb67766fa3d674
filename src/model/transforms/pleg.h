/* The model's Legendre stage across a processor column: the communication that turns
 * Fourier-domain data (latitude pairs split over the column) into spectral data and back.
 *
 *   transposes (srtrans, swtrans, logtrans): the Legendre buffer [mx][local pairs][width] is
 *     transposed to [own wavenumbers][all pairs][width] before the forward sums and back after
 *     the inverse sums (the rows' pair blocks are gathered/scattered in the transposes' hooks).
 *   vector sums (exchsum, halfsum, ringsum, ringpipe, coll): the forward sums over local pairs
 *     are partial; a replicated distributed vector sum (MPI_Allreduce-equivalent) completes
 *     them.  ringpipe computes each block of the sums just in time.  The partitioned update
 *     (gather_unit > 0; algorithms that gather, pst_vsum_gathers): the sums end partitioned, each
 *     rank updates its block of the coefficients and the algorithm's gather shares the new state.
 * The timer event "legendre_comm" of the caller's table sums the time in the parallel algorithm
 * (for ringpipe including the sums it pipelines). */
#ifndef PST_MODEL_PLEG_H
#define PST_MODEL_PLEG_H

#include "algo/vsum.h"
#include "model/setup/parallel.h"
#include "runtime/events.h"

typedef struct pst_pleg pst_pleg;

/* Collective over par->col (PY > 1).  width: doubles per (wavenumber, pair); sum_doubles: the
 * length of the spectral sums vector (vector-sum algorithms), unit: doubles per coefficient;
 * gather_unit: the state's doubles per coefficient for the partitioned update (0: the sums end
 * replicated); the algorithm's time into the event "legendre_comm" of `events` (registered here). */
pst_pleg *pst_pleg_create(const pst_par *par, size_t width, size_t sum_doubles, size_t unit, size_t gather_unit,
                          pst_event_table *events);
/* Transposes: local [nmx][npairs][width] (wavenumbers in the slots of pst_par.leg_mx) →
 * [nown][all pairs][width], and back. */
void pst_pleg_to_spectral(pst_pleg *l, const double *local, double *whole);
void pst_pleg_to_fourier(pst_pleg *l, const double *whole, double *local);
/* Vector sums, in place on sum_doubles: the contribution already in sums (compute NULL) or
 * computed block by block (ringpipe's pipeline); the result replicated, or with gather_unit this
 * rank's coefficients [c0, c1) alone (pst_pleg_owned). */
void pst_pleg_sum(pst_pleg *l, pst_vsum_compute_fn compute, void *arg, double *sums);
void pst_pleg_owned(const pst_pleg *l, size_t *c0, size_t *c1);
/* The partitioned update's gather: each rank's coefficients of state ([coefficient][gather_unit])
 * to every rank of the column. */
void pst_pleg_gather(pst_pleg *l, double *state);
/* The level pipeline (pst_par_config.leg_level_pipeline): the same sum split in phases, so it
 * runs while the caller computes the next level block.  start begins MPI_Iallreduce on sums (one
 * sum in flight at a time), progress tests it (the caller calls it between pieces of its
 * computation: without a progress thread MPI moves a nonblocking collective only inside MPI
 * calls), finish waits for it.  Only where pst_pleg_sum_splits(). */
bool pst_pleg_sum_splits(const pst_algorithm *alg);
void pst_pleg_sum_start(pst_pleg *l, double *sums);
void pst_pleg_sum_progress(pst_pleg *l);
void pst_pleg_sum_finish(pst_pleg *l);
void pst_pleg_free(pst_pleg *l);

#endif
