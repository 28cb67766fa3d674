/* Verifiable message payloads: every 8-byte word encodes (stream seed, word index), so a lost,
 * stale, truncated or misplaced block is detected, not just a flipped bit. */
#ifndef PST_PAYLOAD_H
#define PST_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

/* Seed naming one message: who sent it, which message, which repetition. */
uint64_t pst_payload_seed(int sender, long long msg, long long rep);
void pst_payload_fill(void *buf, size_t bytes, uint64_t seed);
/* Fill with a pattern no seed produces, so a receive that did not happen is caught. */
void pst_payload_poison(void *buf, size_t bytes);
/* Number of 8-byte words (or the tail) that differ; first bad byte offset in *first_bad. */
size_t pst_payload_check(const void *buf, size_t bytes, uint64_t seed, size_t *first_bad);

#endif
