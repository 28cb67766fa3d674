#!/usr/bin/env bash
# Worley 1998 Table 3 on this machine: best two-sided (mpi) vs best one-sided (rma, and shmem where
# built) SWAP bandwidth and latency at 8 KB, 128 KB and 2 MB (1024, 16384, 262144 doubles).
#
#   bench/rma-vs-mpi.sh [--mpis "openmpi mpich"] [--launches 3] [--reps 20] [--out DIR]
#
# Per MPI, one session: `pstswm swap --protocols all --sizes 8,8K,128K,2M` for every transport,
# launches interleaved (mpi, rma, ..., mpi, rma, ...) so all transports see the same machine
# state.  Per transport, protocol and size the time is the min over launches of t_min (min over
# reps); per size the best protocol is the fastest one.  BW = bytes / time (MB/s, 10^6 B, one
# direction, as swap reports it); "lat" = the same protocol's time for an 8-byte SWAP (Worley 1998:
# "typical SWAP overhead for the corresponding protocol").  Needs build/<mpi>/pstswm.
set -euo pipefail
# shellcheck source=lib/harness.sh
source "$(dirname "$0")/lib/harness.sh"
root=$bench_root mpis="openmpi mpich" launches=3 reps=20 out=''
bench_parse "mpis launches reps out" "$@"
read -ra mpi_list <<<"$mpis"
bench_positive launches reps
out=${out:-$(mktemp -d /tmp/rma-vs-mpi.XXXXXX)}
mkdir -p "$out"
for mpi in "${mpi_list[@]}"; do
  bench_choice mpi openmpi mpich
  bench_need_build "$root/build/$mpi" pstswm
done
bench_context "$root/build/${mpi_list[0]}/pstswm" "$out/$bench_name.context.json"

for mpi in "${mpi_list[@]}"; do
  exe=$root/build/$mpi/pstswm
  # The transports this build has, from the error message listing them.
  list=$("$root/scripts/pstrun" --mpi "$mpi" -n 2 "$exe" swap --transport '?' 2>&1 | sed -n 's/.*(allowed: \(.*\)).*/\1/p' || true)
  [[ -n $list ]] || bench_fail "cannot list the transports of $exe"
  transports=${list//,/}
  echo "== $mpi: transports $transports, $launches launches, $reps reps" >&2
  for ((i = 1; i <= launches; i++)); do
    for t in $transports; do
      "$root/scripts/pstrun" --mpi "$mpi" -n 2 "$exe" swap --transport "$t" --protocols all \
        --sizes 8,8K,128K,2M --reps "$reps" --warmup 2 --out "$out/$mpi-$t-$i.jsonl" >/dev/null
    done
  done
done

bench_py rma_vs_mpi "$out" "${mpi_list[@]}"
