"""One module per pstswm subcommand, each turning that bench's records into a report section.

Every module has TITLE, section(rs), headline(rs) (terminal summary lines) and overlay(sets)
(compare's overlaid plots); the facts they render (keys, metrics, fits, verdicts) are the bench's
module in pstlab.benches.  A bench without records in a results directory is simply left out.
registry.REPORTED pairs each bench of pstlab.benches.registry with its section.  The other modules
are the report's own sections (answers, hybrid, prediction, runinfo) and what they share (common).
"""
