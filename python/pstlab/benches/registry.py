"""The pstswm subcommands pstlab knows, in report order.  Every module has BENCH, IN_ROUNDS (whether the
subcommand compares alternatives in interleaved rounds: suites' --seed and budget_s) and METRICS (what
compare puts side by side); one whose verdicts `pstlab repro` compares also has VERDICT_KEY and
verdict_cases(rs).  The lists of pstlab that depend on the subcommand derive from BENCHES, so a new
subcommand is its module here, its line in the schema's REQUIRED_SINCE_V1 if any, and its report section
(pstlab.report.sections.registry)."""

from pstlab.benches import coll, kernel, match, model, pingpong, swap

BENCHES = (swap, pingpong, coll, match, kernel, model)
