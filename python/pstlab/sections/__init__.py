"""One module per pstswm subcommand, each turning that bench's records into a report section.

Every module has BENCH, TITLE, section(rs), headline(rs) (terminal summary lines), METRICS
(what compare puts side by side) and overlay(sets) (compare's overlaid plots).  A bench without
records in a results directory is simply left out.
"""

from pstlab.sections import coll, kernel, match, model, pingpong, swap

BENCHES = (swap, pingpong, coll, match, kernel, model)
