"""`pstlab run` with a fake pstswm: progress, manifest, skips, failures, resume, interruption."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from conftest import FIXTURES
from pstlab.core.errors import PstlabError, RunFailed
from pstlab.io import records
from pstlab.run import tune
from pstlab.run.run import Options, run_suite


def suite(tmp_path, *experiments: str) -> str:
    path = tmp_path / "t.toml"
    path.write_text('description = "test"\n' + "".join(experiments))
    return str(path)


def exp(name, sub="swap", ranks=2, args=(), extra=""):
    return (
        f'[[experiment]]\nname = "{name}"\nsubcommand = "{sub}"\nranks = {ranks}\n'
        f"args = {json.dumps(list(args))}\n{extra}"
    )


def opts(fake, suite_path, out, **kw):
    return Options(suite_path, "openmpi", fake.launcher, pstswm=str(fake.path), out=str(out), **kw)


def manifest(out):
    return {e["name"]: e for e in json.loads((out / "manifest.json").read_text())["experiments"]}


def test_run_writes_records_manifest_and_progress(fake, tmp_path):
    s = suite(
        tmp_path,
        exp("swap-a", args=["--copy", str(FIXTURES / "openmpi" / "swap-protocols.jsonl")], extra="estimate_s = 2\n"),
        exp("coll-b", sub="coll", ranks=4, args=["--copy", str(FIXTURES / "openmpi" / "coll.jsonl")]),
        exp("match-c", sub="match"),
    )
    out = tmp_path / "res"
    lines = []
    assert run_suite(opts(fake, s, out), echo=lines.append) == out
    m = manifest(out)
    assert [m[k]["status"] for k in ("swap-a", "coll-b", "match-c")] == ["done", "done", "skipped"]
    assert m["match-c"]["reason"] == "this pstswm build has no 'match' subcommand"
    assert m["coll-b"]["command"][-2:] == ["--out", "coll-b.jsonl"] and "coll" in m["coll-b"]["command"]
    assert sorted(p.name for p in out.glob("*.jsonl")) == ["coll-b.jsonl", "swap-a.jsonl"]
    assert not (out / ".partial").exists()
    assert (out / "logs" / "swap-a.err").exists()
    text = "\n".join(lines)
    assert "[1/3] swap-a: pstswm swap on 2 ranks | elapsed 0m00s | about" in text
    assert "[3/3] match-c: skipped" in text
    assert "2 done, 1 skipped" in text
    rs = records.load(out)
    assert rs.has("swap") and rs.has("coll") and rs.manifest["suite"] == "t"


def test_failure_leaves_no_partial_records_and_resume_reruns_only_it(fake, tmp_path):
    marker = tmp_path / "failed-once"
    s = suite(tmp_path, exp("one"), exp("two", args=["--fail-once", str(marker)]), exp("three"))
    out = tmp_path / "res"
    with pytest.raises(RunFailed, match="1 experiment\\(s\\) failed: two"):
        run_suite(opts(fake, s, out), echo=lambda _: None)
    m = manifest(out)
    assert [m[k]["status"] for k in ("one", "two", "three")] == ["done", "failed", "done"]
    assert "exit status 3" in m["two"]["reason"] and "fake failure half way" in m["two"]["reason"]
    assert not (out / "two.jsonl").exists()
    assert not any(r.get("partial") for r in records.load(out).records)
    assert len(fake.calls("swap")) == 3

    lines = []
    run_suite(opts(fake, s, out, resume=True), echo=lines.append)
    assert len(fake.calls("swap")) == 4  # only "two" ran again
    assert "[1/3] one: done in an earlier run, kept" in lines
    assert all(e["status"] == "done" for e in manifest(out).values())
    assert not any(r.get("partial") for r in records.load(out).records)


def test_malformed_output_and_missing_file_are_failures(fake, tmp_path):
    s = suite(tmp_path, exp("bad", args=["--bad-record"]), exp("none", args=["--no-out"]))
    out = tmp_path / "res"
    with pytest.raises(RunFailed):
        run_suite(opts(fake, s, out), echo=lambda _: None)
    m = manifest(out)
    assert "bad.jsonl:2: malformed record" in m["bad"]["reason"]
    assert m["none"]["reason"] == "exited 0 but wrote no record file"
    assert not list(out.glob("*.jsonl"))


def test_timeout_and_max_ranks(fake, tmp_path):
    s = suite(tmp_path, exp("slow", args=["--sleep", "30"], extra="timeout_s = 0.5\n"), exp("big", ranks=16))
    out = tmp_path / "res"
    with pytest.raises(RunFailed):
        run_suite(opts(fake, s, out, max_ranks=8), echo=lambda _: None)
    m = manifest(out)
    assert m["slow"]["reason"] == "timed out after 0.5 s and was stopped"
    assert m["big"]["status"] == "skipped" and m["big"]["reason"] == "needs 16 ranks, --max-ranks is 8"


def test_changed_definition_reruns_and_guards(fake, tmp_path):
    out = tmp_path / "res"
    run_suite(opts(fake, suite(tmp_path, exp("a"), exp("b")), out), echo=lambda _: None)
    with pytest.raises(PstlabError, match="already holds a suite run: add --resume"):
        run_suite(opts(fake, suite(tmp_path, exp("a"), exp("b")), out), echo=lambda _: None)
    run_suite(
        opts(fake, suite(tmp_path, exp("a"), exp("b", args=["--reps", "9"])), out, resume=True), echo=lambda _: None
    )
    assert [c[1:3] for c in fake.calls("swap")][-1] == ["--reps", "9"]
    assert len(fake.calls("swap")) == 3
    with pytest.raises(PstlabError, match="experiment\\(s\\) b are no longer in suite"):
        run_suite(opts(fake, suite(tmp_path, exp("a")), out, resume=True), echo=lambda _: None)
    with pytest.raises(PstlabError, match="was run with --mpi openmpi"):
        run_suite(
            Options(
                suite(tmp_path, exp("a"), exp("b")),
                "mpich",
                fake.launcher,
                pstswm=str(fake.path),
                out=str(out),
                resume=True,
            ),
            echo=lambda _: None,
        )


def test_resume_and_out_bad_input(fake, tmp_path, cli):
    s = suite(tmp_path, exp("a"))
    with pytest.raises(PstlabError, match="has no manifest.json, so it is not a pstlab run to resume"):
        run_suite(opts(fake, s, tmp_path / "never", resume=True), echo=lambda _: None)
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    rc, _, err = cli("run", s, "--launcher", fake.launcher, "--pstswm", fake.path, "--out", tmp_path / "full")
    assert rc == 2 and "exists and is not an empty directory" in err


def test_dry_run_lists_commands_without_running(fake, tmp_path, cli):
    s = suite(tmp_path, exp("a", args=["--reps", "3"]), exp("m", sub="match"))
    rc, out, _ = cli("run", s, "--launcher", fake.launcher, "--pstswm", fake.path, "--out", tmp_path / "r", "--dry-run")
    assert rc == 0
    assert f"{fake.path} swap --reps 3 --seed 1 --out a.jsonl" in out
    assert "(skipped: no 'match' in this build)" in out
    assert fake.calls("swap") == [] and not (tmp_path / "r").exists()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupt_keeps_finished_work_and_resume_completes(fake, tmp_path, sig):
    s = suite(tmp_path, exp("first"), exp("second", args=["--sleep", "20"]), exp("third"))
    out = tmp_path / "res"
    cmd = [
        sys.executable,
        "-m",
        "pstlab",
        "run",
        s,
        "--launcher",
        fake.launcher,
        "--pstswm",
        str(fake.path),
        "--out",
        str(out),
    ]
    # A shell starts background jobs with SIGINT ignored (nohup make test &), a child inherits the
    # ignore and Python keeps it: start pstlab with SIGINT handled here, so it gets the default
    # disposition across exec, as at a terminal.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    finally:
        signal.signal(signal.SIGINT, previous)
    deadline = time.monotonic() + 30
    while not any("--sleep" in c for c in fake.calls("swap")) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted during second; finished experiments are kept. Resume with:" in err
    m = manifest(out)
    assert [m[k]["status"] for k in ("first", "second", "third")] == ["done", "pending", "pending"]
    assert sorted(p.name for p in out.glob("*.jsonl")) == ["first.jsonl"]

    before = len(fake.calls("swap"))
    os.environ["FAKE_PSTSWM_NO_SLEEP"] = "1"
    try:
        run_suite(opts(fake, s, out, resume=True), echo=lambda _: None)
    finally:
        del os.environ["FAKE_PSTSWM_NO_SLEEP"]
    assert [c[-1].rsplit("/", 1)[-1] for c in fake.calls("swap")[before:]] == ["second.jsonl", "third.jsonl"]
    assert all(e["status"] == "done" for e in manifest(out).values())


# ---------------------------------------------------------------- tuned_from: the opt preset from a kernel's records

KERNEL = FIXTURES / "openmpi" / "kernel.jsonl"  # real records: T21L2, grid 1d (FFT stage 2x1, Legendre 1x2)
CONFIG = ["--trunc", "21", "--levels", "2", "--grid", "1d"]


def _opt_suite(tmp_path, kernel_args=(), model_args=CONFIG):
    return suite(
        tmp_path,
        exp("k", sub="kernel", ranks=4, args=["--copy", str(KERNEL), *CONFIG, *kernel_args]),
        exp("m", sub="model", args=[*model_args, "--steps", "2"], extra='tuned_from = "k"\n'),
        exp("gen", sub="model", args=[*model_args, "--preset", "gen"]),
    )


def test_tuned_from_runs_the_model_with_the_preset_tuned_from_the_kernel_records(fake, tmp_path):
    fake.commands("kernel,model")
    out = tmp_path / "res"
    lines = []
    run_suite(opts(fake, _opt_suite(tmp_path), out), echo=lines.append)
    m = manifest(out)
    assert [m[k]["status"] for k in ("k", "m", "gen")] == ["done", "done", "done"]
    preset = out / "tuned" / "m.toml"
    assert m["m"]["tuned_from"] == "k" and m["m"]["tuned"] == "tuned/m.toml"
    assert m["m"]["command"][-6:] == ["--preset", "opt", "--tuned", "tuned/m.toml", "--out", "m.jsonl"]
    assert "tuned" not in m["gen"] and "tuned_from" not in m["gen"]
    call = fake.calls("model")[0]
    assert call[call.index("--tuned") - 2 : call.index("--tuned") + 2] == ["--preset", "opt", "--tuned", str(preset)]
    assert "--tuned" not in fake.calls("model")[1]
    chosen = tune.choose(records.load(KERNEL).points("kernel"))
    text = tomllib.loads(preset.read_text())
    assert {s: text[s]["algorithm"] for s in ("fft", "legendre")} == {s: c.fastest.algorithm for s, c in chosen.items()}
    assert f"kernel records: {out / 'k.jsonl'}" in preset.read_text()
    assert "[2/3] m: opt preset tuned from k's records: tuned/m.toml" in lines
    assert sorted(p.name for p in out.glob("*.jsonl")) == ["gen.jsonl", "k.jsonl", "m.jsonl"]

    # resume with nothing to do keeps everything; a re-run kernel makes the opt run stale: both run again
    run_suite(opts(fake, _opt_suite(tmp_path), out, resume=True), echo=lambda _: None)
    assert len(fake.calls("kernel")) == 1 and len(fake.calls("model")) == 2
    preset.write_text("# stale\n")
    run_suite(opts(fake, _opt_suite(tmp_path, ["--reps", "3"]), out, resume=True), echo=lambda _: None)
    assert len(fake.calls("kernel")) == 2 and len(fake.calls("model")) == 3  # k and m, not gen
    assert "[fft]" in preset.read_text() and manifest(out)["m"]["status"] == "done"


def test_tuned_from_a_failed_kernel_is_skipped_and_resume_tunes_from_the_new_records(fake, tmp_path):
    fake.commands("kernel,model")
    s = _opt_suite(tmp_path, ["--fail-once", str(tmp_path / "failed-once")])
    out = tmp_path / "res"
    lines = []
    with pytest.raises(RunFailed, match="1 experiment\\(s\\) failed: k "):
        run_suite(opts(fake, s, out), echo=lines.append)
    m = manifest(out)
    assert [m[k]["status"] for k in ("k", "m", "gen")] == ["failed", "skipped", "done"]
    assert m["m"]["reason"] == (
        "its opt preset is tuned from 'k', which is failed: exit status 3: pstswm: fake failure half way"
    )
    assert "tuned" not in m["m"] and not (out / "tuned" / "m.toml").exists()
    assert fake.calls("model")[0][-1].endswith("gen.jsonl")  # the opt model never ran
    assert any(line.startswith("[2/3] m: skipped: its opt preset is tuned from 'k'") for line in lines)

    run_suite(opts(fake, s, out, resume=True), echo=lambda _: None)
    m = manifest(out)
    assert [m[k]["status"] for k in ("k", "m", "gen")] == ["done", "done", "done"]
    assert "--tuned" in fake.calls("model")[-1] and (out / "tuned" / "m.toml").is_file()
    assert not any(r.get("partial") for r in records.load(out).records)


def test_tuned_from_skips_with_the_kernel_and_fails_when_the_records_do_not_tune(fake, tmp_path):
    fake.commands("kernel,model")
    out = tmp_path / "res"
    run_suite(opts(fake, _opt_suite(tmp_path), out, max_ranks=2), echo=lambda _: None)
    m = manifest(out)
    assert m["k"]["status"] == "skipped"
    assert m["m"]["reason"] == "its opt preset is tuned from 'k', which is skipped: needs 4 ranks, --max-ranks is 2"

    s = suite(
        tmp_path,
        exp("k", sub="kernel", args=["--copy", str(KERNEL)]),
        exp("m", sub="model", args=["--trunc", "42", "--grid", "2x2"], extra='tuned_from = "k"\n'),
    )
    out = tmp_path / "res2"
    with pytest.raises(RunFailed, match="failed: m "):
        run_suite(opts(fake, s, out), echo=lambda _: None)
    reason = manifest(out)["m"]["reason"]
    assert reason == (
        f"tuning the opt preset from 'k' failed: {out / 'k.jsonl'}: no kernel records for trunc 42, grid 2x2"
    )
    assert [c for c in fake.calls("model") if "--tuned" in c] == []


def test_dry_run_shows_the_tuned_preset(fake, tmp_path, cli):
    fake.commands("kernel,model")
    rc, out, _ = cli(
        "run",
        _opt_suite(tmp_path),
        "--launcher",
        fake.launcher,
        "--pstswm",
        fake.path,
        "--out",
        tmp_path / "r",
        "--dry-run",
    )
    assert rc == 0
    assert "--steps 2 --preset opt --tuned tuned/m.toml --out m.jsonl   (opt preset tuned from k's records)" in out
    assert not (tmp_path / "r").exists()


def test_launches_interleave_experiments_with_a_seed_each(fake, tmp_path):
    s = suite(
        tmp_path,
        exp("a", args=["--copy", str(FIXTURES / "openmpi" / "swap-protocols.jsonl")], extra="budget_s = 7\n"),
        exp("b", sub="coll", args=["--copy", str(FIXTURES / "openmpi" / "coll.jsonl"), "--seed", "9"]),
    )
    out = tmp_path / "res"
    lines = []
    run_suite(opts(fake, s, out, launches=3), echo=lines.append)
    # launch 1 of every experiment, then launch 2 of every one, ...
    order = [(c[0], c[c.index("--out") + 1].rsplit("/", 1)[-1]) for c in fake.calls() if "--out" in c]
    assert order == [
        ("swap", "a-L1.jsonl"),
        ("coll", "b-L1.jsonl"),
        ("swap", "a-L2.jsonl"),
        ("coll", "b-L2.jsonl"),
        ("swap", "a-L3.jsonl"),
        ("coll", "b-L3.jsonl"),
    ]
    swaps = [c for c in fake.calls("swap") if "--out" in c]
    assert [c[c.index("--seed") + 1] for c in swaps] == ["1", "2", "3"]
    assert all(c[c.index("--adaptive") + 1 : c.index("--adaptive") + 3] == ["--budget", "7"] for c in swaps)
    assert all(c.count("--seed") == 1 and c[c.index("--seed") + 1] == "9" for c in fake.calls("coll") if "--out" in c)
    m = json.loads((out / "manifest.json").read_text())
    assert m["launches"] == 3 and len(m["experiments"]) == 6
    assert all(e["status"] == "done" for e in m["experiments"])
    assert "[4/6] b (launch 2): pstswm coll on 2 ranks" in "\n".join(lines)
    rs = records.load(out)
    assert [len(x.records) > 0 for x in rs.launches()] == [True, True, True]
    assert {records.launch_of(r) for r in rs.records} == {1, 2, 3}


def test_resume_needs_the_same_number_of_launches(fake, tmp_path):
    s = suite(tmp_path, exp("a", args=["--fail"]))
    out = tmp_path / "res"
    with pytest.raises(RunFailed):
        run_suite(opts(fake, s, out, launches=2), echo=lambda _: None)
    with pytest.raises(PstlabError, match="was run with --launches 2; resume it with the same number"):
        run_suite(opts(fake, s, out, launches=3, resume=True), echo=lambda _: None)
    with pytest.raises(PstlabError, match="--launches must be at least 1, got 0"):
        run_suite(opts(fake, s, tmp_path / "r0", launches=0), echo=lambda _: None)


def test_an_experiment_can_have_launches_of_its_own(fake, tmp_path):
    s = suite(
        tmp_path,
        exp("a", args=["--copy", str(FIXTURES / "openmpi" / "swap-protocols.jsonl")], extra="launches = 2\n"),
        exp("b", sub="coll", args=["--copy", str(FIXTURES / "openmpi" / "coll.jsonl")]),
    )
    out = tmp_path / "res"
    run_suite(opts(fake, s, out), echo=lambda _: None)
    order = [c[c.index("--out") + 1].rsplit("/", 1)[-1] for c in fake.calls() if "--out" in c]
    assert order == ["a-L1.jsonl", "b.jsonl", "a-L2.jsonl"]
    assert sorted(p.name for p in out.glob("*.jsonl")) == ["a-L1.jsonl", "a-L2.jsonl", "b.jsonl"]
