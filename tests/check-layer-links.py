#!/usr/bin/env python3
"""The layers at link time: a layer's library may use only project symbols (pst_*) that it or a
layer below defines.  The include roots stop an upward include; this stops an upward call that
needs no include (a hand-written declaration, an implicit one).

    check-layer-links.py LIBRARY...     (the layers' static libraries, lowest first)

Lists each symbol used below the layer that defines it and exits 1."""
import subprocess
import sys
from pathlib import Path


def symbols(library: str) -> tuple:
    """(defined, undefined) project symbols of a static library, from nm."""
    out = subprocess.run(["nm", "--format=posix", library], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2 or not parts[0].startswith("pst_"):
            continue
        (undefined if parts[1] == "U" else defined).add(parts[0])
    return defined, undefined


def main() -> int:
    libraries = sys.argv[1:]
    tables = [symbols(lib) for lib in libraries]
    owner = {}
    for lib, (defined, _) in zip(libraries, tables):
        for name in defined:
            owner.setdefault(name, lib)
    bad = 0
    below = set()
    for lib, (defined, undefined) in zip(libraries, tables):
        below |= defined
        for name in sorted(undefined - below):
            where = f"{Path(owner[name]).name}, a layer above it" if name in owner else "no layer"
            print(f"{Path(lib).name} uses {name}, defined in {where}")
            bad += 1
    print(f"{len(libraries)} layers, {bad} symbol(s) against the layers" if bad else f"{len(libraries)} layers: every call runs down")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
