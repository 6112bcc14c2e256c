#!/usr/bin/env bash
# Issue 34 items 1 and 9: the shipped SLURM example (configs/slurm-ring.yaml:
# configs/scenarios/ring.yaml, with its stdout-must-match check, under a SLURM
# scheduler) submitted as it is gives the same outcomes through the real
# local SLURM as ring.yaml locally: every run ok, exit 0.
# (The must-match regex was lost on the way to the array tasks: 12/12 runs
# were launch errors, exit 1.) `run` of it says to use `scalefuzz submit`.
source "$(dirname "$0")/slurm_test_lib.sh"
example="$SRC/configs/slurm-ring.yaml"

"$SF" run "$example" --out refused >run.txt 2>&1
expect_eq "run of a SLURM campaign exits 2" "$?" 2
expect_grep "run says to use scalefuzz submit" "is for 'scalefuzz submit" run.txt

"$SF" submit "$example" --out slurm_out >submit.txt 2>&1
expect_eq "submit of the shipped example as-is exits 0" "$?" 0
"$SF" collect slurm_out --wait --poll 500ms >collect.txt 2>&1
expect_eq "collect --wait exits 0 (every run ok)" "$?" 0
total="$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' slurm_out/slurm/runs.json)"
expect_eq "runs.json keeps the must-match regex" \
  "$(python3 -c 'import json,sys; print(sum(1 for r in json.load(open(sys.argv[1])) if r.get("expected_stdout_regex") == "^ring: OK ranks="))' slurm_out/slurm/runs.json)" "$total"
expect_eq "all $total runs ok through SLURM" "$(sqlite3 slurm_out/scalefuzz.db "SELECT count(*) FROM runs WHERE outcome = 'ok'")" "$total"
[[ -z "$(sinfo -h -R)" ]] && ok "no node drained" || bad "drained nodes: $(sinfo -h -R)"

# The shipped ring campaign locally: the same runs, the same outcomes.
diff <(grep -v '^#' "$example" | grep -v '^scheduler:' | sed 's/^campaign: .*//') \
     <(grep -v '^#' "$SRC/configs/scenarios/ring.yaml" | grep -v '^scheduler:' | sed 's/^campaign: .*//') >example.diff &&
  ok "the example is configs/scenarios/ring.yaml but for its scheduler" ||
  { bad "the example drifted from configs/scenarios/ring.yaml:"; cat example.diff; }
"$SF" run "$SRC/configs/scenarios/ring.yaml" --out local_out >local.txt 2>&1
expect_eq "configs/scenarios/ring.yaml locally exits 0" "$?" 0
q="SELECT run_id || ' ' || outcome FROM runs ORDER BY run_id"
if [[ "$(sqlite3 slurm_out/scalefuzz.db "$q")" == "$(sqlite3 local_out/scalefuzz.db "$q")" ]]; then
  ok "same run ids and outcomes through SLURM as locally"
else
  bad "outcomes differ:"; diff <(sqlite3 slurm_out/scalefuzz.db "$q") <(sqlite3 local_out/scalefuzz.db "$q") | head
fi
finish
