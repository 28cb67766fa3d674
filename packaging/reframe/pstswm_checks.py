"""pstswm's ReFrame library: swap, pingpong, coll, match and the model as ReFrame regression tests.

Each test runs one experiment of pstswm.toml (beside this file) with the arguments given there,
on `ranks` ranks over `nodes` nodes (ReFrame parameters; PSTSWM_RFM_RANKS and PSTSWM_RFM_NODES
give their values as comma lists, default 2 and 1).  Sanity: pstswm's exit status and its own
verification fields.  Performance: every figure of the JSON Lines records pstswm writes (not the
text it prints), named as FIGURES says, in microseconds.  The references come from a table that
`pstlab reframe` writes from a results directory of the same suite (PSTSWM_REFERENCES, or
`-S reference_table=FILE`); a figure without one fails the test rather than pass unchecked.
docs/howto-reframe.md says how to use it.
"""

import json
import math
import os
import sys
from pathlib import Path

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import (
    parameter,
    run_after,
    run_before,
    sanity_function,
    variable,
)
from reframe.core.exceptions import ReframeError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

SUITE = Path(__file__).with_name("pstswm.toml")
RECORDS = "pstswm.jsonl"
EXIT_LINE = "pstswm-exit-status"

# A figure per point record: its name from the record's fields, its value the record's own
# statistic (`stat`; the model's step time).  `pstlab reframe` names them by the same table
# (pstlab.analysis.reframe_refs.FIGURES; tests/python/test_reframe_refs.py checks they agree).
FIGURES = {
    "swap": "{protocol} {bytes}B cache {cache}",
    "pingpong": "{mode} {direction} {bytes}B",
    "coll": "{op} {bytes}B on {comm_size}",
    "match": "{algorithm} {queue} {order} {wildcard} n={n} length={length}",
    "model": "case {case} T{trunc}L{levels} grid {grid} step",
}


def _counts(variable: str, default: str) -> list[int]:
    return [int(v) for v in os.environ.get(variable, default).split(",")]


def _experiment(name: str) -> dict:
    with SUITE.open("rb") as f:
        for exp in tomllib.load(f)["experiment"]:
            if exp["name"] == name:
                return exp
    raise ReframeError(f"{SUITE}: no experiment named {name!r}")


def figures(records: list[dict]) -> dict[str, float]:
    """{figure name: value in µs} of the point records of one run."""
    out = {}
    for rec in records:
        if rec.get("type") != "point" or rec.get("bench") not in FIGURES:
            continue
        value = rec.get(rec["stat"]) if rec.get("stat") else rec.get("step_s")
        if isinstance(value, int | float) and math.isfinite(value):
            out[FIGURES[rec["bench"]].format(**rec)] = value * 1e6
    return out


def reference_key(experiment: str, ranks: int, nodes: int) -> str:
    return f"{experiment} ranks={ranks} nodes={nodes}"


class PstswmCheck(rfm.RunOnlyRegressionTest):
    """One experiment of pstswm.toml; subclasses name it."""

    experiment = variable(str)
    ranks = parameter(_counts("PSTSWM_RFM_RANKS", "2"))
    nodes = parameter(_counts("PSTSWM_RFM_NODES", "1"))
    pstswm = variable(str, value=os.environ.get("PSTSWM", "pstswm"))
    reference_table = variable(str, value=os.environ.get("PSTSWM_REFERENCES", ""))
    # A planted slowdown (pstswm's PSTSWM_FAULT_DELAY_US, docs/hardening.md): every send phase of
    # the protocol layer waits this long, so a site can see its pipeline report a regression.
    fault_delay_us = variable(int, value=0)
    # A program the launcher starts pstswm through (placing the ranks by hand, a profiler), or none.
    launch_wrapper = variable(str, value=os.environ.get("PSTSWM_RFM_WRAPPER", ""))
    valid_systems = ["*"]
    valid_prog_environs = ["*"]
    tags = {"pstswm"}

    @run_after("init")
    def set_job(self):
        exp = _experiment(self.experiment)
        self.descr = f"pstswm {exp['subcommand']}: {exp.get('description', '')}"
        self.num_tasks = self.ranks
        self.num_tasks_per_node = max(1, self.ranks // self.nodes)
        self.time_limit = f"{exp.get('timeout_s', 300)}s"
        self.executable = self.pstswm
        self.executable_opts = [exp["subcommand"], *exp["args"], "--out", RECORDS]
        # The launcher's exit status, for the sanity check: schedulers that only poll (squeue)
        # do not report a job's exit code.
        self.postrun_cmds = [f'echo "{EXIT_LINE} $?"']
        if self.fault_delay_us:
            self.env_vars["PSTSWM_FAULT_DELAY_US"] = str(self.fault_delay_us)

    @run_before("run")
    def wrap_launch(self):
        if self.launch_wrapper:
            self.job.launcher.options += [self.launch_wrapper]

    def records(self) -> list[dict]:
        path = Path(self.stagedir) / RECORDS
        return [json.loads(line) for line in path.read_text().splitlines()]

    def verified(self, rec: dict) -> bool:
        """pstswm's own verdict on a point's payload (a barrier moves none)."""
        return rec.get("verified") is True or rec.get("op") == "barrier"

    @sanity_function
    def check_run(self):
        return sn.all(
            [
                sn.assert_found(
                    rf"^{EXIT_LINE} 0$", self.stdout, msg="pstswm did not exit 0"
                ),
                sn.assert_true(
                    sn.path_isfile(sn.defer(str(Path(self.stagedir) / RECORDS))),
                    msg=f"no {RECORDS}",
                ),
                sn.assert_true(
                    self.points_verified(),
                    msg="a point of pstswm's records is not verified",
                ),
            ]
        )

    @sn.deferrable
    def points_verified(self) -> bool:
        points = [r for r in self.records() if r.get("type") == "point"]
        return bool(points) and all(self.verified(r) for r in points)

    @run_before("performance")
    def set_figures(self):
        values = figures(self.records())
        self.perf_variables = {
            name: sn.make_performance_function(sn.defer(v), "us")
            for name, v in values.items()
        }
        if self.reference_table:
            self.reference = self.table_references(set(values))

    def table_references(self, names: set[str]) -> dict:
        """This test's entry of the reference table, for this partition; every figure must have one."""
        table = json.loads(Path(self.reference_table).read_text())
        key = reference_key(self.experiment, self.ranks, self.nodes)
        system = self.current_partition.fullname
        if table.get("system") not in (system, self.current_system.name):
            raise ReframeError(
                f"{self.reference_table} is for {table.get('system')!r}, not {system}"
            )
        entries = table.get("references", {}).get(key)
        if entries is None:
            raise ReframeError(f"{self.reference_table}: no references for {key}")
        unreferenced, unmeasured = (
            sorted(names - set(entries)),
            sorted(set(entries) - names),
        )
        if unreferenced:
            raise ReframeError(
                f"{self.reference_table}: {key} has no reference for {', '.join(unreferenced)}"
            )
        if unmeasured:  # a figure the run lost is a regression too
            raise ReframeError(
                f"{key}: the run has no {', '.join(unmeasured)}, which {self.reference_table} has"
            )
        return {system: {name: tuple(entries[name]["reference"]) for name in names}}


@rfm.simple_test
class PstswmSwap(PstswmCheck):
    experiment = "swap"


@rfm.simple_test
class PstswmPingpong(PstswmCheck):
    experiment = "pingpong"


@rfm.simple_test
class PstswmColl(PstswmCheck):
    experiment = "coll"


@rfm.simple_test
class PstswmMatch(PstswmCheck):
    experiment = "match"


@rfm.simple_test
class PstswmModel(PstswmCheck):
    """The model, one problem on pstswm's near-square grid for the ranks; its solution is checked
    against the analytic one of case 2."""

    experiment = "model"
    max_error = variable(float, value=1e-8)

    def verified(self, rec: dict) -> bool:
        error = rec.get("h_l2")
        return (
            rec.get("error_ref") == "analytic"
            and isinstance(error, int | float)
            and error < self.max_error
        )
