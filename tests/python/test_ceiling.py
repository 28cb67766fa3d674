"""The node's ceiling (pstlab.benches.ceiling, bench/node-ceiling.sh's samples): per round the slowest
copy's rate over the same round's one-core rate, the median over rounds with its range, the ceiling a
split is held to, and the ranks x threads table's efficiency beside it, on planted samples."""

import json

import pytest

from pstlab.benches import ceiling, hybrid
from pstlab.core.units import fmt_ms
from pstlab.io.records import RecordSet
from pstlab.report.sections import hybrid as hybrid_section
from test_hybrid import model_records

# per round: one core's DGEMM rate, each thread's of one process, each process's (GFlop/s)
ROUNDS = [(20.0, (19.0,), (18.0, 19.8)), (10.0, (9.0,), (9.5, 9.9)), (20.0, (20.0,), (17.0, 20.0))]


def samples(rounds=ROUNDS) -> list[dict]:
    out = []
    for k, (one, threads, ranks) in enumerate(rounds):
        out.append({"what": "dgemm", "mode": "one", "round": f"r{k}", "copy": 0, "threads": 1, "gflops_med": one})
        out.append(
            {"what": "dgemm", "mode": "threads", "round": f"r{k}", "copy": 0, "threads": 2, "gflops_med": threads[0]}
        )
        out += [
            {"what": "dgemm", "mode": "ranks", "round": f"r{k}", "copy": c, "threads": 1, "gflops_med": r}
            for c, r in enumerate(ranks)
        ]
    out.append({"what": "stream_triad", "mode": "one", "round": "r0", "copy": 0, "gbs_med": 8.0})
    out.append({"what": "stream_triad", "mode": "ranks", "round": "r0", "copy": 0, "gbs_med": 4.0})
    return out


def write(directory, recs) -> None:
    (directory / ceiling.SAMPLES).write_text("".join(json.dumps(r) + "\n" for r in recs))


def test_the_ceiling_pairs_each_round_with_its_own_one_core_rate():
    table = ceiling.ceilings(samples())
    threads, ranks = table[("dgemm", "threads")], table[("dgemm", "ranks")]
    assert threads.ratios == pytest.approx([0.95, 0.90, 1.00]) and threads.ratio == pytest.approx(0.95)
    # the slowest process sets a round's rate: 18/20, 9.5/10, 17/20
    assert ranks.rates == [18.0, 9.5, 17.0] and ranks.ratio == pytest.approx(0.90) and ranks.copies == 2
    assert table[("dgemm", "one")].ratio is None and table[("dgemm", "one")].rate == 20.0
    assert table[("stream_triad", "ranks")].ratios == [0.5] and ("stream_triad", "threads") not in table
    assert ceiling.fmt_ratio(ranks) == "0.90 [0.85, 0.95]" and ceiling.fmt_ratio(None) == "–"


def test_processes_are_held_to_each_repetitions_slowest_copy_as_threads_are():
    # two processes of 3 repetitions of the same work (rate x time = 60): each is slow once, at a
    # different repetition; matched by index the round keeps 10 per core, where each copy's median says 15
    def copy(k: int, reps: list[float]) -> dict:
        common = {"what": "dgemm", "mode": "ranks", "round": "r0", "gflops_med": 15.0, "t_med": 4.0}
        return common | {"copy": k, "t_reps": reps}

    copies = [copy(0, [6.0, 4.0, 4.0]), copy(1, [4.0, 6.0, 4.0])]
    one = {"what": "dgemm", "mode": "one", "round": "r0", "copy": 0, "gflops_med": 20.0}
    ranks = ceiling.ceilings([one, *copies])[("dgemm", "ranks")]
    assert ranks.rates == [pytest.approx(10.0)] and ranks.ratio == pytest.approx(0.5)
    # repetitions that cannot be matched (counts differ, or one copy has none): the slowest median
    copies[1]["t_reps"] = [4.0, 6.0]
    assert ceiling.ceilings([one, *copies])[("dgemm", "ranks")].rates == [15.0]
    del copies[1]["t_reps"]
    assert ceiling.ceilings([one, *copies])[("dgemm", "ranks")].rates == [15.0]


def test_a_split_is_held_to_the_ceiling_of_its_kind():
    table = ceiling.ceilings(samples())
    assert ceiling.for_split(table, 1, 2) is table[("dgemm", "threads")]
    assert ceiling.for_split(table, 2, 1) is table[("dgemm", "ranks")]
    assert ceiling.for_split(table, 2, 2) is table[("dgemm", "ranks")]  # mixed: its ranks are processes
    assert ceiling.for_split(table, 1, 1) is None and ceiling.for_split({}, 2, 1) is None


def test_no_samples_no_ceiling(tmp_path):
    assert ceiling.load(tmp_path) == [] and ceiling.ceilings([]) == {}
    assert ceiling.ceilings([{"what": "dgemm", "mode": "ranks", "round": "r0", "gflops_med": 9.0}]) == {}


def test_the_ranks_x_threads_table_prints_efficiency_beside_the_ceiling(tmp_path):
    write(tmp_path, samples())
    # 1x1 at 16 ms, 2x1 at 10 ms (efficiency 0.80), 1x2 at 8.42 ms (0.95)
    rs = RecordSet(tmp_path, model_records({"1x1": [0.016] * 3, "2x1": [0.010] * 3, "1x2": [0.016 / 1.9] * 3}))
    [case] = hybrid.cases(rs)
    assert hybrid.one_core_step(rs, case) == pytest.approx(0.016)
    table = hybrid_section.table([case], rs)
    col = {name: table.columns.index(name) for name in ("efficiency", "ceiling", "eff / ceiling")}
    rows = {row[1]: row for row in table.rows}
    assert [rows["2x1"][col[c]] for c in col] == ["0.80", "0.90 [0.85, 0.95]", "0.89"]
    assert [rows["1x2"][col[c]] for c in col] == ["0.95", "0.95 [0.90, 1.00]", "1.00"]
    # without the samples or a 1x1 run the cells say so rather than guess
    bare = RecordSet(tmp_path / "none", model_records({"2x1": [0.010] * 3, "1x2": [0.008] * 3}))
    (tmp_path / "none").mkdir()
    row = hybrid_section.table(hybrid.cases(bare), bare).rows[0]
    assert [row[col[c]] for c in col] == ["–", "–", "–"]


def test_the_table_says_what_the_ranks_waited_and_how_uneven_their_cores_ran(tmp_path):
    recs = model_records({"1x1": [0.016] * 3, "2x1": [0.010] * 3, "1x2": [0.008] * 3})
    launch = 0
    for r in recs:
        if r["type"] == "point" and r["ranks"] == 2:
            launch += 1
            # launch k: the slow rank 1.1, 1.2, 1.3 times the fast one in the local stages; waits 1, 2, 3 ms
            r["events"] = [
                {"name": s, "slowest_s": 0.001 * (1 + launch / 10), "fastest_s": 0.001}
                for s in ("fourier", "grid", "spectral")
            ] + [{"name": "legendre", "slowest_s": 0.5, "fastest_s": 0.001}]  # communication: not counted
            r["legendre_wait_s"], r["fft_wait_s"] = 0.001 * launch, 0.0
    rs = RecordSet(tmp_path, recs)
    table = hybrid_section.table(hybrid.cases(rs), rs)
    col = {name: table.columns.index(name) for name in ("wait", "imbalance")}
    rows = {row[1]: row for row in table.rows}
    assert [rows["2x1"][col[c]] for c in col] == [fmt_ms(0.002), "1.20"]
    # one rank (no events) and no --sync-wait (null waits): nothing to say
    assert [rows["1x2"][col[c]] for c in col] == ["–", "–"]
    assert hybrid.sync_wait_s({"legendre_wait_s": None, "fft_wait_s": None}) is None
    assert hybrid.rank_imbalance({"events": [{"name": "grid", "slowest_s": 0.0, "fastest_s": 0.0}]}) is None
    # the model's own per-rank sums win over the per-stage events (whose slowest ranks may differ)
    point = {"local_stages": {"imbalance": 1.07}, "events": [{"name": "grid", "slowest_s": 2.0, "fastest_s": 1.0}]}
    assert hybrid.rank_imbalance(point) == 1.07
    assert hybrid.rank_imbalance({"local_stages": {"imbalance": None}, "events": point["events"]}) == 2.0
