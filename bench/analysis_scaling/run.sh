#!/usr/bin/env bash
# Analysis growth with run length and created datatypes (issue 37): for each
# (CALLS, TYPES) point, synth_campaign writes one finished 2-rank run of
# CALLS records that creates TYPES derived datatypes (the production code's
# shape: a type per transfer, Irecv/Isend/Waitall with it, the type freed),
# and `scalefuzz analyze OUT` (every detector of the default campaign, then
# the reports) is timed with /usr/bin/time: wall, CPU (user + sys: what to
# trust on a loaded machine) and peak memory (max RSS). Per million calls:
# CPU seconds, and peak memory above the fixed cost of an analysis (the peak
# of a 1,000-call run, measured first). Flat columns = linear analysis.
# usage: bench/analysis_scaling/run.sh [BUILD_DIR] ["CALLS:TYPES ..."]
#   default points: 1e5, 1e6, 1e7 calls with 100 types; 1e7 calls with 1e4 and 1e6 types
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
POINTS=${2:-"100000:100 1000000:100 10000000:100 10000000:10000 10000000:1000000"}
SF=$BUILD/scalefuzz
SYNTH=$BUILD/bench/analysis_scaling/synth_campaign
for f in "$SF" "$SYNTH" /usr/bin/time; do [[ -x $f ]] || { echo "missing $f (build the bench targets)" >&2; exit 2; }; done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/scalefuzz-analysis-scaling.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

measure() {  # calls types -> "wall cpu peak_kb"
  local out=$WORK/c$1-t$2
  "$SYNTH" "$out" "$1" "$2" >/dev/null
  local rc=0
  /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$SF" analyze "$out" >"$WORK/log" 2>&1 || rc=$?
  if ((rc != 0 && rc != 1)); then echo "scalefuzz analyze failed (exit $rc) at $1 calls, $2 types:" >&2; tail -20 "$WORK/log" >&2; exit 3; fi
  rm -rf "$out"
  awk '{printf "%s %.2f %d\n", $1, $2 + $3, $4}' "$WORK/time"
}

read -r _ _ base_kb < <(measure 1000 2)
echo "load: $(uptime | sed 's/.*load average: //')  fixed cost (1,000 calls): peak $((base_kb / 1024)) MB"
printf "%10s %9s %8s %8s %9s %12s %14s\n" calls types "wall s" "cpu s" "peak MB" "cpu s/M call" "MB/M call (>fixed)"
rows=()
for point in $POINTS; do
  calls=${point%%:*} types=${point##*:}
  read -r wall cpu peak_kb < <(measure "$calls" "$types")
  per_m=$(awk -v c="$cpu" -v n="$calls" 'BEGIN {printf "%.3f", c / (n / 1e6)}')
  mb_m=$(awk -v p="$peak_kb" -v b="$base_kb" -v n="$calls" 'BEGIN {printf "%.1f", (p - b) / 1024 / (n / 1e6)}')
  printf "%10s %9s %8s %8s %9d %12s %14s\n" "$calls" "$types" "$wall" "$cpu" $((peak_kb / 1024)) "$per_m" "$mb_m"
  rows+=("$per_m $mb_m")
done
printf '%s\n' "${rows[@]}" | awk '
  NR == 1 {tmin = tmax = $1; mmin = mmax = $2}
  {if ($1 < tmin) tmin = $1; if ($1 > tmax) tmax = $1; if ($2 < mmin) mmin = $2; if ($2 > mmax) mmax = $2}
  END {printf "max/min over the points: cpu per M calls %.2fx, memory per M calls %.2fx (acceptance <= 2x)\n",
       tmax / tmin, mmax / mmin}'
