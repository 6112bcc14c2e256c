# Sourced by the SLURM end-to-end tests: `script SCALEFUZZ SOURCE_DIR WORK_DIR`.
# They run against the private SLURM the `slurm` ctest fixture starts
# (ci/slurm-local.sh up; SLURM_CONF points at it) and exit 77 (skipped) without it.
set -uo pipefail
SF="$1"
SRC="$2"
WORK="$3"
BUILD="$(dirname "$SF")"
if [[ -z "${SLURM_CONF:-}" || ! -f "$SLURM_CONF" ]]; then
  echo "SKIP: no local SLURM at '${SLURM_CONF:-}' (the slurm fixture needs root and slurm-wlm munge: ci/setup.sh)"
  exit 77
fi
rm -rf "$WORK"
mkdir -p "$WORK"
cd "$WORK"
fail=0
ok() { echo "ok:   $*"; }
bad() { echo "FAIL: $*"; fail=1; }
expect_eq() { if [[ "$2" == "$3" ]]; then ok "$1 ($2)"; else bad "$1: expected '$3', got '$2'"; fi; }
expect_grep() { if grep -qE -- "$2" "$3"; then ok "$1"; else bad "$1: no /$2/ in $3:"; sed 's/^/    /' "$3" | tail -n 30; fi; }
# SLURM state of one array task ("123_4"), from the controller.
task_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -n 1 | cut -d= -f2; }
# Waits until task $1 is in state $2 (at most $3 seconds).
wait_task_state() {
  local i
  for ((i = 0; i < $3 * 5; i++)); do
    [[ "$(task_state "$1")" == "$2" ]] && return 0
    sleep 0.2
  done
  echo "task $1 is $(task_state "$1"), not $2, after $3 s"
  return 1
}
# The job array id and task of run $2 in submission $1 (OUT dir): "J_T".
task_of_run() {
  python3 - "$1" "$2" <<'PY'
import json, sys
out, run_id = sys.argv[1], sys.argv[2]
runs = json.load(open(out + "/slurm/runs.json"))
index = [r["run_id"] for r in runs].index(run_id)
task = None
for a in json.load(open(out + "/slurm/submission.json"))["arrays"]:
    for t in a["task_ids"]:
        if a["offset"] + t == index:
            task = "%d_%d" % (a["job_id"], t)
print(task)
PY
}
# The outcome kind of a run in the store (collect's result).
stored_outcome() { sqlite3 "$1/scalefuzz.db" "SELECT outcome FROM runs WHERE run_id = '$2'"; }
finish() {
  if ((fail)); then echo "FAILED"; exit 1; fi
  echo "PASSED"
  exit 0
}
