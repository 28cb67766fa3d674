import sys
from pathlib import Path
from pstlab.benches import ceiling

for line in ceiling.lines(ceiling.ceilings(ceiling.load(Path(sys.argv[1])))):
    print(line)
print(f"# ceiling: per-core rate with every core busy over one core's in the same round (median [lowest, highest]); "
      f"samples in {sys.argv[1]}/{ceiling.SAMPLES}")
