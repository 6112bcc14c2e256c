#!/usr/bin/env bash
# Issue 29 item 5: a failing night keeps its runs' decision logs, so the
# next day's developer replays tonight's failure with its matches forced:
# `scalefuzz replay nights/<date>/runs/<id>` reproduces it (same outcome,
# same bug fingerprints), also after the nights directory moved (a CI cache
# restored elsewhere; the same build). The night: ci/nightly.sh of
# tests/nightly/replay_night.yaml (replay_master_worker, whose failures
# depend on which worker's result MPI_ANY_SOURCE takes first).
# usage: nightly_replay_test.sh BUILD_DIR SOURCE_DIR PYTHON
set -euo pipefail
source "$(dirname "$0")/test_lib.sh" nightly-replay "$@"

root="$work/nights"
status=0
"$src/ci/nightly.sh" "$root" --campaign "$src/tests/nightly/replay_night.yaml" --date 2026-02-01 --build "$build" \
  > "$work/night.log" 2>&1 || status=$?
[[ $status -eq 1 ]] || { cat "$work/night.log"; fail "the night exited $status, expected 1 (the first night, bugs found)"; }
night="$root/2026-02-01"
failing="$(sqlite3 "$night/scalefuzz.db" "SELECT run_id FROM runs WHERE outcome != 'ok' ORDER BY run_id LIMIT 1")"
kind="$(sqlite3 "$night/scalefuzz.db" "SELECT outcome FROM runs WHERE run_id = '$failing'")"
[[ -n $failing ]] || { sqlite3 "$night/scalefuzz.db" "SELECT run_id, outcome FROM runs"; fail "no failing run in the night"; }
for r in 0 1 2 3; do
  [[ -s "$night/runs/$failing/ranks/$r.decisions" ]] || fail "the night's failing run $failing has no decision log of rank $r"
done
first="$(grep -v '^#' "$night/runs/$failing/replay.txt" | head -n 1)"
[[ $first == "$build/scalefuzz replay $night/runs/$failing" ]] || fail "replay.txt's first command is '$first'"
grep -q "scalefuzz replay $night/runs/" "$night/junit.xml" || fail "junit.xml does not offer the exact replay"
echo "ok: the night kept $failing's decision logs; replay.txt and junit.xml offer: $first"

# The next day, elsewhere: the nights directory moved, the same build.
mv "$root" "$work/restored"
moved="$work/restored/2026-02-01/runs/$failing"
status=0
"$build/scalefuzz" replay "$moved" --times 3 > "$work/replay.log" 2>&1 || status=$?
[[ $status -eq 0 ]] || { cat "$work/replay.log"; fail "scalefuzz replay exited $status"; }
grep -q "^reproduced 3/3 (outcome $kind" "$work/replay.log" || { cat "$work/replay.log"; fail "not reproduced 3/3"; }
! grep -q diverged "$work/replay.log" || { cat "$work/replay.log"; fail "the replay diverged"; }
echo "ok: $(tail -n 1 "$work/replay.log") from the moved nights directory"
