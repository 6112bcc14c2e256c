#!/usr/bin/env bash
# Decision logs and replay (issue 29), side by side in one run:
#  (a) fidelity: per scenario, a failing run found by recording (scalefuzz
#      exec, up to TRIES runs), then `scalefuzz replay --times REPLAYS`
#      (reproduced K/N: same outcome, same bug fingerprints, no divergence);
#      the --safe twin recorded and replayed REPLAYS times (same match order K/N)
#  (b) bytes per logged decision over every recorded run of (a)
#  (c) replayed vs recorded wall time: per scenario PAIRS failing recordings,
#      each replayed once right after; the median of the pairs' ratios
#  (d) stencil (bench/injector/stencil.c), 2 ranks: bare, recorded with the
#      decision log, and recorded with BASELINE_LIB (an injector without it)
#  (e) a non-wildcard MPI_Recv and a wildcard one: callgrind instructions per
#      iteration and wall ns, this injector vs BASELINE_LIB
# usage: bench/replay/run.sh [BUILD_DIR] [REPLAYS] [BASELINE_LIB]
# (ONLY=a|c|cost: one part; PAIRS: pairs of (c), default 5; TRIES: recordings to find a failing run, default 8;
#  CASES_MATCHING=REGEX: only those scenarios of (a))
set -euo pipefail
BUILD=$(cd "${1:-build}" && pwd)
REPLAYS=${2:-10}
BASE_LIB=${3:-}
TRIES=${TRIES:-8}
ONLY=${ONLY:-}
SF=$BUILD/scalefuzz
LIB=$BUILD/injectors/libscalefuzz_inject.so
S=$BUILD/scenarios
for f in "$SF" "$LIB" "$BUILD/bench/replay/replay_recv_bench" "$BUILD/bench/replay/replay_log_stats" "$BUILD/bench/injector/inject_stencil"; do
  [[ -e $f ]] || { echo "missing $f (build scalefuzz and the bench targets first)" >&2; exit 2; }
done
OUT=$(mktemp -d /tmp/scalefuzz-replay-bench.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
export MPIEXEC_TIMEOUT=600
echo "bench/replay: $(date -u '+%Y-%m-%d %H:%M UTC'), load average at start: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"

wall() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wall_seconds"])' "$1/outcome.json"; }
kind() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["kind"])' "$1/outcome.json"; }

# name | exec options | ranks | stdout-must-match regex ('' = exit code only) | program and arguments
# (the --safe twin appends --safe). NINJA cases 1 and 2 run to the end and
# print "caseN: WRONG MATCH ..." instead of "caseN: OK ...": their failure is
# a wrong result, seen only with the campaigns' stdout check (--check) and
# enough iterations (their configs/scenarios/ninja_caseN.yaml: 200). Case 2
# runs with the paper's 10 us tool overhead under application-centric noise
# (S_a = 1.2 from a system-centric run's analysis, the paper's section 5.2).
CASES=(
  "matching_race||4||$S/races_matching_race --iterations 20 --compute-us 0"
  "same_site_race|--noise system|4||$S/races_same_site_race --iterations 20"
  "cross_iteration_race||3||$S/races_cross_iteration_race --iterations 5 --slow-first-us 200000"
  "ninja_case1||4|^case1: OK ranks=|$S/ninja_case1 --iterations 200"
  "ninja_case2|--noise application --noise-set scale=1.2|4|^case2: OK ranks=|$S/ninja_case2 --iterations 200 --overhead-us 10"
  "ninja_case3|--noise application --noise-set scale=1.2 --timeout 20s|4||$S/ninja_case3 --iterations 20"
  "master_worker||4||$S/replay_master_worker --tasks 24"
  "halo_any_source||4||$S/replay_halo_any_source --steps 20"
  "iprobe_poll||4||$S/replay_iprobe_poll --items 6"
  "waitany_pipeline||4||$S/replay_waitany_pipeline --rounds 4"
)

record() {  # dir ranks "exec options" "stdout regex" program args...
  local dir=$1 n=$2 opts=$3 re=$4 timeout=(--timeout 60s) check=() analysis=(); shift 4
  # The case's own (exec refuses a repeated option; the system run below takes it too).
  [[ $opts =~ --timeout\ ([^ ]+) ]] && timeout=(--timeout "${BASH_REMATCH[1]}") && opts=${opts/--timeout ${BASH_REMATCH[1]}/}
  [[ -n $re ]] && check=(--check "stdout-must-match=$re")
  if [[ $opts == *"--noise application"* ]]; then
    # Application-centric noise reads a system-centric run's analysis of the same program.
    "$SF" exec --out "$dir-system" "${timeout[@]}" --noise system "${check[@]}" -- mpiexec -n "$n" "$@" >"$dir-system.log" 2>&1 || true
    analysis=(--noise-set "analysis=$dir-system")
  fi
  # shellcheck disable=SC2086
  "$SF" exec --out "$dir" "${timeout[@]}" $opts "${analysis[@]}" "${check[@]}" -- mpiexec -n "$n" "$@" >"$dir.log" 2>&1
}

RECORDED=()
if [[ -z $ONLY || $ONLY == a ]]; then
  echo "== (a) fidelity: scalefuzz replay --times $REPLAYS, no noise (a failing run found in up to $TRIES recordings)"
  printf '%-22s %-16s %-7s %-16s %-10s %-14s %-12s %s\n' scenario "recorded with" tries "failing outcome" reproduced "bugs (orig)" "safe twin" "replay/recorded wall"
  for c in "${CASES[@]}"; do
    IFS='|' read -r name opts n re cmd <<<"$c"
    [[ -z ${CASES_MATCHING:-} || $name =~ $CASES_MATCHING ]] || continue
    failing=""
    for ((t = 1; t <= TRIES; ++t)); do
      d=$OUT/$name-$t
      # shellcheck disable=SC2086
      if ! record "$d" "$n" "$opts" "$re" $cmd; then failing=$d; break; fi
      RECORDED+=("$d")
    done
    if [[ -z $failing ]]; then
      verdict="no failing run"; okind="-"; bugs="-"; ratio="-"
    else
      RECORDED+=("$failing")
      "$SF" replay "$failing" --times "$REPLAYS" >"$failing.replay.log" 2>&1 || true
      verdict=$(grep -o 'reproduced [0-9]*/[0-9]*' "$failing.replay.log" | tail -1 | cut -d' ' -f2 || true)
      [[ -n $verdict ]] || verdict="error: $(tail -1 "$failing.replay.log")"
      okind=$(kind "$failing" || echo "?")
      bugs=$(grep -o '[0-9]* bugs\?)$' "$failing.replay.log" | tail -1 | tr -d ')' || true)
      [[ -n $bugs ]] || bugs="-"
      ratio=$(python3 - "$failing" <<'PY'
import json, os, statistics, sys
d = sys.argv[1]
rec = json.load(open(os.path.join(d, "outcome.json")))["wall_seconds"]
base = os.path.join(d, "replays")
reps = [json.load(open(os.path.join(base, k, "outcome.json")))["wall_seconds"]
        for k in (os.listdir(base) if os.path.isdir(base) else []) if os.path.exists(os.path.join(base, k, "outcome.json"))]
print(f"{statistics.median(reps) / rec:.2f}x ({statistics.median(reps):.2f}/{rec:.2f} s)" if reps and rec > 0 else "-")
PY
)
    fi
    safe=$OUT/$name-safe
    # shellcheck disable=SC2086
    if record "$safe" "$n" "$opts" "$re" $cmd --safe; then
      RECORDED+=("$safe")
      "$SF" replay "$safe" --times "$REPLAYS" >"$safe.replay.log" 2>&1 || true
      twin="$(grep -c 'match order the same' "$safe.replay.log" || true)/$REPLAYS order"
    else
      twin="twin failed"
    fi
    printf '%-22s %-16s %-7s %-16s %-10s %-14s %-12s %s\n' "$name" "${opts:-none}" "$t" "$okind" "$verdict" "$bugs" "$twin" "$ratio"
    grep -h 'diverged' "$failing.replay.log" "$safe.replay.log" 2>/dev/null | head -3 | sed 's/^/    /' || true
  done
  echo "== (b) decision-log size over the ${#RECORDED[@]} recorded runs of (a)"
  "$BUILD/bench/replay/replay_log_stats" "${RECORDED[@]}"
fi

if [[ -z $ONLY || $ONLY == c ]]; then
  # One recorded run against the median of its replays moves with the load
  # of that one moment; pairs (a failing recording, then one replay of it,
  # back to back) give a ratio per pair, and their median is the figure.
  PAIRS=${PAIRS:-5}
  echo "== (c) replayed / recorded wall time: $PAIRS pairs per scenario (a failing recording, then 'scalefuzz replay --times 1' of it), median and range of the ratios"
  for c in "${CASES[@]}"; do
    IFS='|' read -r name opts n re cmd <<<"$c"
    [[ -z ${CASES_MATCHING:-} || $name =~ $CASES_MATCHING ]] || continue
    ratios=()
    for ((p = 1; p <= PAIRS; ++p)); do
      failing=""
      for ((t = 1; t <= TRIES; ++t)); do
        d=$OUT/$name-pair$p-$t
        # shellcheck disable=SC2086
        if ! record "$d" "$n" "$opts" "$re" $cmd; then failing=$d; break; fi
      done
      [[ -n $failing ]] || continue
      "$SF" replay "$failing" --times 1 >"$failing.replay.log" 2>&1 || true
      [[ -f $failing/replays/1/outcome.json ]] || continue
      ratios+=("$(python3 -c 'import json,sys; a, b = (json.load(open(f))["wall_seconds"] for f in sys.argv[1:]); print(f"{b / a:.3f} {a:.3f} {b:.3f}")' \
        "$failing/outcome.json" "$failing/replays/1/outcome.json")")
    done
    printf '%s\n' "${ratios[@]}" | python3 -c '
import statistics, sys
name = sys.argv[1]
rows = [list(map(float, l.split())) for l in sys.stdin if l.strip()]
if not rows:
    print(f"{name:22s} no failing recording"); sys.exit()
r = [x[0] for x in rows]
print(f"{name:22s} replay/recorded median {statistics.median(r):.2f}x (range {min(r):.2f}-{max(r):.2f}, {len(r)} pairs; recorded median {statistics.median(x[1] for x in rows):.2f} s, replayed {statistics.median(x[2] for x in rows):.2f} s)")' "$name"
  done
fi

if [[ -z $ONLY || $ONLY == cost ]]; then
  REPS=${REPS:-5}
  echo "== (d) stencil, 2 ranks, 200000 points x 500 iterations, best of $REPS: bare / recorded (decision log on) / recorded with ${BASE_LIB:-no baseline library}"
  # Interleaved (bare, recorded, baseline in every round), so a burst of
  # other load slows all three alike; the best of each.
  st_once() {  # lib ('' = bare) run-dir
    local pre=(mpiexec -n 2)
    [[ -n $1 ]] && pre=(env "SCALEFUZZ_RUN_DIR=$2" mpiexec -n 2 -genv LD_PRELOAD "$1")
    "${pre[@]}" "$BUILD/bench/injector/inject_stencil" 200000 500 | awk '{for (i = 1; i < NF; ++i) if ($i == "seconds") print $(i + 1)}'
  }
  best() { printf '%s\n' "$@" | grep . | sort -g | head -1; }
  bs=(); rs=(); os=()
  for ((r = 0; r < REPS; ++r)); do
    rm -rf "$OUT/st" "$OUT/st0"
    bs+=("$(st_once "" "")"); rs+=("$(st_once "$LIB" "$OUT/st")")
    [[ -n $BASE_LIB ]] && os+=("$(st_once "$BASE_LIB" "$OUT/st0")")
  done
  b=$(best "${bs[@]}"); r=$(best "${rs[@]}"); o=""
  [[ -n $BASE_LIB ]] && o=$(best "${os[@]}")
  awk -v b="$b" -v r="$r" -v o="$o" 'BEGIN { printf "stencil: bare %.4f s, recorded %.4f s (%.3fx bare)", b, r, r / b;
    if (o != "") printf ", recorded with the baseline library %.4f s (%.3fx bare)", o, o / b; printf "\n" }'
  "$BUILD/bench/replay/replay_log_stats" "$OUT/st" | sed 's/^/stencil log: /'
  # The stable witness: instructions per stencil iteration (1 rank, so no
  # polling; main with MPI_Finalize's packing left out; 120 - 20 iterations).
  st_ir() {  # lib ('' = bare) iterations
    local pre=()
    rm -rf "$OUT/stcg" && mkdir -p "$OUT/stcg"
    [[ -n $1 ]] && pre=(env "SCALEFUZZ_RUN_DIR=$OUT/stcg/run" "LD_PRELOAD=$1")
    "${pre[@]}" valgrind --tool=callgrind --collect-atstart=no --toggle-collect=main --toggle-collect=MPI_Finalize \
      --callgrind-out-file="$OUT/stcg/out" "$BUILD/bench/injector/inject_stencil" 200000 "$2" >/dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$OUT/stcg/out"
  }
  st_per_iter() { local a b; a=$(st_ir "$1" 20); b=$(st_ir "$1" 120); echo $(( (b - a) / 100 )); }
  ib=$(st_per_iter ""); ir_=$(st_per_iter "$LIB")
  line="stencil, 1 rank, callgrind instructions per iteration: bare $ib, recorded $ir_ ($(awk -v a="$ir_" -v b="$ib" 'BEGIN { printf "%.4f", a / b }')x bare)"
  if [[ -n $BASE_LIB ]]; then io=$(st_per_iter "$BASE_LIB"); line+=", recorded with the baseline library $io ($(awk -v a="$io" -v b="$ib" 'BEGIN { printf "%.4f", a / b }')x)"; fi
  echo "$line"

  echo "== (e) MPI_Recv per iteration (Isend to self + Recv + Wait, 1 rank): callgrind instructions (100k - 20k iterations) and wall ns (best of $REPS, 200k)"
  ir() {  # lib mode iterations
    rm -rf "$OUT/cg" && mkdir -p "$OUT/cg"
    SCALEFUZZ_RUN_DIR=$OUT/cg/run LD_PRELOAD=$1 valgrind --tool=callgrind --callgrind-out-file="$OUT/cg/out" \
      "$BUILD/bench/replay/replay_recv_bench" "$3" "$2" >/dev/null 2>&1
    awk '/^summary:/ { print $2 }' "$OUT/cg/out"
  }
  per_iter() { local a b; a=$(ir "$1" "$2" 20000); b=$(ir "$1" "$2" 100000); echo $(( (b - a) / 80000 )); }
  ns() {
    local best=""
    for ((r = 0; r < REPS; ++r)); do
      rm -rf "$OUT/ns"
      v=$(SCALEFUZZ_RUN_DIR=$OUT/ns SCALEFUZZ_OVERSUBSCRIBE=off LD_PRELOAD=$1 "$BUILD/bench/replay/replay_recv_bench" 200000 "$2" | awk '{print $2}')
      best=$(printf '%s\n%s\n' "$best" "$v" | grep . | sort -g | head -1)
    done
    awk -v s="$best" 'BEGIN { printf "%.1f", s * 1e9 / 200000 }'
  }
  for mode in named wildcard; do
    i1=$(per_iter "$LIB" $mode); w1=$(ns "$LIB" $mode)
    if [[ -n $BASE_LIB ]]; then
      i0=$(per_iter "$BASE_LIB" $mode); w0=$(ns "$BASE_LIB" $mode)
      echo "$mode receive: $i1 instructions/iteration with the decision log, $i0 without (+$((i1 - i0))); wall $w1 ns vs $w0 ns per iteration"
    else
      echo "$mode receive: $i1 instructions/iteration, wall $w1 ns per iteration"
    fi
  done
  rm -rf "$OUT/rp" && SCALEFUZZ_RUN_DIR=$OUT/rp LD_PRELOAD=$LIB "$BUILD/bench/replay/replay_recv_bench" 20000 wildcard >/dev/null
  "$BUILD/bench/replay/replay_log_stats" "$OUT/rp" | sed 's/^/wildcard loop log: /'
fi
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
