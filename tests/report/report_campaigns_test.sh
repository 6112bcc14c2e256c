#!/usr/bin/env bash
# The reports of five real campaigns — a deadlock, a message race that hangs
# (the quickstart), a scale bug (KCCA), injected stalls and a DMTracker
# outlier process — opened in
# headless Chromium at 1280 px by browser_check.py: no console errors, no
# horizontal overflow, every nav section and chart rendered, the first bug
# headline names the right kind, file:line and ranks, with a replay command
# and run-file links that resolve. Screenshots stay in WORK/screenshots/.
# Usage: report_campaigns_test.sh SCALEFUZZ SOURCE_DIR WORK_DIR
set -uo pipefail
scalefuzz="$1"; src="$2"; work="$3"
check="$src/tests/report/browser_check.py"
rm -rf "$work"; mkdir -p "$work/screenshots"
fail=0

run() {  # run NAME EXPECTED_EXIT CAMPAIGN [ARGS...]
  local name="$1" expected="$2" campaign="$3"; shift 3
  "$scalefuzz" run "$campaign" --out "$work/$name" "$@" >"$work/$name.log" 2>&1
  local rc=$?
  if [[ $rc -ne $expected ]]; then
    echo "FAIL: $name: scalefuzz run exited $rc, expected $expected"; tail -20 "$work/$name.log"; fail=1
  fi
}
look() {  # look NAME [browser_check ARGS...]
  local name="$1"; shift
  if ! python3 "$check" "$work/$name/report.html" --screenshot "$work/screenshots/$name.png" "$@" \
      >"$work/$name.check.json" 2>"$work/$name.check.err"; then
    echo "FAIL: $name report:"; cat "$work/$name.check.err"; fail=1
    echo "  the campaign's runs and summary ($work/$name.log):"; grep -E '^\[|^campaign|^  \[' "$work/$name.log" | sed 's/^/  /' 
  else
    echo "ok: $name report ($work/screenshots/$name.png)"
  fi
}

# 1. Deadlock: a cycle of synchronous sends through every rank (np 3 and 4).
run deadlock 1 "$src/configs/scenarios/deadlock_cycle.yaml" --filter 'np>=3'
look deadlock --kind deadlock --file-line deadlock_cycle.c: --ranks 0-3 --section bugs --section hangs --charts 1

# 2. Message race that hangs (the quickstart campaign): races and the hang it causes.
run races 1 "$src/configs/quickstart.yaml"
look races --kind unintended-match --file-line case3_separated_hang.c: --section bugs --section races --section hangs --charts 2

# 3. Scale bug: the allgather selector overflows at 8 ranks with 32 records of 8 MiB (32*8*2^23 = 2^31).
cat >"$work/kcca.yaml" <<YAML
campaign: report-kcca
app:
  command: ["{build}/scenarios/allgather_overflow", "--count", "32", "--type-size", "8388608", "--iterations", "4"]
scales: { train: [3, 4, 5, 6, 7], test: [8] }
repetitions: 2
timeout: 60s
detectors: [kcca]
YAML
run kcca 1 "$work/kcca.yaml" --build "$(dirname "$scalefuzz")"
look kcca --kind scale-anomaly --file-line allgather_overflow.c: --ranks 0-7 --section bugs --section scale-models --charts 2

# 4. Injected stalls: every run hangs on purpose; no bug, the hangs are expected.
run stall 0 "$src/configs/scenarios/stall_ring.yaml" --filter 'rep<=1'
look stall --no-bugs --section hangs

# 5. Silent data movement (DMTracker): rank 5 of stuck_retry is the outlier; its
# section draws Distance^k per rank with Chart.js.
run dmtracker 1 "$src/configs/scenarios/dmtracker_stuck_retry.yaml"
look dmtracker --kind outlier-process --file-line stuck_retry.c: --ranks 5 --section bugs --section dmtracker --charts 1

if grep -q 'data-verdict="clean"' "$work/stall/report.html" && ! grep -q '>PASS<.*every run ok' "$work/stall/report.html"; then
  echo "ok: stall verdict is clean and does not claim every run ok"
else
  echo "FAIL: stall verdict"; grep -o '<div class="verdict".*</div>' "$work/stall/report.html"; fail=1
fi
exit $fail
