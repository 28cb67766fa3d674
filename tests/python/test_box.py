"""The answer in 30 seconds, on a full quick-suite record set (tests/python/fixtures/quick, Open MPI, 3 launches):
the report's length and line limits, readable tie sets, the verdict box against the paired verdicts it
states, and no lone winner anywhere."""

import gzip
import json
import re

import pytest

import html_page
from conftest import FIXTURES
from pstlab.analysis import box, family, guardrails, trust
from pstlab.benches import kernel, swap
from pstlab.core import tiesets
from pstlab.io import records
from pstlab.report import report, summary
from pstlab.report.sections.common import tie_cell
from pstlab.stats import stats

QUICK = FIXTURES / "quick"
MAX_REPORT_LINES = 300
MAX_CELL = 120
MAX_INLINE = 4
# a protocol code (0,6 / 1,10 / 0,2+ov), not a thousands separator (10,654) nor a code list (1,0,1,3)
CODE = re.compile(r"(?<![\d.,])\d,\d{1,2}(?:\+ov)?(?![\d,])")


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """The quick-suite records, decompressed: (results dir, record set, report.md text, report dir)."""
    results = tmp_path_factory.mktemp("quick")
    for gz in QUICK.glob("*.gz"):
        (results / gz.name.removesuffix(".gz")).write_bytes(gzip.decompress(gz.read_bytes()))
    rs = records.load(results)
    md, _ = report.write(results, results / "report")
    yield results, rs, md.read_text(), results / "report"


def table_cells(md: str) -> list[str]:
    """Every cell of every Markdown table ('\\|' is an escaped pipe inside a cell)."""
    cells = []
    for line in md.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells += [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
    return cells


def report_problems(md: str) -> list[str]:
    """What breaks the limits of issue 31: length, contents, cell width, members listed inline."""
    problems = []
    if len(md.splitlines()) > MAX_REPORT_LINES:
        problems.append(f"{len(md.splitlines())} lines")
    if "Contents: [" not in md:
        problems.append("no table of contents")
    problems += [f"cell of {len(c)} characters" for c in table_cells(md) if len(c) > MAX_CELL]
    problems += [f"{len(CODE.findall(c))} codes inline: {c[:60]}" for c in table_cells(md) if len(CODE.findall(c)) > 4]
    return problems


def summary_problems(text: str) -> list[str]:
    lines = text.splitlines()
    problems = [f"line of {len(line)} characters" for line in lines if len(line) > MAX_CELL]
    problems += [f"clipped: {line[:60]}" for line in lines if line.endswith("…")]  # built to fit, not cut
    problems += [
        f"{len(CODE.findall(line))} codes inline: {line[:60]}" for line in lines if len(CODE.findall(line)) > 4
    ]
    start = next((i for i, line in enumerate(lines) if line.startswith("== verdicts")), None)
    if start is None:
        return [*problems, "no verdict box"]
    box_lines = lines[start + 1 :]
    bullets = [line for line in box_lines if line.startswith("- ")]
    if len(bullets) > box.MAX_BULLETS:
        problems.append(f"{len(bullets)} bullets")
    if not any(line.startswith("Scope: ") for line in box_lines):
        problems.append("no scope line")
    if not any(re.match(r"Trust: (high|medium|low) — \S", line) for line in box_lines):
        problems.append("no Trust line")
    return problems


def test_the_quick_report_is_short_with_contents_and_narrow_cells(quick):
    _, _, md, _ = quick
    assert report_problems(md) == []
    assert md.index("## Verdicts") < md.index("## Answers for this machine")  # the box comes first
    assert md.count("<details>") == md.count("</details>") >= 1


def test_the_terminal_summary_is_narrow_and_ends_with_the_box(quick):
    results, _, _, _ = quick
    text = summary.render(results)
    assert summary_problems(text) == []
    assert text.splitlines()[-1].startswith("Trust: ")  # no report beside these records: the box ends it


def test_the_limits_catch_what_the_old_output_broke():
    """The checks above can fail: the pre-issue report's shape and terminal lines, reproduced in small."""
    codes = " ≈ ".join(f"0,{j}" for j in range(7))
    old_report = "\n".join(["# r", "| best (tie set) |", "|---|", f"| {codes} |", *["x"] * 300])
    problems = report_problems(old_report)
    assert "304 lines" in problems and "no table of contents" in problems and any("7 codes" in p for p in problems)
    old_summary = f"kernel fft T42L4 2x1: best protocol (sensitivity) srtrans {codes} ≈ {codes} ≈ {codes}"
    assert "no verdict box" in summary_problems(old_summary) and len(summary_problems(old_summary)) == 3


def test_every_member_of_a_named_tie_set_appears_in_a_folded_list(quick):
    _, rs, md, _ = quick
    folded = "\n".join(re.findall(r"<details>.*?</details>", md, flags=re.S))
    kernel_cases = kernel.verdict_cases(rs)
    named = [c for c in kernel_cases + swap.verdict_cases(rs) if len(c.verdict.best_set) > MAX_INLINE]
    assert named
    for c in named:
        where = f"{c.key[0]} {c.key[2]} {c.key[3]}" if c in kernel_cases else "cache"
        line = next(line for line in folded.splitlines() if where in line)
        assert all(re.search(rf"(?<![\d,]){re.escape(a)}(?![\d+])", line) for a in c.verdict.best_set), c.key


def test_no_lone_winner_where_the_verdict_is_a_tie(quick):
    """docs/statistics.md: a single name only for a decided verdict; the report's tie-set cells, Table 3
    and the terminal summary's kernel and swap lines name the tie set."""
    results, rs, md, _ = quick
    cells = table_cells(md)
    ordered = tiesets.catalogue(rs.points("swap") + rs.points("kernel"))
    for c in kernel.verdict_cases(rs) + swap.verdict_cases(rs):
        v = c.verdict
        if not v.decided:
            assert tie_cell(v, ordered) != v.best
    assert all(line.count("≈") < MAX_INLINE for line in cells)  # no cell joins more than 4 members
    text = summary.render(results)
    undecided_kernel = [c for c in kernel.verdict_cases(rs) if not c.verdict.decided]
    assert undecided_kernel
    for line in text.splitlines():
        if line.startswith("kernel "):
            assert not CODE.search(line.split(":", 1)[1].replace(kernel.GENERIC_PROTOCOL + " in", ""))
    smallest = min((c for c in swap.verdict_cases(rs) if c.key[4] == 1), key=lambda c: c.key[3])
    swap_line = next(line for line in text.splitlines() if line.startswith("swap:"))
    assert swap_line.split(": ")[-1].split(" ⚠")[0] == tiesets.name(
        smallest.verdict.best_set, list(smallest.verdict.medians), ordered
    )
    assert "best = smallest t_min" not in md and "prot." not in md


def _per_launch(case, a, b):
    n = case.per_launch
    return [
        stats.paired_ratio(
            a[i * n : (i + 1) * n],
            b[i * n : (i + 1) * n],
            case.verdict.confidence,
            case.verdict.margin,
        )
        for i in range(case.launches)
    ]


def _side(q) -> str:
    return "tie" if not q.significant else ("above" if q.ratio > 1 else "below")


def _same(q, r) -> bool:
    return _side(q) == _side(r)


def test_the_box_states_the_paired_verdicts(quick):
    """Rebuild every bullet's claim from the records' paired verdicts and check the bullet says it."""
    _, rs, _, _ = quick
    b = box.build(rs)
    assert 1 <= len(b.bullets) <= box.MAX_BULLETS and all(len(x.text) + 2 <= box.MAX_WIDTH for x in b.bullets)
    summaries = rs.summaries("kernel", "family")
    cases = kernel.verdict_cases(rs)
    g = guardrails.check(rs, cases + swap.verdict_cases(rs))
    for bullet in b.bullets:
        f = bullet.facts
        if bullet.kind == "family":
            mine = [
                s for s in summaries if (s["stage"], s["family"], s["grid"]) == (f["stage"], f["family"], f["grid"])
            ]
            sets = [{a.split(" ")[0] for a in s["best_set"]} for s in mine]
            every = set.intersection(*sets)
            assert set(f["tied_in_every_launch"]) == every and f["launches"] == len(mine)
            for name in f["tied_in_some"]:
                assert 0 < sum(name in s for s in sets) < len(sets)
            assert f"in all {len(mine)} launches" in bullet.text
            # an oversubscribed configuration is not boxed while a clean one answers for its stage
            assert not any(s["_file"] in g.oversubscribed for s in mine)
        elif bullet.kind == "collective":
            c = next(c for c in cases if (c.key[0], c.key[1], c.key[3]) == (f["stage"], f["algorithm"], f["grid"]))
            coll, alg = c.comparators[kernel.COLL_PROTOCOL], c.rounds[c.verdict.best]
            q = c.paired(coll, alg)  # over launches: the launch is the unit
            assert f["collective_over_algorithm"] == [q.ratio, q.lo, q.hi]
            shown = (
                q if "faster than MPI_" in bullet.text else stats.PairedRatio(1 / q.ratio, 1 / q.hi, 1 / q.lo, q.n, 0)
            )
            assert f"{shown.ratio:.2f}× [{shown.lo:.2f}, {shown.hi:.2f}]" in bullet.text
            # "≈" claims equivalence: only when the whole interval lies within the margin
            band = (1 / (1 + c.verdict.margin), 1 + c.verdict.margin)
            if " ≈ MPI_" in bullet.text:
                assert band[0] <= q.lo and q.hi <= band[1]
            elif not q.significant:
                assert "undecided" in bullet.text
            held = sum(_same(r, q) for r in _per_launch(c, coll, alg))
            assert f["holds_in_launches"] == held
            assert (f"holds in {held} of {c.launches} launches" in bullet.text) == (held < c.launches)
        elif bullet.kind == "protocol":
            clean = [c for c in cases if "oversubscribed" not in c.caveats and "0,6" in c.rounds]
            tied = sum("0,6" in c.verdict.best_set for c in clean)
            assert f"in {tied} of {len(clean)} kernel verdicts" in bullet.text
        elif bullet.kind == "swap":
            sizes = [c for c in swap.verdict_cases(rs) if c.key[4] == 1 and "0,6" in c.rounds]
            tied = [c for c in sizes if "0,6" in c.verdict.best_set]
            assert f"at {len(tied)} of {len(sizes)} sizes" in bullet.text
            out_of = [c for c in sizes if c not in tied]
            if not out_of:
                assert " B 0,6 takes " not in bullet.text
                continue
            worst = max(out_of, key=lambda c: c.ratio("0,6").ratio)
            q = worst.paired(worst.rounds["0,6"], worst.rounds[worst.verdict.best])
            assert f"at {worst.key[3]} B 0,6 takes" in bullet.text
            assert f"{q.ratio:.2f}× [{q.lo:.2f}, {q.hi:.2f}]" in bullet.text
    kinds = [x.kind for x in b.bullets]
    assert kinds.count("family") == len({(v.stage, v.family) for v in family.verdicts(rs)})


def test_the_box_trust_is_the_held_out_agreement(quick):
    _, rs, _, _ = quick
    b = box.build(rs)
    # the quick fixture ran on a busy, oversubscribed VM: the level is what its held-out launches show,
    # the noise and the oversubscription are its reasons
    agreed = trust.agreement(kernel.verdict_cases(rs) + swap.verdict_cases(rs))
    assert b.trust == trust.level_of(agreed) and b.reason.startswith(trust.statement(agreed))
    assert "noise lost in" in b.reason


def test_the_same_verdicts_as_json(quick, cli):
    results, rs, _, out = quick
    rc, text, _ = cli("summary", "--json", results)
    data = json.loads(text)
    assert rc == 0 and data == json.loads(json.dumps(box.build(rs).to_json()))
    assert json.loads((out / "verdicts.json").read_text()) == data
    assert [v["text"] for v in data["verdicts"]] == [b.text for b in box.build(rs).bullets]
    assert data["trust"]["level"] in ("high", "medium", "low")


def test_without_launches_to_leave_out_trust_follows_the_guardrails():
    """No verdict from 3+ launches: the guardrails decide, and the line says reproduction was not measured."""
    g = guardrails.Guardrails(runs=1, verdicts=1, fits=1)
    none = trust.Agreement(0, 0, 0)
    assert box.trust_line(g, [], none) == ("high", trust.statement(none))
    g.noisy["a.jsonl"] = 0.3
    assert box.trust_line(g, [], none)[0] == "medium"
    assert box.trust_line(g, [box.Bullet("family", f"{guardrails.MARK} x")], none)[0] == "low"


def test_measured_agreement_sets_the_level_and_the_guardrails_are_its_reasons():
    g = guardrails.Guardrails(runs=5, verdicts=1, fits=1)
    g.noisy["a.jsonl"] = 0.3
    marked = [box.Bullet("family", f"{guardrails.MARK} x")]
    level, reason = box.trust_line(g, marked, trust.Agreement(95, 100, 20))
    assert level == "high" and reason == "held-out launches agree in 95% of 100; noise lost in 1 of 5 runs"
    assert box.trust_line(g, marked, trust.Agreement(80, 100, 20))[0] == "medium"
    assert box.trust_line(g, [], trust.Agreement(50, 100, 20))[0] == "low"


def test_every_kernel_alternative_is_its_own(quick):
    """pstlab names the kernel's alternatives as pstswm does: the persistent 4,x/5,x run with and
    without overlap as well, so '4,1' and '4,1+ov' are two alternatives, not one dict key twice."""
    _, rs, _, _ = quick
    counts = {
        (s["stage"], s["algorithm"], s["grid"]): s["nalternatives"]
        for s in rs.summaries("kernel", "sensitivity")
        if s.get("nalternatives")
    }
    cases = [c for c in kernel.verdict_cases(rs) if (c.key[0], c.key[1], c.key[3]) in counts]
    assert cases
    for c in cases:
        assert len(c.rounds) == counts[(c.key[0], c.key[1], c.key[3])], c.key


def test_verdicts_are_split_by_locality(tmp_path):
    """Records measured across nodes give their own verdicts, said as such, beside those inside a node
    (the emulated cluster's records carry `locality`; the quick fixture is one node)."""
    for gz in QUICK.glob("swap-protocols-L*.gz"):
        lines = gzip.decompress(gz.read_bytes()).decode().splitlines()
        for locality, suffix in (("intra-node", ""), ("inter-node", "-x")):
            recs = [json.loads(line) for line in lines]
            for r in recs:
                if r.get("type") in ("point", "summary"):
                    r["locality"] = locality
                r["run_id"] = r.get("run_id", "") + suffix
            (tmp_path / gz.name.removesuffix(".jsonl.gz").replace("-L", f"{suffix}-L")).with_suffix(
                ".jsonl"
            ).write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    rs = records.load(tmp_path)
    cases = swap.verdict_cases(rs)
    assert {c.key[-1] for c in cases} == {"intra-node", "inter-node"}
    bullets = [b for b in box.build(rs).bullets if b.kind == "swap"]
    assert [b.facts["locality"] for b in bullets] == ["inter-node", "intra-node"]
    assert bullets[0].text.startswith("Point-to-point across nodes: ")
    assert bullets[1].text.startswith("Point-to-point inside a node: ")
    md, _ = report.write(tmp_path, tmp_path / "report")
    text = md.read_text()
    assert "pair 0,1, across nodes" in text and "pair 0,1, inside a node" in text


def test_the_page_shows_the_box_as_a_list_and_no_markdown_markers(quick):
    """report.html as a browser parses it: every bullet of the box an <li> of its section, no '**',
    '_x_' or '- ' left in the text, every figure an embedded image."""
    results, rs, md, out = quick
    page = html_page.Page((out / "report.html").read_text())
    assert html_page.problems(page, [b.text for b in box.build(rs).bullets], report.BOX_TITLE) == []
    assert len(page.images) == md.count("](plots/") and all(s.startswith("data:image/png") for s in page.images)


def test_the_page_check_fails_on_a_hand_rendered_list():
    """The check above can fail: the pre-issue renderer's paragraph of '- ' lines and literal underscores."""
    old = "<h2>Verdicts</h2><p>- ⚠ FFT transposes: use 0,6\n- Point-to-point: 0,6</p><p><em>a</em> _key_</p>"
    found = html_page.problems(html_page.Page(old), ["⚠ FFT transposes: use 0,6"], "Verdicts")
    assert "not a list item: ⚠ FFT transposes: use 0,6" in found
    assert any("- P" in p for p in found) and any("_key_" in p for p in found)


def test_each_wide_tie_is_listed_by_name_in_the_page_and_the_json(quick):
    """The box's one line per bench stands for its wide ties; report.html folds each, by name, with what
    would separate it, and verdicts.json carries the same."""
    _, rs, md, out = quick
    b = box.build(rs)
    assert b.ties, "the quick fixture has wide ties"
    page = html_page.Page((out / "report.html").read_text())
    listed = [f"{bench} {t.name}: best set {t.share:.0%} of the alternatives; {status}" for bench, t, status in b.ties]
    assert [i for i in page.items[report.BOX_TITLE] if i in listed] == listed
    assert "_Each wide tie and what would separate a 5% difference: folded in report.html._" in md
    detail = json.loads((out / "verdicts.json").read_text())["wide_tie_detail"]
    assert [(d["bench"], d["verdict"], d["status"]) for d in detail] == [(x, t.name, s) for x, t, s in b.ties]
