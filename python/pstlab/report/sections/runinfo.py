"""Where the numbers come from: the suite's experiments, the runs' headers, the machine."""

from pstlab.analysis import guardrails
from pstlab.core.units import fmt_num
from pstlab.io.headers import blas_behind, command_options, math_libraries, short_command, short_library, vector_width
from pstlab.io.records import RecordSet
from pstlab.report.doc import Section, Table, Text
from pstlab.report.sections.common import MAX_LINE

TITLE = "Runs and machine"


def _fitted(command: str) -> str:
    """Whole words up to MAX_LINE characters, then '…' (the records' headers keep the full line)."""
    if len(command) <= MAX_LINE:
        return command
    return command[: MAX_LINE - 2].rsplit(" ", 1)[0] + " …"


def _elapsed(entries: list[dict]) -> str:
    times = sorted(e["elapsed_s"] for e in entries if isinstance(e.get("elapsed_s"), int | float))
    if not times:
        return "–"
    return f"{fmt_num(times[0])} s" if len(times) == 1 else f"{fmt_num(times[0])}–{fmt_num(times[-1])} s"


def _status(entries: list[dict]) -> str:
    statuses = [str(e.get("status", "")) for e in entries]
    distinct = list(dict.fromkeys(statuses))
    return distinct[0] if len(distinct) == 1 else ", ".join(f"{statuses.count(s)} {s}" for s in distinct)


def experiments_table(manifest: dict, rs: RecordSet | None = None) -> Table:
    """One row per experiment, its launches merged: the command it ran, without what differs by launch."""
    commands = {h.get("_file"): h.get("command") for h in rs.headers()} if rs else {}
    marks = guardrails.marks(rs) if rs else {}
    by_name: dict[str, list[dict]] = {}
    for e in manifest.get("experiments", []):
        by_name.setdefault(e.get("name", ""), []).append(e)
    rows = []
    for i, (name, entries) in enumerate(by_name.items(), 1):
        files = [e.get("file") for e in entries]
        launched = [command_options(commands[f]) for f in files if commands.get(f)]
        # an option whose value differs between the launches describes a launch, not the experiment
        differing = {o for opts in launched for o in opts if len({str(x.get(o)) for x in launched}) > 1}
        command = next((commands[f] for f in files if f in commands), None)
        notes = [
            *dict.fromkeys(e.get("reason", "") for e in entries if e.get("reason")),
            *dict.fromkeys(marks[f] for f in files if f in marks),
        ]
        rows.append(
            [
                str(i),
                name,
                str(len(entries)),
                str(entries[0].get("ranks", "")),
                _status(entries),
                _elapsed(entries),
                _fitted(short_command(command, differing).removeprefix("pstswm ")),
                "; ".join(notes),
            ]
        )
    return Table(
        f"Experiments of suite '{manifest.get('suite')}' ({manifest.get('mpi')}, launcher {manifest.get('launcher')})",
        ["#", "experiment", "launches", "ranks", "status", "elapsed", "pstswm subcommand and options", "note"],
        rows,
        "Launches of one experiment merged (their files are <experiment>-L<k>.jsonl); the command without --out and "
        "the options whose value differs between launches; "
        f"elapsed: lowest–highest over launches. {guardrails.MARK}: an oversubscribed or noisy run.",
    )


def runs_table(rs: RecordSet) -> Table:
    """Every run (one pstswm invocation), for a directory without a manifest."""
    rows = [
        [
            h.get("_file", ""),
            h["bench"],
            str(h.get("ranks", "–")),
            short_library(h.get("mpi_library")),
            h.get("date", "–"),
            short_command(h.get("command")),
        ]
        for h in rs.headers()
    ]
    return Table("Runs (one pstswm invocation each)", ["file", "bench", "ranks", "MPI", "date (UTC)", "command"], rows)


def machine_lines(rs: RecordSet) -> Text:
    """One line per distinct machine and software (hosts, CPU and its widest vectors, compiler, pstswm, MPI
    library, and the kernels the math libraries ran where a model or kernel run says)."""
    keys = ("hosts", "cpu_model", "cpus_online", "compiler", "version", "git_commit", "mpi_library")
    machines: dict[tuple, list[dict]] = {}
    for h in rs.headers():
        machines.setdefault(tuple(str(h.get(k)) for k in keys), []).append(h)
    lines = []
    for key, headers in machines.items():
        hosts, cpu, cpus, compiler, version, commit, library = key
        width = next((w for h in headers if (w := vector_width(h.get("cpu_vector_extensions")))), None)
        libs = list(dict.fromkeys(m for h in headers if (m := math_libraries(h.get("math_libraries")))))
        behind = list(dict.fromkeys(b for h in headers if (b := blas_behind(h.get("math_libraries")))))
        lines.append(
            f"- hosts {hosts.strip('[]').replace(chr(39), '')}: {cpu}{f' ({width})' if width else ''}, {cpus} CPUs; "
            f"{compiler}; pstswm {version} ({commit}); {short_library(library)}"
            + "".join(f"; {m}" for m in libs)
            + "".join(f"; **kernels behind the CPU**: {b}" for b in behind)
        )
    return Text("**Machine and software**\n" + "\n".join(lines))


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    files = len({r.get("_file") for r in rs.records})
    where = f"{len(rs.records)} records in {files} file{'s' if files != 1 else ''} under `{rs.path}`."
    if rs.manifest:
        table = experiments_table(rs.manifest, rs)
        table.note = f"{where} {table.note}"
        sec.add(table)
    else:
        sec.add(Text(where), runs_table(rs) if rs.headers() else None)
    if rs.headers():
        sec.add(machine_lines(rs))
    return sec
