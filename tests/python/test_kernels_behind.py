"""A run whose BLAS runs older kernels than its CPU (header math_libraries.blas_behind_cpu) says so in
the report's machine line and the verdict box's scope, with what to do; planted headers stand for an
AVX-512 CPU under Debian's OpenBLAS (core Prescott) and BLIS (haswell), so the path is tested on any host."""

from conftest import FIXTURES
from pstlab.analysis import box
from pstlab.io.headers import blas_behind, blas_behind_short
from pstlab.io.records import RecordSet
from pstlab.report import report
from pstlab.report.sections import runinfo

STALE = {
    "openblas_core": "Prescott",
    "blis_arch": "haswell",
    "fftw_simd": ["sse2", "avx"],
    "cpu_isa": "avx512",
    "openblas_isa": "sse3",
    "blis_isa": "avx2",
    "fftw_isa": "avx",
    "blas_behind_cpu": ["openblas", "blis"],
}
CURRENT = STALE | {
    "openblas_core": "SkylakeX",
    "openblas_isa": "avx512",
    "blis_arch": "skx",
    "blis_isa": "avx512",
    "blas_behind_cpu": [],
}


def records(libs: dict) -> RecordSet:
    header = {
        "type": "header",
        "bench": "model",
        "_file": "m",
        "hosts": ["h"],
        "cpu_model": "Intel Xeon",
        "cpu_vector_extensions": ["sse2", "avx", "fma", "avx2", "avx512f"],
        "mpi_library": "MPICH Version: 4.0.2",
        "ranks": 1,
        "math_libraries": libs,
    }
    return RecordSet(path=FIXTURES, records=[header])


def test_the_line_names_each_lagging_library_and_what_to_do():
    # the model summary's line (src/model/libs/library_isa.c writes the same words)
    assert blas_behind(STALE) == (
        "OpenBLAS core Prescott (sse3), BLIS haswell (avx2): older kernels than this avx512 CPU runs; use a site "
        "OpenBLAS or BLIS that knows the CPU or set OPENBLAS_CORETYPE (docs/install.md: check a node's libraries)"
    )
    blis_only = STALE | {"blas_behind_cpu": ["blis"]}
    assert blas_behind(blis_only).startswith(
        "BLIS haswell (avx2): older kernels than this avx512 CPU runs; use a site BLIS"
    )
    assert "OPENBLAS_CORETYPE" not in blas_behind(blis_only)  # it cannot help BLIS
    assert blas_behind(CURRENT) is None and blas_behind(None) is None
    assert blas_behind({"openblas_core": "Prescott"}) is None  # a record from before the check
    short = blas_behind_short(STALE, box.MAX_WIDTH)
    assert len(short) <= box.MAX_WIDTH and short.startswith(
        "Kernels behind the avx512 CPU: OpenBLAS Prescott, BLIS haswell"
    )
    assert blas_behind_short(blis_only, box.MAX_WIDTH) == (
        "Kernels behind the avx512 CPU: BLIS haswell (avx2); use a site BLIS (docs/install.md)"
    )


def test_the_machine_line_says_it():
    line = runinfo.machine_lines(records(STALE)).markdown.splitlines()[1]
    assert line.endswith("; **kernels behind the CPU**: " + blas_behind(STALE))
    assert "kernels behind" not in runinfo.machine_lines(records(CURRENT)).markdown


def test_the_verdict_box_says_it_under_its_scope():
    b = box.build(records(STALE))
    lines = b.lines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Scope: "))
    assert lines[at + 1] == blas_behind_short(STALE, box.MAX_WIDTH) and lines[at + 2].startswith("Trust: ")
    assert b.to_json()["kernels"] == lines[at + 1]
    text = report.box_section(b).blocks[0].markdown  # a backslash ends a line inside the paragraph
    assert f"{b.scope}\\\n{lines[at + 1]}\\\n**Trust" in text
    quiet = box.build(records(CURRENT))
    assert quiet.kernels is None and not any(line.startswith("Kernels") for line in quiet.lines())
