"""What a run header says, in short: the MPI library's name and version, the pstswm command line without
where its records went, the CPU's widest vector extension and the kernels the math libraries ran."""

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
    names = (("avx512f", "AVX-512"), ("avx2", "AVX2"), ("avx", "AVX"), ("sse4_2", "SSE4.2"), ("sse2", "SSE2"),
             ("sve2", "SVE2"), ("sve", "SVE"), ("asimd", "NEON"))
    return next((label for flag, label in names if flag in (extensions or [])), None)


def math_libraries(libs: dict | None) -> str | None:
    """'OpenBLAS core Cooperlake, BLIS zen3, FFTW sse2+avx': the kernels the libraries ran (header math_libraries)."""
    if not libs:
        return None
    blis = f"BLIS {libs['blis_arch']}" if libs.get("blis_arch") else "no BLIS"
    simd = libs.get("fftw_simd")
    fftw = "FFTW " + ("+".join(simd) if simd else "scalar" if simd is not None else "(SIMD not told)")
    return f"OpenBLAS core {libs.get('openblas_core')}, {blis}, {fftw}"
