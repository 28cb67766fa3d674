"""Each bench's parser and tables, checked against values computed here from the raw records."""

import json

import pytest

from conftest import FIXTURES
from pstlab.benches import coll as coll_facts
from pstlab.benches import common
from pstlab.benches import kernel as kernel_facts
from pstlab.benches import match as match_facts
from pstlab.benches import model as model_facts
from pstlab.benches import swap as swap_facts
from pstlab.core import grouping, tiesets, units
from pstlab.io import records, schema
from pstlab.io.headers import math_libraries, short_command, short_library, vector_width
from pstlab.io.records import RecordSet
from pstlab.report.sections import coll, kernel, match, model, pingpong, runinfo, swap
from pstlab.stats import stats

BASE = {"run_id": "r", "ranks": 2, "transport": "mpi"}


def rs_of(*recs: dict) -> RecordSet:
    return RecordSet(path=__import__("pathlib").Path("mem"), records=[dict(r) for r in recs])


def point(bench: str, **fields) -> dict:
    t = fields.pop("t", 1e-6)
    return {
        "bench": bench,
        "type": "point",
        **BASE,
        "t_min": t,
        "t_med": t,
        "t_mean": t,
        "t_max": t,
        "reps": 3,
        **fields,
    }


def cell(table, row_match: dict[str, str], column: str) -> str:
    for row in table.rows:
        if all(row[table.columns.index(k)] == v for k, v in row_match.items()):
            return row[table.columns.index(column)]
    raise AssertionError(f"no row {row_match} in {table.title}")


# ---------------------------------------------------------------- swap


def test_swap_table3_names_each_class_tie_set_from_the_paired_rounds(ompi_dir):
    """Worley 1998 Table 3's 'best protocol' is the class's tie set (docs/statistics.md), never the lone
    smallest t_min: recomputed here from the rounds of the size's verdict, restricted to the class."""
    current = records.load(FIXTURES / "current" / "openmpi")
    table = swap.table3(current)
    case = next(c for c in swap_facts.verdict_cases(current) if c.key[3] == 2 << 20 and c.key[4] == 1)
    for cls, first in (("unordered", "0"), ("ordered", "1")):
        members = {a: r for a, r in case.rounds.items() if a[0] in (first, str(int(first) + 2))}
        v = stats.verdict(members, case.verdict.confidence, case.verdict.margin)
        assert cell(table, {"class": cls}, "2M tie set") == tiesets.name(sorted(v.best_set, key=v.medians.get))
    rs = records.load(ompi_dir)
    one_msg = [p for p in rs.points("swap") if p.get("nmsg") == 1 and p["_file"] == "swap-classes.jsonl"]
    for cls, first in (("unordered", "0"), ("ordered", "1")):
        at_2m = [p for p in one_msg if p["bytes"] == 2 << 20 and p["protocol"].startswith(first)]
        fastest = min(at_2m, key=lambda p: p["t_min"])
        assert cell(swap.table3(rs), {"class": cls}, "2M tie set") == "no rounds"  # no verdict without rounds
        mbs = float(cell(swap.table3(rs), {"class": cls}, "2M MB/s").replace(",", ""))
        assert mbs == pytest.approx((2 << 20) / fastest["t_min"] / 1e6, rel=1e-3)


def test_swap_sections_cover_every_summary(ompi_dir):
    rs = records.load(ompi_dir)
    groups = {(s["run_id"], s["cache"]) for s in rs.summaries("swap", "sensitivity")}
    assert len(swap.sensitivity_tables(rs)) == len(groups)
    # one cell per protocol and sweep, launches merged: every summary's protocol has its cell
    cells = [c for t in swap.protocol_table(rs) for row in t.rows for c in row[1:] if c]
    split_runs = {s.run_id for s in swap_facts.sweeps(rs) if s.split_volume}
    merged = {(s["run_id"] in split_runs, s["protocol"], s["cache"]) for s in rs.summaries("swap", "protocol")}
    assert len(cells) == len(merged)
    split = [s for s in swap_facts.sweeps(rs) if s.split_volume]
    assert {s.cache for s in split} == {"cold", "1"}
    assert all(p.get("nmsg", 1) == 1 for p in swap_facts.size_points(rs))


def test_swap_latency_is_fitted_when_pstswm_wrote_no_summary():
    pts = [
        point("swap", protocol="1,0", slug="ordered.simple", bytes=b, nmsg=1, cache="1", pair="0,1", t=2e-6 + b / 4e9)
        for b in (8, 8192, 131072, 2 << 20)
    ]
    table = swap.table3(rs_of(*pts))
    assert cell(table, {"class": "ordered"}, "8K lat µs") == "2.00"
    assert swap.protocol_table(rs_of(*pts)) == []


# ---------------------------------------------------------------- pingpong


def test_pingpong_fit_over_the_seed_window():
    pts = [
        point("pingpong", mode="send", bytes=b, t=1e-6 + b / 10e9) for b in (0, 8, 1024, 1 << 20, 1536 << 10, 2 << 20)
    ]
    pts.append(point("pingpong", mode="send", bytes=4096, t=9e-6))  # outside the window: must not matter
    table = pingpong.table(rs_of(*pts))
    assert cell(table, {"mode": "send"}, "fit t_l µs") == "1.00"
    assert cell(table, {"mode": "send"}, "fit MB/s") == "10,000"
    assert cell(table, {"mode": "send"}, "fit by") == "pstlab"
    assert cell(table, {"mode": "send"}, "latency µs (size)") == "1.00 (0 B)"


def test_pingpong_prefers_pstswms_own_fit_and_splits_directions():
    pts = [
        point("pingpong", mode="send", direction=d, bytes=b, t=1e-6 + b / 10e9)
        for d in ("uni", "bi")
        for b in (8, 1 << 20, 2 << 20)
    ]
    summary = {
        "bench": "pingpong",
        "type": "summary",
        **BASE,
        "summary": "latbw",
        "mode": "send",
        "direction": "uni",
        "t_l_s": 3e-6,
        "fit_mbytes_per_s": 123.0,
        "fit_from_bytes": 1 << 20,
        "fit_to_bytes": 2 << 20,
    }
    table = pingpong.table(rs_of(*pts, summary))
    assert cell(table, {"mode": "send direction uni"}, "fit t_l µs") == "3.00"
    assert cell(table, {"mode": "send direction uni"}, "fit by") == "pstswm"
    assert cell(table, {"mode": "send direction bi"}, "fit by") == "pstlab"


# ---------------------------------------------------------------- coll


def test_coll_pivot_and_bandwidth(ompi_dir):
    rs = records.load(ompi_dir)
    pts = coll_facts.measured_points(rs)
    table = coll.time_table(pts, lambda _: False)
    p = next(p for p in pts if p["op"] == "allreduce" and p["bytes"] == 1024 and p["comm_size"] == 3)
    assert cell(table, {"operation": "allreduce", "bytes": "1K"}, "3 ranks") == f"{p['t_med'] * 1e6:.3g}"
    assert cell(table, {"operation": "barrier"}, "busbw GB/s") == "–"  # no bandwidth for a barrier
    big = max((p for p in pts if p["op"] == "allreduce" and p["bytes"] == 1024), key=lambda p: p["comm_size"])
    assert cell(table, {"operation": "allreduce", "bytes": "1K"}, "busbw GB/s") == units.fmt_num(big["busbw"])


def test_coll_nonblocking_and_persistent_tables():
    base = {"bench": "coll", "type": "summary", **BASE, "bytes": 65536, "comm_size": 2, "iters": 10, "rounds": 5}
    overlap = dict(
        base,
        summary="overlap",
        op="allreduce",
        t_pure_s=20e-6,
        t_cpu_s=21e-6,
        t_ovrl_s=40e-6,
        t_ovrl_test_s=34e-6,
        overlap_pct=5.0,
        overlap_test_pct=35.0,
        test_every=10,
        cpu_chunks=100,
    )
    persistent = dict(
        base,
        summary="persistent",
        op="allreduce",
        init_s=3e-6,
        t_blocking_s=20e-6,
        t_persistent_s=22.4e-6,
        persistent_ratio=1.12,
        persistent_ratio_ci=[1.08, 1.16],
        persistent_significant=True,
    )
    rs = rs_of(overlap, persistent, dict(persistent, op="bcast", persistent_ratio=1.0, persistent_significant=False))
    ov = coll.overlap_table(rs)
    assert cell(ov, {"op": "allreduce"}, "overlap %") == "5"
    assert cell(ov, {"op": "allreduce"}, "overlap % (MPI_Test)") == "35"
    pt = coll.persistent_table(rs)
    assert cell(pt, {"op": "allreduce"}, "persistent / blocking [CI]") == "1.12 [1.08, 1.16]"
    assert cell(pt, {"op": "bcast"}, "persistent / blocking [CI]").endswith("n.s.")
    assert [row[0] for row in pt.rows] == ["bcast", "allreduce"]  # in pstswm's op order
    assert coll.overlap_table(rs_of(persistent)) is None


# ---------------------------------------------------------------- match


def test_match_accepts_both_record_layouts():
    per_order = [
        point(
            "match",
            algorithm="tag",
            order=o,
            queue="posted",
            n=n,
            length=10,
            **{("iot_s" if o == "in" else "rot_s"): t},
        )
        for n, (ti, tr) in {1: (1e-6, 1e-6), 10: (2e-6, 3e-6)}.items()
        for o, t in (("in", ti), ("reverse", tr))
    ]
    t_only = [
        point("match", algorithm="comm", order=o, queue="posted", n=10, length=10, t=t)
        for o, t in (("in", 2e-6), ("reverse", 2.5e-6))
    ]
    data = match_facts.batches(rs_of(*per_order, *t_only))
    assert data[("tag", "posted", None, 10)][10] == {"iot": 2e-6, "rot": 3e-6}
    assert data[("comm", "posted", None, 10)][10] == {"iot": 2e-6, "rot": 2.5e-6}
    table = match.batch_table(data, {})
    # one row per n, three columns per configuration: tag's per-n M is the last of its three
    m_column = table.columns.index("tag posted L10: IOT / ROT µs") + 2
    row = next(r for r in table.rows if r[0] == "10")
    assert row[m_column] == f"{1e-6 / 45 * 1e9:.3g}" and len({r[0] for r in table.rows}) == len(table.rows)


def test_match_fit_and_queue_verdict_from_summaries(ompi_dir):
    rs = records.load(ompi_dir)
    table = match.fit_table(rs)
    fits = [s for s in rs.summaries("match") if "m_ns" in s]
    assert fits and len(table.rows) == len(fits)
    for f in fits:
        row = {"algorithm": f["algorithm"], "queue": f["queue"], "length": str(f["length"])}
        lo, hi = f["m_ns_ci95"]
        if lo <= 0 <= hi:  # inconclusive: said so, not printed as a number
            assert cell(table, row, "M ns") == "≈ 0: the interval includes 0"
        else:
            assert float(cell(table, row, "M ns")) == pytest.approx(f["m_ns"], rel=5e-3, abs=5e-4)
    verdicts = rs.summaries("match", "queues")
    assert verdicts
    for v in verdicts:
        assert (
            cell(table, {"algorithm": "comm", "queue": v["queue"], "length": str(v["length"])}, "queues")
            == v["verdict"]
        )
    verdicts[0]["verdict"] = "one queue shared by all communicators"  # the cell shows pstswm's words
    row = {"algorithm": "tag", "queue": verdicts[0]["queue"], "length": str(verdicts[0]["length"])}
    assert cell(match.fit_table(rs), row, "queues") == "one queue shared by all communicators"
    assert len(match.fit_table(rs).rows) == len(fits)  # a verdict is not a fit


# ---------------------------------------------------------------- kernel


def test_kernel_best_protocol_spread_and_generic_penalty():
    pts = [
        point("kernel", algorithm="halfsum", protocol=p, overlap=o, size="T42L16", grid="1x2", t=t)
        for p, o, t in (
            ("0,6", False, 1.2e-4),
            ("0,6", True, 1.05e-4),  # 0,6 with overlap is not what 'gen' uses: Table 4 takes overlap off
            ("1,3", False, 1.0e-4),
            ("1,3", True, 1.1e-4),
            ("3,1", True, 1.5e-4),
        )
    ]
    coll = point("kernel", algorithm="allreduce", protocol="coll", overlap=False, size="T42L16", grid="1x2", t=0.9e-4)
    rs = rs_of(*pts, coll)
    sens, table4 = kernel.sensitivity_table(rs), kernel.generic_table(rs)
    row = {"algorithm": "halfsum"}
    assert cell(sens, row, "best") == "1,3"
    assert cell(sens, row, "stage") == "legendre" and cell(sens, row, "grid") == "1x2"
    assert cell(sens, row, "alternatives") == "5"
    assert cell(sens, row, "(median−min)/min") == "0.100"  # median of 0, .05, .1, .2, .5
    assert cell(sens, row, "(max−min)/min") == "0.500"
    assert cell(sens, row, "sensitivity") == "moderate"
    assert cell(sens, row, "five fastest") == "1,3 0,6+ov 1,3+ov 0,6 3,1"
    assert [r[1] for r in sens.rows] == ["halfsum"]  # the collective has no protocol alternatives
    assert cell(table4, row, "0,6 µs") == "120"
    assert cell(table4, row, "0,6 loss") == "+20%"
    assert cell(table4, row, "collective") == "allreduce"
    assert cell(table4, row, "coll loss") == "-10%"


def test_kernel_without_generic_or_collective_says_so():
    pts = [
        point("kernel", algorithm=a, stage="fft", protocol="1,3", overlap=False, size="T42L16", grid="2x1", t=t)
        for a, t in (("dfft", 2e-4), ("srtrans", 1e-4))
    ]
    table4 = kernel.generic_table(rs_of(*pts))
    for algorithm in ("dfft", "srtrans"):
        assert cell(table4, {"algorithm": algorithm}, "0,6 loss") == "–"
        assert cell(table4, {"algorithm": algorithm}, "collective") == "–"


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_kernel_tables_agree_with_pstswms_own_summaries(mpi):
    """pstlab recomputes Worley 1999's and Table 4's figures from the points; pstswm kernel wrote its own."""
    rs = records.load(FIXTURES / mpi / "kernel.jsonl")
    sens, table4 = kernel.sensitivity_table(rs), kernel.generic_table(rs)
    sensitivity = rs.summaries("kernel", "sensitivity")
    generic = rs.summaries("kernel", "generic")
    assert len(sens.rows) == len(sensitivity) > 0 and len(table4.rows) == len(generic) == len(sensitivity)
    for s in sensitivity:
        row = {"stage": s["stage"], "algorithm": s["algorithm"], "grid": s["grid"]}
        assert cell(sens, row, "alternatives") == str(s["nalternatives"])
        assert cell(sens, row, "best") == s["best"]
        assert cell(sens, row, "(median−min)/min") == f"{s['median_rel']:.3f}"
        assert cell(sens, row, "(max−min)/min") == f"{s['max_rel']:.3f}"
        assert cell(sens, row, "sensitivity") == s["level"]
        assert cell(sens, row, "five fastest").split()[0] == s["fastest"][0]
    for g in generic:
        row = {"stage": g["stage"], "algorithm": g["algorithm"], "grid": g["grid"]}
        assert g["gen_protocol"] == kernel_facts.GENERIC_PROTOCOL
        assert cell(table4, row, "0,6 loss") == f"{g['gen_loss_rel'] * 100:+.0f}%"
        assert cell(table4, row, "collective") == (g["coll_algorithm"] or "–")
        if g["coll_algorithm"]:
            assert cell(table4, row, "coll loss") == f"{g['coll_loss_rel'] * 100:+.0f}%"


def test_kernel_stage_inference():
    assert kernel_facts.stage({"algorithm": "ringpipe"}) == "legendre"
    assert kernel_facts.stage({"algorithm": "srtrans"}) == "fft"
    assert kernel_facts.stage({"algorithm": "allreduce"}) == "legendre"
    assert kernel_facts.stage({"algorithm": "alltoallv"}) == "fft"
    assert kernel_facts.stage({"algorithm": "srtrans", "stage": "legendre"}) == "legendre"


# ---------------------------------------------------------------- model


def run_record(grid, step, **fields):
    return {
        "bench": "model",
        "type": "point",
        **BASE,
        "case": 2,
        "trunc": 42,
        "levels": 16,
        "grid": grid,
        "step_s": step,
        "wall_s": step * 10,
        "steps": 10,
        **fields,
    }


def test_model_configuration_labels():
    assert model_facts.config(run_record("1x1", 1, fft="serial")) == "serial"
    assert model_facts.config(run_record("2x1", 1, fft="srtrans", legendre="halfsum", protocol="0,6")) == "gen"
    assert model_facts.config(run_record("2x1", 1, fft="coll", legendre="coll")) == "coll"
    assert (
        model_facts.config(run_record("2x1", 1, fft="dfft", legendre="ringpipe", protocol="3,1", overlap=True))
        == "dfft/ringpipe 3,1 +overlap"
    )
    assert model_facts.config(run_record("2x1", 1, preset="opt", fft="dfft")) == "opt"
    assert model_facts.config(run_record("2x1", 1, fft="srtrans", protocol="0,6", transport="rma")) == "gen [rma]"


def test_model_serial_table_names_the_blas_of_the_fastest_run():
    recs = [
        run_record("1x1", 0.012, blas="openblas", blas_choice="fixed"),
        run_record("1x1", 0.010, blas="blis-sup", blas_choice="auto"),
        dict(run_record("1x1", 0.020), trunc=21),  # a record from before --blas
    ]
    table = model.serial_table(recs)
    assert cell(table, {"problem": "case 2 T42L16"}, "Legendre BLAS") == "blis-sup (auto)"
    assert cell(table, {"problem": "case 2 T42L16"}, "ms per step") == "10.0"
    assert cell(table, {"problem": "case 2 T21L16"}, "Legendre BLAS") == "–"


def test_model_degradation_against_opt_or_fastest():
    recs = [
        run_record("2x1", 0.010, preset="opt"),
        run_record("2x1", 0.012, preset="gen"),
        run_record("2x1", 0.015, preset="coll"),
        run_record("1x2", 0.020, preset="gen"),
        run_record("1x2", 0.025, preset="coll"),
    ]
    table = model.degradation_table(recs)
    assert cell(table, {"algorithms": "gen"}, "2x1") == "+20%"
    assert cell(table, {"algorithms": "coll"}, "2x1") == "+50%"
    assert cell(table, {"algorithms": "gen"}, "1x2") == "best"  # no opt there: the fastest is the reference
    assert cell(table, {"algorithms": "coll"}, "1x2") == "+25%"


def test_model_ignores_diag_records_and_reads_stages(ompi_dir):
    rs = records.load(ompi_dir)
    runs = model_facts.runs(rs)
    assert runs and all(r["type"] == "point" for r in runs)
    for r in runs:  # once-per-run set-up times are not stages of a step
        r.update(setup_s=1.2, fft_plan_s=0.7, fourier_s=0.002)
    stages = model.stage_table(runs)
    assert "FFT compute" in stages.columns and "Fourier space" in stages.columns
    assert not any(c.endswith("_s") for c in stages.columns)  # named stages, not raw field names
    assert "setup" not in stages.columns and "fft plan" not in stages.columns


def test_every_section_tolerates_extra_fields(ompi_dir, monkeypatch):
    rs = records.load(ompi_dir)
    for r in rs.records:
        r["surprise"] = {"nested": [1, 2]}
    drawn = []
    for bench in (swap, pingpong, coll, match, kernel, model):  # figures are test_report's business: skip drawing
        if hasattr(bench, "figure"):
            monkeypatch.setattr(bench, "figure", lambda name, *_a, **_k: drawn.append(name))
    for bench in (swap, pingpong, coll, match, kernel, model):
        assert bench.section(rs).blocks
        assert bench.headline(rs)
    assert "swap-bandwidth" in drawn and "model-runtime" in drawn
    json.dumps(rs.records)  # still plain data


# ---------------------------------------------------------------- runs and machine


@pytest.mark.parametrize("mpi", ["openmpi", "mpich"])
def test_runinfo_lists_every_run_and_one_machine(mpi):
    rs = records.load(FIXTURES / mpi)
    headers = rs.headers()
    assert headers and all(h.get("mpi_build") == mpi for h in headers)
    runs = runinfo.runs_table(rs)
    assert sorted(r[0] for r in runs.rows) == sorted(h["_file"] for h in headers)
    for h in headers:
        row = next(r for r in runs.rows if r[0] == h["_file"])
        assert row[1] == h["bench"] and row[2] == str(h["ranks"]) and row[5] == short_command(h["command"])
        out = h["command"].split("--out ")[1].split()[0]
        assert "--out" not in row[5] and row[5] == h["command"].replace(f" --out {out}", "")
        assert row[3] == short_library(h["mpi_library"]) and "," not in row[3] and "\t" not in row[3]
    machine = runinfo.machine_lines(rs).markdown.splitlines()[1:]
    assert len(machine) == len({(tuple(h["hosts"]), h["cpu_model"], h["git_commit"]) for h in headers})
    experiments = runinfo.experiments_table(rs.manifest, rs)
    launches = runinfo.experiments_table(
        {"experiments": [{"name": "x", "file": "a"}, {"name": "x", "file": "b"}]},
        RecordSet(
            path=FIXTURES,
            records=[
                {
                    "type": "header",
                    "_file": f,
                    "bench": "swap",
                    "run_id": f,
                    "command": f"pstswm swap --reps 20 --order {k} --out {f}.jsonl",
                }
                for k, f in ((1, "a"), (2, "b"))
            ],
        ),
    )
    assert launches.rows[0][6] == "swap --reps 20"  # what differs between launches is left out
    assert [r[1] for r in experiments.rows] == list(dict.fromkeys(e["name"] for e in rs.manifest["experiments"]))
    assert short_library("MPICH Version:\t4.0.2") == "MPICH 4.0.2"
    assert short_library("Open MPI v4.1.4, package: Debian OpenMPI") == "Open MPI v4.1.4"


def test_runinfo_names_the_vectors_and_the_kernels_the_libraries_ran():
    libs = {"openblas_core": "Haswell", "blis_arch": "generic", "fftw_simd": ["sse2", "avx"]}
    headers = [
        {"type": "header", "bench": "model", "_file": "m", "hosts": ["h"], "cpu_model": "AMD EPYC",
         "cpu_vector_extensions": ["sse2", "avx", "fma", "avx2"], "math_libraries": libs},
        {"type": "header", "bench": "swap", "_file": "s", "hosts": ["h"], "cpu_model": "AMD EPYC"},
    ]
    line = runinfo.machine_lines(RecordSet(path=FIXTURES, records=headers)).markdown.splitlines()[1]
    assert "AMD EPYC (AVX2)" in line and line.endswith("; OpenBLAS core Haswell, BLIS generic, FFTW sse2+avx")
    assert vector_width(["sse2", "avx512f"]) == "AVX-512" and vector_width(None) is None
    without = libs | {"blis_arch": None, "fftw_simd": []}
    assert math_libraries(without) == "OpenBLAS core Haswell, no BLIS, FFTW scalar"


def test_common_helpers():
    assert sorted(["1,10", "1,9", "0,6", None, "1,0"], key=grouping.sort_key) == ["0,6", "1,0", "1,9", "1,10", None]
    assert sorted([8, "x", 2], key=grouping.sort_key) == [2, 8, "x"]
    assert common.grid_ranks("4x8") == 32 and common.grid_ranks("1d") is None and common.grid_ranks(None) is None
    recs = [{"a": 1, "b": "x"}, {"a": 2, "b": "x"}]
    assert common.varying(recs, ("a", "b", "c")) == ["a"]
    assert common.best([{"t_min": 2.0}, {"t_min": None}, {"t_min": 1.0}]) == {"t_min": 1.0}
    assert common.best([{"t_min": None}]) is None
    assert grouping.group_by(recs, "b") == {("x",): recs}


def test_latency_plot_draws_intervals_and_the_piecewise_model(tmp_path):
    from pstlab.report.sections import pingpong as pp

    recs = [{"bench": "pingpong", "type": "header", "run_id": "p"}]
    for b in (8, 1024, 65536):
        t = 1e-6 + b / 5e9
        recs.append(
            {
                "bench": "pingpong",
                "type": "point",
                "run_id": "p",
                "mode": "send",
                "bytes": b,
                "t_min": t * 0.95,
                "t_med": t,
                "ci_low": t * 0.97,
                "ci_high": t * 1.04,
            }
        )
    seg = {"from_bytes": 8, "to_bytes": 65536, "alpha_s": 1e-6, "beta_mbytes_per_s": 5000.0}
    recs.append(
        {
            "bench": "pingpong",
            "type": "summary",
            "run_id": "p",
            "summary": "latbw",
            "mode": "send",
            "segments": [seg],
            "fit_ok": True,
        }
    )
    (tmp_path / "pp.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    panels = pp._panels([("", records.load(tmp_path))])
    ci = panels[-1]
    assert ci.title.startswith("Half round trip: median with 95 % interval")
    median, model = ci.series
    assert median.yerr[1] == pytest.approx((1024 / 5e9 * 0.97e6 + 0.97, (1e-6 + 1024 / 5e9) * 1.04e6))
    assert model.label == "send model" and model.y[-1] == pytest.approx((1e-6 + 65536 / 5e9) * 1e6)
    assert "dashed" in ci.title and model.style == "--"
    # a fit that failed its checks is not drawn as a model, and the title promises none
    recs[-1]["fit_ok"] = False
    (tmp_path / "pp.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    ci = pp._panels([("", records.load(tmp_path))])[-1]
    assert len(ci.series) == 1 and "dashed" not in ci.title


def test_coll_busbw_against_size_at_the_largest_communicator():
    from pstlab.report.sections import coll

    pts = [
        {"op": "allreduce", "comm_size": n, "bytes": b, "busbw": float(b * n)} for n in (2, 4) for b in (1024, 8, 65536)
    ]
    panel = coll.busbw_panel(pts, {})
    assert panel.title == "Bus bandwidth on 4 ranks" and panel.xbytes
    assert panel.ylabel == "busbw (GB/s)"  # pstswm records busbw in GB/s (its table says so too), not MB/s
    (series,) = panel.series
    assert series.x == [8, 1024, 65536] and series.y == [32.0, 4096.0, 262144.0]


def test_no_fit_is_shown_unflagged(tmp_path):
    from pstlab.stats import stats

    assert stats.fit_problem(0.16, 1e-6, 100.0) == "16% error"
    assert stats.fit_problem(0.10, -6e-5, 100.0) == "negative latency"
    assert stats.fit_problem(0.10, 1e-6, -5.0) == "negative bandwidth"
    assert stats.fit_problem(0.15, 0.0, 1.0) is None
    base = {"bench": "swap", "type": "summary", "run_id": "s", "summary": "protocol", "cache": "1", "pair": "0,1"}
    recs = [
        dict(base, protocol="0,0", alpha_s=1e-6, beta_mbytes_per_s=900.0, model_max_rel_err=0.31),
        dict(base, protocol="0,6", alpha_s=1e-6, beta_mbytes_per_s=900.0, model_max_rel_err=0.05),
        dict(base, protocol="1,3", alpha_s=1e-6, beta_mbytes_per_s=900.0, model_max_rel_err=0.05, fit_ok=False),
        {"bench": "pingpong", "type": "point", "run_id": "p", "mode": "send", "bytes": 8, "t_min": 1e-6},
        {
            "bench": "pingpong",
            "type": "summary",
            "run_id": "p",
            "summary": "latbw",
            "mode": "send",
            "t_l_s": -6e-5,
            "fit_mbytes_per_s": 9000.0,
            "fit_max_rel_residual": 0.02,
            "fit_from_bytes": 1 << 20,
            "fit_to_bytes": 2 << 20,
        },
    ]
    (tmp_path / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs))
    rs = records.load(tmp_path)
    (table,) = swap.protocol_table(rs)
    columns = table.columns[1:]
    by_code = {f"{row[0][0]},{col[2:]}": c for row in table.rows for col, c in zip(columns, row[1:], strict=True)}
    assert by_code["0,0"] == "FIT NOT OK (31% error, 1 of 1)"
    assert by_code["1,3"] == "FIT NOT OK (pstswm's checks, 1 of 1)"
    assert "FIT NOT OK" not in by_code["0,6"] and by_code["0,6"] == "1.0 / 900"
    (row,) = pingpong.table(rs).rows
    assert "FIT NOT OK (negative latency)" in row and not any(c.startswith("-") and "µs" in c for c in row)


def test_the_per_subcommand_lists_follow_benches():
    """A subcommand's facts live in pstlab.benches: suites and repro read them from BENCHES."""
    from pstlab.analysis import repro
    from pstlab.run import suites

    assert set(suites.IN_ROUNDS) == {"swap", "kernel", "pingpong", "coll"}
    assert set(repro.BENCHES) == {"kernel", "swap"} and all(repro.verdicts_key(b) for b in repro.BENCHES)
    assert {(b, "point"): ("bytes",) for b in ("swap", "pingpong", "coll")} == schema.REQUIRED_SINCE_V1
