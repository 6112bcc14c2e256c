#!/usr/bin/env bash
# Per-call cost under both MPIs side by side (issue 31): section (a)'s
# microbenchmark (p2p, 1 rank, 200,000 iterations = 800,000 intercepted
# calls), bare and recorded, MPICH (mpiexec, libscalefuzz_inject.so) and
# Open MPI (mpirun.openmpi, libscalefuzz_inject_openmpi.so), best of REPS.
# usage: bench/injector/openmpi_cost.sh [BUILD_DIR]
# (build the inject_microbench and openmpi_inject_microbench targets first)
set -euo pipefail
BUILD=${1:-build}
REPS=${REPS:-5}
ITERS=200000
for f in "$BUILD/injectors/libscalefuzz_inject.so" "$BUILD/injectors/libscalefuzz_inject_openmpi.so" \
         "$BUILD/bench/injector/inject_microbench" "$BUILD/bench/injector/openmpi_inject_microbench"; do
  [[ -e $f ]] || { echo "missing $f (build the bench targets first; Open MPI: libopenmpi-dev)" >&2; exit 2; }
done
RUNDIR=$(mktemp -d /tmp/scalefuzz-bench.XXXXXX)
trap 'rm -rf "$RUNDIR"' EXIT
root=()
[[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
value() { awk -v k="$1" '{for (i = 1; i < NF; ++i) if ($i == k) print $(i + 1)}'; }
run() {  # mpich|openmpi bare|rec: the seconds line of one run
  rm -rf "$RUNDIR/run"
  local lib
  if [[ $1 == mpich ]]; then
    lib=$BUILD/injectors/libscalefuzz_inject.so
    if [[ $2 == bare ]]; then mpiexec -n 1 "$BUILD/bench/injector/inject_microbench" $ITERS p2p
    else SCALEFUZZ_OVERSUBSCRIBE=off SCALEFUZZ_RUN_DIR=$RUNDIR/run mpiexec -n 1 -genv LD_PRELOAD "$lib" \
           "$BUILD/bench/injector/inject_microbench" $ITERS p2p; fi
  else
    lib=$BUILD/injectors/libscalefuzz_inject_openmpi.so
    if [[ $2 == bare ]]; then mpirun.openmpi -np 1 "${root[@]}" "$BUILD/bench/injector/openmpi_inject_microbench" $ITERS p2p
    else mpirun.openmpi -np 1 "${root[@]}" -x SCALEFUZZ_OVERSUBSCRIBE=off -x "SCALEFUZZ_RUN_DIR=$RUNDIR/run" \
           -x "LD_PRELOAD=$lib" "$BUILD/bench/injector/openmpi_inject_microbench" $ITERS p2p; fi
  fi
}
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
echo "MPI       bare ns/call  recorded ns/call  added ns/call"
for mpi in mpich openmpi; do
  bare=() rec=() calls=0
  for ((r = 0; r < REPS; ++r)); do  # alternating, so load drifts hit both alike
    out=$(run $mpi bare); bare+=("$(echo "$out" | value seconds)"); calls=$(echo "$out" | value calls)
    rec+=("$(run $mpi rec | value seconds)")
  done
  b=$(printf '%s\n' "${bare[@]}" | sort -g | head -1)
  c=$(printf '%s\n' "${rec[@]}" | sort -g | head -1)
  awk -v m=$mpi -v b="$b" -v c="$c" -v n="$calls" \
    'BEGIN { printf "%-9s %12.1f  %16.1f  %13.1f\n", m, b * 1e9 / n, c * 1e9 / n, (c - b) * 1e9 / n }'
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
