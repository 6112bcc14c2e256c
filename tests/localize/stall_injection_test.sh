#!/usr/bin/env bash
# Stall fault injection end to end: `scalefuzz run` on configs/scenarios/
# stall_ring.yaml (4 runs at 4 ranks), then checks that every stall fired at
# the rank and call the run's seed chose, that the PDG named exactly that rank
# in every run (the stall evaluation), that the expected hangs keep the
# campaign green (exit 0, JUnit without failures), and that
# `scalefuzz exec --stall` replays one.
# Usage: stall_injection_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail
"$scalefuzz" run "$src/configs/scenarios/stall_ring.yaml" --out "$work/ring" >"$work/ring.log" 2>&1
rc=$?
[ $rc = 0 ] && echo "ok:   campaign exits 0" || { echo "FAIL: campaign exits $rc"; tail -20 "$work/ring.log"; fail=1; }
f=$work/ring/findings.json
[ -f "$f" ] || { echo "FAIL: no $f"; exit 1; }
check "$f" "4 stalls injected, 4 fired, accuracy and precision 1" \
  '[.findings[] | select(.kind=="stall-evaluation") | .details] | length==1 and .[0].injected==4 and .[0].fired==4
   and .[0].evaluated==4 and .[0].accuracy==1 and .[0].precision==1'
check "$f" "every run hung, as an informational outcome naming the stalled rank" \
  '[.findings[] | select(.detector=="outcome")] | length==4 and all(.kind=="hang" and .severity=="info" and (.details.stalled_rank|type)=="number")'
check "$f" "each run's LP task is its stalled rank" \
  '[.findings[] | select(.kind=="stall-evaluation") | .details.runs[] | .lp_tasks == [.stalled_rank]] | length==4 and all'
for d in "$work"/ring/runs/*/; do
  id=$(basename "$d")
  want=$(jq -r --arg id "$id" '.findings[] | select(.kind=="stall-evaluation") | .details.runs[] | select(.run_id==$id) | "rank \(.stalled_rank) call \(.stalled_call)"' "$f")
  got=$(cut -d' ' -f1-4 "$d/stall" 2>/dev/null)
  [ -n "$want" ] && [ "$want" = "$got" ] && echo "ok:   $id stalled at $got" || { echo "FAIL: $id marker '$got', planned '$want'"; fail=1; }
done
grep -q 'failures="0"' "$work/ring/junit.xml" && echo "ok:   junit has no failures" || { echo "FAIL: junit failures"; fail=1; }
grep -qE '^analysis: stall injection: 4 stalls injected, 4 fired, 4 hung and localized: LP-task accuracy 100.0 %' "$work/ring.log" \
  && echo "ok:   accuracy printed" || { echo "FAIL: no accuracy line"; fail=1; }

"$scalefuzz" exec --stall 2:30 --timeout 2s --out "$work/exec" -- mpiexec -n 4 "$(dirname "$scalefuzz")/scenarios/ring" \
  --iterations 50 --count 16 >"$work/exec.log" 2>&1
if [ $? = 1 ] && grep -q '^outcome: hang' "$work/exec.log" && grep -q '^stall: rank 2 at its MPI call 30: fired$' "$work/exec.log" \
   && grep -q '^rank 2 call 30 ' "$work/exec/stall"; then echo "ok:   exec --stall 2:30 hangs at rank 2"
else echo "FAIL: exec --stall"; cat "$work/exec.log"; fail=1; fi
"$scalefuzz" exec --stall 9:1 -- mpiexec -n 4 /bin/true >"$work/bad.log" 2>&1
[ $? = 2 ] && grep -q -- '--stall: expected RANK:CALL with 0 <= RANK < 4' "$work/bad.log" \
  && echo "ok:   exec --stall rejects a rank out of range" || { echo "FAIL: bad --stall"; cat "$work/bad.log"; fail=1; }
exit $fail
