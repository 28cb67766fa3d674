"""`pstlab predict --platform FILE [SUITE]`: run a suite's experiments with the SMPI build on a
simulated platform (docs/predict.md), into a results directory `pstlab report` reads.

The experiments run through `pstlab run`'s machinery (manifest, resume, logs, atomic record
files); only the launch differs: scripts/pstrun --mpi smpi --platform FILE.  Every record's run
header says `"simulated": true` with the platform file and SimGrid's --cfg, so the report keeps
predictions out of its verdicts (pstlab.verdicts.measured).  The manifest's `predicted` object
holds what a reader needs to weigh them: the platform file, its SHA-256, its [validation] figures
and the band they give, the rank-to-node mapping, and this host's compute rate per problem.

Compute time: SMPI runs the arithmetic on this host and scales its time by host rate / platform
rate.  The host rate of each problem the suite runs is measured first by a serial model run under
SMPI at neutral speed (simulated time = host time), so a platform with [compute.TxLy] gets that
problem's rate; a model experiment whose problem the platform has no rate for is refused, since its
compute would be this host's.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pstlab.core import paths
from pstlab.core.errors import PstlabError, RunFailed
from pstlab.io import manifest
from pstlab.run import launch, run, suites
from pstlab.simulate import platform

DEFAULT_SUITE = "predict"
HOST_RATE_STEPS = 4  # serial steps that measure this host's MFlop/s for a problem
MAPPING_VAR = "PSTRUN_MAPPING"  # scripts/pstrun's default for --mapping


@dataclass
class Options:
    platform: str
    suite: str = DEFAULT_SUITE
    build: str | None = None
    out: str | None = None
    resume: bool = False
    max_ranks: int | None = None
    dry_run: bool = False
    mapping: str = "block"  # platform.MAPPINGS: where the ranks go on the platform's nodes


def band(p: platform.Platform) -> float | None:
    """The relative error to put around every prediction: the largest of the platform's own
    validation figures (simulation is deterministic, so its accuracy is the platform's, not a
    bootstrap interval's); None when the file has no [validation]."""
    return max(p.validation.values()) if p.validation else None


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def problems(suite: suites.Suite, p: platform.Platform) -> list[str]:
    """The problems whose compute the suite's model and kernel experiments scale; refuses a model
    experiment the platform has no rate for."""
    needed = []
    for e in suite.experiments:
        problem = launch.problem_of(e.args) if e.subcommand in ("model", "kernel") else None
        if e.subcommand == "model" and problem not in p.compute:
            raise PstlabError(
                f"{suite.path}: experiment '{e.name}' runs {problem or 'a problem without --trunc/--levels'}, "
                f"which {p.path} has no [compute.{problem or 'TxLy'}] rate for"
            )
        if problem in p.compute and problem not in needed:
            needed.append(problem)
    return needed


def host_mflops(problem: str, platform_file: Path, pstswm: Path) -> float:
    """This host's MFlop/s for problem: a serial model run under SMPI at neutral speed."""
    trunc, levels = problem[1:].split("L")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "serial.jsonl"
        model = ["model", "--trunc", trunc, "--levels", levels, "--steps", str(HOST_RATE_STEPS), "--out", str(out)]
        pstrun = str(paths.pstrun(pstswm))
        cmd = [pstrun, "--mpi", "smpi", "--platform", str(platform_file), "-n", "1", str(pstswm), *model]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0:
            raise RunFailed(
                f"measuring this host's rate for {problem} failed (exit {done.returncode}): "
                f"{' '.join(cmd)}\n{done.stderr[-2000:]}"
            )
        points = [r for r in map(json.loads, out.read_text().splitlines()) if r.get("type") == "point"]
    rates = [r["mflops"] for r in points if r.get("mflops")]
    if not rates:
        raise RunFailed(f"the serial {problem} run wrote no mflops: no rate to scale its compute by")
    return rates[-1]


def predicted_entry(p: platform.Platform, rates: dict[str, float], mapping: str) -> dict:
    return {
        "platform": str(p.path.resolve()),
        "platform_sha256": sha256(p.path),
        "mapping": mapping,
        "validation": dict(p.validation),
        "band": band(p),
        "host_mflops": rates,
    }


def _checked(opts: Options) -> tuple[platform.Platform, suites.Suite, Path]:
    """The platform, the suite and the SMPI build of opts, or a refusal (exit 2)."""
    p = platform.load(opts.platform)
    if opts.mapping not in platform.MAPPINGS:
        raise PstlabError(f"--mapping: unknown mapping {opts.mapping!r} (allowed: {', '.join(platform.MAPPINGS)})")
    pstswm, how = paths.find_pstswm("smpi", opts.build)
    suite = suites.load(opts.suite, pstswm)
    if pstswm is None or not pstswm.is_file():
        raise PstlabError(f"{pstswm or how}: no SMPI build to predict with (scripts/dev/build.sh smpi)")
    if too_big := [e.name for e in suite.experiments if e.ranks > p.ranks]:
        raise PstlabError(f"{p.path} holds {p.ranks} ranks; experiment(s) {', '.join(too_big)} need more")
    return p, suite, pstswm


def host_rates(opts: Options, p: platform.Platform, echo=print) -> dict[str, float]:
    """This host's MFlop/s for every problem opts' suite scales on p (0 on a dry run: not measured)."""
    _, suite, pstswm = _checked(opts)
    needed = problems(suite, p)
    if opts.dry_run:
        return {problem: 0.0 for problem in needed}
    rates = {problem: host_mflops(problem, p.path, pstswm) for problem in needed}
    for problem, rate in rates.items():
        platform_rate = p.compute[problem]["mflops"]
        echo(f"pstlab predict: {problem} computes at {rate:.6g} MFlop/s here, {platform_rate:.6g} on {p.name}")
    return rates


def predict(opts: Options, echo=print, rates: dict[str, float] | None = None) -> Path:
    """Run the suite on the platform; return the results directory.  rates: this host's MFlop/s
    per problem when already measured (pstlab predict --sensitivity measures them once)."""
    p, suite, _ = _checked(opts)
    if rates is None:
        rates = host_rates(opts, p, echo)
    base = run.Options(
        str(suite.path),
        "smpi",
        build=opts.build,
        out=opts.out,
        resume=opts.resume,
        max_ranks=opts.max_ranks,
        dry_run=opts.dry_run,
        platform=p.path,
        host_mflops=rates,
    )
    if opts.out is None and not opts.resume:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        base.out = str(paths.results_dir() / f"{stamp}-{suite.name}-{p.name}")
    directory = run.results_directory(base, suite, "smpi")
    base.out = str(directory)
    echo(f"pstlab predict: {p.name}, {opts.mapping} mapping of ranks to its nodes")
    try:
        with mapping_for_pstrun(opts.mapping):
            return run.run_suite(base, echo)
    finally:
        if not opts.dry_run:
            _mark(directory, p, rates, opts.mapping)


@contextlib.contextmanager
def mapping_for_pstrun(mapping: str):
    """Every launch in the block places its ranks by `mapping` (scripts/pstrun reads MAPPING_VAR)."""
    before = os.environ.get(MAPPING_VAR)
    os.environ[MAPPING_VAR] = mapping
    try:
        yield
    finally:
        if before is None:
            del os.environ[MAPPING_VAR]
        else:
            os.environ[MAPPING_VAR] = before


def _mark(directory: Path, p: platform.Platform, rates: dict[str, float], mapping: str) -> None:
    """Add the `predicted` object to the manifest, also when experiments failed."""
    if (found := manifest.read(directory)) is None:
        return
    found["predicted"] = predicted_entry(p, rates, mapping)
    manifest.write(directory, found)
