#!/usr/bin/env bash
# Issue 37, end to end: a correct dense linear-algebra code whose library
# (libsf_pblas.so) switches from a binomial to a ring broadcast past 5 ranks
# (configs/scenarios/vrisha_dense_panel_bcast.yaml: train 2..5, test 6 and 8).
#   kcca.library_sites: entry (the default): no kcca error or warning, the
#     new call paths inside the library reported as info naming the library
#     and the application's call into it; cross-validated FPR <= 3 %;
#   the same runs analysed with library_sites: stack (the paper's keying):
#     test runs at 6 and 8 ranks flagged scale-anomaly -- what the production code of
#     issue 37 hit, and what the first check would show without the change.
# Usage: dense_panel_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail
out=$work/entry
"$scalefuzz" run "$src/configs/scenarios/vrisha_dense_panel_bcast.yaml" --out "$out" --filter rep=0 >"$work/entry.log" 2>&1
rc=$?
if [ "$rc" = 0 ]; then echo "ok:   entry: exits 0"; else echo "FAIL: entry: exits $rc, expected 0"; tail -30 "$work/entry.log"; fail=1; fi
f=$out/findings.json
[ -f "$f" ] || { echo "FAIL: no $f"; exit 1; }
check "$f" "entry: every run ok" '[.findings[] | select(.detector=="outcome")] | length == 0'
check "$f" "entry: no kcca error or warning" '[.findings[] | select(.detector=="kcca" and .severity!="info")] | length == 0'
check "$f" "entry: a plot per test scale, nothing off the trend" \
  '([.findings[] | select(.kind=="scale-plot") | .details.nprocs] | sort == [6, 8])
   and ([.findings[] | select(.kind=="scale-model") | .details.test_runs_flagged] == [0])'
check "$f" "entry: new library call paths of the 4 test runs reported as info naming libsf_pblas.so and factor_sweep" \
  '([.findings[] | select(.kind=="scale-new-library-sites")] | length == 4)
   and ([.findings[] | select(.kind=="scale-new-library-sites") | .severity == "info" and (.details.library | test("^libsf_pblas\\.so"))
         and (.location | test("^factor_sweep \\(.*dense_panel_bcast\\.c:[0-9]+\\)$"))] | all)
   and ([.findings[] | select(.kind=="scale-new-library-sites") | .details.nprocs] | sort == [6, 6, 8, 8])'
check "$f" "entry: cross-validated false-positive rate <= 3 %" \
  '[.findings[] | select(.kind=="scale-model") | .details.cross_validation.false_positive_rate <= 0.03] == [true]'

# The paper's keying on the same runs: every distinct stack its own feature.
cp -r "$out" "$work/stack"
sed -i 's/library_sites: entry/library_sites: stack/' "$work/stack/campaign.yaml"
grep -q 'library_sites: stack' "$work/stack/campaign.yaml" || { echo "FAIL: could not switch library_sites"; exit 1; }
"$scalefuzz" analyze "$work/stack" >"$work/stack.log" 2>&1
rc=$?
[ "$rc" = 1 ] && echo "ok:   stack: exits 1 (findings)" || { echo "FAIL: stack: exits $rc, expected 1"; tail -20 "$work/stack.log"; fail=1; }
check "$work/stack/findings.json" "stack: test runs at 6 and 8 ranks flagged scale-anomaly in sf_pbcast (the switch looks like a bug)" \
  '([.findings[] | select(.kind=="scale-anomaly") | .details.nprocs] | unique == [6, 8])
   and ([.findings[] | select(.kind=="scale-anomaly") | .location | test("^sf_pbcast ")] | all)'
exit $fail
