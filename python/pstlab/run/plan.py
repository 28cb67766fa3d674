"""The manifest of a suite's run: every launch of every experiment planned in order, and on
--resume the kept manifest merged with the suite as it is now."""

import socket
from pathlib import Path

from pstlab import __version__
from pstlab.core.errors import PstlabError
from pstlab.io.manifest import now
from pstlab.run import launch, suites


def record_file(name: str, launch_no: int, launches: int) -> str:
    return f"{name}.jsonl" if launches == 1 else f"{name}-L{launch_no}.jsonl"


def new_manifest(suite: suites.Suite, run: launch.Launch, launches: int = 1) -> dict:
    """Every launch of every experiment, interleaved: launch 1 of each, then launch 2 of each that has one, ..."""
    total = {e.name: launches * e.launches for e in suite.experiments}
    return {
        "suite": suite.name,
        "suite_file": str(suite.path),
        "description": suite.description,
        "mpi": run.mpi,
        "launcher": run.launcher,
        "pstswm": str(run.pstswm),
        "pstlab_version": __version__,
        "host": socket.gethostname(),
        "created": now(),
        "launches": launches,
        "experiments": [
            {
                "name": e.name,
                "launch": k,
                "file": record_file(e.name, k, total[e.name]),
                "subcommand": e.subcommand,
                "ranks": e.ranks,
                "args": e.launch_args(k),
                "digest": e.digest,
                "status": "pending",
                **({"tuned_from": e.tuned_from} if e.tuned_from else {}),
            }
            for k in range(1, max(total.values()) + 1)
            for e in suite.experiments
            if k <= total[e.name]
        ],
    }


def job_key(entry: dict) -> tuple[str, int]:
    return entry["name"], entry.get("launch", 1)


def merge(manifest: dict, suite: suites.Suite, run: launch.Launch, directory: Path, launches: int) -> dict:
    """Resume: the old entries of experiments still defined alike, fresh entries for the rest."""
    if manifest.get("suite") != suite.name:
        raise PstlabError(f"{directory} holds suite '{manifest.get('suite')}', not '{suite.name}'")
    if manifest.get("mpi") != run.mpi:
        raise PstlabError(
            f"{directory} was run with --mpi {manifest.get('mpi')}; resuming with --mpi {run.mpi} "
            "would mix two MPIs in one result set"
        )
    names = {e.name for e in suite.experiments}
    if stale := [e["name"] for e in manifest.get("experiments", []) if e["name"] not in names]:
        raise PstlabError(
            f"{directory}: experiment(s) {', '.join(stale)} are no longer in suite '{suite.name}'; "
            "start a new results directory"
        )
    if manifest.get("launches", 1) != launches:
        raise PstlabError(
            f"{directory} was run with --launches {manifest.get('launches', 1)}; resume it with the same number"
        )
    old = {job_key(e): e for e in manifest.get("experiments", [])}
    fresh = new_manifest(suite, run, launches)
    fresh["created"] = manifest.get("created", fresh["created"])
    fresh["experiments"] = [
        {"launch": 1, "file": e["file"], **old[job_key(e)]}
        if job_key(e) in old and old[job_key(e)].get("digest") == e["digest"]
        else e
        for e in fresh["experiments"]
    ]
    # launches that --until added beyond the suite's own: kept while their experiment is defined alike
    digests = {e.name: e.digest for e in suite.experiments}
    fresh["experiments"] += [
        e for e in manifest.get("experiments", []) if e.get("added") and e.get("digest") == digests.get(e["name"])
    ]
    for key in ("until_s",):
        if key in manifest:
            fresh[key] = manifest[key]
    return fresh
