#!/usr/bin/env bash
# (a) Trace size, format 3 (packed at MPI_Finalize) against the raw records
# (format 2's layout, SCALEFUZZ_TRACE_ENCODING=raw), the same program
# recorded both ways at 8 ranks: the injector's stencil and lulesh_proxy.
# (b) Growth bench: the size on disk and the analysis time and peak memory of a
# campaign as runs x ranks grow. One real run of lulesh_proxy (LULESH's
# communication skeleton, bench/growth/lulesh_proxy.c) per rank count is
# recorded by `scalefuzz run`; growth_store replicates its run directory
# (the injector's own files) into campaigns of RUNS runs through the real run
# store; `scalefuzz analyze OUT` (every detector of the default campaign, then
# the reports) is timed with /usr/bin/time: wall, CPU (user + sys: what to
# trust on a loaded machine) and peak memory. The engine streams runs one at
# a time (one run's trace in memory) and the detectors keep per campaign
# point, not per run (the races detector's quiet-run tables), so the peak
# stays nearly flat as runs grow (86 MB at 1,000 x 16, 878 MB before).
# Linear time: the last column (CPU ms per rank trace) stays flat.
# Memory at one rank count: bench/growth/run.sh build "100 300 1000" 16
# usage: bench/growth/run.sh [BUILD_DIR] ["RUNS..."] ["RANKS..."] [steps]
#   defaults: "10 100 1000" "4 8 16" 20
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
RUNS_LIST=${2:-"10 100 1000"}
RANKS_LIST=${3:-"4 8 16"}
STEPS=${4:-20}
SF=$BUILD/scalefuzz
APP=$BUILD/bench/growth/lulesh_proxy
GROW=$BUILD/bench/growth/growth_store
SIZE=$BUILD/bench/growth/trace_size
LIB=$BUILD/injectors/libscalefuzz_inject.so
STENCIL=$BUILD/bench/injector/inject_stencil
for f in "$SF" "$APP" "$GROW" "$SIZE" "$LIB" "$STENCIL" /usr/bin/time; do [[ -e $f ]] || { echo "missing $f (build the bench targets)" >&2; exit 2; }; done
WORK=$(mktemp -d "${TMPDIR:-/tmp}/scalefuzz-growth.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

echo "== (a) trace size at 8 ranks: raw records (format 2 layout) vs packed (format 3)"
size_of() {  # encoding program args... -> trace_size's line
  local enc=$1; shift
  rm -rf "$WORK/size"
  SCALEFUZZ_TRACE_ENCODING=$enc SCALEFUZZ_RUN_DIR=$WORK/size mpiexec -n 8 -genv LD_PRELOAD "$LIB" "$@" >/dev/null
  "$SIZE" "$WORK/size"
}
field() { sed -n "s/.*$1=\([0-9.]*\).*/\1/p"; }
for prog in "$STENCIL 40000 200" "$APP --iterations $STEPS --n 8"; do
  read -r -a argv <<<"$prog"
  raw=$(size_of raw "${argv[@]}"); packed=$(size_of packed "${argv[@]}")
  printf "%-14s events %7s | bytes/event raw %6s packed %6s | rank files raw %9s B (%8s on disk), packed %8s B (%8s on disk), %.1fx / %.1fx smaller\n" \
    "$(basename "${argv[0]}")" "$(field events <<<"$packed")" "$(field bytes_per_event <<<"$raw")" "$(field bytes_per_event <<<"$packed")" \
    "$(field rank_files_bytes <<<"$raw")" "$(field rank_files_disk <<<"$raw")" "$(field rank_files_bytes <<<"$packed")" "$(field rank_files_disk <<<"$packed")" \
    "$(awk -v a="$(field rank_files_bytes <<<"$raw")" -v b="$(field rank_files_bytes <<<"$packed")" 'BEGIN {print a / b}')" \
    "$(awk -v a="$(field rank_files_disk <<<"$raw")" -v b="$(field rank_files_disk <<<"$packed")" 'BEGIN {print a / b}')"
done

echo "== (b) growth: runs x ranks of lulesh_proxy ($STEPS steps), scalefuzz analyze (detectors + reports)"
printf "%6s %6s %12s %12s %13s %8s %10s %10s %10s %15s\n" runs ranks rank-traces events "on disk (MB)" "B/event" "wall s" "cpu s" "peak (MB)" "cpu ms/rank tr."
for np in $RANKS_LIST; do
  cat >"$WORK/c$np.yaml" <<YAML
campaign: growth-lulesh-proxy
app:
  command: ["$APP", "--iterations", "$STEPS", "--n", "8"]
  check: exit-code
scales: [$np]
repetitions: 1
timeout: 300s
YAML
  rc=0; "$SF" run "$WORK/c$np.yaml" --out "$WORK/t$np" >"$WORK/run$np.log" 2>&1 || rc=$?
  if ((rc != 0)); then echo "recording the template run at $np ranks failed (exit $rc):" >&2; tail -20 "$WORK/run$np.log" >&2; exit 3; fi
  for runs in $RUNS_LIST; do
    out=$WORK/g$np-$runs
    events=$("$GROW" "$WORK/t$np" "$out" "$runs" | sed -n 's/.*events=\([0-9]*\).*/\1/p')
    disk=$(du -sb "$out/runs" | cut -f1)
    packed=$(cat "$out"/runs/*/ranks/*.events | wc -c)
    rc=0; /usr/bin/time -f "%e %U %S %M" -o "$WORK/time" "$SF" analyze "$out" >"$WORK/analyze.log" 2>&1 || rc=$?
    if ((rc > 1)); then echo "analyze exit $rc:" >&2; tail -20 "$WORK/analyze.log" >&2; exit 3; fi
    read -r secs user sys kb < <(tail -1 "$WORK/time")
    awk -v r="$runs" -v n="$np" -v ev="$events" -v d="$disk" -v p="$packed" -v s="$secs" -v c="$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}')" -v kb="$kb" 'BEGIN {
      printf "%6d %6d %12d %12d %13.1f %8.2f %10.2f %10.2f %10.0f %15.2f\n", r, n, r * n, r * ev, d / 1048576,
             (ev > 0 ? p / (r * ev) : 0), s, c, kb / 1024, c * 1000 / (r * n) }'
    rm -rf "$out"
  done
done
