#!/usr/bin/env bash
# The most common real hang, every rank spinning in MPI_Test/MPI_Iprobe
# (configs/scenarios/poll_hang.yaml, 8 ranks, 10 s timeout): the recorder
# folds the polls, so every rank's trace stays small however long the ranks
# spin, and the harness packs what the hung ranks left raw; `scalefuzz analyze` of the hung run stays far below 1 GB; MPI-PD
# names ranks 0 and 7 (the mismatched pair), PDG reports a least-progressed
# task; the correct twin (bug -1) finishes.
# bench/poll_hang/run.sh runs the same at a 120 s timeout.
# Usage: poll_hang_test.sh SCALEFUZZ SOURCE_TREE WORK_DIR
set -u
scalefuzz=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
source "$(dirname "$0")/../check.sh"  # check FILE WHAT EXPR, $fail

"$scalefuzz" run "$src/configs/scenarios/poll_hang.yaml" --out "$work/ph" >"$work/ph.log" 2>&1
f="$work/ph/findings.json"
[ -f "$f" ] || { cat "$work/ph.log"; echo "FAIL: no $f"; exit 1; }
hang=$(jq -r '[.findings[] | select(.detector=="outcome" and .kind=="hang") | .run_id] | .[0] // ""' "$f")
[ -n "$hang" ] || { echo "FAIL: the bug run did not hang"; tail -20 "$work/ph.log"; exit 1; }
check "$f" "the correct twin finishes" \
  "[.findings[] | select(.detector==\"outcome\" and (.run_id|test(\"bug-1\")))] | length==0"
run="$work/ph/runs/$hang"
# ~10 s of polling on 8 ranks is millions of calls: folded, a few hundred records.
largest=$(stat -c %s "$run"/ranks/*.events | sort -n | tail -1)
echo "largest events file: $largest bytes"
if [ "$largest" -le 1048576 ]; then echo "ok:   every rank's events file <= 1 MiB"; else echo "FAIL: an events file has $largest bytes"; fail=1; fi
# Hung ranks never reach MPI_Finalize, where the injector packs its files:
# the harness packs them after the run (events, Markov table, the unwritten
# slots of the sites, features and allocation log; 4.7 MB + 160 MiB sparse before).
packed=$(jq '.leftover_traces_packed.ranks // 0' "$run/outcome.json")
if [ "$packed" = 8 ]; then echo "ok:   the harness packed the 8 hung ranks' files"; else echo "FAIL: packed $packed ranks' files, not 8"; fail=1; fi
largest_rank=0
for r in 0 1 2 3 4 5 6 7; do
  b=$(cat "$run"/ranks/$r.* | wc -c); [ "$b" -gt "$largest_rank" ] && largest_rank=$b
done
echo "largest rank's files together: $largest_rank bytes"
if [ "$largest_rank" -le 1048576 ]; then echo "ok:   every rank's files <= 1 MiB together"; else echo "FAIL: a rank's files take $largest_rank bytes"; fail=1; fi
/usr/bin/time -f "%M" -o "$work/analyze.kb" "$scalefuzz" analyze "$run" >"$work/analyze.log" 2>&1
kb=$(tail -1 "$work/analyze.kb")
echo "analyze peak memory: $kb kB"
if [ "$kb" -le 1048576 ]; then echo "ok:   analyze peak memory <= 1 GB"; else echo "FAIL: analyze peak $kb kB"; fail=1; fi
# Rank 0 waits for rank 7's message of iteration 20, which rank 7 sent with tag 21.
check "$f" "mpipd: deadlock, faulty processes {0,7}" \
  "[.findings[] | select(.run_id==\"$hang\" and .detector==\"mpipd\")] | length==1 and .[0].kind==\"deadlock\" and .[0].ranks==[0,7]"
check "$f" "pdg names least-progressed tasks" \
  "[.findings[] | select(.run_id==\"$hang\" and .detector==\"pdg\" and .kind==\"lp-task\")] | length>=1"
[ $fail = 0 ] || { echo "--- log"; tail -20 "$work/ph.log"; jq -c '.findings[] | {run_id, detector, kind, ranks}' "$f"; }
exit $fail
