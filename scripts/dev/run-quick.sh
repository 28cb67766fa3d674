#!/usr/bin/env bash
# What `make run` ends with: the quick suite through pstlab, its report, and the terminal summary.
# Usage: scripts/dev/run-quick.sh MPI   (openmpi | mpich | system)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
mpi=${1:?usage: scripts/dev/run-quick.sh openmpi|mpich|system}
out=results/$(date +%Y%m%d-%H%M%S)-quick-$mpi
# The report is written below (its failure fails `make run`), not by pstlab run as well.
.venv/bin/pstlab run quick --mpi "$mpi" --out "$out" --no-report
rc=$?
# Report whatever finished, even when an experiment failed (rc 3); nothing to report if none ran.
if [[ -f $out/manifest.json ]] && compgen -G "$out/*.jsonl" >/dev/null; then
  .venv/bin/pstlab report "$out" >/dev/null || rc=$?
  # The swap sweep's own tables (per-protocol model, protocol sensitivity), as pstswm printed them.
  [[ -f $out/logs/swap-protocols.out ]] && { echo; cat "$out/logs/swap-protocols.out"; }
  echo
  .venv/bin/pstlab summary "$out"
fi
exit "$rc"
