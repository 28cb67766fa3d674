"""One module per pstswm subcommand, each turning that bench's records into a report section.

Every module has BENCH, TITLE, section(rs), headline(rs) (terminal summary lines), METRICS
(what compare puts side by side) and overlay(sets) (compare's overlaid plots).  A bench without
records in a results directory is simply left out.  IN_ROUNDS says whether the subcommand compares
alternatives in interleaved rounds (suites: --seed, budget_s), REQUIRED_SINCE_V1 the fields every
schema version has required, per record type (records: older files); a module whose verdicts
`pstlab repro` compares also has VERDICT_KEY and verdict_cases(rs).  The lists of pstlab that
depend on the subcommand derive from BENCHES, so a new subcommand is one module and its line here.
"""

from pstlab.report.sections import coll, kernel, match, model, pingpong, swap

BENCHES = (swap, pingpong, coll, match, kernel, model)
