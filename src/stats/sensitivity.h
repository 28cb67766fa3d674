/* Protocol-sensitivity statistics over a set of alternatives measured at one point (Worley 2000's
 * summary, Worley 1999's (median-min)/min classification). */
#ifndef PST_SENSITIVITY_H
#define PST_SENSITIVITY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pst_sensitivity {
    size_t n;
    double min, mean, median, max;
    double mean_rel, median_rel, max_rel; /* (x − min)/min */
    size_t within[3];                     /* alternatives within 1 %, 5 %, 25 % of the min */
    size_t order[5];                      /* indices of the (up to) five fastest */
    size_t norder;
    const char *level;                    /* "low" (median_rel <= 5 %), "moderate", "high" (>= 15 %) */
} pst_sensitivity;

struct pst_rec;

/* t[i] is alternative i's time (e.g. its min over repetitions); non-finite entries are skipped. */
pst_sensitivity pst_sensitivity_of(const double *t, size_t n);

/* The summary's fields: mean_rel, median_rel (the verdict's paired one), max_rel, fastest (the
 * labels of s->order) and within_1pct / 5pct / 25pct. */
void pst_rec_sensitivity(struct pst_rec *r, const pst_sensitivity *s, double median_rel, const char *const *labels);

#endif
