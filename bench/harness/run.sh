#!/usr/bin/env bash
# The harness's own cost per run, side by side in one run:
#   bare      mpiexec -n N ring                       (what a shell loop costs)
#   injected  the same with the recording injector preloaded (recorder cost)
#   scalefuzz `scalefuzz run` of a campaign of the same runs (expansion,
#             process group + subreaper launch, store, ingest, analysis, reports)
# Rounds alternate the three so load changes on this shared machine hit all
# alike; the figure is the median seconds per run over all rounds.
# usage: bench/harness/run.sh [BUILD_DIR] [runs-per-round] [rounds] [ranks]
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
PER_ROUND=${2:-10}
ROUNDS=${3:-3}
NP=${4:-2}
SF=$BUILD/scalefuzz
LIB=$BUILD/injectors/libscalefuzz_inject.so
APP=$BUILD/scenarios/ring
for f in "$SF" "$LIB" "$APP"; do [[ -e $f ]] || { echo "missing $f (run ci/build.sh)" >&2; exit 2; }; done
WORK=$(mktemp -d /tmp/scalefuzz-harness-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
ARGS=(--iterations 100 --count 64)

cat > "$WORK/campaign.yaml" <<YAML
campaign: harness-bench
app:
  command: ["$APP", "--iterations", "100", "--count", "64"]
  check: { stdout-must-match: "^ring: OK ranks=" }
scales: [$NP]
repetitions: $PER_ROUND
timeout: 60s
detectors: [races]
YAML

now() { date +%s.%N; }
declare -a bare inj sf
for ((round = 0; round < ROUNDS; ++round)); do
  t0=$(now)
  for ((i = 0; i < PER_ROUND; ++i)); do mpiexec -n "$NP" "$APP" "${ARGS[@]}" >/dev/null; done
  t1=$(now)
  for ((i = 0; i < PER_ROUND; ++i)); do
    rm -rf "$WORK/rundir"
    SCALEFUZZ_RUN_DIR=$WORK/rundir mpiexec -n "$NP" -genv LD_PRELOAD "$LIB" "$APP" "${ARGS[@]}" >/dev/null
  done
  t2=$(now)
  rm -rf "$WORK/out"
  "$SF" run "$WORK/campaign.yaml" --out "$WORK/out" >/dev/null 2>&1 || { echo "scalefuzz run failed" >&2; exit 1; }
  t3=$(now)
  bare+=("$(awk -v a="$t0" -v b="$t1" -v n="$PER_ROUND" 'BEGIN{print (b-a)/n}')")
  inj+=("$(awk -v a="$t1" -v b="$t2" -v n="$PER_ROUND" 'BEGIN{print (b-a)/n}')")
  sf+=("$(awk -v a="$t2" -v b="$t3" -v n="$PER_ROUND" 'BEGIN{print (b-a)/n}')")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END{print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
b=$(median "${bare[@]}"); i=$(median "${inj[@]}"); s=$(median "${sf[@]}")
echo "== harness cost per run: ring at $NP ranks, $ROUNDS rounds x $PER_ROUND runs, median s/run ($(nproc) cores)"
awk -v b="$b" -v i="$i" -v s="$s" 'BEGIN {
  printf "bare mpiexec        %.3f s/run\n", b
  printf "mpiexec + injector  %.3f s/run  (%.2fx bare)\n", i, i / b
  printf "scalefuzz run       %.3f s/run  (%.2fx bare; harness own cost %+.0f ms/run over mpiexec + injector)\n", s, s / b, (s - i) * 1000
}'
