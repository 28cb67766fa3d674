"""`pstlab checksums`: model records of one problem compared by their state checksums, why they
differ (what is constant within each set of equal digests but not across them), and the gate."""

import json

from pstlab.analysis import checksums

SUMS_A = {"eta": "269a84c62a91f605", "div": "1ee54a1bfcf2b0a5", "phi": "657e43d5cd46fc45"}
SUMS_B = {"eta": "07f6538772887cf5", "div": "acd5538259d10a65", "phi": "3514a01d128ba83d"}


def _run(path, sums, grid="1x1", threads=1, timed=False, diag=True, case=6):
    """One model run's record file: header with its rounding choices, a diag at step 2, the point."""
    how = "timed" if timed else "fixed"
    header = {
        "bench": "model",
        "type": "header",
        "run_id": path.stem,
        "mpi_build": "openmpi",
        "reproducible": not timed,
        "rounding_choices": [
            {"choice": "fftw_plan", "value": "measure" if timed else "estimate", "how": how},
            {"choice": "blas", "value": "openblas", "how": how},
        ],
    }
    problem = {
        "case": case,
        "alpha": 0,
        "trunc": 21,
        "levels": 4,
        "nlat": 32,
        "nlon": 64,
        "scheme": "semi-implicit",
        "dt_s": 1800.0,
        "steps": 6,
        "grid": grid,
        "threads": threads,
        "blas": "openblas",
    }
    recs = [header]
    if diag:
        recs.append({"bench": "model", "type": "diag", "run_id": path.stem, "step": 2, **problem, "checksums": sums})
    recs.append({"bench": "model", "type": "point", "run_id": path.stem, **problem, "checksums": sums})
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return path


def test_equal_digests_match_whatever_the_thread_count(tmp_path, cli):
    files = [_run(tmp_path / f"t{t}.jsonl", SUMS_A, threads=t) for t in (1, 2, 3)]
    result = checksums.analyse(files)
    assert [(g["kind"], g["records"], g["match"]) for g in result["groups"]] == [("diag", 3, True), ("point", 3, True)]
    rc, out, _ = cli("checksums", "--fail-if-different", *files)
    assert rc == 0 and out.count("checksums match (eta 269a84c62a91f605") == 2


def test_a_difference_names_what_tells_the_runs_apart(tmp_path, cli):
    files = [
        _run(tmp_path / "a.jsonl", SUMS_A, threads=1),
        _run(tmp_path / "b.jsonl", SUMS_A, threads=2),
        _run(tmp_path / "c.jsonl", SUMS_B, grid="1x2", threads=2),
    ]
    point = checksums.analyse(files)["groups"][-1]
    # threads vary within the first set of equal digests: they do not explain; the grid does.
    assert point["distinct"] == 2 and point["differs_in"] == {"grid": ['"1x1"', '"1x2"']}
    assert cli("checksums", *files)[0] == 0
    rc, out, _ = cli("checksums", "--fail-if-different", *files)
    assert rc == 1 and "checksums DIFFER (2 distinct)" in out and 'differs in grid: "1x1" | "1x2"' in out


def test_same_command_different_bits_points_at_the_timed_choices(tmp_path, cli):
    files = [_run(tmp_path / "a.jsonl", SUMS_A, timed=True), _run(tmp_path / "b.jsonl", SUMS_B, timed=True)]
    rc, out, _ = cli("checksums", "--fail-if-different", *files)
    assert (
        rc == 1
        and "no configuration field or fixed choice tells them apart; chosen by timing at set-up: blas, fftw_plan"
        in out
    )


def test_records_without_checksums_are_reported_and_fail_the_gate(tmp_path, cli):
    old = tmp_path / "old.jsonl"
    _run(old, SUMS_A)
    old.write_text(
        "".join(
            json.dumps({k: v for k, v in json.loads(line).items() if k != "checksums"}) + "\n"
            for line in old.read_text().splitlines()
        )
    )
    new = _run(tmp_path / "new.jsonl", SUMS_A)
    rc, out, _ = cli("checksums", old, new)
    assert rc == 0 and "2 of 4 model records carry no checksums" in out and "without checksums: old.jsonl" in out
    assert cli("checksums", "--fail-if-different", old, new)[0] == 2
    assert cli("checksums", "--fail-if-different", old, _run(tmp_path / "old2.jsonl", SUMS_A, diag=False))[0] == 2


def test_nothing_to_compare(tmp_path, cli):
    a, b = _run(tmp_path / "a.jsonl", SUMS_A, case=2), _run(tmp_path / "b.jsonl", SUMS_A, case=6)
    rc, out, _ = cli("checksums", "--fail-if-different", a, b)
    assert rc == 2 and "no two of the 4 model records share a problem and a step: nothing to compare" in out
    swap = tmp_path / "swap.jsonl"
    swap.write_text(json.dumps({"bench": "swap", "type": "header", "run_id": "s"}) + "\n")
    rc, _, err = cli("checksums", swap)
    assert rc == 2 and "no pstswm model point or diag records in" in err
