#!/usr/bin/env python3
"""No circle of files inside a room: within one folder of src/, if a.c calls into b.c then b.c does
not call back into a.c, directly or round a longer loop.  A circle means the files are one module
cut in two; merge them or move the shared piece into a file both use.

    check-file-cycles.py SRC_DIR OBJECT...     (object files as CMake built them; ';'-lists too)

An object's source is the part of its path after SRC_DIR's name (CMake keeps src/<folder>/x.c.o).
Lists each circle (its files, and one call per link of it) and exits 1."""
import subprocess
import sys
from collections import defaultdict
from pathlib import PurePath


def source_of(obj: str, src_name: str) -> str:
    """src/cmd/swap/swap.c for .../pst_cmd.dir/src/cmd/swap/swap.c.o."""
    parts = PurePath(obj).parts
    start = len(parts) - 1 - parts[::-1].index(src_name)
    return str(PurePath(*parts[start:]))[: -len(".o")]


def symbols(objects: list) -> dict:
    """object -> (defined, undefined) global project symbols, from one run of nm over them all."""
    out = subprocess.run(["nm", "-A", "--format=posix", *objects], check=True, capture_output=True, text=True).stdout
    tables = {o: (set(), set()) for o in objects}
    for line in out.splitlines():
        obj, _, rest = line.rpartition(": ")
        parts = rest.split()
        if obj not in tables or len(parts) < 2 or not parts[0].startswith("pst_"):
            continue
        defined, undefined = tables[obj]
        if parts[1] == "U":
            undefined.add(parts[0])
        elif parts[1].isupper():
            defined.add(parts[0])
    return tables


def room_graph(objects: list, src_name: str) -> dict:
    """file -> {file in the same folder it calls: one symbol it uses there}."""
    tables = {source_of(o, src_name): t for o, t in symbols(objects).items()}
    owner = {name: f for f, (defined, _) in tables.items() for name in defined}
    calls = defaultdict(dict)
    for f, (_, undefined) in tables.items():
        for name in sorted(undefined):
            g = owner.get(name)
            if g and g != f and PurePath(g).parent == PurePath(f).parent:
                calls[f].setdefault(g, name)
    return calls


def circles(calls: dict) -> list:
    """The strongly connected components of more than one file (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in calls.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(calls):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    src_name = PurePath(sys.argv[1]).name
    objects = [o for arg in sys.argv[2:] for o in arg.split(";") if o]  # CTest passes a target's objects as one list
    calls = room_graph(objects, src_name)
    found = circles(calls)
    for component in found:
        print(f"circle in {PurePath(component[0]).parent}/: {', '.join(PurePath(f).name for f in component)}")
        for f in component:
            for g, name in sorted(calls[f].items()):
                if g in component:
                    print(f"  {PurePath(f).name} calls {name} in {PurePath(g).name}")
    print(f"{len(objects)} files, {len(found)} circle(s) inside a folder" if found else f"{len(objects)} files: no circle inside a folder")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
