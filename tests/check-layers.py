#!/usr/bin/env python3
"""The layers of src/ and the direction of their includes: a file may include headers of its own
layer and of the layers below it, never above.

    core < stats < run < comm < algo < model < cmd < main.c

    check-layers.py SRC_DIR

Lists each upward include (file:line, the include, both layers) and exits 1."""
import re
import sys
from pathlib import Path

LAYERS = ["core", "stats", "run", "comm", "algo", "model", "cmd"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"')


def layer_of(path: Path, src: Path) -> int:
    rel = path.relative_to(src).parts
    return len(LAYERS) if len(rel) == 1 else LAYERS.index(rel[0])  # src/main.c sits on top


def main() -> int:
    src = Path(sys.argv[1])
    files = sorted(p for p in src.rglob("*") if p.suffix in (".c", ".h"))
    bad = 0
    for path in files:
        own = layer_of(path, src)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            if m.group(1) not in LAYERS:
                print(f"{path}:{number}: {line.strip()}: '{m.group(1)}' is not a layer ({', '.join(LAYERS)})")
                bad += 1
            elif LAYERS.index(m.group(1)) > own:
                name = "main" if own == len(LAYERS) else LAYERS[own]
                print(f"{path}:{number}: {line.strip()}: {name} includes {m.group(1)}, a layer above it")
                bad += 1
    print(f"{len(files)} files, {bad} include(s) against the layers" if bad else f"{len(files)} files: every include runs down")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
