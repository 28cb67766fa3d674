"""`pstlab run SUITE`: run a suite's experiments into one results directory, resumably.

Layout of a results directory:
    manifest.json        the suite, the MPI, the launcher and every experiment's status
    <experiment>.jsonl   the records of each finished experiment (nothing else ends in .jsonl);
                         with --launches N, <experiment>-L<k>.jsonl for launch k = 1..N
    logs/<file stem>.out, .err   pstswm's human tables and messages
    tuned/<file stem>.toml   the opt preset of a `tuned_from` experiment, tuned from its kernel's records
    .partial/            where a running experiment writes; a file moves out only when it succeeded

With --launches N every experiment runs N times, interleaved across experiments (launch 1 of
each, then launch 2 of each, ...), so a drift of the host's load over the suite hits every
experiment alike; pstlab's statistics then treat the launch as the unit of replication.

An experiment's records appear under their final name only after pstswm exited 0 and every
line checked out, so an interrupted or failed experiment never mixes partial records in, and
--resume re-runs exactly the experiments that are not done.
"""

import datetime
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pstlab.core import paths
from pstlab.core.errors import PstlabError, RunFailed
from pstlab.io.manifest import MANIFEST, now
from pstlab.io.manifest import read as manifest_of
from pstlab.io.manifest import write as write_manifest
from pstlab.io.records import load_file
from pstlab.run import launch, owner, suites, until
from pstlab.run.plan import job_key, merge, new_manifest

PARTIAL = ".partial"
TUNED = "tuned"


class Interrupted(PstlabError):
    exit_code = 130


def fmt_duration(seconds: float) -> str:
    seconds = round(seconds)
    return (
        f"{seconds // 3600}h{seconds % 3600 // 60:02d}m" if seconds >= 3600 else f"{seconds // 60}m{seconds % 60:02d}s"
    )


@dataclass
class Options:
    suite: str
    mpi: str | None = None  # None: an installed pstswm's own MPI, else openmpi (launch.Launch.create)
    launcher: str = "mpiexec"
    build: str | None = None
    pstswm: str | None = None
    out: str | None = None
    resume: bool = False
    max_ranks: int | None = None
    dry_run: bool = False
    launches: int = 1
    platform: Path | None = None  # simulate (mpi smpi) on this platform: pstlab predict
    host_mflops: dict[str, float] | None = None  # this host's rate per problem, for the platform's
    until_s: float | None = None  # --until: a wall-clock budget for launches that narrow wide ties


# ---------------------------------------------------------------- choosing the directory


def _latest_unfinished(suite: str, mpi: str) -> Path:
    root = paths.results_dir()
    candidates = []
    for manifest_path in root.glob(f"*/{MANIFEST}") if root.is_dir() else []:
        try:
            m = manifest_of(manifest_path.parent)
        except PstlabError:
            continue  # not a run this resume could finish
        if m.get("suite") == suite and m.get("mpi") == mpi and any(e.get("status") != "done" for e in m["experiments"]):
            candidates.append(manifest_path.parent)
    if not candidates:
        raise PstlabError(
            f"--resume: no unfinished run of suite '{suite}' with {mpi} under {root}; "
            "name one with --out DIR or start afresh without --resume"
        )
    return max(candidates, key=lambda p: (p / MANIFEST).stat().st_mtime)


def results_directory(opts: Options, suite: suites.Suite, mpi: str) -> Path:
    """--out, the latest unfinished run with --resume, else results/<timestamp>-<suite>-<mpi>
    (paths.results_dir: the checkout's, or the current directory's)."""
    if opts.out:
        directory = Path(opts.out)
    elif opts.resume:
        directory = _latest_unfinished(suite.name, mpi)
    else:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        directory = paths.results_dir() / f"{stamp}-{suite.name}-{mpi}"
    if opts.resume:
        if not (directory / MANIFEST).is_file() and not owner.abandoned(directory):
            raise PstlabError(f"--resume: {directory} has no {MANIFEST}, so it is not a pstlab run to resume")
    elif (directory / MANIFEST).exists():
        raise PstlabError(f"{directory} already holds a suite run: add --resume to finish it, or choose another --out")
    elif directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise PstlabError(f"--out {directory}: exists and is not an empty directory")
    return directory


# ---------------------------------------------------------------- running


def _estimate_left(remaining: list[suites.Experiment], history: list[tuple[float, float | None]]) -> float:
    """Seconds left: the suite's estimates, scaled by how the finished experiments compared with theirs."""
    estimated = [(actual, est) for actual, est in history if est]
    scale = sum(a for a, _ in estimated) / sum(e for _, e in estimated) if estimated else 1.0
    mean_actual = sum(a for a, _ in history) / len(history) if history else 30.0
    return sum((e.estimate_s * scale) if e.estimate_s else mean_actual for e in remaining)


def _tail(path: Path, lines: int = 3) -> str:
    """pstswm's own error lines from a log; else srun's first errors (a launch that failed: its
    cause comes first, the aborted steps after); else its last lines (launchers append banners)."""
    try:
        text = [line.strip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()]
    except OSError:
        return ""
    if own := list(dict.fromkeys(line for line in text if line.startswith("pstswm"))):
        return " / ".join(own[-lines:])
    if slurm := list(dict.fromkeys(line for line in text if line.startswith("srun: error:"))):
        return " / ".join(slurm[:lines])
    return " / ".join([line for line in text if line.strip("-")][-lines:])


def _damage(path: Path) -> str | None:
    """Why a kept record file cannot stand for a finished experiment (None: it can): every line a
    whole record (a file cut mid-line fails here), the run header first."""
    try:
        recs = load_file(path)
    except PstlabError as e:
        return str(e)
    return None if recs and recs[0].get("type") == "header" else "no run header first"


def _finish(
    exp: suites.Experiment, entry: dict, outcome: launch.Outcome, partial: Path, final: Path, err: Path
) -> None:
    """Judge one finished launch; move its records into place only if they are whole and valid."""
    entry["elapsed_s"] = round(outcome.elapsed_s, 3)
    entry["returncode"] = outcome.returncode
    entry.pop("partial", None)
    reason = None
    if outcome.timed_out:
        reason = f"timed out after {exp.timeout_s:g} s and was stopped"
    elif outcome.returncode != 0:
        what = "pstswm rejected its arguments" if outcome.returncode == 2 else f"exit status {outcome.returncode}"
        reason = f"{what}: {_tail(err) or 'no message'}"
    elif not partial.is_file():
        reason = "exited 0 but wrote no record file"
    else:
        try:
            if not load_file(partial):
                reason = "exited 0 but wrote no records"
        except PstlabError as e:
            reason = str(e)
    if reason:
        partial.unlink(missing_ok=True)
        partial.with_name(partial.name + ".partial").unlink(missing_ok=True)  # pstswm's own, from a failed run
        entry.update(status="failed", reason=reason)
    else:
        partial.replace(final)
        entry.update(status="done", reason="")
    entry["finished"] = now()


def tuned_path(entry: dict) -> Path:
    """Where a tuned_from experiment's opt preset goes, relative to the results directory."""
    return Path(TUNED) / Path(entry["file"]).with_suffix(".toml")


def _tune_args(exp: suites.Experiment, preset: Path) -> list[str]:
    return ["--preset", "opt", "--tuned", str(preset)] if exp.tuned_from else []


def _tune(exp: suites.Experiment, entry: dict, directory: Path, entries: dict) -> tuple[Path | None, str]:
    """Write the opt preset of a tuned_from experiment from its kernel's finished records (the
    same launch's, so each launch is a whole replicate of the suite).

    Returns (the preset's path, "") or (None, why the experiment is skipped); raises PstlabError
    when the records are there but do not tune (the experiment then fails).
    """
    from pstlab.run import tune

    launches = [k for name, k in entries if name == exp.tuned_from]
    source = entries[(exp.tuned_from, min(entry.get("launch", 1), max(launches)))]
    records = directory / source["file"]
    out = directory / tuned_path(entry)
    out.unlink(missing_ok=True)  # always rewritten from the records: never a preset of older records
    if source.get("status") != "done" or not records.is_file():
        status = source.get("status", "pending")
        why = f": {source['reason']}" if source.get("reason") else ""
        return None, f"its opt preset is tuned from '{exp.tuned_from}', which is {status}{why}"
    grid = exp.option("--grid")
    opts = tune.Options(
        trunc=exp.option("--trunc"),
        levels=exp.option("--levels"),
        # a 1-D grid's records have a Px1 FFT stage and a 1xP Legendre stage: no single grid to select
        grid=grid if grid and re.fullmatch(r"[0-9]+x[0-9]+", grid) else None,
        records=str(records),
        out=str(out),
    )
    path, _ = tune.tune(opts)
    return path, ""


def _resume_args(opts: Options, directory: Path) -> list[str]:
    """The `pstlab run` arguments that finish this run: its suite, pstswm and MPI, --resume."""
    named = [("--mpi", opts.mpi), ("--build", opts.build), ("--pstswm", opts.pstswm), ("--out", str(directory))]
    launches = ["--launches", str(opts.launches)] if opts.launches > 1 else []
    budget = ["--until", f"{opts.until_s:g}s"] if opts.until_s else []
    named_args = [x for option, value in named if value for x in (option, value)]
    return [opts.suite, *named_args, "--resume", *launches, *budget]


def run_suite(opts: Options, echo=print, finish: Callable[[Path], None] | None = None) -> Path:
    """Run (or resume) a suite; return the results directory.  finish(directory) runs after the
    last experiment, also when some failed (pstlab run writes the report).  Raises RunFailed if
    experiments failed."""
    # The pstswm first, so a wrong one is named as such; then the suite, an installed pstswm's first.
    run = launch.Launch.create(opts.mpi, opts.launcher, opts.build, opts.pstswm, opts.platform, opts.host_mflops)
    binary, _ = paths.find_pstswm(opts.mpi, opts.build, opts.pstswm)
    suite = suites.load(opts.suite, binary, nodes=launch.nodes_of(opts.launcher))
    if opts.max_ranks is not None and opts.max_ranks < 1:
        raise PstlabError(f"--max-ranks must be at least 1, got {opts.max_ranks}")
    if opts.launches < 1:
        raise PstlabError(f"--launches must be at least 1, got {opts.launches}")
    if opts.until_s is not None:
        until.adaptive(suite)  # refused before anything runs when there is nothing to add launches to
    directory = results_directory(opts, suite, run.mpi)
    by_name = {e.name: e for e in suite.experiments}

    if opts.dry_run:
        available = run.subcommands()
        plan = new_manifest(suite, run, opts.launches)["experiments"]
        times = f" × {opts.launches} launches" if opts.launches > 1 else ""
        echo(
            f"suite {suite.name}: {len(suite.experiments)} experiments{times}; this pstswm has: "
            f"{', '.join(sorted(available))}"
        )
        for i, entry in enumerate(plan, 1):
            exp = by_name[entry["name"]]
            mark = "" if exp.subcommand in available else f"   (skipped: no '{exp.subcommand}' in this build)"
            args = [*entry["args"], *_tune_args(exp, tuned_path(entry)), "--out", entry["file"]]
            command = " ".join(run.command(exp.ranks, exp.subcommand, args))
            if exp.tuned_from:
                mark += f"   (opt preset tuned from {exp.tuned_from}'s records)"
            echo(f"[{i}/{len(plan)}] {exp.name}: {command}{mark}")
        return directory

    # Owned before the probe that follows, so that a pstlab killed from here on leaves a
    # directory its --resume takes over.
    directory.mkdir(parents=True, exist_ok=True)
    with owner.owned(directory, echo):
        available = run.subcommands()
        return _run_locked(opts, suite, run, directory, available, by_name, echo, finish)


@dataclass
class _Session:
    """A suite's run in its locked results directory: the manifest, and what each launch's steps
    read and note."""

    opts: Options
    run: launch.Launch
    directory: Path
    manifest: dict
    by_name: dict[str, suites.Experiment]
    available: set[str]
    echo: Callable[[str], None]
    start: float = field(default_factory=time.monotonic)
    history: list[tuple[float, float | None]] = field(default_factory=list)  # (elapsed, estimate) per launch
    attempted: set[tuple[str, int]] = field(default_factory=set)  # (re)run now: what was tuned from them is stale

    @property
    def jobs(self) -> list[dict]:
        return self.manifest["experiments"]

    def save(self) -> None:
        write_manifest(self.directory, self.manifest)

    def skip_reason(self, exp: suites.Experiment) -> str | None:
        """Why this pstswm or --max-ranks cannot run exp; None when they can."""
        if exp.subcommand not in self.available:
            return f"this pstswm build has no '{exp.subcommand}' subcommand"
        if self.opts.max_ranks is not None and exp.ranks > self.opts.max_ranks:
            return f"needs {exp.ranks} ranks, --max-ranks is {self.opts.max_ranks}"
        return None

    def skip(self, entry: dict, prefix: str, reason: str) -> None:
        entry.update(status="skipped", reason=reason)
        self.echo(f"{prefix}: skipped: {reason}")
        self.save()

    def step(self, i: int, entry: dict) -> None:
        """Launch i of the manifest, unless it is kept from an earlier run, skipped, or its preset
        does not tune."""
        exp, k = self.by_name[entry["name"]], entry.get("launch", 1)
        launch_no = f" (launch {k})" if entry["file"] != f"{exp.name}.jsonl" else ""
        prefix = f"[{i}/{len(self.jobs)}] {exp.name}{launch_no}"
        if self.kept(entry, exp, prefix):
            return
        self.attempted.add((exp.name, k))
        (self.directory / entry["file"]).unlink(missing_ok=True)  # a done entry whose definition changed is re-run
        for key in ("reason", "tuned"):
            entry.pop(key, None)
        if reason := self.skip_reason(exp):
            self.skip(entry, prefix, reason)
            return
        extra = self.tuned_args(entry, exp, prefix) if exp.tuned_from else []
        if extra is None:
            return
        remaining = [
            self.by_name[e["name"]]
            for e in self.jobs[i - 1 :]
            if e.get("status") != "done" and self.skip_reason(self.by_name[e["name"]]) is None
        ]
        elapsed = fmt_duration(time.monotonic() - self.start)
        self.echo(
            f"{prefix}: pstswm {exp.subcommand} on {exp.ranks} ranks | elapsed {elapsed}"
            f" | about {fmt_duration(_estimate_left(remaining, self.history))} left"
        )
        self.execute(entry, exp, extra, prefix)

    def kept(self, entry: dict, exp: suites.Experiment, prefix: str) -> bool:
        """A launch done in an earlier run stays, unless its records are damaged (they are moved
        aside) or the kernel its preset is tuned from runs again now."""
        final = self.directory / entry["file"]
        stale = (exp.tuned_from, entry.get("launch", 1)) in self.attempted
        if entry.get("status") != "done" or not final.is_file() or stale:
            return False
        if (problem := _damage(final)) is None:
            self.echo(f"{prefix}: done in an earlier run, kept")
            return True
        final.replace(final.with_name(final.name + ".invalid"))
        self.echo(f"{prefix}: its kept records are damaged ({problem}); moved to {final.name}.invalid, running again")
        return False

    def tuned_args(self, entry: dict, exp: suites.Experiment, prefix: str) -> list[str] | None:
        """pstswm's arguments for the opt preset tuned from exp.tuned_from's records; None when
        there is none to run with (the entry is then failed or skipped)."""
        try:
            preset, skip = _tune(exp, entry, self.directory, {job_key(e): e for e in self.jobs})
        except PstlabError as e:
            entry.update(status="failed", reason=f"tuning the opt preset from '{exp.tuned_from}' failed: {e}")
            entry["finished"] = now()
            self.echo(f"{prefix}: FAILED: {entry['reason']}")
            self.save()
            return None
        if preset is None:
            self.skip(entry, prefix, skip)
            return None
        entry["tuned"] = str(tuned_path(entry))
        self.echo(f"{prefix}: opt preset tuned from {exp.tuned_from}'s records: {entry['tuned']}")
        return _tune_args(exp, preset.resolve())

    def execute(self, entry: dict, exp: suites.Experiment, extra: list[str], prefix: str) -> None:
        """Launch exp into .partial/, keep its records if they are whole, note how it went; on an
        interruption, leave it pending and say how to resume."""
        # A directory of this attempt's own: a launch left running by a killed pstlab never
        # renames or removes the partial file of the launch that runs it again.
        attempt = Path(PARTIAL) / f"{Path(entry['file']).stem}.{os.getpid()}.{uuid.uuid4().hex[:8]}"
        (self.directory / attempt).mkdir(parents=True)
        partial = self.directory / attempt / entry["file"]
        args = exp.launch_args(entry.get("launch", 1))
        argv = self.run.command(exp.ranks, exp.subcommand, [*args, *extra, "--out", str(partial.resolve())])
        shown = [*args, *_tune_args(exp, tuned_path(entry)), "--out", entry["file"]]
        command = self.run.command(exp.ranks, exp.subcommand, shown)
        entry.update(status="running", command=command, started=now(), partial=str(attempt / entry["file"]))
        self.save()
        log = self.directory / "logs" / Path(entry["file"]).stem
        try:
            tags = owner.launch_tags(self.directory, entry["file"])
            outcome = launch.run(argv, log.with_suffix(".out"), log.with_suffix(".err"), exp.timeout_s, tags)
        except KeyboardInterrupt:
            partial.unlink(missing_ok=True)
            entry.pop("partial", None)
            entry.update(status="pending", reason="interrupted")
            self.save()
            raise Interrupted(
                f"interrupted during {exp.name}; finished experiments are kept. Resume with: "
                f"pstlab run {' '.join(_resume_args(self.opts, self.directory))}"
            ) from None
        _finish(exp, entry, outcome, partial, self.directory / entry["file"], log.with_suffix(".err"))
        self.history.append((outcome.elapsed_s, exp.estimate_s))
        self.save()
        if entry["status"] == "done":
            self.echo(f"{' ' * len(prefix)}  done in {outcome.elapsed_s:.1f} s")
        else:
            self.echo(f"{' ' * len(prefix)}  FAILED: {entry['reason']} (logs/{log.name}.err)")


def _recover(directory: Path, entry: dict) -> bool:
    """A launch a killed pstlab left 'running': keep its records if its pstswm finished them
    (committed into its attempt's directory, or already moved into place) and they are whole."""
    final = directory / entry["file"]
    partial = directory / entry.pop("partial") if entry.get("partial") else None
    for records in (final, partial):
        if records is not None and records.is_file() and _damage(records) is None:
            records.replace(final)
            entry.update(status="done", reason="", finished=now())
            return True
    final.unlink(missing_ok=True)
    entry.update(status="pending", reason="its pstlab ended during the launch")
    return False


def _prepare(opts: Options, suite: suites.Suite, run: launch.Launch, directory: Path, echo) -> dict:
    """The manifest to run (the kept one merged with the suite on --resume), written, with an
    empty .partial/ and logs/."""
    kept = manifest_of(directory) if opts.resume else None
    if opts.resume and kept is None:
        echo("pstlab: the pstlab that ended here had started no launch: running the suite from the start")
    fresh = new_manifest(suite, run, opts.launches)
    manifest = merge(kept, suite, run, directory, opts.launches) if kept is not None else fresh
    for entry in manifest["experiments"]:
        if entry.get("status") == "running" and _recover(directory, entry):
            echo(f"pstlab: {entry['file']}: finished by the pstlab that ended during it; its records are kept")
    for sub in ("logs", PARTIAL):
        (directory / sub).mkdir(parents=True, exist_ok=True)
    shutil.rmtree(directory / PARTIAL)  # leftovers of an interrupted experiment: never kept
    (directory / PARTIAL).mkdir()
    write_manifest(directory, manifest)
    return manifest


def _conclude(session: _Session, suite: suites.Suite, finish: Callable[[Path], None] | None) -> None:
    """The suite's last lines, finish(directory), and RunFailed naming the experiments that failed."""
    directory, jobs = session.directory, session.jobs
    shutil.rmtree(directory / PARTIAL, ignore_errors=True)
    statuses = [e["status"] for e in jobs]
    counts = ", ".join(f"{statuses.count(s)} {s}" for s in ("done", "skipped", "failed") if s in statuses)
    elapsed = fmt_duration(time.monotonic() - session.start)
    session.echo(f"pstlab: suite {suite.name} finished in {elapsed}: {counts}; results in {directory}")
    if finish is not None:
        finish(directory)
    if failed := list(dict.fromkeys(e["name"] for e in jobs if e["status"] == "failed")):
        raise RunFailed(
            f"{len(failed)} experiment(s) failed: {', '.join(failed)} (see {directory}/logs; "
            f"--resume re-runs only these)"
        )


def _run_locked(opts, suite, run, directory: Path, available, by_name, echo, finish) -> Path:
    manifest = _prepare(opts, suite, run, directory, echo)
    times = f" × {opts.launches} launches" if opts.launches > 1 else ""
    echo(
        f"pstlab: suite {suite.name} ({len(suite.experiments)} experiments{times}) with {run.mpi} via "
        f"{run.launcher}; results in {directory}"
    )
    session = _Session(opts, run, directory, manifest, by_name, available, echo)
    for i, entry in enumerate(session.jobs, 1):
        session.step(i, entry)
    if opts.until_s is not None:
        until.spend(session, suite, opts.until_s)
    _conclude(session, suite, finish)
    return directory


# ---------------------------------------------------------------- the command


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(
        name,
        help=summary,
        description="Run every experiment of SUITE (by name: SUITE.toml in the installed pstswm's "
        "share/pstswm/suites or the checkout's suites/; or a path to a .toml file), then write its report. "
        "Experiments whose subcommand this pstswm build lacks are skipped with a note.",
    )
    p.add_argument(
        "suite",
        help="quick, paper, full (from the installed pstswm's share/pstswm/suites, or the checkout's suites/), "
        "or a path to a suite .toml file",
    )
    launch.add_options(p)
    p.add_argument("--out", metavar="DIR", help="results directory (default results/<timestamp>-<suite>-<mpi>)")
    p.add_argument(
        "--resume",
        action="store_true",
        help="finish an interrupted run (the --out DIR, else the latest unfinished one of this suite): "
        "finished experiments are kept, the others run",
    )
    p.add_argument("--max-ranks", type=int, metavar="N", help="skip experiments that need more than N ranks")
    p.add_argument(
        "--launches",
        type=int,
        default=1,
        metavar="N",
        help="run every experiment N times, interleaved across experiments (<name>-L<k>.jsonl); the statistics "
        "then count the variation between launches (compare --fail-above needs 3)",
    )
    p.add_argument(
        "--until",
        metavar="DURATION",
        help="a wall-clock budget (300, 90s, 5m, 1h30m) counted over every launch: after the suite, add launches "
        "one by one to the repeated kernel or swap experiment with the widest ties more launches can narrow; "
        "stops early when none can (resumable with --resume --until)",
    )
    p.add_argument("--dry-run", action="store_true", help="print each experiment's command line and run nothing")
    p.add_argument(
        "--no-report",
        action="store_true",
        help="do not write report.md and report.html into the results directory at the end (pstlab report does)",
    )


# How pstlab run writes the report at its end: pstlab report, with this Python.
REPORT_COMMAND = [sys.executable, "-m", "pstlab", "report"]


def write_report(directory: Path) -> None:
    """What finished, reported by `pstlab report` in a process of its own (the report is a layer
    beside this one, not below it); a refusal is named, and the run's own exit status stands."""
    if not any(directory.glob("*.jsonl")):
        return
    done = subprocess.run([*REPORT_COMMAND, str(directory)], capture_output=True, text=True, check=False)
    if done.returncode == 0:
        print(done.stdout, end="", flush=True)
    else:
        why = done.stderr.strip().removeprefix("pstlab report: ")
        print(f"pstlab run: no report: {why}", file=sys.stderr, flush=True)


def command(args) -> int:
    opts = Options(
        args.suite,
        args.mpi,
        args.launcher,
        args.build,
        args.pstswm,
        args.out,
        args.resume,
        args.max_ranks,
        args.dry_run,
        args.launches,
        until_s=until.parse_duration(args.until) if args.until is not None else None,
    )
    run_suite(opts, echo=lambda text: print(text, flush=True), finish=None if args.no_report else write_report)
    return 0
