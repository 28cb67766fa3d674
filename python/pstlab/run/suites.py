"""Suites: TOML files naming experiments, each one pstswm invocation.

description = "..."
[[experiment]]
name = "swap-protocols"      # unique; names the record file <name>.jsonl
subcommand = "swap"
ranks = 2
args = ["--protocols", "all", "--sizes", "8:4M"]
estimate_s = 20              # optional: expected run time, for the progress estimate
timeout_s = 600              # optional: kill the experiment after this long (default 900)
tuned_from = "kernel-2x2"    # optional, model experiments only: run with --preset opt --tuned FILE,
                             # FILE tuned (pstlab tune) from that earlier kernel experiment's records
budget_s = 20                # optional, for subcommands that compare alternatives in rounds (swap,
                             # kernel, pingpong, coll): run with --adaptive --budget 20, i.e. add
                             # rounds until the medians are precise or 20 s are spent

launches = 3                 # optional: launch this experiment 3 times per run of the suite (files
                             # <name>-L1.jsonl ...), interleaved with the others; its verdicts
                             # then rest on the variation between launches too
splits = "cores"             # optional, model experiments only, instead of ranks: one experiment
                             # <name>-<R>x<T> per split of a node's cores into R ranks x T threads
                             # (R x T = the cores; on several nodes R ranks per node), with
                             # --threads T; pstlab's ranks x threads verdict compares them

Launch k of an experiment that compares alternatives runs with --seed k (unless args set one), so
the launches of `pstlab run --launches N` shuffle their rounds differently.
"""

import dataclasses
import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from pstlab.benches.registry import BENCHES
from pstlab.core import paths
from pstlab.core.errors import PstlabError

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

DEFAULT_TIMEOUT_S = 900.0
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
EXPERIMENT_KEYS = {
    "name",
    "subcommand",
    "ranks",
    "args",
    "estimate_s",
    "timeout_s",
    "description",
    "tuned_from",
    "budget_s",
    "launches",
    "splits",
}
# The subcommands that run alternatives in interleaved rounds (--seed, --adaptive, --budget).
IN_ROUNDS = tuple(bench.BENCH for bench in BENCHES if bench.IN_ROUNDS)
# The options a kernel experiment and a model experiment tuned from it must agree on.
TUNED_MATCH = ("--trunc", "--levels", "--grid")
SUITE_KEYS = {"description", "experiment"}
SPLITS = "splits"  # the key of a ranks x threads experiment (not a record field)


@dataclass(frozen=True)
class Experiment:
    name: str
    subcommand: str
    ranks: int
    args: tuple[str, ...]
    estimate_s: float | None = None
    timeout_s: float = DEFAULT_TIMEOUT_S
    description: str = ""
    tuned_from: str | None = None  # an earlier kernel experiment whose records tune --preset opt
    budget_s: float | None = None  # adaptive rounds until precise or this spent
    launches: int = 1  # launches per run of the suite
    split: tuple[int, int] | None = None  # (ranks per node, threads per rank) of a `splits` experiment

    @property
    def digest(self) -> str:
        """Identifies what the experiment runs: a changed definition is a different experiment."""
        what = [self.subcommand, self.ranks, list(self.args)] + ([self.tuned_from] if self.tuned_from else [])
        what += [self.budget_s] if self.budget_s else []
        what += [{"launches": self.launches}] if self.launches > 1 else []
        return hashlib.sha256(json.dumps(what).encode()).hexdigest()[:16]

    def launch_args(self, launch: int) -> list[str]:
        """The pstswm arguments of launch `launch` (1-based): args, the budget, a seed of its own."""
        extra = ["--adaptive", "--budget", f"{self.budget_s:g}"] if self.budget_s else []
        if self.subcommand in IN_ROUNDS and self.option("--seed") is None:
            extra += ["--seed", str(launch)]
        return [*self.args, *extra]

    def option(self, name: str) -> str | None:
        """The value of `name VALUE` (or `name=VALUE`) in args; the last one wins, as in pstswm."""
        value = None
        for i, a in enumerate(self.args):
            if a == name and i + 1 < len(self.args):
                value = self.args[i + 1]
            elif a.startswith(name + "="):
                value = a[len(name) + 1 :]
        return value


@dataclass(frozen=True)
class Suite:
    name: str
    path: Path
    description: str
    experiments: tuple[Experiment, ...]


def locate(name: str, pstswm: Path | None = None) -> Path:
    """A suite by name (NAME.toml in paths.data_dirs: an installed pstswm's share directory, the
    checkout's suites/) or by path to a .toml file."""
    return paths.locate("suites", name, pstswm)


def _experiment(raw: object, where: str) -> Experiment:
    if not isinstance(raw, dict):
        raise PstlabError(f"{where}: an experiment must be a table")
    if unknown := sorted(set(raw) - EXPERIMENT_KEYS):
        raise PstlabError(
            f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(EXPERIMENT_KEYS))})"
        )
    if "splits" in raw:
        _check_splits(raw, where)
    for key in ("name", "subcommand", "ranks"):
        if key not in raw and not (key == "ranks" and "splits" in raw):
            raise PstlabError(f"{where}: missing '{key}'")
    name = raw["name"]
    if not isinstance(name, str) or not NAME.match(name):
        raise PstlabError(f"{where}: name {name!r} must be letters, digits, '.', '_' or '-' (it names a file)")
    if not isinstance(raw["subcommand"], str) or not raw["subcommand"]:
        raise PstlabError(f"{where} ({name}): subcommand must be a non-empty string")
    ranks = raw.get("ranks", 1)
    if isinstance(ranks, bool) or not isinstance(ranks, int) or ranks < 1:
        raise PstlabError(f"{where} ({name}): ranks must be a positive integer, got {ranks!r}")
    args = raw.get("args", [])
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise PstlabError(f"{where} ({name}): args must be a list of strings (one per argument, no shell syntax)")
    if "--out" in args:
        raise PstlabError(f"{where} ({name}): args must not contain --out (pstlab chooses the record file)")
    numbers = _seconds(raw, f"{where} ({name})")
    launches = raw.get("launches", 1)
    if isinstance(launches, bool) or not isinstance(launches, int) or launches < 1:
        raise PstlabError(f"{where} ({name}): launches must be a positive integer, got {launches!r}")
    if numbers["budget_s"] is not None:
        _check_budget(raw["subcommand"], args, f"{where} ({name})")
    tuned_from = raw.get("tuned_from")
    if tuned_from is not None:
        _check_tuned_model(tuned_from, raw["subcommand"], args, f"{where} ({name})")
    return Experiment(
        name,
        raw["subcommand"],
        ranks,
        tuple(args),
        numbers["estimate_s"],
        float(numbers["timeout_s"] or DEFAULT_TIMEOUT_S),
        str(raw.get("description", "")),
        tuned_from,
        numbers["budget_s"],
        launches,
        (0, 0) if "splits" in raw else None,
    )


def _seconds(raw: dict, where: str) -> dict[str, float | None]:
    """An experiment's estimate_s, timeout_s and budget_s: each positive, or None when not given."""
    numbers = {}
    for key in ("estimate_s", "timeout_s", "budget_s"):
        value = raw.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float) or value <= 0):
            raise PstlabError(f"{where}: {key} must be a positive number of seconds, got {value!r}")
        numbers[key] = value
    return numbers


def _clash(args: list[str], options: tuple[str, ...]) -> str | None:
    """The first of `options` args sets (as --option or --option=value), or None."""
    return next((a.split("=")[0] for a in args if a.split("=")[0] in options), None)


def _check_budget(subcommand: str, args: list[str], where: str) -> None:
    """budget_s is for a subcommand that compares alternatives in rounds, and pstlab passes it."""
    if subcommand not in IN_ROUNDS:
        raise PstlabError(
            f"{where}: budget_s is for subcommands that compare alternatives in rounds "
            f"({', '.join(IN_ROUNDS)}); this one is '{subcommand}'"
        )
    if clash := _clash(args, ("--adaptive", "--budget")):
        raise PstlabError(f"{where}: with budget_s, args must not contain {clash} (pstlab adds --adaptive --budget)")


def _check_tuned_model(tuned_from: object, subcommand: str, args: list[str], where: str) -> None:
    """An experiment's own tuned_from: a name, on a model experiment, whose preset pstlab passes
    (_check_tuned_from checks what it names)."""
    if not isinstance(tuned_from, str) or not tuned_from:
        raise PstlabError(f"{where}: tuned_from must be the name of an earlier kernel experiment")
    if subcommand != "model":
        raise PstlabError(
            f"{where}: tuned_from is for model experiments (they run --preset opt); this one is '{subcommand}'"
        )
    if clash := _clash(args, ("--preset", "--tuned")):
        raise PstlabError(
            f"{where}: with tuned_from, args must not contain {clash} (pstlab adds --preset opt --tuned FILE)"
        )


def _check_splits(raw: dict, where: str) -> None:
    name = raw.get("name")
    if (value := raw.get(SPLITS)) != "cores":
        raise PstlabError(f'{where} ({name}): splits must be "cores" (every split of a node\'s cores), got {value!r}')
    if raw.get("subcommand") != "model":
        raise PstlabError(f"{where} ({name}): splits is for model experiments; this one is '{raw.get('subcommand')}'")
    if clash := [k for k in ("ranks", "tuned_from") if k in raw]:
        raise PstlabError(f"{where} ({name}): with splits, {clash[0]} must not be given (each split sets the ranks)")
    if clash := [a for a in raw.get("args", []) if str(a).split("=")[0] in ("--threads", "--grid")]:
        raise PstlabError(
            f"{where} ({name}): with splits, args must not contain {clash[0].split('=')[0]} "
            "(each split sets the threads and takes pstswm's near-square grid)"
        )


def node_cores() -> int:
    """The cores a node gives the suite: $PSTLAB_CORES_PER_NODE, else the CPUs this process may use."""
    value = os.environ.get("PSTLAB_CORES_PER_NODE")
    if value is None:
        return len(os.sched_getaffinity(0))
    if not value.isdigit() or int(value) < 1:
        raise PstlabError(f"PSTLAB_CORES_PER_NODE must be a positive integer, got {value!r}")
    return int(value)


def splits(cores: int) -> list[tuple[int, int]]:
    """Every (ranks, threads) with ranks x threads = cores, most ranks first: 2 -> (2, 1), (1, 2)."""
    return [(cores // t, t) for t in range(1, cores + 1) if cores % t == 0]


def expand(experiments: tuple[Experiment, ...], cores: int, nodes: int = 1) -> tuple[Experiment, ...]:
    """Each `splits` experiment as one experiment per split of `cores` per node over `nodes` nodes."""
    out = []
    for e in experiments:
        if e.split is None:
            out.append(e)
            continue
        for ranks, threads in splits(cores):
            out.append(
                dataclasses.replace(
                    e,
                    name=f"{e.name}-{ranks}x{threads}",
                    ranks=ranks * nodes,
                    args=(*e.args, "--threads", str(threads)),
                    split=(ranks, threads),
                )
            )
    return tuple(out)


def _check_tuned_from(path: Path, experiments: tuple[Experiment, ...]) -> None:
    """tuned_from names an earlier kernel experiment of the same configuration."""
    seen: dict[str, Experiment] = {}
    names = {e.name for e in experiments}
    for i, e in enumerate(experiments, 1):
        where = f"{path}: experiment {i} ({e.name})"
        if e.tuned_from is not None:
            source = seen.get(e.tuned_from)
            if source is None:
                later = "comes later in the suite" if e.tuned_from in names else "is no experiment of this suite"
                raise PstlabError(
                    f"{where}: tuned_from '{e.tuned_from}' {later}; it must name an earlier kernel experiment"
                )
            if source.subcommand != "kernel":
                raise PstlabError(
                    f"{where}: tuned_from '{e.tuned_from}' is a '{source.subcommand}' experiment, not 'kernel'"
                )
            for option in TUNED_MATCH:
                mine, theirs = e.option(option), source.option(option)
                if mine is not None and theirs is not None and mine != theirs:
                    raise PstlabError(
                        f"{where}: {option} {mine}, but tuned_from '{source.name}' runs the kernel with "
                        f"{option} {theirs}; the opt preset must be tuned for the model's configuration"
                    )
        seen[e.name] = e


def load(name: str, pstswm: Path | None = None, nodes: int = 1, cores: int | None = None) -> Suite:
    """The suite NAME (or file), looked up near pstswm (the executable the suite will run); its
    `splits` experiments expanded for `nodes` nodes of `cores` cores (node_cores() by default)."""
    path = locate(name, pstswm)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise PstlabError(f"{path}: not valid TOML: {e}") from None
    if unknown := sorted(set(data) - SUITE_KEYS):
        raise PstlabError(f"{path}: unknown key(s) {', '.join(unknown)} (allowed: description, [[experiment]])")
    raw = data.get("experiment", [])
    if not isinstance(raw, list) or not raw:
        raise PstlabError(f"{path}: no [[experiment]] entries")
    experiments = tuple(_experiment(e, f"{path}: experiment {i}") for i, e in enumerate(raw, 1))
    if any(e.split for e in experiments):
        experiments = expand(experiments, cores or node_cores(), nodes)
    names = [e.name for e in experiments]
    if duplicates := sorted({n for n in names if names.count(n) > 1}):
        raise PstlabError(f"{path}: experiment names must be unique: {', '.join(duplicates)}")
    _check_tuned_from(path, experiments)
    return Suite(path.stem, path, str(data.get("description", "")), experiments)
