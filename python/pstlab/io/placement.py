"""Where a run's ranks sat: the placement its run headers record (`locality`: ranks per node, the
distribution and binding asked for) and the locality of what it measured (inside a node, across
nodes, or both).  Verdicts of one locality say nothing of the other (docs/cluster.md), so a
comparison of two runs placed differently compares placements as much as libraries."""

from pstlab.io.records import RecordSet

LOCALITY_NAMES = {"intra-node": "inside a node", "inter-node": "across nodes", "mixed": "inside and across nodes"}


def of_run(rs: RecordSet) -> set[tuple]:
    """The distinct placements of the run's launches: (nodes, ranks per node, distribution, binding)."""
    out = set()
    for h in rs.headers():
        loc = h.get("locality") or {}
        per_node = tuple(loc.get("ranks_per_node") or ())
        out.add((len(per_node) or h.get("nodes"), per_node, loc.get("distribution"), loc.get("cpu_bind")))
    return out


def describe(placements: set[tuple]) -> str:
    parts = []
    for nodes, per_node, distribution, binding in sorted(placements, key=str):
        text = f"{nodes} node(s), ranks per node {list(per_node) or '?'}"
        text += f", distribution {distribution}" if distribution else ""
        text += f", binding {binding}" if binding else ""
        parts.append(text)
    return "; ".join(parts) or "no placement recorded"


def differ(a: RecordSet, b: RecordSet) -> str | None:
    """Why two runs' placements differ (for compare to flag and for --fail-above to refuse), or None."""
    pa, pb = of_run(a), of_run(b)
    if pa == pb or not pa or not pb:
        return None
    return f"the runs were placed differently: A {describe(pa)}; B {describe(pb)}"


def multi_locality(localities: set) -> bool:
    """Whether a record set measured more than inside one node, so its verdicts need the locality said."""
    return bool(localities - {None, "intra-node"})


def name(locality) -> str:
    return LOCALITY_NAMES.get(locality, str(locality))
