"""JSONL mutation fuzzer for pstlab's readers: seeded mutations of real record files (cut at a
byte, lines dropped, duplicated or swapped, values replaced by other JSON types, keys dropped,
raw bytes, deep nesting) through `summary`, `report`, `compare` and `repro`.  Every case must
end with exit 0, or exit 2 and a message naming what is wrong (repro may also say exit 1, targets
not met).  pstlab checks records against the schema as it reads them, so anything else (its
internal-error exit 70 with a traceback) is a pstlab bug, and fails the case.  PSTLAB_FUZZ_SEED
and PSTLAB_FUZZ_CASES replay or extend a run; the seed and case are in every failure."""

import json
import os
import random
import shutil

from conftest import FIXTURES

SEED = int(os.environ.get("PSTLAB_FUZZ_SEED", "20261124"))
CASES = int(os.environ.get("PSTLAB_FUZZ_CASES", "240"))
ODD_VALUES = [None, True, -1, 0, 1e308, float("nan"), "x", "", [], {}, [[[]]], {"a": {"b": 1}}, 2**70]


def mutate_record(rng: random.Random, line: str) -> str:
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):  # a line an earlier mutation made deep or broken
        return line
    if not isinstance(rec, dict) or not rec:
        return line
    key = rng.choice(sorted(rec))
    if rng.random() < 0.3:
        del rec[key]
    else:
        rec[key] = rng.choice(ODD_VALUES)
    return json.dumps(rec)


def mutate(rng: random.Random, text: str) -> bytes:
    lines = text.splitlines()
    for _ in range(rng.randrange(1, 4)):
        if not lines:
            break
        i = rng.randrange(len(lines))
        kind = rng.randrange(7)
        if kind == 0:
            lines[i] = mutate_record(rng, lines[i])
        elif kind == 1:
            del lines[i]
        elif kind == 2:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 3:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 4:
            lines[i] = "[" * rng.choice([10, 2000, 100_000])
        elif kind == 5:
            lines[i] = mutate_record(rng, lines[i]) + "\n" + mutate_record(rng, lines[i])
        else:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    data = ("\n".join(lines) + "\n").encode()
    if rng.random() < 0.1:
        at = rng.randrange(len(data) + 1)
        data = data[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8))) + data[at:]
    if rng.random() < 0.1:
        data = data[: rng.randrange(len(data) + 1)]
    return data


def test_mutated_records_never_give_a_traceback(cli, tmp_path):
    rng = random.Random(SEED)  # noqa: S311 (reproducible test cases, not cryptography)
    # Both record schemas: the current one, which pstlab checks in full, and schema 1.
    sets = [FIXTURES / "openmpi", FIXTURES / "mpich", FIXTURES / "current" / "openmpi", FIXTURES / "current" / "mpich"]
    sources = [f for d in sets for f in sorted(d.glob("*.jsonl"))]
    outcomes = {0: 0, 2: 0}
    for case in range(CASES):
        where = f"seed {SEED} case {case}"
        res = tmp_path / f"r{case}"
        res.mkdir()
        source = rng.choice(sources)
        (res / source.name).write_bytes(mutate(rng, source.read_text()))
        if rng.random() < 0.2:
            manifest = (source.parent / "manifest.json").read_text()
            (res / "manifest.json").write_bytes(mutate(rng, manifest) if rng.random() < 0.5 else manifest.encode())
        command = rng.choices(
            [["summary", res], ["report", res, "--out", tmp_path / f"rep{case}"], ["compare", res, source.parent],
             ["repro", res, source.parent]],
            weights=[6, 1, 2, 1],
        )[0]
        rc, _, err = cli(*command)
        allowed = (0, 1, 2) if command[0] == "repro" else (0, 2)  # repro: exit 1 = targets not met
        assert rc in allowed, f"{where}: pstlab {command[0]} exit {rc}: {err[-400:]}"
        # (repro's exit 2 "no common verdicts" is its report on stdout)
        assert rc != 2 or command[0] == "repro" or err.startswith(f"pstlab {command[0]}: "), f"{where}: {err[-400:]}"
        assert "Traceback" not in err, f"{where}: traceback"
        outcomes[min(rc, 2) if rc != 1 else 0] += 1
        shutil.rmtree(res)
    print(f"pstlab JSONL fuzz: seed {SEED}, {CASES} cases: {outcomes[0]} read, {outcomes[2]} refused")
    assert outcomes[0] and outcomes[2]  # the mutations reach both outcomes
