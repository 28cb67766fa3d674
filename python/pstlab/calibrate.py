"""`pstlab calibrate RESULTS`: describe the node RESULTS was measured on as a platform file
(docs/predict.md), fitted from pstswm's own records, and check it by simulating it.

Fitted:
- the node's message path from the ping-pong records (mode send, one pair: every size's half
  round trip): the node is a cluster of one-core hosts ([node]); a message crosses the sender's
  core link, the node's shared link and the receiver's core link; the core links carry the
  zero-byte time as latency and the peak rate as bandwidth (a core's sends and receives share it:
  a copy is the core's work), per-size bandwidth factors carry the rest;
- what the cores share: the swap records of `pstswm swap --pairs all` on more than 2 ranks (every
  pair exchanging at once); a size at which k ranks swap slower than 2 do says the node's shared
  link is what divides them: its bandwidth is set so that k flows take the measured time;
- the copy rate (skeleton mode's charge for a transpose's packing and unpacking): the ping-pong's
  peak rate, since a message within a node is a memory copy;
- the compute rates from serial model runs (per problem the median run's MFlop/s and each
  stage's), and, where serial runs of one truncation at several level counts exist, each stage's
  rate by the share of the problem a rank holds (rates_by_share: L/2 levels is half the problem).

SMPI adds latencies of its own to a simulated message: each ping-pong size's fitted time is
scaled by measured / simulated and the fit redone, a few times at most.

Checked, by running the SMPI build (build/smpi) on the written platform, with no time of this
host in the simulation (the network checks switch SMPI's timing of host work off, the kernel
check runs in skeleton mode), so the same records give the same file and figures on a busy host
or a quiet one: the calibration ping-pong (target: within 5 % at every size), the 2-rank swap
curve, the k-rank swaps, and a kernel stage, not fitted on (target: within 15 %).  The figures
are printed and stored in the file's [validation]."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from pstlab import paths, platform, records
from pstlab.errors import PstlabError, RunFailed

PINGPONG_TARGET = 0.05
HELD_OUT_TARGET = 0.15
CORRECTIONS = 4
# SimGrid's default eager limit: pstswm's records do not show the library's own.
EAGER_LIMIT_BYTES = 65536


# SMPI's timing of this host's work between MPI calls: off in every check (its figures must not
# depend on what else the host is doing).
NO_HOST_TIME = ["--cfg", "smpi/simulate-computation:no"]


@dataclass
class Fit:
    latency_s: float
    bandwidth_bytes_per_s: float
    bw_factor: list[tuple[int, float]]
    pingpong_s: dict[int, float]  # measured half round trip per size
    mflops: dict[str, dict[str, float]]  # problem -> {"mflops": serial model rate, "<stage>_mflops": ...}
    ranks_per_node: int
    host: str
    meant_s: dict[int, float]  # the time per size the network rows were fitted to
    # (ranks, bytes) -> measured time of the swap (0,6), every pair of the run at once
    swap_s: dict[tuple[int, int], float] = field(default_factory=dict)
    shares: dict[str, list[tuple[float, ...]]] = field(default_factory=dict)
    shares_source: dict[str, str] = field(default_factory=dict)

    @property
    def shared_fitted(self) -> float | None:
        """The node's shared bandwidth the loaded swaps imply; None when none constrains it."""
        return _shared_bandwidth(self.swap_s, self.latency_s, self.bandwidth_bytes_per_s)

    @property
    def shared_bandwidth(self) -> float:
        """The node's shared link: as fitted, else every core copying at its full rate at once."""
        return self.shared_fitted or self.ranks_per_node * self.bandwidth_bytes_per_s


def _median_by(points: list[dict], key: str) -> dict:
    groups: dict = {}
    for p in points:
        groups.setdefault(p[key], []).append(p["t_med"])
    return {k: statistics.median(v) for k, v in sorted(groups.items())}


def _network(times_s: dict[int, float], label: str) -> tuple[float, float, list[tuple[int, float]]]:
    """(latency, peak rate, per-size bandwidth factors) that give times_s[n] = latency + n / (peak x factor)."""
    latency = times_s.get(0, min(times_s.values()))
    rates = {n: n / (t - latency) for n, t in times_s.items() if n > 0 and t > latency}
    if not rates:
        raise PstlabError(f"{label}: the ping-pong times do not grow with size: nothing to fit a bandwidth to")
    peak = max(rates.values())
    # A size no slower than the latency cannot be told apart from it: the full rate from there.
    return latency, peak, [(0, 1.0)] + [(n, rates[n] / peak if n in rates else 1.0) for n in sorted(times_s) if n > 0]


def corrected(f: Fit, simulated_s: dict[int, float]) -> Fit:
    """f refitted so that each size's time moves by the ratio measured / simulated: SMPI's own
    additions (pstswm's time between calls, its protocol's extra latencies) are not the fit's."""
    target = {n: f.meant_s[n] * f.pingpong_s[n] / simulated_s[n] for n in f.pingpong_s}
    latency, peak, factors = _network(target, "the corrected fit")
    return replace(f, latency_s=latency, bandwidth_bytes_per_s=peak, bw_factor=factors, meant_s=target)


def _rates(runs: list[dict]) -> dict[str, float]:
    """A problem's rates from its serial runs: the model's (the median run's), and per stage the
    median over runs of the stage's flops over its time.  A stage's time is its mean per step,
    which the host's stalls inflate: each run's stage times are scaled to its median step, so the
    stages' shares come from the means and their sum from the median, as the model's rate does."""
    rates = {"mflops": statistics.median(p["mflops"] for p in runs)}
    timed = [p for p in runs if all(p.get(f"{s}_flops") and p.get(f"{s}_s") for s in platform.STAGES)]
    for stage in platform.STAGES if timed else ():
        per_run = []
        for p in timed:
            scale = p["step_s"] / sum(p[f"{s}_s"] for s in platform.STAGES)
            per_run.append(p[f"{stage}_flops"] / (p[f"{stage}_s"] * scale) / 1e6)
        rates[f"{stage}_mflops"] = statistics.median(per_run)
    return rates


def _swaps(results: records.RecordSet) -> dict[tuple[int, int], float]:
    """(ranks, bytes) -> median time of the unordered nonblocking swap (0,6: the model's default),
    one message, every pair of the run exchanging at once (2 ranks: the one pair)."""
    points = [
        p
        for p in results.points("swap")
        if p.get("protocol") == "0,6"
        and p.get("nmsg") == 1
        and p.get("transport") == "mpi"
        and p.get("cache") in (None, "1")
        and p.get("npairs") == p.get("ranks", 0) // 2
        and p.get("t_med")
    ]
    groups: dict[tuple[int, int], list[float]] = {}
    for p in points:
        groups.setdefault((p["ranks"], p["bytes"]), []).append(p["t_med"])
    return {k: statistics.median(v) for k, v in sorted(groups.items())}


def _shared_bandwidth(swaps: dict[tuple[int, int], float], latency_s: float, peak: float) -> float | None:
    """The node's shared bandwidth that k ranks swapping at once imply, at each k's largest size:
    2 ranks' flows each get half a core link (its sends and receives share it); k ranks' flows
    get less when the node's path is what divides them: S / k = (peak / 2) x (t2 - lat) / (tk - lat).
    The most constraining k decides; None when no k is slower than 2 ranks (nothing shared seen)."""
    two = {n: t for (k, n), t in swaps.items() if k == 2}
    implied = []
    for k in sorted({k for k, _ in swaps if k > 2}):
        n = max(m for kk, m in swaps if kk == k and m in two) if any(kk == k and m in two for kk, m in swaps) else None
        if n is not None and swaps[(k, n)] > two[n] > latency_s:
            implied.append(k * peak / 2 * (two[n] - latency_s) / (swaps[(k, n)] - latency_s))
    return min(implied) if implied else None


def _shares(mflops: dict[str, dict[str, float]]) -> tuple[dict[str, list[tuple[float, ...]]], dict[str, str]]:
    """Per truncation measured at several level counts, each stage's rate by the share of the
    largest problem a serial run at fewer levels is (L/2 levels: half of it); problems measured
    at one level count only get no table (every rank then computes at the serial rate)."""
    by_trunc: dict[int, dict[int, dict[str, float]]] = {}
    for problem, rates in mflops.items():
        trunc, levels = map(int, problem[1:].split("L"))
        if all(f"{s}_mflops" in rates for s in platform.STAGES):
            by_trunc.setdefault(trunc, {})[levels] = rates
    shares, sources = {}, {}
    for trunc, runs in sorted(by_trunc.items()):
        if len(runs) < 2:
            continue
        top = max(runs)
        problem = f"T{trunc}L{top}"
        shares[problem] = [
            (levels / top, *(runs[levels][f"{s}_mflops"] for s in platform.STAGES))
            for levels in sorted(runs, reverse=True)
        ]
        sources[problem] = ", ".join(f"T{trunc}L{levels}" for levels in sorted(runs, reverse=True))
    return shares, sources


def fit(results: records.RecordSet) -> Fit:
    pings = [
        p
        for p in results.points("pingpong")
        if p.get("mode") == "send"
        and p.get("direction") == "uni"
        and p.get("npairs") == 1
        and p.get("transport") == "mpi"
        and p.get("t_med")
    ]
    if len(pings) < 2:
        raise PstlabError(f"{results.label()}: no ping-pong records to fit (pstswm pingpong --modes send on 2 ranks)")
    measured = _median_by(pings, "bytes")
    latency, peak, factors = _network(measured, results.label())

    model = [p for p in results.points("model") if p.get("grid") == "1x1" and p.get("mflops")]
    if not model:
        raise PstlabError(
            f"{results.label()}: no serial model run for the compute rate (pstswm model --grid 1x1 on 1 rank, "
            "at the problem's levels and fewer: docs/predict.md, Calibrate a node)"
        )
    by_problem: dict[str, list[dict]] = {}
    for p in model:
        by_problem.setdefault(f"T{p['trunc']}L{p['levels']}", []).append(p)
    swaps = _swaps(results)
    if not any(k == 2 for k, _ in swaps):
        raise PstlabError(
            f"{results.label()}: no swap records of protocol 0,6 on 2 ranks (pstswm swap --protocols 0,6 --pairs all "
            "on 2 ranks and on every core count of the node: docs/predict.md, Calibrate a node)"
        )
    mflops = {problem: _rates(runs) for problem, runs in by_problem.items()}
    shares, sources = _shares(mflops)

    header = results.headers()[0]
    return Fit(
        latency_s=latency,
        bandwidth_bytes_per_s=peak,
        bw_factor=factors,
        pingpong_s=measured,
        mflops=mflops,
        ranks_per_node=max(int(header.get("cpus_online") or 1), 2),
        host=str(header.get("cpu_model") or "this host"),
        meant_s=dict(measured),
        swap_s=swaps,
        shares=shares,
        shares_source=sources,
    )


def _loaded_note(f: Fit) -> str:
    ks = sorted({k for k, _ in f.swap_s if k > 2})
    if not ks:
        return "no swap of more than 2 ranks at once in the records: not constrained (the cores' sum)"
    if f.shared_fitted is None:
        return (
            f"swaps of {', '.join(map(str, ks))} ranks at once were no slower than 2: not constrained (the cores' sum)"
        )
    return f"k x peak/2 x (t2 - lat)/(tk - lat) of the swaps of {', '.join(map(str, ks))} ranks at once, the least"


def toml_text(f: Fit, source: Path, validation: dict[str, float] | None = None) -> str:
    """The platform file, each number with where it comes from."""
    rows = ", ".join(f"[{n}, {x:.6g}]" for n, x in f.bw_factor)
    lines = [
        f"# This node ({f.host}), written by `pstlab calibrate {source}`: fitted from pstswm's",
        "# ping-pong (mode send, half round trip), swaps and serial model runs of that directory, less",
        "# what SMPI adds in simulating pstswm (measured by simulating the fit); the [validation]",
        "# figures are the simulated platform's errors against those measurements.",
        "",
        "[platform]",
        'name = "this-machine"',
        "",
        "[nodes]",
        "count = 1                       # the node measured",
        f"cores_per_node = {f.ranks_per_node}              # its cores (cpus_online, at least 2), a rank slot each",
        "",
        "[topology]",
        'kind = "cluster"',
        "",
        "[network]",
        "# Between nodes: not measured (one node); the node's own figures, for files that add nodes.",
        f"latency_s = {f.latency_s / 2:.6g}            # half the ping-pong's 0-byte time (two links per message)",
        f"bandwidth_bytes_per_s = {f.bandwidth_bytes_per_s:.6g}  # ping-pong peak bytes / (time - latency)",
        'link_sharing = "shared"',
        f"loopback_latency_s = {f.latency_s:.6g}   # a rank to itself: as to another rank",
        f"loopback_bandwidth_bytes_per_s = {f.bandwidth_bytes_per_s:.6g}  # the same",
        "lat_factor = [[0, 1.0]]        # the latency is the 0-byte time itself",
        f"bw_factor = [{rows}]  # each ping-pong size's rate over the peak",
        f"eager_limit_bytes = {EAGER_LIMIT_BYTES}      # SimGrid's default: the records do not show the library's",
        "",
        "[overheads]",
        "send = [[0, 0.0, 0.0]]         # in the fitted times already",
        "recv = [[0, 0.0, 0.0]]         # in the fitted times already",
        "isend = [[0, 0.0, 0.0]]        # in the fitted times already",
        "",
        "[collectives]",
        'selector = "ompi"             # SMPI\'s Open MPI selection logic',
        "",
        "[node]",
        f"latency_s = {f.latency_s:.6g}              # the ping-pong's 0-byte time",
        f"core_bandwidth_bytes_per_s = {f.bandwidth_bytes_per_s:.6g}  # ping-pong peak (sends, receives share it)",
        f"shared_bandwidth_bytes_per_s = {f.shared_bandwidth:.6g}  # {_loaded_note(f)}",
        f"copy_bytes_per_s = {f.bandwidth_bytes_per_s:.6g}  # ping-pong peak: a message within a node is a copy",
    ]
    for problem, rates in sorted(f.mflops.items()):
        lines += ["", f"[compute.{problem}]"]
        for key, rate in rates.items():
            note = "model on 1 rank: the median of its runs"
            if key != "mflops":
                note = "the stage's flops / its time, as mflops"
            lines.append(f"{f'{key} = {rate:.6g}':<30} # {note}")
        if problem in f.shares:
            table = ", ".join("[" + ", ".join(f"{x:.6g}" for x in row) + "]" for row in f.shares[problem])
            lines.append(f"# [share, {', '.join(platform.SHARE_ROW[1:])}]: serial runs of {f.shares_source[problem]}")
            lines.append(f"rates_by_share = [{table}]")
    if validation:
        lines += ["", "[validation]"]
        notes = {
            "pingpong_max_error": f"simulated vs measured calibration ping-pong (target {PINGPONG_TARGET:.0%})",
            "swap_max_error": f"the 2-rank swap curve, not fitted on (target {HELD_OUT_TARGET:.0%})",
            "node_swap_max_error": f"the swaps of every pair at once (target {HELD_OUT_TARGET:.0%})",
            "stage_max_error": f"a kernel stage, not fitted on (target {HELD_OUT_TARGET:.0%})",
        }
        lines += [f"{k} = {v:.4f}    # {notes[k]}" for k, v in validation.items()]
    return "\n".join(lines) + "\n"


def _simulate(platform_file: Path, pstswm: Path, ranks: int, launch: list[str], command: list[str]) -> list[dict]:
    """The records of `pstswm COMMAND` on `ranks` simulated ranks of the platform; launch: pstrun's
    own options (--cfg, --problem)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sim.jsonl"
        cmd = [
            str(paths.pstrun(pstswm)),
            "--mpi",
            "smpi",
            "--platform",
            str(platform_file),
            *launch,
            "-n",
            str(ranks),
            str(pstswm),
            *command,
            "--out",
            str(out),
        ]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
        if run.returncode != 0:
            raise RunFailed(f"simulated run failed (exit {run.returncode}): {' '.join(cmd)}\n{run.stderr[-2000:]}")
        return [json.loads(line) for line in out.read_text().splitlines()]


def _max_error(pairs: list[tuple[float, float]]) -> float:
    return max(abs(sim - meas) / meas for meas, sim in pairs)


def check_pingpong(f: Fit, platform_file: Path, pstswm: Path) -> tuple[float, list]:
    sizes = ",".join(str(n) for n in f.pingpong_s)
    command = ["pingpong", "--modes", "send", "--sizes", sizes, "--reps", "3", "--iters", "4", "--warmup", "1"]
    sim = _simulate(platform_file, pstswm, 2, NO_HOST_TIME, command)
    got = _median_by([r for r in sim if r["type"] == "point" and r["direction"] == "uni"], "bytes")
    rows = [(n, f.pingpong_s[n], got[n]) for n in f.pingpong_s]
    return _max_error([(m, s) for _, m, s in rows]), rows


def check_swap(f: Fit, ranks: int, platform_file: Path, pstswm: Path) -> tuple[float, list]:
    """The unordered nonblocking swap (0,6: the model's default) on `ranks` ranks, every pair at
    once, at every size measured."""
    measured = {n: t for (k, n), t in f.swap_s.items() if k == ranks}
    sizes = ",".join(map(str, measured))
    command = ["swap", "--protocols", "0,6", "--sizes", sizes, "--pairs", "all", "--reps", "3"]
    sim = _simulate(platform_file, pstswm, ranks, NO_HOST_TIME, command)
    got = _median_by([r for r in sim if r["type"] == "point"], "bytes")
    rows = [(n, measured[n], got[n]) for n in measured]
    return _max_error([(m, s) for _, m, s in rows]), rows


def check_stage(results: records.RecordSet, f: Fit, platform_file: Path, pstswm: Path) -> tuple[float, list]:
    """The kernel's srtrans transpose in the FFT stage on 2 ranks, protocol 0,6, no overlap, in
    skeleton mode: its FFTs at the platform's rate for the first problem calibrated, its copies
    at the copy rate, no host time."""
    points = [
        p
        for p in results.points("kernel")
        if p.get("algorithm") == "srtrans"
        and p.get("stage") == "fft"
        and p.get("protocol") == "0,6"
        and not p.get("overlap")
        and p.get("ranks") == 2
        and p.get("t_med")
    ]
    if not points:
        raise PstlabError(
            f"{results.label()}: no kernel record of srtrans (fft stage, 2 ranks, protocol 0,6) to check against "
            "(pstswm kernel --grid 1d --protocols 0,6 on 2 ranks)"
        )
    p0 = points[0]
    measured = statistics.median(
        p["t_med"] for p in points if p["trunc"] == p0["trunc"] and p["levels"] == p0["levels"]
    )
    problem = min(f.mflops)
    shape = ["--trunc", str(p0["trunc"]), "--levels", str(p0["levels"]), "--fields", str(p0["fields"])]
    command = ["kernel", *shape, "--algorithms", "srtrans", "--protocols", "0,6", "--overlap", "off", "--reps", "5"]
    rate = f"{f.mflops[problem]['mflops']:.9g}"
    sim = _simulate(
        platform_file, pstswm, 2, ["--problem", problem, "--host-mflops", rate], [*command, "--compute", "skeleton"]
    )
    got = [
        r["t_med"] for r in sim if r["type"] == "point" and r.get("algorithm") == "srtrans" and r.get("stage") == "fft"
    ]
    if not got:
        raise RunFailed("the simulated kernel run has no srtrans fft point")
    rows = [(f"srtrans fft T{p0['trunc']}L{p0['levels']}", measured, got[0])]
    return _max_error([(measured, got[0])]), rows


def _print_rows(title: str, rows: list, target: float, error: float) -> None:
    print(f"{title}: max error {error:.1%} (target {target:.0%}): {'reached' if error <= target else 'MISSED'}")
    for what, meas, sim in rows:
        print(
            f"  {what!s:>28}  measured {meas * 1e6:11.3f} us  simulated {sim * 1e6:11.3f} us"
            f"  {(sim - meas) / meas:+7.1%}"
        )


def default_out() -> Path:
    """The checkout's platforms/this-machine.toml when run from one, else this-machine.toml here."""
    root = paths.repo_root()
    return root / "platforms" / "this-machine.toml" if root else Path("this-machine.toml")


def _checks(results: records.RecordSet, f: Fit, out_path: Path, pstswm: Path) -> tuple[dict, dict]:
    """Every held-out check: {validation key: max error}, {title: rows}."""
    errors, shown = {}, {}
    errors["swap_max_error"], shown["swap 0,6 on 2 ranks (not fitted)"] = check_swap(f, 2, out_path, pstswm)
    loaded: list = []
    node_errors = []
    for ranks in sorted({k for k, _ in f.swap_s if k > 2}):
        error, rows = check_swap(f, ranks, out_path, pstswm)
        node_errors.append(error)
        loaded += [(f"{ranks} ranks {n} B", m, sim) for n, m, sim in rows]
    if loaded:
        errors["node_swap_max_error"], shown["swap 0,6, every pair at once"] = max(node_errors), loaded
    errors["stage_max_error"], shown["kernel stage (not fitted)"] = check_stage(results, f, out_path, pstswm)
    shown["swap 0,6 on 2 ranks (not fitted)"] = [
        (f"{n} B", m, sim) for n, m, sim in shown["swap 0,6 on 2 ranks (not fitted)"]
    ]
    return errors, shown


def calibrate(results_dir: str, out: str | None, build: str | None) -> int:
    results = records.load(results_dir)
    f = fit(results)
    out_path = Path(out) if out else default_out()
    pstswm, how = paths.find_pstswm("smpi", build)
    if pstswm is None or not os.access(pstswm, os.X_OK):
        raise PstlabError(f"{pstswm or how}: no SMPI build to check the platform with (scripts/build.sh smpi)")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    paths.write_atomic(out_path, toml_text(f, Path(results_dir)))
    platform.load(out_path)  # what calibrate writes, the format accepts
    # Simulation is deterministic: a few corrections reach the fixed point or show there is none.
    pp_err, pp_rows = check_pingpong(f, out_path, pstswm)
    for _ in range(CORRECTIONS):
        if pp_err <= PINGPONG_TARGET / 2:
            break
        f = corrected(f, {n: sim for n, _, sim in pp_rows})
        paths.write_atomic(out_path, toml_text(f, Path(results_dir)))
        pp_err, pp_rows = check_pingpong(f, out_path, pstswm)
    errors, shown = _checks(results, f, out_path, pstswm)
    validation = {"pingpong_max_error": pp_err, **errors}
    paths.write_atomic(out_path, toml_text(f, Path(results_dir), validation))
    print(f"wrote {out_path}")
    _print_rows("calibration ping-pong (fitted)", [(f"{n} B", m, s) for n, m, s in pp_rows], PINGPONG_TARGET, pp_err)
    key_of = {
        "swap 0,6 on 2 ranks (not fitted)": "swap_max_error",
        "swap 0,6, every pair at once": "node_swap_max_error",
        "kernel stage (not fitted)": "stage_max_error",
    }
    for title, rows in shown.items():
        _print_rows(title, rows, HELD_OUT_TARGET, errors[key_of[title]])
    if not any(k > 2 for k, _ in f.swap_s):
        print(
            f"note: no swap of more than 2 ranks at once: the node's shared path is not constrained; measure it with "
            f"pstswm swap --protocols 0,6 --pairs all on 4, 8, ... {f.ranks_per_node} ranks (docs/predict.md)"
        )
    missed = pp_err > PINGPONG_TARGET or max(errors.values()) > HELD_OUT_TARGET
    if missed:
        raise RunFailed(f"the platform misses its accuracy targets (figures above, stored in {out_path})")
    return 0
