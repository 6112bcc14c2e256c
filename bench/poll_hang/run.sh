#!/usr/bin/env bash
# The most common real hang — every rank spinning in MPI_Test/MPI_Iprobe —
# under a long timeout, side by side with a short one: poll_hang
# (scenarios/spine/poll_hang.c, tag mismatch at iteration 20) at 8 ranks.
# Prints per timeout: the largest per-rank events file, the largest rank's
# files together and the run's total (ranks that hung leave raw records; the
# harness packs them after the run: outcome.json's leftover_traces_packed),
# the analysis (`scalefuzz analyze RUN`) wall time and peak memory
# (/usr/bin/time), and the localization: MPI-PD's deadlock and faulty ranks
# must not depend on the timeout (PDG's least-progressed task is printed too;
# here every rank spins at the same call sites, so PDG orders them by visit
# counts, which depend on how long each rank has spun, with any timeout).
# usage: bench/poll_hang/run.sh [BUILD_DIR] [long-timeout-seconds] [ranks]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
LONG=${2:-120}
NP=${3:-8}
SF=$BUILD/scalefuzz
APP=$BUILD/scenarios/poll_hang
for f in "$SF" "$APP" /usr/bin/time; do [[ -e $f ]] || { echo "missing $f (run ci/build.sh)" >&2; exit 2; }; done
command -v jq >/dev/null || { echo "jq missing" >&2; exit 2; }
WORK=$(mktemp -d /tmp/scalefuzz-poll-hang.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

for timeout in 10 "$LONG"; do
  cat > "$WORK/c$timeout.yaml" <<YAML
campaign: poll-hang-bench
app:
  command: ["$APP", "--iterations", "50", "--bug-iteration", "20"]
  check: exit-code
scales: [$NP]
repetitions: 1
timeout: ${timeout}s
detectors: [mpipd, pdg]
YAML
  out=$WORK/t$timeout
  rc=0; "$SF" run "$WORK/c$timeout.yaml" --out "$out" >"$WORK/run$timeout.log" 2>&1 || rc=$?
  run=$(ls -d "$out"/runs/*/ | head -1)
  max=$(stat -c %s "$run"/ranks/*.events | sort -n | tail -1)
  total=$(du -cb "$run"/ranks/* | tail -1 | cut -f1)
  per_rank=0  # the largest rank's files together (events, sites, features, Markov, live ...)
  for ((r = 0; r < NP; ++r)); do
    b=$(cat "$run"/ranks/"$r".* 2>/dev/null | wc -c); ((b > per_rank)) && per_rank=$b
  done
  packed=$(jq -c '.leftover_traces_packed // {} | {ranks, bytes_before, bytes_after}' "$run/outcome.json")
  rc2=0; /usr/bin/time -f "%e %M" -o "$WORK/time$timeout" "$SF" analyze "$run" >"$WORK/analyze$timeout.log" 2>&1 || rc2=$?
  read -r secs kb < <(tail -1 "$WORK/time$timeout")
  where=$(jq -c '[.findings[] | select(.detector=="mpipd") | "\(.detector) \(.kind) \(.ranks)"] | unique' "$out/findings.json")
  pdg=$(jq -c '[.findings[] | select(.detector=="pdg") | "\(.detector) \(.kind) \(.ranks)"] | unique' "$out/findings.json")
  printf "timeout %4ss: run exit %d; largest rank events file %d bytes, largest rank's files %d bytes, run's rank files %d bytes; analyze exit %d, %.2f s, peak %d MB\n" \
    "$timeout" "$rc" "$max" "$per_rank" "$total" "$rc2" "$secs" $((kb / 1024))
  echo "   left raw by the hung ranks, packed by the harness after the run: $packed"
  echo "   localization: $where; $pdg"
  echo "$where" >"$WORK/where$timeout"
done
if cmp -s "$WORK/where10" "$WORK/where$LONG"; then echo "same localization at 10 s and $LONG s"; else echo "LOCALIZATION DIFFERS"; exit 1; fi
