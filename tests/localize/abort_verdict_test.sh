#!/usr/bin/env bash
# An abort is the aborting rank's own verdict (issue 35): `scalefuzz run` of
# the task farm whose worker finds a corrupt task and calls MPI_Abort while
# the master waits in a wildcard receive and the other workers wait for
# tasks (configs/scenarios/mpipd_task_farm_abort.yaml, 10 runs of the bug,
# 10 of the correct twin). In every aborted run:
#   the outcome names the aborting rank R;
#   MPI-PD: exactly one finding, calculation-fault, ranks [R], located at
#     the MPI_Abort call of task_farm_abort.c (not a deadlock, not the
#     master's wildcard receive);
#   PDG: exactly one finding, aborted-task, ranks [R], at the same call.
# The twin's runs are ok with no MPI-PD or PDG finding.
# Usage: abort_verdict_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, campaign_findings, $fail

campaign_findings "$scalefuzz" "$src/configs/scenarios/mpipd_task_farm_abort.yaml" "$work/out"
abort_line=$(grep -n 'MPI_Abort(MPI_COMM_WORLD, 3);' "$src/scenarios/mpipd/task_farm_abort.c" | cut -d: -f1)

ids=$(jq -r '[.findings[] | select(.detector=="outcome" and .kind=="mpi-abort") | .run_id] | .[]' "$f")
n=$(echo "$ids" | grep -c . || true)
[ "$n" = 10 ] || { echo "FAIL: $n of 10 runs of the bug ended in mpi-abort"; fail=1; }
good=0
for id in $ids; do
  rank=$(jq -r --arg id "$id" '.findings[] | select(.run_id==$id and .detector=="outcome") | .details.detail' "$f" |
         sed -n 's/^rank \([0-9]*\) called MPI_Abort.*/\1/p')
  [ -n "$rank" ] || { echo "FAIL: $id: the outcome names no aborting rank"; fail=1; continue; }
  before=$fail
  check "$f" "$id mpipd: calculation-fault of rank $rank at task_farm_abort.c:$abort_line" \
    "[.findings[] | select(.run_id==\"$id\" and .detector==\"mpipd\")] | length==1 and .[0].kind==\"calculation-fault\" and .[0].ranks==[$rank] and (.[0].location | endswith(\"task_farm_abort.c:$abort_line)\"))"
  check "$f" "$id pdg: aborted-task rank $rank at task_farm_abort.c:$abort_line" \
    "[.findings[] | select(.run_id==\"$id\" and .detector==\"pdg\")] | length==1 and .[0].kind==\"aborted-task\" and .[0].ranks==[$rank] and (.[0].location | endswith(\"task_farm_abort.c:$abort_line)\"))"
  [ $fail = "$before" ] && good=$((good + 1))
done
echo "aborted runs localized to the aborting rank and call: $good/10"
check "$f" "twin: 10 runs ok, no mpipd or pdg finding" \
  "([.findings[] | select((.run_id|test(\"fixed1\")) and (.detector==\"mpipd\" or .detector==\"pdg\" or .detector==\"outcome\"))] | length==0)"
twin_ok=$(sqlite3 "$work/out/scalefuzz.db" "select count(*) from runs where run_id like '%fixed1%' and outcome='ok'" 2>/dev/null || echo "?")
[ "$twin_ok" = 10 ] || { echo "FAIL: twin: $twin_ok of 10 runs ok"; fail=1; }
[ $fail = 0 ] || { echo "--- log"; tail -30 "$work/out.log"; }
exit $fail
