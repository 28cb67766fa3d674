"""What a run header says, in short: the MPI library's name and version, the pstswm command line without
where its records went, the CPU's widest vector extension and the kernels the math libraries ran, and
whether those kernels are older than the CPU."""

import itertools
import re


def short_library(text: str | None) -> str:
    """'Open MPI v4.1.4, package: ...' -> 'Open MPI v4.1.4'; 'MPICH Version:\\t4.0.2' -> 'MPICH 4.0.2'."""
    if not text:
        return "–"
    text = re.sub(r"\s*Version:\s*", " ", text.split(",")[0])
    return " ".join(text.split())


def command_options(command: str) -> dict[str, str]:
    """{--option: its value} of a command line (flags without a value left out)."""
    words = command.split()
    return {w: v for w, v in itertools.pairwise(words) if w.startswith("--") and not v.startswith("--")}


def short_command(command: str | None, leave_out: set[str] = frozenset()) -> str:
    """The pstswm command line without --out (where the records went) and the options in leave_out."""
    if not command:
        return "–"
    words, out = command.split(), []
    skip = False
    for w in words:
        if skip:
            skip = False
        elif w == "--out" or w in leave_out:
            skip = True
        else:
            out.append(w)
    return " ".join(out)


def vector_width(extensions: list[str] | None) -> str | None:
    """The widest vector extension of a CPU's list (header cpu_vector_extensions): 'AVX-512', 'AVX2', ..."""
    names = (
        ("avx512f", "AVX-512"),
        ("avx2", "AVX2"),
        ("avx", "AVX"),
        ("sse4_2", "SSE4.2"),
        ("sse2", "SSE2"),
        ("sve2", "SVE2"),
        ("sve", "SVE"),
        ("asimd", "NEON"),
    )
    return next((label for flag, label in names if flag in (extensions or [])), None)


def math_libraries(libs: dict | None) -> str | None:
    """'OpenBLAS core Cooperlake, BLIS zen3, FFTW sse2+avx': the kernels the libraries ran (header math_libraries)."""
    if not libs:
        return None
    blis = f"BLIS {libs['blis_arch']}" if libs.get("blis_arch") else "no BLIS"
    simd = libs.get("fftw_simd")
    fftw = "FFTW " + ("+".join(simd) if simd else "scalar" if simd is not None else "(SIMD not told)")
    return f"OpenBLAS core {libs.get('openblas_core')}, {blis}, {fftw}"


BLAS_NAMES = {"openblas": ("OpenBLAS", "openblas_core"), "blis": ("BLIS", "blis_arch")}
KERNELS = {"openblas": "OpenBLAS core", "blis": "BLIS"}  # as the model's summary names them


def _behind(libs: dict | None) -> list[str]:
    return [b for b in (libs or {}).get("blas_behind_cpu") or [] if b in BLAS_NAMES]


def _what_to_do(behind: list[str], site: str, coretype: str) -> str:
    return f"use a site {site}" + (f" or {coretype}" if "openblas" in behind else "")


def blas_behind(libs: dict | None) -> str | None:
    """'OpenBLAS core Prescott (sse3): older kernels than this avx512 CPU runs; use ...', the model summary's
    line, when the header's math_libraries.blas_behind_cpu names a library, else None."""
    behind = _behind(libs)
    if not behind:
        return None
    named = ", ".join(f"{KERNELS[b]} {libs.get(BLAS_NAMES[b][1])} ({libs.get(b + '_isa')})" for b in behind)
    site = " or ".join(BLAS_NAMES[b][0] for b in behind) + " that knows the CPU"
    return (
        f"{named}: older kernels than this {libs.get('cpu_isa')} CPU runs; "
        f"{_what_to_do(behind, site, 'set OPENBLAS_CORETYPE')} (docs/install.md: check a node's libraries)"
    )


def blas_behind_short(libs: dict | None, width: int) -> str | None:
    """'Kernels behind the avx512 CPU: OpenBLAS Prescott (sse3); use ...' in at most width characters where it
    can (the ISA levels left out first), else None when no library lags."""
    behind = _behind(libs)
    if not behind:
        return None
    site = "BLAS" if len(behind) > 1 else BLAS_NAMES[behind[0]][0]
    texts = [
        f"Kernels behind the {libs.get('cpu_isa')} CPU: "
        + ", ".join(f"{BLAS_NAMES[b][0]} {libs.get(BLAS_NAMES[b][1])}{isa(b)}" for b in behind)
        + f"; {_what_to_do(behind, site, 'OPENBLAS_CORETYPE')} (docs/install.md)"
        for isa in (lambda b: f" ({libs.get(b + '_isa')})", lambda b: "")
    ]
    return next((t for t in texts if len(t) <= width), texts[-1])
