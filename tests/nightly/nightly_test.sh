#!/usr/bin/env bash
# Nights of CI with ci/nightly.sh and real mpiexec (issue 16's acceptance):
#  - five nights of one campaign give the same fingerprints, night 2 reuses
#    the KCCA model (no training), and the diff says 0 new;
#  - a night with the scenario's bug switched on shows exactly that bug as
#    new (exit 1 with --fail-on new); switched off again, it is gone;
#  - a suppressed bug does not fail the job; an expired suppression does (2);
#  - only the last --keep nights are kept; trend.json counts new/gone;
#  - findings.json validates against docs/findings.schema.json, seeds
#    round-trip through jq, junit.xml parses with junitparser.
# usage: nightly_test.sh BUILD_DIR SOURCE_DIR PYTHON
set -euo pipefail
source "$(dirname "$0")/test_lib.sh" nightly-test "$@"
root="$work/nights"

campaign() { sed "s/TYPE_SIZE/$1/" "$src/tests/nightly/toggle.yaml" > "$work/toggle.yaml"; echo "$work/toggle.yaml"; }
# night DATE TYPE_SIZE EXPECTED_EXIT [nightly.sh args...]   (tests/nightly/toggle.yaml)
night() {
  local date="$1" type_size="$2" expected="$3"; shift 3
  local status=0
  "$src/ci/nightly.sh" "$root" --campaign "$(campaign "$type_size")" --date "$date" --build "$build" --keep 20 "$@" \
    > "$work/$date.log" 2>&1 || status=$?
  [[ $status -eq $expected ]] || { cat "$work/$date.log"; fail "night $date: exit $status, expected $expected"; }
}
all_fingerprints() { jq -c '[.bugs[].fingerprint] | sort' "$root/$1/findings.json"; }

off=8388608   # count x ranks x type size stays below 2^31 at 8 ranks
on=16777216   # it wraps at 8 ranks (the test scale), not at 2-5 (the train scales)

# Five quiet nights.
for d in 01 02 03 04 05; do night "2026-01-$d" "$off" 0; done
grep -q "no model at .*kcca-model.json yet: training one" "$work/2026-01-01.log" || fail "night 1 did not train the model"
grep -q "reusing the stored model $root/kcca-model.json" "$work/2026-01-02.log" ||
  { cat "$work/2026-01-02.log"; fail "night 2 did not reuse the model"; }
! grep -q "kcca: trained on" "$work/2026-01-02.log" || fail "night 2 trained a model"
first="$(all_fingerprints 2026-01-01)"
[[ "$first" != "[]" ]] || fail "the quiet night has no bug at all to compare (expected the kcca scale-model)"
jq -e '[.bugs[] | select(.severity != "info")] == []' "$root/2026-01-01/findings.json" > /dev/null ||
  fail "the quiet night has warnings or errors"
for d in 02 03 04 05; do
  [[ "$(all_fingerprints "2026-01-$d")" == "$first" ]] || fail "night 2026-01-$d has other fingerprints than night 1"
  [[ "$(jq .counts.new "$root/2026-01-$d/diff.json")" == 0 ]] || fail "night 2026-01-$d: new bugs against the night before"
done
echo "ok: five nights, fingerprints $first, model reused, 0 new"

# The bug switched on: exactly one new bug, and the job fails.
night 2026-01-06 "$on" 1 --fail-on new
new="$(jq -c '[.new[].fingerprint]' "$root/2026-01-06/diff.json")"
[[ "$(jq '.new | length' "$root/2026-01-06/diff.json")" == 1 ]] || { cat "$work/2026-01-06.log"; fail "expected exactly one new bug, got $new"; }
bug_fp="$(jq -r '.new[0].fingerprint' "$root/2026-01-06/diff.json")"
jq -e --arg fp "$bug_fp" '.bugs[] | select(.fingerprint == $fp) | .detector == "kcca" and .kind == "scale-anomaly"
    and (.locations[0] | test("^sf_allgather allgather_overflow[.]c:[0-9]+$"))' \
  "$root/2026-01-06/findings.json" > /dev/null || fail "the new bug is not the scale anomaly in sf_allgather"
[[ "$(jq .counts.gone "$root/2026-01-06/diff.json")" == 0 ]] || fail "bugs gone when the overflow was switched on"
grep -q "reusing the stored model" "$work/2026-01-06.log" || fail "the bug night did not reuse the model"
check_outputs "$root/2026-01-06"
echo "ok: the switched-on bug $bug_fp ($(jq -r '.new[0].signature' "$root/2026-01-06/diff.json")) is the one new bug"

# Switched off: gone, nothing new.
night 2026-01-07 "$off" 0
[[ "$(jq -c '[.gone[].fingerprint]' "$root/2026-01-07/diff.json")" == "[\"$bug_fp\"]" ]] || fail "the scale anomaly is not gone"
[[ "$(jq .counts.new "$root/2026-01-07/diff.json")" == 0 ]] || fail "new bugs after switching the overflow off"
echo "ok: switched off, the bug is gone"

# Suppressed, it does not fail the job; once expired, it fails loudly.
printf 'suppressions:\n  - fingerprint: %s\n    reason: "known overflow, ticket 16"\n    expires: 2999-12-31\n' "$bug_fp" > "$work/supp.yaml"
night 2026-01-08 "$on" 0 --fail-on any --suppressions "$work/supp.yaml" --window 1
jq -e '.new[0].suppressed.reason == "known overflow, ticket 16"' "$root/2026-01-08/diff.json" > /dev/null ||
  fail "diff.json does not mark the suppressed bug"
printf 'suppressions:\n  - fingerprint: %s\n    reason: "known overflow"\n    expires: 2020-01-01\n' "$bug_fp" > "$work/expired.yaml"
status=0
"$build/scalefuzz" diff "$root/2026-01-07" "$root/2026-01-08" --suppressions "$work/expired.yaml" > "$work/expired.log" 2>&1 || status=$?
[[ $status -eq 2 ]] || { cat "$work/expired.log"; fail "an expired suppression exited $status, expected 2"; }
grep -q "expired.yaml:2:5: the suppression of $bug_fp expired on 2020-01-01" "$work/expired.log" || fail "expiry not named"
echo "ok: a suppressed bug passes, an expired suppression fails with exit 2"

# Pruning and the trend.
"$src/ci/nightly.sh" "$root" --campaign "$(campaign "$off")" --date 2026-01-09 --build "$build" --keep 3 > "$work/prune.log" 2>&1 ||
  { cat "$work/prune.log"; fail "the pruning night failed"; }
kept="$(find "$root" -mindepth 1 -maxdepth 1 -type d -name '2026-*' -printf '%f\n' | sort | tr '\n' ' ')"
[[ "$kept" == "2026-01-07 2026-01-08 2026-01-09 " ]] || fail "kept nights: $kept"
[[ -f "$root/kcca-model.json" ]] || fail "the model went with a pruned night"
jq -e '.nights | length == 3 and .[1].new == 1 and .[2].gone == 1' "$root/trend.json" > /dev/null ||
  { cat "$root/trend.json"; fail "trend.json does not count the nights' new and gone bugs"; }
cmp -s "$root/trend.json" "$root/2026-01-09/trend.json" || fail "tonight's trend.json is not the root's"
grep -q "<table id=\"trend\">" "$root/2026-01-09/report.html" || fail "report.html has no trend table"
grep -q "<table id=\"trend\">" "$root/latest/report.html" || fail "latest/ has no report.html with the trend"
echo "ok: 3 nights kept, trend $(jq -c '[.nights[] | [.night, .serious_bugs, .new, .gone]]' "$root/trend.json")"

# A bug that shows on some nights only (issue 34 item 2): on on night 8, off
# on night 9, back on night 10. With the default window of 3 nights it is
# still there, not new, and --fail-on new passes.
night 2026-01-10 "$on" 0
[[ "$(jq .counts.new "$root/2026-01-10/diff.json")" == 0 ]] ||
  { jq .new "$root/2026-01-10/diff.json"; fail "the bug of night 8 is new again on night 10"; }
jq -e --arg fp "$bug_fp" '[.still_there[].fingerprint] | index($fp) != null' "$root/2026-01-10/diff.json" > /dev/null ||
  fail "the bug of night 8 is not still there on night 10"
[[ "$(jq '.seen_in | length' "$root/2026-01-10/diff.json")" == 2 ]] || fail "diff.json does not list the 2 earlier nights"
echo "ok: a bug back after a night off is still there within the window, not new"
