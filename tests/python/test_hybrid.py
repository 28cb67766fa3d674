"""Ranks x threads: the splits of a node's cores a suite expands into, the verdict over launches from
synthetic model records (a clear winner, a tie) and the verdict box's line (benches/hybrid.py)."""

import gzip
import itertools
from pathlib import Path

import pytest

from conftest import FIXTURES
from pstlab.analysis import box
from pstlab.benches import hybrid
from pstlab.core.errors import PstlabError
from pstlab.io import records
from pstlab.io.records import RecordSet
from pstlab.report import report
from pstlab.report.sections import hybrid as hybrid_section
from pstlab.run import launch, suites

ARGS = ["--case", "2", "--trunc", "42", "--levels", "16", "--steps", "12", "--preset", "gen"]


@pytest.mark.parametrize("cores", [1, 2, 6, 64])
def test_splits_cover_the_cores_most_ranks_first(cores):
    splits = suites.splits(cores)
    assert all(r * t == cores for r, t in splits)
    assert [r for r, _ in splits] == sorted({r for r, _ in splits}, reverse=True)
    assert len(splits) == sum(cores % d == 0 for d in range(1, cores + 1))


def test_splits_of_two_and_sixty_four():
    assert suites.splits(2) == [(2, 1), (1, 2)]
    assert suites.splits(64) == [(64, 1), (32, 2), (16, 4), (8, 8), (4, 16), (2, 32), (1, 64)]


def write_suite(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "s.toml"
    args = ", ".join(f'"{a}"' for a in ARGS)
    path.write_text(
        f'description = "x"\n[[experiment]]\nname = "rt"\nsubcommand = "model"\nsplits = "cores"\n'
        f"args = [{args}]\nlaunches = 3\n{extra}"
    )
    return path


def test_a_splits_experiment_becomes_one_per_split(tmp_path):
    suite = suites.load(str(write_suite(tmp_path)), cores=4)
    assert [(e.name, e.ranks, e.split) for e in suite.experiments] == [
        ("rt-4x1", 4, (4, 1)),
        ("rt-2x2", 2, (2, 2)),
        ("rt-1x4", 1, (1, 4)),
    ]
    assert all(e.args[-2:] == ("--threads", str(e.split[1])) and e.launches == 3 for e in suite.experiments)


def test_on_several_nodes_the_split_is_per_node(tmp_path):
    suite = suites.load(str(write_suite(tmp_path)), nodes=2, cores=2)
    assert [(e.name, e.ranks) for e in suite.experiments] == [("rt-2x1", 4), ("rt-1x2", 2)]
    assert launch.nodes_of("srun -N 2 -n {n}") == 2 and launch.nodes_of("srun --nodes=3 -n {n}") == 3
    assert launch.nodes_of("mpiexec") == 1


def test_cores_per_node_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PSTLAB_CORES_PER_NODE", "8")
    assert [e.name for e in suites.load(str(write_suite(tmp_path))).experiments][-1] == "rt-1x8"
    monkeypatch.setenv("PSTLAB_CORES_PER_NODE", "eight")
    with pytest.raises(PstlabError, match="PSTLAB_CORES_PER_NODE must be a positive integer, got 'eight'"):
        suites.load(str(write_suite(tmp_path)))


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("ranks = 2\n", "with splits, ranks must not be given"),
        ('args = ["--threads", "2"]\n', None),  # a second args key: TOML refuses it
    ],
)
def test_bad_splits_experiments(tmp_path, extra, message):
    with pytest.raises(PstlabError, match=message or "not valid TOML"):
        suites.load(str(write_suite(tmp_path, extra)), cores=2)


def test_splits_must_be_cores_and_a_model(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[[experiment]]\nname = "rt"\nsubcommand = "model"\nsplits = "all"\n')
    with pytest.raises(PstlabError, match='splits must be "cores"'):
        suites.load(str(path))
    path.write_text('[[experiment]]\nname = "rt"\nsubcommand = "swap"\nsplits = "cores"\n')
    with pytest.raises(PstlabError, match="splits is for model experiments"):
        suites.load(str(path))
    path.write_text('[[experiment]]\nname = "rt"\nsubcommand = "model"\nsplits = "cores"\nargs = ["--grid", "1x2"]\n')
    with pytest.raises(PstlabError, match="args must not contain --grid"):
        suites.load(str(path))


def test_shipped_suites_compare_the_splits():
    quick = suites.load("quick", cores=2)
    assert {e.name for e in quick.experiments if e.split} == {"ranks-threads-2x1", "ranks-threads-1x2"}
    paper = suites.load("paper", cores=4)
    assert {e.name for e in paper.experiments if e.split} == {
        f"ranks-threads-{p}-{s}" for p in ("T42L16", "T85L16") for s in ("4x1", "2x2", "1x4")
    }


def model_records(times: dict[str, list[float]], nodes: int = 1, oversubscribed: bool = False) -> list[dict]:
    """A header and a model point per split and launch: times[split][k] the step time of launch k + 1."""
    out = []
    for split, per_launch in times.items():
        ranks, threads = (int(x) for x in split.split("x"))
        for k, step_s in enumerate(per_launch, 1):
            run_id, file = f"{split}-{k}", f"rt-{split}-L{k}.jsonl"
            common = {"bench": "model", "run_id": run_id, "ranks": ranks * nodes, "_file": file}
            out.append(
                common
                | {"type": "header", "threads": threads, "threads_source": "--threads", "nodes": nodes}
                | {"oversubscribed": oversubscribed, "hosts": ["h"], "mpi_library": "Open MPI v4.1.4"}
            )
            stages = {"fft_s": step_s / 2, "fft_comm_s": step_s / 4, "legendre_s": step_s / 4, "comm_s": step_s / 4}
            grid = f"{ranks * nodes}x1"
            out.append(
                common
                | {
                    "type": "point",
                    "case": 2,
                    "trunc": 42,
                    "levels": 16,
                    "grid": grid,
                    "preset": "gen",
                    "step_s": step_s,
                }
                | stages
            )
    return out


# A launch's drift, the same for every split launched beside it, and each split's own noise.
DRIFT = (1.0, 1.1, 0.95, 1.05, 0.9)
NOISE_A = (1.0, 1.02, 0.98, 1.01, 0.99)
NOISE_B = (1.08, 0.93, 1.02, 0.9, 1.06)


def launches(base: float, noise: tuple[float, ...], n: int = 5) -> list[float]:
    return [base * d * e for d, e in zip(DRIFT[:n], noise[:n], strict=True)]


def winner() -> RecordSet:
    return RecordSet(Path("w"), model_records({"2x1": launches(0.010, NOISE_A), "1x2": launches(0.020, NOISE_A[::-1])}))


def tie() -> RecordSet:
    return RecordSet(Path("t"), model_records({"2x1": launches(0.010, NOISE_A), "1x2": launches(0.010, NOISE_B)}))


def test_a_clear_winner_is_the_split_to_use():
    [case] = hybrid.cases(winner())
    assert case.key == ("case 2 T42L16", 1, 2) and case.launches == 5 and case.unit == "launches"
    assert case.verdict.best == "2x1" and case.verdict.best_set == ["2x1"]
    q = case.ratio("1x2")
    assert 1.8 < q.ratio < 2.2 and q.lo > 1.02 and q.significant


def test_close_splits_tie():
    [case] = hybrid.cases(tie())
    assert sorted(case.verdict.best_set) == ["1x2", "2x1"]
    other = next(s for s in case.rounds if s != case.verdict.best)
    q = case.ratio(other)
    assert q.lo < 1.02 and not (q.significant and q.ratio > 1)


def test_a_split_pairs_only_launches_every_split_ran():
    recs = model_records({"2x1": [0.01, 0.011, 0.012], "1x2": [0.02, 0.021]})
    [case] = hybrid.cases(RecordSet(Path("p"), recs))
    assert case.launches == 2 and case.rounds["2x1"] == [0.01, 0.011]


def test_runs_without_threads_or_a_single_split_give_no_verdict():
    recs = model_records({"2x1": [0.01, 0.011]})
    assert hybrid.cases(RecordSet(Path("p"), recs)) == []
    recs = model_records({"2x1": [0.01, 0.011], "1x2": [0.02, 0.021]})
    for r in recs:
        r.pop("threads_source", None)
    assert hybrid.cases(RecordSet(Path("p"), recs)) == []


def test_box_line_names_the_split_and_what_the_others_cost():
    [bullet] = box.hybrid_bullets(winner())
    assert bullet.text.startswith("Ranks x threads T42L16 gen, 2 cores: use 2x1; 1x2 ")
    assert bullet.text.count("×") == 1 and "[" in bullet.text and len(bullet.text) + 2 <= box.MAX_WIDTH
    assert bullet.facts["best"] == "2x1" and bullet.facts["tie_set"] == ["2x1"]
    [tied] = box.hybrid_bullets(tie())
    assert " ≈ " in tied.text.split(";")[0]
    assert box.build(winner()).bullets[-1].text == bullet.text


def test_box_line_on_several_nodes_and_oversubscribed():
    times = {"2x1": launches(0.01, NOISE_A, 3), "1x2": launches(0.02, NOISE_B, 3)}
    rs = RecordSet(Path("n"), model_records(times, nodes=2, oversubscribed=True))
    [bullet] = box.hybrid_bullets(rs)
    assert "2 nodes x 2 cores" in bullet.text and bullet.text.startswith("⚠") and bullet.facts["caveats"]


def test_one_launch_gives_no_interval():
    [bullet] = box.hybrid_bullets(RecordSet(Path("o"), model_records({"2x1": [0.01], "1x2": [0.02]})))
    assert "1 launch: no interval" in bullet.text
    assert "2x1 ≈ 1x2" in bullet.text or "1x2 ≈ 2x1" in bullet.text


def test_the_box_keeps_the_line_beside_the_quick_suites_verdicts(tmp_path):
    for gz in (FIXTURES / "quick").glob("*.gz"):
        (tmp_path / gz.name.removesuffix(".gz")).write_bytes(gzip.decompress(gz.read_bytes()))
    quick = records.load(tmp_path)
    rs = RecordSet(tmp_path, quick.records + winner().records, quick.manifest)
    b = box.build(rs)
    assert len(b.bullets) <= box.MAX_BULLETS and [x.kind for x in b.bullets].count("hybrid") == 1
    secs = report.sections(rs, b)
    titles = [s.title for s in secs]
    assert hybrid_section.TITLE in titles
    table = next(t for t in secs[titles.index(hybrid_section.TITLE)].blocks if hasattr(t, "rows"))
    assert [row[1] for row in table.rows] == ["2x1", "1x2"] and table.rows[1][-2].endswith("]")
    assert list(itertools.chain(*table.rows)).count("best") == 1
