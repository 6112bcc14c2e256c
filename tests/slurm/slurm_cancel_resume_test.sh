#!/usr/bin/env bash
# scancel of one array task: collect stores it as cancelled (exit 3), and
# `submit --resume` resubmits exactly that run; the others are kept.
source "$(dirname "$0")/slurm_test_lib.sh"

cat >cancel.yaml <<YAML
campaign: cancel
app:
  command: ["{build}/scenarios/deadlock_cycle", "--warmup", "{warmup}"]
scales: { test: [2] }
parameters: { warmup: [1, 2, 3] }
timeout: 10s
detectors: [mpipd]
scheduler: { type: slurm, time: "5" }
YAML
"$SF" submit cancel.yaml --out out >submit.txt 2>&1
expect_eq "submit exits 0" "$?" 0
victim=np2-warmup2-none-r0
task="$(task_of_run out $victim)"
wait_task_state "$task" RUNNING 60 && ok "task $task of $victim is running"
scancel "$task"
wait_task_state "$task" CANCELLED 30 && ok "scancel $task: CANCELLED"
"$SF" collect out --wait --poll 500ms >collect1.txt 2>&1
expect_eq "collect exits 1 (the other runs hung; a cancelled run is no finding)" "$?" 1
expect_eq "the cancelled run is stored as cancelled" "$(stored_outcome out $victim)" cancelled
expect_eq "the others hung (watchdog)" "$(sqlite3 out/scalefuzz.db "SELECT count(*) FROM runs WHERE outcome = 'hang'")" 2
expect_grep "collect says how to resubmit" 'submit --resume' collect1.txt
"$SF" status out >status.txt 2>&1
expect_eq "status exits 1 (hangs)" "$?" 1
expect_grep "status shows the task CANCELLED" "$victim +$task +CANCELLED" status.txt

"$SF" submit --resume out >resume.txt 2>&1
expect_eq "submit --resume exits 0" "$?" 0
expect_grep "resubmits exactly the cancelled run" "^resubmitting 1 of 3 runs: $victim\$" resume.txt
"$SF" collect out --wait --poll 500ms >collect2.txt 2>&1
expect_eq "collect after the rerun exits 1 (hangs found)" "$?" 1
expect_grep "only the rerun is collected" 'collected 1 runs \(2 already collected' collect2.txt
expect_eq "the rerun hung like the others" "$(stored_outcome out $victim)" hang
"$SF" submit --resume out >resume2.txt 2>&1
expect_grep "nothing left to resubmit" 'nothing to resubmit' resume2.txt
finish
