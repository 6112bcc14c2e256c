#!/usr/bin/env bash
# Three runs of the deadlock campaign (2, 3, 4 ranks) are one bug with three
# occurrences: the hang, localized by mpipd and pdg to the same Ssend in
# send_then_receive(). Its findings.json validates against the schema, its
# seeds round-trip through jq and its junit.xml parses with junitparser.
# usage: deadlock_bug_test.sh BUILD_DIR SOURCE_DIR PYTHON
set -euo pipefail
source "$(dirname "$0")/test_lib.sh" deadlock-bug "$@"

status=0
"$build/scalefuzz" run "$src/configs/scenarios/deadlock_cycle.yaml" --out "$work/out" --build "$build" \
  > "$work/run.log" 2>&1 || status=$?
[[ $status -eq 1 ]] || { cat "$work/run.log"; fail "deadlock campaign exited $status, expected 1"; }
f="$work/out/findings.json"
jq -e '[.bugs[] | select(.severity != "info")] | length == 1' "$f" > /dev/null ||
  { jq '.bugs | map(.signature)' "$f"; fail "expected exactly one bug"; }
jq -e '.bugs[0] | .occurrence_count == 3 and (.runs | length) == 3 and .detector == "outcome" and .kind == "hang"
       and (.locations[0] | test("^send_then_receive deadlock_cycle[.]c:[0-9]+$"))
       and (.related_findings | length) >= 3' "$f" > /dev/null ||
  { jq '.bugs[0] | del(.occurrences)' "$f"; fail "the bug is not the hang in send_then_receive with 3 occurrences"; }
echo "ok: $(jq -r '.bugs[0] | .fingerprint + " " + .signature + ", " + (.occurrence_count | tostring) + " occurrences"' "$f")"
check_outputs "$work/out"
