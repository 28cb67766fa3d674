#!/usr/bin/env bash
# Five launches of one --reproducible model command must compute the same bits: the state
# checksums of every point and diag record identical across launches and thread counts.
#   reproducible-launches.sh DIR RANKS -- launcher... pstswm model args...
# Each launch adds --threads T (1, 2, 3, 1, 2) and --out DIR/launch-K.jsonl.
set -uo pipefail
dir=$1 ranks=$2
shift 2
[[ $1 == -- ]] && shift
rm -rf "$dir" && mkdir -p "$dir" || exit 1
threads=(1 2 3 1 2)
for k in 0 1 2 3 4; do
  out=$dir/launch-$k.jsonl
  "$@" --threads "${threads[$k]}" --out "$out" > "$dir/launch-$k.txt" 2>&1 \
    || { echo "FAIL: launch $k (--threads ${threads[$k]}) exited with $?"; cat "$dir/launch-$k.txt"; exit 1; }
done
exec python3 - "$dir" "$ranks" <<'PY'
import json, pathlib, sys
d, ranks = pathlib.Path(sys.argv[1]), int(sys.argv[2])
runs = []
for f in sorted(d.glob("launch-*.jsonl")):
    recs = [json.loads(l) for l in f.open() if l.strip()]
    header = recs[0]
    if not header.get("reproducible") or any(c["how"] == "timed" for c in header["rounding_choices"]):
        sys.exit(f"FAIL: {f.name}: the header does not say every rounding choice was fixed: {header.get('rounding_choices')}")
    sums = [(r["type"], r.get("step"), r.get("checksums")) for r in recs if r["type"] in ("point", "diag")]
    if not sums or any(not s[2] for s in sums) or not any(s[0] == "diag" for s in sums):
        sys.exit(f"FAIL: {f.name}: a point or diag record without checksums, or no diag: {sums}")
    if {r.get("ranks", ranks) for r in recs} != {ranks}:
        sys.exit(f"FAIL: {f.name}: not a run on {ranks} ranks")
    runs.append((f.name, sums))
for name, sums in runs[1:]:
    if sums != runs[0][1]:
        sys.exit(f"FAIL: {name} differs from {runs[0][0]}:\n  {sums}\n  {runs[0][1]}")
print(f"OK: {len(runs)} launches on {ranks} rank(s), threads 1,2,3,1,2: {len(runs[0][1])} records with identical checksums, "
      f"final {runs[0][1][-1][2]}")
PY
