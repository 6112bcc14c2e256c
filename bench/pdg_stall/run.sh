#!/usr/bin/env bash
# Stall fault injection bench (issue 5, AutomaDeD §5.2): runs the four stall
# campaigns of this folder (105 injections at 8-16 ranks) with `scalefuzz run`
# and prints the LP-task accuracy and precision per program and overall.
# Usage: bench/pdg_stall/run.sh [BUILD_DIR] [OUT_DIR]     (~10 min on 2 cores)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../../build"}
out=${2:-"$build/bench-pdg-stall"}
scalefuzz=$build/scalefuzz
[ -x "$scalefuzz" ] || { echo "build scalefuzz first (cmake --build $build)" >&2; exit 2; }
mkdir -p "$out"
printf '%-12s %9s %6s %9s %9s %10s %10s %7s\n' program injected fired evaluated accurate precise accuracy precision
tot_e=0 tot_a=0 tot_p=0 tot_i=0 tot_f=0
for prog in ring stencil2d allgather ninja_case2; do
  rm -rf "${out:?}/$prog"
  "$scalefuzz" run "$here/$prog.yaml" --out "$out/$prog" >"$out/$prog.log" 2>&1
  rc=$?
  f=$out/$prog/findings.json
  if [ $rc -gt 1 ] || [ ! -f "$f" ]; then echo "$prog: scalefuzz run failed (exit $rc), see $out/$prog.log" >&2; exit 1; fi
  read -r i fi e a p <<<"$(jq -r '[.findings[] | select(.kind=="stall-evaluation") | .details][0]
    | "\(.injected) \(.fired) \(.evaluated) \(.accurate) \(.precise)"' "$f")"
  acc=$(awk -v a="$a" -v e="$e" 'BEGIN { printf "%.1f %%", e ? 100 * a / e : 0 }')
  pre=$(awk -v p="$p" -v e="$e" 'BEGIN { printf "%.1f %%", e ? 100 * p / e : 0 }')
  printf '%-12s %9s %6s %9s %9s %10s %10s %7s\n' "$prog" "$i" "$fi" "$e" "$a" "$p" "$acc" "$pre"
  tot_i=$((tot_i + i)) tot_f=$((tot_f + fi)) tot_e=$((tot_e + e)) tot_a=$((tot_a + a)) tot_p=$((tot_p + p))
done
acc=$(awk -v a="$tot_a" -v e="$tot_e" 'BEGIN { printf "%.1f %%", e ? 100 * a / e : 0 }')
pre=$(awk -v p="$tot_p" -v e="$tot_e" 'BEGIN { printf "%.1f %%", e ? 100 * p / e : 0 }')
printf '%-12s %9s %6s %9s %9s %10s %10s %7s\n' all "$tot_i" "$tot_f" "$tot_e" "$tot_a" "$tot_p" "$acc" "$pre"
echo "targets (AutomaDeD's reported figures): accuracy >= 95 %, precision >= 90 % over >= 100 injections"
