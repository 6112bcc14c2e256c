#!/usr/bin/env bash
# Per-call cost of programs without one-sided calls (issue 33), side by side
# in one run: bench/injector's microbenchmark (Irecv+Isend+Waitall+Iprobe on
# self, 1 rank) and stencil (2 ranks) with a baseline injector (BASE_LIB,
# e.g. main's build) and this build's, interleaved, best of REPS; then
# callgrind's user-space instructions per call of the microbenchmark (not
# disturbed by the load of a shared machine); then guard_windows' cost per
# call (guard_cost.c: a window of 1 and 16 pages exposed, calls with and
# without touching it).
# usage: bench/rma/percall.sh BUILD_DIR BASE_LIB [BASE_BENCH_DIR]
set -euo pipefail
BUILD=${1:?build dir}
BASE=${2:?baseline libscalefuzz_inject.so}
NEW=$BUILD/injectors/libscalefuzz_inject.so
BIN=${3:-$BUILD/bench/injector}
REPS=${REPS:-5}
WORK=$(mktemp -d /tmp/scalefuzz-rma-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export MPIEXEC_TIMEOUT=600 SCALEFUZZ_OVERSUBSCRIBE=off
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores); $(date -u)"
run() {  # lib nranks key program args... -> the value after key
  local lib=$1 n=$2 key=$3; shift 3
  rm -rf "$WORK/run"
  if [[ $lib == bare ]]; then mpiexec -n "$n" "$@"
  else SCALEFUZZ_RUN_DIR=$WORK/run mpiexec -n "$n" -genv LD_PRELOAD "$lib" "$@"; fi |
    awk -v k="$key" '{for (i = 1; i < NF; ++i) if ($i == k) print $(i + 1)}'
}
min() { sort -g | head -1; }
ITERS=${ITERS:-200000}
b=(); o=(); m=()
for ((r = 0; r < REPS; ++r)); do
  b+=("$(run bare 1 seconds "$BIN/inject_microbench" $ITERS)")
  o+=("$(run "$BASE" 1 seconds "$BIN/inject_microbench" $ITERS)")
  m+=("$(run "$NEW" 1 seconds "$BIN/inject_microbench" $ITERS)")
done
awk -v b="$(printf '%s\n' "${b[@]}" | min)" -v o="$(printf '%s\n' "${o[@]}" | min)" -v m="$(printf '%s\n' "${m[@]}" | min)" \
    -v c=$((ITERS * 4)) 'BEGIN { printf "p2p microbenchmark (wall, best of runs): bare %.1f, baseline %.1f (+%.1f), this build %.1f (+%.1f) ns per call\n",
    b / c * 1e9, o / c * 1e9, (o - b) / c * 1e9, m / c * 1e9, (m - b) / c * 1e9 }'
b=(); o=(); m=()
for ((r = 0; r < REPS; ++r)); do
  b+=("$(run bare 2 seconds "$BIN/inject_stencil" 400000 "${STENCIL_ITERS:-500}")")
  o+=("$(run "$BASE" 2 seconds "$BIN/inject_stencil" 400000 "${STENCIL_ITERS:-500}")")
  m+=("$(run "$NEW" 2 seconds "$BIN/inject_stencil" 400000 "${STENCIL_ITERS:-500}")")
done
awk -v b="$(printf '%s\n' "${b[@]}" | min)" -v o="$(printf '%s\n' "${o[@]}" | min)" -v m="$(printf '%s\n' "${m[@]}" | min)" \
    'BEGIN { printf "stencil, 2 ranks (best of runs): bare %.3f s, baseline %.3f s (%.3fx), this build %.3f s (%.3fx)\n", b, o, o / b, m, m / b }'
if command -v valgrind >/dev/null; then
  ir() {  # lib iterations -> user-space instructions
    local out=$WORK/cg.out; rm -rf "$WORK/run"
    SCALEFUZZ_TRACE_ENCODING=raw SCALEFUZZ_RUN_DIR=$WORK/run mpiexec -n 1 -genv LD_PRELOAD "$1" \
      valgrind --tool=callgrind --callgrind-out-file="$out" "$BIN/inject_microbench" "$2" >/dev/null 2>&1
    awk '/^summary:|^totals:/ {print $2; exit}' "$out"
  }
  o1=$(ir "$BASE" 5000); o2=$(ir "$BASE" 15000); m1=$(ir "$NEW" 5000); m2=$(ir "$NEW" 15000)
  awk -v o1="$o1" -v o2="$o2" -v m1="$m1" -v m2="$m2" 'BEGIN {
    printf "callgrind, p2p microbenchmark, per intercepted call: baseline %.1f, this build %.1f instructions\n", (o2 - o1) / 40000, (m2 - m1) / 40000 }'
fi
mpicc -O2 -o "$WORK/guard_cost" "$(dirname "$0")/guard_cost.c"
N=${GUARD_CALLS:-50000}
for threads in single threads; do
for pages in 1 16; do
  for touch in quiet touch; do
    r=(); g=()
    for ((k = 0; k < REPS; ++k)); do
      r+=("$(run "$NEW" 1 seconds "$WORK/guard_cost" $N $pages $touch $threads)")
      g+=("$(SCALEFUZZ_NOISE_GUARD_WINDOWS=1 run "$NEW" 1 seconds "$WORK/guard_cost" $N $pages $touch $threads)")
    done
    awk -v r="$(printf '%s\n' "${r[@]}" | min)" -v g="$(printf '%s\n' "${g[@]}" | min)" -v n=$N -v p=$pages -v t=$touch -v m=$threads 'BEGIN {
      printf "guard_windows%s, window of %d page(s), %s between calls: recorded %.0f, guarded %.0f ns per call (+%.0f)\n",
             m == "threads" ? " (MPI_THREAD_MULTIPLE)" : "", p, t == "touch" ? "one store" : "no access", r / n * 1e9, g / n * 1e9, (g - r) / n * 1e9 }'
  done
done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
