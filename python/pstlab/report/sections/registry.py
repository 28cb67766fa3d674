"""Each bench with its report section, in the order of pstlab.benches.registry.BENCHES: compare, the
summary and the report take the facts (BENCH, METRICS) from the first and the rendering (TITLE,
section, headline, overlay) from the second, the module of this package named as the subcommand.
A bench without a section fails here, on import."""

from pstlab.benches.registry import BENCHES
from pstlab.report.sections import coll, kernel, match, model, pingpong, swap

_SECTIONS = {section.__name__.rsplit(".", 1)[-1]: section for section in (swap, pingpong, coll, match, kernel, model)}
REPORTED = tuple((bench, _SECTIONS[bench.BENCH]) for bench in BENCHES)
