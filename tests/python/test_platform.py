"""Platform files (python/pstlab/simulate/platform.py, docs/predict.md): the shipped T3E-900 files, what they
become for smpirun, and bad files refused with exit 2 and FILE:LINE."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT
from pstlab.simulate import platform

T3E = ROOT / "platforms" / "t3e-900.toml"
T3E_SHMEM = ROOT / "platforms" / "t3e-900-shmem.toml"


def render(path, tmp_path, *extra):
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pstlab",
            "platform",
            str(path),
            str(tmp_path / "out"),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT / "python",
    )


def test_t3e_files_hold_the_published_numbers():
    mpi, shmem = platform.load(T3E), platform.load(T3E_SHMEM)
    for p in (mpi, shmem):
        assert (p.nodes, p.cores_per_node, p.topology, p.torus_dims) == (
            512,
            1,
            "torus",
            [8, 8, 8],
        )
        assert (p.latency_s, p.bandwidth_bytes_per_s, p.link_sharing) == (
            1e-6,
            600e6,
            "split_duplex",
        )
        # Worley 1998 Table 1; T85L16 derived as T85L3 x T42L16 / T42L3.
        assert p.compute["T42L16"]["mflops"] == 64.1
        assert p.compute["T85L16"]["mflops"] == pytest.approx(
            70.7 * 64.1 / 70.0, abs=0.005
        )
    # Table 3, unordered SWAP from 128 KB on: the slope of the swap time between 128 KB and 2 MB,
    # 289.23 MB/s (MPI) and 546.61 MB/s (SHMEM), over the link's 600 MB/s.
    assert mpi.bw_factor[-1] == (131072, 0.4820) and shmem.bw_factor[-1] == (
        131072,
        0.9110,
    )


def test_render_writes_xml_hostfile_and_cfg(tmp_path):
    done = render(
        T3E, tmp_path, "--problem", "T42L16", "--host-mflops", "641", "--ranks", "16"
    )
    assert done.returncode == 0, done.stderr
    cfg = done.stdout.splitlines()
    # the platform's host runs at the T3E rate, SMPI scales this host's time (10x faster) to it
    assert "smpi/host-speed:641000000f" in cfg
    assert "smpi/bw-factor:131072:0.482;8192:0.4985;0:0.1377" in cfg
    # SMPI applies an overhead row above its size: the file's rows from 8 KB and 128 KB on
    assert "smpi/os:131071:4.04e-05:0;8191:4.787e-05:0;0:1.2e-05:0" in cfg
    assert (
        "smpi/send-is-detached-thresh:4194304" in cfg
        and "smpi/coll-selector:mpich" in cfg
    )
    xml = (tmp_path / "out" / "platform.xml").read_text()
    assert (
        'topology="TORUS" topo_parameters="8,8,8"' in xml and 'speed="64100000f"' in xml
    )
    assert 'sharing_policy="SPLITDUPLEX"' in xml and 'radical="0-511"' in xml
    hosts = (tmp_path / "out" / "hostfile").read_text().split()
    assert len(hosts) == 512 and hosts[:2] == ["t3e-900-0", "t3e-900-1"]


def test_more_ranks_than_the_platform_holds_are_refused(tmp_path):
    done = render(T3E, tmp_path, "--ranks", "513")
    assert done.returncode == 2
    assert (
        "513 ranks asked for, the platform holds 512 (512 nodes x 1 cores)"
        in done.stderr
    )


def test_a_problem_without_a_rate_is_refused(tmp_path):
    done = render(T3E, tmp_path, "--problem", "T170L16", "--host-mflops", "1000")
    assert (
        done.returncode == 2
        and "no [compute.T170L16] rate (it has: T42L16, T85L16)" in done.stderr
    )


# (what to change in t3e-900.toml, the line the refusal names, the message)
BAD = [
    (
        ("torus_dims = [8, 8, 8]", "torus_dims = [8, 8, 4]"),
        "torus_dims",
        "8 x 8 x 4 = 256 nodes, but nodes.count is 512",
    ),
    (
        ('kind = "torus"', 'kind = "ring"'),
        "kind =",
        "must be one of cluster, torus, fat_tree, got 'ring'",
    ),
    (
        ('selector = "mpich"', 'selectr = "mpich"'),
        "selectr",
        "collectives.selectr: unknown field",
    ),
    (
        ("bw_factor = [[0, 0.1377], [8192", "bw_factor = [[0, 0.1377], [4194304"),
        "bw_factor",
        "sizes must start at 0 and increase",
    ),
    (
        ("mflops = 64.1 ", 'mflops = "fast" '),
        'mflops = "fast"',
        "must be a number, got 'fast'",
    ),
    (
        ("mflops = 64.1 ", "fft_flops = 1.0 "),
        "fft_flops",
        "unknown field (allowed: mflops",
    ),
    (
        ("latency_s = 1e-6", "latency_s = -1e-6"),
        "latency_s = -1e-6",
        "must be positive",
    ),
    (
        ('link_sharing = "split_duplex"', 'link_sharing = "half"'),
        "link_sharing",
        "must be one of shared",
    ),
    (("count = 512", "count = = 512"), "count = = 512", "not valid TOML"),
]


@pytest.mark.parametrize(
    ("change", "marker", "message"), BAD, ids=[b[2][:30] for b in BAD]
)
def test_bad_file_exits_2_with_file_and_line(tmp_path, change, marker, message):
    text = T3E.read_text()
    assert change[0] in text
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace(change[0], change[1], 1))
    line = next(
        n
        for n, s in enumerate(bad.read_text().splitlines(), 1)
        if marker in s and not s.startswith("#")
    )
    done = render(bad, tmp_path)
    assert done.returncode == 2, done.stderr
    assert f"{bad}:{line}: " in done.stderr and message in done.stderr, done.stderr


def test_pstrun_smpi_needs_a_platform_and_refuses_a_bad_one(tmp_path):
    pstrun = str(ROOT / "scripts" / "pstrun")
    done = subprocess.run(
        [pstrun, "--mpi", "smpi", "-n", "2", "true"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (
        done.returncode == 2 and "--mpi smpi needs --platform FILE.toml" in done.stderr
    )
    bad = tmp_path / "bad.toml"
    bad.write_text(T3E.read_text().replace("count = 512", "count = 500"))
    done = subprocess.run(
        [pstrun, "--mpi", "smpi", "--platform", str(bad), "-n", "2", "true"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (
        done.returncode == 2
        and f"{bad}:" in done.stderr
        and "nodes.count is 500" in done.stderr
    )


def test_the_mapping_places_ranks_by_block_or_cyclic(tmp_path):
    two_by_two = tmp_path / "two.toml"
    two_by_two.write_text(
        T3E.read_text()
        .replace("count = 512", "count = 2")
        .replace("cores_per_node = 1", "cores_per_node = 2")
        .replace('kind = "torus"', 'kind = "cluster"')
        .replace("torus_dims = [8, 8, 8]", "")
    )
    p = platform.load(two_by_two)
    assert platform.hostfile(p).split() == ["t3e-900-0", "t3e-900-0", "t3e-900-1", "t3e-900-1"]
    assert platform.hostfile(p, "cyclic").split() == ["t3e-900-0", "t3e-900-1", "t3e-900-0", "t3e-900-1"]


def test_pstrun_takes_the_mapping_from_its_environment_and_refuses_an_unknown_one():
    pstrun = str(ROOT / "scripts" / "pstrun")
    done = subprocess.run(
        [pstrun, "--mpi", "smpi", "--platform", str(T3E), "-n", "2", "true"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PSTRUN_MAPPING": "round"},
    )
    assert done.returncode == 2
    assert "--mapping: unknown mapping 'round' (allowed: block, cyclic)" in done.stderr
