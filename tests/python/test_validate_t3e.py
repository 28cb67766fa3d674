"""The arithmetic of bench/predict-t3e.sh (pstlab validate-t3e): the table, the shape and its
errors, the baseline, the ratios and each target's pass or miss."""

import json
import sys

import pytest

from conftest import FIXTURES
from pstlab.cli import main
from pstlab.core.errors import PstlabError
from pstlab.run import tune
from pstlab.simulate import validate_t3e as v

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def _predicted(seconds_of) -> dict:
    """A prediction for every cell: seconds_of(key, paper_seconds) -> predicted seconds."""
    return {key: {"seconds": seconds_of(key, v.paper(*key)), "comm_share": 0.5} for key in v.cells()}


def _paper(key, s):
    return s


def _baseline(key, s):
    problem, family, library, column = key
    return v.paper(problem, family, library, v.REFERENCE_COLUMN) * v.baseline_shape(column)


def _shape_only(predicted):
    return [c for c in v.shape_cells(predicted) if c.key[3] != v.REFERENCE_COLUMN]


def test_the_table_has_54_cells_and_its_two_blanks():
    assert len(v.cells()) == 54
    assert v.paper("T42L16", "DR", "MPI", "16x32") is None
    assert v.paper("T42L16", "DR", "SHMEM", "16x32") is None
    assert v.paper("T85L16", "DR", "SHMEM", "16x32") == 12.6


def test_the_112_rank_column_is_14x8_for_dth_only():
    assert v.mesh("DTH", "8x14") == "14x8"
    assert v.mesh("DR", "8x14") == "8x14"
    assert v.mesh("DTH", "8x16") == "8x16"
    assert v.ranks("8x14") == 112


def test_the_baseline_on_the_papers_table_is_the_issues_14_percent_and_78_percent():
    """The no-communication baseline's figures over the 46 cells besides 4x4 (the transcription's check)."""
    scored = _shape_only(_predicted(_paper))
    assert len(scored) == 46
    base = sorted(abs(c.baseline_error) for c in scored)
    assert (base[22] + base[23]) / 2 == pytest.approx(0.1392, abs=5e-4)
    assert sum(b <= 0.25 for b in base) == 36  # 78 %


def test_shape_error_is_relative_to_the_paper():
    predicted = _predicted(_paper)
    key = ("T42L16", "DTH", "MPI", "8x8")
    predicted[key] = dict(predicted[key], seconds=7.4 * 1.5)
    cell = next(c for c in v.shape_cells(predicted) if c.key == key)
    assert cell.paper_shape == pytest.approx(7.4 / 30.9)
    assert cell.predicted_shape == pytest.approx(1.5 * 7.4 / 30.9)
    assert cell.error == pytest.approx(0.5)
    assert cell.baseline_error == pytest.approx((16 / 64) / (7.4 / 30.9) - 1)


def test_a_row_without_its_4x4_cell_has_no_shape():
    predicted = _predicted(_paper)
    del predicted[("T85L16", "DR", "MPI", "4x4")]
    assert not [c for c in v.shape_cells(predicted) if c.key[:3] == ("T85L16", "DR", "MPI")]
    assert len(_shape_only(predicted)) == 46 - 6


def test_a_perfect_prediction_passes_every_target():
    predicted = _predicted(_paper)
    targets = [
        *v.shape_targets(_shape_only(predicted)),
        v.family_target(v.family_pairs(predicted)),
        v.library_target(v.library_pairs(predicted)),
    ]
    assert [t.passed for t in targets] == [True] * 5, targets
    assert targets[0].figure.startswith("0.0 % vs 13.9 %")


def test_the_baseline_as_prediction_misses_the_shape_targets():
    targets = v.shape_targets(_shape_only(_predicted(_baseline)))
    assert [t.passed for t in targets] == [False, False, False]
    assert "78 %" in targets[1].figure and "0 % of 46" in targets[2].figure


def test_median_target_is_half_the_baselines():
    """Errors just under and just over half the baseline's median."""
    scored = _shape_only(_predicted(_paper))
    limit = v.MEDIAN_OF_BASELINE * 0.1392

    def with_error(e):
        return [
            v.ShapeCell(c.key, c.paper_s, c.predicted_s, c.paper_shape, c.paper_shape * (1 + e), 0.5) for c in scored
        ]

    assert v.shape_targets(with_error(limit - 0.002))[0].passed
    assert not v.shape_targets(with_error(limit + 0.002))[0].passed


def test_within_25_percent_needs_90_percent_of_cells():
    scored = _shape_only(_predicted(_paper))

    def off(n):  # n cells 30 % off, the rest exact
        return [
            v.ShapeCell(c.key, c.paper_s, c.predicted_s, c.paper_shape, c.paper_shape * (1.3 if i < n else 1), 0.5)
            for i, c in enumerate(scored)
        ]

    assert v.shape_targets(off(4))[1].passed  # 42 of 46: 91 %
    assert not v.shape_targets(off(5))[1].passed  # 41 of 46: 89 %


def test_dth_vs_dr_must_match_only_where_the_gap_exceeds_10_percent():
    predicted = _predicted(_paper)
    assert v.family_target(v.family_pairs(predicted)).passed
    # T42L16 MPI 8x8: DTH 7.4, DR 7.3, a 1 % gap: swapping the winner there is no miss.
    close = dict(predicted)
    close[("T42L16", "DR", "MPI", "8x8")] = {"seconds": 7.5, "comm_share": 0.5}
    assert v.family_target(v.family_pairs(close)).passed
    # T42L16 MPI 4x4: DTH 30.9, DR 23.6: predicting DTH faster is a miss.
    wide = dict(predicted)
    wide[("T42L16", "DTH", "MPI", "4x4")] = {"seconds": 20.0, "comm_share": 0.5}
    target = v.family_target(v.family_pairs(wide))
    assert not target.passed
    decided = sum(v.gap_exceeds(p.paper_ratio) for p in v.family_pairs(predicted))
    assert target.figure == f"{decided - 1} of {decided}"


def test_dth_excess_is_the_papers_dth_on_the_scale_of_the_predicted_dr_4x4_cell():
    # A prediction at a third of the paper's seconds everywhere: no excess in any cell.
    assert all(abs(e.excess) < 1e-12 for e in v.dth_excess(_predicted(lambda key, s: s / 3)))

    # DTH predicted 20 % low at 4x4 only: the paper's DTH there is 25 % beyond it.
    def low_dth_4x4(key, s):
        return s * (0.8 if key[1] == "DTH" and key[3] == "4x4" else 1.0)

    excess = {e.key: e.excess for e in v.dth_excess(_predicted(low_dth_4x4))}
    assert excess[("T85L16", "MPI", "4x4")] == pytest.approx(0.25)
    assert excess[("T85L16", "MPI", "8x8")] == pytest.approx(0.0)
    assert len(excess) == 28  # every DTH cell: 7 meshes x 2 problems x 2 libraries


def test_dth_excess_needs_the_dr_4x4_cell():
    predicted = _predicted(_paper)
    del predicted[("T42L16", "DR", "SHMEM", "4x4")]
    assert {e.key[:2] for e in v.dth_excess(predicted)} == {("T42L16", "MPI"), ("T85L16", "MPI"), ("T85L16", "SHMEM")}


def test_gap_is_the_faster_over_the_slower():
    assert v.gap_exceeds(1 / 1.11) and v.gap_exceeds(1.11)
    assert not v.gap_exceeds(1.09) and not v.gap_exceeds(1 / 1.09)


def test_shmem_over_mpi_within_10_points_in_75_percent_of_cells():
    predicted = _predicted(_paper)
    pairs = v.library_pairs(predicted)
    assert len(pairs) == 27
    assert v.library_target(pairs).passed

    def shifted(n, points):  # SHMEM of the first n pairs made `points` slower relative to MPI
        out = dict(predicted)
        for p in pairs[:n]:
            problem, family, column = p.key
            mpi = out[(problem, family, "MPI", column)]["seconds"]
            out[(problem, family, "SHMEM", column)] = {"seconds": mpi * (p.paper_ratio + points), "comm_share": 0.5}
        return v.library_pairs(out)

    assert v.library_target(shifted(27, 0.099)).passed
    assert not v.library_target(shifted(27, 0.101)).passed
    assert v.library_target(shifted(6, 0.2)).passed  # 21 of 27 close: 78 %
    assert not v.library_target(shifted(7, 0.2)).passed  # 20 of 27: 74 %


def test_search_grid_is_the_nearest_in_rank_count():
    assert v.search_grid_for("4x8", ["4x4", "16x16"]) == "4x4"
    assert v.search_grid_for("8x8", ["4x4", "16x16"]) == "4x4"  # a tie goes to the smaller
    assert v.search_grid_for("8x14", ["4x4", "16x16"]) == "16x16"
    assert v.search_grid_for("16x32", ["4x4"]) == "4x4"


def _pick(algorithm, t_s, protocol="0,6"):
    return tune.Pick(algorithm, protocol, False, t_s)


def test_family_choice_narrows_tunes_choice_to_the_familys_algorithms():
    fft = [_pick("srtrans", 3.0), _pick("swtrans", 2.0, "0,2"), _pick("logtrans", 4.0), _pick("dfft", 1.0, "1,3")]
    leg = [_pick("halfsum", 2.0, "2,3"), _pick("ringpipe", 1.0), _pick("exchsum", 0.5)]
    choice = {"fft": tune.StageChoice(fft[3], fft), "legendre": tune.StageChoice(leg[2], leg)}
    dth = v.family_choice(choice, "DTH")
    assert (dth["fft"].fastest.algorithm, dth["fft"].fastest.protocol) == ("swtrans", "0,2")
    assert [p.algorithm for p in dth["fft"].picks] == ["srtrans", "swtrans", "logtrans"]
    assert (dth["legendre"].fastest.algorithm, dth["legendre"].fastest.protocol) == ("halfsum", "2,3")
    dr = v.family_choice(choice, "DR")
    assert (dr["fft"].fastest.algorithm, dr["fft"].fastest.protocol) == ("dfft", "1,3")
    assert dr["legendre"].fastest.algorithm == "ringpipe"
    with pytest.raises(PstlabError, match="none of dfft in the fft stage"):
        v.family_choice({"fft": tune.StageChoice(fft[0], fft[:3]), "legendre": choice["legendre"]}, "DR")
    with pytest.raises(PstlabError, match="no kernel records for the legendre stage"):
        v.family_choice({"fft": choice["fft"]}, "DTH")


def test_table4_protocols_are_worleys_24():
    assert len(v.TABLE4_PROTOCOLS) == 24
    assert {"0,0", "0,6", "1,0", "1,6", "2,1", "2,5", "3,1", "3,5"} <= set(v.TABLE4_PROTOCOLS)
    assert not {"2,6", "3,6", "0,7", "4,1"} & set(v.TABLE4_PROTOCOLS)


def _write_cell(directory, key, step_s, dt_s=2160):
    point = {
        "type": "point",
        "bench": "model",
        "step_s": step_s,
        "dt_s": dt_s,
        "comm_s": step_s / 4,
        "fft": "srtrans",
        "fft_protocol": "0,6",
        "legendre": "halfsum",
        "legendre_protocol": "0,6",
    }
    lines = [json.dumps({"type": "header"}), json.dumps(point)]
    (directory / "cells" / f"{v.cell_name(*key)}.jsonl").write_text("\n".join(lines) + "\n")


def test_report_reads_cells_and_names_what_was_not_run(tmp_path):
    (tmp_path / "cells").mkdir()
    row = ("T42L16", "DTH", "MPI")
    for column, seconds in zip(v.COLUMNS, v.TABLE5[row], strict=True):
        _write_cell(tmp_path, (*row, column), seconds * 2160 / (5 * 86400))
    lines = []
    targets = v.report(tmp_path, lines.append)
    text = "\n".join(lines)
    assert v.five_days_s({"step_s": 0.5, "dt_s": 2160}) == pytest.approx(100.0)
    assert "T42L16  DTH MPI     14x8       4.5      4.5  0.146  0.146    +0%  0.143    -2%   25%  srtrans 0,6" in text
    assert "Not run: T42L16-DTH-SHMEM-4x4" in text
    assert "missing cells: 47" in text
    assert targets[0].passed and targets[1].passed and targets[2].passed
    assert not targets[3].passed and not targets[4].passed  # no pair to compare: nothing shown is no pass


def test_preset_from_kernel_records_is_the_familys(tmp_path):
    out = tmp_path / "opt-DR.toml"
    chosen = v.write_preset(FIXTURES / "openmpi" / "kernel.jsonl", "DR", out)
    preset = tomllib.loads(out.read_text())
    assert preset["fft"]["algorithm"] == "dfft" and preset["legendre"]["algorithm"] == "ringpipe"
    assert preset["fft"]["dfft"]["protocol"] == chosen["fft"].fastest.protocol
    assert set(preset["fft"]) == {"algorithm", "dfft"}
    assert v.search_size(FIXTURES / "openmpi" / "kernel.jsonl") == 58 - 3  # its points less the 3 collectives


def test_cli_refuses_kernel_records_without_the_familys_stage(tmp_path, capsys):
    records = tmp_path / "kernel.jsonl"
    lines = (FIXTURES / "openmpi" / "kernel.jsonl").read_text().splitlines()
    records.write_text("\n".join(line for line in lines if '"fft"' not in line) + "\n")
    assert main(["validate-t3e", "preset", str(records), "DR", str(tmp_path / "opt.toml")]) == 2
    err = capsys.readouterr().err
    assert "pstlab validate-t3e: no kernel records for the fft stage: nothing to choose DR's from" in err
    assert not (tmp_path / "opt.toml").exists()
