#!/usr/bin/env bash
# Does DMTracker's chain distribution help Vrisha's KCCA (kcca.chain_features)?
# Runs the project's scale-bug campaigns (configs/scenarios/vrisha_allgather_*:
# the 32-bit algorithm-selection overflow, the same with uncorrelated extra
# call sites, the clean twin; train 4..12 ranks, test 16 and 24) once with
# kcca: {chain_features: false} and once with true, then prints per campaign:
# features in the model, ranks flagged in the test runs, whether every flagged
# run is localized to sf_allgather, the margin (the model's correlation
# threshold minus the highest correlation of a flagged test rank: how far
# the least anomalous flagged rank is from passing), and the cross-validated
# false-positive rate on the train ranks ('scalefuzz kcca-eval', 5 folds by
# scale).
# usage: bench/dmtracker/kcca_chain_features.sh [BUILD_DIR] [WORK_DIR]
set -euo pipefail
BUILD=${1:-build}
WORK=${2:-$(mktemp -d /tmp/scalefuzz-kcca-chains.XXXXXX)}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SF=$BUILD/scalefuzz
[[ -x $SF ]] || { echo "missing $SF (build first)" >&2; exit 2; }
command -v jq >/dev/null || { echo "needs jq" >&2; exit 2; }
mkdir -p "$WORK"
printf '%-10s %-14s %8s %-26s %-11s %-7s %s\n' campaign chain_features features "test ranks flagged" localized margin "cross-validated FP rate"
for name in overflow noise clean; do
  for chains in false true; do
    out=$WORK/$name-$chains
    { cat "$SRC/configs/scenarios/vrisha_allgather_$name.yaml"; echo "kcca: { chain_features: $chains }"; } >"$WORK/$name-$chains.yaml"
    rm -rf "$out"
    rc=0
    "$SF" run "$WORK/$name-$chains.yaml" --out "$out" >"$out.log" 2>&1 || rc=$?
    [[ $rc == 0 || $rc == 1 ]] || { echo "$name/$chains: scalefuzz run exited $rc (see $out.log)" >&2; exit 3; }
    features=$(jq '.feature_keys | length' "$out/kcca-model.json")
    test_ranks=$(jq -s '[.[] | select(.scale_role=="test") | .nprocs] | add // 0' "$out"/runs/*/spec.json)
    flagged=$(jq -r --argjson n "$test_ranks" '[.findings[] | select(.detector=="kcca" and .kind=="scale-anomaly")]
      | "\([.[] | .ranks | length] | add // 0) of \($n) (\(length) runs)"' "$out/findings.json")
    localized=$(jq -r '[.findings[] | select(.detector=="kcca" and .kind=="scale-anomaly")]
      | if length == 0 then "-" else ([.[] | .location | test("^sf_allgather ")] | if all then "all" else "\(map(select(.)) | length) of \(length)" end) end' "$out/findings.json")
    margin=$(jq -r '[.findings[] | select(.detector=="kcca" and .kind=="scale-anomaly") | .details
      | .correlation_threshold - ([.scores[] | select(.flagged) | .correlation] | max)] | if length == 0 then "-" else (min * 1000 | round / 1000 | tostring) end' "$out/findings.json")
    fp=$("$SF" kcca-eval "$out" 2>/dev/null | sed -n 's/^cross-validation: .*false-positive rate \([0-9.]* %\) (\([0-9]* of [0-9]*\) ranks).*/\1 (\2)/p')
    printf '%-10s %-14s %8s %-26s %-11s %-7s %s\n' "$name" "$chains" "$features" "$flagged" "$localized" "$margin" "$fp"
  done
done
echo "(test runs: 2 repetitions at 16 and 24 ranks; runs in $WORK)"
