"""Platform files: a machine described in TOML (platforms/*.toml, docs/predict.md), checked, and
turned into what SimGrid's smpirun takes: a platform XML, a hostfile and --cfg flags.

  pstlab platform FILE.toml OUTDIR [--problem T42L16] [--host-mflops R] [--mapping block|cyclic]

writes OUTDIR/platform.xml, OUTDIR/hostfile (the rank-to-node mapping), OUTDIR/stage-mflops (the problem's
per-stage rates for skeleton mode, at the share of the problem one of --ranks ranks holds) and OUTDIR/copy-rate
(skeleton mode's charge for the transposes' copies, from [node]) and prints the --cfg values, one a line
(scripts/pstrun runs it as `python3 -m pstlab platform`).  Only the standard library: pstrun runs it
without pstlab's venv.
A bad file is refused with FILE:LINE and exit 2."""

from __future__ import annotations

import math
import re

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: the backport (python/requirements.txt)
    import tomli as tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pstlab.core.errors import PstlabError

TOPOLOGIES = ("cluster", "torus", "fat_tree")
# How a link's bandwidth is shared (SimGrid's sharing_policy): both directions share it, each
# direction has its own, or every flow gets all of it.
SHARING = {"shared": "SHARED", "split_duplex": "SPLITDUPLEX", "fatpipe": "FATPIPE"}
STAGES = ("fft", "legendre", "fourier", "grid", "spectral")
SELECTORS = ("ompi", "mpich", "mvapich2", "impi", "default")
PROBLEM = re.compile(r"^T\d+L\d+$")
# Where rank r goes (smpirun gives rank r the hostfile's line r): block fills a node's cores
# before the next node, so neighbours in rank order share a node; cyclic deals the ranks out one
# per node in turn, so they do not.
MAPPINGS = ("block", "cyclic")
# A rate SimGrid takes when the run has no problem to pick one for: compute time is host time.
NEUTRAL_FLOPS = 1e9


@dataclass
class Node:
    """What the cores of one node share ([node]): every message between two of its cores crosses
    the sender's core link, the node's shared link and the receiver's core link."""

    latency_s: float  # a message between two cores of the node, one way
    core_bandwidth_bytes_per_s: float  # one core's copy path: all its sends and receives at once share it
    shared_bandwidth_bytes_per_s: float  # the node's memory path: every concurrent copy on the node shares it
    copy_bytes_per_s: float | None  # skeleton mode: a transpose's packing, unpacking and own-block copies


# A row of [compute.TxLy] rates_by_share: the share of the problem a rank holds, then each stage's rate.
SHARE_ROW = ("share", *(f"{s}_mflops" for s in STAGES))


@dataclass
class Platform:
    path: Path
    name: str
    nodes: int
    cores_per_node: int
    topology: str
    torus_dims: list[int] | None
    fat_tree: str | None
    latency_s: float
    bandwidth_bytes_per_s: float
    link_sharing: str
    loopback_latency_s: float
    loopback_bandwidth_bytes_per_s: float
    lat_factor: list[tuple[int, float]]
    bw_factor: list[tuple[int, float]]
    send_overhead: list[tuple[int, float, float]]
    recv_overhead: list[tuple[int, float, float]]
    isend_overhead: list[tuple[int, float, float]]
    eager_limit_bytes: int
    coll_selector: str
    # problem -> {"mflops": rate, "<stage>_mflops": rate, ...}
    compute: dict[str, dict[str, float]] = field(default_factory=dict)
    # what the file says about its own accuracy ([validation]: calibrate writes it)
    validation: dict[str, float] = field(default_factory=dict)
    node: Node | None = None
    # problem -> [(share, fft, legendre, fourier, grid, spectral rates), ...], largest share first
    shares: dict[str, list[tuple[float, ...]]] = field(default_factory=dict)

    @property
    def ranks(self) -> int:
        return self.nodes * self.cores_per_node


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """Line of every key (and table header) in a TOML file: tomllib gives values, not lines."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if m := re.match(r"^\[([A-Za-z0-9_.\-]+)\]$", line):
            table = tuple(m.group(1).split("."))
            lines.setdefault(table, number)
        elif m := re.match(r"^([A-Za-z0-9_\-]+)\s*=", line):
            lines.setdefault((*table, m.group(1)), number)
    return lines


class _Reader:
    """Typed access to the parsed file that names FILE:LINE in every refusal."""

    def __init__(self, path: Path, data: dict, lines: dict[tuple[str, ...], int]):
        self.path, self.data, self.lines = path, data, lines

    def where(self, *keys: str) -> str:
        for n in range(len(keys), 0, -1):
            if keys[:n] in self.lines:
                return f"{self.path}:{self.lines[keys[:n]]}"
        return f"{self.path}:1"

    def fail(self, keys: tuple[str, ...], message: str) -> PstlabError:
        return PstlabError(f"{self.where(*keys)}: {'.'.join(keys)}: {message}")

    def table(self, *keys: str) -> dict:
        node = self.data
        for k in keys:
            node = node.get(k) if isinstance(node, dict) else None
            if node is None:
                raise self.fail(keys, "missing table")
        if not isinstance(node, dict):
            raise self.fail(keys, "must be a table")
        return node

    def value(self, kind, *keys: str, optional: bool = False):
        node = self.table(*keys[:-1])
        if keys[-1] not in node:
            if optional:
                return None
            raise self.fail(keys, "missing")
        v = node[keys[-1]]
        ok = isinstance(v, kind) and not isinstance(v, bool) if kind is not bool else isinstance(v, bool)
        if kind is float and isinstance(v, int) and not isinstance(v, bool):
            v, ok = float(v), True
        if not ok:
            raise self.fail(keys, f"must be {'a number' if kind is float else kind.__name__}, got {v!r}")
        return v

    def positive(self, kind, *keys: str, optional: bool = False):
        v = self.value(kind, *keys, optional=optional)
        if v is not None and not v > 0:
            raise self.fail(keys, f"must be positive, got {v!r}")
        return v

    def piecewise(self, width: int, *keys: str) -> list:
        """[[min_bytes, value...], ...]: sizes distinct and non-negative, first from 0, values >= 0."""
        rows = self.value(list, *keys, optional=True)
        if rows is None:
            return [(0, 1.0)] if width == 2 else [(0, 0.0, 0.0)]
        out = []
        for row in rows:
            if (
                not isinstance(row, list)
                or len(row) != width
                or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in row)
            ):
                raise self.fail(
                    keys, f"each entry must be [min_bytes{', value' * (width - 1)}] of numbers, got {row!r}"
                )
            if row[0] < 0 or int(row[0]) != row[0] or any(x < 0 for x in row[1:]):
                raise self.fail(keys, f"sizes are whole bytes and values non-negative, got {row!r}")
            out.append((int(row[0]), *map(float, row[1:])))
        sizes = [r[0] for r in out]
        if sorted(set(sizes)) != sizes or not sizes or sizes[0] != 0:
            raise self.fail(keys, f"sizes must start at 0 and increase, got {sizes}")
        return out

    def unknown(self, known: dict[tuple[str, ...], object]) -> None:
        """Refuse keys the format does not have (a typo would otherwise be silently ignored)."""

        def walk(node: dict, prefix: tuple[str, ...]):
            for k, v in node.items():
                keys = (*prefix, k)
                if prefix == ("compute",):  # one table per problem, checked by load()
                    if isinstance(v, dict):
                        walk_compute(v, keys)
                    continue
                if keys not in known:
                    raise self.fail(keys, "unknown field (docs/predict.md lists the format)")
                if isinstance(v, dict):
                    walk(v, keys)

        def walk_compute(node: dict, prefix: tuple[str, ...]):
            for k in node:
                if k not in ("mflops", "rates_by_share") and k.removesuffix("_mflops") not in STAGES:
                    raise self.fail(
                        (*prefix, k),
                        f"unknown field (allowed: mflops, {', '.join(s + '_mflops' for s in STAGES)}, rates_by_share)",
                    )

        walk(self.data, ())


_FIELDS = {
    ("platform",): 0,
    ("platform", "name"): 0,
    ("nodes",): 0,
    ("nodes", "count"): 0,
    ("nodes", "cores_per_node"): 0,
    ("topology",): 0,
    ("topology", "kind"): 0,
    ("topology", "torus_dims"): 0,
    ("topology", "fat_tree"): 0,
    ("network",): 0,
    ("network", "latency_s"): 0,
    ("network", "bandwidth_bytes_per_s"): 0,
    ("network", "link_sharing"): 0,
    ("network", "loopback_latency_s"): 0,
    ("network", "loopback_bandwidth_bytes_per_s"): 0,
    ("network", "lat_factor"): 0,
    ("network", "bw_factor"): 0,
    ("network", "eager_limit_bytes"): 0,
    ("overheads",): 0,
    ("overheads", "send"): 0,
    ("overheads", "recv"): 0,
    ("overheads", "isend"): 0,
    ("collectives",): 0,
    ("collectives", "selector"): 0,
    ("compute",): 0,
    ("node",): 0,
    ("node", "latency_s"): 0,
    ("node", "core_bandwidth_bytes_per_s"): 0,
    ("node", "shared_bandwidth_bytes_per_s"): 0,
    ("node", "copy_bytes_per_s"): 0,
    ("validation",): 0,
    ("validation", "pingpong_max_error"): 0,
    ("validation", "swap_max_error"): 0,
    ("validation", "stage_max_error"): 0,
    ("validation", "node_swap_max_error"): 0,
}
VALIDATION = ("pingpong_max_error", "swap_max_error", "stage_max_error", "node_swap_max_error")


def _read(path: Path) -> _Reader:
    """The file parsed, its keys' lines known, no field the format lacks."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PstlabError(f"{path}: cannot read the platform file: {e.strerror}") from e
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise PstlabError(f"{path}:{m.group(1) if m else 1}: not valid TOML: {e}") from e
    r = _Reader(path, data, _key_lines(text))
    r.unknown(_FIELDS)
    return r


def _shape(r: _Reader, topology: str, nodes: int) -> tuple[list[int] | None, str | None]:
    """[topology]'s shape: a torus's dimensions (whose product is the node count), a fat tree's levels."""
    dims = r.value(list, "topology", "torus_dims", optional=True)
    fat_tree = r.value(str, "topology", "fat_tree", optional=True)
    if topology == "torus":
        if not dims or not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in dims):
            raise r.fail(("topology", "torus_dims"), f"a torus needs its dimensions as positive integers, got {dims!r}")
        if (product := math.prod(dims)) != nodes:
            raise r.fail(
                ("topology", "torus_dims"),
                f"{' x '.join(map(str, dims))} = {product} nodes, but nodes.count is {nodes}",
            )
    elif dims is not None:
        raise r.fail(("topology", "torus_dims"), f"only a torus has dimensions (kind is {topology!r})")
    if topology == "fat_tree":
        if not fat_tree or not re.fullmatch(r"\d+;[\d,]+;[\d,]+;[\d,]+", fat_tree):
            raise r.fail(
                ("topology", "fat_tree"),
                f"a fat tree needs SimGrid's 'levels;down;up;parallel', e.g. '2;4,4;1,2;1,2', got {fat_tree!r}",
            )
    elif fat_tree is not None:
        raise r.fail(("topology", "fat_tree"), f"only a fat tree has this field (kind is {topology!r})")
    return dims, fat_tree


def _choice(r: _Reader, allowed, *keys: str) -> str:
    """A string field that must be one of `allowed`."""
    value = r.value(str, *keys)
    if value not in allowed:
        raise r.fail(keys, f"must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _compute(r: _Reader) -> dict[str, dict[str, float]]:
    """[compute.TxLy]: each problem's model rate and the stage rates it gives."""
    compute: dict[str, dict[str, float]] = {}
    for problem in r.table("compute"):
        if not PROBLEM.match(problem):
            raise r.fail(("compute", problem), "problems are named like T42L16")
        rates = {"mflops": r.positive(float, "compute", problem, "mflops")}
        for stage in STAGES:
            rate = r.positive(float, "compute", problem, f"{stage}_mflops", optional=True)
            if rate is not None:
                rates[f"{stage}_mflops"] = rate
        compute[problem] = rates
    return compute


def _validation(r: _Reader) -> dict[str, float]:
    """[validation]: the file's own relative errors, none negative."""
    validation: dict[str, float] = {}
    if "validation" not in r.data:
        return validation
    for k in VALIDATION:
        v = r.value(float, "validation", k, optional=True)
        if v is not None:
            if v < 0:
                raise r.fail(("validation", k), f"a relative error is not negative, got {v}")
            validation[k] = v
    return validation


def load(path: str | Path) -> Platform:
    r = _read(Path(path))
    topology = _choice(r, TOPOLOGIES, "topology", "kind")
    nodes = r.positive(int, "nodes", "count")
    dims, fat_tree = _shape(r, topology, nodes)
    sharing = _choice(r, SHARING, "network", "link_sharing")
    selector = _choice(r, SELECTORS, "collectives", "selector")
    compute = _compute(r)
    shares = {problem: _shares(r, problem) for problem in compute if "rates_by_share" in r.table("compute", problem)}
    node = _node(r, topology) if "node" in r.data else None
    validation = _validation(r)
    return Platform(
        path=r.path,
        name=r.value(str, "platform", "name"),
        nodes=nodes,
        cores_per_node=r.positive(int, "nodes", "cores_per_node"),
        topology=topology,
        torus_dims=dims,
        fat_tree=fat_tree,
        latency_s=r.positive(float, "network", "latency_s"),
        bandwidth_bytes_per_s=r.positive(float, "network", "bandwidth_bytes_per_s"),
        link_sharing=sharing,
        loopback_latency_s=r.value(float, "network", "loopback_latency_s"),
        loopback_bandwidth_bytes_per_s=r.positive(float, "network", "loopback_bandwidth_bytes_per_s"),
        lat_factor=r.piecewise(2, "network", "lat_factor"),
        bw_factor=r.piecewise(2, "network", "bw_factor"),
        send_overhead=r.piecewise(3, "overheads", "send"),
        recv_overhead=r.piecewise(3, "overheads", "recv"),
        isend_overhead=r.piecewise(3, "overheads", "isend"),
        eager_limit_bytes=r.positive(int, "network", "eager_limit_bytes"),
        coll_selector=selector,
        compute=compute,
        validation=validation,
        node=node,
        shares=shares,
    )


def _shares(r: _Reader, problem: str) -> list[tuple[float, ...]]:
    """[compute.P] rates_by_share: rows [share, fft, legendre, fourier, grid, spectral], every rate
    positive, shares distinct in (0, 1]; a row with a hole is refused."""
    keys = ("compute", problem, "rates_by_share")
    rows = r.value(list, *keys)
    out = []
    for row in rows:
        if (
            not isinstance(row, list)
            or len(row) != len(SHARE_ROW)
            or not all(isinstance(x, int | float) and not isinstance(x, bool) and x > 0 for x in row)
        ):
            raise r.fail(keys, f"each row must be [{', '.join(SHARE_ROW)}], all positive numbers, got {row!r}")
        if row[0] > 1:
            raise r.fail(keys, f"a share is a fraction of the problem (at most 1), got {row[0]!r}")
        out.append(tuple(map(float, row)))
    shares = [row[0] for row in out]
    if not out or len(set(shares)) != len(shares):
        raise r.fail(keys, f"needs at least one row and distinct shares, got {shares}")
    return sorted(out, reverse=True)


def _node(r: _Reader, topology: str) -> Node:
    if topology != "cluster":
        raise r.fail(("node",), f"a node's shared path is simulated on a cluster topology only (kind is {topology!r})")
    latency_s = r.value(float, "node", "latency_s")
    if latency_s < 0:
        raise r.fail(("node", "latency_s"), f"a latency is not negative, got {latency_s!r}")
    return Node(
        latency_s=latency_s,
        core_bandwidth_bytes_per_s=r.positive(float, "node", "core_bandwidth_bytes_per_s"),
        shared_bandwidth_bytes_per_s=r.positive(float, "node", "shared_bandwidth_bytes_per_s"),
        copy_bytes_per_s=r.positive(float, "node", "copy_bytes_per_s", optional=True),
    )


def _piecewise(rows: list[tuple]) -> str:
    """SimGrid's piecewise syntax, largest size first: "65536:0.9;0:0.5" or "0:1e-6:0"."""
    return ";".join(":".join(f"{x:.9g}" for x in row) for row in sorted(rows, reverse=True))


def _overheads(rows: list[tuple]) -> str:
    """An overhead's piecewise value: SMPI applies a row of smpi/os, or, ois to sizes above its
    size (a bandwidth factor's row from its size on), so the file's "from min_bytes on" is
    min_bytes - 1 there."""
    return _piecewise([(max(0, row[0] - 1), *row[1:]) for row in rows])


def host_name(p: Platform, node: int, core: int) -> str:
    """A rank slot's host: the node's, or with [node] the core's own (a node is a cluster of them)."""
    return f"{p.name}-{node}-{core}" if p.node else f"{p.name}-{node}"


_HEADER = (
    "<?xml version='1.0'?>\n"
    '<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
    "<!-- generated by pstlab platform from {file}: edit that file, not this one -->\n"
    '<platform version="4.1">\n'
)


def _node_xml(p: Platform, n: Node, speed_flops: float) -> str:
    """Each node a cluster of one-core hosts: a core's private link (its copy path: all its sends
    and receives at once divide it, SHARED) and the node's backbone (every message between two of
    its cores crosses it: the memory path concurrent copies divide).  Nodes reach each other through
    their routers over one network link each (the [network] link: the node's injection), a route
    for each ordered pair."""
    clusters = "".join(
        f'    <cluster id="{p.name}-node{k}" prefix="{p.name}-{k}-" suffix="" radical="0-{p.cores_per_node - 1}"'
        f' speed="{speed_flops:.9g}f" bw="{n.core_bandwidth_bytes_per_s:.9g}Bps" lat="{n.latency_s / 2:.9g}s"'
        f' sharing_policy="SHARED"'
        f' bb_bw="{n.shared_bandwidth_bytes_per_s:.9g}Bps" bb_lat="0s"'
        f' bb_sharing_policy="SHARED" loopback_bw="{p.loopback_bandwidth_bytes_per_s:.9g}Bps"'
        f' loopback_lat="{p.loopback_latency_s:.9g}s" router_id="{p.name}-{k}-router"/>\n'
        for k in range(p.nodes)
    )
    links = "".join(
        f'    <link id="{p.name}-net{k}" bandwidth="{p.bandwidth_bytes_per_s:.9g}Bps" latency="{p.latency_s:.9g}s"'
        f' sharing_policy="{SHARING[p.link_sharing]}"/>\n'
        for k in range(p.nodes if p.nodes > 1 else 0)
    )
    up, down = (' direction="UP"', ' direction="DOWN"') if p.link_sharing == "split_duplex" else ("", "")
    routes = "".join(
        f'    <zoneRoute src="{p.name}-node{a}" dst="{p.name}-node{b}" gw_src="{p.name}-{a}-router"'
        f' gw_dst="{p.name}-{b}-router" symmetrical="NO"><link_ctn id="{p.name}-net{a}"{up}/>'
        f'<link_ctn id="{p.name}-net{b}"{down}/></zoneRoute>\n'
        for a in range(p.nodes)
        for b in range(p.nodes)
        if a != b
    )
    return f'  <zone id="{p.name}-root" routing="Full">\n{clusters}{links}{routes}  </zone>\n'


def xml(p: Platform, speed_flops: float) -> str:
    """SimGrid's platform: one cluster of p.nodes hosts of p.cores_per_node cores, or with [node]
    a cluster per node (_node_xml)."""
    if p.node:
        return _HEADER.format(file=p.path.name) + _node_xml(p, p.node, speed_flops) + "</platform>\n"
    topo = {
        "cluster": "",
        "torus": f' topology="TORUS" topo_parameters="{",".join(map(str, p.torus_dims or []))}"',
        "fat_tree": f' topology="FAT_TREE" topo_parameters="{p.fat_tree}"',
    }[p.topology]
    return (
        _HEADER.format(file=p.path.name)
        # The cluster inside a zone of its own: SimGrid 4.1 crashes on a torus or fat-tree cluster
        # at the platform's root (no parent zone).  Every route stays inside the cluster.
        + f'  <zone id="{p.name}-root" routing="Full">\n'
        f'    <cluster id="{p.name}" prefix="{p.name}-" suffix="" radical="0-{p.nodes - 1}" speed="{speed_flops:.9g}f"'
        f' core="{p.cores_per_node}" bw="{p.bandwidth_bytes_per_s:.9g}Bps" lat="{p.latency_s:.9g}s"'
        f' sharing_policy="{SHARING[p.link_sharing]}"{topo}'
        f' loopback_bw="{p.loopback_bandwidth_bytes_per_s:.9g}Bps" loopback_lat="{p.loopback_latency_s:.9g}s"/>\n'
        "  </zone>\n"
        "</platform>\n"
    )


def hostfile(p: Platform, mapping: str = "block") -> str:
    """One line per rank slot, rank r on line r (MAPPINGS says where each mapping puts it)."""
    if mapping not in MAPPINGS:
        raise PstlabError(f"--mapping: unknown mapping {mapping!r} (allowed: {', '.join(MAPPINGS)})")
    if mapping == "block":
        slots = [(n, c) for n in range(p.nodes) for c in range(p.cores_per_node)]
    else:
        slots = [(n, c) for c in range(p.cores_per_node) for n in range(p.nodes)]
    return "".join(f"{host_name(p, n, c)}\n" for n, c in slots)


def rates(p: Platform, problem: str | None, host_mflops: float | None) -> tuple[float, float]:
    """(platform flop rate, this host's flop rate) for SMPI's scaling of measured compute time:
    simulated = host time x host rate / platform rate.  Without a problem, both are neutral."""
    if problem is None:
        return NEUTRAL_FLOPS, NEUTRAL_FLOPS
    if problem not in p.compute:
        raise PstlabError(f"{p.path}: no [compute.{problem}] rate (it has: {', '.join(p.compute) or 'none'})")
    if host_mflops is None or host_mflops <= 0:
        raise PstlabError(
            f"a rate for {problem} on the simulated platform needs this host's rate for it "
            "(--host-mflops: the model's MFlop/s from a serial run here, or `pstlab calibrate`)"
        )
    return p.compute[problem]["mflops"] * 1e6, host_mflops * 1e6


def cfg(p: Platform, host_flops: float) -> list[str]:
    """The --cfg values (key:value) that carry the file's network and software costs."""
    return [
        f"smpi/host-speed:{host_flops:.9g}f",
        # Cross-traffic would take a hidden share of the bandwidth: the factors are the measured rates.
        "network/crosstraffic:0",
        f"smpi/lat-factor:{_piecewise(p.lat_factor)}",
        f"smpi/bw-factor:{_piecewise(p.bw_factor)}",
        f"smpi/os:{_overheads(p.send_overhead)}",
        f"smpi/or:{_overheads(p.recv_overhead)}",
        f"smpi/ois:{_overheads(p.isend_overhead)}",
        f"smpi/send-is-detached-thresh:{p.eager_limit_bytes}",
        f"smpi/coll-selector:{p.coll_selector}",
    ]


def share_rates(rows: list[tuple[float, ...]], share: float) -> dict[str, float]:
    """Each stage's rate at `share` of the problem: linear in log(share) between the two rows
    around it, the nearest row's outside the table (a rank never computes faster than the
    smallest share measured)."""
    rows = sorted(rows)
    if share <= rows[0][0] or len(rows) == 1:
        row = rows[0] if share <= rows[0][0] else rows[-1]
    elif share >= rows[-1][0]:
        row = rows[-1]
    else:
        hi = next(i for i, r in enumerate(rows) if r[0] >= share)
        lo_row, hi_row = rows[hi - 1], rows[hi]
        w = math.log(share / lo_row[0]) / math.log(hi_row[0] / lo_row[0])
        row = (share, *(a + w * (b - a) for a, b in zip(lo_row[1:], hi_row[1:], strict=True)))
    return dict(zip(SHARE_ROW[1:], row[1:], strict=True))


def stage_mflops(p: Platform, problem: str | None, ranks: int = 1) -> str:
    """The problem's per-stage rates as skeleton mode reads them (PSTSWM_SMPI_STAGE_MFLOPS:
    "fft=R legendre=R ..."): a rank of `ranks` holds 1/ranks of the problem, whose rates
    rates_by_share gives when the platform has it; empty when the platform gives none."""
    rates = p.compute.get(problem, {}) if problem else {}
    if problem in p.shares:
        rates = share_rates(p.shares[problem], 1 / ranks)
    return " ".join(f"{stage}={rates[f'{stage}_mflops']:.9g}" for stage in STAGES if f"{stage}_mflops" in rates)


def render(
    p: Platform,
    outdir: Path,
    problem: str | None = None,
    host_mflops: float | None = None,
    mapping: str = "block",
    ranks: int = 1,
) -> list[str]:
    """Write outdir/platform.xml, outdir/hostfile, outdir/stage-mflops (for a run of `ranks`) and
    outdir/copy-rate (bytes/s, empty without [node] copy_bytes_per_s); return the --cfg values."""
    speed, host = rates(p, problem, host_mflops)
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "platform.xml").write_text(xml(p, speed), encoding="utf-8")
    (outdir / "hostfile").write_text(hostfile(p, mapping), encoding="utf-8")
    (outdir / "stage-mflops").write_text(stage_mflops(p, problem, ranks), encoding="utf-8")
    copy = p.node.copy_bytes_per_s if p.node else None
    (outdir / "copy-rate").write_text(f"{copy:.9g}" if copy else "", encoding="utf-8")
    return cfg(p, host)


def add_parser(sub, name: str, summary: str) -> None:
    p = sub.add_parser(name, help=summary, description=__doc__.split("\n\n")[0])
    p.add_argument("platform", help="a platform file (platforms/*.toml)")
    p.add_argument("outdir", help="where platform.xml and hostfile go")
    p.add_argument("--problem", help="the problem whose compute rate the platform's hosts get, e.g. T42L16")
    p.add_argument("--host-mflops", type=float, help="this host's rate for that problem (MFlop/s)")
    p.add_argument("--ranks", type=int, help="refuse if the platform holds fewer rank slots")
    p.add_argument("--mapping", default="block", help=f"ranks to nodes: {' or '.join(MAPPINGS)} (default block)")


def command(args) -> int:
    p = load(args.platform)
    if args.ranks is not None and args.ranks > p.ranks:
        raise PstlabError(
            f"{p.path}: {args.ranks} ranks asked for, the platform holds {p.ranks} "
            f"({p.nodes} nodes x {p.cores_per_node} cores)"
        )
    ranks = args.ranks or 1
    print("\n".join(render(p, Path(args.outdir), args.problem, args.host_mflops, args.mapping, ranks)))
    return 0
