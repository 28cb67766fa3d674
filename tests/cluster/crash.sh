#!/usr/bin/env bash
# pstlab run --launcher srun killed (SIGKILL) inside a seeded launch and resumed once on the emulated
# cluster (tests/crash-resume.py): the srun steps of the killed run end, the resume finishes.
#   crash.sh MPI PSTSWM DIR
set -uo pipefail
source "$(dirname "$0")/lib.sh"
mpi=$1 pstswm=$2 dir=$3
rm -rf "$dir"
need_cluster 2
"$root/.venv/bin/python" "$root/tests/crash-resume.py" --suite "$root/tests/crash.toml" --pstlab "$root/.venv/bin/pstlab" \
  --work "$dir" --signal KILL --random 1 --seed 57 --in-launch 3 -- --mpi "$mpi" --pstswm "$pstswm" \
  --launcher 'srun -N 2 -n {n}' || fail "a kill point of pstlab run --launcher srun"
