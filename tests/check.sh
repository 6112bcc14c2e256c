# Sourced by the end-to-end test scripts under tests/: `check FILE WHAT EXPR`
# prints ok/FAIL for a jq expression over FILE and sets fail=1 on FAIL.
fail=0
check() {
  if jq -e "$3" "$1" >/dev/null; then echo "ok:   $2"; else echo "FAIL: $2"; fail=1; fi
}
# campaign_findings SCALEFUZZ CAMPAIGN OUT: `scalefuzz run CAMPAIGN --out OUT`
# (its output in OUT.log); sets f to OUT/findings.json, ends the test without one.
campaign_findings() {
  "$1" run "$2" --out "$3" >"$3.log" 2>&1
  f="$3/findings.json"
  [ -f "$f" ] || { cat "$3.log"; echo "FAIL: no $f"; exit 1; }
}
