/* Fault injection for tests of the tools that watch pstswm (docs/hardening.md, Fault injection).
 *
 * PSTSWM_FAULT_DELAY_US=N: before every send phase of a transfer in the protocol layer (swap,
 * kernel, the model's parallel stages), the sending rank waits N microseconds.  A planted,
 * known slowdown: a regression framework's test shows that it reports one (packaging/reframe).
 * The run header's `env` records the variable, so a delayed run is never taken for a real one. */
#ifndef PST_FAULT_H
#define PST_FAULT_H

/* Collective: check PSTSWM_FAULT_DELAY_US (an integer 0...1000000 or unset); exit 2 naming it
 * otherwise.  Called once per run before planning. */
void pst_fault_check(void);

/* Wait the planted delay, if any (busy: a sleep's granularity would swamp a few microseconds). */
void pst_fault_delay(void);

#endif
