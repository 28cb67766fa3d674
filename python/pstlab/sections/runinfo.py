"""Where the numbers come from: the suite's experiments, the runs' headers, the machine."""

import re

from pstlab.doc import Section, Table, Text, fmt_num
from pstlab.records import RecordSet
from pstlab.sections.common import group_by

TITLE = "Runs and machine"


def short_library(text: str | None) -> str:
    """'Open MPI v4.1.4, package: ...' -> 'Open MPI v4.1.4'; 'MPICH Version:\\t4.0.2' -> 'MPICH 4.0.2'."""
    if not text:
        return "–"
    text = re.sub(r"\s*Version:\s*", " ", text.split(",")[0])
    return " ".join(text.split())


def experiments_table(manifest: dict) -> Table:
    rows = []
    launches = manifest.get("launches", 1) > 1
    for i, e in enumerate(manifest.get("experiments", []), 1):
        elapsed = e.get("elapsed_s")
        rows.append(
            [
                str(i),
                e.get("name", ""),
                *([str(e.get("launch", 1))] if launches else []),
                e.get("subcommand", ""),
                str(e.get("ranks", "")),
                e.get("status", ""),
                f"{fmt_num(elapsed)} s" if elapsed is not None else "–",
                e.get("reason", ""),
            ]
        )
    return Table(
        f"Experiments of suite '{manifest.get('suite')}' ({manifest.get('mpi')}, launcher {manifest.get('launcher')})",
        ["#", "experiment", *(["launch"] if launches else []), "subcommand", "ranks", "status", "elapsed", "note"],
        rows,
    )


def runs_table(rs: RecordSet) -> Table:
    rows = [
        [
            h.get("_file", ""),
            h["bench"],
            str(h.get("ranks", "–")),
            short_library(h.get("mpi_library")),
            h.get("date", "–"),
            h.get("command", "–"),
        ]
        for h in rs.headers()
    ]
    return Table("Runs (one pstswm invocation each)", ["file", "bench", "ranks", "MPI", "date (UTC)", "command"], rows)


def machine_table(rs: RecordSet) -> Table:
    keys = ("hosts", "cpu_model", "cpus_online", "compiler", "version", "git_commit", "mpi_library")
    rows = []
    for key, _ in group_by([{k: str(h.get(k)) for k in keys} for h in rs.headers()], *keys).items():
        hosts, cpu, cpus, compiler, version, commit, library = key
        rows.append(
            [
                hosts.strip("[]'").replace("', '", ", "),
                cpu,
                cpus,
                compiler,
                f"{version} ({commit})",
                short_library(library),
            ]
        )
    return Table("Machine and software", ["hosts", "CPU", "CPUs", "compiler", "pstswm", "MPI library"], rows)


def section(rs: RecordSet) -> Section:
    sec = Section(TITLE)
    files = len({r.get("_file") for r in rs.records})
    sec.add(Text(f"{len(rs.records)} records in {files} file{'s' if files != 1 else ''} under `{rs.path}`."))
    if rs.manifest:
        sec.add(experiments_table(rs.manifest))
    if rs.headers():
        sec.add(runs_table(rs), machine_table(rs))
    return sec
