#!/usr/bin/env bash
# Issue 29 through SLURM: the array tasks record every run's decision log
# (ranks/N.decisions) into the run directory collect stores; collect leaves
# each run a replay.txt whose first command is the deterministic
# `scalefuzz replay RUN_DIR`, and that command, run locally, reproduces the
# SLURM run (same outcome, same bug fingerprints) with its matches forced.
# The program: replay_master_worker (scenarios/replay), whose failing runs
# depend on which worker's result MPI_ANY_SOURCE takes first.
source "$(dirname "$0")/slurm_test_lib.sh"

cat >replay_slurm.yaml <<YAML
campaign: replay_slurm
app:
  command: ["{build}/scenarios/replay_master_worker", "--tasks", "24", "{variant}"]
  check: { stderr-regex: "wrong result" }
scales: [4]
parameters: { variant: ["--bug", "--safe"] }
noise: [ { mode: none } ]
repetitions: 2
timeout: 60s
detectors: [races]
scheduler: { type: slurm, time: "10", max_parallel: 2 }
YAML

"$SF" submit replay_slurm.yaml --out slurm_out >submit.txt 2>&1
expect_eq "submit exits 0" "$?" 0
"$SF" collect slurm_out --wait --poll 500ms >collect.txt 2>&1
status=$?
[[ $status -eq 0 || $status -eq 1 ]] && ok "collect --wait exits $status" || { bad "collect exited $status"; cat collect.txt; }
expect_eq "4 runs stored" "$(sqlite3 slurm_out/scalefuzz.db "SELECT count(*) FROM runs")" 4
expect_eq "no run lost to the infrastructure" \
  "$(sqlite3 slurm_out/scalefuzz.db "SELECT count(*) FROM runs WHERE outcome IN ('infrastructure', 'launch-error', 'cancelled')")" 0

failing=0
for run_dir in "$PWD"/slurm_out/runs/*/; do
  run_dir="${run_dir%/}"
  id="$(basename "$run_dir")"
  ls "$run_dir"/ranks/{0,1,2,3}.decisions >/dev/null 2>&1 && ok "$id: the task recorded every rank's decision log" ||
    bad "$id: decision logs missing: $(ls "$run_dir/ranks" 2>&1 | tr '\n' ' ')"
  first="$(grep -v '^#' "$run_dir/replay.txt" 2>/dev/null | head -n 1)"
  expect_eq "$id: replay.txt's first command is the exact replay" "$first" "$SF replay $run_dir"
  grep -q -- " exec --noise none " "$run_dir/replay.txt" && ok "$id: the seed-and-noise line follows" ||
    bad "$id: no seed-and-noise line in replay.txt"
  kind="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kind"])' "$run_dir/outcome.json")"
  [[ $kind != ok ]] && failing=$((failing + 1))
  # The first command as replay.txt gives it (the path needs no quoting here), run locally.
  "$SF" replay "$run_dir" --times 2 >"$id.replay.txt" 2>&1
  expect_eq "$id: scalefuzz replay of the SLURM run exits 0" "$?" 0
  expect_grep "$id: replayed locally, reproduced 2/2 (outcome $kind)" "^reproduced 2/2 \\(outcome $kind" "$id.replay.txt"
  ! grep -q diverged "$id.replay.txt" && ok "$id: no divergence" || bad "$id: diverged: $(grep diverged "$id.replay.txt" | head -n 2)"
done
((failing > 0)) && ok "$failing of the --bug runs failed through SLURM (and replayed as failures)" ||
  echo "note: no --bug run failed through SLURM this time; the replays above reproduced passing runs"
# The same replay through SLURM: `replay --submit` runs it as a batch job in
# its own allocation; the job's output holds the verdict.
one="$(ls -d "$PWD"/slurm_out/runs/*/ | head -n 1)"
one="${one%/}"
"$SF" replay "$one" --times 2 --submit >replay_submit.txt 2>&1
expect_eq "replay --submit exits 0" "$?" 0
job="$(sed -n 's/^submitted replay job \([0-9]*\) .*/\1/p' replay_submit.txt)"
[[ -n $job ]] && ok "replay job $job submitted" || { bad "no job id: $(cat replay_submit.txt)"; }
out="$one/replays/slurm-$job.out"
for _ in $(seq 1 240); do
  grep -q '^reproduced ' "$out" 2>/dev/null && break
  sleep 0.5
done
kind="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kind"])' "$one/outcome.json")"
expect_grep "the SLURM replay job reproduced the run 2/2 (outcome $kind)" "^reproduced 2/2 \\(outcome $kind" "$out"
# The report offers the same command first.
expect_grep "junit.xml carries the exact replay" "$SF replay $PWD/slurm_out/runs/" slurm_out/junit.xml
finish
