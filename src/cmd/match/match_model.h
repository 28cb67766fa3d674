/* The message-matching model of Song 2013 (§3.1.2, §3.2.2), fitted over all batch sizes at once.
 *
 * One round trip moves n messages each way.  Receives posted in the order the messages are
 * sent match at the head of the queue; posted in reverse, every pair of messages is inverted,
 * so each direction makes n(n−1)/2 failed match attempts, n(n−1) per round trip:
 *     IOT(n) = L + n·S                  (in-order posting)
 *     ROT(n) = L + n·S + n(n−1)·M       (reverse-order posting)
 * L, S are per round trip; M is the cost of one failed match.
 *
 * Beyond Song (2013), a term n²·Q common to both orders may be added: measured in-order curves
 * bend upwards (cache footprint, eager-buffer pools grow with n), and without Q the joint fit
 * pushes part of that shared curvature into M.  With Q, M is determined by ROT − IOT alone. */
#ifndef PST_MATCH_MODEL_H
#define PST_MATCH_MODEL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pst_match_fit {
    bool ok;                 /* false: too few distinct n (2, or 3 with Q; one of them >= 2) */
    bool curved;             /* the n²·Q term was fitted */
    size_t nobs;             /* observations: one IOT and one ROT per n */
    double l_s, s_s, q_s, m_s;  /* coefficients (s; S per message, Q per message², M per failed match) */
    double l_ci[2], s_ci[2], q_ci[2], m_ci[2];  /* confidence intervals at the requested level */
    double r2;               /* of the joint fit (IOT and ROT together) */
} pst_match_fit;

/* Failed match attempts in one reverse-order round trip. */
double pst_match_failed(long long n);

/* Least-squares fit of the model (with the n²·Q term if curved) to iot_s[i], rot_s[i] measured
 * at batch size n[i] (k batch sizes, 2k observations), with t intervals at level conf. */
pst_match_fit pst_match_fit_model(size_t k, const long long *n, const double *iot_s, const double *rot_s, bool curved,
                                  double conf);

/* Song's per-n estimate (ROT − IOT)/(n(n−1)); NaN for n < 2. */
double pst_match_m_per_n(long long n, double iot_s, double rot_s);

/* Does the library keep one match queue per communicator?  Judged from the communicator
 * algorithm's M (one communicator per message) against the tag algorithm's M on the same
 * configuration (tag may be NULL when it was not run). */
typedef enum pst_queue_verdict {
    PST_QUEUES_PER_COMM,     /* tag M significantly != 0; comm M within ±20 % of 0 relative to it, and
                                its whole CI within ±50 % of it */
    PST_QUEUES_SHARED,       /* comm M significantly != 0 with the tag M's sign and >= 50 % of it
                                (or significantly != 0 when no tag run) */
    PST_QUEUES_INCONCLUSIVE, /* anything else: tag M not significant, comm CI too wide, in between */
} pst_queue_verdict;

/* ratio (may be NULL) receives M_comm / M_tag, NaN without a usable tag fit. */
pst_queue_verdict pst_match_verdict(const pst_match_fit *comm, const pst_match_fit *tag, double *ratio);
const char *pst_match_verdict_name(pst_queue_verdict v);

#endif
