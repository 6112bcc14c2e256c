#!/usr/bin/env bash
# Stall fault injection bench (issue 5, AutomaDeD §5.2): runs the four stall
# campaigns of this folder (105 injections at 8-16 ranks) with `scalefuzz run`
# and prints the LP-task accuracy and precision per program and overall, side
# by side for the harness's analysis (visit counts order groups in one loop)
# and the paper's §4 analysis alone (the same runs re-analysed with
# SCALEFUZZ_PDG_VISIT_COUNTS=0); then the symbolization of its hung 16-rank
# runs, addr2line per module per rank against the in-process Symbolizer.
# Usage: bench/pdg_stall/run.sh [BUILD_DIR] [OUT_DIR]     (~12 min on 2 cores)
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-"$here/../../build"}
out=${2:-"$build/bench-pdg-stall"}
scalefuzz=$build/scalefuzz
[ -x "$scalefuzz" ] || { echo "build scalefuzz first (cmake --build $build)" >&2; exit 2; }
mkdir -p "$out"
declare -A sums
fmt='%-12s %8s %6s %6s | %-22s %-22s | %-22s %-22s\n'
pct() { awk -v a="$1" -v e="$2" 'BEGIN { printf "%.1f %% (%d/%d)", e ? 100 * a / e : 0, a, e }'; }
score() {  # findings.json -> "injected fired evaluated accurate precise"
  jq -r '[.findings[] | select(.kind=="stall-evaluation") | .details][0]
    | "\(.injected) \(.fired) \(.evaluated) \(.accurate) \(.precise)"' "$1"
}
printf "$fmt" program injected fired hung "accuracy" "precision" "accuracy, paper only" "precision, paper only"
for prog in ring stencil2d allgather ninja_case2; do
  rm -rf "${out:?}/$prog" "${out:?}/$prog-paper"
  "$scalefuzz" run "$here/$prog.yaml" --out "$out/$prog" >"$out/$prog.log" 2>&1
  rc=$?
  if [ $rc -gt 1 ] || [ ! -f "$out/$prog/findings.json" ]; then
    echo "$prog: scalefuzz run failed (exit $rc), see $out/$prog.log" >&2; exit 1
  fi
  cp -r "$out/$prog" "$out/$prog-paper"
  SCALEFUZZ_PDG_VISIT_COUNTS=0 "$scalefuzz" analyze "$out/$prog-paper" >"$out/$prog-paper.log" 2>&1
  read -r i f e a p <<<"$(score "$out/$prog/findings.json")"
  read -r _ _ e0 a0 p0 <<<"$(score "$out/$prog-paper/findings.json")"
  printf "$fmt" "$prog" "$i" "$f" "$e" "$(pct "$a" "$e")" "$(pct "$p" "$e")" "$(pct "$a0" "$e0")" "$(pct "$p0" "$e0")"
  for k in i f e a p e0 a0 p0; do sums[$k]=$(( ${sums[$k]:-0} + ${!k} )); done
done
printf "$fmt" all "${sums[i]}" "${sums[f]}" "${sums[e]}" "$(pct "${sums[a]}" "${sums[e]}")" "$(pct "${sums[p]}" "${sums[e]}")" \
  "$(pct "${sums[a0]}" "${sums[e0]}")" "$(pct "${sums[p0]}" "${sums[e0]}")"
echo "targets (AutomaDeD's reported figures): accuracy >= 95 %, precision >= 90 % over >= 100 injections"

# Symbolization of the hung 16-rank runs (issue 13): addr2line per module per
# rank, as the analysis did, against the in-process libdw Symbolizer.
hung16=()
for d in "$out"/{ring,stencil2d,allgather,ninja_case2}/runs/np16-*; do
  [ -f "$d/outcome.json" ] && [ "$(jq -r .kind "$d/outcome.json")" = hang ] && hung16+=("$d")
done
if [ ${#hung16[@]} -gt 0 ] && [ -x "$build/bench/symbolize/symbolize_bench" ]; then
  "$build/bench/symbolize/symbolize_bench" "${hung16[@]}"
fi
