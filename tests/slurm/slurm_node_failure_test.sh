#!/usr/bin/env bash
# Killing the node (its slurmd and job steps) under a running task: SLURM
# reports NODE_FAIL, collect stores an infrastructure outcome (exit 3), not a
# lost run, and submit --resume would resubmit it.
source "$(dirname "$0")/slurm_test_lib.sh"
prefix="$(dirname "$SLURM_CONF")"

cat >nodefail.yaml <<YAML
campaign: nodefail
app:
  command: ["{build}/scenarios/deadlock_cycle", "--warmup", "1"]
scales: { test: [2] }
timeout: 300s
detectors: [mpipd]
scheduler: { type: slurm, time: "10", extra_args: ["--nodelist=sf2"] }
YAML
"$SF" submit nodefail.yaml --out out >submit.txt 2>&1
expect_eq "submit exits 0" "$?" 0
task="$(task_of_run out np2-none-r0)"
wait_task_state "$task" RUNNING 60 && ok "task $task running on $(squeue -h -j "$task" -o %N)"
sleep 2
bash "$SRC/ci/slurm-local.sh" kill-node sf2 "$prefix"
wait_task_state "$task" NODE_FAIL 90 && ok "SLURM reports NODE_FAIL"
"$SF" collect out >collect.txt 2>&1
expect_eq "collect exits 3 (infrastructure)" "$?" 3
expect_eq "stored as infrastructure" "$(stored_outcome out np2-none-r0)" infrastructure
expect_grep "the detail names NODE_FAIL" 'NODE_FAIL' out/runs/np2-none-r0/outcome.json
"$SF" submit --resume out --dry-run >resume.txt 2>&1
expect_grep "submit --resume would resubmit it" '^resubmitting 1 of 1 runs: np2-none-r0$' resume.txt
# Bring the node back for the tests after this one.
bash "$SRC/ci/slurm-local.sh" start-node sf2 "$prefix"
for ((i = 0; i < 120; i++)); do
  [[ "$(sinfo -h -n sf2 -o %t)" == idle ]] && break
  sleep 0.5
done
expect_eq "node sf2 is back" "$(sinfo -h -n sf2 -o %t)" idle
finish
