#!/usr/bin/env python3
"""The layers of src/ and the direction of their includes: a file may include headers of its own
layer and of the layers below it, never above.

    core < stats < runtime < comm < algo < model < cmd < main.c

Inside a layer, its folders (rooms) follow the same rule: the model's run
    setup < libs < transforms < stages < the files at the top of src/model
and in src/cmd each subcommand's folder includes only itself, common/ and the top of src/cmd
(the registry); common/ includes only itself.

    check-layers.py SRC_DIR

Lists each upward include (file:line, the include, both layers) and exits 1."""
import re
import sys
from pathlib import Path

LAYERS = ["core", "stats", "runtime", "comm", "algo", "model", "cmd"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"')
MODEL_ROOMS = ["setup", "libs", "transforms", "stages", ""]  # "": the top of src/model


def room_of(rel: str) -> str:
    """The folder of a path inside its layer ("" at the layer's top): "swap" for swap/swap.c."""
    parts = rel.split("/")
    return parts[0] if len(parts) > 1 else ""


def room_problem(layer: str, own_room: str, target: str) -> str:
    """Why an include of target (a path inside layer) from own_room breaks the rooms, or ""."""
    room = room_of(target)
    if layer == "model" and MODEL_ROOMS.index(room) > MODEL_ROOMS.index(own_room):
        return f"model/{own_room or '(top)'} includes model/{room or '(top)'}, a room above it"
    if layer == "cmd" and own_room and room not in (own_room, "common", ""):
        return f"cmd/{own_room} includes cmd/{room}: a subcommand includes only its own folder, common/ and the registry"
    if layer == "cmd" and own_room == "common" and room != "common":
        return f"cmd/common includes cmd/{room or '(top)'}: common/ is below every subcommand"
    return ""


def layer_of(path: Path, src: Path) -> int:
    rel = path.relative_to(src).parts
    return len(LAYERS) if len(rel) == 1 else LAYERS.index(rel[0])  # src/main.c sits on top


def main() -> int:
    src = Path(sys.argv[1])
    files = sorted(p for p in src.rglob("*") if p.suffix in (".c", ".h"))
    bad = 0
    for path in files:
        own = layer_of(path, src)
        inner = path.relative_to(src).parts[1:]
        own_room = inner[0] if len(inner) > 1 else ""
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
            elif own < len(LAYERS) and m.group(1) == LAYERS[own] and room_problem(LAYERS[own], own_room, m.group(2)):
                print(f"{path}:{number}: {line.strip()}: {room_problem(LAYERS[own], own_room, m.group(2))}")
                bad += 1
    print(f"{len(files)} files, {bad} include(s) against the layers" if bad else f"{len(files)} files: every include runs down")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
