"""The record schema: every field of every record pstswm writes, with its JSON type, unit and meaning.

schema.json beside this file is `pstswm schema --json`; a test keeps it equal to the binary's, and
pstswm checks every record against the same tables as it writes it (docs/records.md renders them).
pstlab reads the field types from here, so a value of the wrong type is caught where it is read,
and its tests check that every stored fixture still matches.

Older result directories: a field renamed since (docs/running.md, Schema versions) is looked up under its
old name, a retired one is ignored, and fields added since are simply absent.  A newer schema_version is refused by
records.py, since a renamed field would be misread.
"""

import functools
import json
from dataclasses import dataclass
from pathlib import Path

SCHEMA_FILE = Path(__file__).with_name("schema.json")

# (bench, old name) -> (new name, the schema version that renamed it).
RENAMED = {
    ("match", "seed_m_ns"): ("song_m_ns", 2),
    ("match", "seed_m_ns_ci95"): ("song_m_ns_ci95", 2),
    ("match", "seed_r2"): ("song_r2", 2),
}
# Fields older versions wrote that no record carries now: (bench, name).  The model's single
# "protocol" became fft_protocol and legendre_protocol when the model got a processor grid.
RETIRED = {("model", "protocol")}
# (bench, record type) -> the fields every schema version has required: an older file's records (whose
# other required fields may postdate them) must still hold these.
REQUIRED_SINCE_V1 = {
    ("swap", "point"): ("bytes",),
    ("pingpong", "point"): ("bytes",),
    ("coll", "point"): ("bytes",),
}


@dataclass(frozen=True)
class Field:
    name: str
    type: str  # string, int, number, bool, string[], int[], number[], object, object[], map
    unit: str | None
    doc: str
    optional: bool
    members: "dict[str, Field] | None" = None


def _fields(rows: list[dict]) -> dict[str, Field]:
    return {
        r["name"]: Field(r["name"], r["type"], r["unit"], r["doc"], r["optional"],
                         _fields(r["members"]) if "members" in r else None)
        for r in rows
    }


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


_SCALAR = {
    "string": lambda v: isinstance(v, str),
    "int": _is_number,  # pstswm writes integers; a tool that rewrote them as 8.0 still reads
    "number": _is_number,
    "bool": lambda v: isinstance(v, bool),
}


def type_ok(f: Field, value: object) -> bool:
    """Whether value fits field f (null fits every field); members of objects are checked too."""
    if value is None:
        return True
    if f.type in _SCALAR:
        return _SCALAR[f.type](value)
    if f.type.endswith("[]") and f.type[:-2] in _SCALAR:
        return isinstance(value, list) and all(v is None or _SCALAR[f.type[:-2]](v) for v in value)
    if f.type == "map":
        return isinstance(value, dict)
    objects = [value] if f.type == "object" else value if isinstance(value, list) else None
    if objects is None or not all(isinstance(o, dict) for o in objects):
        return False
    return all(k in f.members and type_ok(f.members[k], v) for o in objects for k, v in o.items())


def null_ok(f: Field) -> bool:
    """Whether pstswm may write null in field f: a number (a non-finite value is written as null), a
    string, a list or an object may be null; an integer or a flag only where its doc says so (the
    root of an op that has none), since pstswm has no other way to write one as null."""
    return f.type not in ("int", "bool") or "null" in f.doc


def type_name(f: Field) -> str:
    return "a number" if f.type in ("int", "number") else f"of type {f.type}"


class Schema:
    def __init__(self, doc: dict):
        self.version: int = doc["schema_version"]
        groups = {name: _fields(rows) for name, rows in doc["groups"].items()}
        self.records: dict[tuple[str, str, str | None], dict[str, Field]] = {}
        self.docs: dict[tuple[str, str, str | None], str] = {}
        for r in doc["records"]:
            kind = (r["bench"], r["type"], r["summary"])
            self.records[kind] = {name: f for g in r["groups"] for name, f in groups[g].items()}
            self.docs[kind] = r["doc"]

    def fields(self, rec: dict) -> dict[str, Field] | None:
        """The fields of rec's kind (bench, type and a summary's kind), or None if unknown."""
        return self.records.get((rec.get("bench"), rec.get("type"), rec.get("summary")))

    def field(self, rec: dict, key: str) -> Field | None:
        fields = self.fields(rec)
        if fields is None:
            return None
        if key in fields:
            return fields[key]
        new = RENAMED.get((rec.get("bench"), key))
        return fields.get(new[0]) if new else None

    def names(self) -> set[str]:
        """Every field name of every record, members of objects included."""
        def walk(fields: dict[str, Field]):
            for f in fields.values():
                yield f.name
                if f.members:
                    yield from walk(f.members)
        return {n for fields in self.records.values() for n in walk(fields)}

    def problems(self, rec: dict, version: int) -> list[str]:
        """How rec, from a run header of schema `version`, departs from the schema: an unknown
        field, a value of the wrong type, and (for the current version) a required field missing."""
        fields = self.fields(rec)
        if fields is None:
            return [f"unknown record kind {rec.get('bench')}/{rec.get('type')}/{rec.get('summary')}"]
        out = []
        for key, value in rec.items():
            if key.startswith("_"):  # pstlab's own annotations (the file a record came from)
                continue
            f = self.field(rec, key) if version < self.version else fields.get(key)
            if f is None and version < self.version and (rec.get("bench"), key) in RETIRED:
                continue
            if f is None:
                out.append(f"field '{key}' is not in the schema")
            elif value is None and not null_ok(f):
                out.append(f"field '{key}' is null, which pstswm never writes there ({type_name(f)})")
            elif not type_ok(f, value):
                out.append(f"field '{key}' must be {type_name(f)}, got {json.dumps(value)[:40]}")
        if version == self.version:
            missing = [name for name, f in fields.items() if not f.optional and name not in rec]
            out += [f"required field '{name}' missing" for name in missing]
        return out


@functools.cache
def load() -> Schema:
    return Schema(json.loads(SCHEMA_FILE.read_text()))
