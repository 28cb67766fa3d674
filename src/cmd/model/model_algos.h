/* `pstswm model`'s choice of processor grid, parallel algorithms and protocols: the options as
 * given, the presets of Worley 1998 §7, and the `opt` preset file `pstlab tune` writes.
 *
 * Presets (explicit --fft, --legendre, --protocol, --fft-protocol, --legendre-protocol and
 * --overlap override them):
 *   gen   srtrans FFT transposes + halfsum Legendre sums, protocol 0,6 (MPI_Sendrecv): what one
 *         uses knowing nothing about protocols (the default)
 * (with a one-sided --transport, whose catalogue has no 0,6, the presets use its first protocol)
 *   coll  MPI_Alltoallv transposes + MPI_Allreduce sums
 *   DTH   double transpose FFT (srtrans unless --fft names another transpose) + halfsum, 0,6
 *   DR    distributed FFT + pipelined ring sums, 0,6
 *   opt   per stage the algorithm, protocol and overlap of --tuned FILE */
#ifndef PST_MODEL_ALGOS_H
#define PST_MODEL_ALGOS_H

#include "model/setup/parallel.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct model_algos {
    const char *grid, *preset, *tuned, *fft, *legendre, *protocol, *fft_protocol, *leg_protocol, *transport,
        *spectral_update;
    bool overlap;
} model_algos;

extern const char *const pst_model_presets[]; /* NULL-terminated: gen, coll, opt, DTH, DR */
extern const char *const pst_model_spectral_updates[]; /* NULL-terminated: partitioned, replicated */

/* Resolve the options into a configuration for nranks ranks (cfg->comm is left to the caller).
 * Any inconsistency is a collective usage error (exit 2) naming the option. */
void model_algos_resolve(const model_algos *a, int nranks, const pst_spectral_grid *g, pst_par_config *cfg);

#endif
