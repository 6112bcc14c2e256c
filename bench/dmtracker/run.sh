#!/usr/bin/env bash
# DMTracker benches, side by side in one run:
#  (a) recording cost of data movements + allocation sites on the stencil
#      (bench/injector's inject_stencil): bare, recorded with the allocation
#      log off (SCALEFUZZ_ALLOCS=0), recorded with it on; interleaved, best of REPS
#  (a') the same under callgrind at 1 rank: instructions per iteration
#  (b) allocation cost: ns per malloc+free pair of 4 KiB, bare vs preloaded
#  (c) analysis of 10^6 chains (target < 5 s)
# usage: bench/dmtracker/run.sh [BUILD_DIR]
set -euo pipefail
BUILD=${1:-build}
LIB=$BUILD/injectors/libscalefuzz_inject.so
STENCIL=$BUILD/bench/injector/inject_stencil
CHURN=$BUILD/bench/dmtracker/dmtracker_alloc_churn
ANALYSIS=$BUILD/bench/dmtracker/dmtracker_bench
REPS=${REPS:-5}
ITERS=${STENCIL_ITERS:-500}
for f in "$LIB" "$STENCIL" "$CHURN" "$ANALYSIS"; do [[ -e $f ]] || { echo "missing $f (build first)" >&2; exit 2; }; done
RUNDIR=$(mktemp -d /tmp/scalefuzz-dmbench.XXXXXX)
trap 'rm -rf "$RUNDIR"' EXIT
export MPIEXEC_TIMEOUT=600 SCALEFUZZ_OVERSUBSCRIBE=off
min() { sort -g | head -1; }
stencil() {  # mode n -> seconds
  rm -rf "$RUNDIR/run"
  case $1 in
    bare) mpiexec -n "$2" "$STENCIL" 400000 "$ITERS" ;;
    noalloc) SCALEFUZZ_ALLOCS=0 SCALEFUZZ_RUN_DIR=$RUNDIR/run mpiexec -n "$2" -genv LD_PRELOAD "$LIB" "$STENCIL" 400000 "$ITERS" ;;
    alloc) SCALEFUZZ_RUN_DIR=$RUNDIR/run mpiexec -n "$2" -genv LD_PRELOAD "$LIB" "$STENCIL" 400000 "$ITERS" ;;
  esac | awk '{print $2}'
}
echo "== (a) stencil, $ITERS iterations, best of $REPS (interleaved)"
for n in 2 4; do
  b=(); o=(); a=()
  for ((r = 0; r < REPS; ++r)); do b+=("$(stencil bare $n)"); o+=("$(stencil noalloc $n)"); a+=("$(stencil alloc $n)"); done
  awk -v n=$n -v b="$(printf '%s\n' "${b[@]}" | min)" -v o="$(printf '%s\n' "${o[@]}" | min)" \
      -v a="$(printf '%s\n' "${a[@]}" | min)" 'BEGIN {
    printf "%d ranks: bare %.3f s, recorded (allocation log off) %.3f s, recorded (on) %.3f s; on/bare %.3fx (target <= 1.05x), on/off %.3fx\n",
      n, b, o, a, a / b, a / o }'
done
echo "== (a') the stencil under callgrind, 1 rank: instructions per iteration (40 minus 20 iterations; load-independent)"
if command -v valgrind >/dev/null; then
  stencil_irefs() {  # mode iterations -> instructions of the run
    local pre=()
    case $1 in
      noalloc) pre=(-genv LD_PRELOAD "$LIB" -genv SCALEFUZZ_ALLOCS 0 -genv SCALEFUZZ_RUN_DIR "$RUNDIR/cgrun") ;;
      alloc) pre=(-genv LD_PRELOAD "$LIB" -genv SCALEFUZZ_RUN_DIR "$RUNDIR/cgrun") ;;
    esac
    rm -rf "$RUNDIR/cgrun"
    mpiexec -n 1 "${pre[@]}" valgrind --tool=callgrind --callgrind-out-file="$RUNDIR/cgst.out" "$STENCIL" 400000 "$2" 2>&1 >/dev/null |
      awk '/Collected/ {print $NF}'
  }
  for mode in bare noalloc alloc; do
    a=$(stencil_irefs $mode 20); b=$(stencil_irefs $mode 40)
    eval "it_$mode=$(( (b - a) / 20 ))"
  done
  awk -v b="$it_bare" -v o="$it_noalloc" -v a="$it_alloc" 'BEGIN {
    printf "bare %d, recorded (allocation log off) %d, recorded (on) %d instructions per iteration: on/bare %.4fx, off/bare %.4fx\n", b, o, a, a / b, o / b }'
fi
echo "== (b) malloc+free pairs of 4 KiB, ns per pair, best of $REPS"
bare=(); on=(); off=()
for ((r = 0; r < REPS; ++r)); do
  bare+=("$(mpiexec -n 1 "$CHURN" 2000000 4096 | awk '{print $2}')")
  rm -rf "$RUNDIR/run"; on+=("$(SCALEFUZZ_RUN_DIR=$RUNDIR/run mpiexec -n 1 -genv LD_PRELOAD "$LIB" "$CHURN" 2000000 4096 | awk '{print $2}')")
  rm -rf "$RUNDIR/run"; off+=("$(SCALEFUZZ_ALLOCS=0 SCALEFUZZ_RUN_DIR=$RUNDIR/run mpiexec -n 1 -genv LD_PRELOAD "$LIB" "$CHURN" 2000000 4096 | awk '{print $2}')")
done
awk -v b="$(printf '%s\n' "${bare[@]}" | min)" -v a="$(printf '%s\n' "${on[@]}" | min)" -v o="$(printf '%s\n' "${off[@]}" | min)" 'BEGIN {
  printf "bare %.1f ns, preloaded with the allocation log off %.1f ns, on %.1f ns: +%.1f ns per pair for recording\n", b, o, a, a - o }'
echo "== (b') the same under callgrind: instructions per malloc+free pair (stable on a shared machine)"
if command -v valgrind >/dev/null; then
  irefs() {  # mode pairs
    local pre=()
    case $1 in off) pre=(LD_PRELOAD=$LIB SCALEFUZZ_ALLOCS=0 SCALEFUZZ_RUN_DIR=$RUNDIR/cg) ;; on) pre=(LD_PRELOAD=$LIB SCALEFUZZ_RUN_DIR=$RUNDIR/cg) ;; esac
    rm -rf "$RUNDIR/cg"
    env "${pre[@]}" valgrind --tool=callgrind --callgrind-out-file="$RUNDIR/cg.out" "$CHURN" "$2" 4096 2>&1 |
      awk '/Collected/ {print $NF}'
  }
  for mode in bare off on; do
    a=$(irefs $mode 20000); b=$(irefs $mode 40000)
    eval "ir_$mode=$(( (b - a) / 20000 ))"
  done
  echo "bare $ir_bare, allocation log off $ir_off (+$((ir_off - ir_bare))), on $ir_on (+$((ir_on - ir_bare))) instructions per pair"
fi
echo "== (c) analysis of 10^6 chains"
"$ANALYSIS" 1000000
