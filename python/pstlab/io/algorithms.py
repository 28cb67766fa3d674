"""pstswm's registry of parallel algorithms, as the header of a `pstswm kernel` run carries it.

Every kernel run header lists the algorithms the binary knew (`algorithms`: name, family, stages,
collective, ...; `pstswm kernel --list --json` prints the same list), so a report needs no binary.
Result directories written before the header carried it fall back to BUILTIN, the registry as it
stood then (tests/check-registry.py checks that every BUILTIN row still holds); an algorithm added
later is always described by the header of the run that measured it.
"""

from dataclasses import dataclass

BUILTIN_ROWS = (
    {"name": "srtrans", "family": "transpose", "stages": ["fft", "legendre"], "collective": False},
    {"name": "swtrans", "family": "transpose", "stages": ["fft", "legendre"], "collective": False},
    {"name": "logtrans", "family": "transpose", "stages": ["fft", "legendre"], "collective": False},
    {"name": "alltoallv", "family": "transpose", "stages": ["fft", "legendre"], "collective": True},
    {"name": "dfft", "family": "dfft", "stages": ["fft"], "collective": False},
    {"name": "exchsum", "family": "vsum", "stages": ["legendre"], "collective": False},
    {"name": "halfsum", "family": "vsum", "stages": ["legendre"], "collective": False},
    {"name": "ringsum", "family": "vsum", "stages": ["legendre"], "collective": False},
    {"name": "ringpipe", "family": "vsum", "stages": ["legendre"], "collective": False},
    {"name": "allreduce", "family": "vsum", "stages": ["legendre"], "collective": True},
)


@dataclass(frozen=True)
class Registry:
    rows: tuple[dict, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """In pstswm's order: transposes, their collective, dfft; the sums, their collective."""
        return tuple(r["name"] for r in self.rows)

    def row(self, name: str) -> dict | None:
        return next((r for r in self.rows if r["name"] == name), None)

    def order(self, name: str) -> int:
        return self.names.index(name) if name in self.names else len(self.names)

    def is_collective(self, name: str) -> bool:
        row = self.row(name)
        return bool(row and row.get("collective"))

    def is_comparator(self, name: str) -> bool:
        """The family's MPI collective that the others run beside (alltoallv, allreduce): the row `coll`
        stands for.  Registries written before the library alternatives had one collective per family."""
        row = self.row(name)
        return bool(row and row.get("collective") and (row.get("coll_for") if "coll_for" in row else True))

    def is_library(self, name: str) -> bool:
        """An MPI library alternative that is not the comparator: ialltoallv, neighbor, allreduce_init, ..."""
        return self.is_collective(name) and not self.is_comparator(name)

    def collective_of(self, name: str) -> str | None:
        """The MPI collective doing the same work as algorithm `name`, its comparator (None for dfft, whose
        call includes the FFTs, for the comparator itself and for unknown names)."""
        row = self.row(name)
        if row is None or self.is_comparator(name):
            return None
        same_family = (r["name"] for r in self.rows if r["family"] == row["family"])
        return next((name for name in same_family if self.is_comparator(name)), None)

    def default_stage(self, name: str) -> str:
        """The stage of a record that does not say: an algorithm serving the Legendre stage only is a
        Legendre algorithm; the others are taken as FFT algorithms, as Worley 1998 §6 studies them."""
        row = self.row(name)
        return "legendre" if row and list(row.get("stages", [])) == ["legendre"] else "fft"


BUILTIN = Registry(BUILTIN_ROWS)


def of(rs) -> Registry:
    """The registry of the newest run header in `rs` that carries one; BUILTIN otherwise."""
    for header in reversed(rs.headers()):
        rows = header.get("algorithms")
        if isinstance(rows, list) and rows and all(isinstance(r, dict) and "name" in r for r in rows):
            return Registry(tuple(rows))
    return BUILTIN
