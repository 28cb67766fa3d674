#!/usr/bin/env bash
# Worley 1998 Table 3 on this machine: best two-sided (mpi) vs best one-sided (rma, and shmem where
# built) SWAP bandwidth and latency at 8 KB, 128 KB and 2 MB (1024, 16384, 262144 doubles).
#
#   bench/rma_vs_mpi.sh [--mpis "openmpi mpich"] [--launches 3] [--reps 20] [--out DIR]
#
# Per MPI, one session: `pstswm swap --protocols all --sizes 8,8K,128K,2M` for every transport,
# launches interleaved (mpi, rma, ..., mpi, rma, ...) so all transports see the same machine
# state.  Per transport, protocol and size the time is the min over launches of t_min (min over
# reps); per size the best protocol is the fastest one.  BW = bytes / time (MB/s, 10^6 B, one
# direction, as swap reports it); "lat" = the same protocol's time for an 8-byte SWAP (Worley 1998:
# "typical SWAP overhead for the corresponding protocol").  Needs build/<mpi>/pstswm.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mpis="openmpi mpich" launches=3 reps=20 out=
while (($#)); do
  case "$1" in
    --mpis) mpis=$2; shift 2 ;;
    --launches) launches=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "rma_vs_mpi.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ $launches =~ ^[1-9][0-9]*$ ]] || { echo "rma_vs_mpi.sh: --launches needs a positive count" >&2; exit 2; }
out=${out:-$(mktemp -d /tmp/rma_vs_mpi.XXXXXX)}
mkdir -p "$out"

for mpi in $mpis; do
  exe=$root/build/$mpi/pstswm
  [[ -x $exe ]] || { echo "rma_vs_mpi.sh: $exe not built (scripts/dev/build.sh or cmake --build build/$mpi)" >&2; exit 2; }
  # The transports this build has, from the error message listing them.
  list=$("$root/scripts/pstrun" --mpi "$mpi" -n 2 "$exe" swap --transport '?' 2>&1 | sed -n 's/.*(allowed: \(.*\)).*/\1/p' || true)
  [[ -n $list ]] || { echo "rma_vs_mpi.sh: cannot list the transports of $exe" >&2; exit 3; }
  transports=${list//,/}
  echo "== $mpi: transports $transports, $launches launches, $reps reps" >&2
  for ((i = 1; i <= launches; i++)); do
    for t in $transports; do
      "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$exe" swap --transport "$t" --protocols all \
        --sizes 8,8K,128K,2M --reps "$reps" --warmup 2 --out "$out/$mpi-$t-$i.jsonl" >/dev/null
    done
  done
done

python3 - "$out" $mpis <<'EOF'
import glob, json, os, sys
out, mpis = sys.argv[1], sys.argv[2:]
sizes = [(2097152, "2MB"), (131072, "128KB"), (8192, "8KB")]
best_t = {}  # (mpi, transport, protocol, bytes) -> min over launches of t_min
for mpi in mpis:
    for path in sorted(glob.glob(os.path.join(out, f"{mpi}-*.jsonl"))):
        for line in open(path, encoding="utf-8"):
            r = json.loads(line)
            if r.get("type") != "point":
                continue
            key = (mpi, r["transport"], r["protocol"], r["bytes"])
            best_t[key] = min(best_t.get(key, float("inf")), r["t_min"])
rows = sorted({(m, t) for m, t, _, _ in best_t}, key=lambda k: (mpis.index(k[0]), k[1] != "mpi", k[1]))
head = "".join(f" | {label:>22}" for _, label in sizes)
sub = "".join(f" | {'MB/s':>6} {'lat us':>6} {'prot':>7}" for _ in sizes)
lines = ["SWAP between 2 ranks; per size the fastest protocol; min over launches of min over reps",
         f"{'MPI':8} {'transport':9}{head}", f"{'':8} {'':9}{sub}"]
for mpi, t in rows:
    cells = ""
    for b, _ in sizes:
        cand = {p: v for (m, tt, p, bb), v in best_t.items() if (m, tt, bb) == (mpi, t, b)}
        p = min(cand, key=cand.get)
        lat = best_t.get((mpi, t, p, 8), float("nan"))
        cells += f" | {b / cand[p] / 1e6:6.0f} {lat * 1e6:6.2f} {'(' + p + ')':>7}"
    lines.append(f"{mpi:8} {t:9}{cells}")
text = "\n".join(lines)
print(text)
open(os.path.join(out, "table.txt"), "w", encoding="utf-8").write(text + "\n")
print(f"(records and table.txt in {out})")
EOF
