"""bench/node-ceiling.sh's table: the node's ceiling from the samples in OUT (pstlab.benches.ceiling).

    node_ceiling.py OUT"""

import sys
from pathlib import Path

from pstlab.benches import ceiling


def main() -> None:
    out = Path(sys.argv[1])
    for line in ceiling.lines(ceiling.ceilings(ceiling.load(out))):
        print(line)
    print(
        "# ceiling: per-core rate with every core busy over one core's in the same round (median [lowest, highest]); "
        f"samples in {out}/{ceiling.SAMPLES}"
    )


if __name__ == "__main__":
    main()
