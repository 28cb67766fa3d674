/* The field groups the statistics write into records: times, verdicts, sensitivity, piecewise fits. */
#ifndef PST_STATS_SCHEMA_H
#define PST_STATS_SCHEMA_H

#include "core/schema.h"

extern const pst_fields pst_fields_times;     /* pst_rec_times */
extern const pst_fields pst_fields_verdict;   /* pst_rec_verdict */
extern const pst_fields pst_fields_sensitivity; /* pst_rec_sensitivity */
extern const pst_fields pst_fields_segfit;    /* pst_rec_segfit */

#endif
