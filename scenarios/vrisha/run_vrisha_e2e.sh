#!/bin/sh
# End-to-end check of a Vrisha scenario without the harness: runs the variant
# under the recorder at the training scales 4..12 and the test scales 16, 24,
# then trains and scores with scalefuzz_kcca_eval.
#   run_vrisha_e2e.sh BUILD_DIR VARIANT [REPS] [EXPECT]
#   VARIANT: allgather_overflow | allgather_clean | allgather_overflow_noise
#   EXPECT (optional check, exit 1 when not met):
#     flagged — every rank of every test run flagged, localized to sf_allgather
#     clean   — no test rank flagged
set -eu
build=$1; variant=$2; reps=${3:-2}; expect=${4:-}
inject=$(find "$build/injectors" -name 'libscalefuzz_inject.so' | head -1)
eval_tool=$(find "$build/detectors/kcca" -name scalefuzz_kcca_eval -type f | head -1)
[ -n "$inject" ] && [ -n "$eval_tool" ] || { echo "build scalefuzz_inject and scalefuzz_kcca_eval first" >&2; exit 2; }
out="$build/vrisha-e2e/$variant"
rm -rf "$out"; mkdir -p "$out"
train=""; test=""
for p in 4 5 6 7 8 9 10 11 12 16 24; do
  rep=0
  while [ $rep -lt "$reps" ]; do
    dir="$out/p$p-r$rep"; mkdir -p "$dir"
    MPIEXEC_TIMEOUT=120 mpiexec -n $p -genv LD_PRELOAD "$inject" -genv SCALEFUZZ_RUN_DIR "$dir" \
      -genv SCALEFUZZ_RUN_ID "$variant-p$p-r$rep" "$build/scenarios/$variant" --seed $((p * 100 + rep)) > "$dir/stdout" 2>&1
    if [ $p -le 12 ]; then train="$train $dir"; else test="$test $dir"; fi
    rep=$((rep + 1))
  done
done
mkdir -p "$out/report"
set +e
"$eval_tool" --train $train --test $test --out "$out/report" --model "$out/report/model.json" | tee "$out/report/eval.txt"
rc=$?
set -e
[ $rc -le 1 ] || exit 2
case "$expect" in
  flagged)
    # "test <run> <N> ranks: flagged <M>, ..." must have M == N; every finding localized.
    awk '/^test / { n=$3; m=$6; sub(",", "", m); if (n != m) bad=1; runs++ }
         END { exit (bad || runs == 0) }' "$out/report/eval.txt" || { echo "FAIL: not every test rank flagged" >&2; exit 1; }
    findings=$(grep -c '^finding:' "$out/report/eval.txt" || true)
    located=$(grep -c '^finding:.*diverges in sf_allgather' "$out/report/eval.txt" || true)
    [ "$findings" -gt 0 ] && [ "$findings" = "$located" ] || { echo "FAIL: findings not localized to sf_allgather" >&2; exit 1; }
    echo "PASS: every test rank flagged and localized to sf_allgather" ;;
  clean)
    [ $rc -eq 0 ] || { echo "FAIL: clean twin flagged" >&2; exit 1; }
    echo "PASS: nothing flagged" ;;
esac
