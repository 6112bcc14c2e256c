#!/usr/bin/env bash
# End-to-end hang/crash localization: `scalefuzz run` on MPI-PD scenario
# campaigns (real mpiexec + injector), then checks of findings.json:
#   writer nomination at 6 and 8 ranks (the scales that hang): MPI-PD
#     deadlock with faulty {2,5}; PDG least-progressed tasks exactly {2,5},
#     each with a symbolized code location in writer_nomination.c;
#   early exit at 3 and 4 ranks: finalize 1 -> non-occurred event, faulty
#     {0, n-1}; finalize 0 -> calculation fault, faulty {n-1}.
# Usage: localize_scenarios_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail

# run_campaign NAME CONFIG FILTER: configs/scenarios/CONFIG.yaml into
# $work/NAME; f is its findings.json (the test ends when there is none).
run_campaign() {
  "$scalefuzz" run "$src/configs/scenarios/$2.yaml" --out "$work/$1" --filter "$3" >"$work/$1.log" 2>&1
  f="$work/$1/findings.json"
  [ -f "$f" ] || { cat "$work/$1.log"; echo "FAIL: no $f"; exit 1; }
}

run_campaign wn mpipd_writer_nomination 'np>=6'
# run id -> nprocs from the outcome findings of the hung runs
for np in 6 8; do
  ids=$(jq -r --argjson np "$np" '[.findings[] | select(.detector=="outcome" and .details.nprocs==$np and .kind=="hang") | .run_id] | .[]' "$f")
  [ -n "$ids" ] || { echo "FAIL: np=$np did not hang"; fail=1; continue; }
  for id in $ids; do
    check "$f" "np=$np mpipd deadlock {2,5}" \
      "[.findings[] | select(.run_id==\"$id\" and .detector==\"mpipd\")] | length==1 and .[0].kind==\"deadlock\" and .[0].ranks==[2,5] and (.[0].artifacts|map(.name)|index(\"mpipd-timeline\")) != null"
    check "$f" "np=$np pdg LP tasks {2,5}" \
      "[.findings[] | select(.run_id==\"$id\" and .detector==\"pdg\" and .kind==\"lp-task\") | .ranks[]] | sort == [2,5]"
    check "$f" "np=$np pdg LP location in writer_nomination.c with source" \
      "[.findings[] | select(.run_id==\"$id\" and .detector==\"pdg\")] | all(.details.code.file | test(\"writer_nomination.c$\")) and all(.details.code.source | length > 0)"
  done
done

run_campaign ee mpipd_early_exit 'np>=3'
for np in 3 4; do
  id=$(jq -r --arg p "np$np-finalize1-" '[.findings[] | select(.detector=="outcome" and (.run_id|startswith($p))) | .run_id][0] // ""' "$f")
  [ -n "$id" ] || { echo "FAIL: early_exit np=$np has no failed outcome"; fail=1; continue; }
  check "$f" "early_exit np=$np non-occurred-event {0,$((np-1))}" \
    "[.findings[] | select(.run_id==\"$id\" and .detector==\"mpipd\")] | length==1 and .[0].kind==\"non-occurred-event\" and .[0].ranks==[0,$((np-1))]"
  id=$(jq -r --arg p "np$np-finalize0-" '[.findings[] | select(.detector=="outcome" and (.run_id|startswith($p))) | .run_id][0] // ""' "$f")
  [ -n "$id" ] || { echo "FAIL: early_exit finalize 0 np=$np has no failed outcome"; fail=1; continue; }
  check "$f" "early_exit finalize 0 np=$np calculation-fault {$((np-1))}" \
    "[.findings[] | select(.run_id==\"$id\" and .detector==\"mpipd\")] | length==1 and .[0].kind==\"calculation-fault\" and .[0].ranks==[$((np-1))]"
done
[ $fail = 0 ] || { echo "--- logs"; tail -20 "$work/wn.log" "$work/ee.log"; }
exit $fail
