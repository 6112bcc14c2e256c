#!/usr/bin/env bash
# End-to-end Vrisha: `scalefuzz run` on the three allgather scenario campaigns
# (train 4..12 ranks, test 16 and 24; one repetition), then checks of
# findings.json, report.html and `scalefuzz kcca-eval`:
#   overflow: every rank of both test runs flagged, localized to sf_allgather
#     in the application; cross-validated false-positive rate <= 3 %;
#   clean twin: nothing flagged, exit 0;
#   extra uncorrelated features: both test runs still flagged;
#   model reuse: a campaign with kcca.model scores the test runs with the
#     stored model and flags them again.
# Usage: vrisha_campaign_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail
run() {  # name, campaign, expected exit code, extra args
  local name=$1 campaign=$2 want=$3; shift 3
  "$scalefuzz" run "$campaign" --out "$work/$name" "$@" >"$work/$name.log" 2>&1
  local rc=$?
  if [ "$rc" = "$want" ]; then echo "ok:   $name exits $rc"; else echo "FAIL: $name exits $rc, expected $want"; tail -20 "$work/$name.log"; fail=1; fi
  [ -f "$work/$name/findings.json" ] || { echo "FAIL: no $work/$name/findings.json"; exit 1; }
}
# Every test run of the campaign is a scale-anomaly with all its ranks flagged.
all_flagged='[.findings[] | select(.detector=="outcome" or .detector=="kcca")] as $f
  | ([.findings[] | select(.detector=="kcca" and .kind=="scale-anomaly")] | length == 2)
  and ([.findings[] | select(.detector=="kcca" and .kind=="scale-anomaly") | (.ranks|length) == .details.nprocs] | all)
  and ([.findings[] | select(.detector=="kcca" and .kind=="scale-anomaly") | .details.nprocs] | sort == [16, 24])'
localized='[.findings[] | select(.detector=="kcca" and .kind=="scale-anomaly")
  | (.location | test("^sf_allgather \\(.*allgather_overflow\\.c:[0-9]+\\)$")) and .details.divergences[0].where == "application"] | all'

cfg=$src/configs/scenarios
run overflow "$cfg/vrisha_allgather_overflow.yaml" 1 --filter rep=0
f=$work/overflow/findings.json
check "$f" "overflow: every rank of the 16- and 24-rank runs flagged" "$all_flagged"
check "$f" "overflow: localized to sf_allgather in allgather_overflow.c (application)" "$localized"
check "$f" "overflow: cross-validated false-positive rate <= 3 %" \
  '[.findings[] | select(.kind=="scale-model") | .details.cross_validation.false_positive_rate <= 0.03] == [true]'
grep -E '^analysis: kcca: trained on .* cross-validated false-positive rate [0-9.]+ %' "$work/overflow.log" \
  && echo "ok:   overflow: false-positive rate printed" || { echo "FAIL: no false-positive rate in the log"; fail=1; }
[ -s "$work/overflow/kcca-model.json" ] && echo "ok:   model saved" || { echo "FAIL: no kcca-model.json"; fail=1; }
html=$work/overflow/report.html
plots=$(grep -o 'class="kcca-plot"' "$html" | wc -l)
if grep -q 'id="scale-models"' "$html" && [ "$plots" = 2 ] && grep -q 'id="kcca-table"' "$html"; then
  echo "ok:   report has the scale-models section with 2 plots"
else echo "FAIL: report scale-models section (plots: $plots)"; fail=1; fi

run clean "$cfg/vrisha_allgather_clean.yaml" 0 --filter rep=0
check "$work/clean/findings.json" "clean twin: nothing flagged, a plot per test scale" \
  '([.findings[] | select(.kind=="scale-anomaly")] | length == 0)
   and ([.findings[] | select(.kind=="scale-plot") | .details.nprocs] | sort == [16, 24])'

run noise "$cfg/vrisha_allgather_noise.yaml" 1 --filter rep=0
check "$work/noise/findings.json" "extra features: every rank of both test runs flagged" "$all_flagged"

# The next night: same campaign, the stored model, test scales only.
sed 's/^detectors: \[kcca\]$/detectors: [kcca]\nkcca: {model: MODEL}/' "$cfg/vrisha_allgather_overflow.yaml" \
  | sed "s|MODEL|$work/overflow/kcca-model.json|" >"$work/reuse.yaml"
grep -q '^kcca: {model:' "$work/reuse.yaml" || { echo "FAIL: could not write reuse.yaml"; exit 1; }
run reuse "$work/reuse.yaml" 1 --filter role=test,rep=0
f=$work/reuse/findings.json
check "$f" "reuse: stored model loaded, both test runs flagged" \
  "$all_flagged and ([.findings[] | select(.kind==\"scale-model\") | .details.model_loaded_from] == [\"$work/overflow/kcca-model.json\"])"
[ ! -e "$work/reuse/kcca-model.json" ] && echo "ok:   reuse: no new model written" || { echo "FAIL: reuse trained a model"; fail=1; }

"$scalefuzz" kcca-eval "$work/clean" --sensitivity >"$work/eval.txt" 2>&1
rc=$?
if [ $rc = 0 ] && grep -qE '^cross-validation: 5 folds by scale: false-positive rate [0-9.]+ %' "$work/eval.txt" \
   && grep -qE '^  N_comps:( +[0-9]+=[0-9.]+ %){10}$' "$work/eval.txt" \
   && grep -qE '^  .*np16.*: 0 of 16 ranks flagged at 16 ranks$' "$work/eval.txt"; then
  echo "ok:   kcca-eval prints the cross-validation, the test runs and Table 1"
else echo "FAIL: kcca-eval (exit $rc)"; cat "$work/eval.txt"; fail=1; fi
"$scalefuzz" kcca-eval "$work/nowhere" >/dev/null 2>&1
[ $? = 2 ] && echo "ok:   kcca-eval on a missing directory exits 2" || { echo "FAIL: kcca-eval missing dir exit"; fail=1; }
exit $fail
