# Sourced by the end-to-end test scripts under tests/: `check FILE WHAT EXPR`
# prints ok/FAIL for a jq expression over FILE and sets fail=1 on FAIL.
fail=0
check() {
  if jq -e "$3" "$1" >/dev/null; then echo "ok:   $2"; else echo "FAIL: $2"; fail=1; fi
}
