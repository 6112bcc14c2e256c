#!/usr/bin/env bash
# Runs one libFuzzer target: first every kept regression input once, then
# fuzzing for SECONDS from the seed corpora. A crash, a hang (> 10 s per
# input) or > 2 GB of memory fails it; the input that failed is left in
# WORK/artifacts/ — copy it into tests/fuzz/regressions/<target>/ so it is
# replayed from then on.
#   run_fuzzer.sh FUZZER SECONDS WORK REGRESSION_DIR [SEED_DIR...]
# (FUZZ_LONG_INPUTS, below, adds generated long inputs to the replay.)
# On demand, >= 10^6 executions (about 5-10 min for the campaign target here):
#   run_fuzzer.sh build/tests/fuzz/campaign_fuzzer 0 /tmp/cf tests/fuzz/regressions/campaign configs configs/scenarios
#   with FUZZ_RUNS=1000000 in the environment (SECONDS 0 = no time limit).
set -euo pipefail
fuzzer="$1" seconds="$2" work="$3" regressions="$4"
shift 4
mkdir -p "$work/corpus" "$work/artifacts"
limits=(-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/artifacts/")
mapfile -t kept < <(find "$regressions" -type f | sort)
# FUZZ_LONG_INPUTS=GENERATOR: a script writing long inputs (long flow lists,
# huge repetition counts) into a folder; they are replayed with the kept ones,
# under the same time and memory limits, but not fuzzed (too big to mutate).
if [[ -n "${FUZZ_LONG_INPUTS:-}" ]]; then
  rm -rf "$work/long"
  python3 "$FUZZ_LONG_INPUTS" "$work/long"
  mapfile -t -O "${#kept[@]}" kept < <(find "$work/long" -type f | sort)
fi
if ((${#kept[@]})); then
  "$fuzzer" "${limits[@]}" "${kept[@]}"
fi
runs=()
[[ -n "${FUZZ_RUNS:-}" ]] && runs=(-runs="$FUZZ_RUNS")
time_limit=()
[[ "$seconds" != 0 ]] && time_limit=(-max_total_time="$seconds")
"$fuzzer" "${limits[@]}" "${time_limit[@]}" "${runs[@]}" -print_final_stats=1 "$work/corpus" "$regressions" "$@"
