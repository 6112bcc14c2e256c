#!/usr/bin/env bash
# Decision logs and replay (issue 29), side by side in one run:
#  (a) fidelity: per scenario, a failing run found by recording (scalefuzz
#      exec, up to TRIES runs), then `scalefuzz replay --times REPLAYS`
#      (reproduced K/N: same outcome, same bug fingerprints, no divergence);
#      the --safe twin recorded and replayed REPLAYS times (same match order K/N)
#  (b) bytes per logged decision over every recorded run of (a)
#  (c) replayed vs recorded wall time (runs without noise)
#  (d) stencil (bench/injector/stencil.c), 2 ranks: bare, recorded with the
#      decision log, and recorded with BASELINE_LIB (an injector without it)
#  (e) a non-wildcard MPI_Recv and a wildcard one: callgrind instructions per
#      iteration and wall ns, this injector vs BASELINE_LIB
# usage: bench/replay/run.sh [BUILD_DIR] [REPLAYS] [BASELINE_LIB]
# (ONLY=a|cost: one part; TRIES: recordings to find a failing run, default 8;
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

# name | exec options | ranks | program and arguments (the --safe twin appends --safe)
CASES=(
  "matching_race||4|$S/races_matching_race --iterations 20 --compute-us 0"
  "same_site_race|--noise system|4|$S/races_same_site_race --iterations 20"
  "cross_iteration_race||3|$S/races_cross_iteration_race --iterations 5 --slow-first-us 200000"
  "ninja_case1||4|$S/ninja_case1 --iterations 20"
  "ninja_case2|--noise system|4|$S/ninja_case2 --iterations 20 --overhead-us 10"
  "ninja_case3|--noise system --timeout 20s|4|$S/ninja_case3 --iterations 20"
  "master_worker||4|$S/replay_master_worker --tasks 24"
  "halo_any_source||4|$S/replay_halo_any_source --steps 20"
  "iprobe_poll||4|$S/replay_iprobe_poll --items 6"
  "waitany_pipeline||4|$S/replay_waitany_pipeline --rounds 4"
)

record() {  # dir ranks "exec options" program args...
  local dir=$1 n=$2 opts=$3 timeout=(--timeout 60s); shift 3
  [[ $opts == *--timeout* ]] && timeout=()  # the case's own (exec refuses a repeated option)
  # shellcheck disable=SC2086
  "$SF" exec --out "$dir" "${timeout[@]}" $opts -- mpiexec -n "$n" "$@" >"$dir.log" 2>&1
}

RECORDED=()
if [[ -z $ONLY || $ONLY == a ]]; then
  echo "== (a) fidelity: scalefuzz replay --times $REPLAYS, no noise (a failing run found in up to $TRIES recordings)"
  printf '%-22s %-16s %-7s %-16s %-10s %-14s %-12s %s\n' scenario "recorded with" tries "failing outcome" reproduced "bugs (orig)" "safe twin" "replay/recorded wall"
  for c in "${CASES[@]}"; do
    IFS='|' read -r name opts n cmd <<<"$c"
    [[ -z ${CASES_MATCHING:-} || $name =~ $CASES_MATCHING ]] || continue
    failing=""
    for ((t = 1; t <= TRIES; ++t)); do
      d=$OUT/$name-$t
      # shellcheck disable=SC2086
      if ! record "$d" "$n" "$opts" $cmd; then failing=$d; break; fi
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
    if record "$safe" "$n" "$opts" $cmd --safe; then
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

if [[ -z $ONLY || $ONLY == cost ]]; then
  REPS=${REPS:-5}
  echo "== (d) stencil, 2 ranks, 200000 points x 500 iterations, best of $REPS: bare / recorded (decision log on) / recorded with ${BASE_LIB:-no baseline library}"
  st() {  # lib ('' = bare)
    local best=""
    for ((r = 0; r < REPS; ++r)); do
      rm -rf "$OUT/st"
      if [[ -z $1 ]]; then
        v=$(mpiexec -n 2 "$BUILD/bench/injector/inject_stencil" 200000 500 | awk '{for (i = 1; i < NF; ++i) if ($i == "seconds") print $(i + 1)}')
      else
        v=$(SCALEFUZZ_RUN_DIR=$OUT/st mpiexec -n 2 -genv LD_PRELOAD "$1" "$BUILD/bench/injector/inject_stencil" 200000 500 | awk '{for (i = 1; i < NF; ++i) if ($i == "seconds") print $(i + 1)}')
      fi
      best=$(printf '%s\n%s\n' "$best" "$v" | grep . | sort -g | head -1)
    done
    echo "$best"
  }
  b=$(st ""); r=$(st "$LIB")
  if [[ -n $BASE_LIB ]]; then o=$(st "$BASE_LIB"); else o=""; fi
  awk -v b="$b" -v r="$r" -v o="$o" 'BEGIN { printf "stencil: bare %.4f s, recorded %.4f s (%.3fx bare)", b, r, r / b;
    if (o != "") printf ", recorded without the decision log %.4f s (%.3fx bare; log on / off %.3fx)", o, o / b, r / o; printf "\n" }'
  ls "$OUT"/st/ranks/0.decisions >/dev/null && "$BUILD/bench/replay/replay_log_stats" "$OUT/st" | sed 's/^/stencil log: /'

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
