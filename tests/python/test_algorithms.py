"""pstlab.io.algorithms: the registry comes from the run header; older directories fall back to BUILTIN."""

from pathlib import Path

from pstlab.benches import kernel
from pstlab.io import algorithms
from pstlab.io.records import RecordSet
from pstlab.report.sections import kernel as kernel_section
from pstlab.run import tune

# A registry with an algorithm pstlab has never heard of: a new transpose after alltoallv's family.
NEW_ROWS = [
    *algorithms.BUILTIN_ROWS[:3],
    {"name": "pairtrans", "family": "transpose", "stages": ["fft", "legendre"], "collective": False},
    *algorithms.BUILTIN_ROWS[3:],
]


def _header(rows=None) -> dict:
    h = {"bench": "kernel", "type": "header", "run_id": "k"}
    if rows is not None:
        h["algorithms"] = rows
    return h


def _point(algorithm, protocol, t_s, stage="fft") -> dict:
    return {
        "bench": "kernel",
        "type": "point",
        "run_id": "k",
        "stage": stage,
        "algorithm": algorithm,
        "size": "T42L4",
        "grid": "2x1",
        "protocol": protocol,
        "overlap": False,
        "t_min": t_s,
    }


def test_builtin_answers_the_questions_reports_ask():
    reg = algorithms.BUILTIN
    assert reg.collective_of("srtrans") == "alltoallv" and reg.collective_of("ringpipe") == "allreduce"
    assert reg.collective_of("dfft") is None and reg.collective_of("alltoallv") is None
    assert reg.default_stage("halfsum") == "legendre" and reg.default_stage("allreduce") == "legendre"
    assert reg.default_stage("logtrans") == "fft" and reg.default_stage("dfft") == "fft"
    assert reg.is_collective("allreduce") and not reg.is_collective("ringsum")
    assert reg.order("srtrans") < reg.order("dfft") < reg.order("exchsum") < reg.order("unknown")


def test_the_header_registry_wins_over_builtin():
    rs = RecordSet(Path(), [_header(NEW_ROWS)])
    reg = algorithms.of(rs)
    assert "pairtrans" in reg.names and reg.collective_of("pairtrans") == "alltoallv"
    assert algorithms.of(RecordSet(Path(), [_header()])) is algorithms.BUILTIN
    assert algorithms.of(RecordSet(Path(), [_header([{"bad": 1}])])) is algorithms.BUILTIN


def test_a_new_algorithm_is_reported_and_tuned_without_code_changes():
    points = [
        _point("srtrans", "0,6", 2e-4),
        _point("pairtrans", "0,6", 1e-4),
        _point("alltoallv", "coll", 3e-4),
    ]
    rs = RecordSet(Path(), [_header(NEW_ROWS), *points])
    cases = kernel.cases(rs)
    assert [k[1] for k in cases] == ["srtrans", "pairtrans", "alltoallv"]  # the header's order
    table = kernel_section.generic_table(rs)
    row = next(r for r in table.rows if "pairtrans" in r)
    assert "alltoallv" in " ".join(str(c) for c in row)  # its collective, from the header
    choice = tune.choose(rs.points("kernel"), algorithms.of(rs))
    assert choice["fft"].fastest.algorithm == "pairtrans"
    assert [p.algorithm for p in choice["fft"].collectives] == ["alltoallv"]
