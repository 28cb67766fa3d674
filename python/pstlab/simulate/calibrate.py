"""`pstlab calibrate RESULTS`: describe the node RESULTS was measured on as a platform file
(docs/predict.md), fitted from pstswm's own records, and check it by simulating it.

The node is a cluster of one-core hosts ([node]): a message between two cores crosses the
sender's core link, the node's shared link and the receiver's core link; a core link carries all
of that core's sends and receives (its copy path).  Fitted:
- the message path from the 2-rank swap (protocol 0,6: both ranks send and receive at once, as
  the model's transposes and sums do), not from a lone ping-pong: per size, the swap's time is a
  per-message part (latency x a size's latency factor: protocol, synchronisation, which
  concurrent messages do not divide) plus its bytes at the peak rate (the copy, which they do);
  a core link carries twice the peak, since each core sends one flow and receives one;
- what the cores share from the swaps of k > 2 ranks at once (`pstswm swap --pairs all`): where
  their flows copy clearly slower than the 2-rank swap's, the k flows divide the node's shared
  link, whose bandwidth is k x a flow's rate at the largest size (the least over k); else it is
  not constrained (the cores' sum);
- the copy rate (skeleton mode's charge for a transpose's packing and unpacking): what makes the
  kernel's srtrans FFT stage take its measured time (fit_copy_rate);
- the compute rates from serial model runs (per problem the median run's MFlop/s and each
  stage's), and where a truncation ran at several level counts, each stage's rate by the share of
  the problem a rank holds (rates_by_share: L/2 levels is half the problem).
SMPI adds latencies of its own to a simulated message: each swap size's fitted time is scaled by
measured / simulated and the fit redone, a few times at most.

Checked, by running the SMPI build (build/smpi) on the written platform, with no time of this
host in the simulation (the network checks switch SMPI's timing of host work off, the kernel
check runs in skeleton mode), so the same records give the same file and figures on a busy host
or a quiet one: the 2-rank swap it was fitted on (target 5 % at every size); not fitted on,
within 15 %: the ping-pong, the swaps of every pair at once, and the kernel's other stages.  The figures
are printed and stored in the file's [validation]."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from pstlab.core import paths
from pstlab.core.errors import PstlabError, RunFailed
from pstlab.io import records
from pstlab.simulate import platform, platform_dump

FITTED_TARGET = 0.05
HELD_OUT_TARGET = 0.15
CORRECTIONS = 4
# SimGrid's default eager limit: pstswm's records do not show the library's own.
EAGER_LIMIT_BYTES = 65536
# SMPI's timing of this host's work between MPI calls: off in every check (its figures must not
# depend on what else the host is doing).
NO_HOST_TIME = ["--cfg", "smpi/simulate-computation:no"]
# A loaded swap this much slower than the 2-rank one is a shared resource, not noise.
SLOWER = 1.1


@dataclass
class Fit:
    latency_s: float
    bandwidth_bytes_per_s: float
    lat_factor: list[tuple[int, float]]
    pingpong_s: dict[int, float]  # measured half round trip per size (a held-out check)
    swap_s: dict[tuple[int, int], float]  # (ranks, bytes) -> measured swap 0,6, every pair at once
    mflops: dict[str, dict[str, float]]  # problem -> {"mflops": serial model rate, "<stage>_mflops": ...}
    ranks_per_node: int
    host: str
    meant_s: dict[int, float]  # the 2-rank swap time per size the network rows were fitted to
    shares: dict[str, list[tuple[float, ...]]] = field(default_factory=dict)
    shares_source: dict[str, str] = field(default_factory=dict)

    @property
    def swap2_s(self) -> dict[int, float]:
        return {n: t for (k, n), t in self.swap_s.items() if k == 2}

    # the copy rate the kernel's transposes imply (fit_copy_rate); None: not fitted yet
    copy_fitted: float | None = None

    @property
    def copy_bytes_per_s(self) -> float:
        """As fitted to the kernel's transposes, else the ping-pong's peak rate (one copy alone)."""
        return self.copy_fitted or _network(self.pingpong_s, "the ping-pong")[1]

    @property
    def shared_fitted(self) -> float | None:
        """The node's shared bandwidth the loaded swaps imply; None when none constrains it."""
        return _shared_bandwidth(self.swap_s, self.latency_s, self.lat_factor, self.bandwidth_bytes_per_s)

    @property
    def shared_bandwidth(self) -> float:
        """The node's shared link: as fitted, else every core copying at the peak at once."""
        return self.shared_fitted or self.ranks_per_node * 2 * self.bandwidth_bytes_per_s


def _median_by(points: list[dict], key: str) -> dict:
    groups: dict = {}
    for p in points:
        groups.setdefault(p[key], []).append(p["t_med"])
    return {k: statistics.median(v) for k, v in sorted(groups.items())}


def _network(times_s: dict[int, float], label: str) -> tuple[float, float, list[tuple[int, float]]]:
    """(latency, peak rate, per-size latency factors) that give times_s[n] = latency x factor(n) +
    n / peak: every message copies at the peak rate (the part concurrent messages divide), and
    what a size costs beyond that is per-message time, which they do not divide."""
    latency = times_s.get(0, min(times_s.values()))
    rates = {n: n / (t - latency) for n, t in times_s.items() if n > 0 and t > latency}
    if not rates:
        raise PstlabError(f"{label}: the swap times do not grow with size: nothing to fit a bandwidth to")
    peak = max(rates.values())
    factors = [(n, max(1.0, (times_s[n] - n / peak) / latency)) for n in sorted(times_s) if n > 0]
    return latency, peak, [(0, 1.0), *factors]


def _factor(rows: list[tuple[int, float]], n: int) -> float:
    return [x for size, x in rows if size <= n][-1]


def corrected(f: Fit, simulated_s: dict[int, float]) -> Fit:
    """f refitted so that each size's time moves by the ratio measured / simulated: SMPI's own
    additions (its protocol's extra latencies) are not the fit's."""
    target = {n: f.meant_s[n] * f.swap2_s[n] / simulated_s[n] for n in f.swap2_s}
    latency, peak, factors = _network(target, "the corrected fit")
    return replace(f, latency_s=latency, bandwidth_bytes_per_s=peak, lat_factor=factors, meant_s=target)


def _shared_bandwidth(
    swaps: dict[tuple[int, int], float], latency_s: float, lat_factor: list[tuple[int, float]], peak: float
) -> float | None:
    """The node's shared bandwidth that k ranks swapping at once imply, at k's largest size n:
    a flow copies n bytes in its time less the per-message part, n / (tk - latency x factor(n));
    where that is clearly below the peak, the k flows divide the shared link: S = k x that rate.
    The most constraining k decides; None when no k is slower (nothing shared seen)."""
    implied = []
    for k in sorted({k for k, _ in swaps if k > 2}):
        n = max(m for kk, m in swaps if kk == k)
        copy_s = swaps[(k, n)] - latency_s * _factor(lat_factor, n)
        if n > 0 and copy_s > 0 and (rate := n / copy_s) * SLOWER < peak:
            implied.append(k * rate)
    return min(implied) if implied else None


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
    swaps = _swaps(results)
    two = {n: t for (k, n), t in swaps.items() if k == 2}
    if len(two) < 2:
        raise PstlabError(
            f"{results.label()}: no swap records of protocol 0,6 on 2 ranks to fit the node's message path "
            "(pstswm swap --protocols 0,6 --pairs all on 2 ranks and on every core count of the node: "
            "scripts/calibrate-node.sh, docs/predict.md)"
        )
    latency, peak, factors = _network(two, results.label())
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
        raise PstlabError(
            f"{results.label()}: no ping-pong records to check against (pstswm pingpong --modes send on 2 ranks)"
        )
    model = [p for p in results.points("model") if p.get("grid") == "1x1" and p.get("mflops")]
    if not model:
        raise PstlabError(
            f"{results.label()}: no serial model run for the compute rate (pstswm model --grid 1x1 on 1 rank, "
            "at the problem's levels and fewer: scripts/calibrate-node.sh, docs/predict.md)"
        )
    by_problem: dict[str, list[dict]] = {}
    for p in model:
        by_problem.setdefault(f"T{p['trunc']}L{p['levels']}", []).append(p)
    mflops = {problem: _rates(runs) for problem, runs in by_problem.items()}
    shares, sources = _shares(mflops)
    header = results.headers()[0]
    return Fit(
        latency_s=latency,
        bandwidth_bytes_per_s=peak,
        lat_factor=factors,
        pingpong_s=_median_by(pings, "bytes"),
        swap_s=swaps,
        mflops=mflops,
        ranks_per_node=max(int(header.get("cpus_online") or 1), 2),
        host=str(header.get("cpu_model") or "this host"),
        meant_s=dict(two),
        shares=shares,
        shares_source=sources,
    )


def _loaded_note(f: Fit) -> str:
    ks = sorted({k for k, _ in f.swap_s if k > 2})
    if not ks:
        return "no swap of more than 2 ranks at once in the records: not constrained (the cores' sum)"
    counts = ", ".join(map(str, ks))
    if f.shared_fitted is None:
        return f"swaps of {counts} ranks at once copied no slower than 2: not constrained (the cores' sum)"
    return f"k x a flow's copy rate in the swaps of {counts} ranks at once, the least"


def _g6(x: float) -> float:
    """x to the 6 significant digits the file gives every fitted number (the checks simulate
    the file as written)."""
    return float(f"{x:.6g}")


def as_platform(f: Fit, path: Path, validation: dict[str, float] | None = None) -> platform.Platform:
    """The fit as the platform of one node of f.ranks_per_node one-core hosts, with its copy rate."""
    no_overhead = [(0, 0.0, 0.0)]
    return platform.Platform(
        path=path,
        name="this-machine",
        nodes=1,
        cores_per_node=f.ranks_per_node,
        topology="cluster",
        torus_dims=None,
        fat_tree=None,
        latency_s=_g6(f.latency_s / 2),
        bandwidth_bytes_per_s=_g6(f.bandwidth_bytes_per_s),
        link_sharing="split_duplex",
        loopback_latency_s=_g6(f.latency_s),
        loopback_bandwidth_bytes_per_s=_g6(f.bandwidth_bytes_per_s),
        lat_factor=[(n, _g6(x)) for n, x in f.lat_factor],
        bw_factor=[(0, 1.0)],
        send_overhead=no_overhead,
        recv_overhead=no_overhead,
        isend_overhead=no_overhead,
        eager_limit_bytes=EAGER_LIMIT_BYTES,
        coll_selector="ompi",
        compute={problem: {k: _g6(v) for k, v in rates.items()} for problem, rates in sorted(f.mflops.items())},
        validation={k: float(f"{v:.4f}") for k, v in (validation or {}).items()},
        node=platform.Node(
            latency_s=_g6(f.latency_s),
            core_bandwidth_bytes_per_s=_g6(2 * f.bandwidth_bytes_per_s),
            shared_bandwidth_bytes_per_s=_g6(f.shared_bandwidth),
            copy_bytes_per_s=_g6(f.copy_bytes_per_s),
        ),
        shares={problem: [tuple(map(_g6, row)) for row in rows] for problem, rows in f.shares.items()},
    )


VALIDATION_NOTES = {
    "pingpong_max_error": f"the ping-pong, not fitted on (target {HELD_OUT_TARGET:.0%})",
    "swap_max_error": f"the 2-rank swap the path was fitted to (target {FITTED_TARGET:.0%})",
    "node_swap_max_error": f"the swaps of every pair at once (target {HELD_OUT_TARGET:.0%})",
    "stage_max_error": f"the kernel's other stages, not fitted on (target {HELD_OUT_TARGET:.0%})",
}


def _notes(f: Fit, p: platform.Platform) -> dict[str, str]:
    """Where each number of p, the platform of fit f, comes from (platform.dumps' notes)."""
    copy = p.node.copy_bytes_per_s if p.node else None
    fitted_copy = f.copy_fitted is not None and copy == _g6(f.copy_fitted)
    notes = {
        "nodes.count": "the node measured",
        "nodes.cores_per_node": "its cores (cpus_online, at least 2), a rank slot each",
        "network": "Between nodes: not measured (one node); the node's own figures, for files that add nodes.",
        "network.latency_s": "half the 2-rank swap's smallest time (two links per message)",
        "network.bandwidth_bytes_per_s": "the swap's peak bytes / (time - latency)",
        "network.loopback_latency_s": "a rank to itself: as to another rank",
        "network.loopback_bandwidth_bytes_per_s": "the same",
        "network.lat_factor": "each swap size's time less its copy at the peak, over the latency",
        "network.bw_factor": "every message copies at the peak rate",
        "network.eager_limit_bytes": "SimGrid's default: the records do not show the library's",
        **{f"overheads.{k}": "in the fitted times already" for k in ("send", "recv", "isend")},
        "collectives.selector": "SMPI's Open MPI selection logic",
        "node.latency_s": "the 2-rank swap's smallest time",
        "node.core_bandwidth_bytes_per_s": "2 x swap peak: send, receive share it",
        "node.shared_bandwidth_bytes_per_s": _loaded_note(f),
        "node.copy_bytes_per_s": "what makes the kernel's srtrans FFT-stage transposes take their time"
        if fitted_copy
        else "the ping-pong's peak: one copy alone on the node",
        **{f"validation.{k}": note for k, note in VALIDATION_NOTES.items()},
    }
    for problem, rates in p.compute.items():
        for key in rates:
            why = "model on 1 rank: the median of its runs" if key == "mflops" else "the stage's flops / its time"
            notes[f"compute.{problem}.{key}"] = why
        if problem in f.shares:
            columns = ", ".join(platform.SHARE_ROW)
            notes[f"compute.{problem}.rates_by_share"] = f"[{columns}]: serial runs of {f.shares_source[problem]}"
    return notes


def toml_text(p: platform.Platform, f: Fit, source: Path) -> str:
    """The platform file of p, the platform of fit f, each number with where it comes from."""
    header = (
        f"This node ({f.host}), written by `pstlab calibrate {source}`: fitted from pstswm's\n"
        "swaps (protocol 0,6) and serial model runs of that directory, less what SMPI adds in\n"
        "simulating pstswm (measured by simulating the fit); the [validation] figures are the\n"
        "simulated platform's errors against the records."
    )
    return platform_dump.dumps(p, header, _notes(f, p))


def write(path: Path, f: Fit, source: Path, validation: dict[str, float] | None = None) -> None:
    """The platform file of fit f (and its [validation] figures) at path."""
    paths.write_atomic(path, toml_text(as_platform(f, path, validation), f, source))


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


# The kernel stages calibrate reads: (algorithm, stage); the first fits the copy rate, the
# others check it.
COPY_STAGE = ("srtrans", "fft")
CHECK_STAGES = (("srtrans", "legendre"), ("halfsum", "legendre"))


def _kernel_measured(results: records.RecordSet) -> tuple[dict, dict[tuple[str, str], float]]:
    """(the first 2-rank kernel point, {(algorithm, stage): median t_med}) of protocol 0,6 without
    overlap, at that point's size."""
    points = [
        p
        for p in results.points("kernel")
        if p.get("protocol") == "0,6" and not p.get("overlap") and p.get("ranks") == 2 and p.get("t_med")
    ]
    first = next((p for p in points if (p.get("algorithm"), p.get("stage")) == COPY_STAGE), None)
    if first is None:
        raise PstlabError(
            f"{results.label()}: no kernel record of srtrans (fft stage, 2 ranks, protocol 0,6) to fit the copy rate "
            "to (pstswm kernel --grid 1d --protocols 0,6 on 2 ranks: scripts/calibrate-node.sh)"
        )
    groups: dict[tuple[str, str], list[float]] = {}
    for p in points:
        if (p["trunc"], p["levels"], p["fields"]) == (first["trunc"], first["levels"], first["fields"]):
            groups.setdefault((p["algorithm"], p["stage"]), []).append(p["t_med"])
    return first, {k: statistics.median(v) for k, v in groups.items()}


def _simulate_kernel(f: Fit, first: dict, platform_file: Path, pstswm: Path) -> dict[tuple[str, str], float]:
    """The kernel's srtrans and halfsum stages at `first`'s size on 2 simulated ranks, in skeleton
    mode: sums at the platform's rates for its first problem, copies at its copy rate, no host time."""
    problem = min(f.mflops)
    shape = ["--trunc", str(first["trunc"]), "--levels", str(first["levels"]), "--fields", str(first["fields"])]
    command = ["kernel", *shape, "--algorithms", "srtrans,halfsum", "--protocols", "0,6", "--overlap", "off"]
    launch = ["--problem", problem, "--host-mflops", f"{f.mflops[problem]['mflops']:.9g}"]
    sim = _simulate(platform_file, pstswm, 2, launch, [*command, "--reps", "5", "--compute", "skeleton"])
    return {(r["algorithm"], r["stage"]): r["t_med"] for r in sim if r["type"] == "point"}


# A copy rate to time the charged bytes with (any positive rate: only the difference it makes counts).
PROBE_BYTES_PER_S = 1e9


def fit_copy_rate(results: records.RecordSet, f: Fit, source: Path, platform_file: Path, pstswm: Path) -> Fit:
    """f with the copy rate that makes the kernel's srtrans FFT stage (its transposes: packing,
    unpacking, the own block) take its measured time: simulated without copies (t0) and with a
    probe rate (t1), the copies' bytes are (t1 - t0) x probe, their rate bytes / (measured - t0).
    When the messages alone take the measured time, the copies are not told apart: the
    ping-pong's peak stays."""
    first, measured = _kernel_measured(results)
    times = []
    p = as_platform(f, platform_file)
    for copy in (None, PROBE_BYTES_PER_S):
        probe = replace(p, node=replace(p.node, copy_bytes_per_s=copy))
        paths.write_atomic(platform_file, toml_text(probe, f, source))
        times.append(_simulate_kernel(f, first, platform_file, pstswm)[COPY_STAGE])
    copied_bytes = (times[1] - times[0]) * PROBE_BYTES_PER_S
    left_s = measured[COPY_STAGE] - times[0]
    fitted = copied_bytes / left_s if left_s > 0 and copied_bytes > 0 else None
    return replace(f, copy_fitted=fitted)


def check_stages(results: records.RecordSet, f: Fit, platform_file: Path, pstswm: Path) -> tuple[float, list]:
    """The kernel stages the copy rate was not fitted on, at the same size (srtrans's Legendre
    transpose, halfsum's vector sum), simulated as fit_copy_rate does."""
    first, measured = _kernel_measured(results)
    got = _simulate_kernel(f, first, platform_file, pstswm)
    rows = [
        (f"{alg} {stage} T{first['trunc']}L{first['levels']}", measured[(alg, stage)], got[(alg, stage)])
        for alg, stage in CHECK_STAGES
        if (alg, stage) in measured and (alg, stage) in got
    ]
    if not rows:
        raise PstlabError(
            f"{results.label()}: no kernel record of srtrans or halfsum (legendre stage) to check against"
        )
    return _max_error([(m, s) for _, m, s in rows]), rows


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


def _unloaded_note(cores: int) -> str:
    if cores <= 2:
        return "note: a node of 2 cores holds one pair: nothing beyond the 2-rank swap can load its shared path"
    return (
        "note: no swap of more than 2 ranks at once: the node's shared path is not constrained; measure it with "
        f"pstswm swap --protocols 0,6 --pairs all on 4, 8, ... {cores} ranks (scripts/calibrate-node.sh)"
    )


def _held_out(results: records.RecordSet, f: Fit, out_path: Path, pstswm: Path) -> tuple[dict, dict]:
    """Every check the platform was not fitted on: {validation key: max error}, {key: (title, rows)}."""
    errors, shown = {}, {}
    error, rows = check_pingpong(f, out_path, pstswm)
    errors["pingpong_max_error"], shown["pingpong_max_error"] = (
        error,
        ("ping-pong (not fitted)", [(f"{n} B", m, s) for n, m, s in rows]),
    )
    loaded, node_errors = [], []
    for ranks in sorted({k for k, _ in f.swap_s if k > 2}):
        error, rows = check_swap(f, ranks, out_path, pstswm)
        node_errors.append(error)
        loaded += [(f"{ranks} ranks {n} B", m, sim) for n, m, sim in rows]
    if loaded:
        errors["node_swap_max_error"], shown["node_swap_max_error"] = (
            max(node_errors),
            ("swap 0,6, every pair at once (not fitted)", loaded),
        )
    error, rows = check_stages(results, f, out_path, pstswm)
    errors["stage_max_error"], shown["stage_max_error"] = error, ("kernel stages (not fitted)", rows)
    return errors, shown


def calibrate(results_dir: str, out: str | None, build: str | None) -> int:
    results = records.load(results_dir)
    f = fit(results)
    out_path = Path(out) if out else default_out()
    pstswm, how = paths.find_pstswm("smpi", build)
    if pstswm is None or not os.access(pstswm, os.X_OK):
        raise PstlabError(f"{pstswm or how}: no SMPI build to check the platform with (scripts/dev/build.sh smpi)")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    source = Path(results_dir)
    write(out_path, f, source)
    platform.load(out_path)  # what calibrate writes, the format accepts
    # Simulation is deterministic: a few corrections reach the fixed point or show there is none.
    fit_err, fit_rows = check_swap(f, 2, out_path, pstswm)
    for _ in range(CORRECTIONS):
        if fit_err <= FITTED_TARGET / 2:
            break
        f = corrected(f, {n: sim for n, _, sim in fit_rows})
        write(out_path, f, source)
        fit_err, fit_rows = check_swap(f, 2, out_path, pstswm)
    f = fit_copy_rate(results, f, source, out_path, pstswm)
    write(out_path, f, source)
    errors, shown = _held_out(results, f, out_path, pstswm)
    validation = {"swap_max_error": fit_err, **errors}
    write(out_path, f, source, validation)
    print(f"wrote {out_path}")
    _print_rows("swap 0,6 on 2 ranks (fitted)", [(f"{n} B", m, s) for n, m, s in fit_rows], FITTED_TARGET, fit_err)
    for key, (title, rows) in shown.items():
        _print_rows(title, rows, HELD_OUT_TARGET, errors[key])
    if not any(k > 2 for k, _ in f.swap_s):
        print(_unloaded_note(f.ranks_per_node))
    if fit_err > FITTED_TARGET or max(errors.values()) > HELD_OUT_TARGET:
        raise RunFailed(f"the platform misses its accuracy targets (figures above, stored in {out_path})")
    return 0


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(
        name,
        help=summary,
        description="Fit a platform file (docs/predict.md) from the swap, ping-pong, kernel and serial model records "
        "of RESULTS (scripts/calibrate-node.sh makes them), then simulate it with the SMPI build, with no host time: "
        "the 2-rank swap it was fitted to must come within 5 %% at every size, the ping-pong, the swaps of every pair "
        "at once and the kernel stages it was not fitted on within 15 %%.  Exit 3 when a target is missed.",
    )
    p.add_argument("results", help="a results directory measured on one node (scripts/calibrate-node.sh OUT)")
    p.add_argument("--out", metavar="FILE", help="the platform file to write (default platforms/this-machine.toml)")
    p.add_argument(
        "--build",
        metavar="DIR",
        help="the SMPI build that checks it (default: as scripts/dev/build.sh names it for the smpicc on PATH)",
    )


def command(args) -> int:
    return calibrate(args.results, args.out, args.build)
