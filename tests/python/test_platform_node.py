"""A node's shared path and rates by share in platform files (python/pstlab/simulate/platform.py, [node] and
[compute.P] rates_by_share in docs/predict.md): what they become for smpirun, what SMPI makes of
them, their sensitivity inputs, and bad files refused with exit 2 and FILE:LINE."""

import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from pstlab.simulate import platform, platform_dump, sensitivity

NODE_PLATFORM = """\
[platform]
name = "nd"
[nodes]
count = 2
cores_per_node = 4
[topology]
kind = "cluster"
[network]
latency_s = 1e-6
bandwidth_bytes_per_s = 1e10
link_sharing = "split_duplex"
loopback_latency_s = 1e-7
loopback_bandwidth_bytes_per_s = 1e10
eager_limit_bytes = 65536
[overheads]
send = [[0, 0.0, 0.0]]
[collectives]
selector = "ompi"
[node]
latency_s = 4e-7
core_bandwidth_bytes_per_s = 1e9
shared_bandwidth_bytes_per_s = 1e9
copy_bytes_per_s = 5e9
[compute.T21L4]
mflops = 1000
rates_by_share = [[1, 1000, 2000, 300, 400, 500], [0.25, 2000, 4000, 600, 800, 1000]]
"""


@pytest.fixture
def node_file(tmp_path):
    path = tmp_path / "node.toml"
    path.write_text(NODE_PLATFORM)
    return path


def render(path, outdir, *extra):
    return subprocess.run(
        [sys.executable, "-m", "pstlab", "platform", str(path), str(outdir), *extra],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT / "python",
    )


def test_each_node_is_a_cluster_of_cores_with_a_shared_backbone(node_file, tmp_path):
    done = render(node_file, tmp_path / "out", "--problem", "T21L4", "--host-mflops", "500", "--ranks", "2")
    assert done.returncode == 0, done.stderr
    xml = (tmp_path / "out" / "platform.xml").read_text()
    for k in (0, 1):
        assert f'<cluster id="nd-node{k}" prefix="nd-{k}-" suffix="" radical="0-3"' in xml
    assert xml.count('bb_bw="1e+09Bps" bb_lat="0s" bb_sharing_policy="SHARED"') == 2
    assert xml.count('bw="1e+09Bps" lat="2e-07s" sharing_policy="SHARED" bb_bw') == 2
    # one route each way between the nodes, over the sender's network link up and the receiver's down
    assert xml.count("<zoneRoute") == 2
    assert '<link_ctn id="nd-net0" direction="UP"/><link_ctn id="nd-net1" direction="DOWN"/>' in xml
    assert (tmp_path / "out" / "hostfile").read_text().split() == [f"nd-{n}-{c}" for n in (0, 1) for c in range(4)]
    assert (tmp_path / "out" / "copy-rate").read_text() == "5e+09"


def test_cyclic_mapping_deals_ranks_to_the_nodes_cores_in_turn(node_file):
    p = platform.load(node_file)
    assert platform.hostfile(p, "cyclic").split()[:4] == ["nd-0-0", "nd-1-0", "nd-0-1", "nd-1-1"]


@pytest.mark.parametrize(
    ("ranks", "fft", "legendre"),
    [(1, 1000, 2000), (2, 1500, 3000), (4, 2000, 4000), (16, 2000, 4000)],
    ids=["whole", "between-rows", "last-row", "beyond-the-table"],
)
def test_stage_rates_are_taken_at_the_share_one_rank_holds(node_file, ranks, fft, legendre):
    """Linear in log(share) between rows (half is halfway between 1 and a quarter), the nearest
    row outside the table."""
    rates = dict(item.split("=") for item in platform.stage_mflops(platform.load(node_file), "T21L4", ranks).split())
    assert float(rates["fft"]) == pytest.approx(fft) and float(rates["legendre"]) == pytest.approx(legendre)


def test_dumps_keeps_the_node_and_the_rates_by_share(node_file, tmp_path):
    p = platform.load(node_file)
    again = tmp_path / "again.toml"
    again.write_text(platform_dump.dumps(p, "round trip"))
    q = platform.load(again)
    assert q.node == p.node and q.shares == p.shares and q.compute == p.compute


def test_sensitivity_moves_each_node_input_alone(node_file):
    p = platform.load(node_file)
    assert set(sensitivity.NODE_INPUTS) <= set(sensitivity.inputs(p))
    varied = sensitivity.inputs(p)["node shared bandwidth"](p, 1.2)
    assert varied.node.shared_bandwidth_bytes_per_s == pytest.approx(1.2e9)
    assert varied.node.core_bandwidth_bytes_per_s == p.node.core_bandwidth_bytes_per_s
    scaled = sensitivity.inputs(p)["compute rates"](p, 2.0)
    assert scaled.shares["T21L4"][1] == (0.25, 4000, 8000, 1200, 1600, 2000)
    # a platform without [node] is not offered its inputs
    assert set(sensitivity.inputs(platform.load(ROOT / "platforms" / "t3e-900.toml"))) == set(sensitivity.INPUTS)


BAD = [
    ("shared_bandwidth_bytes_per_s = 1e9\n", "", "[node]", "node.shared_bandwidth_bytes_per_s: missing"),
    ("[0.25, 2000, 4000, 600, 800, 1000]", "[0.25, 2000, 4000, 600, 800]", "rates_by_share", "each row must be [share"),
    ("[0.25, 2000,", "[1.5, 2000,", "rates_by_share", "a share is a fraction of the problem"),
    ("[0.25, 2000,", "[1, 2000,", "rates_by_share", "distinct shares"),
    ('kind = "cluster"', 'kind = "torus"\ntorus_dims = [2]', "[node]", "on a cluster topology only"),
    ("latency_s = 4e-7", "latency_s = -4e-7", "latency_s = -4e-7", "a latency is not negative"),
]


@pytest.mark.parametrize(("old", "new", "marker", "message"), BAD, ids=[b[3][:30] for b in BAD])
def test_bad_node_or_share_table_exits_2_with_file_and_line(tmp_path, old, new, marker, message):
    assert old in NODE_PLATFORM
    bad = tmp_path / "bad.toml"
    bad.write_text(NODE_PLATFORM.replace(old, new, 1))
    line = next(n for n, s in enumerate(bad.read_text().splitlines(), 1) if s.startswith(marker))
    done = render(bad, tmp_path / "out")
    assert done.returncode == 2, done.stderr
    assert f"{bad}:{line}: " in done.stderr and message in done.stderr, done.stderr


@pytest.mark.mpi
@pytest.mark.skipif(os.environ.get("PSTSWM_MPI") != "smpi", reason="needs the SMPI build (make test's smpi step)")
def test_concurrent_swaps_on_a_node_divide_its_shared_bandwidth(node_file, tmp_path):
    """Core links of 1 GB/s that a core's send and receive divide, a node backbone of 1 GB/s: a
    2-rank swap's two flows each get half a core link (and half the backbone), 4 ranks' four flows
    a quarter of the backbone."""
    pstswm = str(ROOT / os.environ.get("PSTSWM_BUILD", "build/smpi") / "pstswm")
    times = {}
    for ranks in (2, 4):
        out = tmp_path / f"swap{ranks}.jsonl"
        cmd = [str(ROOT / "scripts/pstrun"), "--mpi", "smpi", "--platform", str(node_file), "-n", str(ranks), pstswm]
        cmd += ["swap", "--protocols", "0,6", "--sizes", "1M", "--pairs", "all", "--reps", "2", "--out", str(out)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        times[ranks] = next(r["t_med"] for r in map(json.loads, out.read_text().splitlines()) if r["type"] == "point")
    assert times[2] == pytest.approx(2**20 / 0.5e9, rel=0.05)
    assert times[4] / times[2] == pytest.approx(2.0, rel=0.05)
