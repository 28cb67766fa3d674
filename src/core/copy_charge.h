/* Memory copies charged as simulated time (docs/predict.md, "Skeleton mode").  SMPI's timing of
 * this host's work is off in skeleton mode, so the transposes' and vector sums' copies would cost
 * nothing; each copy site charges its bytes here at the platform's copy rate instead. */
#ifndef PST_COPY_CHARGE_H
#define PST_COPY_CHARGE_H

#include <stddef.h>

/* The copy rate of this process (bytes/s); 0, the default, charges nothing. */
void pst_copy_charge_set_rate(double bytes_per_s);
/* In an SMPI build with a rate set: spend bytes / rate seconds of simulated time on this rank
 * (every copy, however small); else nothing. */
void pst_copy_charge(size_t bytes);

#endif
