#!/usr/bin/env bash
# Acceptance: a campaign of 8 runs at 4 and 8 ranks goes submit -> status ->
# collect --wait on the real local SLURM and gives the same findings (kinds,
# runs, ranks, locations) as the same campaign run locally. The fixture's
# MaxArraySize of 6 splits the 8-rank runs over two arrays. The runs hang in a
# send cycle (every rank in MPI_Ssend), so the findings are deterministic: a
# crash scenario's other ranks stop at varying points, which changes the
# least-progressed sets from one run to the next even locally.
source "$(dirname "$0")/slurm_test_lib.sh"

write_campaign() {  # $1 name, $2 scheduler block
  cat >"$1.yaml" <<YAML
campaign: $1
app:
  command: ["{build}/scenarios/deadlock_cycle", "--warmup", "{warmup}"]
  check: exit-code
scales: { test: [4, 8] }
parameters: { warmup: [1, 2] }
noise: [ { mode: none } ]
repetitions: 2
timeout: 6s
detectors: [mpipd, pdg]
scheduler: $2
YAML
}
write_campaign cycle_slurm '{ type: slurm, time: "10", max_parallel: 2 }'
write_campaign cycle_local '{ type: local, jobs: 2 }'

"$SF" submit cycle_slurm.yaml --out slurm_out >submit.txt 2>&1
expect_eq "submit exits 0" "$?" 0
expect_eq "three job arrays (np4; np8 split at MaxArraySize 6)" "$(grep -c 'submitted job array' submit.txt)" 3
expect_grep "throttled to max_parallel" '--array=0-3%2' submit.txt
"$SF" status slurm_out >status.txt 2>&1
ok "status while running (exit $?): $(tail -n 1 status.txt)"
expect_grep "status lists every run with its task" 'np8-warmup2-none-r1 +[0-9]+_[0-9]+' status.txt
"$SF" collect slurm_out --wait --poll 500ms >collect.txt 2>&1
expect_eq "collect --wait exits 1 (findings)" "$?" 1
expect_eq "8 runs stored, all hung" "$(sqlite3 slurm_out/scalefuzz.db "SELECT count(*) FROM runs WHERE outcome = 'hang'")" 8
[[ -z "$(sinfo -h -R)" ]] && ok "no node drained" || bad "drained nodes: $(sinfo -h -R)"
"$SF" status slurm_out >status2.txt 2>&1
expect_eq "status after the end exits 1 (runs hung)" "$?" 1
expect_eq "every task COMPLETED" "$(grep -c ' COMPLETED ' status2.txt)" 8

"$SF" run cycle_local.yaml --out local_out >local.txt 2>&1
expect_eq "local run exits 1" "$?" 1

python3 - slurm_out/findings.json local_out/findings.json <<'PY' >compare.txt
import json, sys
def key(f):
    return (f["detector"], f["kind"], f["run_id"], tuple(sorted(f.get("ranks", []))), f.get("location", ""))
def load(p):
    j = json.load(open(p))
    return sorted(key(f) for f in (j["findings"] if isinstance(j, dict) else j))
a, b = load(sys.argv[1]), load(sys.argv[2])
print(len(a), len(b))
for k in sorted(set(a) ^ set(b)): print("differs:", k)
print("same" if a == b else "different")
PY
expect_eq "same findings through SLURM as locally" "$(tail -n 1 compare.txt)" same
head -n 1 compare.txt | sed 's/^/    findings (slurm, local): /'
grep differs compare.txt | head
expect_grep "the hang is localized to the send cycle" 'deadlock_cycle.c' slurm_out/findings.json

findings() { python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["findings"], sort_keys=True))' "$1"; }
findings slurm_out/findings.json >findings.before
"$SF" collect slurm_out >collect2.txt 2>&1
expect_eq "collect again exits 1" "$?" 1
expect_grep "collect again stores nothing new" 'collected 0 runs \(8 already collected' collect2.txt
findings slurm_out/findings.json >findings.after
cmp -s findings.before findings.after && ok "findings unchanged by collecting again" || bad "findings changed"
finish
