"""A Platform written back as a platform file (platforms/*.toml, docs/predict.md) that
platform.load reads back to the same Platform: what calibrate and predict --sensitivity write.
Only the standard library, like platform.py."""

from __future__ import annotations

import dataclasses

from pstlab.simulate.platform import Platform


def _tables(p: Platform) -> list[tuple[str, list[tuple[str, str]]]]:
    """p's tables in a platform file's order: (table, [(key, value as TOML), ...])."""

    # repr: the shortest text that reads back as the same number
    def rows(table: list[tuple]) -> str:
        return "[" + ", ".join("[" + ", ".join(map(repr, row)) + "]" for row in table) + "]"

    shape = {"torus": [("torus_dims", str(p.torus_dims))], "fat_tree": [("fat_tree", f'"{p.fat_tree}"')]}
    network = [
        ("latency_s", repr(p.latency_s)),
        ("bandwidth_bytes_per_s", repr(p.bandwidth_bytes_per_s)),
        ("link_sharing", f'"{p.link_sharing}"'),
        ("loopback_latency_s", repr(p.loopback_latency_s)),
        ("loopback_bandwidth_bytes_per_s", repr(p.loopback_bandwidth_bytes_per_s)),
        ("lat_factor", rows(p.lat_factor)),
        ("bw_factor", rows(p.bw_factor)),
        ("eager_limit_bytes", str(p.eager_limit_bytes)),
    ]
    overheads = [("send", rows(p.send_overhead)), ("recv", rows(p.recv_overhead)), ("isend", rows(p.isend_overhead))]
    tables = [
        ("platform", [("name", f'"{p.name}"')]),
        ("nodes", [("count", str(p.nodes)), ("cores_per_node", str(p.cores_per_node))]),
        ("topology", [("kind", f'"{p.topology}"'), *shape.get(p.topology, [])]),
        ("network", network),
        ("overheads", overheads),
        ("collectives", [("selector", f'"{p.coll_selector}"')]),
    ]
    if p.node:
        tables.append(("node", [(k, repr(v)) for k, v in dataclasses.asdict(p.node).items() if v is not None]))
    for problem, rates in p.compute.items():
        share = [("rates_by_share", rows(p.shares[problem]))] if problem in p.shares else []
        tables.append((f"compute.{problem}", [*((k, repr(v)) for k, v in rates.items()), *share]))
    if p.validation:
        tables.append(("validation", [(k, repr(v)) for k, v in p.validation.items()]))
    return tables


def dumps(p: Platform, comment: str, notes: dict[str, str] | None = None) -> str:
    """p as a platform file that load() reads back to p.  comment: where its numbers come from, at
    the top; notes: a comment per table ("network", on a line under its header) or field
    ("network.latency_s", at the end of its line)."""
    notes = notes or {}
    lines = [f"# {line}" for line in comment.splitlines()]
    for table, fields in _tables(p):
        lines += ["", f"[{table}]"]
        if table in notes:
            lines.append(f"# {notes[table]}")
        for key, value in fields:
            note = notes.get(f"{table}.{key}")
            lines.append(f"{key} = {value}" + (f"  # {note}" if note else ""))
    return "\n".join(lines) + "\n"
