#include "core/copy_charge.h"

#ifdef PST_SIMULATED
#include <simgrid/host.h>
#include <smpi/smpi.h>
#endif

static double rate_bytes_per_s;

void pst_copy_charge_set_rate(double bytes_per_s) { rate_bytes_per_s = bytes_per_s; }

void pst_copy_charge(size_t bytes)
{
#ifdef PST_SIMULATED
    /* Seconds of simulated time are flops at this host's speed: smpi_execute(seconds) would scale
     * them by smpi/host-speed (this host's reference, not the platform's) and drop those below
     * smpi/cpu-threshold. */
    if (rate_bytes_per_s > 0 && bytes > 0)
        smpi_execute_flops((double)bytes / rate_bytes_per_s * sg_host_get_speed(sg_host_self()));
#else
    (void)bytes;
#endif
}
