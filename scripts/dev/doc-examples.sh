#!/usr/bin/env bash
# Regenerate the worked example of each guide from a real run, so that no guide shows output the
# program no longer prints.  Each example is a small, fast command (seconds); its output replaces
# the text between `<!-- example: NAME -->` and `<!-- /example -->` in its guide, and
# docs/notes/examples.md records the commit, date, host and library of the regeneration (the
# guides themselves carry none: tests/check-docs.py refuses dates and commit ids outside
# docs/notes/).  The lines pstswm prints with a leading '# ' (version and commit, the library's
# build string, the run id, the noise probe's figures) are left out for the same reason.
# Usage: scripts/dev/doc-examples.sh [MPI]   (openmpi, the default, or mpich; the build must exist)
set -euo pipefail
cd "$(dirname "$0")/../.."
mpi=${1:-openmpi}
pstswm=build/$mpi/pstswm
[[ -x $pstswm ]] || { echo "doc-examples: $pstswm is not built (scripts/dev/build.sh $mpi)" >&2; exit 2; }
run() { scripts/pstrun --mpi "$mpi" -n "$@"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# NAME|GUIDE|RANKS|pstswm ARGS (one line each; the guide's text around the markers says what runs)
examples=(
  "swap|docs/swap.md|2|swap --protocols 0,6,1,0,2,3 --sizes 8,64K --reps 10"
  "pingpong|docs/pingpong-coll.md|2|pingpong --modes send,isend --sizes 8,64K,1M --reps 10"
  "coll|docs/pingpong-coll.md|2|coll --ops allreduce,bcast --sizes 8,64K --reps 10"
  "match|docs/match.md|2|match --queue posted,unexpected --counts 1,10:50:+10 --lengths 10 --reps 20"
  "kernel|docs/kernel.md|2|kernel --grid 1x2 --stages legendre --algorithms ringsum,halfsum --trunc 42 --levels 4 --protocols 0,6,1,3,2,3 --reps 10"
  "model|docs/model.md|1|model --case 2 --trunc 42 --levels 4 --steps 40"
  "rma|docs/rma.md|2|pingpong --transport rma --sizes 8,64K,1M --reps 10"
)

# Replace the block NAME of GUIDE with the command and the output file's lines.
splice() {
  python3 - "$@" <<'PY'
import re, sys
name, guide, command, output = sys.argv[1:5]
text = open(guide, encoding="utf-8").read()
body = open(output, encoding="utf-8").read().rstrip("\n")
block = f"<!-- example: {name} -->\n```\n$ {command}\n{body}\n```\n<!-- /example -->"
pattern = re.compile(rf"<!-- example: {re.escape(name)} -->.*?<!-- /example -->", re.S)
if not pattern.search(text):
    sys.exit(f"doc-examples: {guide} has no '<!-- example: {name} -->' ... '<!-- /example -->' block")
open(guide, "w", encoding="utf-8").write(pattern.sub(lambda _: block, text, count=1))
PY
}

for entry in "${examples[@]}"; do
  IFS='|' read -r name guide ranks args <<<"$entry"
  read -ra argv <<<"$args"
  echo "doc-examples: $name ($guide): pstswm $args"
  run "$ranks" "$pstswm" "${argv[@]}" >"$work/$name.raw" 2>&1 ||
    { cat "$work/$name.raw" >&2; echo "doc-examples: '$args' failed" >&2; exit 3; }
  grep -v '^# ' "$work/$name.raw" >"$work/$name.out" || true
  splice "$name" "$guide" "pstswm $args   # on $ranks rank(s)" "$work/$name.out"
done

# pstlab: a two-experiment suite, run, reported and summarised.
cat >"$work/example.toml" <<'TOML'
description = "the pstlab guide's worked example"

[[experiment]]
name = "swap"
subcommand = "swap"
ranks = 2
args = ["--protocols", "0,6,2,3", "--sizes", "8,64K", "--reps", "10"]

[[experiment]]
name = "model"
subcommand = "model"
ranks = 1
args = ["--case", "2", "--trunc", "21", "--levels", "2", "--steps", "20"]
TOML
echo "doc-examples: pstlab (docs/pstlab.md): run, report, summary of a two-experiment suite"
.venv/bin/pstlab run "$work/example.toml" --mpi "$mpi" --out "$work/example" >"$work/pstlab.raw" 2>&1 &&
  .venv/bin/pstlab report "$work/example" >>"$work/pstlab.raw" 2>&1 ||
  { cat "$work/pstlab.raw" >&2; echo "doc-examples: the pstlab example failed" >&2; exit 3; }
.venv/bin/pstlab summary "$work/example" | sed "s#$work/##g" >"$work/pstlab.out"
splice pstlab docs/pstlab.md "pstlab summary example   # after pstlab run example.toml and pstlab report example" \
  "$work/pstlab.out"

version=$("$pstswm" --version | head -1)
library=$(grep -m1 -o 'Open MPI v[0-9.]*\|MPICH Version:[^|]*\|MPICH [0-9.]*' "$work/swap.raw" || echo "$mpi")
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
{
  echo "# Worked examples: when and where they were regenerated"
  echo
  echo "*The record of the last regeneration of the guides' worked examples by"
  echo "\`scripts/dev/doc-examples.sh\`. The guides carry no dates or commit ids; this page does.*"
  echo
  echo "| | |"
  echo "| --- | --- |"
  echo "| date | $(date -u +%Y-%m-%d) |"
  echo "| commit | $(git rev-parse --short=12 HEAD)$(git diff --quiet HEAD -- src python || echo ' (with uncommitted changes)') |"
  echo "| pstswm | $version |"
  echo "| MPI | $library ($mpi build) |"
  echo "| host | $(nproc) CPUs, ${cpu:-unknown CPU}; load average $(cut -d' ' -f1-3 /proc/loadavg) |"
  echo
  echo "The examples, each a real run on that host:"
  echo
  for entry in "${examples[@]}"; do
    IFS='|' read -r name guide ranks args <<<"$entry"
    echo "- \`$name\` in [${guide#docs/}](../${guide#docs/}): \`pstswm $args\` on $ranks rank(s)"
  done
  echo "- \`pstlab\` in [pstlab.md](../pstlab.md): \`pstlab run\`, \`report\` and \`summary\` of a two-experiment suite"
  echo
  echo "Figures in the examples are one run on a shared machine: they show what the output looks"
  echo "like, not what this library is worth."
} >docs/notes/examples.md
echo "doc-examples: done; stamped docs/notes/examples.md"
