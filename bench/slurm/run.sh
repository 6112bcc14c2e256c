#!/usr/bin/env bash
# SLURM campaign throughput: a 1,000-run campaign (bench/slurm/campaign1000.yaml:
# the ring scenario at 2 ranks, 1,000 parameter points) submitted as a dry
# run and for real to a private SLURM started for the bench, then collected.
# Targets (issue 15): submit < 5 s, collect < 30 s.
#   bench/slurm/run.sh [BUILD_DIR]   (as root; uses port 17817 and BUILD_DIR/bench-slurm)
set -euo pipefail
src="$(cd "$(dirname "$0")/../.." && pwd)"
build="$(cd "${1:-$src/build}" && pwd)"
sf="$build/scalefuzz"
work="$build/bench-slurm"
prefix="$work/slurm-local"
export SCALEFUZZ_SLURM_PORT=17817
rm -rf "$work/out-dry" "$work/out"
mkdir -p "$work"
eval "$(bash "$src/ci/slurm-local.sh" up "$prefix")"
trap 'bash "$src/ci/slurm-local.sh" down "$prefix"' EXIT
now() { date +%s.%N; }
secs() { python3 -c "print(f'{$2 - $1:.2f}')"; }

t0=$(now); "$sf" submit "$src/bench/slurm/campaign1000.yaml" --out "$work/out-dry" --dry-run >"$work/dry.txt"; t1=$(now)
dry=$(secs "$t0" "$t1")
t0=$(now); "$sf" submit "$src/bench/slurm/campaign1000.yaml" --out "$work/out" >"$work/submit.txt"; t1=$(now)
submit=$(secs "$t0" "$t1")
t0=$(now); "$sf" collect "$work/out" --wait --poll 1000 >"$work/collect-wait.txt" 2>&1 || true; t1=$(now)
wait_total=$(secs "$t0" "$t1")
t0=$(now); "$sf" collect "$work/out" >"$work/collect1.txt" 2>&1 || true; t1=$(now)
collect_again=$(secs "$t0" "$t1")
# A fresh collect of all 1,000 finished runs (store rebuilt from the run directories).
rm -f "$work/out/scalefuzz.db" "$work/out/scalefuzz.db-wal" "$work/out/scalefuzz.db-shm"
t0=$(now); "$sf" collect "$work/out" >"$work/collect2.txt" 2>&1 || true; t1=$(now)
collect_fresh=$(secs "$t0" "$t1")
ok=$(sqlite3 "$work/out/scalefuzz.db" "SELECT count(*) FROM runs WHERE outcome = 'ok'")
arrays=$(grep -c 'submitted job array' "$work/submit.txt")
echo "runs ok after collect: $ok / 1000 ($arrays job arrays)"
printf '| step | seconds | target |\n|---|---|---|\n'
printf '| submit --dry-run (1,000 runs: expand, runs.json, scripts) | %s | < 5 |\n' "$dry"
printf '| submit (libslurm, %s arrays) | %s | < 5 |\n' "$arrays" "$submit"
printf '| collect --wait (from submit until every task ended, ingest, analyse, report) | %s | — |\n' "$wait_total"
printf '| collect again (nothing new: idempotent) | %s | — |\n' "$collect_again"
printf '| collect of 1,000 finished runs into a fresh store (ingest, analyse, report) | %s | < 30 |\n' "$collect_fresh"
