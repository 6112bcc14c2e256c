#!/usr/bin/env bash
# A hang caught by the task's own watchdog (stacks of every rank) and a hang
# caught only by SLURM's time limit (TIMEOUT, ~80-90 s: SLURM counts whole
# minutes and checks about every 30 s) are both stored as hangs.
source "$(dirname "$0")/slurm_test_lib.sh"

write_campaign() {  # $1 name, $2 harness timeout, $3 SLURM time limit
  cat >"$1.yaml" <<YAML
campaign: $1
app:
  command: ["{build}/scenarios/deadlock_cycle", "--warmup", "2"]
scales: { test: [4] }
timeout: $2
detectors: [mpipd, pdg]
scheduler: { type: slurm, time: "$3" }
YAML
}
write_campaign watchdog_hang 8s 5
write_campaign slurm_timeout 30m 1
"$SF" submit watchdog_hang.yaml --out watchdog >submit1.txt 2>&1
expect_eq "submit (watchdog) exits 0" "$?" 0
"$SF" submit slurm_timeout.yaml --out timeout >submit2.txt 2>&1
expect_eq "submit (time limit) exits 0" "$?" 0
expect_grep "submit warns that SLURM kills before the watchdog" 'not below scheduler.time' submit2.txt

"$SF" collect watchdog --wait --poll 500ms >collect1.txt 2>&1
expect_eq "collect (watchdog) exits 1" "$?" 1
run1=np4-none-r0
expect_eq "watchdog: stored as hang" "$(stored_outcome watchdog "$run1")" hang
python3 - watchdog/runs/$run1/outcome.json <<'PY' >stacks.txt
import json, sys
o = json.load(open(sys.argv[1]))
print(len([s for s in o.get("stacks", []) if "deadlock_cycle" in s.get("text", "") or "MPI" in s.get("text", "")]))
PY
expect_eq "watchdog: a stack for each of the 4 ranks" "$(cat stacks.txt)" 4
expect_grep "watchdog: pdg/mpipd localize the hang" '"detector": "(mpipd|pdg)"' watchdog/findings.json

start=$SECONDS
"$SF" collect timeout --wait --poll 2s >collect2.txt 2>&1
expect_eq "collect (time limit) exits 1" "$?" 1
echo "    SLURM's time limit of 1 min ended the task after ~$((SECONDS - start)) s of waiting"
expect_eq "time limit: stored as hang" "$(stored_outcome timeout "$run1")" hang
expect_grep "time limit: the detail names SLURM's TIMEOUT" "SLURM's time limit" timeout/runs/$run1/outcome.json
"$SF" status timeout >status.txt 2>&1
expect_grep "status shows TIMEOUT" ' TIMEOUT ' status.txt
finish
